"""Build the lessons: one source per lesson, both languages side by side, two notebooks out.

Every notebook of ``lessons/es/`` and ``lessons/en/`` is generated from ``lessons/source/NAME.md``, so the two
languages cannot drift apart: same file names, same cells in the same order, same code (only the language
differs). A source is a list of cells::

    === markdown
    --- es
    # 1. Las cartas y sus valores
    --- en
    # 1. The cards and their values
    === code
    from escoba_tutor.widgets import CaptureTable
    CaptureTable(table="1o 4b 7o", hand="3c", lang="@lang@")

A markdown cell holds one block per language (``--- es``, ``--- en``); a code cell is shared and ``@lang@`` in
it becomes ``es`` or ``en``, and ``@es:medio|en:medium@`` the word of the notebook's language (a level's name,
say: an English notebook shows no Spanish word in its code). Lines starting with ``#%`` are comments of the
source and are dropped.

``python -m tools.lessons_build`` writes every notebook and executes it (outputs stored, widget state
not: ``store_widget_state=False``, as nbval strict mode wants), with widget model ids made stable so that a
rebuild changes nothing that did not change. ``--check`` only compares the notebooks' cells with the sources
and exits 1 when a notebook was edited by hand or a source was not rebuilt; ``--no-execute`` writes without
running (outputs empty). ``NAME ...`` limits the build to some sources.

>>> cells = parse_source('''=== markdown
... --- es
... Hola
... --- en
... Hello
... === code
... Drill(lang="@lang@")''', "x.md")
>>> [(c.kind, c.text("en")) for c in cells]
[('markdown', 'Hello'), ('code', 'Drill(lang="en")')]
>>> language_words('show_game("@lang@", level="@es:difícil|en:hard@")', "en")
'show_game("@lang@", level="hard")'

The same command writes docs/glossary.md and docs/glosario.md from the course's vocabulary
(tools/glossary_build.py), and ``--check`` checks them too.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from escoba_tutor.text.translator import LANGUAGES
from tools import glossary_build

__all__ = ["LANGS", "WORDS_TOKEN", "Cell", "SourceError", "parse_source", "language_words", "lessons_root", "sources",
           "build_notebook", "check", "build", "main"]

LANGS = tuple(LANGUAGES)  # the course's languages, in the translator's order
LANG_TOKEN = "@lang@"
ROOT = Path(__file__).resolve().parent.parent
_MODEL_ID = re.compile(r"^[0-9a-f]{32}$")
WORDS_TOKEN = re.compile(r"@((?:[a-z]{2}:[^@|\n]*\|)+[a-z]{2}:[^@|\n]*)@")


class SourceError(ValueError):
    """A lesson source that cannot be read: the message names the file and the line."""


def language_words(code: str, lang: str) -> str:
    """``code`` with each ``@es:...|en:...@`` replaced by the words of ``lang``."""
    def chosen(match: re.Match[str]) -> str:
        words = dict(part.split(":", 1) for part in match.group(1).split("|"))
        if set(words) != set(LANGS):
            raise SourceError(f"{match.group(0)!r} must give the words of every language ({', '.join(LANGS)})")
        return words[lang]

    return WORDS_TOKEN.sub(chosen, code)


@dataclass
class Cell:
    kind: str  # "markdown" or "code"
    texts: dict = field(default_factory=dict)  # lang -> text (markdown); "" -> text (code)
    line: int = 0
    lines: dict = field(default_factory=dict)  # the same keys -> [(line number in the source, line)], as written

    def text(self, lang: str) -> str:
        if self.kind == "code":
            return language_words(self.texts[""].replace(LANG_TOKEN, lang), lang)
        return self.texts[lang]


def _trim(lines: list[str]) -> str:
    return "\n".join(lines).strip("\n")


def parse_source(text: str, name: str = "<source>") -> list[Cell]:
    """The cells of one lesson source (see the module docstring for the format)."""
    cells: list[Cell] = []
    cell: Cell | None = None
    lang: str | None = None
    block: list[tuple[int, str]] = []

    def close_block() -> None:
        nonlocal block
        if cell is not None:
            key = lang if cell.kind == "markdown" else ""
            if key is None:
                if _trim([line for _n, line in block]):
                    raise SourceError(f"{name}:{cell.line}: markdown text before '--- es' or '--- en'")
            else:
                if key in cell.texts:
                    raise SourceError(f"{name}:{cell.line}: the language {key!r} appears twice in one cell")
                cell.texts[key] = _trim([line for _n, line in block])
                cell.lines[key] = block
        block = []

    def close_cell() -> None:
        close_block()
        if cell is None:
            return
        wanted = set(LANGS) if cell.kind == "markdown" else {""}
        if set(cell.texts) != wanted:
            missing = ", ".join(sorted(wanted - set(cell.texts))) or "?"
            raise SourceError(f"{name}:{cell.line}: the {cell.kind} cell lacks its text ({missing})")
        if not all(cell.texts.values()):
            raise SourceError(f"{name}:{cell.line}: the {cell.kind} cell has an empty text")
        cells.append(cell)

    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("#%"):
            continue
        if line.startswith("=== "):
            close_cell()
            kind = line[4:].strip()
            if kind not in ("markdown", "code"):
                raise SourceError(f"{name}:{number}: a cell is 'markdown' or 'code', not {kind!r}")
            cell, lang = Cell(kind, {}, number), None
            continue
        if line.startswith("--- ") and cell is not None and cell.kind == "markdown":
            close_block()
            lang = line[4:].strip()
            if lang not in LANGS:
                raise SourceError(f"{name}:{number}: the languages are {', '.join(LANGS)}, not {lang!r}")
            continue
        if cell is None:
            if line.strip():
                raise SourceError(f"{name}:{number}: text before the first '=== markdown' or '=== code'")
            continue
        block.append((number, line))
    close_cell()
    if not cells:
        raise SourceError(f"{name}: no cells")
    return cells


def lessons_root() -> Path:
    return ROOT / "lessons"


def sources(root: Path | None = None) -> list[Path]:
    """Every lesson source, in file order."""
    return sorted(((root or lessons_root()) / "source").glob("*.md"))


def build_notebook(cells: Sequence[Cell], lang: str, stem: str):
    """The notebook of one language, without outputs. Cell ids are stable: ``STEM-N``."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    headings = (line for cell in cells if cell.kind == "markdown" for line in cell.text(lang).splitlines()
                if line.startswith("# "))
    heading = next(headings, None)
    if heading is None:
        raise SourceError(f"{stem}: no '# ' heading in {lang}: it is the page's title")
    nb.metadata = {
        # the page's title (the browser's tab, a bookmark): Voilà's page says the file's name without it
        "title": heading.removeprefix("# ").replace("*", "").strip(),
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
        "escoba_tutor": {"lang": lang, "source": f"source/{stem}.md",
                         "note": "generated by python -m tools.lessons_build: edit the source, not this file"},
    }
    for number, cell in enumerate(cells):
        text = cell.text(lang)
        made = nbformat.v4.new_markdown_cell(text) if cell.kind == "markdown" else nbformat.v4.new_code_cell(text)
        made.id = f"{stem}-{number}"[:64]
        nb.cells.append(made)
    return nb


