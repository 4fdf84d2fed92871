"""Keeping the message catalogs: new message ids added, unused ones dropped, the ``.po`` files compiled to the
``.mo`` files :mod:`escoba_tutor.text.translator` reads.

``python -m escoba_tutor.text.catalogs`` adds each catalog's new ids (empty, to be translated by hand) and compiles
them; ``python -m escoba_tutor.text.catalogs --compile`` only compiles. ``tests/test_i18n.py`` fails on a missing,
empty or unused entry, and on a ``.mo`` file that is not its ``.po`` file compiled.

Which catalog holds a module's messages (:func:`catalog_sources`): one per widget module and per widget package,
one per module of this folder (but board_words.py, whose words are the server's), and one for the exercises (their
kinds and the worksheet). The server's pages have a catalog of their own, ``server``, kept by hand (its
templates' words are read by tests/test_class_board.py). A message keeps its translation when it moves from one
catalog to another: the translations of every catalog of a language are read before any is written.
"""

from __future__ import annotations

import functools
import gettext
import hashlib
import io
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..engine.errors import EscobaError
from . import translator
from .translator import LANGUAGES

__all__ = ["compile_catalogs", "stale_catalogs", "update_catalogs", "catalog_sources", "extract", "compile_catalog",
           "every_message"]


# Babel (a development dependency: ``pip install -e ".[test]"``) reads and writes the .po and .mo files here, but
# for stale_catalogs (the static site's build calls it): the package reads the .mo files with gettext.
_FIXED_DATE = datetime(2026, 11, 30, tzinfo=timezone.utc)  # a fixed header date keeps the files' diffs small
KEYWORDS = {"_": None, "N_": None, "N_plural": (1, 2), "_n": (1, 2), "plural": (1, 2)}
#: The header field of a compiled catalog that names the .po file's contents it was compiled from.
SOURCE_FIELD = "X-Source-SHA256"
#: The header fields Babel writes that a compiled catalog leaves out: the dates (the clock's when the .po file
#: has none) and Babel's version.
_UNREPRODUCIBLE = frozenset({"POT-Creation-Date", "PO-Revision-Date", "Generated-By"})


def every_message(lang: str) -> dict[Any, Any]:
    """Every translated message of one language, all modules' catalogs merged: id -> text, and (singular,
    plural) -> the plural forms (for checks over all the words; a lookup goes through :func:`_translations`).
    Read by Babel."""
    from babel.messages.mofile import read_mo

    merged: dict[Any, Any] = {}
    # the later name wins, as in a lookup
    for path in sorted((translator.LOCALE_DIR / lang / "LC_MESSAGES").glob("*.mo")):
        with path.open("rb") as handle:
            for message in read_mo(handle):
                if isinstance(message.id, (list, tuple)) and isinstance(message.string, (list, tuple)):
                    merged[tuple(message.id)] = tuple(message.string)
                elif message.id:
                    merged[message.id] = message.string
    return merged


def _babel() -> Any:
    try:
        import babel.messages.pofile
    except ImportError as error:  # an ordinary install runs without it; only keeping the catalogs needs it
        raise EscobaError('keeping the message catalogs needs Babel: pip install -e ".[test]"',
                          code="babel_missing") from error
    return babel.messages.pofile


def source_digest(po: bytes) -> str:
    return hashlib.sha256(po).hexdigest()


def compile_catalog(po: Path, lang: str) -> bytes:
    """The ``.mo`` file of one ``.po`` catalog, written by Babel: its translated messages (an empty or fuzzy one is
    left out, so its English id is shown), the .po file's header (its plural rule among it), and the digest of
    the .po file it comes from. The same .po file always gives the same bytes: Babel sorts the messages, and
    nothing in the header depends on the day or on Babel's version."""
    from babel.messages.mofile import write_mo

    source = po.read_bytes()
    catalog = _babel().read_po(io.BytesIO(source), locale=lang)
    compiled = _compiled_catalog_type()(source_digest(source), locale=lang, domain=po.stem, fuzzy=False)
    compiled.mime_headers = catalog.mime_headers  # project, team, plural rule: as the .po file says
    for message in catalog:
        # Babel reads as many plural forms as the rule has, an untranslated one empty: a half-translated plural
        # is left out whole, so it reads in English rather than in two languages.
        if message.id and not message.fuzzy and message.string and all(message.string):
            compiled.add(message.id, message.string)
    mo = io.BytesIO()
    write_mo(mo, compiled)
    return mo.getvalue()


