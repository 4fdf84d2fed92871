"""Cards, lists and alternatives inside sentences, in the learner's language.

A sentence names cards with their article (``el siete de oros``, ``la sota de copas``, ``the king of clubs``),
joins several with the language's "and" (``el as de oros y la sota de copas``), and offers alternatives with its
"or": ``el rey de copas, o el dos de copas y la sota de bastos``. List patterns are each language's own (the
CLDR's, as Babel formats them: tests/test_phrases.py compares), but for English's serial comma: the course writes
"a, b and c", as its lessons do. The articles come from the catalogs (one message per rank, see
``Translator.the_card``). Numbers of points are written with the language's decimal sign.

>>> from escoba_tutor.text.translator import Translator
>>> es, en = Translator("es"), Translator("en")
>>> the_cards(es, "1o 7o 10b")
'el as de oros, el siete de oros y la sota de bastos'
>>> alternatives(es, [["12c"], ["2c", "10b"]])
'el rey de copas, o el dos de copas y la sota de bastos'
>>> alternatives(en, [["12c"], ["5e"]])
'the king of cups or the five of swords'
>>> suits = listed(en, ["cups", "clubs"])
>>> en("missing {suits}; no {suits:or}", suits=suits)
'missing cups and clubs; no cups or clubs'
>>> sentence_start("el siete de oros no está en tu mano.")
'El siete de oros no está en tu mano.'
>>> one_decimal(es, 1.25), one_decimal(en, 0.35)
('1,2', '0.4')
>>> points_number(es, 0.98), points_number(en, 0.44), points_number(en, 2.26, whole_from=1.95)
(('1', 1), ('0.4', 2), ('2', 2))
>>> en.plural("{points} point more", "{points} points more", count_of("1"), points="1")
'1 point more'
>>> en.plural("{points} point more", "{points} points more", count_of("1.0"), points="1.0")
'1.0 points more'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_EVEN, Decimal

from ..engine.cards import Card, as_cards
from .translator import N_, Translator

__all__ = ["and_list", "or_list", "listed", "WordList", "the_cards", "alternatives", "sentence_start", "one_decimal",
           "points_number", "count_of"]

#: Each language's list patterns (CLDR's ``listPatterns``): two items, then the first two of more, each middle
#: one, and the last. (Spanish's «y» before an /i/ sound, «e», is not in them, and no list here needs it.)
#: English's last one has no serial comma ("a, b and c"), as the course's lessons write.
_LIST_PATTERNS = {
    ("es", "standard"): {"2": "{0} y {1}", "start": "{0}, {1}", "middle": "{0}, {1}", "end": "{0} y {1}"},
    ("es", "or"): {"2": "{0} o {1}", "start": "{0}, {1}", "middle": "{0}, {1}", "end": "{0} o {1}"},
    ("en", "standard"): {"2": "{0} and {1}", "start": "{0}, {1}", "middle": "{0}, {1}", "end": "{0} and {1}"},
    ("en", "or"): {"2": "{0} or {1}", "start": "{0}, {1}", "middle": "{0}, {1}", "end": "{0} or {1}"},
}
#: A Spanish word that starts with the sound /o/ (o, ó, ho, hó): «o» before it is said «u».
_SOUNDS_O = re.compile(r"h?[oó]", re.IGNORECASE)
#: Each language's decimal sign (CLDR's ``symbols/decimal``).
_DECIMAL_SIGN = {"es": ",", "en": "."}


def _joined(words: Sequence[str], patterns: dict[str, str]) -> str:
    if len(words) < 2:
        return words[0] if words else ""
    if len(words) == 2:
        return patterns["2"].format(*words)
    text = patterns["start"].format(words[0], words[1])
    for word in words[2:-1]:
        text = patterns["middle"].format(text, word)
    return patterns["end"].format(text, words[-1])

# With alternatives that are lists themselves ("the two of cups and the jack of clubs"), a comma before the
# last "or" shows where one alternative ends.
# TRANSLATORS: only between alternatives that are lists themselves («el dos de copas y la sota de bastos, o el
# tres de oros y el rey de espadas»); a list of single words («oros o copas») never has this comma.
_LAST_OF_LONG_ALTERNATIVES = N_("{first}, or {last}")


def and_list(_: Translator, words: Sequence[str]) -> str:
    """``a``, ``a y b``, ``a, b y c`` (``a, b and c`` in English): the language's own list pattern."""
    return _joined(list(words), _LIST_PATTERNS[_.lang, "standard"])