def _stable_ids(nb, stem: str) -> None:
    """Widget outputs carry a random model id; give each a fixed one (the stored output has no widget state,
    so no id could be resolved anyway) so that rebuilding an unchanged lesson changes no byte."""
    for number, cell in enumerate(nb.cells):
        for index, output in enumerate(cell.get("outputs", [])):
            view = output.get("data", {}).get("application/vnd.jupyter.widget-view+json")
            if isinstance(view, dict) and _MODEL_ID.match(str(view.get("model_id", ""))):
                view["model_id"] = hashlib.md5(f"{stem}:{number}:{index}".encode()).hexdigest()
        cell.get("metadata", {}).pop("execution", None)
    nb.metadata.pop("widgets", None)


def execute(nb, folder: Path, stem: str, timeout: int = 300):
    """Run every cell in a fresh kernel (no URL parameters, no server rules) and keep the outputs."""
    from nbclient import NotebookClient

    saved = {k: os.environ.pop(k) for k in ("QUERY_STRING", "ESCOBA_TUTOR_RULES") if k in os.environ}
    try:
        client = NotebookClient(nb, timeout=timeout, kernel_name="python3", store_widget_state=False,
                                record_timing=False, resources={"metadata": {"path": str(folder)}})
        client.execute()
    finally:
        os.environ.update(saved)
    _stable_ids(nb, stem)
    return nb