@functools.cache
def _compiled_catalog_type() -> type[Any]:
    """Babel's Catalog, with the header field :data:`SOURCE_FIELD` (Babel writes only the fields it knows) and
    without the fields that would change the bytes of the same .po file compiled another day or by another
    version of Babel (:data:`_UNREPRODUCIBLE`). Made when first needed: only keeping the catalogs imports Babel."""
    from babel.messages.catalog import Catalog

    class CompiledCatalog(Catalog):
        def __init__(self, digest: str, **options: Any) -> None:
            super().__init__(**options)
            self.source_digest = digest

        def _get_mime_headers(self) -> list[tuple[str, str]]:  # what Catalog.mime_headers reads
            kept = [(name, value) for name, value in super()._get_mime_headers() if name not in _UNREPRODUCIBLE]
            return [*kept, (SOURCE_FIELD, self.source_digest)]

    return CompiledCatalog


def stale_catalogs() -> list[Path]:
    """The ``.po`` catalogs whose ``.mo`` file is missing or was compiled from other contents (Babel not
    needed: the digest in the compiled header tells)."""
    stale = []
    for po in sorted(translator.LOCALE_DIR.glob("*/LC_MESSAGES/*.po")):
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


#: A comment that starts with this, just above a message in the code, goes into the catalogs beside it (``#.``):
#: what a translator, or a reader of the catalog, needs to know that the words alone do not say.
NOTE_TAG = "TRANSLATORS:"


def extract(module: Path | list[Path],
            notes: dict[Any, list[str]] | None = None) -> list[tuple[str | tuple[str, str], int]]:
    """The message ids a module (or the modules of one catalog) uses, with their line numbers; ``notes`` (a dict)
    gets the :data:`NOTE_TAG` comments written above each message."""
    from babel.messages.extract import extract_python

    found: list[tuple[str | tuple[str, str], int]] = []
    for path in [module] if isinstance(module, Path) else module:
        with path.open("rb") as handle:
            message: Any
            for line, _func, message, comments in extract_python(handle, KEYWORDS, [NOTE_TAG], {}):
                if isinstance(message, tuple):
                    message = tuple(m for m in message if m is not None)
                    message = message[0] if len(message) == 1 else message
                if message:  # _(a_variable) has no literal id: its ids are marked with N_ where they are written
                    found.append((message, line))
                    if notes is not None and comments:
                        notes.setdefault(message, []).extend(comments)
    return found


def catalog_sources() -> dict[str, list[Path]]:
    """Catalog name -> the source files whose messages it holds."""
    package = Path(__file__).resolve().parent.parent
    widgets = package / "widgets"
    sources: dict[str, list[Path]] = {m.stem: [m] for m in sorted(widgets.glob("*.py"))}
    for folder in sorted(p.parent for p in widgets.glob("*/__init__.py")):
        sources[folder.name] = sorted(folder.glob("*.py"))
    # board_words.py's words are the teacher's board's, in the server's catalog
    sources.update({m.stem: [m] for m in sorted(Path(__file__).resolve().parent.glob("*.py"))
                    if m.stem != "board_words"})
    sources["exercises"] = sorted((package / "exercises").rglob("*.py"))
    return sources


def _every_translation(lang: str, read_po: Any) -> dict[Any, Any]:
    """Every translated id of one language's catalogs, so that a message moved to another catalog keeps its words."""
    found: dict[Any, Any] = {}
    for path in sorted((translator.LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as handle:
            found.update({m.id: m.string for m in read_po(handle, locale=lang) if m.id and m.string})
    return found


def update_catalogs(names: list[str] | None = None) -> None:
    """Add each catalog's new message ids (empty unless another catalog translates them), drop unused ones;
    ``names`` chooses some catalogs (``python -m escoba_tutor.text.catalogs drills exercises``), by default all."""
    from babel.messages.catalog import Catalog

    read_po, write_po = _babel().read_po, _babel().write_po

    root = Path(__file__).resolve().parent.parent.parent
    translations = {lang: _every_translation(lang, read_po) for lang in LANGUAGES}
    for name, modules in catalog_sources().items():
        if names and name not in names:
            continue
        notes: dict[Any, list[str]] = {}
        ids = [(message, str(m.relative_to(root)), line) for m in modules for message, line in extract(m, notes)]
        if not ids:
            continue
        where = ", ".join(str(m.relative_to(root)) for m in modules)
        for lang in LANGUAGES:
            path = translator.LOCALE_DIR / lang / "LC_MESSAGES" / f"{name}.po"
            old = translations[lang]
            catalog = Catalog(locale=lang, project="escoba-tutor", domain=name, version="1",
                              header_comment=f"# {LANGUAGES[lang]}: the messages of {where}"[:300],
                              copyright_holder="the escoba-tutor team", msgid_bugs_address="",
                              last_translator="the escoba-tutor team", language_team=LANGUAGES[lang],
                              creation_date=_FIXED_DATE, revision_date=_FIXED_DATE, fuzzy=False)
            for message, where, line in ids:
                if message not in catalog:
                    catalog.add(message, old.get(message, "" if isinstance(message, str) else ("", "")),
                                locations=[(where, line)], auto_comments=notes.get(message, []))
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
