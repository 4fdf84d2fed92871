"""One word per concept: the English screens (every English catalog) and the English text of the lessons use the
glossary's English terms, never the Spanish word the glossary translates, nor an English word it replaced; the
Spanish screens and lessons do not slip into the English card words.

The Spanish terms come from the glossary itself (docs/glossary.md, its "Español | English" tables), so a term the
glossary adds is held here at once. A Spanish word may still follow an English one in brackets, where the learner
meets it at the table (*Coins (oros)*, *the jack (sota)*), and card codes and links are not prose.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from escoba_tutor.text.translator import LOCALE_DIR
from tools.lessons_build import parse_source

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "docs" / "glossary.md"
LESSONS = sorted((ROOT / "lessons" / "source").glob("*.md"))

# Spanish terms that are also ordinary English words ("as", "pie"): the glossary's rows still hold for them, but
# they cannot be told apart from English prose.
ENGLISH_HOMOGRAPHS = {"as", "pie"}
# English words the course replaced with the glossary's term (issue of one word per concept).
REPLACED_ENGLISH = {
    r"figures?": "face card(s)",
    r"an oro": "a card of coins",
    r"computer's pair": "the computer's team",
    r"as(?=\s*=)": "ace (in a list of values: ace = 16)",
}
# In Spanish text, the English card words (the glossary's English column for the cards).
ENGLISH_CARD_WORDS = [r"coins", r"cups", r"swords", r"clubs", r"jacks?", r"knights?", r"kings?", r"aces?",
                      r"face cards?"]


def glossary_rows() -> list[tuple[str, str]]:
    rows = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if line.startswith("|") and not line.startswith(("| ---", "| Español")):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows.append((cells[0], cells[1]))
    return rows


def spanish_terms_not_used_in_english() -> set[str]:
    """The Spanish terms of the glossary that its English column translates (not those English keeps as they are,
    like escoba, setenta, mano)."""
    rows = glossary_rows()
    english = " ".join(en.lower() for _es, en in rows)
    terms = set()
    for es, _en in rows:
        plain = re.sub(r"\*\*|\*|\([^)]*\)", "", es)
        for part in re.split(r"[,;:]", plain):
            term = re.sub(r"^(el|la|los|las|un|una|tu)\s+", "", part.strip().lower())
            if term and " " not in term.strip() or term in ("siete de oros", "baraja española"):
                terms.add(re.sub(r"\s+", " ", term))
    return {t for t in terms if t and not re.search(rf"\b{re.escape(t)}\b", english)} - ENGLISH_HOMOGRAPHS


def prose(text: str) -> str:
    """Text as a learner reads it for words: without code spans, code blocks, link targets, HTML tags, a
    message's placeholders, brackets (where a Spanish word may follow its English one) and «» quotations of
    Spanish screens."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\]\([^)]*\)", "] ", text)
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"\{\w*\}", " ", text)  # a message's placeholders are names, not words
    text = re.sub(r"\([^()]*\)", " ", text)
    return re.sub(r"«[^»]*»", " ", text)


def findings(text: str, patterns: list[str]) -> list[str]:
    said = prose(text)
    return sorted({m.group(0) for p in patterns for m in re.finditer(rf"(?<![\w-]){p}(?![\w-])", said, re.I)})


def catalog_texts(lang: str) -> list[tuple[str, str]]:
    texts = []
    for path in sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as handle:
            for message in read_po(handle, locale=lang):
                if message.id and message.string:
                    forms = message.string if isinstance(message.string, tuple) else (message.string,)
                    texts += [(f"{lang}/{path.stem}.po: {message.id!r}", form) for form in forms]
    return texts


def lesson_texts(lang: str) -> list[tuple[str, str]]:
    texts = []
    for path in LESSONS:
        for cell in parse_source(path.read_text(encoding="utf-8"), path.name):
            if cell.kind == "markdown" and lang in cell.texts:
                texts.append((f"{path.name}:{cell.line}", cell.texts[lang]))
    return texts


def english_patterns() -> list[str]:
    return [re.escape(t).replace(r"\ ", r"\s+") for t in sorted(spanish_terms_not_used_in_english())] + \
        list(REPLACED_ENGLISH)


def test_the_glossary_gives_the_terms_to_check():
    terms = spanish_terms_not_used_in_english()
    assert {"rey", "sota", "caballo", "oros", "copas", "espadas", "bastos", "figuras", "siete de oros", "palo",
            "baza", "bando"} <= terms
    assert not {"escoba", "setenta", "primera", "renuncio", "mano", "as"} & terms  # kept in English, or English


def test_the_check_finds_what_it_looks_for():
    # a check that finds nothing would pass every text: show it finds the words, and spares brackets and codes
    assert findings("The computer plays the rey de oros.", english_patterns()) == ["oros", "rey"]
    assert findings("Careful with the figures: as = 16.", english_patterns()) == ["as", "figures"]
    assert findings("Coins (oros) and the jack (*sota*); type `10o`.", english_patterns()) == []
    assert findings("El rey de bastos y the jack", ENGLISH_CARD_WORDS) == ["jack"]


@pytest.mark.parametrize("source", ["catalogs", "lessons"])
def test_english_uses_the_glossarys_english_terms(source):
    texts = catalog_texts("en") if source == "catalogs" else lesson_texts("en")
    assert texts
    wrong = {where: found for where, text in texts if (found := findings(text, english_patterns()))}
    assert not wrong, "English text with a Spanish word the glossary translates, or a replaced word:\n" + \
        "\n".join(f"  {where}: {found}" for where, found in sorted(wrong.items()))


@pytest.mark.parametrize("source", ["catalogs", "lessons"])
def test_spanish_does_not_slip_into_the_english_card_words(source):
    texts = catalog_texts("es") if source == "catalogs" else lesson_texts("es")
    assert texts
    wrong = {where: found for where, text in texts if (found := findings(text, ENGLISH_CARD_WORDS))}
    assert not wrong, "Spanish text with English card words:\n" + \
        "\n".join(f"  {where}: {found}" for where, found in sorted(wrong.items()))


def test_spanish_sentences_about_you_agree():
    # «Tú tiene», «tú se lleva»: a sentence built for a name and given «Tú»
    for where, text in catalog_texts("es"):
        assert not re.search(r"\b[Tt]ú (tiene|se lleva|juega|deja|gana|hace)\b", text), (where, text)
