"""A whole game: seeded deals, turns, plays, undo, each player's own view, and the event history.

Every shuffle comes from the seed and the deal number, so a game is fully given by its rules, player count,
seed, first dealer and moves: that is what a save holds.

>>> game = Game(players=2, seed=7)
>>> game.turn == (game.dealer + 1) % 2          # the mano, to the dealer's right, plays first
True
>>> len(game.hand(game.turn)), len(game.table)
(3, 4)
>>> move = game.legal_moves()[0]
>>> game.play(move).kind
'play'
>>> game.undo() == move
True
>>> len(game.hand(game.turn))
3
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import chain, filterfalse, repeat
from operator import attrgetter
from typing import NamedTuple, NoReturn, cast

from . import save
from .captures import _captures_in_mask, _value_counts, capture_target, captures_on
from .cards import DECK, Card, as_card, format_cards
from .errors import (
    CardError,
    EscobaError,
    GameOverError,
    IllegalMoveError,
    MustCaptureError,
    NothingToUndoError,
    NotOnTableError,
    NotYourCardError,
    WrongSumError,
)
from .moves import MAX_SEED, Move
from .rules import ESCOBA, Rules, as_rules
from .scoring import DealFacts, DealScore, score_piles

__all__ = ["Move", "Game", "PlayerView", "DealRecord", "PlayRecord", "DealStarted", "EscobaDeMano",
           "CardsDealt", "Play", "HandEscoba", "LeftoverTaken", "DealScored", "GameWon", "MAX_SEED", "SIDES",
           "deal_deck"]

_by_index = attrgetter("index")
_NO_CARDS: frozenset[Card] = frozenset()
_bit_of = attrgetter("bit")
_new = tuple.__new__  # builds a NamedTuple from a tuple in C, skipping the generated Python __new__ (hot path)


#: Each card laid on the table, as one shared move (moves are immutable): every position's legal moves have them.
_LAID: dict[Card, Move] = {card: _new(Move, (card, _NO_CARDS)) for card in DECK}


# ------------------------------------------------------------------------------------------------- events
class DealStarted(NamedTuple):
    deal: int
    dealer: int
    mano: int
    table: tuple[Card, ...]
    @property
    def kind(self) -> str:
        return "deal_started"

    def __str__(self) -> str:
        return f"deal {self.deal}: player {self.dealer} deals, table {format_cards(self.table)}"


class EscobaDeMano(NamedTuple):
    deal: int
    player: int
    side: int
    cards: tuple[Card, ...]
    escobas: int
    #: True when taken as pairs adding up to 15 (the escoba_de_mano_pairs variant); then the rest stays.
    pairs: bool = False
    @property
    def kind(self) -> str:
        return "escoba_de_mano"

    def __str__(self) -> str:
        return f"player {self.player} takes {format_cards(self.cards)}: escoba de mano x{self.escobas}"


class CardsDealt(NamedTuple):
    deal: int
    round: int
    cards_each: int
    @property
    def kind(self) -> str:
        return "cards_dealt"

    def __str__(self) -> str:
        return f"round {self.round}: {self.cards_each} cards to each player"


class Play(NamedTuple):
    deal: int
    player: int
    side: int
    card: Card
    captured: tuple[Card, ...]
    escoba: bool
    #: The renuncio variant: the card was laid although it could capture.
    renuncio: bool = False
    #: The "no escoba on the last play" variant: the deal's last card swept the table, which does not score.
    sweep_not_scored: bool = False
    @property
    def kind(self) -> str:
        return "play"

    @property
    def move(self) -> Move:
        return Move(self.card, frozenset(self.captured))

    def __str__(self) -> str:
        if not self.captured:
            return f"{self.card} laid on the table" + (": renuncio, it could capture" if self.renuncio else "")
        text = f"{self.card} took {' '.join(c.code for c in self.captured)}"
        if self.sweep_not_scored:
            return text + ": a sweep with the last card, no escoba"
        return text + (": escoba" if self.escoba else "")


class HandEscoba(NamedTuple):
    """Chile's escoba en mano: a player dealt three cards adding up to 15 shows them and scores 3 points."""

    deal: int
    player: int
    side: int
    cards: tuple[Card, ...]
    @property
    def kind(self) -> str:
        return "escoba_en_mano"

    def __str__(self) -> str:
        return f"player {self.player} shows {format_cards(self.cards)}: escoba en mano"


class LeftoverTaken(NamedTuple):
    deal: int
    side: int | None
    cards: tuple[Card, ...]
    @property
    def kind(self) -> str:
        return "leftover"

    def __str__(self) -> str:
        who = "nobody" if self.side is None else f"side {self.side}"
        return f"leftover {format_cards(self.cards) or '(none)'} to {who}"


class DealScored(NamedTuple):
    deal: int
    score: DealScore
    totals: tuple[int, ...]
    @property
    def kind(self) -> str:
        return "deal_scored"

    def __str__(self) -> str:
        return f"deal {self.deal} points {list(self.score.points)}, totals {list(self.totals)}"