def or_list(_: Translator, words: Sequence[str]) -> str:
    """``a``, ``a o b``, ``a, b o c`` (``a, b or c`` in English); Spanish's «o» is «u» before a word that starts
    with the sound /o/ (``copas u oros``), which the CLDR's patterns leave out."""
    words, patterns = list(words), _LIST_PATTERNS[_.lang, "or"]
    if _.lang == "es" and words and _SOUNDS_O.match(words[-1]):
        patterns = {**patterns, "2": "{0} u {1}", "end": "{0} u {1}"}
    return _joined(words, patterns)


class WordList(str):
    """A list in a sentence, joined with "and" as text (``{suits}``); ``{suits:or}`` joins it with "or", as a
    negative asks in English ("no cups or clubs", but "missing cups and clubs"): each language's text chooses."""

    or_: str

    def __new__(cls, joined: str, or_: str) -> WordList:
        words = super().__new__(cls, joined)
        words.or_ = or_
        return words

    def __getnewargs_ex__(self) -> tuple[tuple[str, str], dict[str, object]]:
        # a copy (or a pickle) is made with both forms, not from the "and" text alone
        return (str(self), self.or_), {}

    def __format__(self, spec: str) -> str:
        if spec == "or":
            return self.or_
        if spec == "The":
            return self[:1].upper() + self[1:]
        return str(self) if spec == "" else format(str(self), spec)


def listed(_: Translator, words: Sequence[str]) -> WordList:
    """Words as a list for a sentence whose text picks "and" (``{x}``) or "or" (``{x:or}``)."""
    return WordList(and_list(_, words), or_list(_, words))


def the_cards(_: Translator, cards: Iterable[Card | str] | str) -> str:
    """Cards in a sentence, each with its article, in the order given."""
    return and_list(_, [_.the_card(c) for c in as_cards(cards)])


def alternatives(_: Translator, captures: Iterable[Iterable[Card | str]]) -> str:
    """Several possible captures in a sentence: each one's cards joined by "and", the captures by "or"."""
    groups = [sorted(as_cards(list(capture))) for capture in captures]
    shown = [the_cards(_, group) for group in groups]
    if len(shown) > 1 and any(len(group) > 1 for group in groups):
        first = ", ".join(shown[:-1])  # (a comma, as the language's own list pattern puts between alternatives)
        return _(_LAST_OF_LONG_ALTERNATIVES, first=first, last=shown[-1])
    return or_list(_, shown)


_SENTENCE_STARTS = re.compile(r"(^|[.!?]\s+)([¡¿«“(]*)(\w)")


def sentence_start(text: str) -> str:
    """Text whose sentences may begin with a name written in lowercase (``el siete de oros``), each sentence
    begun with a capital: ``¡Bien! El cinco de oros…``.

    >>> sentence_start("¡bien! el cinco de oros se lleva el rey. él gana 1,5 puntos.")
    '¡Bien! El cinco de oros se lleva el rey. Él gana 1,5 puntos.'
    """
    return _SENTENCE_STARTS.sub(lambda m: m.group(1) + m.group(2) + m.group(3).upper(), text)


def one_decimal(_: Translator, value: float) -> str:
    """A number with one decimal, rounded half to even as written (``1.25`` → ``1,2``), in the learner's
    language: ``1,5`` in Spanish, ``1.5`` in English."""
    rounded = Decimal(str(value)).quantize(Decimal("0.1"), rounding=ROUND_HALF_EVEN)
    return f"{rounded:f}".replace(".", _DECIMAL_SIGN[_.lang])


def points_number(_: Translator, value: float, *, whole_from: float | None = None) -> tuple[str, int]:
    """A number of points as a person writes it, and the count its noun agrees with: one decimal (``0,4``), but
    a whole number without ``,0`` (``1``, never ``1,0``), and whole from ``whole_from`` up (an estimate's size:
    "about 6 points"). The count is 1 only for exactly one point ("1 point", "0.4 points", "1.5 points")."""
    shown = Decimal(str(abs(value))).quantize(Decimal("0.1"), rounding=ROUND_HALF_EVEN)
    if whole_from is not None and abs(value) >= whole_from:
        shown = shown.quantize(Decimal("1"), rounding=ROUND_HALF_EVEN)
    count = 1 if shown == 1 else 2
    if shown == shown.to_integral_value():
        return str(int(shown)), count
    return one_decimal(_, float(shown)), count
def count_of(shown: str) -> int:
    """The count that chooses a message's plural form for a number as written (``1``, ``0.4``, ``1,0``): the
    number itself when it is whole, and for one written with decimals a count that takes the plural, as both
    languages of the course say them ("1.0 points", "0,5 puntos"). gettext's plural rules take whole numbers
    only: this keeps "1 point" singular and never makes "1.0 point" of a decimal."""
    return int(shown) if shown.isdigit() else 2
