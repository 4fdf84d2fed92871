"""One immutable options object for every rule the engine knows, and the named profiles.

A variant is data: an option with its allowed values in :data:`OPTIONS`. Code that plays or scores reads the
options; no profile is a subclass.

>>> ESCOBA.target, SCOPA.target
(21, 11)
>>> rules_by_name("scopa") is SCOPA
True
>>> ESCOBA.replace(target=31).changes()
{'target': 31}
>>> ESCOBA.replace(capture="sideways")
Traceback (most recent call last):
...
escoba_tutor.engine.errors.RulesError: option 'capture' cannot be 'sideways': choose one of 'fifteen', 'match'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import RulesError

__all__ = ["Rules", "ESCOBA", "SCOPA", "PROFILES", "OPTIONS", "VARIANTS", "Variant", "rules_by_name", "as_rules"]


@dataclass(frozen=True)
class Option:
    """What one option means and which values it takes (a tuple of choices, or an int range)."""

    name: str
    help: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: Any) -> None:
        if self.choices:
            if value not in self.choices or type(value) is not type(self.choices[0]):
                shown = ", ".join(repr(c) for c in self.choices)
                raise RulesError(f"option {self.name!r} cannot be {value!r}: choose one of {shown}",
                                 option=self.name, value=repr(value)[:40])
        else:
            low, high = self.minimum or 0, self.maximum or 0  # a range option sets both
            if type(value) is not int or not (low <= value <= high):
                raise RulesError(f"option {self.name!r} must be a whole number from {self.minimum} to "
                                 f"{self.maximum}, not {value!r}", option=self.name, value=repr(value)[:40])

    def encode(self, value: Any) -> int:
        return self.choices.index(value) if self.choices else value

    def decode(self, number: int) -> Any:
        if self.choices:
            if not 0 <= number < len(self.choices):
                raise RulesError(f"option {self.name!r} has no choice number {number}", option=self.name)
            return self.choices[number]
        return number


#: Every option, in a fixed order: the order is part of the resume-code format, so only append.
OPTIONS: tuple[Option, ...] = (
    Option("capture", "what a capture must add up to: 'fifteen' (the played card and the taken cards make 15) "
           "or 'match' (Scopa: the taken cards add up to the played card, a single matching card first)",
           choices=("fifteen", "match")),
    Option("escoba_de_mano", "escobas the dealer scores when the four table cards dealt add up to a total: "
           "'15/30' (1 for 15, 2 for 30), '15/20' (1 for 15, 2 for 20) or 'none'",
           choices=("15/30", "15/20", "none")),
    Option("primera", "the fifth point: 'setenta' (the best setenta; a side missing a suit is out), "
           "'suit_count' (more different suits beats fewer, then the highest sum) or 'sevens' (the most sevens)",
           choices=("setenta", "suit_count", "sevens")),
    Option("target", "points to win the game", minimum=1, maximum=999),
    Option("escoba_de_mano_pairs", "when the four table cards make no escoba de mano, the dealer takes each pair "
           "of them that adds up to 15 and scores an escoba per pair", choices=(False, True)),
    Option("ties", "a tie at the top for cards, oros or sevens: 'nobody' scores, or 'both_score' (each tied side)",
           choices=("nobody", "both_score")),
    Option("setenta_cards", "which cards count for the setenta: 'all', or 'low' (only 1 to 7: a suit held only in "
           "figures makes the setenta invalid)", choices=("all", "low")),
    Option("all_sevens_bonus", "one more point for holding all four sevens", choices=(False, True)),
    Option("all_oros_bonus", "the oros point is worth 2 for holding all ten oros", choices=(False, True)),
    Option("cards_bonus", "one more point for the most cards when every other side has fewer than 10",
           choices=(False, True)),
    Option("figuras", "one point for strictly the most figures (sota, caballo, rey)", choices=(False, True)),
    Option("three_player_ties", "with three sides, when two tie at the top for cards, oros or setenta, the point goes "
           "to the third side if it has something for that point (a card, a card of oros, a valid setenta)",
           choices=(False, True)),
    Option("renuncio", "a card laid down that could have captured is accepted and marked; at the deal's end the "
           "offending side scores nothing and every other side adds what it made", choices=(False, True)),
    Option("chile", "Chile: a player dealt three cards adding up to 15 scores 3 points (escoba en mano); an "
           "escoba de mano on the table is worth 4 points instead of 1 (3 or 4 players only)", choices=(False, True)),
    Option("must_capture", "a card that can capture must capture (False: it may be laid on the table instead)",
           choices=(True, False)),
    Option("last_play_escoba", "a sweep with the very last card of a deal scores an escoba (False: it does not)",
           choices=(True, False)),
)
_OPTION_BY_NAME = {option.name: option for option in OPTIONS}

_DEFAULTS = {"capture": "fifteen", "escoba_de_mano": "15/30", "primera": "setenta", "target": 21,
             "escoba_de_mano_pairs": False, "ties": "nobody", "setenta_cards": "all", "all_sevens_bonus": False,
             "all_oros_bonus": False, "cards_bonus": False, "figuras": False, "three_player_ties": False,
             "renuncio": False, "chile": False, "must_capture": True, "last_play_escoba": True}

#: The options of each named profile. Order matters for the resume code: only append.
_PROFILE_DEFAULTS: dict[str, dict[str, Any]] = {
    "escoba": dict(_DEFAULTS),
    "scopa": {**_DEFAULTS, "capture": "match", "escoba_de_mano": "none", "primera": "suit_count", "target": 11},
}

#: What each profile's game calls a sweep (a capture that empties the table): a key, which the text layer words
#: (Escoba's *escoba*, Scopa's *scopa*, plural *scope*). House rules keep their profile's word.
_PROFILE_SWEEP = {"escoba": "escoba", "scopa": "scopa"}


@dataclass(frozen=True)
class Variant:
    """A named house rule: the option changes it makes, and where it comes from."""

    name: str
    changes: dict[str, Any]
    source: str
    summary: str


#: The house rules of docs/rules.md §7 by name. ``rules_by_name("escoba+figuras+ties_both_score")``.
VARIANTS: dict[str, Variant] = {v.name: v for v in (
    Variant("primera_by_suit_count", {"primera": "suit_count"}, "docs/rules.md §7",
            "fewer suits lose the primera to more suits; then the highest sum"),
    Variant("escoba_de_mano_15_20", {"escoba_de_mano": "15/20"}, "docs/rules.md §7",
            "the dealer scores 1 escoba for a 15 table and 2 for a 20 table (instead of 30)"),
    Variant("escoba_de_mano_pairs", {"escoba_de_mano_pairs": True}, "docs/rules.md §7",
            "the dealer takes every pair of table cards that adds up to 15, an escoba per pair"),
    Variant("ties_both_score", {"ties": "both_score"}, "docs/rules.md §7",
            "a tie at the top for cards, oros or sevens gives each tied side the point"),
    Variant("sevens", {"primera": "sevens"}, "docs/rules.md §7",
            "1 point for strictly the most sevens, instead of setenta"),
    Variant("low_primera", {"setenta_cards": "low"}, "docs/rules.md §7",
            "only cards 1 to 7 count for setenta; a suit held only in figures makes it invalid"),
    Variant("all_sevens_bonus", {"all_sevens_bonus": True}, "docs/rules.md §7", "+1 for holding all four sevens"),
    Variant("all_oros_bonus", {"all_oros_bonus": True}, "docs/rules.md §7",
            "2 points instead of 1 for holding all ten oros"),
    Variant("cards_bonus", {"cards_bonus": True}, "docs/rules.md §7",
            "+1 more for the most cards when every other side has fewer than 10"),
    Variant("figuras", {"figuras": True}, "docs/rules.md §7", "1 point for strictly the most figures"),
    Variant("three_player_ties", {"three_player_ties": True}, "docs/rules.md §7",
            "with 3 sides, a tie at the top for cards, oros or setenta gives the point to the third side if it has "
            "any"),
    Variant("renuncio", {"renuncio": True}, "docs/rules.md §7",
            "a card laid that could have captured is marked; the offender's points go to the others"),
    Variant("chile", {"chile": True}, "docs/rules.md §7",
            "3 or 4 players: 3 points for a hand of 15 (escoba en mano); an escoba de mano is worth 4 points, not 1"),
    Variant("capture_optional", {"must_capture": False}, "docs/rules.md §7",
            "a card that could capture may be laid on the table instead"),
    Variant("no_last_play_escoba", {"last_play_escoba": False}, "docs/rules.md §7",
            "a sweep with the very last card of the deal does not score"),
)}

_VARIANT_OF_CHANGE = {next(iter(v.changes.items())): v.name for v in VARIANTS.values() if len(v.changes) == 1}

# Options that cannot go together, each with the reason given to the user.
_CONFLICTS: tuple[tuple[Callable[[Rules], bool], str], ...] = (
    (lambda r: r.capture == "match" and (r.escoba_de_mano != "none" or r.escoba_de_mano_pairs),
     "the escoba de mano belongs to the Escoba capture rule (the four table cards add up to 15), and Scopa's "
     "capture has none"),
    (lambda r: r.renuncio and not r.must_capture,
     "renuncio penalises laying a card that could capture, which capture_optional allows: choose one"),
    (lambda r: r.ties == "both_score" and r.three_player_ties,
     "ties_both_score gives a tied point to both tied sides, three_player_ties to the third side: choose one"),
    (lambda r: r.escoba_de_mano_pairs and r.escoba_de_mano == "none",
     "escoba_de_mano_pairs extends the escoba de mano, which these rules turn off"),
)

#: How many escobas the dealer scores for each total of the four table cards.
ESCOBA_DE_MANO_TOTALS = {"15/30": {15: 1, 30: 2}, "15/20": {15: 1, 20: 2}, "none": {}}


@dataclass(frozen=True)
class Rules:
    """The rules a game is played and scored by. Immutable: ``replace`` makes a changed copy.

    ``profile`` names the preset these rules start from; ``changes()`` lists the options that differ from it.
    """

    profile: str = "escoba"
    capture: str = "fifteen"
    escoba_de_mano: str = "15/30"
    primera: str = "setenta"
    target: int = 21
    escoba_de_mano_pairs: bool = False
    ties: str = "nobody"
    setenta_cards: str = "all"
    all_sevens_bonus: bool = False
    all_oros_bonus: bool = False
    cards_bonus: bool = False
    figuras: bool = False
    three_player_ties: bool = False
    renuncio: bool = False
    chile: bool = False
    must_capture: bool = True
    last_play_escoba: bool = True
    _escoba_de_mano_totals: dict[int, int] = field(default_factory=dict, init=False, repr=False, compare=False,
                                                   hash=False)

    def __post_init__(self) -> None:
        for option in OPTIONS:
            option.check(getattr(self, option.name))
        if not isinstance(self.profile, str) or self.profile not in _PROFILE_DEFAULTS:
            raise RulesError(f"no rules profile is called {self.profile!r}: choose one of "
                             + ", ".join(repr(n) for n in _PROFILE_DEFAULTS), code="unknown_profile",
                             value=str(self.profile)[:40])
        for conflicts, reason in _CONFLICTS:
            if conflicts(self):
                raise RulesError(f"these rules cannot go together: {reason}", code="rules_conflict")
        object.__setattr__(self, "_escoba_de_mano_totals", ESCOBA_DE_MANO_TOTALS[self.escoba_de_mano])

    def check_players(self, players: int) -> None:
        """Refuse rules that need another number of players."""
        if self.chile and players not in (3, 4):
            raise RulesError("the Chile rules (escoba en mano) are played by 3 or 4 players", code="rules_players")
        if self.three_player_ties and players != 3:
            raise RulesError("the three-player tie rule needs exactly 3 players", code="rules_players")

    @property
    def sweep(self) -> str:
        """The key of the word for a sweep under these rules: ``"escoba"`` or ``"scopa"``.

        >>> ESCOBA.sweep, SCOPA.sweep, SCOPA.replace(target=21).sweep
        ('escoba', 'scopa', 'scopa')
        """
        return _PROFILE_SWEEP[self.profile]

    @property
    def name(self) -> str:
        """The profile name, with ``+option=value`` for each change: ``escoba``, ``escoba+target=31``."""
        parts = []
        for key, value in self.changes().items():
            variant = _VARIANT_OF_CHANGE.get((key, value))
            parts.append(variant or f"{key}={_text(value)}")
        return "+".join([self.profile, *parts])

    def options(self) -> dict[str, Any]:
        return {option.name: getattr(self, option.name) for option in OPTIONS}

    def changes(self) -> dict[str, Any]:
        """The options that differ from this rules' profile."""
        base = _PROFILE_DEFAULTS[self.profile]
        return {k: v for k, v in self.options().items() if base[k] != v}

    def replace(self, **changes: Any) -> Rules:
        unknown = [k for k in changes if k not in _OPTION_BY_NAME and k != "profile"]
        if unknown:
            raise RulesError(f"no rules option is called {unknown[0]!r}: the options are "
                             + ", ".join(o.name for o in OPTIONS), code="unknown_option", option=unknown[0])
        return dataclasses.replace(self, **changes)

    def escobas_for_initial_table(self, total: int) -> int:
        """Escobas the dealer scores when the four table cards add up to ``total`` (0: none)."""
        return self._escoba_de_mano_totals.get(total, 0)

    def to_dict(self) -> dict[str, Any]:
        return {"profile": self.profile, **self.options()}

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object of options, not {type(data).__name__}")
        data = dict(data)
        if not all(isinstance(key, str) for key in data):
            raise RulesError("rules options are named by text", code="unknown_option")
        profile = data.pop("profile", "escoba")
        if not isinstance(profile, str):
            raise RulesError(f"the rules profile must be a name, not {profile!r}"[:120])
        return rules_by_name(profile).replace(**data)

    def to_numbers(self) -> list[int]:
        """The rules as small integers for the resume code: profile, then (option, value) per change."""
        changes = self.changes()
        numbers = [_PROFILE_ORDER.index(self.profile), len(changes)]
        for name, value in changes.items():
            option = _OPTION_BY_NAME[name]
            numbers += [OPTIONS.index(option), option.encode(value)]
        return numbers


