"""The static site (``escoba-tutor build-site``), built ONCE per test run and served from a temporary folder by a
plain static file server on 127.0.0.1, opened in Debian's Chromium with every other origin blocked.

The build needs npm and the npm and PyPI registries, and takes a minute or two (``pytest -m site`` runs these
tests alone). ``ESCOBA_TUTOR_SITE=DIR`` tests an already built site instead (``.ci/run`` builds it once before the
tests), and ``ESCOBA_TUTOR_SITE_CACHE=DIR`` keeps the build's downloads between runs. Every test here is marked
``site`` by tests/conftest.py (the test tiers).
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlparse

import pytest

CHROMIUM = Path("/usr/bin/chromium")


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request, client_address) -> None:
        # a page that leaves while a file is sent (a reload, a closed test's downloads) is no error of the site
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class StaticServer:
    """The folder served as any static host would: files only, on a free port of 127.0.0.1. For the offline tests,
    its folder can be replaced (a new build uploaded), and it can hang (a school's link down behind its router:
    requests are taken and never answered) or stop (the network gone)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.hanging = False
        self.released = threading.Event()
        server = self

        class Files(SimpleHTTPRequestHandler):
            def handle(self) -> None:
                if server.hanging:
                    server.released.wait()
                    return
                super().handle()

            def log_message(self, *args) -> None:  # the test output stays readable
                pass

        self.httpd = _QuietServer(("127.0.0.1", 0), lambda *args: Files(*args, directory=str(self.folder)))
        self.origin = f"http://127.0.0.1:{self.httpd.server_port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"{self.origin}/{path}"

    def stop(self) -> None:
        self.released.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory) -> Path:
    given = os.environ.get("ESCOBA_TUTOR_SITE")
    if given:
        return Path(given)
    if shutil.which("npm") is None:
        pytest.skip("the static site's build needs npm (apt-get install npm)")
    from escoba_tutor.site.build import build_site

    started = time.monotonic()
    site = build_site(tmp_path_factory.mktemp("site") / "site", cache=os.environ.get("ESCOBA_TUTOR_SITE_CACHE"),
                      log=lambda line: None)
    print(f"\nthe static site was built in {time.monotonic() - started:.0f} s")
    return site


@pytest.fixture(scope="session")
def site_server(site_dir):
    server = StaticServer(site_dir)
    yield server
    server.stop()


@pytest.fixture
def site_host(site_dir):
    """A server of the test's own: its own origin, so the site's service worker and stored copy are the test's."""
    server = StaticServer(site_dir)
    yield server
    server.stop()  # again, if the test failed before it stopped it


@pytest.fixture(scope="session")
def site_browser(playwright):
    if not CHROMIUM.exists():
        pytest.skip("browser tests need Debian's Chromium at /usr/bin/chromium: apt-get install chromium")
    # No host but 127.0.0.1 resolves: a request to another origin fails even if a page tried one.
    browser = playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True,
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
              "--disable-sync", "--no-first-run", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"])
    yield browser
    browser.close()


class SiteVisit:
    """A browser context on the site: every request is recorded, and any to another origin is blocked."""

    def __init__(self, browser, server: StaticServer) -> None:
        self.server = server
        self.requests: list[str] = []
        self.blocked: list[str] = []
        self.page_errors: list[str] = []
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.context.route("**/*", self._route)
        self.context.on("request", lambda request: self.requests.append(request.url))

    def _route(self, route) -> None:
        url = urlparse(route.request.url)
        if url.scheme in ("data", "blob") or f"{url.scheme}://{url.netloc}" == self.server.origin:
            route.continue_()
        else:
            self.blocked.append(route.request.url)
            route.abort()

    def open(self, path: str, timeout: float = 240_000):
        page = self.context.new_page()
        page.set_default_timeout(timeout)
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        page.goto(self.server.url(path))
        return page

    def other_origins(self) -> list[str]:
        return [url for url in self.requests + self.blocked
                if not url.startswith((self.server.origin + "/", "data:", "blob:"))]

    def close(self) -> None:
        self.context.close()


@pytest.fixture(scope="session")
def new_visit(site_browser, site_server):
    """Opens a new :class:`SiteVisit` (the caller closes it)."""
    return lambda: SiteVisit(site_browser, site_server)


@pytest.fixture
def visit(new_visit):
    visit = new_visit()
    yield visit
    visit.close()
