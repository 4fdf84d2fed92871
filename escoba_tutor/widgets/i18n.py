"""Message catalogs: every word a learner reads comes from here, in Spanish (the default) or English.

The catalogs are gettext ``.po`` files, one file per widget module and language:
``escoba_tutor/locale/<lang>/LC_MESSAGES/<module>.po``, each compiled beside it to the ``.mo`` file the standard
library's :mod:`gettext` reads at run time (no catalog is parsed while a lesson starts, and the kernel needs no
Babel). Message ids are English source text with ``{name}`` placeholders. ``python -m escoba_tutor.widgets.i18n``
adds new ids to the catalogs and compiles them (the translations are then written by hand, and ``python -m
escoba_tutor.widgets.i18n --compile`` compiles them again); ``tests/test_i18n.py`` fails on a missing, empty or
unused entry, and on a ``.mo`` file that is not its ``.po`` file compiled.

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
import hashlib
import io
import struct
from datetime import datetime, timezone
from functools import cache
from pathlib import Path

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


class CatalogsNotCompiledError(EscobaError):
    code = "catalogs_not_compiled"


#: Compile the catalogs again with this (a ``.mo`` file missing, or not its ``.po`` file compiled).
COMPILE_COMMAND = "python -m escoba_tutor.widgets.i18n --compile"


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


def _messages(lang: str) -> dict:
    """Every translated message of one language, all modules' catalogs merged: id -> text, and (singular,
    plural) -> the plural forms (for checks over all the words; a lookup goes through :func:`_translations`)."""
    merged: dict = {}
    for path in sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.mo")):  # the later name wins, as in a lookup
        merged.update(read_mo(path.read_bytes()))
    return merged


class Translator:
    """The text of one language. ``_("...")`` translates and fills ``{placeholders}``."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE) -> None:
        self.lang = normalize_language(lang)
        self._translations = _translations(self.lang)
        self._plural_index = self._translations.plural  # the catalogs' Plural-Forms: a count -> its form's index

    def __call__(self, message: str, /, **params: object) -> str:
        text = self._translations.gettext(message) if message else message  # ("" would give the header)
        return text.format(**params) if params else text

    def plural(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        """The form of a message for the count ``n``, chosen by the language's plural rule (gettext's
        ``Plural-Forms``), with ``{n}`` and the other placeholders filled in."""
        return self._translations.ngettext(singular, plural, n).format(n=n, **params)  # untranslated: English

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
# Babel (a development dependency: ``pip install -e ".[test]"``) reads and writes the .po files here; nothing
# above needs it.
_FIXED_DATE = datetime(2026, 11, 30, tzinfo=timezone.utc)  # a fixed header date keeps the files' diffs small
KEYWORDS = {"_": None, "N_": None, "N_plural": (1, 2), "_n": (1, 2), "plural": (1, 2)}
_MO_MAGIC = 0x950412DE
#: The header field of a compiled catalog that names the .po file's contents it was compiled from.
SOURCE_FIELD = "X-Source-SHA256"


def _babel():
    try:
        import babel.messages.pofile
    except ImportError as error:  # an ordinary install runs without it; only keeping the catalogs needs it
        raise EscobaError('keeping the message catalogs needs Babel: pip install -e ".[test]"',
                          code="babel_missing") from error
    return babel.messages.pofile


def source_digest(po: bytes) -> str:
    return hashlib.sha256(po).hexdigest()


def write_mo(messages: dict, header: dict[str, str]) -> bytes:
    """A GNU gettext ``.mo`` file (what :class:`gettext.GNUTranslations` reads): ``messages`` maps an id to its
    text, or (singular, plural) to the plural forms; ``header`` is the catalog's metadata. The ids are sorted,
    so the same catalog always gives the same bytes."""
    entries = {b"": "".join(f"{key}: {value}\n" for key, value in header.items()).encode()}
    for key, text in messages.items():
        if isinstance(key, tuple):
            entries["\x00".join(key).encode()] = "\x00".join(text).encode()
        else:
            entries[key.encode()] = text.encode()
    ids = sorted(entries)
    count = len(ids)
    ids_at = 7 * 4
    texts_at = ids_at + count * 8
    data_at = texts_at + count * 8
    tables, blob = [b"", b""], b""
    for table, values in ((0, ids), (1, [entries[i] for i in ids])):
        for value in values:
            tables[table] += struct.pack("<2I", len(value), data_at + len(blob))
            blob += value + b"\x00"
    return struct.pack("<7I", _MO_MAGIC, 0, count, ids_at, texts_at, 0, data_at) + tables[0] + tables[1] + blob


def read_mo(data: bytes) -> dict:
    """The messages of a ``.mo`` file written by :func:`write_mo`, as :func:`write_mo` takes them (the header
    left out)."""
    magic, _revision, count, ids_at, texts_at = struct.unpack_from("<5I", data)
    if magic != _MO_MAGIC:
        raise CatalogsNotCompiledError("not a compiled message catalog (little-endian .mo)", path="")
    messages: dict = {}
    for n in range(count):
        id_length, id_start = struct.unpack_from("<2I", data, ids_at + 8 * n)
        text_length, text_start = struct.unpack_from("<2I", data, texts_at + 8 * n)
        key = data[id_start:id_start + id_length].decode()
        text = data[text_start:text_start + text_length].decode()
        if "\x00" in key:
            messages[tuple(key.split("\x00"))] = tuple(text.split("\x00"))
        elif key:
            messages[key] = text
    return messages


def compile_catalog(po: Path, lang: str) -> bytes:
    """The ``.mo`` file of one ``.po`` catalog: its translated messages (an empty or fuzzy one is left out, so
    its English id is shown), its plural rule, and the digest of the ``.po`` file it comes from."""
    source = po.read_bytes()
    catalog = _babel().read_po(io.BytesIO(source), locale=lang)
    messages: dict = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple):
            forms = tuple(message.string)
            if all(forms):  # as many forms as the rule has: a count past the last form says the last one
                messages[tuple(message.id)] = forms + forms[-1:] * (catalog.num_plurals - len(forms))
        elif message.string:
            messages[message.id] = message.string
    header = {"Project-Id-Version": "escoba-tutor", "Language": lang,
              "Content-Type": "text/plain; charset=UTF-8", "Content-Transfer-Encoding": "8bit",
              "Plural-Forms": catalog.plural_forms, SOURCE_FIELD: source_digest(source)}
    return write_mo(messages, header)


def stale_catalogs() -> list[Path]:
    """The ``.po`` catalogs whose ``.mo`` file is missing or was compiled from other contents (Babel not
    needed: the digest in the compiled header tells)."""
    stale = []
    for po in sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        try:
            with mo.open("rb") as handle:
                compiled_from = gettext.GNUTranslations(handle).info().get(SOURCE_FIELD.lower())
        except (OSError, ValueError):
            compiled_from = None
        if compiled_from != source_digest(po.read_bytes()):
            stale.append(po)
    return stale


def compile_catalogs() -> list[Path]:
    """Compile every ``.po`` catalog whose ``.mo`` file is not current; return those written."""
    written = []
    for po in stale_catalogs():
        mo = po.with_suffix(".mo")
        partial = mo.with_suffix(".mo.new")  # written whole, then renamed
        partial.write_bytes(compile_catalog(po, po.parent.parent.name))
        partial.replace(mo)
        written.append(mo)
    return written


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

    read_po, write_po = _babel().read_po, _babel().write_po

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
    compile_catalogs()


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["--compile"]:
        print("\n".join(f"compiled {path}" for path in compile_catalogs()) or "the catalogs are compiled")
    else:
        update_catalogs(sys.argv[1:])
