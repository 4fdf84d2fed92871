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

import gettext
import hashlib
import io
import struct
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..engine.errors import EscobaError
from . import translator
from .translator import LANGUAGES, CatalogsNotCompiledError

__all__ = ["compile_catalogs", "stale_catalogs", "update_catalogs", "catalog_sources", "extract", "read_mo",
           "write_mo", "compile_catalog", "every_message"]

def every_message(lang: str) -> dict[Any, Any]:
    """Every translated message of one language, all modules' catalogs merged: id -> text, and (singular,
    plural) -> the plural forms (for checks over all the words; a lookup goes through :func:`_translations`)."""
    merged: dict[Any, Any] = {}
    # the later name wins, as in a lookup
    for path in sorted((translator.LOCALE_DIR / lang / "LC_MESSAGES").glob("*.mo")):
        merged.update(read_mo(path.read_bytes()))
    return merged


# Babel (a development dependency: ``pip install -e ".[test]"``) reads and writes the .po files here; nothing
# above needs it.
_FIXED_DATE = datetime(2026, 11, 30, tzinfo=timezone.utc)  # a fixed header date keeps the files' diffs small
KEYWORDS = {"_": None, "N_": None, "N_plural": (1, 2), "_n": (1, 2), "plural": (1, 2)}
_MO_MAGIC = 0x950412DE
#: The header field of a compiled catalog that names the .po file's contents it was compiled from.
SOURCE_FIELD = "X-Source-SHA256"


def _babel() -> Any:
    try:
        import babel.messages.pofile
    except ImportError as error:  # an ordinary install runs without it; only keeping the catalogs needs it
        raise EscobaError('keeping the message catalogs needs Babel: pip install -e ".[test]"',
                          code="babel_missing") from error
    return babel.messages.pofile


def source_digest(po: bytes) -> str:
    return hashlib.sha256(po).hexdigest()


def write_mo(messages: dict[Any, Any], header: dict[str, str]) -> bytes:
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


def read_mo(data: bytes) -> dict[Any, Any]:
    """The messages of a ``.mo`` file written by :func:`write_mo`, as :func:`write_mo` takes them (the header
    left out)."""
    magic, _revision, count, ids_at, texts_at = struct.unpack_from("<5I", data)
    if magic != _MO_MAGIC:
        raise CatalogsNotCompiledError("not a compiled message catalog (little-endian .mo)", path="")
    messages: dict[Any, Any] = {}
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
    messages: dict[Any, Any] = {}
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


def extract(module: Path | list[Path]) -> list[tuple[str | tuple[str, str], int]]:
    """The message ids a module (or the modules of one catalog) uses, with their line numbers."""
    from babel.messages.extract import extract_python

    found: list[tuple[str | tuple[str, str], int]] = []
    for path in [module] if isinstance(module, Path) else module:
        with path.open("rb") as handle:
            message: Any
            for line, _func, message, _comments in extract_python(handle, KEYWORDS, [], {}):
                if isinstance(message, tuple):
                    message = tuple(m for m in message if m is not None)
                    message = message[0] if len(message) == 1 else message
                if message:  # _(a_variable) has no literal id: its ids are marked with N_ where they are written
                    found.append((message, line))
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
        ids = [(message, str(m.relative_to(root)), line) for m in modules for message, line in extract(m)]
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
