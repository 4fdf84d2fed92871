"""Write docs/glossary.md from the course's vocabulary (escoba_tutor/text/vocabulary.toml).

The vocabulary is the one list of the words the course uses: each concept's term in Spanish (with the grammar a
sentence needs) and in English, what it means, and the words the course does not use for it.
``tests/test_vocabulary.py`` reads it to look for those words in every screen, lesson, worksheet and teachers'
guide; this tool writes the glossary the readers see.

``python -m tools.glossary_build`` writes the glossary; ``--check`` exits 1 when the glossary is not what the
vocabulary gives (a test runs it). ``python -m tools.lessons_build`` writes it too.

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

__all__ = ["VOCABULARY", "GLOSSARY", "VocabularyError", "load", "concept", "render", "check", "write", "main"]

ROOT = Path(__file__).resolve().parent.parent
VOCABULARY = ROOT / "escoba_tutor" / "text" / "vocabulary.toml"
GLOSSARY = ROOT / "docs" / "glossary.md"
_LANGS = ("es", "en")
_ARTICLE_FORMS = {"m": {"el": "el ", "del": "del ", "al": "al ", "para": "para el "},
                  "f": {"el": "la ", "del": "de la ", "al": "a la ", "para": "para la "}}


class VocabularyError(ValueError):
    """A vocabulary file that cannot be used: the message names the concept and the field."""


def load(path: Path = VOCABULARY) -> dict[str, Any]:
    """The vocabulary, checked: every concept has an id, a known section, both terms and both meanings; the
    Spanish forms agree with the gender; every forbidding pattern compiles."""
    if tomllib is None:
        raise VocabularyError("reading the vocabulary needs Python 3.11 or later (the standard library's tomllib)")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise VocabularyError(f"{path}: {error}") from error
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


def render(vocabulary: dict[str, Any]) -> str:
    """The glossary's markdown."""
    head = vocabulary["glossary"]
    lines = [f"# {head['title']}", "", head["intro"].strip(), ""]
    for section in vocabulary["sections"]:
        lines += [f"## {section['en']} · {section['es']}", "", "| Español | English | Meaning · Significado |",
                  "| --- | --- | --- |"]
        for item in vocabulary["concepts"]:
            if item.get("section") != section["id"]:
                continue
            es = item["es"].get("shown", item["es"]["term"])
            en = item["en"].get("shown", item["en"]["term"])
            meaning = f"{item['meaning']['en']} · {item['meaning']['es']}"
            lines.append(f"| {_cell(es)} | {_cell(en)} | {_cell(meaning)} |")
        lines.append("")
    lines += [f"## {head['forbidden_title']}", "", head["forbidden_intro"].strip(), "",
              "| Language · Idioma | Not · No | But · Sino | Stays in · Se queda en |", "| --- | --- | --- | --- |"]
    names = {"es": "español", "en": "English"}
    for lang in ("en", "es"):
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


def check(vocabulary_path: Path = VOCABULARY, glossary: Path = GLOSSARY) -> list[str]:
    """What is wrong (empty: the glossary is current)."""
    try:
        wanted = render(load(vocabulary_path))
    except VocabularyError as error:
        return [str(error)]
    if not glossary.exists() or glossary.read_text(encoding="utf-8") != wanted:
        return [f"{glossary} is not written from {vocabulary_path.name}: run python -m tools.glossary_build"]
    return []


def write(vocabulary_path: Path = VOCABULARY, glossary: Path = GLOSSARY) -> bool:
    """Write the glossary; True when it changed."""
    text = render(load(vocabulary_path))
    if glossary.exists() and glossary.read_text(encoding="utf-8") == text:
        return False
    partial = glossary.with_suffix(".md.new")
    partial.write_text(text, encoding="utf-8")
    partial.replace(glossary)
    return True


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.glossary_build",
                                     description="Write docs/glossary.md from escoba_tutor/text/vocabulary.toml.")
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
    print(f"wrote {GLOSSARY.relative_to(ROOT)}" if changed else "the glossary is current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
