"""The translator: every word a learner reads comes from here, in Spanish (the default) or English.

The message catalogs are gettext ``.po`` files, a few per language (which module's messages each holds:
:func:`escoba_tutor.text.catalogs.catalog_sources`): ``escoba_tutor/text/locale/<lang>/LC_MESSAGES/<name>.po``,
each compiled beside it to the ``.mo`` file the standard
library's :mod:`gettext` reads at run time (no catalog is parsed while a lesson starts, and the kernel needs no
Babel). Message ids are English source text with ``{name}`` placeholders. Keeping the catalogs (new ids, compiling)
is :mod:`escoba_tutor.text.catalogs`.

>>> _ = Translator("es")
>>> _("{rank} of {suit}", rank="siete", suit="oros")
'siete de oros'
>>> _.card_name("7o"), Translator("en").card_name("10e")
('siete de oros', 'jack of swords')
>>> _.the_card("10e"), _.the_card("1o"), Translator("en").the_card("12b")
('la sota de espadas', 'el as de oros', 'the king of clubs')
>>> _.plural("{n} card", "{n} cards", 1), _.plural("{n} card", "{n} cards", 0)
('1 carta', '0 cartas')
"""

from __future__ import annotations

import gettext
import string
from functools import cache
from pathlib import Path

from ..engine.cards import Card, Suit, as_card
from ..engine.errors import EscobaError

__all__ = ["LANGUAGES", "DEFAULT_LANGUAGE", "Translator", "normalize_language", "N_", "N_plural"]

LANGUAGES = {"es": "Español", "en": "English"}
DEFAULT_LANGUAGE = "es"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


def N_(message: str) -> str:  # noqa: N802 - the gettext name for "mark for translation, translate later"
    return message


