"""``escoba-tutor build-site DIR``: the whole course as a folder of static files that runs in the browser.

Every lesson, the landing pages and the play page, in Spanish and English, become Voici pages (JupyterLite's
Voilà): each opens straight into the app view and runs the same widgets in Python compiled to WebAssembly
(Pyodide), in the student's own browser. No server runs any code: any static host serves the folder
(``python -m http.server``, GitHub Pages, a school's web space), and the pages load nothing from any other
origin, so a classroom with no internet works once the files are there; and a browser that has opened one page
keeps every file a page needs, so the whole course works there offline (offline.py).

What the pages need is fetched at build time, pinned, from the package registries: Pyodide's core from npm,
the pure-Python wheels the kernel imports from PyPI, Font Awesome (the widgets' button icons) from npm, and
escoba-tutor's own wheel is built from this checkout. The build writes its own ``pyodide-lock.json`` listing
only those local wheels, so nothing is looked up on a CDN at run time.

The build tools (voici-core, jupyterlite-core, jupyterlite-pyodide-kernel) come with the ``site`` extra:
``pip install "escoba-tutor[site]"``; Node.js and npm must be on the PATH. The build also runs the site's
Python once in Node.js, to save a snapshot of its memory that every page starts from (site_snapshot.py).
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterable
from email.message import Message
from email.parser import Parser
from pathlib import Path
from typing import Any

from ..engine.errors import EscobaError
from ..text.translator import LANGUAGES
from .offline import PAGE_SCRIPT, check_jupyterlite, write_worker
from .snapshot import add_start_script, make_snapshot, node_path

__all__ = ["build_site", "SITE_EXTRA", "PYODIDE_VERSION", "KERNEL_WHEELS", "SERVER_ONLY"]

SITE_EXTRA = 'pip install "escoba-tutor[site]"'
PYODIDE_VERSION = "0.27.6"  # the Pyodide that jupyterlite-pyodide-kernel 0.6.1 is built for (Python 3.12)
PYODIDE_PYTHON = "3.12"
FONT_AWESOME = "@fortawesome/fontawesome-free@5.15.4"  # the major version Voilà's templates link

#: The pure-Python wheels the in-browser kernel imports, at the versions Pyodide 0.27.6's own lock lists (the
#: kernel, IPython 9 and the widget libraries). IPython 8 hangs at start-up in this kernel; 9 works.
KERNEL_WHEELS = (
    "comm==0.2.3", "traitlets==5.14.3", "typing_extensions==4.11.0",
    "ipython==9.12.0", "ipython_pygments_lexers==1.1.1", "decorator==5.1.1",
    "matplotlib_inline==0.1.7", "prompt_toolkit==3.0.43", "pygments==2.17.2", "wcwidth==0.2.13",
    "stack_data==0.6.3", "executing==2.0.1", "asttokens==2.4.1", "pure_eval==0.2.3", "six==1.16.0",
    "ipywidgets==8.1.9", "anywidget==0.11.0", "psygnal==0.16.1", "tqdm==4.67.1",
)

#: The kernel's own Python packages, which jupyterlite-pyodide-kernel ships beside its extension (its mock
#: ``ipykernel``, and ``pyodide_kernel``): listed in the site's lock, so they load with the rest.
_KERNEL_EXTENSION_WHEELS = ("ipykernel", "pyodide_kernel")
_KERNEL_EXTENSION_PYPI = Path("@jupyterlite", "pyodide-kernel-extension", "static", "pypi")

#: What Pyodide loads while it starts, in one batch from the site's lock (files fetched side by side): the
#: packages the kernel would otherwise install one after the other with piplite (it skips those named here),
#: and escoba-tutor with its dependencies, which every page imports in its first cell.
PRELOADED = ("micropip", "piplite", "ssl", "sqlite3", "ipykernel", "comm", "pyodide_kernel", "jedi", "ipython",
             "escoba-tutor")

#: escoba-tutor's requirements that only the server needs: the browser has its own kernel and no Voilà.
SERVER_ONLY = frozenset({"voila", "ipykernel", "jupyter-server", "tornado",
                         # the class records: the site has no class board (each student's browser is their own)
                         "sqlalchemy", "platformdirs",
                         # the printed worksheet's and the class board's templates: the browser prints no
                         # worksheet (the exercises import Jinja only to print one)
                         "jinja2"})

#: Requirements of third-party wheels that are not installed in the browser: the notebook-side extensions of
#: ipywidgets (the site carries their JavaScript instead) and the widget frontends' Python packages.
_NOT_IN_BROWSER = frozenset({"widgetsnbextension", "jupyterlab-widgets", "ipykernel"})

#: Standard-library modules the kernel installs at start-up that Pyodide's npm package leaves out (they are
#: WebAssembly builds shipped only in Pyodide's full release): an empty wheel of that name lets the start-up
#: go on, and ``import sqlite3`` then fails quietly in IPython, whose history is off in this kernel.
#: ``jedi`` too: IPython's completer uses it when it imports (1.6 MB with parso, and a slow import), and a Voici
#: page has no code to complete; without it IPython completes as it does when Jedi is not installed. And
#: ``micropip``, which only piplite (below) would import.
_STAND_INS = ("sqlite3", "ssl", "jedi", "micropip")

#: The kernel's ``piplite`` (its installer, imported first at start): escoba_tutor/site/piplite.py stands in
#: for it (see there why), and the module the kernel writes its settings into.
_PIPLITE_SUBMODULE = ('"""Where the kernel writes its piplite settings (see piplite/__init__.py)."""\n\n'
                      "from . import install  # noqa: F401\n\n_PIPLITE_URLS = []\n_PIPLITE_DISABLE_PYPI = True\n")


def _piplite_stand_in(folder: Path) -> Path:
    source = Path(__file__).with_name("piplite.py").read_text(encoding="utf-8")
    return _stand_in_wheel("piplite", folder, {"piplite/__init__.py": source, "piplite/piplite.py": _PIPLITE_SUBMODULE})

_PYODIDE_FILES = ("pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                  "package.json")
_KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
_CONFIG_DATA = re.compile(r'(<script id="jupyter-config-data" type="application/json">)(.*?)(</script>)', re.S)
_CDN_FONT_AWESOME = re.compile(r"https://cdn\.jsdelivr\.net/npm/@fortawesome/fontawesome-free@[^/\"']*/"
                               r"|https://cdn\.jsdelivr\.net/npm/font-awesome@[^\"']*?font-awesome(?:\.min)?\.css")
_OTHER_ORIGIN = re.compile(r'(?:src|href)\s*=\s*["\']((?:https?:)?//[^"\']+)', re.I)
_HTML_TAG = re.compile(r"<html\b([^>]*)>", re.I)
_LANG_ATTRIBUTE = re.compile(r"""\s+lang\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)""", re.I)
_NOTEBOOK_LINK = re.compile(r"\]\(((?:\.\./(?:es|en)/)?[A-Za-z0-9_-]+)\.ipynb((?:[?#][^)]*)?)\)")
#: What JupyterLite writes for its own apps (JupyterLab, its docs), which the Voici pages never load: 18 MB.
_UNUSED = ("build", "doc", "jupyter-lite.ipynb")
# Pages that need the course server, not on the site: the class exercise (the teacher leads it through the server)
# and the tables (students play each other through the class database). No page of the site links to them.
SERVER_PAGES = ("class", "tables")

Log = Callable[[str], None]


def _missing_tools() -> list[str]:
    needed = {"voici_core": "voici-core", "jupyterlite_core": "jupyterlite-core",
              "jupyterlite_pyodide_kernel": "jupyterlite-pyodide-kernel", "anywidget": "anywidget"}
    return [package for module, package in needed.items() if importlib.util.find_spec(module) is None]


def check_tools() -> None:
    """Refuse early, saying what to install, when a build tool is missing."""
    missing = _missing_tools()
    if missing:
        raise EscobaError(f"building the site needs {', '.join(missing)}: install them with {SITE_EXTRA}",
                          code="site_tools_missing", missing=", ".join(missing))
    if shutil.which("npm") is None:
        raise EscobaError("building the site needs npm (Node.js's package manager) on the PATH, to fetch Pyodide "
                          "and the icons from the npm registry", code="site_tools_missing", missing="npm")
    node_path()


def project_root() -> Path:
    """The checkout this package runs from: the site is built from its sources and lessons."""
    root = Path(__file__).resolve().parent.parent.parent
    if not (root / "pyproject.toml").is_file() or not (root / "lessons" / "es" / "index.ipynb").is_file():
        raise EscobaError(f"build-site works from a checkout of escoba-tutor (with pyproject.toml and lessons/), "
                          f"and {root} is not one: clone the repository and install it with {SITE_EXTRA}",
                          code="site_no_checkout")
    return root


def _run(command: list[str], cwd: Path, what: str, log: Log) -> str:
    log(f"  {what}")
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-15:])
        raise EscobaError(f"{what} failed ({' '.join(command[:4])} ...):\n{tail}", code="site_step_failed")
    return done.stdout


def _npm_package(spec: str, cache: Path, log: Log) -> Path:
    """The unpacked contents of an npm package (``npm pack``), kept in the cache."""
    folder = cache / "npm" / re.sub(r"[^A-Za-z0-9.@-]+", "_", spec)
    if not (folder / "package" / "package.json").is_file():
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        name = _run(["npm", "pack", "--silent", spec], folder, f"npm pack {spec}", log).strip().splitlines()[-1]
        with tarfile.open(folder / name) as archive:
            archive.extractall(folder, filter="data")
    return folder / "package"


def _kernel_wheels(cache: Path, log: Log) -> list[Path]:
    folder = cache / "wheels"
    stamp = folder / "requirements.txt"
    wanted = "\n".join(KERNEL_WHEELS)
    if not stamp.is_file() or stamp.read_text() != wanted:
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
              "--python-version", PYODIDE_PYTHON, "--platform", "any", "--implementation", "py",
              "--dest", str(folder), *KERNEL_WHEELS], folder, "pip download the kernel's wheels", log)
        stamp.write_text(wanted)
    return sorted(folder.glob("*.whl"))


def _kernel_extension_wheels() -> list[Path]:
    """The wheels of :data:`_KERNEL_EXTENSION_WHEELS`, from the installed jupyterlite-pyodide-kernel."""
    from jupyter_core.paths import jupyter_path

    for folder in jupyter_path("labextensions"):
        pypi = Path(folder) / _KERNEL_EXTENSION_PYPI
        found = [sorted(pypi.glob(f"{name}-*-py3-none-any.whl")) for name in _KERNEL_EXTENSION_WHEELS]
        if all(found):
            return [wheels[-1] for wheels in found]
    raise EscobaError(f"the kernel's own wheels ({', '.join(_KERNEL_EXTENSION_WHEELS)}) were not found beside "
                      f"jupyterlite-pyodide-kernel's extension: install it again with {SITE_EXTRA}",
                      code="site_tools_missing", missing="jupyterlite-pyodide-kernel")


def _check_catalogs() -> None:
    """The pages read the compiled message catalogs (``.mo``): refuse to build with one not compiled from its
    ``.po`` file as it is now."""
    from ..text.catalogs import stale_catalogs
    from ..text.translator import COMPILE_COMMAND

    stale = stale_catalogs()
    if stale:
        raise EscobaError(f"the message catalogs {', '.join(sorted({p.stem for p in stale}))} are not compiled as "
                          f"their .po files are now: compile them with {COMPILE_COMMAND}", code="site_step_failed")


def _own_wheel(root: Path, work: Path, log: Log) -> Path:
    out = work / "own-wheel"
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir",
          str(out), str(root)], work, "build escoba-tutor's wheel", log)
    return next(out.glob("escoba_tutor-*.whl"))


def _stand_in_wheel(name: str, folder: Path, contents: dict[str, str] | None = None) -> Path:
    """A valid wheel called ``name``, empty or holding ``contents`` (path -> text): see _STAND_INS."""
    info = f"{name}-1.0.0.dist-info"
    files = {
        **(contents or {}),
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0.0\n"
                            f"Summary: stand-in for {name}, which this site does not use\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: escoba-tutor\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }

    def record_line(path: str, text: str) -> str:
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        return f"{path},sha256={digest},{len(text.encode())}\n"

    files[f"{info}/RECORD"] = "".join(record_line(p, text) for p, text in files.items()) + f"{info}/RECORD,,\n"
    path = folder / f"{name}-1.0.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as wheel:
        for member, text in files.items():
            wheel.writestr(zipfile.ZipInfo(member, date_time=(2020, 1, 1, 0, 0, 0)), text)
    return path


def _wheel_metadata(path: Path) -> tuple[Message, list[str]]:
    with zipfile.ZipFile(path) as wheel:
        names = wheel.namelist()
        metadata = Parser().parsestr(wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode())
        top_level = [n for n in names if n.endswith(".dist-info/top_level.txt")]
        if top_level:
            imports = {line.strip() for line in wheel.read(top_level[0]).decode().splitlines()}
        else:
            imports = set()
            for name in names:
                first = name.split("/")[0]
                if first.endswith((".dist-info", ".data")):
                    continue
                imports.add(first if "/" in name else first.removesuffix(".py"))
    return metadata, sorted(i for i in imports if i and not i.startswith("_") and "." not in i)


def _browser_environment(python: str) -> dict[str, str]:
    from packaging.markers import default_environment

    environment = {key: str(value) for key, value in default_environment().items()}
    environment.update(sys_platform="emscripten", platform_system="Emscripten", os_name="posix",
                       platform_machine="wasm32", implementation_name="cpython",
                       platform_python_implementation="CPython", python_full_version=python,
                       python_version=".".join(python.split(".")[:2]), extra="")
    return environment


def write_lock(pyodide_lock: Path, wheels: Iterable[Path], out: Path) -> dict[str, list[str]]:
    """Write ``out/pyodide-lock.json`` listing exactly ``wheels`` (copied next to it), with each one's
    dependencies among them; return, per package, the requirements left out (server-side ones)."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    lock = json.loads(pyodide_lock.read_text(encoding="utf-8"))
    environment = _browser_environment(lock["info"]["python"])
    found = {}
    for wheel in wheels:
        metadata, imports = _wheel_metadata(wheel)
        found[canonicalize_name(metadata["Name"])] = (wheel, metadata, imports)
    packages: dict[str, dict[str, Any]] = {}
    left_out: dict[str, list[str]] = {}
    for name, (wheel, metadata, imports) in sorted(found.items()):
        depends = set()
        for text in metadata.get_all("Requires-Dist") or []:
            requirement = Requirement(text)
            if requirement.marker and not requirement.marker.evaluate(environment):
                continue
            needed = canonicalize_name(requirement.name)
            if needed in found:
                depends.add(needed)
                continue
            left_out.setdefault(name, []).append(needed)
            allowed = SERVER_ONLY if name == "escoba-tutor" else _NOT_IN_BROWSER | SERVER_ONLY
            if needed not in allowed:  # a new requirement must be added to KERNEL_WHEELS, not lost at run time
                raise EscobaError(f"{name} needs {needed} in the browser, and the site does not carry it: add it "
                                  "to KERNEL_WHEELS in escoba_tutor/site/build.py", code="site_missing_wheel")
        shutil.copy2(wheel, out / wheel.name)
        packages[name] = {
            "name": name, "version": metadata["Version"], "file_name": wheel.name, "install_dir": "site",
            "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(), "package_type": "package",
            "imports": imports, "depends": sorted(depends & set(found)), "unvendored_tests": False,
        }
    lock["packages"] = packages
    (out / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True), encoding="utf-8")
    return left_out


