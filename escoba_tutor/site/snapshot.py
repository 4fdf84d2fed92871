"""The static site's Python starts from a snapshot of its memory taken at build time, every library imported.

Most of a site page's wait before its first widget is Python starting in the browser: the interpreter, then
IPython, traitlets, ipywidgets and escoba-tutor imported module by module, in WebAssembly (about two thirds of
the wait). ``escoba-tutor build-site`` runs the site's own Pyodide once in Node.js, installs the same wheels,
imports what the pages import (:func:`warm_imports`) and saves Pyodide's memory with Pyodide's snapshot API
(``makeMemorySnapshot``, experimental in the pinned Pyodide: the site pins it, and the site's browser tests
check that pages start from the snapshot). Each page's Pyodide then starts from that memory.

A snapshot holds Python's memory and nothing else, so each start from it redoes three things: the files (the
wheels are installed again, for modules imported later, and the packages' record of what is installed is left
empty for that), the page's environment (``QUERY_STRING``, read by the pages) and a fresh seed for ``random``.
A page whose snapshot cannot be used (missing, or a browser without ``DecompressionStream``) starts Python the
ordinary way: slower, the same page. ``site_js/start_from_snapshot.js`` is the browser's side.

This module is imported in the site's kernel (at build time, in Node.js) and needs only the standard library.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import pkgutil
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

__all__ = ["SNAPSHOT_FILE", "make_snapshot", "add_start_script", "node_path", "warm_imports"]

#: The snapshot, gzip-compressed (36 MB of memory, 11 MB on disk), beside Pyodide's files.
SNAPSHOT_FILE = "escoba-kernel.snapshot.gz"

_HERE = Path(__file__).parent
_MAKE = _HERE / "js" / "make_snapshot.js"
_START = _HERE / "js" / "start_from_snapshot.js"
_START_MARK = "/* escoba-tutor: start from the snapshot */"

#: escoba-tutor's modules no page imports: the server, the class records, the tools run in a terminal.
_NOT_IN_PAGES = frozenset({"server", "records", "site", "cli", "__main__"})

#: What the in-browser kernel imports as it starts (jupyterlite-pyodide-kernel's ``pyodide_kernel`` and the
#: IPython it runs), short of ``pyodide_kernel`` itself: that one takes a JavaScript function from Pyodide's
#: API at import, which a snapshot cannot hold.
_KERNEL_IMPORTS = (
    "piplite.piplite",  # first: the site's piplite keeps IPython's terminal out (escoba_tutor/site/piplite.py)
    "IPython", "IPython.core.application", "IPython.core.history", "IPython.core.interactiveshell",
    "IPython.core.shellapp", "IPython.core.completer", "IPython.utils.tokenutil", "traitlets", "traitlets.config",
    "comm", "ipywidgets",
    # what creating the kernel's IPython shell imports: its magics and what they import
    "IPython.core.magics", "IPython.core.magic_arguments", "IPython.core.completerlib",
    "IPython.extensions.storemagic", "IPython.utils.module_paths", "IPython.utils.timing", "IPython.core.displayhook",
    "IPython.core.displaypub", "IPython.display", "IPython.core.inputtransformer2",
    "_strptime", "cProfile", "getpass", "http.client", "profile", "pstats", "timeit", "urllib.request",
)

Log = Callable[[str], None]


def _apply_kernel_mocks() -> None:
    """The stand-in modules ``pyodide_kernel`` puts in ``sys.modules`` before it imports IPython (``termios``,
    ``fcntl``, ``resource``...): IPython imported here must see the same ones it sees in the page."""
    spec = importlib.util.find_spec("pyodide_kernel")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("pyodide_kernel is not installed in this Pyodide")
    path = os.path.join(list(spec.submodule_search_locations)[0], "mocks.py")
    mocks_spec = importlib.util.spec_from_file_location("_pyodide_kernel_mocks", path)
    assert mocks_spec is not None and mocks_spec.loader is not None
    mocks = importlib.util.module_from_spec(mocks_spec)
    mocks_spec.loader.exec_module(mocks)
    mocks.apply_mocks()
    # pyodide_kernel's other import-time change (its patches module): the backend matplotlib would use
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")


def warm_imports() -> list[str]:
    """Import, in the site's Pyodide, what the pages import as they start; return the modules that failed (with
    why). Runs at build time only, just before the snapshot is taken."""
    _apply_kernel_mocks()
    failed = []
    for name in _KERNEL_IMPORTS:
        importlib.import_module(name)
    import ipywidgets

    # Imported while a kernel runs, ipywidgets registers its comm targets with the kernel's comm manager (the
    # ``comm`` package's, which the kernel uses too); imported here, before any kernel, it must be asked to.
    ipywidgets.register_comm_target()

    import escoba_tutor

    for module in pkgutil.walk_packages(escoba_tutor.__path__, "escoba_tutor."):
        if module.name.split(".")[1] in _NOT_IN_PAGES:
            continue
        try:
            importlib.import_module(module.name)
        except Exception as error:  # noqa: BLE001 -- reported by the build, imported at run time if ever needed
            failed.append(f"{module.name}: {type(error).__name__}: {error}")
    return failed + _open_files()


def _open_files() -> list[str]:
    """What would still hold a file open in the snapshot: a file's descriptor means nothing in the page's
    Python (closing it there fails), so collect what is garbage, and name what is left."""
    import gc
    import io
    import zipfile

    importlib.invalidate_caches()  # importlib.metadata's cache of path entries holds the zipped stdlib open
    gc.collect()
    left = []
    for thing in gc.get_objects():
        if isinstance(thing, zipfile.ZipFile) and thing.fp is not None:
            left.append(f"an open zip file: {thing.filename}")
        elif isinstance(thing, io.IOBase) and not thing.closed and getattr(thing, "fileno", None):
            try:
                number = thing.fileno()
            except (OSError, ValueError):
                continue
            if number > 2:
                left.append(f"an open file: {getattr(thing, 'name', number)}")
    return left


def node_path() -> str:
    """Node.js, which the build runs the site's Python in; refused, saying what to install, when missing."""
    from ..engine.errors import EscobaError

    node = shutil.which("node")
    if node is None:
        raise EscobaError("building the site needs Node.js (node) on the PATH, to prepare the pages' Python",
                          code="site_tools_missing", missing="node")
    return node


