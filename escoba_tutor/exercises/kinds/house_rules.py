"""House rules: a real deal scored under the rules of the game, and one house rule of docs/rules.md §7 switched
on. What does each side score with it? For the two house rules of the escoba de mano, the question is the four
cards laid face up at the start of a deal: how many escobas de mano does the dealer's side score with it?

Deals are of 2 players, 3 (each a side) or 4 (two teams, players 1 and 3 against 2 and 4), as the seed says and
the rules allow. Every answer is the engine's: the piles scored by :func:`score_piles`, the escobas de mano read
from a :class:`Game` dealt under each set of rules."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from ...engine.cards import DECK, Card
from ...engine.errors import EscobaError
from ...engine.game import SIDES, DealRecord, DealStarted, EscobaDeMano, Game
from ...engine.moves import Move
from ...engine.rules import ESCOBA, VARIANTS, Rules, as_rules
from ...engine.scoring import DealFacts, DealScore, ScoreLine, score_piles
from ...text import labels
from ...text.phrases import and_list, the_cards
from ...text.translator import N_, Translator
from .. import given as giving
from .. import paper
from ..common import MAX_SEED, Answer, check_seed, form_outcome, is_whole, judged, play_deal, seeded
from ..kind import DrillKind, Variety, WorksheetPart
from . import points as points_kind

__all__ = ["HouseRulesDrill", "house_rules_drill", "HOUSE_RULES", "MANO_RULES", "PLAY_RULE_NAMES",
           "house_rule_words", "house_rule_name", "house_sides", "dropped_words",
           "moved_points", "kept_points"]

#: The house rules this drill asks about, each with its name and what it changes, as docs/rules.md §7 says them.
HOUSE_RULES: dict[str, tuple[str, str]] = {
    "ties_both_score": (N_("ties: every tied side scores"),
                        N_("If sides tie for the most cards, the most coins or (with sevens instead of the "
                           "setenta) the most sevens, each tied side gets the point.")),
    "sevens": (N_("sevens instead of the setenta"),
               N_("1 point to the side with the most sevens (a tie scores nothing), instead of the setenta point.")),
    "low_primera": (N_("setenta with low cards only"),
                    N_("Only cards from 1 to 7 count for the setenta: if a side's only cards in a suit are face "
                       "cards, its setenta is invalid.")),
    "figuras": (N_("face cards"),
                N_("1 point to the side with the most face cards (jacks, knights and kings); a tie scores "
                   "nothing.")),
    "all_sevens_bonus": (N_("all four sevens"), N_("1 extra point for holding all four sevens.")),
    "cards_bonus": (N_("cards bonus"),
                    N_("1 extra point to the side with the most cards when every other side has fewer than 10 "
                       "cards.")),
    "primera_by_suit_count": (
        N_("primera by suit count"),
        N_("A setenta missing a suit is no longer ruled out: the side with cards in the most suits scores the setenta "
           "point, and among the sides with the most suits, the highest setenta wins; a tie scores nothing.")),
    "all_oros_bonus": (N_("all ten coins"),
                       N_("A side that holds all ten coins scores 2 points for the coins instead of 1.")),
    "three_player_ties": (
        N_("three-player ties"),
        N_("With three sides, when two tie for the most cards, the most coins or the best setenta, the point goes "
           "to the third side if it has at least one card (for the cards point), at least one coins card (for "
           "the coins point) or a valid setenta (for the setenta point); otherwise nobody scores it.")),
    "escoba_de_mano_15_20": (
        N_("escoba de mano 15 / 20"),
        N_("If the four cards laid face up at the start add up to 15, the dealer takes them: one escoba; if they "
           "add up to 20, two. A table of 30 no longer gives an escoba de mano.")),
    "escoba_de_mano_pairs": (
        N_("escoba de mano by pairs"),
        N_("When the four cards laid face up at the start make no escoba de mano, the dealer takes each pair "
           "among them that adds up to 15: one escoba per pair. A card can be in only one pair.")),
}

#: The house rules this drill does not ask about (they change the play, not how a deal is scored), named as
#: lesson 7 names them: with :data:`HOUSE_RULES`' names, every house rule of the engine's ``VARIANTS`` has one
#: (:func:`house_rule_name`), for the pages that offer a house rule by its name.
PLAY_RULE_NAMES: dict[str, str] = {
    "renuncio": N_("renuncio"),
    "chile": N_("Chilean rule (escoba en mano)"),
    "capture_optional": N_("capture optional"),
    "no_last_play_escoba": N_("no escoba on the last play"),
}

#: The house rules asked about through the four cards laid face up at the start: the question is then the
#: escobas de mano of the dealer's side.
MANO_RULES = frozenset({"escoba_de_mano_15_20", "escoba_de_mano_pairs"})

#: Deals tried for a position where the house rule changes the points (or does not), as the seed asked.
_TRIES = 120
#: How many players the seed seats, with their shares (those the rules allow; three_player_ties always 3).
_PLAYERS = ((2, 0.5), (3, 0.2), (4, 0.3))
#: House rules that almost never change a deal played at random: when a change is asked for and none of the
#: tries brings one, the piles are dealt out so that it does (see :func:`_dealt_piles`).
_DEALT_WHEN_RARE = frozenset({"primera_by_suit_count", "all_oros_bonus"})


@dataclass(frozen=True)
class HouseRulesDrill:
    """One house rule (``house_rule``) on top of the drill's ``rules``, in a deal of ``players`` players.

    A points question: the piles (``piles``, one per side) and escobas of a finished deal, its points under the
    rules (``standard``) and under the same rules with the house rule on (``house``, scored by the engine from the
    same piles). What does each side score with the house rule (``points``)?

    An escoba de mano question (``question == "escobas_de_mano"``, the rules of :data:`MANO_RULES`): the four
    cards laid face up (``table``) by the ``dealer`` (a player), and the escobas de mano of the dealer's side
    without the house rule and with it (``mano``), with the cards the dealer takes with it (``taken``).

    Mistakes per answer: ``unchanged`` (the number without the house rule, which here changes it),
    ``changed_needlessly`` (another number, where the house rule changes nothing for that side), ``wrong_points``,
    ``unanswered``, and each house rule's own: ``kept_replaced_point`` (sevens: the new point added but the setenta
    kept), ``missing_suit_out`` (primera by suit count: a setenta missing a suit still left out),
    ``oros_point_once`` and ``oros_bonus_added`` (all ten coins: the coins point still 1, or 2 added on top of
    it), ``tie_scores_nobody`` and ``tied_sides_score`` (three-player ties: the tied point still given to nobody,
    or to the tied sides), ``thirty_still_two`` and ``twenty_missed`` (escoba de mano 15 / 20), ``pairs_missed``,
    ``shared_card_twice`` and ``pairs_on_top`` (escoba de mano by pairs: no pair seen, a card counted in two
    pairs, pairs counted on top of a whole table taken)."""

    kind = "house_rules"
    seed: int
    rules: Rules
    house_rule: str
    players: int
    piles: tuple[tuple[Card, ...], ...] = ()
    escobas: tuple[int, ...] = ()
    standard: DealScore | None = None
    house: DealScore | None = None
    facts: DealFacts | None = None
    dealer: int = 0
    table: tuple[Card, ...] = ()
    mano: tuple[int, int] = (0, 0)
    taken: tuple[Card, ...] = ()

    @property
    def house_rules(self) -> Rules:
        return self.rules.replace(**VARIANTS[self.house_rule].changes)

    @property
    def question(self) -> str:
        """``points`` (one number per side) or ``escobas_de_mano`` (one number: the dealer's side's)."""
        return "escobas_de_mano" if self.house_rule in MANO_RULES else "points"

    @property
    def sides(self) -> int:
        """2 with 2 players, 3 with 3, 2 teams with 4."""
        return len(SIDES[self.players])

    @property
    def dealer_side(self) -> int:
        return self.dealer % self.sides

    @property
    def points(self) -> tuple[int, ...]:
        """The right answers: each side's points with the house rule, or the dealer's side's escobas de mano."""
        if self.house is None:
            return (self.mano[1],)
        return self.house.points

    @property
    def before(self) -> tuple[int, ...]:
        """The same without the house rule."""
        if self.standard is None:
            return (self.mano[0],)
        return self.standard.points

    @property
    def changes(self) -> bool:
        return self.points != self.before

    @property
    def items(self) -> tuple[str, ...]:
        if self.question == "escobas_de_mano":
            return ("escobas_de_mano",)
        return tuple(f"side_{i}" for i in range(len(self.points)))

    @property
    def table_total(self) -> int:
        return sum(c.value for c in self.table)

    @property
    def kept_both(self) -> tuple[int, ...] | None:
        """When the house rule replaces a point (sevens for the setenta): each side's points with the new point
        added but the replaced one kept, the slip it invites; None for a house rule that replaces nothing."""
        if self.standard is None or self.house is None:
            return None
        old, new = {line.item for line in self.standard.lines}, {line.item for line in self.house.lines}
        if old <= new:
            return None
        extra = [line for line in self.house.lines if line.item not in old]
        return tuple(p + sum(line.points[side] for line in extra) for side, p in enumerate(self.standard.points))

    @property
    def tied_points(self) -> tuple[int, ...] | None:
        """Three-player ties: each side's points had the tied sides scored the tied point (the other tie house
        rule, scored by the engine), the slip it invites; None for the other house rules."""
        if self.house_rule != "three_player_ties" or self.facts is None:
            return None
        return score_piles(self.piles, self.escobas, self.rules.replace(ties="both_score"), self.facts).points

    @property
    def all_oros_side(self) -> int | None:
        """The side holding all ten coins, if one does."""
        return next((side for side, pile in enumerate(self.piles) if sum(c.suit == "o" for c in pile) == 10), None)

    @property
    def all_pairs(self) -> int:
        """How many pairs of the four table cards add up to 15, a card counted in as many as it makes."""
        table = self.table
        return sum(1 for i in range(len(table)) for j in range(i + 1, len(table))
                   if table[i].value + table[j].value == 15)

    def check(self, given: Sequence[int | None]) -> tuple[Answer, ...]:
        """Judge one number per side, or for an escoba de mano question one number (None: not answered).

        >>> drill = house_rules_drill(2)
        >>> all(a.ok for a in drill.check(drill.points))
        True
        """
        if not isinstance(given, (list, tuple)) or len(given) != len(self.points) or any(
                g is not None and not is_whole(g, 0, 99) for g in given):
            what = "the escobas de mano are one whole number" if self.question == "escobas_de_mano" else \
                "the points are one whole number per side"
            raise EscobaError(f"{what}, not {given!r}"[:100], code="bad_answer")
        return tuple(judged(item, number, self.points[i], self._slip(i, number))
                     for i, (item, number) in enumerate(zip(self.items, given)))

    def _slip(self, side: int, number: int | None) -> str:
        """The mistake a wrong ``number`` for answer ``side`` makes (unused when it is right)."""
        right, before, rule = self.points[side], self.before[side], self.house_rule
        if number is None or number == right:
            return ""
        kept, tied = self.kept_both, self.tied_points
        if kept is not None and number == kept[side]:
            return "kept_replaced_point"
        if tied is not None and number == tied[side] != before:
            return "tied_sides_score"
        if rule == "all_oros_bonus" and side == self.all_oros_side and number == right + 1:
            return "oros_bonus_added"
        if rule == "escoba_de_mano_pairs" and before and number > right:
            return "pairs_on_top"
        if rule == "escoba_de_mano_pairs" and self.all_pairs > right and number == self.all_pairs:
            return "shared_card_twice"
        if number == before and right != before:
            return {"primera_by_suit_count": "missing_suit_out", "all_oros_bonus": "oros_point_once",
                    "three_player_ties": "tie_scores_nobody", "escoba_de_mano_pairs": "pairs_missed",
                    "escoba_de_mano_15_20": "thirty_still_two" if self.table_total == 30 else "twenty_missed",
                    }.get(rule, "unchanged")
        return "changed_needlessly" if right == before else "wrong_points"

    def __str__(self) -> str:
        if self.question == "escobas_de_mano":
            cards = " ".join(c.code for c in self.table)
            return (f"{self.rules.name} + {self.house_rule}, {self.players} players: table {cards} dealt by "
                    f"player {self.dealer}: {self.mano[0]} -> {self.mano[1]} escoba(s) de mano")
        return f"{self.rules.name} + {self.house_rule}, {self.players} players: {self.before} -> {self.points}"