def _pages(lessons: Path, content: Path) -> dict[str, str]:
    """Copy the lessons into ``content/{es,en}``, their links to other notebooks pointing at the built pages.
    Returns each page's language by its path in ``content`` without ``.ipynb`` (``es/01-cards``): the one the
    lesson builder wrote into the notebook, else its folder's."""
    written = {}
    for lang in LANGUAGES:
        (content / lang).mkdir(parents=True)
        for notebook in sorted((lessons / lang).glob("*.ipynb")):
            if notebook.stem in SERVER_PAGES:
                continue
            data = json.loads(notebook.read_text(encoding="utf-8"))
            for cell in data["cells"]:
                if cell["cell_type"] == "markdown":
                    source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
                    cell["source"] = _NOTEBOOK_LINK.sub(r"](\1.html\2)", source)
                if cell["cell_type"] == "code":  # Voici runs every cell in the browser: stored outputs would
                    cell["outputs"], cell["execution_count"] = [], None  # only make the pages bigger
            (content / lang / notebook.name).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
            written[f"{lang}/{notebook.stem}"] = data.get("metadata", {}).get("escoba_tutor", {}).get("lang", lang)
    if not written:
        raise EscobaError(f"no lessons found in {lessons}", code="no_lessons")
    return written


#: The page's query string for the kernel. Under Voilà the kernel finds it in ``QUERY_STRING`` (widgets/page.py
#: reads it there); Voici starts the kernel without it. This runs before the app's bundle reads the page's
#: settings, and adds it to the environment Pyodide starts Python with (``loadPyodideOptions.env``).
_ADDRESS_TO_KERNEL = f"""
<script>
(function () {{
  var data = document.getElementById("jupyter-config-data");
  try {{
    var config = JSON.parse(data.textContent);
    var plugins = config.litePluginSettings = config.litePluginSettings || {{}};
    var kernel = plugins["{_KERNEL_PLUGIN}"] = plugins["{_KERNEL_PLUGIN}"] || {{}};
    var options = kernel.loadPyodideOptions = kernel.loadPyodideOptions || {{}};
    options.env = Object.assign({{}}, options.env, {{QUERY_STRING: location.search.slice(1)}});
    data.textContent = JSON.stringify(config);
  }} catch (error) {{
    console.error("escoba-tutor: the address's settings could not be passed on", error);
  }}
}})();
</script>"""


