"""The 40-card Spanish deck: cards, suits, values and card text.

Cards are interned: there are exactly 40 :class:`Card` objects, so ``parse_card("7o") is parse_card("7D")``,
and equality and hashing are by identity (fast, and safe because a card cannot change).

>>> seven = parse_card("7o")
>>> seven.rank, str(seven.suit), seven.value, seven.setenta_value
(7, 'o', 7, 21)
>>> str(seven), seven.name_es, seven.name_en
('7o', 'siete de oros', 'seven of coins')
>>> parse_card("JS") is parse_card("10e")
True
>>> [c.code for c in parse_cards("A♦ 4C 7D 3H")]
['1o', '4b', '7o', '3c']
>>> len(DECK), sum(card.value for card in DECK)
(40, 220)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any

from .errors import CardError

__all__ = [
    "Suit", "Card", "DECK", "RANKS", "parse_card", "parse_cards", "as_card", "as_cards", "format_cards",
]


class Suit(str, Enum):
    """The four Spanish suits; the value is the canonical one-letter code."""

    OROS = "o"
    COPAS = "c"
    ESPADAS = "e"
    BASTOS = "b"

    @property
    def name_es(self) -> str:
        return _SUIT_NAMES_ES[self]

    @property
    def name_en(self) -> str:
        return _SUIT_NAMES_EN[self]

    def __str__(self) -> str:
        return self.value


SUITS = (Suit.OROS, Suit.COPAS, Suit.ESPADAS, Suit.BASTOS)
_SUIT_NAMES_ES = {Suit.OROS: "oros", Suit.COPAS: "copas", Suit.ESPADAS: "espadas", Suit.BASTOS: "bastos"}
_SUIT_NAMES_EN = {Suit.OROS: "coins", Suit.COPAS: "cups", Suit.ESPADAS: "swords", Suit.BASTOS: "clubs"}

RANKS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
#: Capture value by rank: figures count 8, 9 and 10.
CAPTURE_VALUE = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 10: 8, 11: 9, 12: 10}
#: Setenta (primera) value by rank; used only for the setenta point, never for captures.
SETENTA_VALUE = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 10: 10, 11: 10, 12: 10}
FIGURES = frozenset({10, 11, 12})

_RANK_NAMES_ES = {1: "as", 2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis", 7: "siete",
                  10: "sota", 11: "caballo", 12: "rey"}
_RANK_NAMES_EN = {1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
                  10: "jack", 11: "knight", 12: "king"}


class Card:
    """One card of the deck. Build it with :func:`parse_card` or ``Card(rank, suit)``.

    >>> Card(12, "b")
    Card('12b')
    >>> Card(12, "b").name_es
    'rey de bastos'
    """

    __slots__ = ("rank", "suit", "value", "setenta_value", "code", "index", "is_figure", "bit")
    rank: int
    suit: Suit
    value: int
    setenta_value: int
    code: str
    index: int
    is_figure: bool
    #: One bit of a 40-bit set of cards, grouped by capture value: the four cards of value v are bits
    #: 4(v-1) to 4(v-1)+3, so a table's count of each value is a per-nibble bit count (see captures.py).
    bit: int

    def __new__(cls, rank: int, suit: str | Suit) -> Card:
        if type(rank) is not int:  # 7.0 and True hash like 7 and 1: refuse them rather than guess
            raise CardError(f"a card's rank is a whole number, not {rank!r}", token=f"{rank}{suit}"[:24])
        try:
            return _BY_RANK_SUIT[(rank, Suit(suit))]
        except (KeyError, ValueError, TypeError):
            raise CardError(f"no card has rank {rank!r} and suit {suit!r}", token=f"{rank}{suit}") from None

    @classmethod
    def _make(cls, rank: int, suit: Suit, index: int) -> Card:
        card = object.__new__(cls)
        for name, value in (("rank", rank), ("suit", suit), ("value", CAPTURE_VALUE[rank]),
                            ("setenta_value", SETENTA_VALUE[rank]), ("code", f"{rank}{suit.value}"),
                            ("index", index), ("is_figure", rank in FIGURES),
                            ("bit", 1 << (4 * (CAPTURE_VALUE[rank] - 1) + SUITS.index(suit)))):
            object.__setattr__(card, name, value)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[Callable[[int], Card], tuple[int]]:
        return (_card_at, (self.index,))

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    @property
    def name_es(self) -> str:
        """Spanish name, e.g. ``siete de oros``."""
        return f"{_RANK_NAMES_ES[self.rank]} de {self.suit.name_es}"

    @property
    def name_en(self) -> str:
        """English name, e.g. ``seven of coins``."""
        return f"{_RANK_NAMES_EN[self.rank]} of {self.suit.name_en}"

    def name(self, lang: str = "es") -> str:
        return self.name_en if lang == "en" else self.name_es


_BY_RANK_SUIT: dict[tuple[int, Suit], Card] = {}
_deck = []
for _s, _suit in enumerate(SUITS):
    for _r, _rank in enumerate(RANKS):
        _card = Card._make(_rank, _suit, 10 * _s + _r)
        _BY_RANK_SUIT[(_rank, _suit)] = _card
        _deck.append(_card)

#: The 40 cards in deck order: oros, copas, espadas, bastos; 1–7, sota, caballo, rey within each suit.
DECK: tuple[Card, ...] = tuple(_deck)
del _deck, _s, _suit, _r, _rank, _card


def _card_at(index: int) -> Card:
    return DECK[index]


# ---------------------------------------------------------------------------------------------- card text
_FORMS = ("Write a Spanish code: rank 1-7, 10 (sota), 11 (caballo) or 12 (rey) and a lowercase suit o, c, e, b "
          "(7o, 10e, 12b), or a French one: rank A, 2-7, J, Q, K and a suit D, H, C, S or ♦ ♥ ♣ ♠ (7D, JS, KC, A♦)")
_SPANISH_SUITS = {"o": Suit.OROS, "c": Suit.COPAS, "e": Suit.ESPADAS, "b": Suit.BASTOS}
_FRENCH_SUITS = {"D": Suit.OROS, "H": Suit.COPAS, "C": Suit.BASTOS, "S": Suit.ESPADAS,
                 "♦": Suit.OROS, "♥": Suit.COPAS, "♣": Suit.BASTOS, "♠": Suit.ESPADAS,
                 "♢": Suit.OROS, "♡": Suit.COPAS, "♧": Suit.BASTOS, "♤": Suit.ESPADAS}
_FRENCH_RANKS = {"A": 1, "J": 10, "Q": 11, "K": 12, **{str(r): r for r in range(2, 8)}}
_TOKEN = re.compile(r"(\d+|[A-Za-z])(.*)", re.S)
_CACHE: dict[str, Card] = {}


def _build_cache() -> None:
    for card in DECK:
        _CACHE[card.code] = card
    for suit_text, suit in _FRENCH_SUITS.items():
        for rank_text, rank in _FRENCH_RANKS.items():
            _CACHE[rank_text + suit_text] = _BY_RANK_SUIT[(rank, suit)]


_build_cache()


def _show(token: str) -> str:
    return repr(token if len(token) <= 24 else token[:21] + "...")


def _visible(token: str) -> str:
    """The token for a message, with invisible characters written as ``\\u200d``: "7o" must not be
    reported as not a card when what was typed is "7o" and a zero-width joiner."""
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in token[:24])


def _plain(token: str) -> str:
    """Card text as it looks: full-width and other compatibility forms folded (``７ｏ``, ``7º`` read as ``7o``)
    and invisible format characters dropped (zero-width joiners and spaces, direction marks, a byte-order
    mark), which text copied from a document or a chat often carries."""
    folded = unicodedata.normalize("NFKC", token)
    return "".join(ch for ch in folded if unicodedata.category(ch) != "Cf").strip()


def _hint(token: str) -> tuple[str, str, str] | None:
    """A hint for the common mistakes, as (code, English text, suggested code or ""); None when none applies.

    The code lets a widget say the hint in the learner's language."""
    match = _TOKEN.fullmatch(token)
    if not match:
        return None
    rank_text, suit_text = match.groups()
    french_suit = suit_text in _FRENCH_SUITS
    spanish_suit = suit_text in _SPANISH_SUITS
    if rank_text in ("8", "9"):
        if french_suit:
            return "french_no_8_9_10", "the 8s, 9s and 10s of a French deck are taken out", ""
        return "spanish_no_8_9", "the Spanish deck has no 8 or 9: the figures are 10 sota, 11 caballo, 12 rey", ""
    if rank_text == "10" and french_suit:
        return ("french_jack", "the 8s, 9s and 10s of a French deck are taken out; in a French deck the sota is J: "
                f"write J{suit_text}", f"J{suit_text}")
    if rank_text in ("11", "12") and french_suit:
        letter = "Q" if rank_text == "11" else "K"
        figure = "caballo" if letter == "Q" else "rey"
        return "french_figure", f"in a French deck the {figure} is {letter}: write {letter}{suit_text}", \
            f"{letter}{suit_text}"
    if rank_text == "1" and french_suit:
        return "french_ace", f"in a French deck the as is A: write A{suit_text}", f"A{suit_text}"
    if rank_text in ("A", "J", "Q", "K") and spanish_suit:
        rank = _FRENCH_RANKS[rank_text]
        return ("spanish_suit_number", f"with a Spanish suit letter write the number: {rank}{suit_text}",
                f"{rank}{suit_text}")
    if rank_text.lower() in ("a", "j", "q", "k") and rank_text.islower():
        fixed = f"{rank_text.upper()}{suit_text}"
        return "french_rank_capital", f"French ranks are capital letters: {fixed}", fixed
    if suit_text in ("O", "E", "B"):
        fixed = f"{rank_text}{suit_text.lower()}"
        return "spanish_suit_lowercase", f"Spanish suit letters are lowercase: {fixed}", fixed
    if suit_text in ("d", "h", "s"):
        fixed = f"{rank_text}{suit_text.upper()}"
        return "french_suit_capital", f"French suit letters are capitals: {fixed}", fixed
    if rank_text.isdigit() and (len(rank_text) > 2 or int(rank_text) not in CAPTURE_VALUE):
        return "rank_range", "ranks go from 1 to 7, then 10, 11 and 12", ""
    if rank_text.isdigit() and not suit_text:
        return "add_suit", "add a suit: o (oros), c (copas), e (espadas) or b (bastos)", ""
    return None