def _facts(record: DealRecord) -> DealFacts:
    de_mano = [0] * len(record.piles)
    de_mano[record.dealer % len(record.piles)] = record.dealer_escobas
    return DealFacts(escobas_de_mano=tuple(de_mano), hand_escobas=record.hand_escobas or None,
                     renuncios=record.renuncios or None, last_play_sweeps=record.last_play_sweeps or None)


def _seats(rules: Rules) -> tuple[int, ...]:
    """The numbers of players ``rules`` allow."""
    seats = []
    for players in (2, 3, 4):
        try:
            rules.check_players(players)
        except EscobaError:
            continue
        seats.append(players)
    return tuple(seats)


def house_rules_for(rules: Rules) -> tuple[str, ...]:
    """The house rules of :data:`HOUSE_RULES` that change something on top of ``rules``, for a number of players
    both allow. A house rule whose option another one has already changed is left out: on top of "sevens
    instead of the setenta", "primera by suit count" would take the sevens away, not add to them."""
    found = []
    for name in HOUSE_RULES:
        if set(VARIANTS[name].changes) & set(rules.changes()):
            continue
        try:
            changed = rules.replace(**VARIANTS[name].changes)
        except EscobaError:
            continue
        if changed != rules and set(_seats(rules)) & set(_seats(changed)):
            found.append(name)
    return tuple(found)