class GameWon(NamedTuple):
    side: int
    totals: tuple[int, ...]
    @property
    def kind(self) -> str:
        return "game_won"

    def __str__(self) -> str:
        return f"side {self.side} wins {'–'.join(map(str, self.totals))}"


#: Every kind of event in a game's history.
Event = DealStarted | EscobaDeMano | CardsDealt | Play | HandEscoba | LeftoverTaken | DealScored | GameWon


class PlayRecord(NamedTuple):
    """A play as the referee saw it: with the player's hand just before it."""

    player: int
    hand: tuple[Card, ...]
    move: Move
    escoba: bool


@dataclass(frozen=True)
class DealRecord:
    """A finished deal, everything in the open: for traces, reviews and checks."""

    deal: int
    dealer: int
    table: tuple[Card, ...]
    dealer_capture: tuple[Card, ...]
    dealer_escobas: int
    plays: tuple[PlayRecord, ...]
    leftover: tuple[Card, ...]
    leftover_to: int | None
    piles: tuple[tuple[Card, ...], ...]
    escobas: tuple[int, ...]
    score: DealScore
    totals: tuple[int, ...]
    #: Per side: Chile's escobas en mano, renuncios, and sweeps with the last card that did not score.
    hand_escobas: tuple[int, ...] = ()
    renuncios: tuple[int, ...] = ()
    last_play_sweeps: tuple[int, ...] = ()

    def tables(self) -> list[tuple[Card, ...]]:
        """The table before the first play and after each play, for a step-by-step review of the deal."""
        table = [c for c in self.table if c not in self.dealer_capture]
        states = [tuple(table)]
        for record in self.plays:
            card, taken = record.move
            table = [c for c in table if c not in taken] if taken else [*table, card]
            states.append(tuple(table))
        return states


class PlayerView(NamedTuple):
    """What one player may know: their own hand, never another's; everything on the table and in the open.

    A value like the events, built in one call before every decision of a bot (so a tuple of its fields: see
    ``_replace`` and ``_fields``). Most bots read only a few fields, so what is worked out from the others
    (``seen``, ``pile_sizes``) is a property, computed when read."""

    player: int
    side: int
    sides: tuple[tuple[int, ...], ...]
    rules: Rules
    deal: int
    dealer: int
    #: The player to move, or None once the game is over.
    turn: int | None
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    #: Each side's captures in this deal (every player saw them taken), escobas de mano included.
    piles: tuple[tuple[Card, ...], ...]
    escobas: tuple[int, ...]
    deck_left: int
    totals: tuple[int, ...]
    #: The moves this player may make now: empty when it is not their turn.
    legal_moves: tuple[Move, ...]
    #: Every event of the game so far, as :attr:`Game.history` (public information only).
    history: tuple[Event, ...]
    #: The winning side once the game is over.
    winner: int | None

    @property
    def pile_sizes(self) -> tuple[int, ...]:
        return tuple(map(len, self.piles))

    @property
    def seen(self) -> frozenset[Card]:
        """The cards this player has seen in this deal: their hand, the table dealt and every card played, which
        all lie on the table or in a pile; once the game is over, every card has been played. Worked out at each
        read: keep it in a name to read it often."""
        if self.winner is not None:
            return _WHOLE_DECK
        return frozenset(chain(self.table, *self.piles, self.hand))

    @property
    def unseen(self) -> tuple[Card, ...]:
        """The cards this player has not seen in this deal: in other hands or still in the deck."""
        seen = self.seen
        return tuple(card for card in DECK if card not in seen)

    @property
    def my_turn(self) -> bool:
        return self.turn == self.player


_WHOLE_DECK = frozenset(DECK)


# -------------------------------------------------------------------------------------------------- state
class _State:
    """Everything that changes during a game. Hands, table, piles and the per-side counts are tuples, so a
    snapshot for undo is a shallow copy; ``plays`` only grows within a deal, so a snapshot keeps its length and
    undo cuts it back. ``log_sizes`` holds the lengths of the game's logs when the snapshot was taken."""

    __slots__ = ("deal", "dealer", "deck", "dealt", "hands", "table", "table_mask", "piles", "escobas",
                 "last_capturer", "turn", "totals", "initial_table", "dealer_capture", "dealer_escobas",
                 "plays", "plays_len", "round", "winner", "log_sizes", "hand_escobas", "renuncios", "sweeps")
    deal: int
    dealer: int
    deck: tuple[Card, ...]
    dealt: int
    hands: list[tuple[Card, ...]]
    table: tuple[Card, ...]
    table_mask: int
    piles: list[tuple[Card, ...]]
    escobas: tuple[int, ...]
    last_capturer: int | None
    turn: int
    totals: tuple[int, ...]
    initial_table: tuple[Card, ...]
    dealer_capture: tuple[Card, ...]
    dealer_escobas: int
    plays: list[PlayRecord]
    plays_len: int
    round: int
    winner: int | None
    log_sizes: tuple[int, int, int]
    hand_escobas: tuple[int, ...]
    renuncios: tuple[int, ...]
    sweeps: tuple[int, ...]

    def copy(self) -> _State:
        other = _State.__new__(_State)
        other.deal, other.dealer, other.deck, other.dealt = self.deal, self.dealer, self.deck, self.dealt
        other.hands, other.table, other.table_mask = self.hands[:], self.table, self.table_mask
        other.piles, other.escobas = self.piles[:], self.escobas
        other.hand_escobas, other.renuncios, other.sweeps = self.hand_escobas, self.renuncios, self.sweeps
        other.last_capturer, other.turn, other.totals = self.last_capturer, self.turn, self.totals
        other.initial_table, other.dealer_capture = self.initial_table, self.dealer_capture
        other.dealer_escobas, other.round, other.winner = self.dealer_escobas, self.round, self.winner
        other.plays, other.plays_len = self.plays, len(self.plays)
        return other