def _say_language(text: str, lang: str) -> str:
    """The page's ``<html>`` tag with ``lang`` (Voilà's template always writes ``en``).

    >>> _say_language('<!DOCTYPE html>\\n<html lang="en">\\n<head>', "es")
    '<!DOCTYPE html>\\n<html lang="es">\\n<head>'
    >>> _say_language('<html class="x" LANG=fr><body>', "en")
    '<html lang="en" class="x"><body>'
    """
    match = _HTML_TAG.search(text)
    if match is None:
        return text
    attributes = _LANG_ATTRIBUTE.sub("", match.group(1))
    return f'{text[:match.start()]}<html lang="{lang}"{attributes}>{text[match.end():]}'


def _fix_page(page: Path, lang: str | None = None) -> None:
    """Voici writes the kernel's settings into each page with URLs relative to the page's own address, where
    the files are not: make them relative to the site's root (the page's ``baseUrl``), so the site works under
    any path; point Voilà's Font Awesome links at the site's own copy; and, with ``lang``, say the page's
    language."""
    text = page.read_text(encoding="utf-8")
    if lang:
        text = _say_language(text, lang)
    match = _CONFIG_DATA.search(text)
    if match is None:  # not a notebook's page (a folder's listing)
        page.write_text(text, encoding="utf-8")
        return
    config = json.loads(match.group(2))
    base = config.get("baseUrl", "./")
    settings = config.setdefault("litePluginSettings", {}).setdefault(_KERNEL_PLUGIN, {})

    def from_root(url: Any) -> Any:
        return base + url[2:] if isinstance(url, str) and url.startswith("./") else url

    for key in ("pyodideUrl", "pipliteWheelUrl"):
        if key in settings:
            settings[key] = from_root(settings[key])
    settings["pipliteUrls"] = [from_root(url) for url in settings.get("pipliteUrls", [])]
    settings["disablePyPIFallback"] = True
    options = settings.setdefault("loadPyodideOptions", {})
    options["packages"] = list(dict.fromkeys([*options.get("packages", []), *PRELOADED]))
    blob = json.dumps(config, indent=1).replace("</", "<\\/")
    text = text[: match.start(2)] + blob + match.group(3) + _ADDRESS_TO_KERNEL + PAGE_SCRIPT + text[match.end(3):]
    fonts = base + "static/fontawesome/"
    text = _CDN_FONT_AWESOME.sub(lambda m: fonts if m.group(0).endswith("/") else fonts + "css/all.min.css", text)
    page.write_text(text, encoding="utf-8")


