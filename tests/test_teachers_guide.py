"""The teachers' guide exists in English and in Spanish with the same content: the same sections in the same order,
the same tables and commands, and the same seeds and links to the pages. So does the class board's guide."""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"
GUIDES = {"en": DOCS / "teachers.md", "es": DOCS / "teachers.es.md"}
BOARD_GUIDES = {"en": DOCS / "class-board.md", "es": DOCS / "class-board.es.md"}


def text(lang: str, guides: dict[str, Path] = GUIDES) -> str:
    return guides[lang].read_text(encoding="utf-8")


def headings(lang: str, guides: dict[str, Path] = GUIDES) -> list[str]:
    lines, fenced_block = [], False
    for line in text(lang, guides).splitlines():
        fenced_block ^= line.startswith("```")
        if not fenced_block and line.startswith("#"):
            lines.append(line.split(" ", 1)[0])
    return lines


def fenced(lang: str, guides: dict[str, Path] = GUIDES) -> list[str]:
    """The command lines of the code blocks, comments dropped (those are in the guide's language)."""
    blocks = re.findall(r"```[a-z]*\n(.*?)```", text(lang, guides), re.S)
    lines = [re.sub(r"\s+#.*", "", line).split(" --output")[0] for block in blocks for line in block.splitlines()]
    # the host is a word to translate, and each guide opens the lesson in its own language
    return [re.sub(r"/render/(?:es|en)/", "/render/LANG/", re.sub(r"^http://[A-Z]+:", "http://HOST:", line))
            for line in lines]


def table_shapes(lang: str, guides: dict[str, Path] = GUIDES) -> list[tuple[int, int]]:
    """(rows, columns) of each table."""
    shapes, rows = [], []
    for line in [*text(lang, guides).splitlines(), ""]:
        if line.startswith("|"):
            rows.append(line)
        elif rows:
            shapes.append((len(rows), rows[0].count("|") - 1))
            rows = []
    return shapes


def test_both_guides_have_the_same_sections_in_the_same_order():
    assert headings("es") == headings("en")
    assert len(headings("en")) >= 8


def test_both_guides_have_the_same_tables():
    assert table_shapes("es") == table_shapes("en")


def test_both_guides_give_the_same_commands():
    assert fenced("es") == fenced("en")


def test_both_guides_name_the_same_pages_options_and_numbers():
    def facts(lang):
        found = text(lang)
        return (sorted(set(re.findall(r"\b\d\d-[a-z-]+\.ipynb|\bindex\.ipynb|\bplay\.ipynb", found))),
                sorted(set(re.findall(r"--[a-z-]+", found))),
                sorted(set(re.findall(r"`\?[a-z]+=", found))))
    assert facts("es") == facts("en")


def test_each_guide_points_to_the_other():
    assert "teachers.es.md" in text("en") and "teachers.md" in text("es")


def test_the_default_numbers_of_the_pages_are_those_of_the_lessons():
    """The table "`?seed=N` sets | default" gives, for each lesson, the numbers its exercises and game open with
    when no number is given: exactly the seeds the lesson's source passes (a wrong default sends a teacher to
    another exercise than the class's)."""
    lessons = DOCS.parent / "lessons" / "source"
    for lang in GUIDES:
        rows = re.findall(r"^\| `((?:\d\d-[a-z-]+|index))\.ipynb` \|[^|]*\| ([^|]*) \|$", text(lang), re.M)
        assert len(rows) >= 9, lang
        for page, default in rows:
            source = (lessons / f"{page}.md").read_text(encoding="utf-8")
            seeds = set(re.findall(r"show_(?:drill|game)\(.*\bseed=(\d+)", source))
            assert set(re.findall(r"\d+", default)) == seeds, (lang, page, default, seeds)


def test_the_class_board_guide_has_the_same_sections_tables_commands_and_links_in_both_languages():
    """docs/class-board.es.md follows docs/class-board.md: a section, a table or a command added to one only would
    leave a teacher of the other language without it."""
    assert len(headings("en", BOARD_GUIDES)) >= 20
    assert headings("es", BOARD_GUIDES) == headings("en", BOARD_GUIDES)
    assert table_shapes("es", BOARD_GUIDES) == table_shapes("en", BOARD_GUIDES)
    assert fenced("es", BOARD_GUIDES) == fenced("en", BOARD_GUIDES)

    def facts(lang):
        found = text(lang, BOARD_GUIDES)
        return (sorted(set(re.findall(r"--[a-z-]+", found))), sorted(set(re.findall(r"`[a-z_/]+(?:\.\w+)?\?", found))),
                sorted(set(re.findall(r"\bESCOBA_[A-Z_]+|\bLISTEN\b|\bNOTIFY\b", found))))
    assert facts("es") == facts("en")
    assert "class-board.es.md" in text("en", BOARD_GUIDES) and "(class-board.md)" in text("es", BOARD_GUIDES)
