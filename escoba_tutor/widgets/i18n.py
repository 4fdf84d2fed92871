"""Message catalogs: every word a learner reads comes from here, in Spanish (the default) or English.

The catalogs are gettext ``.po`` files read with Babel, one file per widget module and language:
``escoba_tutor/locale/<lang>/LC_MESSAGES/<module>.po``. Message ids are English source text with
``{name}`` placeholders. ``python -m escoba_tutor.widgets.i18n`` adds new ids to the catalogs (the
translations are then written by hand); ``tests/test_i18n.py`` fails on a missing, empty or unused entry.

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
from datetime import datetime, timezone
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

from ..cards import Card, Suit, as_card
from ..errors import EscobaError

__all__ = ["LANGUAGES", "DEFAULT_LANGUAGE", "Translator", "normalize_language", "N_", "N_plural"]

LANGUAGES = {"es": "Español", "en": "English"}
DEFAULT_LANGUAGE = "es"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


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


@cache
def _messages(lang: str) -> dict:
    """Every translated message of one language, all modules' catalogs merged."""
    return _catalogs(lang)[0]


@cache
def _catalogs(lang: str):
    """The merged messages of one language and its plural rule (from the catalogs' ``Plural-Forms`` header):
    a function from a count to the index of the plural form to use."""
    merged: dict = {}
    rule = None
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    for path in sorted(folder.glob("*.po")):
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        rule = rule or catalog.plural_expr
        for message in catalog:
            if message.id and message.string and not message.fuzzy:
                merged[message.id] = message.string
    return merged, gettext.c2py(rule or "(n != 1)")


class Translator:
    """The text of one language. ``_("...")`` translates and fills ``{placeholders}``."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = normalize_language(lang)
        self._messages, self._plural_index = _catalogs(self.lang)

    def __call__(self, message: str, /, **params: object) -> str:
        text = self._messages.get(message, message)
        return text.format(**params) if params else text

    def plural(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        """The form of a message for the count ``n``, chosen by the language's plural rule (gettext's
        ``Plural-Forms``), with ``{n}`` and the other placeholders filled in."""
        forms = self._messages.get((singular, plural)) or (singular, plural)  # untranslated: the English forms
        return forms[min(self._plural_index(n), len(forms) - 1)].format(n=n, **params)

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


# ------------------------------------------------------------------------------------ keeping catalogs
_FIXED_DATE = datetime(2026, 11, 30, tzinfo=timezone.utc)  # a fixed header date keeps the files' diffs small
KEYWORDS = {"_": None, "N_": None, "N_plural": (1, 2), "_n": (1, 2), "plural": (1, 2)}


def extract(module: Path | list[Path]) -> list[tuple[str | tuple[str, str], int]]:
    """The message ids a module (or the modules of one catalog) uses, with their line numbers."""
    from babel.messages.extract import extract_python

    found = []
    for path in [module] if isinstance(module, Path) else module:
        with path.open("rb") as handle:
            for line, _func, message, _comments in extract_python(handle, KEYWORDS, [], {}):
                if isinstance(message, tuple):
                    message = tuple(m for m in message if m is not None)
                    message = message[0] if len(message) == 1 else message
                if message:  # _(a_variable) has no literal id: its ids are marked with N_ where they are written
                    found.append((message, line))
    return found


#: Pages outside widgets/ whose words have a catalog of their own (the printable worksheet).
PAGES = ("worksheet.py",)


def catalog_sources() -> dict[str, list[Path]]:
    """Catalog name -> the source files whose messages it holds: one per widget module, one per widget package
    (its modules share it), and one per page of :data:`PAGES`."""
    widgets = Path(__file__).resolve().parent
    sources: dict[str, list[Path]] = {m.stem: [m] for m in sorted(widgets.glob("*.py"))}
    for package in sorted(p.parent for p in widgets.glob("*/__init__.py")):
        sources[package.name] = sorted(package.glob("*.py"))
    for page in PAGES:
        sources[Path(page).stem] = [widgets.parent / page]
    return sources


def update_catalogs(names: list[str] | None = None) -> None:
    """Add each catalog's new message ids (empty, to be translated), drop unused ones; ``names`` chooses some
    catalogs (``python -m escoba_tutor.widgets.i18n drills worksheet``), by default all."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    root = Path(__file__).resolve().parent.parent.parent
    for name, modules in catalog_sources().items():
        if names and name not in names:
            continue
        ids = [(message, str(m.relative_to(root)), line) for m in modules for message, line in extract(m)]
        if not ids:
            continue
        where = ", ".join(str(m.relative_to(root)) for m in modules)
        for lang in LANGUAGES:
            path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{name}.po"
            old = {}
            if path.exists():
                with path.open("rb") as handle:
                    old = {m.id: m.string for m in read_po(handle, locale=lang) if m.id}
            catalog = Catalog(locale=lang, project="escoba-tutor", domain=name, version="1",
                              header_comment=f"# {LANGUAGES[lang]}: the messages of {where}"[:300],
                              copyright_holder="the escoba-tutor team", msgid_bugs_address="",
                              last_translator="the escoba-tutor team", language_team=LANGUAGES[lang],
                              creation_date=_FIXED_DATE, revision_date=_FIXED_DATE, fuzzy=False)
            for message, where, line in ids:
                if message not in catalog:
                    catalog.add(message, old.get(message, "" if isinstance(message, str) else ("", "")),
                                locations=[(where, line)])
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(".po.new")  # written whole, then renamed: never a half-written catalog
            with partial.open("wb") as handle:
                write_po(handle, catalog, omit_header=False, sort_output=True, width=110)
            partial.replace(path)


if __name__ == "__main__":
    import sys

    update_catalogs(sys.argv[1:])