def _mano(game: Game) -> tuple[int, tuple[Card, ...]]:
    """The escobas de mano of a game just dealt, and the cards the dealer took, as the engine scored them."""
    event = next((e for e in game.history if isinstance(e, EscobaDeMano)), None)
    return (event.escobas, tuple(event.cards)) if event is not None else (0, ())


def _avoiding(game: Game, rng: random.Random, avoid: Sequence[str]) -> DealRecord:
    """Legal moves until the first deal is over, each side taking as few cards of the suits it avoids
    (``avoid[side]``) as it can: a real deal, steered towards a side holding a whole suit."""
    while not game.deals:
        moves, turn = game.legal_moves(), game.turn
        assert turn is not None  # the deal is not over
        shunned = avoid[game.side_of[turn]]

        def taken(move: Move, shunned: str = shunned) -> int:
            return sum(1 for c in (move.card, *move.captured) if c.suit.value in shunned) if move.captured else 0

        fewest = min(map(taken, moves))
        game.play(rng.choice([m for m in moves if taken(m) == fewest]))
    return game.deals[0]


def _dealt_piles(rng: random.Random, rule: str, sides: int) -> tuple[tuple[Card, ...], ...]:
    """Piles at the end of a deal, dealt out from the seed so that the house rule counts: for primera by suit
    count every side misses a suit (side i gets no card of the i-th suit drawn); for all ten coins one side holds
    every coin. Used only when no deal played out from the seed brought it: both are rare in play."""
    if rule == "all_oros_bonus":
        holder = rng.randrange(sides)
        allowed = {"o": [holder]}
    else:
        order = rng.sample(["o", "c", "e", "b"], 4)
        allowed = {order[i]: [s for s in range(sides) if s != i] for i in range(sides)}
    piles: list[list[Card]] = [[] for _ in range(sides)]
    for card in DECK:
        piles[rng.choice(allowed.get(card.suit.value, range(sides)))].append(card)
    return tuple(tuple(sorted(pile)) for pile in piles)