#: The sides for each number of players: who plays with whom (four players: 0 and 2 against 1 and 3).
SIDES = {2: ((0,), (1,)), 3: ((0,), (1,), (2,)), 4: ((0, 2), (1, 3))}


def _plus(counts: tuple[int, ...], side: int, n: int) -> tuple[int, ...]:
    """``counts`` with ``n`` added to one side's. The per-side counts are tuples: they change a few times a
    deal, while the state is copied for undo at every round's end, which then shares them instead of copying."""
    return counts[:side] + (counts[side] + n,) + counts[side + 1:]


def _pairs_of_15(table: tuple[Card, ...]) -> tuple[Card, ...]:
    """The escoba_de_mano_pairs variant: the cards of the pairs adding up to 15 that the dealer takes — the
    pairing with the most cards, then the one whose cards come earliest in the order dealt."""
    pairs = [(i, j) for i in range(len(table)) for j in range(i + 1, len(table))
             if table[i].value + table[j].value == 15]
    pairings = [[p] for p in pairs] + [[p, q] for p in pairs for q in pairs if p < q and not set(p) & set(q)]
    if not pairings:
        return ()
    best = min(pairings, key=lambda pairing: (-2 * len(pairing), sorted(i for pair in pairing for i in pair)))
    return tuple(table[i] for i in sorted(i for pair in best for i in pair))