def parse_card(text: str | Card) -> Card:
    """The card named by ``text``, in Spanish (``7o``) or French (``7D``, ``A♦``) notation.

    Surrounding white space is ignored; suit letters are case-sensitive (``7c`` is copas, ``7C`` is bastos).

    >>> parse_card(" 12b ")
    Card('12b')
    >>> parse_card("8o")
    Traceback (most recent call last):
    ...
    escoba_tutor.engine.errors.CardError: '8o' is not a card: the Spanish deck has no 8 or 9: the figures are 10 sota, \
11 caballo, 12 rey. Write a Spanish code: rank 1-7, 10 (sota), 11 (caballo) or 12 (rey) and a lowercase suit \
o, c, e, b (7o, 10e, 12b), or a French one: rank A, 2-7, J, Q, K and a suit D, H, C, S or ♦ ♥ ♣ ♠ (7D, JS, KC, A♦)
    """
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise CardError(f"a card must be given as text like '7o', not {type(text).__name__}",
                        code="not_text", token=repr(text)[:24])
    card = _CACHE.get(text)
    if card is not None:
        return card
    token = text.strip()
    card = _CACHE.get(token)
    if card is not None:
        return card
    plain = _plain(token)
    card = _CACHE.get(plain)
    if card is not None:
        return card
    if not plain:
        raise CardError(f"an empty text is not a card. {_FORMS}", code="empty_card", token=_visible(token),
                        hint=None)
    hint_code, hint, suggestion = _hint(plain) or ("", None, "")
    shown = _show(token)
    detail = f": {hint}" if hint else ""
    raise CardError(f"{shown} is not a card{detail}. {_FORMS}", token=_visible(token), hint=hint,
                    hint_code=hint_code, suggestion=suggestion)