def make_snapshot(runtime: Path, packages: Iterable[str], log: Log) -> dict[str, Any]:
    """Write ``runtime/SNAPSHOT_FILE``: Pyodide (``runtime/pyodide.js``, before :func:`add_start_script`) started
    in Node.js with ``packages`` installed from ``runtime``'s lock and :func:`warm_imports` run. Returns what
    the Node.js script reports (memory bytes, modules, failed imports)."""
    from ..engine.errors import EscobaError

    node = node_path()
    log("  prepare the pages' Python (a snapshot of Pyodide's memory, in Node.js)")
    started = time.monotonic()
    done = subprocess.run([node, str(_MAKE), str(runtime), str(runtime / SNAPSHOT_FILE), json.dumps(list(packages))],
                          capture_output=True, text=True, timeout=600)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-15:])
        raise EscobaError(f"the snapshot of the pages' Python could not be made:\n{tail}", code="site_step_failed")
    report: dict[str, Any] = json.loads(lines[-1])
    if report["failed"]:
        raise EscobaError("modules the pages import failed to import in the site's Python:\n"
                          + "\n".join(report["failed"]), code="site_step_failed")
    log(f"    {report['memory'] / 1e6:.0f} MB of memory, {report['modules']} modules, "
        f"{(runtime / SNAPSHOT_FILE).stat().st_size / 1e6:.1f} MB compressed, in {time.monotonic() - started:.0f} s")
    return report


def add_start_script(runtime: Path) -> None:
    """Make the site's ``pyodide.js`` (the file the kernel loads) start Python from the snapshot."""
    pyodide_js = runtime / "pyodide.js"
    text = pyodide_js.read_text(encoding="utf-8")
    if _START_MARK in text:
        return
    pyodide_js.write_text(f"{text}\n{_START_MARK}\n{_START.read_text(encoding='utf-8')}", encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover -- a manual check: python -m escoba_tutor.site.snapshot RUNTIME
    print(make_snapshot(Path(sys.argv[1]), sys.argv[2:], print))
