"""build-site without building: its arguments, its lock file's choices, and the app's changes for the browser.
The site itself is built and opened in Chromium by tests/site/ (``pytest -m site``)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from escoba_tutor.cli import main
from escoba_tutor.engine.errors import EscobaError
from escoba_tutor.engine.game import MAX_SEED
from escoba_tutor.site import build as site_build
from escoba_tutor.widgets import Drill, Page
from escoba_tutor.widgets.seeds import MAX_WIDGET_SEED


def fake_wheel(folder, name, version="1.0", requires=(), top="pkg"):
    path = folder / f"{name.replace('-', '_')}-{version}-py3-none-any.whl"
    info = f"{name.replace('-', '_')}-{version}.dist-info"
    metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n" + "".join(
        f"Requires-Dist: {r}\n" for r in requires)
    with zipfile.ZipFile(path, "w") as wheel:
        wheel.writestr(f"{info}/METADATA", metadata)
        wheel.writestr(f"{top}/__init__.py", "")
    return path


@pytest.fixture
def pyodide_lock(tmp_path):
    path = tmp_path / "npm-lock.json"
    path.write_text(json.dumps({"info": {"python": "3.12.7", "version": "0.27.6"}, "packages": {"numpy": {}}}))
    return path


def test_the_lock_lists_only_the_given_wheels_and_leaves_the_server_out(tmp_path, pyodide_lock):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    given = [
        fake_wheel(wheels, "escoba-tutor", requires=["babel>=2.12", "voila>=0.5", "ipykernel>=6",
                                                     "pywin32; sys_platform == 'win32'"], top="escoba_tutor"),
        fake_wheel(wheels, "babel", top="babel"),
        site_build._stand_in_wheel("sqlite3", wheels),
    ]
    left_out = site_build.write_lock(pyodide_lock, given, out)
    lock = json.loads((out / "pyodide-lock.json").read_text())
    assert sorted(lock["packages"]) == ["babel", "escoba-tutor", "sqlite3"]  # Pyodide's own numpy is gone
    assert lock["packages"]["escoba-tutor"]["depends"] == ["babel"]
    assert lock["packages"]["escoba-tutor"]["imports"] == ["escoba_tutor"]
    assert sorted(left_out["escoba-tutor"]) == ["ipykernel", "voila"]  # the win32-only one never applies
    for entry in lock["packages"].values():
        assert (out / entry["file_name"]).is_file()
    with zipfile.ZipFile(out / "sqlite3-1.0.0-py3-none-any.whl") as stand_in:
        assert stand_in.testzip() is None and any(n.endswith("RECORD") for n in stand_in.namelist())


def test_a_requirement_the_site_does_not_carry_stops_the_build(tmp_path, pyodide_lock):
    wheel = fake_wheel(tmp_path, "escoba-tutor", requires=["numpy>=2"], top="escoba_tutor")
    with pytest.raises(EscobaError, match="escoba-tutor needs numpy in the browser"):
        site_build.write_lock(pyodide_lock, [wheel], tmp_path)


def test_build_site_refuses_a_folder_that_is_not_empty(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("keep me")
    assert main(["build-site", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "argument DIR" in err and "is not an empty folder" in err and "Traceback" not in err
    assert (tmp_path / "notes.txt").read_text() == "keep me"


def test_missing_build_tools_name_the_extra_to_install(tmp_path, capsys, monkeypatch):
    real = site_build.importlib.util.find_spec
    monkeypatch.setattr(site_build.importlib.util, "find_spec",
                        lambda name, *a: None if name == "voici_core" else real(name, *a))
    assert main(["build-site", str(tmp_path / "site")]) == 1
    err = capsys.readouterr().err
    assert 'pip install "escoba-tutor[site]"' in err and "voici-core" in err and "Traceback" not in err
    assert not (tmp_path / "site").exists()


def test_the_connection_watch_says_nothing_where_python_runs_in_the_browser(monkeypatch):
    assert Page("es").connection_watch().server is True
    monkeypatch.setattr("sys.platform", "emscripten")
    watch = Page("es").connection_watch()
    assert watch.server is False
    assert watch.get_state()["server"] is False  # what the browser side reads


def widget_numbers(root) -> list[int]:
    """Every whole number in the state of ``root`` and of every widget inside it, as the browser receives them."""
    todo, numbers = [root], []
    while todo:
        widget = todo.pop()
        state = widget.get_state()
        numbers += [v for v in state.values() if isinstance(v, int) and not isinstance(v, bool)]
        todo += list(getattr(widget, "children", ()))
    return numbers


def test_no_widget_state_holds_a_number_the_browser_turns_into_a_bigint():
    assert MAX_WIDGET_SEED == MAX_SEED - 1 < 2**53 - 1  # the engine keeps its largest seed; widgets stop short
    drill = Drill(kind="captures", seed=MAX_WIDGET_SEED, lang="en")
    numbers = widget_numbers(drill)
    assert all(abs(v) < 2**53 - 1 for v in numbers), numbers
    assert MAX_WIDGET_SEED in numbers  # the seed box holds the largest seed a widget takes, and may
    assert drill.seed_box.max == MAX_WIDGET_SEED
    drill.new_position()  # past the largest: back to 0, never up to the engine's MAX_SEED
    assert drill.seed == 0


def test_a_drill_given_the_engines_largest_seed_says_so_instead_of_breaking_the_page():
    drill = Drill(kind="captures", seed=MAX_SEED, lang="en")
    assert all(abs(v) < 2**53 - 1 for v in widget_numbers(drill))
    assert "Check the exercise: an exercise number is a whole number" in drill.status.message


def test_the_address_seed_stops_where_the_widgets_do():
    assert Page("en", query=f"seed={MAX_WIDGET_SEED}").seed(0) == MAX_WIDGET_SEED
    page = Page("en", query=f"seed={MAX_SEED}")
    assert page.seed(5) == 5
    assert page.problems == [("seed", "bad_seed", {"value": str(MAX_SEED), "max": MAX_WIDGET_SEED})]


# ------------------------------------------------------------------------------------ what the kernel starts with
def test_the_kernel_preloads_its_packages_and_escoba_tutor_in_one_batch(tmp_path):
    """Each page tells Pyodide to load the kernel's packages and escoba-tutor while it starts (the kernel then
    installs none of them one by one), keeping what the page's settings already asked for."""
    config = {"baseUrl": "../../", "litePluginSettings": {site_build._KERNEL_PLUGIN: {
        "pyodideUrl": "./static/pyodide/pyodide.js", "loadPyodideOptions": {"packages": ["extra"]}}}}
    page = tmp_path / "page.html"
    page.write_text('<html><script id="jupyter-config-data" type="application/json">' + json.dumps(config)
                    + "</script></html>")
    site_build._fix_page(page)
    text = page.read_text()
    settings = json.loads(site_build._CONFIG_DATA.search(text).group(2))["litePluginSettings"][
        site_build._KERNEL_PLUGIN]
    packages = settings["loadPyodideOptions"]["packages"]
    assert packages[0] == "extra" and set(site_build.PRELOADED) <= set(packages) and len(set(packages)) == len(packages)
    # the names the kernel's bundle checks before installing each package itself
    assert {"micropip", "piplite", "ssl", "sqlite3", "ipykernel", "comm", "pyodide_kernel", "jedi",
            "ipython"} <= set(packages)
    assert "escoba-tutor" in packages
    assert settings["pyodideUrl"] == "../../static/pyodide/pyodide.js" and settings["disablePyPIFallback"] is True
    assert "QUERY_STRING" in text  # the address is still passed on


