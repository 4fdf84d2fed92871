"""Game traces: one JSON object per finished deal (JSON Lines), and a checker that re-plays them.

A trace shows every deal in the open: the table dealt, each play with the player's hand just before it, the
leftover, the piles, the escobas and the points. :func:`check_trace` re-checks whole games from the trace
alone, with the engine's own capture and scoring rules, so a trace is evidence that the games were legal.

>>> from escoba_tutor import Game
>>> game = Game(players=2, seed=11, dealer=0)
>>> while not game.is_over:
...     _ = game.play(game.legal_moves()[0])
>>> lines = game_to_json(0, game)
>>> sorted(lines[0]) == sorted(TRACE_KEYS)
True
>>> check_trace(lines)
[]
>>> lines[0]["points"][0] += 1
>>> [(p.game, p.deal, p.message.startswith("the points should be")) for p in check_trace(lines)]
[(0, 0, True)]
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from itertools import combinations
from operator import attrgetter
from typing import IO, Any, NamedTuple, cast

from .captures import legal_captures
from .cards import DECK, Card, format_cards, parse_card
from .errors import EscobaError
from .game import SIDES, DealRecord, Game
from .rules import PROFILES, Rules
from .scoring import DealFacts, score_deal

__all__ = ["TRACE_KEYS", "PLAY_KEYS", "deal_to_json", "game_to_json", "game_lines", "TraceWriter", "open_trace",
           "Problem", "check_trace"]

#: The keys of every deal object, in the order they are written; "variants" is added (after "rules") only
#: when the game's rules differ from their profile.
TRACE_KEYS = ("game", "deal", "rules", "players", "sides", "dealer", "table", "dealer_capture", "dealer_escobas",
              "plays", "leftover", "leftover_to", "piles", "escobas", "points", "totals")
PLAY_KEYS = ("player", "hand", "card", "captured", "escoba")

# docs/rules.md §2: players are numbered in turn order; with four, 0 and 2 are partners against 1 and 3.
_SIDES = {players: [list(side) for side in sides] for players, sides in SIDES.items()}  # as JSON has them
_CARDS_PER_DEAL = 40
_TABLE_CARDS = 4


# ---------------------------------------------------------------------------------------------- writing
_code = attrgetter("code")
_index = attrgetter("index")


def _codes(cards: Iterable[Card]) -> list[str]:
    return list(map(_code, cards))


def _sorted_codes(cards: Iterable[Card]) -> list[str]:
    """The codes in deck order (as ``sorted(cards)``, with the order read in C rather than by ``Card.__lt__``)."""
    return list(map(_code, sorted(cards, key=_index)))


def deal_to_json(game_number: int, game: Game, record: DealRecord) -> dict[str, Any]:
    """One finished deal of ``game`` as a trace object: the table in the order dealt, hands and captures in
    deck order, piles in the order captured."""
    data: dict[str, Any] = {"game": game_number, "deal": record.deal, "rules": game.rules.profile}
    changes = game.rules.changes()
    if changes:
        data["variants"] = dict(changes)
    data.update(
        players=game.players,
        sides=[list(side) for side in game.sides],
        dealer=record.dealer,
        table=_codes(record.table),  # in the order dealt: the escoba-de-mano-by-pairs variant depends on it
        dealer_capture=_sorted_codes(record.dealer_capture),
        dealer_escobas=record.dealer_escobas,
        # Written for every play of every simulated deal: the records are unpacked, not read field by field.
        plays=[{"player": player, "hand": list(map(_code, hand)), "card": card.code,
                "captured": _sorted_codes(captured) if captured else [], "escoba": escoba}
               for player, hand, (card, captured), escoba in record.plays],
        leftover=_sorted_codes(record.leftover),
        leftover_to=record.leftover_to,
        piles=[_codes(pile) for pile in record.piles],
        escobas=list(record.escobas),
        points=list(record.score.points),
        totals=list(record.totals),
    )
    return data


def game_to_json(game_number: int, game: Game) -> list[dict[str, Any]]:
    """Every finished deal of ``game`` as trace objects."""
    return [deal_to_json(game_number, game, record) for record in game.deals]


# ------------------------------------------------------------------------- writing, fast (simulate --trace)
# The trace lines that TraceWriter writes are json.dumps(deal_to_json(...)) character for character
# (tests/test_trace.py checks it on every variant), built as text directly: the simulator writes one for every
# deal it plays, and building the objects first would cost more than playing the deal's last plays. Card
# codes and numbers need no escaping; the rules' names and options still go through json.dumps.
_QUOTED = {card: f'"{card.code}"' for card in DECK}
_quoted = _QUOTED.__getitem__


def _card_list(cards: Iterable[Card]) -> str:
    return "[" + ", ".join(map(_quoted, cards)) + "]"


def _sorted_card_list(cards: Iterable[Card]) -> str:
    return "[" + ", ".join(map(_quoted, sorted(cards, key=_index))) + "]"


def _int_list_text(numbers: Iterable[int]) -> str:
    return "[" + ", ".join(map(str, numbers)) + "]"


def game_lines(game_number: int, game: Game) -> list[str]:
    """Every finished deal of ``game`` as a trace line (with its newline): ``json.dumps`` of
    :func:`deal_to_json`, built as text."""
    changes = game.rules.changes()
    variants = f', "variants": {json.dumps(changes)}' if changes else ""
    rules = (f', "rules": {json.dumps(game.rules.profile)}{variants}, "players": {game.players}, '
             f'"sides": {json.dumps([list(side) for side in game.sides])}')
    lines = []
    for record in game.deals:
        plays = ", ".join([
            f'{{"player": {player}, "hand": [{", ".join(map(_quoted, hand))}], "card": {_quoted(card)}, '
            f'"captured": {_sorted_card_list(captured) if captured else "[]"}, '
            f'"escoba": {"true" if escoba else "false"}}}'
            for player, hand, (card, captured), escoba in record.plays])
        leftover_to = "null" if record.leftover_to is None else record.leftover_to
        lines.append(
            f'{{"game": {game_number}, "deal": {record.deal}{rules}, "dealer": {record.dealer}, '
            f'"table": {_card_list(record.table)}, "dealer_capture": {_sorted_card_list(record.dealer_capture)}, '
            f'"dealer_escobas": {record.dealer_escobas}, "plays": [{plays}], '
            f'"leftover": {_sorted_card_list(record.leftover)}, "leftover_to": {leftover_to}, '
            f'"piles": [{", ".join(map(_card_list, record.piles))}], "escobas": {_int_list_text(record.escobas)}, '
            f'"points": {_int_list_text(record.score.points)}, "totals": {_int_list_text(record.totals)}}}\n')
    return lines


class TraceWriter:
    """Writes trace objects, one JSON line each, to a text file (opened by :func:`open_trace`) or stream."""

    def __init__(self, stream: IO[str], *, close: bool = False) -> None:
        self._stream = stream
        self._close = close
        self.deals_written = 0

    def write_game(self, game_number: int, game: Game) -> None:
        lines = game_lines(game_number, game)
        # One write per game, so a run stopped with Ctrl-C leaves whole games only.
        self._stream.write("".join(lines))
        self._stream.flush()
        self.deals_written += len(lines)

    def close(self) -> None:
        if self._close:
            self._stream.close()
        else:
            self._stream.flush()

    def __enter__(self) -> TraceWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_trace(target: str | os.PathLike[str] | IO[str]) -> TraceWriter:
    """A :class:`TraceWriter` on a path (created or emptied now) or on an open text stream.

    A path that cannot be written raises an :class:`EscobaError` with code ``trace_unwritable`` at once,
    before any game is played.
    """
    if isinstance(target, (str, os.PathLike)):
        try:
            stream = open(target, "w", encoding="utf-8")  # noqa: SIM115 (the writer owns and closes it)
        except OSError as error:
            reason = error.strerror or type(error).__name__
            raise EscobaError(f"cannot write the trace to {os.fspath(target)!r}: {reason}",
                              code="trace_unwritable", path=os.fspath(target)) from None
        return TraceWriter(stream, close=True)
    if not hasattr(target, "write"):
        raise EscobaError(f"a trace goes to a file path or a text stream, not {type(target).__name__}",
                          code="trace_unwritable")
    return TraceWriter(target)


# ---------------------------------------------------------------------------------------------- checking
class Problem(NamedTuple):
    """One thing wrong in a trace: where (line, game, deal, play; None when unknown or not relevant) and what."""

    line: int | None
    game: int | None
    deal: int | None
    play: int | None
    message: str

    def __str__(self) -> str:
        where = [f"{name} {value}" for name, value in
                 (("line", self.line), ("game", self.game), ("deal", self.deal), ("play", self.play))
                 if value is not None]
        return (", ".join(where) + ": " if where else "") + self.message


class _Bad(Exception):
    """A deal object that does not have the trace's shape; nothing more of it can be checked."""

    def __init__(self, message: str, play: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.play = play


class _Stop(_Bad):
    """A play that breaks the deal: what follows it in the deal would only repeat the consequences."""


@dataclass
class _Play:
    player: int
    hand: tuple[Card, ...]
    card: Card
    captured: tuple[Card, ...]
    escoba: bool


@dataclass
class _Deal:
    game: int
    deal: int
    rules: Rules
    players: int
    sides: list[list[int]]
    dealer: int
    table: tuple[Card, ...]
    dealer_capture: tuple[Card, ...]
    dealer_escobas: int
    plays: list[_Play]
    leftover: tuple[Card, ...]
    leftover_to: int | None
    piles: list[tuple[Card, ...]]
    escobas: list[int]
    points: list[int]
    totals: list[int]


def _is_int(value: Any) -> bool:
    return type(value) is int


def _int(data: dict[str, Any], key: str, low: int = 0, high: int | None = None, play: int | None = None) -> int:
    value = data[key]
    if not _is_int(value) or value < low or (high is not None and value > high):
        upper = "" if high is None else f" to {high}"
        raise _Bad(f"{key!r} must be a whole number from {low}{upper}, not {value!r}"[:160], play)
    return cast(int, value)


def _card(code: Any, key: str, play: int | None = None) -> Card:
    """The card of a canonical code (``7o``, ``10e``); French or sloppy codes are not trace codes."""
    try:
        card = parse_card(code) if isinstance(code, str) else None
    except EscobaError:
        card = None
    if card is None or card.code != code:
        raise _Bad(f"{key!r} holds {code!r}, which is not a card code like '7o' or '10e'"[:160], play)
    return card


def _cards(value: Any, key: str, play: int | None = None) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise _Bad(f"{key!r} must be a list of card codes, not {value!r}"[:160], play)
    cards = [_card(code, key, play) for code in value]
    if len(set(cards)) != len(cards):
        twice = sorted({card for card in cards if cards.count(card) > 1})
        raise _Bad(f"{key!r} lists {format_cards(twice)} twice", play)
    return tuple(cards)


def _int_list(data: dict[str, Any], key: str, length: int) -> list[int]:
    value = data[key]
    if not isinstance(value, list) or len(value) != length or not all(_is_int(v) for v in value):
        raise _Bad(f"{key!r} must be a list of {length} whole numbers, one per side, not {value!r}"[:160])
    return value


def _keys(data: dict[str, Any], required: tuple[str, ...], optional: tuple[str, ...] = (),
          play: int | None = None) -> None:
    missing = [k for k in required if k not in data]
    extra = [k for k in data if k not in required and k not in optional]
    if missing or extra:
        parts = (["missing " + ", ".join(map(repr, missing))] if missing else []) + (
            ["unexpected " + ", ".join(map(repr, extra))] if extra else [])
        raise _Bad("; ".join(parts)[:160], play)


def _parse_deal(data: Any) -> _Deal:
    """The deal object as typed values, or :class:`_Bad` naming the first thing of the wrong shape."""
    if not isinstance(data, dict):
        raise _Bad(f"a trace line must be a JSON object, not {type(data).__name__}")
    _keys(data, TRACE_KEYS, ("variants",))
    game, deal = _int(data, "game"), _int(data, "deal")
    profile = data["rules"]
    if not isinstance(profile, str) or profile not in PROFILES:
        raise _Bad(f"'rules' must name a profile ({', '.join(PROFILES)}), not {profile!r}"[:160])
    rules = PROFILES[profile]
    if "variants" in data:
        variants = data["variants"]
        if not isinstance(variants, dict) or not variants:
            raise _Bad(f"'variants' must be an object of changed options, not {variants!r}"[:160])
        try:
            rules = rules.replace(**variants)
        except (EscobaError, TypeError) as error:
            raise _Bad(f"'variants': {error}"[:160]) from None
        if rules.changes() != variants:
            raise _Bad(f"'variants' must list only options that differ from {profile!r}: {variants!r}"[:160])
    players = _int(data, "players", 2, 4)
    if data["sides"] != _SIDES[players]:
        raise _Bad(f"'sides' must be {_SIDES[players]} with {players} players, not {data['sides']!r}"[:160])
    sides = _SIDES[players]
    dealer = _int(data, "dealer", 0, players - 1)
    table = _cards(data["table"], "table")
    if len(table) != _TABLE_CARDS:
        raise _Bad(f"'table' must hold the {_TABLE_CARDS} cards dealt face up, not {len(table)}")
    plays_data = data["plays"]
    if not isinstance(plays_data, list):
        raise _Bad(f"'plays' must be a list, not {type(plays_data).__name__}")
    plays = []
    for number, play in enumerate(plays_data):
        if not isinstance(play, dict):
            raise _Bad(f"a play must be an object, not {play!r}"[:160], number)
        _keys(play, PLAY_KEYS, play=number)
        player = _int(play, "player", 0, players - 1, number)
        card = _card(play["card"], "card", number)
        if type(play["escoba"]) is not bool:
            raise _Bad(f"'escoba' must be true or false, not {play['escoba']!r}"[:160], number)
        plays.append(_Play(player, _cards(play["hand"], "hand", number), card,
                           _cards(play["captured"], "captured", number), play["escoba"]))
    leftover_to = data["leftover_to"]
    if leftover_to is not None and (not _is_int(leftover_to) or not 0 <= leftover_to < len(sides)):
        raise _Bad(f"'leftover_to' must be a side number from 0 to {len(sides) - 1} or null, not {leftover_to!r}")
    piles = data["piles"]
    if not isinstance(piles, list) or len(piles) != len(sides):
        raise _Bad(f"'piles' must be a list of {len(sides)} piles, one per side")
    return _Deal(
        game=game, deal=deal, rules=rules, players=players, sides=sides, dealer=dealer, table=table,
        dealer_capture=_cards(data["dealer_capture"], "dealer_capture"),
        dealer_escobas=_int(data, "dealer_escobas"), plays=plays, leftover=_cards(data["leftover"], "leftover"),
        leftover_to=leftover_to, piles=[_cards(pile, "piles") for pile in piles],
        escobas=_int_list(data, "escobas", len(sides)), points=_int_list(data, "points", len(sides)),
        totals=_int_list(data, "totals", len(sides)))


def _show(cards: Iterable[Card]) -> str:
    return format_cards(cards) or "nothing"


def _dealer_takes(table: tuple[Card, ...], rules: Rules) -> tuple[frozenset[Card], int]:
    """The cards the dealer takes from the table dealt (in the order dealt) and the escobas scored
    (docs/rules.md §2, and the "escoba de mano by pairs" variant of §7)."""
    owed = rules.escobas_for_initial_table(sum(card.value for card in table))
    if owed:
        return frozenset(table), owed
    if rules.escoba_de_mano_pairs:
        pairs = [pair for pair in combinations(range(len(table)), 2) if sum(table[i].value for i in pair) == 15]
        pairings = [sorted(pair) for pair in pairs] + [
            sorted(p + q) for p, q in combinations(pairs, 2) if not set(p) & set(q)]
        if pairings:
            # The most cards first, then the pairing whose cards were dealt earliest.
            best = min(pairings, key=lambda positions: (-len(positions), positions))
            return frozenset(table[i] for i in best), len(best) // 2
    return frozenset(), 0


def _check_deal(deal: _Deal, report: Callable[..., None]) -> tuple[int, ...]:
    """Re-play one deal from its table and the stated hands; report what breaks. Returns the deal's points
    as scored from the stated piles (or the stated points when those piles cannot be scored)."""
    n, rules, sides = deal.players, deal.rules, len(deal.sides)
    side_of = {player: side for side, members in enumerate(deal.sides) for player in members}
    table = set(deal.table)
    dealt = set(deal.table)  # every card seen in this deal: no card may be dealt twice
    piles: list[set[Card]] = [set() for _ in deal.sides]
    escobas = [0] * sides
    # What the variants score besides piles and escobas (scoring.DealFacts), rebuilt from the plays.
    hand_escobas, renuncios, last_play_sweeps = [0] * sides, [0] * sides, [0] * sides
    must_capture, renuncio = rules.must_capture, rules.renuncio
    last_play_escoba, chile = rules.last_play_escoba, rules.chile
    last_capture: int | None = None

    # Escoba de mano (docs/rules.md §2): decided by the rules from the table alone.
    dealer_side = side_of[deal.dealer]
    taken: AbstractSet[Card]
    taken, owed = _dealer_takes(deal.table, rules)
    if (frozenset(deal.dealer_capture), deal.dealer_escobas) != (taken, owed):
        total = sum(card.value for card in deal.table)
        expected = f"the dealer takes {_show(taken)} with {owed} escoba(s)" if owed else "no escoba de mano"
        report(f"the table {_show(deal.table)} adds up to {total}: {expected}, not {_show(deal.dealer_capture)} "
               f"with {deal.dealer_escobas} escoba(s)")
    if owed:
        piles[dealer_side] |= taken
        escobas[dealer_side] += owed
        last_capture = dealer_side
        table -= taken

    # The plays: turn order from the mano, three cards a round, every capture legal on the rebuilt table.
    mano = (deal.dealer + 1) % n
    plays_expected = _CARDS_PER_DEAL - _TABLE_CARDS
    round_plays = 3 * n
    hands: list[set[Card]] = [set() for _ in range(n)]
    consistent = True  # False once the deal stopped following the rules: later checks would only echo it
    try:
        for number, play in enumerate(deal.plays):
            if number >= plays_expected:
                raise _Stop(f"a deal has {plays_expected} plays; this one is extra", number)
            player, within = play.player, number % round_plays
            side = side_of[player]
            turn = (mano + number) % n
            if player != turn:
                raise _Stop(f"player {player} plays, but it is player {turn}'s turn (dealer {deal.dealer}, "
                            f"mano {mano})", number)
            if within < n:  # the first play of this player in a round: three new cards
                again = [card for card in play.hand if card in dealt]
                if again:
                    raise _Stop(f"player {player}'s hand {_show(play.hand)}: {_show(again)} dealt twice in this "
                                "deal", number)
                if len(play.hand) != 3:
                    raise _Stop(f"player {player}'s hand {_show(play.hand)}: a new round deals 3 cards, not "
                                f"{len(play.hand)}", number)
                dealt.update(play.hand)
                hands[player] = set(play.hand)
                if chile and sum(card.value for card in play.hand) == 15:
                    hand_escobas[side] += 1
            elif set(play.hand) != hands[player]:
                raise _Stop(f"player {player}'s hand is stated as {_show(play.hand)}, but after the plays before "
                            f"it is {_show(hands[player])}", number)
            if play.card not in hands[player]:
                raise _Stop(f"{play.card} is not in player {player}'s hand ({_show(play.hand)})", number)
            taken = set(play.captured)
            if taken - table:
                raise _Stop(f"{play.card} takes {_show(taken - table)}, which is not on the table "
                            f"({_show(table)})", number)
            legal = legal_captures(play.card, tuple(table), rules)
            options = " or ".join(_show(capture) for capture in legal)
            if taken and frozenset(taken) not in legal:
                made = sum(card.value for card in taken) + (play.card.value if rules.capture == "fifteen" else 0)
                goal = 15 if rules.capture == "fifteen" else play.card.value
                raise _Stop(f"{play.card} cannot take {_show(taken)} (that makes {made}, the goal is {goal}): on "
                            f"{_show(table)} it can take {options or 'nothing'}", number)
            if not taken and legal and must_capture:
                if not renuncio:
                    raise _Stop(f"{play.card} can capture on {_show(table)} ({options}), so it must", number)
                renuncios[side] += 1  # accepted, and penalised when the deal is scored
            hands[player].discard(play.card)
            if taken:
                table -= taken
                piles[side] |= taken | {play.card}
                last_capture = side
            else:
                table.add(play.card)
            sweep = bool(taken) and not table
            escoba = sweep and (last_play_escoba or number < plays_expected - 1)
            if sweep and not escoba:
                last_play_sweeps[side] += 1
            if play.escoba != escoba:  # a wrong flag changes no state: report it and go on
                why = "the last play's sweep does not score" if sweep else (
                    "the table is " + ("empty" if not table else _show(table)) + " after the play")
                report(f"the escoba flag is {str(play.escoba).lower()}, but {why}", number)
            escobas[side] += int(escoba)
    except _Stop as stopped:
        report(f"{stopped.message}; the rest of this deal is not re-played", stopped.play)
        consistent = False
    else:
        if len(deal.plays) < plays_expected:
            report(f"the deal has {len(deal.plays)} plays, not {plays_expected}: "
                   f"{_CARDS_PER_DEAL - len(dealt)} card(s) never dealt")
            consistent = False

    if consistent:
        if set(deal.leftover) != table:
            report(f"the leftover is {_show(deal.leftover)}, but {_show(table)} is left on the table")
        if deal.leftover_to != last_capture:
            who = "nobody (no capture)" if last_capture is None else f"side {last_capture} (the last capture)"
            stated_to = "nobody" if deal.leftover_to is None else f"side {deal.leftover_to}"
            report(f"the leftover goes to {who}, not {stated_to}")
        if last_capture is not None:
            piles[last_capture] |= table
        for side, (stated_pile, rebuilt) in enumerate(zip(deal.piles, piles)):
            if set(stated_pile) != rebuilt:
                report(f"side {side}'s pile lacks {_show(rebuilt - set(stated_pile))} and has "
                       f"{_show(set(stated_pile) - rebuilt)} too many")
        if deal.escobas != escobas:
            report(f"the escobas are {escobas}, not {deal.escobas}")

    # Only the variants read these facts; the default rules score piles and escobas alone.
    facts = DealFacts(escobas_de_mano=tuple(owed if side == dealer_side else 0 for side in range(sides)),
                      hand_escobas=tuple(hand_escobas), renuncios=tuple(renuncios),
                      last_play_sweeps=tuple(last_play_sweeps))
    try:
        score = score_deal(deal.piles, deal.escobas, rules, facts=facts)
    except EscobaError as error:
        report(f"the piles cannot be scored: {error}")
        return tuple(deal.points)
    if list(score.points) != deal.points:
        report(f"the points should be {list(score.points)} ({'; '.join(map(str, score.lines))}), "
               f"not {deal.points}")
    return score.points


@dataclass
class _GameState:
    number: int
    players: int
    rules: Rules
    deals: int = 0                       # deals seen
    next_deal: int | None = 0            # None: unknown after a line that could not be read
    dealer: int | None = None            # the last deal's dealer
    totals: tuple[int, ...] | None = None
    won_after: int | None = None         # the deal after which a side had won
    last_line: int = 0


def _winner(totals: tuple[int, ...], target: int) -> int | None:
    """docs/rules.md §6: the side with the single highest total once someone reached the target."""
    best = max(totals)
    leaders = [side for side, total in enumerate(totals) if total == best]
    return leaders[0] if best >= target and len(leaders) == 1 else None


def _lines(source: str | os.PathLike[str] | Iterable[str | bytes | dict[str, Any]]) -> Iterator[tuple[int, Any]]:
    """(line number, parsed object or a _Bad) for every non-blank line."""
    if isinstance(source, (str, os.PathLike)):
        with open(source, encoding="utf-8") as stream:
            items: list[Any] = stream.readlines()
    else:
        items = list(source)
    for number, item in enumerate(items, 1):
        if isinstance(item, dict):
            yield number, item
            continue
        if isinstance(item, bytes):
            item = item.decode("utf-8", "replace")
        if not isinstance(item, str):
            yield number, _Bad(f"a trace line must be text or an object, not {type(item).__name__}")
            continue
        if not item.strip():
            continue
        try:
            yield number, json.loads(item)
        except ValueError as error:
            yield number, _Bad(f"not JSON: {error}"[:160])


def check_trace(source: str | os.PathLike[str] | Iterable[str | bytes | dict[str, Any]]) -> list[Problem]:
    """Every problem in a trace (a path, or its lines as text or parsed objects); an empty list if it is valid.

    Each game is re-played from its trace alone: turn order from the dealer (docs/rules.md §2), no card dealt
    twice and all 40 used, every capture legal on the rebuilt table and must-capture respected, escoba
    flags, escoba de mano, leftover and who takes it, piles, escobas, points (:func:`score_deal` of the
    piles, with the facts the variants score: escobas en mano, renuncios, unscored last sweeps), running
    totals, the next dealer, and that each game stops exactly when a side has won.
    A path that cannot be read raises :class:`OSError`.

    >>> [str(problem) for problem in check_trace(["[1, 2]"])]
    ['line 1: a trace line must be a JSON object, not list']
    >>> str(check_trace([])[0])
    'the trace holds no deal'
    """
    problems: list[Problem] = []
    game: _GameState | None = None
    finished: set[int] = set()
    count = 0

    def finish(state: _GameState | None) -> None:
        if state is None:
            return
        finished.add(state.number)
        if state.won_after is None and state.totals is not None:
            problems.append(Problem(state.last_line, state.number, None, None,
                                    f"the game stops after {state.deals} deal(s) without a winner (totals "
                                    f"{list(state.totals)}, target {state.rules.target})"))

    for line, data in _lines(source):
        count += 1
        try:
            if isinstance(data, _Bad):
                raise data
            deal = _parse_deal(data)
        except _Bad as bad:
            raw = data if isinstance(data, dict) else {}
            known = {key: raw.get(key) if _is_int(raw.get(key)) else None for key in ("game", "deal")}
            problems.append(Problem(line, known["game"], known["deal"], bad.play, bad.message))
            if game is not None and known["game"] in (None, game.number):
                game.next_deal = game.dealer = game.totals = None  # the sequence is broken here
                game.last_line = line
            continue

        def report(message: str, play: int | None = None, line: int = line, deal: _Deal = deal) -> None:
            problems.append(Problem(line, deal.game, deal.deal, play, message))

        if game is None or deal.game != game.number:
            finish(game)
            if deal.game in finished:
                report(f"game {deal.game} appears again after another game")
            game = _GameState(deal.game, deal.players, deal.rules)
            if deal.deal != 0:
                report(f"game {deal.game} starts at deal {deal.deal}, not 0")
                game.next_deal = None
        if deal.players != game.players or deal.rules != game.rules:
            report("the players or the rules change within the game")
        if game.won_after is not None:
            # The totals are unknown again if a line that could not be read came between.
            who = "a side" if game.totals is None else f"side {_winner(game.totals, game.rules.target)}"
            report(f"{who} had already won after deal {game.won_after}, so no deal may follow")
        if game.next_deal is not None and deal.deal != game.next_deal:
            report(f"deal {game.next_deal} was expected here (a deal is missing or repeated)")
        if game.dealer is not None and deal.dealer != (game.dealer + 1) % deal.players:
            report(f"the dealer must be player {(game.dealer + 1) % deal.players}, to the right of the last "
                   f"dealer {game.dealer}, not {deal.dealer}")

        points = _check_deal(deal, report)
        if game.totals is None and deal.deal == 0:
            game.totals = (0,) * len(deal.sides)
        if game.totals is not None:
            expected = tuple(t + p for t, p in zip(game.totals, points))
            if tuple(deal.totals) != expected:
                report(f"the totals should be {list(expected)}, not {deal.totals}")
            game.totals = expected
        else:
            game.totals = tuple(deal.totals)  # unknown before: trust this line from here on
        game.deals += 1
        game.next_deal = deal.deal + 1
        game.dealer = deal.dealer
        game.last_line = line
        if game.won_after is None and _winner(game.totals, deal.rules.target) is not None:
            game.won_after = deal.deal
    finish(game)
    if count == 0:
        problems.append(Problem(None, None, None, None, "the trace holds no deal"))
    return problems
