"""What the kinds of exercise share: seeds, their random draws, and answers judged item by item.

Every kind draws from ``random.Random`` seeded with a text (``escoba-tutor:drill:<kind>:<seed>``), which Python
hashes the same way everywhere (it does not depend on ``PYTHONHASHSEED``): the same seed gives the same position
on every machine, so a whole class, or a printed worksheet, gets the same exercise.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, TypeVar

from ..engine.cards import Card
from ..engine.errors import EscobaError
from ..engine.game import DealRecord, Game
from ..engine.moves import MAX_SEED

__all__ = ["MAX_SEED", "ATTEMPTS", "NOBODY", "Answer", "judged", "check_seed", "seeded", "pick", "capture_key",
           "subsets", "play_deal", "plays_of", "answers_outcome", "form_outcome", "is_whole", "check_side"]

#: Draws a generator may make before it settles for the last one (never reached in practice).
ATTEMPTS = 500
#: A question "which side" is answered with a side, or NOBODY.
NOBODY = "nobody"
T = TypeVar("T")


def check_seed(seed: object) -> int:
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise EscobaError(f"a drill seed is a whole number from 0 to {MAX_SEED}, not {seed!r}"[:120],
                          code="bad_seed", value=repr(seed)[:24])
    return seed


def seeded(kind: str, seed: int) -> random.Random:
    """The random draws of one kind's exercise number ``seed``."""
    return random.Random(f"escoba-tutor:drill:{kind}:{seed}")


def pick(rng: random.Random, mix: tuple[tuple[str, float], ...]) -> str:
    """One name of ``mix`` ((name, share), ...), drawn with its share."""
    roll, edge = rng.random(), 0.0
    for name, share in mix:
        edge += share
        if roll < edge:
            return name
    return mix[-1][0]


def capture_key(taken: Iterable[Card]) -> tuple[int, ...]:
    """A fixed order for captures (by their cards in deck order), so answers list the same way everywhere."""
    return tuple(sorted(card.index for card in taken))


def subsets(items: Sequence[T]) -> Iterable[tuple[T, ...]]:
    """Non-empty subsets, smallest first: the simplest explanation of a number wins."""
    for size in range(1, len(items) + 1):
        yield from combinations(items, size)


def play_deal(game: Game, rng: random.Random) -> DealRecord:
    """Random legal moves until the game's first deal is over: a real deal, everything in the open."""
    while not game.deals:
        game.play(rng.choice(game.legal_moves()))
    return game.deals[0]


def plays_of(record: DealRecord) -> tuple[tuple[int, Card, tuple[Card, ...]], ...]:
    """A deal's plays as (side, card played, cards taken)."""
    sides = len(record.piles)
    return tuple((p.player % sides, p.move.card, tuple(sorted(p.move.captured))) for p in record.plays)


# ------------------------------------------------------------------------------------ answers item by item
@dataclass(frozen=True)
class Answer:
    """One question of a drill, judged: what the learner gave (None: not answered), what is right, and the
    ``mistake`` that explains a wrong answer ("" when right; each kind lists its codes)."""

    item: str
    ok: bool
    given: object
    expected: object
    mistake: str = ""


def judged(item: str, given: object, expected: object, mistake: str) -> Answer:
    """The answer ``given`` to ``item``: right, ``unanswered``, or wrong with ``mistake``."""
    if given is None:
        return Answer(item, False, None, expected, "unanswered")
    return Answer(item, given == expected, given, expected, "" if given == expected else mistake)


def answers_outcome(answers: Sequence[Answer]) -> tuple[bool, str | None]:
    """Item-by-item answers as one record: right, or the first real slip (else ``unanswered``: part of the answer
    was missing). One check is one record: when several parts are wrong, the first slip names the mistake."""
    if all(a.ok for a in answers):
        return True, None
    real = [a.mistake for a in answers if not a.ok and a.mistake and a.mistake != "unanswered"]
    return False, real[0] if real else "unanswered"


def form_outcome(result: Mapping[str, Any]) -> tuple[bool, str | None] | None:
    """A check of a form's answers (``{"answers": [Answer, ...], "typed": what the boxes held}``) as one record;
    None when nothing at all was answered."""
    answers = result["answers"]
    if all(a.given is None for a in answers) and result.get("typed") in (None, [None] * len(answers)):
        return None
    return answers_outcome(answers)


def is_whole(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def check_side(value: object, sides: int, what: str) -> int | None:
    """A side given as an answer: its number, or None for nobody; anything else is refused."""
    if value is None:
        return None
    if isinstance(value, int) and is_whole(value, 0, sides - 1):
        return value
    raise EscobaError(f"{what}: a side from 0 to {sides - 1}, or None for nobody, not {value!r}"[:120],
                      code="bad_answer")