ESCOBA = Rules()
SCOPA = Rules(profile="scopa", **_PROFILE_DEFAULTS["scopa"])

#: The named profiles. Order matters for the resume code: only append.
PROFILES: dict[str, Rules] = {"escoba": ESCOBA, "scopa": SCOPA}
_PROFILE_ORDER = list(PROFILES)


def as_rules(rules: Rules | str) -> Rules:
    """Rules given as a ``Rules`` object or by name (``"scopa"``, ``"escoba+figuras"``)."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return rules_by_name(rules)
    raise RulesError(f"rules are a Rules object or a name such as 'escoba' or 'scopa', not {type(rules).__name__}")


def rules_by_name(name: str) -> Rules:
    """The rules of a profile, optionally with changes: ``escoba``, ``scopa``, ``escoba+target=31``."""
    if not isinstance(name, str):
        raise RulesError(f"a rules name must be text, not {type(name).__name__}")
    profile, *parts = name.strip().split("+")
    try:
        rules = PROFILES[profile.strip().lower()]
    except KeyError:
        raise RulesError(f"no rules profile is called {profile[:40]!r}: choose one of "
                         + ", ".join(repr(n) for n in PROFILES), code="unknown_profile",
                         value=profile[:40]) from None
    changes: dict[str, Any] = {}
    set_by: dict[str, str] = {}  # the part that set each option, to name it if another part says otherwise
    for part in parts:
        variant = VARIANTS.get(part.strip().lower().replace("-", "_"))
        for key, value in (variant.changes if variant else dict([parse_option(part)])).items():
            if key in changes and changes[key] != value:
                first, second = set_by[key].strip()[:40], part.strip()[:40]
                raise RulesError(f"{first!r} and {second!r} set the option {key!r} two ways ({_text(changes[key])} "
                                 f"and {_text(value)}): keep one of them", code="rules_conflict", option=key,
                                 parts=(first, second))
            changes[key], set_by[key] = value, part
    _refuse_escoba_de_mano(rules, changes, set_by)
    return rules.replace(**changes) if changes else rules


def _refuse_escoba_de_mano(rules: Rules, changes: dict[str, Any], set_by: dict[str, str]) -> None:
    """Scopa's capture (the taken cards add up to the played card) has no escoba de mano: whichever part would
    keep or turn one on with it is refused, each with the same reason, naming the two parts."""
    if changes.get("capture", rules.capture) != "match":
        return
    for key, off in (("escoba_de_mano", "none"), ("escoba_de_mano_pairs", False)):
        if changes.get(key, getattr(rules, key)) != off:
            with_match = set_by["capture"].strip()[:40] if "capture" in changes else rules.profile
            turned_on = set_by[key].strip()[:40] if key in changes else rules.profile
            raise RulesError(f"{with_match!r} and {turned_on!r} cannot go together: the escoba de mano belongs to "
                             "the Escoba capture rule (the four table cards add up to 15), and Scopa's capture (the "
                             "taken cards add up to the played card) has none", code="rules_conflict", option=key,
                             parts=(with_match, turned_on))


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def parse_option(text: str) -> tuple[str, Any]:
    """``key=value`` text as an option name and a typed value (for the command line and rules names)."""
    key, sep, raw = text.partition("=")
    key = key.strip().replace("-", "_")
    option = _OPTION_BY_NAME.get(key)
    if not sep or option is None:
        raise RulesError(f"{text[:40]!r} is neither a variant nor an option setting: name a variant ("
                         + ", ".join(VARIANTS) + ") or write name=value with a name among "
                         + ", ".join(o.name for o in OPTIONS), code="unknown_option", option=key[:40])
    raw = raw.strip()
    if option.choices and isinstance(option.choices[0], bool):
        flag = _FLAGS.get(raw.lower())
        if flag is None:
            raise RulesError(f"option {key!r} is true or false, not {raw[:40]!r}", option=key)
        return key, flag
    if option.choices:
        return key, raw
    try:
        return key, int(raw)
    except ValueError:
        raise RulesError(f"option {key!r} must be a whole number, not {raw[:40]!r}", option=key) from None


_FLAGS = {"true": True, "yes": True, "on": True, "1": True, "si": True, "sí": True,
          "false": False, "no": False, "off": False, "0": False}


def rules_from_numbers(numbers: list[int], position: int = 0) -> tuple[Rules, int]:
    """Inverse of :meth:`Rules.to_numbers`; returns the rules and the position after them."""
    try:
        profile = _PROFILE_ORDER[numbers[position]]
        count = numbers[position + 1]
        position += 2
        changes = {}
        for _ in range(count):
            option = OPTIONS[numbers[position]]
            changes[option.name] = option.decode(numbers[position + 1])
            position += 2
    except IndexError:
        raise RulesError("the rules part is cut short or names an unknown option") from None
    return PROFILES[profile].replace(**changes), position