def _landing(site: Path) -> None:
    """The site's root: the Spanish landing page, or the English one with ``?lang=en``, keeping the address's
    other settings (``?lang=en&seed=7``), as the served app's ``/`` does."""
    (site / "index.html").write_text(
        "<!DOCTYPE html>\n<html lang='es'><head><meta charset='utf-8'><title>Escoba</title>\n"
        "<script>location.replace('voici/render/' + (/[?&]lang=en(&|$)/.test(location.search) ? 'en' : 'es') + "
        "'/index.html' + location.search);</script>\n"
        "<noscript><meta http-equiv='refresh' content='0; url=voici/render/es/index.html'></noscript></head>\n"
        "<body><p><a href='voici/render/es/index.html'>Escoba: el curso</a> · "
        "<a href='voici/render/en/index.html' lang='en'>Escoba: the course</a></p></body></html>\n",
        encoding="utf-8")


def _other_origins(site: Path) -> list[str]:
    return sorted({f"{page.relative_to(site)}: {url}" for page in site.rglob("*.html")
                   for url in _OTHER_ORIGIN.findall(page.read_text(encoding="utf-8", errors="replace"))})


def size_of(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def build_site(destination: str | os.PathLike[str], cache: str | os.PathLike[str] | None = None,
               lessons: str | os.PathLike[str] | None = None, log: Log = print) -> Path:
    """Build the static site into ``destination`` (a new or empty folder) and return its path.

    ``cache`` keeps the npm packages and wheels between builds. Nothing is written to ``destination`` unless
    the whole build succeeded."""
    from ..server.app import lessons_dir

    check_tools()
    _check_catalogs()
    destination = Path(destination).resolve()
    if destination.exists() and (not destination.is_dir() or any(destination.iterdir())):
        raise EscobaError(f"{destination} is not an empty folder: give a new or empty one", code="site_not_empty")
    root = project_root()
    lesson_folder = lessons_dir(lessons) if lessons else root / "lessons"
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="escoba-site-") as scratch:
        work = Path(scratch)
        cache_dir = Path(cache).resolve() if cache else work / "cache"
        log("fetching Pyodide, the icons and the wheels (npm, PyPI)")
        pyodide = _npm_package(f"pyodide@{PYODIDE_VERSION}", cache_dir, log)
        icons = _npm_package(FONT_AWESOME, cache_dir, log)
        wheels = _kernel_wheels(cache_dir, log)
        wheels.append(_own_wheel(root, work, log))
        wheels += _kernel_extension_wheels()
        stand_ins = work / "stand-ins"
        stand_ins.mkdir()
        wheels += [_stand_in_wheel(name, stand_ins) for name in _STAND_INS]
        wheels.append(_piplite_stand_in(stand_ins))

        lite = work / "lite"
        runtime = lite / "static" / "pyodide"  # where the Pyodide add-on looks, and points the kernel at
        runtime.mkdir(parents=True)
        for name in _PYODIDE_FILES:
            shutil.copy2(pyodide / name, runtime / name)
        left_out = write_lock(pyodide / "pyodide-lock.json", wheels, runtime)
        log(f"  in the browser, left out: {', '.join(sorted({n for ns in left_out.values() for n in ns}))}")
        make_snapshot(runtime, PRELOADED, log)
        add_start_script(runtime)
        pages = _pages(lesson_folder, lite / "content")
        (lite / "jupyter-lite.json").write_text(json.dumps({
            "jupyter-lite-schema-version": 0,
            "jupyter-config-data": {"litePluginSettings": {_KERNEL_PLUGIN: {"disablePyPIFallback": True}}},
        }), encoding="utf-8")
        (lite / "jupyter_lite_config.json").write_text(json.dumps({"LiteBuildConfig": {"no_sourcemaps": True}}),
                                                       encoding="utf-8")
        site = work / "site"
        log(f"building {len(pages)} pages with Voici")
        voici = [sys.executable, "-c", "from voici_core.app import main; main()"]  # it has no working -m
        _run([*voici, "build", "--contents", "content", "--output-dir", str(site)], lite, "voici build", log)

        fonts = site / "static" / "fontawesome"
        (fonts / "css").mkdir(parents=True)
        for sheet in ("all.min.css", "v4-shims.min.css"):  # Voilà's templates link both
            shutil.copy2(icons / "css" / sheet, fonts / "css")
        shutil.copytree(icons / "webfonts", fonts / "webfonts")
        for unused in _UNUSED:
            target = site / unused
            shutil.rmtree(target) if target.is_dir() else target.unlink(missing_ok=True)
        rendered = site / "voici" / "render"
        for page in site.rglob("*.html"):
            name = page.relative_to(rendered).with_suffix("").as_posix() if page.is_relative_to(rendered) else ""
            _fix_page(page, pages.get(name, "en"))  # the other pages (folders' listings) are Voilà's, in English
        _landing(site)
        (site / ".nojekyll").write_text("")  # GitHub Pages: serve folders starting with "_" as they are
        left = _other_origins(site)
        if left:
            raise EscobaError("the site would load files from another origin:\n" + "\n".join(left[:20]),
                              code="site_other_origin")
        changed = check_jupyterlite(site)
        if changed:
            raise EscobaError("the site's offline worker stands in for JupyterLite's, and JupyterLite's scripts no "
                              "longer show " + ", ".join(changed) + ": see escoba_tutor/site/offline.py",
                              code="site_step_failed")
        offline = write_worker(site)  # last: it lists and hashes the files as they are served
        log(f"  offline copy: {len(offline['files'])} files, {offline['bytes'] / 1e6:.1f} MB stored by the browser "
            f"on the first visit (build {offline['build']})")
        destination.parent.mkdir(parents=True, exist_ok=True)
        if destination.exists():
            destination.rmdir()
        shutil.move(str(site), str(destination))
    log(f"wrote {destination}: {len(pages)} pages, {size_of(destination) / 1e6:.1f} MB, "
        f"in {time.monotonic() - started:.0f} s; serve it with: python -m http.server -d {destination}")
    return destination