#: Exercise numbers looked through for one about a house rule of ``only``: each asks about one of at most 11
#: rules drawn evenly, so a wanted rule turns up within a few dozen numbers.
_ONLY_SEARCH = 2000


def _wanted(only: Sequence[str], choices: Sequence[str]) -> frozenset[str]:
    """The house rules of ``only`` that the drill can ask about under the rules (``choices``); a clear error for
    a name that is no house rule of :data:`HOUSE_RULES` or for nothing left to ask about."""
    if isinstance(only, str) or not isinstance(only, (list, tuple, set, frozenset)) or not all(
            isinstance(name, str) for name in only):
        raise EscobaError(f"only is a list of house rule names, not {only!r}"[:120], code="error")
    unknown = [name for name in only if name not in HOUSE_RULES]
    if unknown:
        raise EscobaError(f"this drill asks about no house rule {unknown[0]!r}; it knows {', '.join(HOUSE_RULES)}"
                          [:200], code="unknown_option", value=unknown[0][:24])
    wanted = frozenset(only) & set(choices)
    if not wanted:
        raise EscobaError("none of these house rules changes anything on top of these rules", code="no_house_rule")
    return wanted


def _first_asking(seed: int, choices: Sequence[str], wanted: frozenset[str]) -> int:
    """The first exercise number from ``seed`` on whose house rule is one of ``wanted``: a drill kept to a few
    house rules skips the others' numbers, so that exercise no. N is the same exercise on every page."""
    for step in range(_ONLY_SEARCH):
        number = (seed + step) % (MAX_SEED + 1)
        if seeded("house_rules", number).choice(choices) in wanted:
            return number
    raise EscobaError("no exercise asks about these house rules", code="no_house_rule")  # (never met: see above)


