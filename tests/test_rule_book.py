"""The rule book: docs/rules.md (English) and docs/reglas.md (Spanish) state the same rules in the same numbered
sections, and the repository cites only them.

Every "§" citation in the code, the tests, the docs, the README and the lesson sources names docs/rules.md or
docs/reglas.md and a section that exists there; nothing names a rules document outside the repository.
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BOOKS = {"en": ROOT / "docs" / "rules.md", "es": ROOT / "docs" / "reglas.md"}
# Where rules are cited: the package, the tests (and their data), the docs, the README and the lesson sources.
CITING = [ROOT / "escoba_tutor", ROOT / "tests", ROOT / "docs", ROOT / "README.md", ROOT / "lessons" / "source"]
SKIP_DIRS = {".git", "__pycache__", ".pytest_cache", ".hypothesis", ".ruff_cache", ".ipynb_checkpoints", "build",
             "dist", ".cache", "node_modules"}
THIS = Path(__file__).resolve()  # holds bad examples on purpose, for the test of the checks
BINARY = {".png", ".jpg", ".jpeg", ".gif", ".ico", ".woff", ".woff2", ".ttf", ".mo", ".gz", ".zip", ".sqlite", ".db"}

HEADING = re.compile(r"^## (\d+)\. (.+)$", re.M)
# A book named in a citation: docs/rules.md, docs/reglas.md, or rules.md / reglas.md as a link inside docs/.
BOOK_NAME = re.compile(r"(?<![\w./-])(?:docs/)?(?:rules|reglas)\.md\b")
# A section sign and a number: 3, § 3, and ranges, 2-5, 1–6 (a sign with no number, like "§n", cites nothing).
SECTION = re.compile(r"§\s*(\d+)(?:\s*[-–]\s*§?\s*(\d+))?")
# What no file may name: the outside reference (any case but the two books' own names), a folder outside the
# repository, the source documents the outside reference reconciles. Written so that this file does not match.
OUTSIDE = [
    re.compile(r"(?<![\w-])(?!rules\.md)(?!reglas\.md)[Rr][Uu][Ll][Ee][Ss]\.[Mm][Dd]\b"),
    re.compile(r"/work/(?:share[d]|wt|main)\b"),
    re.compile(r"\.\./+share[d]\b"),
    re.compile(r"\bshare[d]/+(?:RULES|seeds|STACK)", re.I),
    re.compile(r"\bseed[s]/"),
    re.compile(r"\bseed 0\d\d\b"),
]


def repository_files() -> set[Path]:
    """The repository's files: what git tracks or would track (not ignored); whatever else lies in the work tree (a
    virtual environment, a build, a cache) is not the repository's text. Outside a git checkout, every file."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                                capture_output=True, check=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        return {path for path in ROOT.rglob("*") if path.is_file()}
    return {ROOT / name for name in listed if name}


def files(*roots: Path):
    known = repository_files()
    for root in roots:
        for path in sorted(path for path in known if path == root or root in path.parents):
            if path.is_file() and not SKIP_DIRS & set(path.relative_to(ROOT).parts) and path.suffix not in BINARY \
                    and path != THIS:
                yield path