def test_each_page_says_its_lessons_language(tmp_path):
    """The lessons' languages come from their notebooks (the lesson builder's metadata); a page of the site then
    says its own in ``<html lang>``, a lesson's page and a folder's listing (no kernel settings) alike."""
    lessons = Path(__file__).resolve().parents[1] / "lessons"
    languages = site_build._pages(lessons, tmp_path / "content")
    assert languages["es/02-captures"] == "es" and languages["en/02-captures"] == "en"
    on_site = [p for p in lessons.glob("*/*.ipynb") if p.stem not in site_build.SERVER_PAGES]
    assert set(languages.values()) == {"es", "en"} and len(languages) == len(on_site)
    assert "es/class" not in languages  # the class exercise needs the course server
    lesson, listing = tmp_path / "lesson.html", tmp_path / "listing.html"
    lesson.write_text('<!DOCTYPE html>\n<html lang="en">\n<head><script id="jupyter-config-data" '
                      'type="application/json">{"baseUrl": "../../"}</script></head></html>')
    listing.write_text("<!DOCTYPE html>\n<html>\n<head></head></html>")
    site_build._fix_page(lesson, languages["es/02-captures"])
    site_build._fix_page(listing, "en")
    assert '<html lang="es">' in lesson.read_text() and "QUERY_STRING" in lesson.read_text()
    assert listing.read_text() == '<!DOCTYPE html>\n<html lang="en">\n<head></head></html>'


