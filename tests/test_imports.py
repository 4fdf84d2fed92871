"""The import rules, as pyproject.toml's import-linter contracts state them: the engine imports no widget, widget
library, server or command line; widgets import neither the server nor the command line.

The contracts are checked on the package as it is, then on a copy with one forbidden import added, which must
break them (a check that cannot fail checks nothing). A fresh interpreter that imports the whole engine must
also end up without any widget library loaded, since an import done at run time escapes a static graph.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from escoba_test_helpers import fresh_python_prints

try:
    import tomllib
except ImportError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "escoba_tutor"
CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
ENGINE = next(c for c in CONTRACTS if c["name"].startswith("The engine"))["source_modules"]
# The top-level modules that are not the engine: the server, the command line and the tools that start the
# widgets or build the static site (they may import anything), and the printable worksheet, a page built with
# the widgets' words.
OUTSIDE_ENGINE = {"__init__", "__main__", "app", "cli", "hub", "lessons_build", "site_build", "site_piplite",
                  "site_snapshot", "worksheet"}


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """import-linter on the package under ``root``, with the contracts of ``root/pyproject.toml``."""
    return subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command as run; run()",
                           "--no-cache", "--no-logo"], cwd=root, capture_output=True, text=True, timeout=120)


def test_the_contracts_are_kept() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Contracts: {len(CONTRACTS)} kept, 0 broken." in result.stdout


def test_every_engine_module_is_under_the_contract() -> None:
    modules = {path.stem for path in PACKAGE.glob("*.py")} - OUTSIDE_ENGINE
    assert modules == {name.removeprefix("escoba_tutor.") for name in ENGINE}, (
        "a new top-level module belongs to the engine contract in pyproject.toml, or to OUTSIDE_ENGINE here")


@pytest.mark.parametrize(("module", "line", "breach"), [
    ("scoring.py", "from .widgets.i18n import Translator", "escoba_tutor.scoring -> escoba_tutor.widgets.i18n"),
    ("trace.py", "import traitlets", "escoba_tutor.trace -> traitlets"),
    ("widgets/look.py", "from ..cli import main", "escoba_tutor.widgets.look -> escoba_tutor.cli"),
    ("records/store.py", "import tornado", "escoba_tutor.records.store -> tornado"),
])
def test_a_forbidden_import_breaks_a_contract(tmp_path: Path, module: str, line: str, breach: str) -> None:
    shutil.copytree(PACKAGE, tmp_path / "escoba_tutor", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    with open(tmp_path / "escoba_tutor" / module, "a", encoding="utf-8") as source:
        source.write(f"\n{line}\n")
    result = lint_imports(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert breach in result.stdout


def test_the_engine_loads_no_widget_library_at_run_time() -> None:
    engine = ", ".join(ENGINE)
    script = (f"import sys, escoba_tutor, {engine}\n"
              "loaded = sorted(m for m in ('ipywidgets', 'traitlets', 'anywidget', 'voila', 'escoba_tutor.widgets',"
              " 'escoba_tutor.app', 'escoba_tutor.cli') if m in sys.modules)\n"
              "print(loaded)\n")
    assert fresh_python_prints(script) == "[]"