def text_of(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None


def sections(lang: str) -> dict[int, tuple[str, str]]:
    """Section number -> (title, body) of one book, in the order written."""
    text = BOOKS[lang].read_text(encoding="utf-8")
    heads = list(HEADING.finditer(text))
    return {int(h.group(1)): (h.group(2), text[h.end():heads[i + 1].start() if i + 1 < len(heads) else len(text)])
            for i, h in enumerate(heads)}


def preamble(lang: str) -> str:
    """What a book says before section 1: the introduction, its contents line and the unnumbered terms."""
    text = BOOKS[lang].read_text(encoding="utf-8")
    return text[:HEADING.search(text).start()]


def rules_in(body: str) -> tuple[int, int, int]:
    """How many rules a section states: list items (bullets and steps, nested ones too), table rows (without the
    header), and paragraphs of prose."""
    lines = body.splitlines()
    items = sum(bool(re.match(r"^\s*(?:[-*]|\d+\.)\s", line)) for line in lines)
    rows = sum(line.startswith("|") for line in lines) - 2 * sum(line.startswith("| ---") for line in lines)
    paragraphs = sum(1 for block in re.split(r"\n\s*\n", body)
                     if block.strip() and not re.match(r"(?:[-*]\s|\||\d+\.\s)", block.strip()))
    return items, rows, paragraphs


def numbers_in(body: str) -> Counter:
    """Every number a section states (values, counts, codes), so that a number cannot differ between the books."""
    return Counter(re.findall(r"\d+", body))


def citations(text: str) -> list[tuple[int, str, list[int]]]:
    """(line number, line, sections cited) for every line that cites a section (a section sign and a number)."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        cited = []
        for m in SECTION.finditer(line):
            first, last = int(m.group(1)), int(m.group(2) or m.group(1))
            cited += list(range(first, last + 1)) if last >= first else [first, last]
        if cited:
            found.append((number, line, cited))
    return found


def citation_problems(path: Path, text: str, known: set[int]) -> list[str]:
    """A citation must cite sections that exist and (outside the books themselves) name the book on its line or
    on the line before it (a citation wrapped at the end of a line)."""
    problems = []
    lines = text.splitlines()
    in_book = path in BOOKS.values()
    for number, line, cited in citations(text):
        where = f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        if missing := [n for n in cited if n not in known]:
            problems.append(f"{where}  (no section {missing} in the rule book)")
        before = lines[number - 2] if number > 1 else ""
        if not in_book and not (BOOK_NAME.search(line) or BOOK_NAME.search(before)):
            problems.append(f"{where}  (names neither docs/rules.md nor docs/reglas.md)")
    return problems


def outside_problems(path: Path, text: str) -> list[str]:
    return [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
            for number, line in enumerate(text.splitlines(), 1) if any(p.search(line) for p in OUTSIDE)]


# ---------------------------------------------------------------------------------------------- the two books
def test_both_books_exist_and_point_to_each_other():
    en, es = (BOOKS[lang].read_text(encoding="utf-8") for lang in ("en", "es"))
    intro_en, intro_es = en.split("\n## ", 1)[0], es.split("\n## ", 1)[0]
    assert "](reglas.md)" in intro_en and "](rules.md)" in intro_es
    # each says it is the reference the lessons, their interactive exercises and the tests follow
    assert all(word in intro_en for word in ("lessons", "exercises", "tests"))
    assert all(word in intro_es for word in ("lecciones", "ejercicios", "pruebas"))


def test_both_books_have_the_same_numbered_sections():
    en, es = sections("en"), sections("es")
    assert list(en) == list(es) == list(range(1, 8))
    assert [title for title, _ in en.values()] == ["Cards", "Seats, deal and turn order", "A play",
                                                   "End of the deal", "Scoring a deal", "The game",
                                                   "Profiles and house rules"]


def test_both_books_open_with_the_same_terms_and_contents():
    # the terms sit under one unnumbered heading before section 1, outside the numbered sections
    en, es = preamble("en"), preamble("es")
    assert [len(re.findall(r"^## (?!\d+\. )", text, re.M)) for text in (en, es)] == [1, 1]
    assert rules_in(en) == rules_in(es) and numbers_in(en) == numbers_in(es)
    # the contents line names every numbered section, in order
    for text in (en, es):
        assert re.findall(r"\[§(\d+) ", text) == [str(n) for n in range(1, 8)]


@pytest.mark.parametrize("number", range(1, 8))
def test_each_section_states_as_many_rules_in_both_books(number):
    (_, en), (_, es) = sections("en")[number], sections("es")[number]
    assert rules_in(en) == rules_in(es)
    assert rules_in(en)[0] + rules_in(en)[1] > 0  # a section of rules has some list or table


@pytest.mark.parametrize("number", range(1, 8))
def test_each_section_states_the_same_numbers_in_both_books(number):
    (_, en), (_, es) = sections("en")[number], sections("es")[number]
    assert numbers_in(en) == numbers_in(es)


def test_both_books_name_the_same_house_rules():
    names = [re.findall(r"\(`(\w+)`\)", sections(lang)[7][1]) for lang in ("en", "es")]
    assert names[0] == names[1] and len(names[0]) == 15


# --------------------------------------------------------------------------------------------- the citations
def test_every_section_citation_names_the_rule_book_and_a_section_it_has():
    known = set(sections("en"))
    problems, seen = [], 0
    for path in files(*CITING):
        if (text := text_of(path)) is not None:
            seen += len(citations(text))
            problems += citation_problems(path, text, known)
    assert seen > 40  # the check has citations to look at
    assert not problems, "Citations that do not name the rule book or a section of it:\n" + "\n".join(problems)


def test_nothing_names_a_rules_document_or_a_path_outside_the_repository():
    problems = []
    for path in files(ROOT):
        if (text := text_of(path)) is not None:
            problems += outside_problems(path, text)
    assert not problems, "Names of files outside the repository (cite docs/rules.md §n):\n" + "\n".join(problems)


def test_the_checks_find_what_they_look_for(tmp_path):
    # checks that find nothing would pass every file: a planted bad line is caught, a good one is not
    known = set(range(1, 8))
    path = ROOT / "tests" / "planted.py"
    bad = ["# RULES.md §2: partners", "# the rules, §2", "# docs/rules.md §9", "# see /work/shared/RULES.md",
           "# as seed 004 says", "# ../shared/seeds/000.txt"]
    good = ["# docs/rules.md §2: partners", "# docs/reglas.md §1–6", "# (docs/rules.md\n#  §2, and §7)",
            "[docs/rules.md](rules.md) §7", "# docs/rules.md (§2-§5)"]
    assert all(citation_problems(path, line, known) or outside_problems(path, line) for line in bad)
    assert not any(citation_problems(path, line, known) or outside_problems(path, line) for line in good)