def house_rules_drill(seed: int, rules: Rules | str = ESCOBA, *,
                      only: Sequence[str] | None = None) -> HouseRulesDrill:
    """A house rule drawn from :data:`HOUSE_RULES` (those that change something on top of ``rules``), a number of
    players (2, 3 or 4 in teams, as both sets of rules allow) and, in about three positions out of four, a deal
    where the house rule changes the answer; in the others, one where it does not.

    ``only`` (house rule names of :data:`HOUSE_RULES`) keeps to those rules, for a page that presents only them:
    the exercise is then the first from ``seed`` on that asks about one of them, the same exercise as without
    ``only`` (its ``seed`` says which).

    >>> drill = house_rules_drill(1)
    >>> drill == house_rules_drill(1) and drill.house_rule in HOUSE_RULES
    True
    >>> kept = house_rules_drill(4, only=("sevens", "escoba_de_mano_15_20"))
    >>> kept.house_rule in ("sevens", "escoba_de_mano_15_20") and kept == house_rules_drill(kept.seed)
    True
    """
    seed, rules = check_seed(seed), as_rules(rules)
    choices = house_rules_for(rules)
    if not choices:
        raise EscobaError("these rules already have every house rule of this drill", code="no_house_rule")
    if only is not None:
        seed = _first_asking(seed, choices, _wanted(only, choices))
    rng = seeded("house_rules", seed)
    house_rule = rng.choice(choices)
    house_rules = rules.replace(**VARIANTS[house_rule].changes)
    seats = [n for n in _seats(rules) if n in _seats(house_rules)]
    roll, edge, players = rng.random(), 0.0, seats[-1]
    shares = [(n, share) for n, share in _PLAYERS if n in seats]
    for n, share in shares:  # drawn with the shares of the seats both rules allow
        edge += share / sum(s for _n, s in shares)
        if roll < edge:
            players = n
            break
    want_change = rng.random() < 0.75
    first = (seed * 7127) % (MAX_SEED + 1)
    if house_rule in MANO_RULES:
        return _mano_drill(seed, rules, house_rule, players, want_change, first)
    sides = len(SIDES[players])
    # a side that gathers a whole suit: all ten coins (the others avoid coins), or a suit each side misses
    avoid = (["", *["o"] * (sides - 1)] if house_rule == "all_oros_bonus" else
             ["ocbe"[i] for i in range(sides)] if house_rule == "primera_by_suit_count" else [""] * sides)
    # A rare change is looked for in a few played deals only, then dealt out: a long search costs half a second.
    rare = want_change and house_rule in _DEALT_WHEN_RARE
    for attempt in range(_TRIES // 6 if rare else _TRIES):
        game = Game(players=players, rules=rules, seed=(first + attempt) % (MAX_SEED + 1))
        record = _avoiding(game, rng, avoid) if want_change and any(avoid) else play_deal(game, rng)
        facts = _facts(record)
        house = score_piles(record.piles, record.escobas, house_rules, facts)
        if (house.points != record.score.points) == want_change:
            return HouseRulesDrill(seed, rules, house_rule, players, record.piles, record.escobas, record.score,
                                   house, facts)
    if rare:
        escobas_range = range(3)
        for _attempt in range(_TRIES):
            piles = _dealt_piles(rng, house_rule, sides)
            escobas = tuple(rng.choice(escobas_range) for _side in range(sides))
            facts = DealFacts(escobas_de_mano=(0,) * sides)
            standard = score_piles(piles, escobas, rules, facts)
            house = score_piles(piles, escobas, house_rules, facts)
            if house.points != standard.points:
                return HouseRulesDrill(seed, rules, house_rule, players, piles, escobas, standard, house, facts)
    # none of the tries gave what the seed asked: the last deal, as it is
    return HouseRulesDrill(seed, rules, house_rule, players, record.piles, record.escobas, record.score, house,
                           facts)


def _mano_drill(seed: int, rules: Rules, house_rule: str, players: int, want_change: bool,
                first: int) -> HouseRulesDrill:
    """The four cards of a deal dealt under ``rules`` and, from the same shuffle, under the house rule: the
    escobas de mano of each, from the engine. A position that does not change keeps a table that tempts: one the
    dealer takes anyway, or one a card short or over a total. Under the pairs, only one the dealer takes anyway
    (the house rule then does not apply): a table with no pair of 15 would show nothing of what the rule does."""
    house_rules = rules.replace(**VARIANTS[house_rule].changes)
    for attempt in range(_TRIES * 4):
        game_seed = (first + attempt) % (MAX_SEED + 1)
        game, house_game = Game(players, rules, seed=game_seed), Game(players, house_rules, seed=game_seed)
        (before, _taken), (after, taken) = _mano(game), _mano(house_game)
        total = sum(c.value for c in _first_table(game))
        tempting = (before > 0 if house_rule == "escoba_de_mano_pairs" else
                    before or after or abs(total - 20) <= 1 or abs(total - 30) <= 1)
        if (before != after) == want_change and (want_change or tempting):
            break
    return HouseRulesDrill(seed, rules, house_rule, players, dealer=game.dealer, table=_first_table(game),
                           mano=(before, after), taken=taken)


def _first_table(game: Game) -> tuple[Card, ...]:
    """The four cards laid face up at the start of the game's first deal, in the order dealt."""
    return next(e.table for e in game.history if isinstance(e, DealStarted))


# ------------------------------------------------------------------------------------------------ worksheet
def house_rule_words(_: Translator, name: str) -> tuple[str, str]:
    """A house rule's name and what it changes, in the language."""
    title, change = HOUSE_RULES[name]
    return _(title), _(change)


def house_rule_name(_: Translator, name: str) -> str:
    """A house rule of the engine's ``VARIANTS`` by its name in the language (``figuras``: «figuras», "face
    cards"); a name that is no house rule is an error (every one has its words here)."""
    if name in HOUSE_RULES:
        return _(HOUSE_RULES[name][0])
    if name in PLAY_RULE_NAMES:
        return _(PLAY_RULE_NAMES[name])
    raise EscobaError(f"there is no house rule {name[:40]!r}: name one of " + ", ".join(VARIANTS),
                      code="unknown_option", option=name[:40])


def house_sides(_: Translator, drill: HouseRulesDrill) -> list[labels.Label]:
    """The sides: "Side 1", "Side 2" (and "Side 3" with three players), or in a game of four "Team 1" and
    "Team 2"."""
    return [labels.team(_, n) for n in (1, 2)] if drill.players == 4 else paper.side_names(_, drill.sides)


def seats_words(_: Translator, players: int, names: Sequence[labels.Label]) -> str:
    """Who plays with whom: "" for two players; three on their own; four in two teams."""
    if players == 3:
        players_named = paper.player_names(_, 3)
        return _("Three players, each on their own: {first_player} is {first_side}, {second_player} is "
                 "{second_side} and {third_player} is {third_side}.", first_player=players_named[0],
                 first_side=names[0], second_player=players_named[1], second_side=names[1],
                 third_player=players_named[2], third_side=names[2])
    if players == 4:
        return _("A game of four, in teams of two: {first} (Players 1 and 3) against {second} (Players 2 and 4).",
                 first=names[0], second=names[1])
    return ""


def mano_words(_: Translator, n: int, side: labels.Label) -> str:
    """«1 escoba de mano para el bando 2», or none; «para ti» when the side is the student («para tú» is not
    Spanish)."""
    if not n:
        return _("0 (no escoba de mano)")
    if getattr(side, "is_you", False):
        return _.plural("{n} escoba de mano for you", "{n} escobas de mano for you", n)
    return _.plural("{n} escoba de mano for {side}", "{n} escobas de mano for {side}", n, side=side)


_SHEET = """
{% macro task(drill, rule, seats, dealt, names, standard, blanks) %}
  <li><p>{{ paper.number(drill) }} {{ rule }}</p>
  {% if seats %}<p>{{ seats }}</p>{% endif %}
  {% if dealt %}
    <p>{{ dealt }} {{ paper.cards(drill.table) }}</p>
  {% else %}
    {{ paper.by_suit(drill.piles, names, drill.escobas) }}
  {% endif %}
  <p>{{ standard }}</p>
  {% for label in blanks %}{{ paper.blank(label) }}{% endfor %}
  </li>
{% endmacro %}

{% macro answer(drill, said) %}<li>{{ paper.key_number(drill) }} {{ said }}</li>{% endmacro %}
"""


def _points_words(_: Translator, names: Sequence[str], points: Sequence[int]) -> str:
    return "; ".join(_("{side}: {points}", side=name, points=p) for name, p in zip(names, points))


def _house_rules_task(_: Translator, drill: HouseRulesDrill) -> dict[str, object]:
    names = house_sides(_, drill)
    title, change = house_rule_words(_, drill.house_rule)
    task: dict[str, object] = {"rule": _("House rule: {rule}. {change}", rule=title, change=change),
                               "seats": seats_words(_, drill.players, names) or paper.two_players(_), "names": names,
                               "dealt": ""}
    if drill.question == "escobas_de_mano":
        # (under the pairs, the order dealt breaks a tie between choices of pairs: the task says it is that order)
        task["dealt"] = (_("{dealer} deals. The four cards face up on the table, in the order they were dealt:",
                           dealer=labels.player(_, drill.dealer + 1))
                         if drill.house_rule == "escoba_de_mano_pairs" else
                         _("{dealer} deals. The four cards face up on the table:",
                           dealer=labels.player(_, drill.dealer + 1)))
        # which side the dealer plays for is half the question: the task names no side (the key does)
        before = drill.before[0]
        escobas = _.plural("{n} escoba de mano", "{n} escobas de mano", before) if before else _(
            "0 (no escoba de mano)")
        task["standard"] = _("Without the house rule: {escobas}.", escobas=escobas)
        task["blanks"] = [_("Escobas de mano with the house rule, and the side that scores them:")]
        return task
    task["standard"] = _("Points for this deal without the house rule: {points}.",
                         points=_points_words(_, names, drill.before))
    task["blanks"] = [_("Points for {side} with the house rule:", side=name) for name in names]
    return task


# The usual points a house rule could change: when it changes nothing in a deal, the key shows how they went (two
# valid setentas, no tie), which is why nothing changes.
_RULE_ITEMS = {"low_primera": ("setenta",), "ties_both_score": ("cards", "oros"),
               "three_player_ties": ("cards", "oros", "setenta"), "all_oros_bonus": ("oros",),
               "cards_bonus": ("cards",), "primera_by_suit_count": ("primera",)}


# A house line that decides a usual point another way: the primera by suit count is still the setenta's point,
# never a new point beside a setenta "no longer scored" (the most sevens, by contrast, replaces it).
_DECIDES = {"primera": "setenta"}


def usual_item(drill: HouseRulesDrill, item: str) -> str | None:
    """The usual point a house line scores: its own item, or the one it decides another way; None for a new point."""
    assert drill.standard is not None
    usual = {line.item for line in drill.standard.lines}
    if item in usual:
        return item
    return _DECIDES[item] if _DECIDES.get(item) in usual else None


def dropped_items(drill: HouseRulesDrill) -> list[str]:
    """The usual points the house rule no longer scores (and that a side scored without it)."""
    assert drill.standard is not None and drill.house is not None
    kept = {usual_item(drill, line.item) for line in drill.house.lines}
    return [line.item for line in drill.standard.lines if line.item not in kept and any(line.points)]


def dropped_words(_: Translator, drill: HouseRulesDrill, names: Sequence[labels.Label],
                  in_sentence: Callable[[Translator, str], str]) -> list[str]:
    """Each usual point the house rule no longer scores, with who scored it without the house rule: «la setenta,
    que se apuntaba el bando 3», so the key says whose point is lost, not only which."""
    assert drill.standard is not None
    before = {line.item: line for line in drill.standard.lines}
    said = []
    for item in dropped_items(drill):
        winners = [names[i] for i in before[item].winners]
        if len(winners) == 1 and getattr(winners[0], "is_you", False):
            said.append(_("{item}, which you scored", item=in_sentence(_, item)))
        else:
            # (under the usual rules a point goes to one side: no plural to agree with)
            said.append(_("{item}, which {side:the} scored", item=in_sentence(_, item),
                          side=labels.joined(_, winners)))
    return said


def moved_points(drill: HouseRulesDrill) -> list[ScoreLine]:
    """The points the house rule scores otherwise: a line of the usual points (or of a point it decides another
    way) whose winners change. A line whose values change but whose point goes to the same sides (a setenta made
    invalid that did not win) is said by :func:`kept_points`, never among the points that change."""
    assert drill.standard is not None and drill.house is not None
    before = {line.item: line for line in drill.standard.lines}
    moved = []
    for line in drill.house.lines:
        usual = usual_item(drill, line.item)
        if usual is not None and line.points != before[usual].points:
            moved.append(line)
    return moved


# A value of the student's own side that changes («tu setenta», never «la setenta de ti»): only a setenta's value
# changes without its point moving (setenta with low cards only).
_YOUR_VALUE = {"setenta": N_("your setenta goes from {old} to {new}")}


def kept_points(_: Translator, drill: HouseRulesDrill, names: Sequence[labels.Label],
                in_sentence: Callable[[Translator, str], str]) -> list[str]:
    """One sentence for each usual point whose values the house rule changes without moving it: «con la regla
    de la casa, la setenta del bando 1 pasa de 67 a inválida, pero el punto sigue siendo del bando 2»."""
    assert drill.standard is not None and drill.house is not None
    before = {line.item: line for line in drill.standard.lines}
    said = []
    for line in drill.house.lines:
        old = before.get(line.item)
        if old is None or old.points != line.points or old.values == line.values:
            continue
        # (a page may name a side "you": «tu setenta», «sigue siendo tuyo», never «la setenta de ti»)
        changes = [_(_YOUR_VALUE[line.item] if getattr(names[i], "is_you", False) and line.item in _YOUR_VALUE else
                     "{item} {side:of} goes from {old} to {new}", item=in_sentence(_, line.item), side=names[i],
                     old=points_kind.value_words(_, old, i), new=points_kind.value_words(_, line, i))
                   for i in range(len(line.values)) if old.values[i] != line.values[i]]
        winners = [names[i] for i in line.winners]
        if any(getattr(name, "is_you", False) for name in winners):
            said.append(_("With the house rule, {changes}, but the point is still yours.",
                          changes=and_list(_, changes)))
        elif winners:
            said.append(_("With the house rule, {changes}, but the point still goes {winner:to}.",
                          changes=and_list(_, changes), winner=labels.joined(_, winners)))
        else:
            said.append(_("With the house rule, {changes}, but still nobody scores the point.",
                          changes=and_list(_, changes)))
    return said


def mano_reason(_: Translator, drill: HouseRulesDrill) -> str:
    """Why the dealer's side scores what it does with the house rule, from the engine's answer."""
    total = paper.value_sum(_, drill.table)  # "knight (9) + 4 + 4 + 3 = 20": a face card with its value
    if drill.house_rule == "escoba_de_mano_15_20":
        return _("The four cards add up to {total}: with this house rule a table of 15 gives one escoba de mano, "
                 "a table of 20 two, and any other total none, 30 included.", total=total)
    if drill.before[0]:
        return _("The four cards add up to {total}: the dealer takes the whole table as usual. The house rule only "
                 "matters when the four cards make no escoba de mano.", total=total)
    if not drill.taken:
        return _("The four cards add up to {total}, and no two of them add up to 15: the dealer takes nothing.",
                 total=total)
    pairs = len(drill.taken) // 2
    said = _.plural("The four cards add up to {total}: no escoba de mano, but the dealer takes {cards}, a pair "
                    "that adds up to 15.",
                    "The four cards add up to {total}: no escoba de mano, but the dealer takes {cards}: {n} pairs "
                    "that add up to 15.", pairs, total=total, cards=the_cards(_, drill.taken))
    tie = _pairs_tie(drill.table, drill.taken)
    if tie is None:
        return said
    other, first, later = tie
    return " ".join((said, _("Taking {other} instead would also make 15 with as many cards, but a card can be in "
                             "only one pair: of two such choices the dealer takes the one dealt first, and {earlier} "
                             "was dealt before {later}.", other=the_cards(_, other), earlier=_.the_card(first),
                             later=_.the_card(later))))


def _pairs_tie(table: Sequence[Card], taken: Sequence[Card]) -> tuple[list[Card], Card, Card] | None:
    """Under the escoba de mano by pairs, another choice of pairs of 15 among the ``table`` (in the order dealt)
    that takes as many cards as the pairs ``taken``, which the deal order ruled out (None: there is none): its
    cards, and where the two differ, the card taken (dealt first) and the other's card (dealt later)."""
    if not taken:
        return None
    pairs = [pair for pair in combinations(range(len(table)), 2) if sum(table[i].value for i in pair) == 15]
    choices = [sorted(pair) for pair in pairs] + [sorted(p + q) for p, q in combinations(pairs, 2)
                                                   if not set(p) & set(q)]
    chosen = sorted(table.index(card) for card in taken)
    rivals = [c for c in choices if len(c) == len(chosen) and c != chosen]
    if not rivals:
        return None
    rival = min(rivals)  # (the one dealt earliest after the choice taken)
    where = next(i for i, (a, b) in enumerate(zip(chosen, rival)) if a != b)
    return [table[i] for i in rival], table[chosen[where]], table[rival[where]]


def _house_rules_answer(_: Translator, drill: HouseRulesDrill) -> dict[str, object]:
    names = house_sides(_, drill)
    if drill.question == "escobas_de_mano":
        side = names[drill.dealer_side]
        escobas = _("With the house rule: {escobas}.", escobas=mano_words(_, drill.points[0], side))
        return {"said": escobas + " " + mano_reason(_, drill)}
    assert drill.standard is not None and drill.house is not None
    points = _points_words(_, names, drill.points)
    said = [_("{points}. The house rule changes the points.", points=points) if drill.changes else
            _("{points}. In this deal the house rule does not change the totals.", points=points)]
    # Why: each point the house rule adds, each it scores differently, then each it no longer scores.
    new_lines = [line for line in drill.house.lines if usual_item(drill, line.item) is None]
    added = [_("{item} — {reason}", item=points_kind.item_in_sentence(_, line.item),
               reason=points_kind.reason_words(_, line, names)) for line in new_lines]
    changed = [_("{item} — {reason}", item=points_kind.item_in_sentence(_, line.item),
                 reason=points_kind.reason_words(_, line, names)) for line in moved_points(drill)]
    gone = dropped_words(_, drill, names, points_kind.item_in_sentence)
    # joined outside the calls: the extractor reads a second text as a plural
    added_said, changed_said = "; ".join(added), "; ".join(changed)
    # A point the house rule adds that nobody scores in this deal is no "new point" (the totals may not change).
    if added and any(any(line.points) for line in new_lines):
        said.append(_.plural("New point: {items}.", "New points: {items}.", len(added), items=added_said))
    elif added and drill.changes:  # (said so: the totals change, and the new point is not why)
        said.append(_.plural("The house rule's point, which nobody scores in this deal: {items}.",
                             "The house rule's points, which nobody scores in this deal: {items}.", len(added),
                             items=added_said))
    elif added:
        said.append(_.plural("The house rule's point: {items}.", "The house rule's points: {items}.", len(added),
                             items=added_said))
    if changed:
        said.append(_.plural("Point that changes: {items}.", "Points that change: {items}.", len(changed),
                             items=changed_said))
    said.extend(kept_points(_, drill, names, points_kind.item_in_sentence))
    if gone:
        gone_said = "; ".join(gone)  # (joined outside the call, as above)
        said.append(_.plural("Point no longer scored: {items}.", "Points no longer scored: {items}.",
                             len(gone), items=gone_said))
    if len(said) == 1 and not drill.changes:
        same = [_("{item} — {reason}", item=points_kind.item_in_sentence(_, line.item),
                  reason=points_kind.reason_words(_, line, names))
                for line in drill.house.lines if line.item in _RULE_ITEMS.get(drill.house_rule, ())]
        same_said = "; ".join(same)  # (joined outside the call, as above)
        if same:
            said.append(_.plural("The house rule could have changed this point, but here it does not: {items}.",
                                 "The house rule could have changed these points, but here it does not: {items}.",
                                 len(same), items=same_said))
    return {"said": " ".join(said)}


def _intro(_: Translator, rules: Rules) -> str:
    # (the part mixes both kinds of exercise, in any proportion: the sentence does not say which is the more usual)
    return _("Each exercise gives either a deal that has already been played, with its points (if you play with the "
             "house rule, how many points does each side score?), or, for a house rule about the escoba de mano, "
             "the four cards on the table (how many escobas de mano does the dealer's side score?).")


def _answers(drill: HouseRulesDrill) -> tuple[object, ...]:
    # each exercise of a part asks about a house rule not asked yet: the same rule twice teaches nothing new
    return (drill.house_rule,)


def _shape(drill: HouseRulesDrill) -> str:
    if drill.changes:
        return "changes"
    # a rule about the escoba de mano on a table it leaves as it was: its part would state the rule (the pairs,
    # the deal order) and never show it at work, as each rule comes once a part; a points rule that changes
    # nothing still names the points it could have changed
    return "not_applied" if drill.question == "escobas_de_mano" else "unchanged"


# A deal where the house rule changes nothing is worth seeing once a part (a rule does not always matter), not more;
# one where a rule about the escoba de mano does not apply is left out (its shape is none of these).
_VARIETY = Variety(_shape, lambda rules: ("changes", "unchanged"), frozenset({"unchanged"}))



def _given(_: Translator, drill: HouseRulesDrill, given: giving.Given) -> str:
    """Each side's points (or escobas de mano), as typed."""
    names = house_sides(_, drill)
    return giving.joined([giving.said(_, name, giving.number(_, given, side)) for side, name in enumerate(names)])


KIND = DrillKind(
    name="house_rules",
    make=house_rules_drill,
    label=N_("house_rules (what a house rule changes)"),
    column=N_("House rules"),
    lesson="07-variants",
    mistakes={
        "unchanged": N_("Keeping the usual points when the house rule changes them"),
        "changed_needlessly": N_("Changing the points when the house rule does not change that side's total"),
        "kept_replaced_point": N_("Adding the house rule's point but keeping the point it replaces"),
        "missing_suit_out": N_("Still leaving out a setenta that misses a suit, when the primera goes by suit count"),
        "oros_point_once": N_("Counting 1 point for the coins when a side holds all ten"),
        "oros_bonus_added": N_("Adding 2 points for all ten coins on top of the coins point"),
        "tie_scores_nobody": N_("Giving a tied point to nobody when the third side takes it"),
        "tied_sides_score": N_("Giving a tied point to the tied sides instead of the third side"),
        "thirty_still_two": N_("Still counting two escobas de mano for a table of 30"),
        "twenty_missed": N_("Missing the two escobas de mano of a table of 20"),
        "pairs_missed": N_("Missing the pairs of 15 among the four cards"),
        "shared_card_twice": N_("Counting one card in two pairs of 15"),
        "pairs_on_top": N_("Counting pairs of 15 on top of the whole table taken"),
        "wrong_points": N_("Counting the points under the house rule wrongly"),
    },
    outcome=form_outcome,
    worksheet=WorksheetPart(N_("What a house rule changes"), _intro, _SHEET, _house_rules_task,
                            _house_rules_answer, answers=_answers, variety=_VARIETY),
    view="escoba_tutor.widgets.drills.house_rules:HouseRulesView",
    given=_given,
    available=lambda rules: bool(house_rules_for(rules)),
)