def _cells_of(nb) -> list[tuple[str, str, str]]:
    return [(c.cell_type, c.get("id", ""), c.source) for c in nb.cells]


def check(root: Path | None = None) -> list[str]:
    """Differences between the notebooks and their sources (empty: all up to date)."""
    import nbformat

    root = root or lessons_root()
    problems = []
    stems = set()
    for path in sources(root):
        stem = path.stem
        stems.add(stem)
        try:
            cells = parse_source(path.read_text(encoding="utf-8"), str(path))
        except SourceError as error:
            problems.append(str(error))
            continue
        for lang in LANGS:
            target = root / lang / f"{stem}.ipynb"
            if not target.exists():
                problems.append(f"{target} is missing: run python -m tools.lessons_build")
                continue
            wanted = _cells_of(build_notebook(cells, lang, stem))
            have = _cells_of(nbformat.read(target, as_version=4))
            if wanted != have:
                first = next((i for i, (a, b) in enumerate(zip(wanted, have)) if a != b), min(len(wanted), len(have)))
                problems.append(f"{target}: cell {first} differs from {path.name}: edit the source and rebuild "
                                "(python -m tools.lessons_build)")
    for lang in LANGS:
        for notebook in sorted((root / lang).glob("*.ipynb")):
            if notebook.stem not in stems:
                problems.append(f"{notebook} has no source in {root / 'source'}")
    return problems


def build(names: Sequence[str] = (), *, run: bool = True, root: Path | None = None, log=print) -> None:
    """Write (and by default execute) the notebooks of the sources named (default: all)."""
    import nbformat

    root = root or lessons_root()
    chosen = [p for p in sources(root) if not names or p.stem in names]
    unknown = set(names) - {p.stem for p in chosen}
    if unknown:
        raise SourceError(f"no source called {', '.join(sorted(unknown))} in {root / 'source'}")
    for path in chosen:
        cells = parse_source(path.read_text(encoding="utf-8"), str(path))
        for lang in LANGS:
            folder = root / lang
            folder.mkdir(exist_ok=True)
            nb = build_notebook(cells, lang, path.stem)
            if run:
                execute(nb, folder, path.stem)
            target = folder / f"{path.stem}.ipynb"
            nbformat.validate(nb)
            partial = target.with_suffix(".ipynb.new")
            nbformat.write(nb, partial)
            partial.replace(target)
            log(f"wrote {target.relative_to(root.parent) if root.parent in target.parents else target}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.lessons_build",
                                     description="Write the lessons' notebooks in both languages from lessons/source.")
    parser.add_argument("names", nargs="*", help="only these sources (file names without .md)")
    parser.add_argument("--check", action="store_true", help="only check that the notebooks match the sources")
    parser.add_argument("--no-execute", dest="run", action="store_false", help="write without running the cells")
    args = parser.parse_args(argv)
    try:
        if args.check:
            problems = check() + glossary_build.check()
            for problem in problems:
                print(problem)
            return 1 if problems else 0
        build(args.names, run=args.run)
        for path in glossary_build.write():
            print(f"wrote {path.relative_to(ROOT)}")
    except (SourceError, glossary_build.VocabularyError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
