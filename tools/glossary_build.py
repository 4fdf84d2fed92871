"""Write the glossary, docs/glossary.md (English first) and docs/glosario.md (Spanish first), from the course's
vocabulary (escoba_tutor/text/vocabulary.toml).

The vocabulary is the one list of the words the course uses: each concept's term in Spanish (with the grammar a
sentence needs) and in English, what it means, and the words the course does not use for it.
``tests/test_vocabulary.py`` reads it to look for those words in every screen, lesson, worksheet and teachers'
guide; this tool writes the glossary the readers see, in two editions with the same tables: each reader finds
their own language first.

``python -m tools.glossary_build`` writes both; ``--check`` exits 1 when either is not what the vocabulary gives
(a test runs it). ``python -m tools.lessons_build`` writes it too.

>>> vocabulary = load()
>>> concept(vocabulary, "side")["es"]["forms"]["del"]
'del bando'
>>> concept(vocabulary, "team")["es"]["forms"]["para"]
'para la pareja'
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the course runs there, its development tools need 3.11
    tomllib = None  # type: ignore[assignment]

__all__ = ["VOCABULARY", "GLOSSARY", "GLOSARIO", "VocabularyError", "load", "concept", "render", "check", "write",
           "main"]

ROOT = Path(__file__).resolve().parent.parent
VOCABULARY = ROOT / "escoba_tutor" / "text" / "vocabulary.toml"
GLOSSARY = ROOT / "docs" / "glossary.md"  # English first
GLOSARIO = ROOT / "docs" / "glosario.md"  # Spanish first, for Spanish readers
_LANGS = ("es", "en")
_ARTICLE_FORMS = {"m": {"el": "el ", "del": "del ", "al": "al ", "para": "para el "},
                  "f": {"el": "la ", "del": "de la ", "al": "a la ", "para": "para la "}}


class VocabularyError(ValueError):
    """A vocabulary file that cannot be used: the message names the concept and the field."""


def load(path: Path = VOCABULARY) -> dict[str, Any]:
    """The vocabulary, checked: the glossary's head has both editions' titles and its paragraphs a language; every
    concept has an id, a known section, both terms and both meanings; the Spanish forms agree with the gender; every
    forbidding pattern compiles."""
    if tomllib is None:
        raise VocabularyError("reading the vocabulary needs Python 3.11 or later (the standard library's tomllib)")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise VocabularyError(f"{path}: {error}") from error
    head = data.get("glossary", {})
    for key in ("title", "title_es", "forbidden_title", "forbidden_title_es", "english_edition"):
        if not head.get(key):
            raise VocabularyError(f"{path}: [glossary] needs {key}")
    if any(not head.get("forbidden_intro", {}).get(lang) for lang in _LANGS):
        raise VocabularyError(f"{path}: [glossary] needs forbidden_intro.es and forbidden_intro.en")
    for number, paragraph in enumerate(head.get("intro", []), 1):
        if paragraph.get("lang") not in _LANGS or not paragraph.get("text"):
            raise VocabularyError(f"{path}: [[glossary.intro]] no. {number} needs a lang (es or en) and a text")
    sections = {s["id"] for s in data.get("sections", [])}
    seen: set[str] = set()
    for number, item in enumerate(data.get("concepts", []), 1):
        name = item.get("id") or f"concept no. {number}"
        if "id" not in item or name in seen:
            raise VocabularyError(f"{path}: {name}: every concept needs an id of its own")
        seen.add(name)
        if item.get("section") not in sections | {None}:
            raise VocabularyError(f"{path}: {name}: no section called {item.get('section')!r}")
        for lang in _LANGS:
            if not item.get(lang, {}).get("term"):
                raise VocabularyError(f"{path}: {name}: no {lang} term")
            if item.get("section") and not item.get("meaning", {}).get(lang):
                raise VocabularyError(f"{path}: {name}: no {lang} meaning")
        es = item["es"]
        for key, gender in (("forms", es.get("gender")), ("forms_f", "f")):
            for form, text in es.get(key, {}).items():
                prefix = _ARTICLE_FORMS.get(gender or "", {}).get(form)
                if prefix is None or not text.startswith(prefix) and "que" not in text:
                    raise VocabularyError(f"{path}: {name}: es.{key}.{form} {text!r} does not agree with its "
                                          f"gender ({gender})")
        for rule in item.get("forbid", []):
            if rule.get("lang") not in _LANGS or not rule.get("word") or not rule.get("instead"):
                raise VocabularyError(f"{path}: {name}: a forbidden word needs lang, word and instead")
            for pattern in [rule.get("pattern", ""), *rule.get("allow", [])]:
                try:
                    re.compile(pattern)
                except re.error as error:
                    raise VocabularyError(f"{path}: {name}: the pattern {pattern!r} is wrong: {error}") from error
    return data


def concept(vocabulary: dict[str, Any], name: str) -> dict[str, Any]:
    """The concept called ``name``."""
    for item in vocabulary["concepts"]:
        if item["id"] == name:
            return dict(item)
    raise KeyError(name)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


_NOTICE = ("<!-- This file is written from escoba_tutor/text/vocabulary.toml by python -m tools.glossary_build: "
           "edit that file,\nnot this one. -->")
# Each edition's headings, its language first: docs/glossary.md for English readers, docs/glosario.md for Spanish ones
_HEADS = {"en": {"columns": "| Español | English | Meaning · Significado |",
                 "forbidden": "| Language · Idioma | Not · No | But · Sino | Stays in · Se queda en |"},
          "es": {"columns": "| Español | English | Significado · Meaning |",
                 "forbidden": "| Idioma · Language | No · Not | Sino · But | Se queda en · Stays in |"}}
_OTHER = {"en": "es", "es": "en"}


def render(vocabulary: dict[str, Any], first: str = "en") -> str:
    """The glossary's markdown: ``first="en"`` the English edition, every paragraph in order; ``"es"`` the Spanish
    edition, Spanish first, without the English paragraphs (notes for writing in English, in the English one)."""
    head, other = vocabulary["glossary"], _OTHER[first]
    suffix = "_es" if first == "es" else ""
    lines = [f"# {head['title' + suffix]}", ""]
    for paragraph in head["intro"]:
        if first == "en" or paragraph["lang"] == "es":
            lead = paragraph.get("lead", "") if first == "es" else ""
            lines += [lead + paragraph["text"].strip(), ""]
    if first == "es":
        lines += [head["english_edition"], ""]
    lines += [_NOTICE, ""]
    for section in vocabulary["sections"]:
        lines += [f"## {section[first]} · {section[other]}", "", _HEADS[first]["columns"], "| --- | --- | --- |"]
        for item in vocabulary["concepts"]:
            if item.get("section") != section["id"]:
                continue
            es = item["es"].get("shown", item["es"]["term"])
            en = item["en"].get("shown", item["en"]["term"])
            meaning = f"{item['meaning'][first]} · {item['meaning'][other]}"
            lines.append(f"| {_cell(es)} | {_cell(en)} | {_cell(meaning)} |")
        lines.append("")
    intro = head["forbidden_intro"]
    lines += [f"## {head['forbidden_title' + suffix]}", "",
              f"{intro[first].strip()} · {intro[other].strip()}", "",
              _HEADS[first]["forbidden"], "| --- | --- | --- | --- |"]
    names = {"es": "español", "en": "English"}
    for lang in (first, other):
        for item in vocabulary["concepts"]:
            for rule in item.get("forbid", []):
                if rule["lang"] == lang:
                    # a phrase as a reader reads it: "house rules?" -> "house rules"; a phrase cut out of its
                    # sentence may need words around it ("kept"), or the reader cannot tell which sense stays
                    kept = rule.get("kept") or ", ".join(
                        f"*{re.sub(r'[?]', '', a)}*" for a in rule.get("allow", [])) or "—"
                    lines.append(f"| {names[lang]} | *{_cell(rule['word'])}* | *{_cell(rule['instead'])}* | "
                                 f"{_cell(kept)} |")
    return "\n".join(lines).rstrip("\n") + "\n"


def _editions(glossary: Path, glosario: Path) -> dict[Path, str]:
    return {glossary: "en", glosario: "es"}


def check(vocabulary_path: Path = VOCABULARY, glossary: Path = GLOSSARY, glosario: Path = GLOSARIO) -> list[str]:
    """What is wrong (empty: both editions of the glossary are current)."""
    try:
        vocabulary = load(vocabulary_path)
    except VocabularyError as error:
        return [str(error)]
    return [f"{path} is not written from {vocabulary_path.name}: run python -m tools.glossary_build"
            for path, first in _editions(glossary, glosario).items()
            if not path.exists() or path.read_text(encoding="utf-8") != render(vocabulary, first)]


def write(vocabulary_path: Path = VOCABULARY, glossary: Path = GLOSSARY, glosario: Path = GLOSARIO) -> list[Path]:
    """Write both editions of the glossary; the ones that changed. Both texts are made before either is written,
    so a vocabulary that cannot be read changes nothing."""
    vocabulary = load(vocabulary_path)
    texts = {path: render(vocabulary, first) for path, first in _editions(glossary, glosario).items()}
    changed = []
    for path, text in texts.items():
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        partial = path.with_suffix(".md.new")
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
        changed.append(path)
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.glossary_build",
                                     description="Write docs/glossary.md and docs/glosario.md from "
                                                 "escoba_tutor/text/vocabulary.toml.")
    parser.add_argument("--check", action="store_true", help="only check that the glossary is current")
    args = parser.parse_args(argv)
    if args.check:
        problems = check()
        print("\n".join(problems) or "the glossary is current")
        return 1 if problems else 0
    try:
        changed = write()
    except VocabularyError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print("\n".join(f"wrote {path.relative_to(ROOT)}" for path in changed) or "the glossary is current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
