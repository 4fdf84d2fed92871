"""Browser tests: real headless Chromium (Debian's /usr/bin/chromium) against a real Voilà server.

Playwright's own browser download is never used (it needs the internet); Debian's Chromium is launched instead.
Every test here is marked ``browser`` by tests/conftest.py (the test tiers), the JupyterHub test ``hub`` too.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from escoba_test_helpers import ServerProcess, write_notebook
from helpers import Contexts, new_page

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).parent / "screenshots"


@pytest.fixture(scope="session", autouse=True)
def _need_chromium():
    if not CHROMIUM.exists():
        pytest.skip("browser tests need Debian's Chromium at /usr/bin/chromium: apt-get install chromium")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM),
            "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--no-first-run"]}


class VoilaServer(ServerProcess):
    """``voila NB`` in a subprocess; ``url`` once ``wait()`` returns."""

    name = "voila"

    def __init__(self, notebook: Path, log: Path):
        self.notebook = notebook
        super().__init__(log, cwd=notebook.parent)
        self.url = f"http://127.0.0.1:{self.port}/"

    def command(self) -> list[str]:
        voila = shutil.which("voila")
        return [*([voila] if voila else [sys.executable, "-m", "voila"]), str(self.notebook), "--no-browser",
                f"--port={self.port}", "--Voila.ip=127.0.0.1", "--MappingKernelManager.cull_idle_timeout=120",
                "--MappingKernelManager.cull_interval=30"]


@pytest.fixture(scope="module")
def voila_server(tmp_path_factory, request):
    """A Voilà server for the module's notebook: the module defines ``NOTEBOOK_CELLS``."""
    folder = tmp_path_factory.mktemp("voila")
    notebook = write_notebook(folder / "app.ipynb", *request.module.NOTEBOOK_CELLS)
    server = VoilaServer(notebook, folder / "voila.log")
    try:
        server.wait()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def app_page(browser, voila_server):
    """One page for the whole module (tests share it and run in file order)."""
    with new_page(browser, 15_000) as page:
        page.goto(voila_server.url)
        yield page


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS


# ---------------------------------------------------------------------------------- several notebooks, one server
@pytest.fixture(scope="module")
def voila_app(tmp_path_factory, request):
    """One Voilà server on a folder of notebooks: the module defines ``NOTEBOOKS = {"name": [cell, ...]}``.

    ``app_url("name")`` is the address of one notebook; every page opened on it gets a kernel of its own.
    """
    folder = tmp_path_factory.mktemp("voila-app")
    for name, cells in request.module.NOTEBOOKS.items():
        write_notebook(folder / f"{name}.ipynb", *cells)
    server = VoilaServer(folder, folder.parent / f"{folder.name}.log")
    try:
        server.wait()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def app_url(voila_app):
    """``app_url("name")``: the address of notebook ``name`` on the module's ``voila_app`` server."""
    return lambda name: f"{voila_app.url}voila/render/{name}.ipynb"


@pytest.fixture(scope="module")
def contexts(browser):
    """``contexts(width=1280, height=900, timeout=30_000)``: new browser contexts, closed with the module
    (helpers.Contexts)."""
    opened = Contexts(browser)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def open_page(contexts, request):
    """``open_page(url, width=1280, height=900)``: a new page in a context of its own (so a new kernel), opened on
    ``url``; ``PAGE_TIMEOUT`` of the module (ms, 15 s unless it says) per step."""
    timeout = getattr(request.module, "PAGE_TIMEOUT", 15_000)

    def opener(url: str, width: int = 1280, height: int = 900):
        page = contexts(width, height, timeout).new_page()
        page.goto(url)
        return page

    return opener


# ------------------------------------- the real escoba-tutor server and a page on it (its class: tests/conftest.py)
@pytest.fixture(scope="module")
def tutor(tutor_server_factory):
    """``escoba-tutor serve`` with its default options, for the module (a module may define its own ``tutor``)."""
    return tutor_server_factory()


@pytest.fixture(scope="module")
def board_tutor(class_tutor_factory):
    """A server of the module's own with the class board on, over a new database: ``teacher_link`` (the board's
    address with its key) and ``database`` (the SQLite file) beside the server's usual parts."""
    return class_tutor_factory()


@pytest.fixture
def page(browser):
    """A page in a fresh context for one test, with a 45 s default timeout."""
    with new_page(browser, 45_000) as page:
        yield page


# ------------------------------------------------ the real JupyterHub, one for the run (tests/browser/hub_setup.py)
@pytest.fixture(scope="session")
def hub_postgres():
    """The hub's PostgreSQL server (tests/records_postgres.py), for the run."""
    from records_postgres import start_postgres

    yield from start_postgres()


@pytest.fixture(scope="session")
def hub(tmp_path_factory, hub_postgres):
    """The hub that test_jupyterhub_browser.py and test_jupyterhub_start_ahead_browser.py share, with its class
    database on ``hub_postgres``; stopped, and its log checked for tracebacks, when the run ends. Each module logs
    in users of its own. The first runs first (file order), so its class board holds only its own students; the
    second's start later (and record into the same class)."""
    from hub_setup import DB_PASSWORD, Hub, proxy_command

    proxy = proxy_command()
    hub_postgres.create_database("escoba_classes")
    hub = Hub(tmp_path_factory.mktemp("hub"), proxy, hub_postgres.url("escoba_classes", password=DB_PASSWORD))
    try:
        hub.wait()
        yield hub
    finally:
        hub.stop()
    log = hub.log.read_text(errors="replace")
    assert "Traceback" not in log, log[log.index("Traceback") - 2000:][:4000]


@pytest.fixture(scope="session")
def school_browser(browser_type, browser_type_launch_args, hub):
    """Chromium that finds the hub by the school's name, as a classroom's computers would, and takes it for a
    secure address (https): over plain http it sends no ``Sec-Fetch-*`` headers, and the hub then skips its XSRF
    check of a page's requests, which a real school's hub makes."""
    from hub_setup import SCHOOL_HOST

    args = [*browser_type_launch_args.get("args", []), f"--host-resolver-rules=MAP {SCHOOL_HOST} 127.0.0.1",
            f"--unsafely-treat-insecure-origin-as-secure={hub.url.rstrip('/')}"]
    browser = browser_type.launch(**{**browser_type_launch_args, "args": args})
    yield browser
    browser.close()
