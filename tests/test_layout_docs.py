"""The README's layout table and docs/development.md match the tree: every layer folder of the package and every
top-level folder a newcomer meets is named there, and every path they name exists."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "escoba_tutor"


def _layout_paths() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("## Layout"):]
    return re.findall(r"^\| `([^`]+)` \|", table, flags=re.M)


def _tracked_top_folders() -> set[str]:
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return {line.split("/", 1)[0] for line in files.splitlines() if "/" in line and not line.startswith(".")}


def test_the_layout_table_names_every_layer_and_top_folder():
    named = set(_layout_paths())
    layers = {f"escoba_tutor/{p.parent.name}/" for p in PACKAGE.glob("*/__init__.py")}
    layers |= {f"escoba_tutor/{p.name}" for p in PACKAGE.glob("*.py") if not p.name.startswith("__")}
    assert layers <= named, sorted(layers - named)
    top = {f"{name}/" for name in _tracked_top_folders() - {"escoba_tutor"}}
    assert top <= named, sorted(top - named)


def test_every_path_the_layout_table_names_exists():
    missing = [path for path in _layout_paths() if not (ROOT / path).exists()]
    assert _layout_paths() and not missing, missing


def test_the_development_guide_names_only_files_that_exist():
    guide = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:escoba_tutor|tests|tools|lessons|docs|benchmarks)/[\w/.-]+\.\w+)`", guide))
    named |= {f"escoba_tutor/{path}" for path in re.findall(
        r"`((?:engine|players|text|records|exercises|widgets|server|site)/[\w/.-]+\.(?:py|js|md))`", guide)}
    named |= set(re.findall(r"\b(docs/[\w-]+\.md)\b", guide))
    missing = sorted(path for path in named if "<" not in path and "NN-" not in path and not (ROOT / path).exists())
    assert len(named) > 20 and not missing, missing


def _anchor(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces turned into hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    found, fenced = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        fenced ^= line.startswith("```")
        if not fenced and line.startswith("#"):
            found.add(_anchor(line.lstrip("#")))
    return found


def test_a_heading_s_anchor_is_github_s() -> None:
    assert _anchor(" The class's records") == "the-classs-records"
    assert _anchor("Reglas de la casa o scopa para toda la clase") == "reglas-de-la-casa-o-scopa-para-toda-la-clase"
    assert _anchor("A class arriving together: `--class-size`") == "a-class-arriving-together---class-size"


def test_every_link_between_the_docs_reaches_its_file_and_heading() -> None:
    """A link in docs/*.md to another doc, or to a section (``#anchor``), leads somewhere: a guide's section
    renamed without its links sends a teacher to the top of the page."""
    broken, links = [], 0
    for doc in sorted((ROOT / "docs").glob("*.md")):
        for target in re.findall(r"\]\(([^)\s]+)\)", doc.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue
            links += 1
            name, _, anchor = target.partition("#")
            path = (doc.parent / name) if name else doc
            if not path.exists() or (anchor and path.suffix == ".md" and anchor not in _anchors(path)):
                broken.append(f"{doc.name}: {target}")
    assert links > 30 and not broken, broken