class Game:
    """An Escoba (or Scopa) game for 2 players, 3 players, or 4 in two partnerships (0 and 2 against 1 and 3).

    ``seed`` fixes every shuffle (a random one is chosen when it is None); ``dealer`` fixes the first dealer
    (by default it is drawn from the seed).
    """

    def __init__(self, players: int = 2, rules: Rules | str = ESCOBA, seed: int | None = None,
                 dealer: int | None = None) -> None:
        if type(players) is not int or players not in SIDES:
            raise EscobaError(f"Escoba is played by 2 or 3 players, or 4 in partnerships, not {players!r}"[:120],
                              code="player_count")
        rules = as_rules(rules)
        rules.check_players(players)
        if seed is None:
            seed = random.SystemRandom().randrange(10**9)
        if type(seed) is not int or not 0 <= seed <= MAX_SEED:
            raise EscobaError(f"a seed is a whole number from 0 to {MAX_SEED}, not {seed!r}"[:120], code="bad_seed")
        if dealer is None:
            dealer = random.Random(f"escoba-tutor:{seed}:dealer").randrange(players)
        if type(dealer) is not int or not 0 <= dealer < players:
            raise EscobaError(f"the first dealer is a player number from 0 to {players - 1}, not {dealer!r}"[:120],
                              code="bad_dealer")
        self.players = players
        self.rules = rules
        self.seed = seed
        self.first_dealer = dealer
        self.sides: tuple[tuple[int, ...], ...] = SIDES[players]
        self.side_of: tuple[int, ...] = tuple(next(i for i, s in enumerate(self.sides) if p in s)
                                              for p in range(players))
        self._events: list[Event] = []
        self._moves: list[Move] = []
        self._deals: list[DealRecord] = []
        self._undo: list[_State | tuple[Card, ...]] = []  # a snapshot, or the table before an ordinary play
        self._undo_last_capturer: list[int | None] = []  # for each ordinary play on the stack
        self._legal: tuple[Move, ...] | None = None
        # How the game started, when not from its seed: (deal, deck, totals) for a deal dealt from a given deck
        # (:meth:`dealt_from`), None for a position built from parts (:meth:`at_position`, no start to go back to)
        self._start: tuple[int, tuple[Card, ...], tuple[int, ...]] | None = None
        self._from_parts = False
        state = self._s = _State()
        state.totals = (0,) * len(self.sides)
        state.winner = None
        self._start_deal(0, dealer)

    # ------------------------------------------------------------------------------------- reading
    @property
    def deal(self) -> int:
        return self._s.deal

    @property
    def dealer(self) -> int:
        return self._s.dealer

    @property
    def turn(self) -> int | None:
        """The player to move, or None when the game is over."""
        return None if self._s.winner is not None else self._s.turn

    @property
    def table(self) -> tuple[Card, ...]:
        return self._s.table

    def hand(self, player: int) -> tuple[Card, ...]:
        self._check_player(player)
        return self._s.hands[player]

    def _check_player(self, player: object) -> None:
        if type(player) is not int or not 0 <= player < self.players:
            raise EscobaError(f"there is no player {player!r} in a {self.players}-player game"[:120],
                              code="bad_player")

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(self._s.hands)

    @property
    def piles(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(self._s.piles)

    @property
    def escobas(self) -> tuple[int, ...]:
        return tuple(self._s.escobas)

    @property
    def totals(self) -> tuple[int, ...]:
        return self._s.totals

    @property
    def deck_left(self) -> int:
        return 40 - self._s.dealt

    @property
    def winner(self) -> int | None:
        """The winning side once the game is over."""
        return self._s.winner

    @property
    def is_over(self) -> bool:
        return self._s.winner is not None

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move of the game so far, in order: with the rules, seed and first dealer, the whole game."""
        return tuple(self._moves)

    @property
    def history(self) -> tuple[Event, ...]:
        """Every event so far (public information only: no hidden hand appears)."""
        return tuple(self._events)

    @property
    def deals(self) -> tuple[DealRecord, ...]:
        """The finished deals, with everything in the open."""
        return tuple(self._deals)

    @property
    def current_plays(self) -> tuple[PlayRecord, ...]:
        return tuple(self._s.plays)

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves the player to move may make, by hand card in deck order; empty once the game is over."""
        if self._legal is None:
            self._legal = self._moves_for(self._s.hands[self._s.turn]) if self._s.winner is None else ()
        return self._legal

    def _moves_for(self, hand: Iterable[Card]) -> tuple[Move, ...]:
        rules, table = self.rules, self._s.table_mask
        fifteen = rules.capture == "fifteen"
        counts = _value_counts(table)
        moves: list[Move] = []
        for card in hand:
            captures = _captures_in_mask(table, 15 - card.value, counts) if fifteen else captures_on(card, table, rules)
            if captures:
                moves += map(_new, repeat(Move), zip(repeat(card), captures))  # a C loop (zip reuses its pair)
                if not rules.must_capture:
                    moves.append(_LAID[card])
            else:
                moves.append(_LAID[card])
        return tuple(moves)

    def renuncio_moves(self) -> tuple[Move, ...]:
        """With the renuncio variant: the lay-downs of cards that could capture, which the game accepts and
        penalises at the deal's end (they are not among :meth:`legal_moves`). Empty otherwise."""
        s = self._s
        if not self.rules.renuncio or s.winner is not None:
            return ()
        legal = self.legal_moves()
        return tuple(_LAID[card] for card in s.hands[s.turn] if _LAID[card] not in legal)

    def captures_for(self, card: Card | str) -> list[frozenset[Card]]:
        """The captures a card could make on the table now."""
        card = as_card(card)
        if card.bit & self._s.table_mask:
            raise CardError(f"{card} lies on the table: only a card in hand can capture", code="card_on_table",
                            token=card.code, card=card.code)
        return captures_on(card, self._s.table_mask, self.rules)

    def view(self, player: int) -> PlayerView:
        """What ``player`` may see now."""
        if type(player) is not int or not 0 <= player < self.players:
            self._check_player(player)
        s = self._s
        turn = s.turn if s.winner is None else None
        # Bots get a view before every decision: built in one call, from the game's own immutable parts.
        return _new(PlayerView, (
            player, self.side_of[player], self.sides, self.rules, s.deal, s.dealer, turn, s.hands[player], s.table,
            tuple(map(len, s.hands)), tuple(s.piles), s.escobas, 40 - s.dealt, s.totals,
            (self._legal or self.legal_moves()) if turn == player else (), tuple(self._events), s.winner))

    # ------------------------------------------------------------------------------------- playing
    def play(self, move: Move | Card | str, captured: Iterable[Card | str] | str | None = None) -> Play:
        """Play a move (a :class:`Move`, its text ``3c+1o+4b+7o``, or a card and the cards it takes).

        A move the rules forbid raises an :class:`IllegalMoveError` that says why and lists the legal
        captures, and changes nothing.
        """
        legal = self._legal
        if legal and type(move) is Move and captured is None and move in legal:
            return self._apply(move)  # a move just taken from legal_moves(): found by identity at once
        if self._s.winner is not None:
            raise GameOverError("the game is over: start a new one or undo", code="game_over")
        if type(move) is Move and captured is None:
            pass
        elif captured is not None:
            move = Move.of(cast("Card | str", move), captured)  # a Move as the card: Move() refuses it
        elif isinstance(move, str):
            move = Move.from_text(move)
        elif not isinstance(move, Move):
            raise IllegalMoveError(f"a move must be a Move or text like '3c+1o+4b+7o', not {type(move).__name__}",
                                   code="bad_move_text")
        if move in self.legal_moves():
            return self._apply(move)
        if move in self.renuncio_moves():
            return self._apply(move, renuncio=True)
        self._refuse(move)

    def _refuse(self, move: Move) -> NoReturn:
        """Raise the error that says why ``move`` is not legal now."""
        s = self._s
        card, taken = move
        hand = s.hands[s.turn]
        legal = tuple(m.captured for m in self.legal_moves() if m.card is card and m.captured)
        shown = " or ".join(format_cards(c) for c in legal) or "nothing"
        common = {"card": card.code, "taken": tuple(c.code for c in sorted(taken, key=_by_index)),
                  "legal_captures": legal, "player": s.turn}
        if card not in hand:
            raise NotYourCardError(f"{card} is not in the hand of player {s.turn} "
                                   f"({format_cards(hand)})", **common)
        missing = [c for c in taken if c not in s.table]
        if missing:
            raise NotOnTableError(f"{format_cards(missing)} {'is' if len(missing) == 1 else 'are'} not on the table "
                                  f"({format_cards(s.table) or 'empty'}); {card} can take {shown}", **common)
        if not taken:
            raise MustCaptureError(f"{card} can capture, so it must: it can take {shown}", **common)
        target = capture_target(card, self.rules)
        total = sum(c.value for c in taken)
        if total != target:
            whole = total + card.value if self.rules.capture == "fifteen" else total
            goal = 15 if self.rules.capture == "fifteen" else card.value
            # The table cards already make 15 on their own: the classic slip of forgetting the played card.
            slip = {"slip": "table_alone_15"} if self.rules.capture == "fifteen" and total == 15 else {}
            raise WrongSumError(f"{card} with {format_cards(taken)} makes {whole}, not {goal}; "
                                f"{card} can take {shown}", sum=whole, goal=goal, **slip, **common)
        raise IllegalMoveError(f"with a matching card on the table, {card} must take it alone: it can take {shown}",
                               code="equal_card_first", **common)

    def _apply(self, move: Move, renuncio: bool = False) -> Play:
        s = self._s
        player = s.turn
        side = self.side_of[player]
        card, taken = move
        before = s.hands[player]
        following = (player + 1) % self.players
        if not s.hands[following]:
            # The round's last card (the next player has none): dealing or the deal's end follows, so keep the
            # whole state.
            snapshot = s.copy()
            snapshot.log_sizes = (len(self._events), len(self._moves), len(self._deals))
            self._undo.append(snapshot)
        else:
            # An ordinary play: its PlayRecord and Play event say how to take it back, except for the table's
            # order and who captured last before it. Those two go on the stack as they are, not in a new tuple:
            # every object a play keeps alive is work for the garbage collector for the rest of the game.
            self._undo.append(s.table)
            self._undo_last_capturer.append(s.last_capturer)
        at = before.index(card)
        s.hands[player] = before[:at] + before[at + 1:]
        escoba = unscored = False
        if taken:
            s.table = tuple(filterfalse(taken.__contains__, s.table))
            s.table_mask -= sum(map(_bit_of, taken))
            captured = tuple(sorted(taken, key=_by_index))
            s.piles[side] += captured + (card,)
            s.last_capturer = side
            if not s.table:
                if self.rules.last_play_escoba or s.dealt < 40 or any(s.hands):  # not the deal's last card
                    escoba = True
                    s.escobas = _plus(s.escobas, side, 1)
                else:
                    unscored = True
                    s.sweeps = _plus(s.sweeps, side, 1)
        else:
            s.table = s.table + (card,)  # the table keeps the order the cards were laid in
            s.table_mask += card.bit
            captured = ()
            if renuncio:
                s.renuncios = _plus(s.renuncios, side, 1)
        event = _new(Play, (s.deal, player, side, card, captured, escoba, renuncio, unscored))
        self._events.append(event)
        self._moves.append(move)
        s.plays.append(_new(PlayRecord, (player, before, move, escoba)))
        s.turn = following
        self._legal = None
        if not s.hands[following]:
            if s.dealt < 40:
                self._deal_round()
            else:
                self._end_deal()
        return event

    def undo(self) -> Move:
        """Take back the last move (across a deal's end too) and return it."""
        if not self._undo:
            raise NothingToUndoError("there is no move to take back", code="nothing_to_undo")
        entry = self._undo.pop()
        if isinstance(entry, _State):
            events, moves, deals = entry.log_sizes
            move = self._moves[moves]
            del self._events[events:], self._moves[moves:], self._deals[deals:]
            del entry.plays[entry.plays_len:]
            self._s = entry
        else:  # an ordinary play (see _apply): the table before it, and the rest undone from its records
            s = self._s
            player, before, move, _escoba = s.plays.pop()
            event = cast(Play, self._events.pop())  # an ordinary play's own event is the last one
            self._moves.pop()
            side = event.side
            s.hands[player], s.table, s.turn = before, entry, player
            s.table_mask = sum(map(_bit_of, entry))
            s.last_capturer = self._undo_last_capturer.pop()
            if event.captured:
                s.piles[side] = s.piles[side][:-len(event.captured) - 1]
            if event.escoba:
                s.escobas = _plus(s.escobas, side, -1)
            if event.renuncio:
                s.renuncios = _plus(s.renuncios, side, -1)
        self._legal = None
        return move

    # ------------------------------------------------------------------------------------- dealing
    def _shuffled_deck(self, deal: int) -> tuple[Card, ...]:
        if self._start is not None and self._start[0] == deal:
            return self._start[1]
        deck = list(DECK)
        random.Random(f"escoba-tutor:{self.seed}:{deal}").shuffle(deck)
        return tuple(deck)

    def _start_deal(self, deal: int, dealer: int) -> None:
        s = self._s
        s.deal, s.dealer = deal, dealer
        s.deck = self._shuffled_deck(deal)
        n = self.players
        mano = (dealer + 1) % n
        # Three cards to each player, the mano first, then four face up.
        s.hands = [()] * n
        for k in range(n):
            player = (mano + k) % n
            s.hands[player] = tuple(sorted(s.deck[3 * k:3 * k + 3], key=_by_index))
        s.initial_table = s.deck[3 * n:3 * n + 4]  # in the order dealt (the pairs variant breaks ties by it)
        s.dealt = 3 * n + 4
        s.table = s.initial_table
        s.table_mask = sum(c.bit for c in s.table)
        s.piles = [()] * len(self.sides)
        s.escobas = s.hand_escobas = s.renuncios = s.sweeps = (0,) * len(self.sides)
        s.last_capturer = None
        s.turn = mano
        s.plays = []
        s.round = 1
        s.dealer_capture, s.dealer_escobas = (), 0
        self._events.append(DealStarted(deal, dealer, mano, s.initial_table))
        self._events.append(CardsDealt(deal, 1, 3))
        escobas = self.rules.escobas_for_initial_table(sum(c.value for c in s.table))
        taken, pairs = s.initial_table, False
        if not escobas and self.rules.escoba_de_mano_pairs:
            taken, escobas, pairs = _pairs_of_15(s.initial_table), len(_pairs_of_15(s.initial_table)) // 2, True
        if escobas:
            side = self.side_of[dealer]
            s.dealer_capture, s.dealer_escobas = taken, escobas
            s.piles[side] += taken
            s.escobas = _plus(s.escobas, side, escobas)
            s.last_capturer = side
            s.table = tuple(c for c in s.table if c not in taken)
            s.table_mask = sum(c.bit for c in s.table)
            self._events.append(EscobaDeMano(deal, dealer, side, taken, escobas, pairs))
        self._show_hand_escobas()

    def _show_hand_escobas(self) -> None:
        """Chile: each player just dealt three cards adding up to 15 shows them and scores an escoba en mano."""
        if not self.rules.chile:
            return
        s = self._s
        for k in range(self.players):
            player = (s.dealer + 1 + k) % self.players
            hand = s.hands[player]
            if sum(c.value for c in hand) == 15:
                side = self.side_of[player]
                s.hand_escobas = _plus(s.hand_escobas, side, 1)
                self._events.append(HandEscoba(s.deal, player, side, hand))

    def _deal_round(self) -> None:
        s = self._s
        n = self.players
        for k in range(n):
            player = (s.dealer + 1 + k) % n
            s.hands[player] = tuple(sorted(s.deck[s.dealt:s.dealt + 3], key=_by_index))
            s.dealt += 3
        s.round += 1
        self._events.append(CardsDealt(s.deal, s.round, 3))
        self._show_hand_escobas()

    def _end_deal(self) -> None:
        s = self._s
        leftover = s.table
        leftover_to = s.last_capturer
        if leftover_to is not None:
            s.piles[leftover_to] += leftover
        s.table, s.table_mask = (), 0
        de_mano = [0] * len(self.sides)
        de_mano[self.side_of[s.dealer]] = s.dealer_escobas
        facts = DealFacts(escobas_de_mano=tuple(de_mano), hand_escobas=tuple(s.hand_escobas),
                          renuncios=tuple(s.renuncios), last_play_sweeps=tuple(s.sweeps))
        score = score_piles(s.piles, s.escobas, self.rules, facts)
        s.totals = tuple(t + p for t, p in zip(s.totals, score.points))
        self._events.append(LeftoverTaken(s.deal, leftover_to, leftover))
        self._events.append(DealScored(s.deal, score, s.totals))
        self._deals.append(DealRecord(
            deal=s.deal, dealer=s.dealer, table=s.initial_table, dealer_capture=s.dealer_capture,
            dealer_escobas=s.dealer_escobas, plays=tuple(s.plays), leftover=leftover, leftover_to=leftover_to,
            piles=tuple(s.piles), escobas=tuple(s.escobas), score=score, totals=s.totals,
            hand_escobas=tuple(s.hand_escobas), renuncios=tuple(s.renuncios), last_play_sweeps=tuple(s.sweeps)))
        best = max(s.totals)
        if best >= self.rules.target:
            leaders = [i for i, total in enumerate(s.totals) if total == best]
            if len(leaders) == 1:
                s.winner = leaders[0]
                self._events.append(GameWon(s.winner, s.totals))
                return
        self._start_deal(s.deal + 1, (s.dealer + 1) % self.players)

    # ---------------------------------------------------------------------------------- comparing
    def state_key(self) -> tuple[object, ...]:
        """Everything that defines the position, as a comparable value (for tests and saves)."""
        s = self._s
        return (self.rules, self.players, self.seed, self.first_dealer, s.deal, s.dealer, s.dealt,
                tuple(s.hands), s.table, tuple(s.piles), tuple(s.escobas),
                s.last_capturer, s.turn, s.totals, s.winner, tuple(self._moves), tuple(self._events),
                tuple(self._deals))

    def __repr__(self) -> str:
        return (f"Game(players={self.players}, rules={self.rules.name!r}, seed={self.seed}, "
                f"deal={self.deal}, moves={len(self._moves)}, totals={list(self.totals)})")

    # ---------------------------------------------------------------------------------- saving
    def to_json(self) -> str:
        return save.dump_json(self)

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        return save.load_json(text, cls)

    def resume_code(self) -> str:
        return save.dump_code(self)

    @classmethod
    def from_resume_code(cls, code: str) -> Game:
        return save.load_code(code, cls)

    # ------------------------------------------------------------------ a deal dealt from a given deck (reviews)
    @classmethod
    def dealt_from(cls, players: int, rules: Rules | str, *, deck: Iterable[Card], dealer: int, deal: int = 0,
                   totals: Iterable[int] | None = None, seed: int = 0) -> Game:
        """A game whose deal ``deal`` is dealt by ``dealer`` from ``deck`` (the 40 cards in the order dealt: three to
        each player from the mano on, four on the table, then each round's), the sides holding ``totals`` points
        before it: a finished deal made again from its plays, which every player saw (:func:`deal_deck`), for a
        review where the seed must stay unknown. Later deals are shuffled from ``seed``. Its save is not this game.

        >>> g = Game(players=2, seed=5)
        >>> while not g.deals:
        ...     _ = g.play(g.legal_moves()[0])
        >>> again = Game.dealt_from(2, g.rules, deck=deal_deck(2, g.history), dealer=g.deals[0].dealer)
        >>> for move in g.moves:
        ...     _ = again.play(move)
        >>> again.deals[0] == g.deals[0]
        True
        """
        cards = tuple(deck)
        sides = len(SIDES.get(players, ())) if type(players) is int else 0
        side_totals = tuple(totals) if totals is not None else (0,) * sides
        if not all(type(card) is Card for card in cards) or len(set(cards)) != 40 or len(cards) != 40:
            raise EscobaError("a deal is dealt from the 40 cards, each once", code="bad_position")
        if type(deal) is not int or deal < 0 or len(side_totals) != sides or \
                not all(type(t) is int and t >= 0 for t in side_totals):
            raise EscobaError(f"a deal needs its number and the points of each side ({sides}) before it",
                              code="bad_position")
        game = cls(players=players, rules=rules, seed=seed, dealer=dealer)
        game._start = (deal, cards, side_totals)
        game._events, game._moves, game._deals, game._undo, game._legal = [], [], [], [], None
        game._undo_last_capturer = []
        state = game._s = _State()
        state.totals, state.winner = side_totals, None
        game._start_deal(deal, dealer)
        return game

    def restarted(self) -> Game:
        """A new game at this game's start, nothing played: the seed's first deal, or the deal a game of
        :meth:`dealt_from` was dealt from. Playing :attr:`moves` on it makes this game again (a review replays
        them). A position built from parts (:meth:`at_position`) has no start to go back to: EscobaError."""
        if self._from_parts:
            raise EscobaError("a position built from its parts has no start to replay", code="bad_position")
        if self._start is None:
            return type(self)(players=self.players, rules=self.rules, seed=self.seed, dealer=self.first_dealer)
        deal, deck, totals = self._start
        return type(self).dealt_from(self.players, self.rules, deck=deck, dealer=self.first_dealer, deal=deal,
                                     totals=totals, seed=self.seed)

    # ------------------------------------------------------------------ a position built from parts (bots)
    @classmethod
    def at_position(cls, players: int, rules: Rules | str, *, dealer: int, turn: int,
                    hands: Iterable[Iterable[Card]], table: Iterable[Card], deck: Iterable[Card] = (),
                    piles: Iterable[Iterable[Card]] | None = None, escobas: Iterable[int] | None = None,
                    last_capturer: int | None = None, totals: Iterable[int] | None = None, deal: int = 0,
                    seed: int = 0) -> Game:
        """A game in the middle of a deal, built from its parts: for a bot that tries out plays on a guess of
        the hidden hands. ``deck`` is the rest of the deck in dealing order; ``piles``, ``escobas`` and
        ``last_capturer`` are per side. The 40 cards must each be in exactly one place. The game starts at
        that position: it has no history, nothing to undo, and the cards in the open (table and piles) count
        as the deal's first table, so every view sees them. Later deals are shuffled from ``seed``.

        >>> g = Game(players=2, seed=3, dealer=0)
        >>> copy = Game.at_position(2, g.rules, dealer=0, turn=g.turn, hands=g.hands, table=g.table,
        ...                         deck=[c for c in DECK if c not in g.table and not any(c in h for h in g.hands)])
        >>> copy.legal_moves() == g.legal_moves()
        True
        """
        game = cls(players=players, rules=rules, seed=seed, dealer=dealer)
        sides = len(game.sides)
        hand_cards = [tuple(sorted(hand, key=_by_index)) for hand in hands]
        table_cards, deck_cards = tuple(table), tuple(deck)
        pile_cards: list[tuple[Card, ...]] = [tuple(pile) for pile in piles] if piles is not None else [()] * sides
        side_escobas = tuple(escobas) if escobas is not None else (0,) * sides
        side_totals = tuple(totals) if totals is not None else (0,) * sides
        placed = [card for part in (*hand_cards, table_cards, deck_cards, *pile_cards) for card in part]
        problem = None
        if len(hand_cards) != players or any(len(hand) > 3 for hand in hand_cards):
            problem = f"{players} hands of at most 3 cards are needed"
        elif len(pile_cards) != sides or len(side_escobas) != sides or len(side_totals) != sides:
            problem = f"piles, escobas and totals need one entry per side ({sides})"
        elif not all(type(card) is Card for card in placed) or len(set(placed)) != 40 or len(placed) != 40:
            problem = "each of the 40 cards must be in exactly one hand, the table, the deck or a pile"
        elif len(deck_cards) % (3 * players):
            problem = f"the deck left must deal whole rounds of 3 cards to {players} players"
        elif type(turn) is not int or not 0 <= turn < players or not hand_cards[turn]:
            problem = "the player to move must be a player with cards in hand"
        elif last_capturer is not None and last_capturer not in range(sides):
            problem = f"the last capturer must be a side from 0 to {sides - 1}"
        if problem:
            raise EscobaError(f"cannot build that position: {problem}", code="bad_position")
        s = game._s
        s.deal, s.turn, s.hands, s.table = deal, turn, hand_cards, table_cards
        s.table_mask = sum(card.bit for card in table_cards)
        s.dealt = 40 - len(deck_cards)
        left = set(deck_cards)
        s.deck = tuple(c for c in DECK if c not in left) + deck_cards  # only the cards after ``dealt`` are read
        s.piles, s.escobas, s.last_capturer, s.totals = pile_cards, side_escobas, last_capturer, side_totals
        s.initial_table = tuple(card for pile in pile_cards for card in pile) + table_cards
        s.dealer_capture, s.dealer_escobas, s.plays = (), 0, []
        s.hand_escobas = s.renuncios = s.sweeps = (0,) * sides
        s.round = 1 + max(0, s.dealt - (3 * players + 4)) // (3 * players)
        game._events, game._moves, game._deals, game._undo, game._legal = [], [], [], [], None
        game._undo_last_capturer = []
        game._from_parts = True
        return game


def deal_deck(players: int, events: Iterable[Event], deal: int | None = None) -> tuple[Card, ...]:
    """The deck the finished deal ``deal`` (by default the last one scored) was dealt from, in the order dealt, from
    the public events (a view's :attr:`PlayerView.history`, or a game's): its :class:`DealStarted` and its plays.
    Every card a player is dealt is played in the same round, in the open, so once the deal is over its plays say
    each player's hand of each round; nothing here is hidden then. For :meth:`Game.dealt_from`.
    EscobaError (``bad_position``) when the events hold no whole finished deal."""
    events = tuple(events)
    if deal is None:
        deal = next((e.deal for e in reversed(events) if type(e) is DealScored), None)
    started = next((e for e in events if type(e) is DealStarted and e.deal == deal), None)
    plays = [e for e in events if type(e) is Play and e.deal == deal]
    per_round = 3 * players
    if started is None or type(players) is not int or players not in SIDES or \
            len(plays) + len(started.table) != 40 or len(plays) % per_round:
        raise EscobaError("these events hold no whole finished deal", code="bad_position")
    deck: list[Card] = []
    for start in range(0, len(plays), per_round):
        played = plays[start:start + per_round]
        for k in range(players):
            player = (started.mano + k) % players
            deck += sorted((p.card for p in played if p.player == player), key=_by_index)
        if start == 0:
            deck += started.table
    if len(set(deck)) != 40:
        raise EscobaError("these events hold no whole finished deal", code="bad_position")
    return tuple(deck)
