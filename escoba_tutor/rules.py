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
escoba_tutor.errors.RulesError: option 'capture' cannot be 'sideways': choose one of 'fifteen', 'match'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from .errors import RulesError

__all__ = ["Rules", "ESCOBA", "SCOPA", "PROFILES", "OPTIONS", "rules_by_name"]


@dataclass(frozen=True)
class Option:
    """What one option means and which values it takes (a tuple of choices, or an int range)."""

    name: str
    help: str
    choices: tuple = ()
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: Any) -> None:
        if self.choices:
            if value not in self.choices or type(value) is not type(self.choices[0]):
                shown = ", ".join(repr(c) for c in self.choices)
                raise RulesError(f"option {self.name!r} cannot be {value!r}: choose one of {shown}",
                                 option=self.name, value=repr(value)[:40])
        else:
            if type(value) is not int or not (self.minimum <= value <= self.maximum):
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
           "or 'match' (Scopa: the taken cards add up to the played card, a single equal card first)",
           choices=("fifteen", "match")),
    Option("escoba_de_mano", "escobas the dealer scores when the four table cards dealt add up to a total: "
           "'15/30' (1 for 15, 2 for 30), '15/20' (1 for 15, 2 for 20) or 'none'",
           choices=("15/30", "15/20", "none")),
    Option("primera", "how the setenta (primera) point is compared: 'setenta' (a side missing a suit is out) or "
           "'suit_count' (more different suits beats fewer, then the highest sum)",
           choices=("setenta", "suit_count")),
    Option("target", "points to win the game", minimum=1, maximum=999),
)
_OPTION_BY_NAME = {option.name: option for option in OPTIONS}

#: The options of each named profile. Order matters for the resume code: only append.
_PROFILE_DEFAULTS: dict[str, dict[str, Any]] = {
    "escoba": {"capture": "fifteen", "escoba_de_mano": "15/30", "primera": "setenta", "target": 21},
    "scopa": {"capture": "match", "escoba_de_mano": "none", "primera": "suit_count", "target": 11},
}

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
    _escoba_de_mano_totals: dict = field(default=None, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        for option in OPTIONS:
            option.check(getattr(self, option.name))
        if not isinstance(self.profile, str) or self.profile not in _PROFILE_DEFAULTS:
            raise RulesError(f"no rules profile is called {self.profile!r}: choose one of "
                             + ", ".join(repr(n) for n in _PROFILE_DEFAULTS), code="unknown_profile",
                             value=str(self.profile)[:40])
        object.__setattr__(self, "_escoba_de_mano_totals", ESCOBA_DE_MANO_TOTALS[self.escoba_de_mano])

    @property
    def name(self) -> str:
        """The profile name, with ``+option=value`` for each change: ``escoba``, ``escoba+target=31``."""
        return self.profile + "".join(f"+{k}={v}" for k, v in self.changes().items())

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


def rules_by_name(name: str) -> Rules:
    """The rules of a profile, optionally with changes: ``escoba``, ``scopa``, ``escoba+target=31``."""
    if not isinstance(name, str):
        raise RulesError(f"a rules name must be text, not {type(name).__name__}")
    profile, *changes = name.strip().split("+")
    try:
        rules = PROFILES[profile.strip().lower()]
    except KeyError:
        raise RulesError(f"no rules profile is called {profile[:40]!r}: choose one of "
                         + ", ".join(repr(n) for n in PROFILES), code="unknown_profile",
                         value=profile[:40]) from None
    if changes:
        rules = rules.replace(**dict(parse_option(text) for text in changes))
    return rules


def parse_option(text: str) -> tuple[str, Any]:
    """``key=value`` text as an option name and a typed value (for the command line and rules names)."""
    key, sep, raw = text.partition("=")
    key = key.strip().replace("-", "_")
    option = _OPTION_BY_NAME.get(key)
    if not sep or option is None:
        raise RulesError(f"{text[:40]!r} is not an option setting: write name=value, with a name among "
                         + ", ".join(o.name for o in OPTIONS), code="unknown_option", option=key[:40])
    raw = raw.strip()
    if option.choices:
        return key, raw
    try:
        return key, int(raw)
    except ValueError:
        raise RulesError(f"option {key!r} must be a whole number, not {raw[:40]!r}", option=key) from None


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
