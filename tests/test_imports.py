"""The import rules, as pyproject.toml's import-linter contracts state them: the package's folders are layers
(cli, site, server, widgets, exercises, records, then text and players side by side, then the engine), and a layer
imports only the layers below it; below the widgets nothing imports a widget library or a web server.

The contracts are checked on the package as it is, then on a copy with one forbidden import added, which must
break them (a check that cannot fail checks nothing). A fresh interpreter that imports every module below the
widgets must also end up without any widget library loaded, since an import done at run time escapes a static
graph.
"""

from __future__ import annotations

import pkgutil
import re
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
LAYERS = [name.strip() for layer in next(c for c in CONTRACTS if c["type"] == "layers")["layers"]
          for name in layer.split("|")]
BELOW_WIDGETS = LAYERS[LAYERS.index("widgets") + 1:]


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """import-linter on the package under ``root``, with the contracts of ``root/pyproject.toml``."""
    return subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command as run; run()",
                           "--no-cache", "--no-logo"], cwd=root, capture_output=True, text=True, timeout=120)


def test_the_contracts_are_kept() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"Contracts: {len(CONTRACTS)} kept, 0 broken." in result.stdout


def test_every_module_and_folder_is_in_a_layer() -> None:
    found = {path.stem for path in PACKAGE.glob("*.py")} | {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert found - {"__init__", "__main__"} == set(LAYERS), (
        "a new top-level module or folder of escoba_tutor belongs in a layer of pyproject.toml's layers contract")


@pytest.mark.parametrize(("module", "line", "breach"), [
    ("engine/scoring.py", "from ..text.translator import Translator",
     "escoba_tutor.engine.scoring -> escoba_tutor.text.translator"),
    ("engine/trace.py", "import traitlets", "escoba_tutor.engine.trace -> traitlets"),
    ("text/phrases.py", "from ..players import bots", "escoba_tutor.text.phrases -> escoba_tutor.players.bots"),
    ("exercises/worksheet.py", "from ..widgets import look",
     "escoba_tutor.exercises.worksheet -> escoba_tutor.widgets"),
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
    assert re.search(re.escape(breach) + r"[ .]", result.stdout), result.stdout


def test_nothing_below_the_widgets_loads_a_widget_library_at_run_time() -> None:
    modules = sorted(module.name for layer in BELOW_WIDGETS
                     for module in pkgutil.walk_packages([str(PACKAGE / layer)], f"escoba_tutor.{layer}."))
    assert "escoba_tutor.engine.game" in modules and "escoba_tutor.exercises.worksheet" in modules
    script = ("import importlib, sys, escoba_tutor\n"
              f"for name in {modules!r}:\n    importlib.import_module(name)\n"
              "loaded = sorted(m for m in ('ipywidgets', 'traitlets', 'anywidget', 'voila', 'tornado', "
              "'escoba_tutor.widgets', 'escoba_tutor.server', 'escoba_tutor.cli') if m in sys.modules)\n"
              "print(loaded)\n")
    assert fresh_python_prints(script) == "[]"