def test_the_site_carries_no_babel_jedi_or_micropip():
    wheels = " ".join(site_build.KERNEL_WHEELS).lower()
    for left_out in ("babel", "jedi", "parso", "micropip", "packaging"):
        assert left_out not in wheels
    assert {"jedi", "micropip"} <= set(site_build._STAND_INS)


def test_the_kernel_extension_s_own_wheels_are_found():
    wheels = site_build._kernel_extension_wheels()
    assert sorted(w.name.split("-")[0] for w in wheels) == ["ipykernel", "pyodide_kernel"]
    assert all(w.is_file() and w.suffix == ".whl" for w in wheels)


def test_the_piplite_stand_in_defers_ipython_s_terminal_until_it_is_used(tmp_path):
    """The stand-in ``piplite`` is imported first in the site's kernel: IPython then starts without its terminal
    (prompt_toolkit), which is imported, whole, the first time anything asks for it."""
    import subprocess
    import sys

    wheel = site_build._piplite_stand_in(tmp_path)
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tmp_path / "site-packages")
        assert site_build._wheel_metadata(wheel)[1] == ["piplite"]
    code = """
import asyncio, sys
import piplite.piplite
piplite.piplite._PIPLITE_DISABLE_PYPI = True
import IPython
from IPython.core.interactiveshell import InteractiveShell
from IPython.core.shellapp import InteractiveShellApp
assert "prompt_toolkit" not in sys.modules, "the terminal was imported at start"
assert callable(IPython.embed)
try:
    asyncio.run(piplite.install("numpy"))
except RuntimeError as error:
    assert "nothing can be installed" in str(error)
else:
    raise AssertionError("install did nothing and said nothing")
from IPython.terminal.embed import InteractiveShellEmbed
assert "prompt_toolkit" in sys.modules and InteractiveShellEmbed.__name__ == "InteractiveShellEmbed"
import IPython.terminal.embed as real
assert real.InteractiveShellEmbed is InteractiveShellEmbed and type(real).__name__ == "module"
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(tmp_path / "site-packages"), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_the_site_is_not_built_from_catalogs_that_are_not_compiled(tmp_path, monkeypatch):
    from escoba_tutor.text import catalogs, translator

    (tmp_path / "es" / "LC_MESSAGES").mkdir(parents=True)
    po = tmp_path / "es" / "LC_MESSAGES" / "page.po"
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n')
    monkeypatch.setattr(translator, "LOCALE_DIR", tmp_path)
    with pytest.raises(EscobaError, match=r"page .*python -m escoba_tutor.text.catalogs --compile"):
        site_build._check_catalogs()
    po.with_suffix(".mo").write_bytes(catalogs.compile_catalog(po, "es"))
    site_build._check_catalogs()  # compiled: the build goes on


# ------------------------------------------------------------------------ the snapshot the pages' Python starts from
def test_the_start_script_is_added_once_after_pyodide_own(tmp_path):
    from escoba_tutor.site import snapshot as site_snapshot

    (tmp_path / "pyodide.js").write_text("self.loadPyodide = function () {};\n")
    site_snapshot.add_start_script(tmp_path)
    site_snapshot.add_start_script(tmp_path)  # a second build step over the same folder changes nothing
    text = (tmp_path / "pyodide.js").read_text()
    assert text.startswith("self.loadPyodide = function () {};\n")
    assert text.count("escoba-tutor: start from the snapshot") == 1
    assert f'"{site_snapshot.SNAPSHOT_FILE}"' in text  # the script asks for the file the build writes


def test_missing_node_is_named_before_anything_is_fetched(tmp_path, capsys, monkeypatch):
    real = site_build.shutil.which
    monkeypatch.setattr(site_build.shutil, "which", lambda name, *a, **k: None if name == "node" else real(name))
    assert main(["build-site", str(tmp_path / "site")]) == 1
    err = capsys.readouterr().err
    assert "Node.js (node)" in err and "Traceback" not in err
    assert not (tmp_path / "site").exists()


# ------------------------------------------------------------------------ the offline copy (its service worker)
def test_the_offline_worker_lists_what_pages_load_and_its_id_follows_the_files(tmp_path):
    import base64
    import hashlib

    from escoba_tutor.site import offline

    fonts = "static/fontawesome/webfonts/fa-solid-900"
    files = {"index.html": "root", "voici/render/es/01-cards.html": "page", "static/pyodide/pyodide.asm.wasm": "wasm",
             f"{fonts}.woff2": "new", f"{fonts}.ttf": "old",
             "voici/build/1030.js": "app", "voici/build/1030.js.LICENSE.txt": "license", "voici/tree/es.html": "tree",
             "voici/build/service-worker.js": "JupyterLite's", "service-worker.js": "JupyterLite's",
             "jupyterlite.schema.v0.json": "{}"}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    written = offline.write_worker(tmp_path)
    assert [path for path, _, _ in written["files"]] == [
        "index.html", "static/fontawesome/webfonts/fa-solid-900.woff2", "static/pyodide/pyodide.asm.wasm",
        "voici/build/1030.js", "voici/render/es/01-cards.html"]
    assert written["files"][2] == ["static/pyodide/pyodide.asm.wasm", 4,
                                   "sha256-" + base64.b64encode(hashlib.sha256(b"wasm").digest()).decode()]
    assert written["bytes"] == 4 + 3 + 4 + 3 + 4
    worker = (tmp_path / "service-worker.js").read_text()
    assert "CHANNEL" in worker and offline.read_worker(tmp_path) == written  # the worker's source after its list
    assert "escoba-tutor-offline-" in worker and offline.CACHE_PREFIX == "escoba-tutor-offline-"

    assert offline.write_worker(tmp_path)["build"] == written["build"]  # the same files, the same build
    (tmp_path / "voici/render/es/01-cards.html").write_text("a page of a new build")
    assert offline.write_worker(tmp_path)["build"] != written["build"]


def test_each_page_keeps_the_offline_worker_registered(tmp_path):
    from escoba_tutor.site import offline

    page = tmp_path / "page.html"
    page.write_text('<html><script id="jupyter-config-data" type="application/json">{"baseUrl": "../../"}'
                    "</script></html>")
    site_build._fix_page(page)
    text = page.read_text()
    assert offline.PAGE_SCRIPT in text and text.index("QUERY_STRING") < text.index(offline.PAGE_SCRIPT)
    assert '"-version"' in offline.PAGE_SCRIPT and "appVersion" in offline.PAGE_SCRIPT  # JupyterLite's key


def test_a_jupyterlite_whose_worker_names_changed_stops_the_build(tmp_path):
    """The site's worker stands in for JupyterLite's: the build checks the names it relies on in JupyterLite's
    scripts (a new JupyterLite that renamed one would leave the kernel's files unanswered without a word)."""
    from escoba_tutor.site import offline

    app = tmp_path / "voici" / "build"
    app.mkdir(parents=True)
    page_side = 'const w="service-worker.js",c="/sw-api.v1";fetch("/api/service-worker-heartbeat");p.includes(' \
                '"/api/stdin/");localStorage.getItem(`${e}-version`)'
    (app / "2720.js").write_text(page_side)
    (app / offline.WORKER_FILE).write_text('const c="/sw-api.v1", d="api/drive"')  # JupyterLite's worker: not read
    assert offline.check_jupyterlite(tmp_path) == ["the kernel's file system path (api/drive)"]
    kernel = tmp_path / "extensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static"
    kernel.mkdir(parents=True)
    (kernel / "352.js").write_text("get endpoint(){return`${this._baseUrl}api/drive`}")
    assert offline.check_jupyterlite(tmp_path) == []
    (app / "2720.js").write_text(page_side.replace("/sw-api.v1", "/sw-api.v2"))
    assert offline.check_jupyterlite(tmp_path) == ['the relay\'s channel ("/sw-api.v1")']
