"""escoba-tutor as people install it: the wheel and the sdist built from this checkout, the wheel installed into a
fresh virtual environment in a temporary folder away from the checkout, and a lesson served from there whose
widget renders in real headless Chromium (the kernel runs the lesson from the installed package).

Run alone with ``pytest -m packaging``. One environment serves every test of this module. The dependencies come
from the package index pip is configured with, once: their wheels are kept in a wheelhouse (``WHEELHOUSE``) from
which later runs install offline.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

import pytest
from escoba_test_helpers import ServerProcess
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
LESSON_FILES = sorted(str(p.relative_to(ROOT / "lessons")) for p in (ROOT / "lessons").glob("*/*.ipynb"))
EDITED = "Esta copia la ha editado el profesor."
WAIT_MS = 120_000  # a page's first widget (a kernel starting, the lesson's cells run) on a busy machine
# The dependencies' wheels, kept between runs so that a run installs offline (pip install --no-index): the first
# run, or one after a dependency changed, downloads them (through pip's own cache).
WHEELHOUSE = Path(os.environ.get("ESCOBA_TUTOR_WHEELHOUSE",
                                 Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "escoba-tutor"
                                 / "test-wheelhouse"))

pytestmark = pytest.mark.packaging


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's Chromium, as in tests/browser/ (Playwright never downloads a browser here)."""
    if not CHROMIUM.exists():
        pytest.skip("the packaging test renders a lesson in Debian's Chromium: apt-get install chromium")
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM),
            "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--no-first-run"]}