def N_plural(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - as N_, for a message with plural forms
    """Mark a message with plural forms, to be said later with ``Translator.plural(*forms, n)``."""
    return singular, plural


_RANKS = {1: N_("ace"), 2: N_("two"), 3: N_("three"), 4: N_("four"), 5: N_("five"), 6: N_("six"), 7: N_("seven"),
          10: N_("jack"), 11: N_("knight"), 12: N_("king")}
_SUITS = {Suit.OROS: N_("coins"), Suit.COPAS: N_("cups"), Suit.ESPADAS: N_("swords"), Suit.BASTOS: N_("clubs")}
_CARD_NAME = N_("{rank} of {suit}")
# A card with its article, one message per rank: the article agrees with the rank's word (in Spanish «la sota»,
# but «el as», «el caballo», «el rey» and «el siete»), so the catalog, not the code, knows each rank's gender.
_THE_CARD = {1: N_("the ace of {suit}"), 2: N_("the two of {suit}"), 3: N_("the three of {suit}"),
             4: N_("the four of {suit}"), 5: N_("the five of {suit}"), 6: N_("the six of {suit}"),
             7: N_("the seven of {suit}"), 10: N_("the jack of {suit}"), 11: N_("the knight of {suit}"),
             12: N_("the king of {suit}")}


class LanguageError(EscobaError):
    code = "bad_language"


def normalize_language(lang: object) -> str:
    """``es``, ``EN``, ``en-GB`` and ``es_ES`` are accepted; anything else is refused with the choices."""
    if isinstance(lang, str):
        base = lang.strip().replace("_", "-").split("-")[0].lower()
        if base in LANGUAGES:
            return base
    shown = repr(lang)[:20]
    raise LanguageError(f"no language {shown}: choose " + " or ".join(f"{k} ({v})" for k, v in LANGUAGES.items()),
                        value=shown)


class CatalogsNotCompiledError(EscobaError):
    code = "catalogs_not_compiled"


#: Compile the catalogs again with this (a ``.mo`` file missing, or not its ``.po`` file compiled).
COMPILE_COMMAND = "python -m escoba_tutor.text.catalogs --compile"


@cache
def _translations(lang: str) -> gettext.GNUTranslations:
    """Every catalog of one language, compiled (``<module>.mo``), chained into one: a message is looked up in
    each in turn, in reverse order of their names, so that where two catalogs translate one id, the later
    name's text is said (as when the catalogs were merged in order of their names)."""
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    chain: gettext.GNUTranslations | None = None
    for path in sorted(folder.glob("*.mo"), reverse=True):
        with path.open("rb") as handle:
            catalog = gettext.GNUTranslations(handle)
        if chain is None:
            chain = catalog
        else:
            chain.add_fallback(catalog)
    if chain is None:
        raise CatalogsNotCompiledError(f"the message catalogs in {folder} are not compiled: compile them with "
                                       f"{COMPILE_COMMAND}", path=str(folder))
    return chain


#: How many messages of a language are kept translated (the course has a few thousand; text that is not a
#: message of the catalogs must not grow the table for ever).
_KEPT_MAX = 20_000


@cache
def _translated(translations: gettext.NullTranslations) -> dict[str, str]:
    """The messages translated so far by ``translations`` (a language's chain of catalogs): one look-up, where
    gettext asks each catalog of the chain in turn (a page's redraw translates a hundred messages)."""
    return {}


class _Formatter(string.Formatter):
    """``str.format`` with one more form for a plain text placeholder: ``{card:The}`` starts a sentence with it,
    first letter capitalised ("The four of clubs takes…", «El cuatro de bastos…»), as a label's ``:The`` form
    does (:mod:`escoba_tutor.text.labels`)."""

    def format_field(self, value: object, format_spec: str) -> str:
        if type(value) is str:
            if format_spec == "The":
                return value[:1].upper() + value[1:]
            if format_spec == "or":  # (a list's "or" form, text.phrases.WordList, given a single word)
                return value
        return format(value, format_spec)


_FORMATTER = _Formatter()


def _filled(text: str, params: dict[str, object]) -> str:
    # (the plain str.format, faster, unless a placeholder asks for the sentence-start form)
    return _FORMATTER.vformat(text, (), params) if ":The}" in text or ":or}" in text else text.format(**params)


class Translator:
    """The text of one language. ``_("...")`` translates and fills ``{placeholders}``; ``{name:The}`` gives a
    text placeholder a capital first letter, to start a sentence.

    >>> Translator("en")("{card:The} takes nothing.", card="the four of clubs")
    'The four of clubs takes nothing.'
    """

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = normalize_language(lang)
        self._translations = _translations(self.lang)
        self._known = _translated(self._translations)
        # the catalogs' Plural-Forms: a count -> its form's index (set by GNUTranslations, not in its stubs)
        self._plural_index = self._translations.plural  # type: ignore[attr-defined]

    def __call__(self, message: str, /, **params: object) -> str:
        text = self._known.get(message)
        if text is None:
            text = self._translations.gettext(message) if message else message  # ("" would give the header)
            if len(self._known) < _KEPT_MAX:
                self._known[message] = text
        return _filled(text, params) if params else text

    def plural(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        """The form of a message for the count ``n``, chosen by the language's plural rule (gettext's
        ``Plural-Forms``), with ``{n}`` and the other placeholders filled in."""
        return _filled(self._translations.ngettext(singular, plural, n), {"n": n, **params})  # untranslated: English

    def card_name(self, card: Card | str) -> str:
        """The card's name alone, for labels and lists: ``siete de oros``."""
        card = as_card(card)
        return self(_CARD_NAME, rank=self(_RANKS[card.rank]), suit=self(_SUITS[card.suit]))

    def the_card(self, card: Card | str) -> str:
        """The card's name with its definite article, for sentences: ``el siete de oros``, ``la sota de copas``."""
        card = as_card(card)
        return self(_THE_CARD[card.rank], suit=self(_SUITS[card.suit]))

    def suit_name(self, suit: Suit | str) -> str:
        return self(_SUITS[Suit(suit)])

    def rank_name(self, rank: int) -> str:
        return self(_RANKS[rank])