_TOKENS = re.compile(r"[^\s,;]+")  # what lies between spaces, commas and semicolons


def parse_cards(text: str | Iterable[str | Card], *, allow_empty: bool = True) -> tuple[Card, ...]:
    """The cards named in ``text`` (separated by spaces or commas), in the order given.

    A card named twice is an error: the deck holds each card once.

    >>> parse_cards("1o, 4b 7o")
    (Card('1o'), Card('4b'), Card('7o'))
    >>> parse_cards("7o 7D")
    Traceback (most recent call last):
    ...
    escoba_tutor.engine.errors.CardError: 7o is given twice ('7o' and '7D'): the deck has one of each card
    """
    if isinstance(text, str):
        tokens: Iterable[Any] = (match.group() for match in _TOKENS.finditer(text))  # lazily: stop at the first fault
    elif isinstance(text, Card):
        tokens = [text]
    else:
        try:
            tokens = iter(text)
        except TypeError:
            raise CardError(f"cards must be given as text like '1o 4b 7o', not {type(text).__name__}",
                            code="not_text", token=repr(text)[:24]) from None
    seen: dict[Card, object] = {}
    for token in tokens:
        card = parse_card(token)
        if card in seen:  # at most 41 cards are read before this, however long the text
            raise CardError(f"{card} is given twice ({str(seen[card])!r} and {str(token)!r}): "
                            "the deck has one of each card", code="duplicate_card", token=str(token)[:24],
                            card=card.code)
        seen[card] = token
    cards = tuple(seen)
    if not cards and not allow_empty:
        raise CardError("no cards were given", code="no_cards", token="")
    return cards


as_card = parse_card


def as_cards(cards: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Cards from text or from an iterable of cards or codes (the lenient entry point of the public API)."""
    if isinstance(cards, tuple) and all(type(c) is Card for c in cards) and len(set(cards)) == len(cards):
        return cards
    return parse_cards(cards)


# The slot's own descriptor: it raises TypeError for anything that is not a Card.
_bit_of: Callable[[Card], int] = Card.__dict__["bit"].__get__


def table_mask(cards: str | Iterable[str | Card]) -> int:
    """The bit set (:attr:`Card.bit`) of some cards given as cards or text; a card given twice is an error."""
    if type(cards) is tuple or type(cards) is list:
        try:
            mask = sum(map(_bit_of, cards))
        except TypeError:
            pass
        else:
            if mask.bit_count() == len(cards):
                return mask
    return cards_mask(parse_cards(cards))


def cards_mask(cards: Iterable[Card]) -> int:
    """The cards as a set of bits (see :attr:`Card.bit`)."""
    return sum(card.bit for card in cards)


def cards_of_mask(mask: int) -> tuple[Card, ...]:
    """The cards of a bit set, in deck order."""
    return tuple(card for card in DECK if card.bit & mask)


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical text of some cards, in deck order.

    >>> format_cards(parse_cards("7o 1o 4b"))
    '1o 7o 4b'
    """
    return " ".join(card.code for card in sorted(cards))