def run(command: list, cwd: Path, env: dict | None = None, timeout: float = 600) -> str:
    done = subprocess.run([str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, f"{' '.join(map(str, command))} failed ({done.returncode}):\n{done.stderr[-3000:]}"
    return done.stdout


def succeeds(command: list, cwd: Path, env: dict) -> bool:
    return subprocess.run([str(part) for part in command], cwd=cwd, env=env, capture_output=True,
                          timeout=900).returncode == 0


@pytest.fixture(scope="module")
def timings() -> dict:
    found: dict[str, float] = {}
    yield found
    print("\npackaging test times (s): " + ", ".join(f"{k} {v:.1f}" for k, v in found.items()))


def has_build_backend() -> bool:
    """This environment has the build backend pyproject.toml asks for (the test extra installs it): then the
    build runs here, without making two throw-away environments for it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return int(version("setuptools").split(".")[0]) >= 77
    except (PackageNotFoundError, ValueError):
        return False


@pytest.fixture(scope="module")
def dists(tmp_path_factory, timings):
    """The sdist, and the wheel built from that sdist (so the sdist is proved complete): ``{"sdist", "wheel"}``."""
    out = tmp_path_factory.mktemp("dist")
    start = time.monotonic()
    isolation = ["--no-isolation"] if has_build_backend() else []
    run([sys.executable, "-m", "build", *isolation, "--outdir", out, ROOT], cwd=out)
    timings["build"] = time.monotonic() - start
    (sdist,), (wheel,) = out.glob("*.tar.gz"), out.glob("*.whl")
    return {"sdist": sdist, "wheel": wheel}


@pytest.fixture(scope="module")
def installed(dists, tmp_path_factory, timings):
    """A fresh virtual environment, away from the checkout, with the wheel installed: ``(bin folder, env, home)``
    where ``home`` is an empty working folder and ``env`` the environment to run its commands in."""
    place = tmp_path_factory.mktemp("fresh-install")
    venv, home = place / "venv", place / "home"
    home.mkdir()
    start = time.monotonic()
    run([sys.executable, "-m", "venv", venv], cwd=place)
    bin_dir = venv / "bin"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", PYTHONUNBUFFERED="1", PYTHONNOUSERSITE="1",
               JUPYTER_PLATFORM_DIRS="1")
    pip = [bin_dir / "python", "-m", "pip", "--disable-pip-version-check", "--quiet"]
    install_offline = [*pip, "install", "--no-compile", "--no-index", "--find-links", WHEELHOUSE, dists["wheel"]]
    if not succeeds(install_offline, home, env):
        # The first run, or a dependency changed: fetch the wheels the install needs into the wheelhouse, once.
        WHEELHOUSE.mkdir(parents=True, exist_ok=True)
        fetched = succeeds([*pip, "download", "--only-binary", ":all:", "--dest", WHEELHOUSE, dists["wheel"]], home,
                           env)
        for own in WHEELHOUSE.glob("escoba_tutor-*"):
            own.unlink()
        if not (fetched and succeeds(install_offline, home, env)):
            run([*pip, "install", "--no-compile", dists["wheel"]], cwd=home, env=env)  # straight from the index
    timings["venv and install"] = time.monotonic() - start
    return bin_dir, env, home


class InstalledServer(ServerProcess):
    """The installed command, run in a folder that holds no lessons and no checkout."""

    name = "installed escoba-tutor"

    def __init__(self, log: Path, cwd: Path, env: dict, command: list):
        self._command, self._env = [str(part) for part in command], env
        super().__init__(log, cwd=cwd)
        self.url = f"http://127.0.0.1:{self.port}/"

    def command(self) -> list[str]:
        return [*self._command, "--no-browser", "--port", str(self.port)]

    def _launch(self) -> None:  # ServerProcess's, with the fresh environment's variables
        self.starts += 1
        self.log = self._first_log
        self._log_file = self.log.open("wb")
        self.process = subprocess.Popen(self.command(), cwd=self.cwd, stdout=self._log_file,
                                        stderr=subprocess.STDOUT, env=self._env)


# ------------------------------------------------------------------------------------------------ contents
def test_the_wheel_carries_the_package_and_every_lesson(dists):
    with zipfile.ZipFile(dists["wheel"]) as wheel:
        names = set(wheel.namelist())
        metadata = wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        entry_points = wheel.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    lessons = sorted(n.removeprefix("escoba_tutor/lessons/") for n in names if n.startswith("escoba_tutor/lessons/"))
    assert lessons == LESSON_FILES and {"es/index.ipynb", "en/index.ipynb", "es/play.ipynb", "en/play.ipynb"} <= set(
        lessons)
    for module in ("__init__.py", "__main__.py", "cli.py", "server/app.py", "engine/save.py", "widgets/game_table.py",
                   "exercises/kinds/captures.py", "widgets/static/widgets.css", "widgets/static/card_row.js",
                   "site/js/start_from_snapshot.js", "py.typed", "text/locale/es/LC_MESSAGES/game_table.po",
                   "text/locale/en/LC_MESSAGES/game_table.po", "text/locale/es/LC_MESSAGES/game_table.mo"):
        assert f"escoba_tutor/{module}" in names, module
    # Every module and file the package has in the checkout (a new subpackage must not be left out).
    source = Path(__file__).resolve().parent.parent / "escoba_tutor"
    shipped = {p.relative_to(source.parent).as_posix() for p in source.rglob("*")
               if p.is_file() and p.suffix in (".py", ".js", ".css", ".po", ".mo", ".j2")
               and "__pycache__" not in p.parts}
    assert shipped <= names, sorted(shipped - names)
    assert not [n for n in names if n.startswith(("tests/", "lessons/", "docs/", "tools/")) or "__pycache__" in n]
    assert "escoba-tutor = escoba_tutor.cli:main" in entry_points
    required = {re.split(r"[<>=!~; \[]", line.removeprefix("Requires-Dist: "))[0].lower().replace("_", "-")
                for line in metadata.splitlines() if line.startswith("Requires-Dist:") and "extra ==" not in line}
    # What the package imports at run time (besides the standard library), each declared.
    assert {"voila", "ipywidgets", "anywidget", "ipykernel", "traitlets", "tornado", "jupyter-server",
            "tqdm", "jinja2", "sqlalchemy", "platformdirs"} <= required
    assert "babel" not in required  # the compiled catalogs are read with gettext; Babel only keeps them


def test_the_sdist_carries_the_lesson_sources_and_builds_the_same_lessons(dists):
    with tarfile.open(dists["sdist"]) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    assert {"pyproject.toml", "README.md", "MANIFEST.in", "escoba_tutor/__main__.py", "lessons/source/index.md",
            "tools/lessons_build.py", "docs/save-format.md", "tests/data/saves/v1/index.json"} <= names
    assert {f"lessons/{name}" for name in LESSON_FILES} <= names
    assert not [n for n in names if "__pycache__" in n or n.startswith((".venv", ".git/"))]


# ------------------------------------------------------------------------------------------ the installed app
def test_the_installed_command_and_python_m_are_the_same(installed):
    bin_dir, env, home = installed
    version = run([bin_dir / "escoba-tutor", "--version"], cwd=home, env=env)
    assert version.strip() == "escoba-tutor 0.1.0"
    assert run([bin_dir / "python", "-m", "escoba_tutor", "--version"], cwd=home, env=env) == version
    assert "copy-lessons" in run([bin_dir / "python", "-m", "escoba_tutor", "--help"], cwd=home, env=env)
    where = run([bin_dir / "python", "-c",
                 "import escoba_tutor.server.app as a; print(a.__file__); print(a.lessons_dir())"],
                cwd=home, env=env).split()
    assert all(Path(path).is_relative_to(bin_dir.parent) for path in where), where   # not the checkout's


def test_a_lesson_from_the_installed_package_renders_its_widget(installed, page, tmp_path, timings):
    bin_dir, env, home = installed
    server = InstalledServer(tmp_path / "server.log", home, env, [bin_dir / "escoba-tutor"])
    try:
        start = time.monotonic()
        server.wait()
        page.set_default_timeout(WAIT_MS)
        page.goto(server.url)                             # the landing page, then a lesson with a widget
        expect(page).to_have_url(re.compile(r"/voila/render/es/index\.ipynb"), timeout=WAIT_MS)
        page.goto(server.url + "voila/render/es/02-captures.ipynb")
        # Drawn by the widgets' own scripts, from the state the kernel computed: the cards and the table of captures
        expect(page.locator(".et-card:visible").first).to_be_visible(timeout=WAIT_MS)
        expect(page.locator("[role=grid] tbody tr").first).to_be_visible(timeout=WAIT_MS)
        assert not re.search(r"Traceback|There was an error|Error executing", page.locator("body").inner_text())
        timings["serve and render"] = time.monotonic() - start
    finally:
        page.goto("about:blank")
        server.stop()
    assert "Traceback" not in server.log_text()


def test_an_edited_copy_of_the_lessons_is_served(installed, page, tmp_path):
    bin_dir, env, home = installed
    copy = home / "mis-lecciones"
    said = run([bin_dir / "escoba-tutor", "copy-lessons", copy], cwd=home, env=env)
    assert f"{len(LESSON_FILES)} lesson notebooks" in said and f"--lessons {copy}" in said
    assert sorted(str(p.relative_to(copy)) for p in copy.glob("*/*.ipynb")) == LESSON_FILES
    landing = copy / "es" / "index.ipynb"
    notebook = json.loads(landing.read_text("utf-8"))
    first = next(cell for cell in notebook["cells"] if cell["cell_type"] == "markdown")
    first["source"] = EDITED + "\n\n" + "".join(first["source"])
    landing.write_text(json.dumps(notebook), "utf-8")
    server = InstalledServer(tmp_path / "copy.log", home, env, [bin_dir / "python", "-m", "escoba_tutor",
                                                                "--lessons", copy])
    try:
        server.wait()
        page.set_default_timeout(WAIT_MS)
        page.goto(server.url)
        expect(page.locator("body")).to_contain_text(EDITED, timeout=WAIT_MS)
    finally:
        page.goto("about:blank")
        server.stop()
