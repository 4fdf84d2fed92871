"""Browser tests: real headless Chromium (Debian's /usr/bin/chromium) against a real Voilà server.

Playwright's own browser download is never used (it needs the internet); see /work/shared/STACK.md.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = Path(__file__).parent / "screenshots"


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: runs in a real headless Chromium against a Voilà server")


@pytest.fixture(scope="session", autouse=True)
def _need_chromium():
    if not CHROMIUM.exists():
        pytest.skip("browser tests need Debian's Chromium at /usr/bin/chromium: apt-get install chromium")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM),
            "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--no-first-run"]}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_notebook(path: Path, *sources: str) -> Path:
    """A notebook of code cells (plain JSON, so nbformat is not needed)."""
    import json

    cells = [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
              "source": source.strip()} for source in sources]
    path.write_text(json.dumps({
        "cells": cells, "nbformat": 4, "nbformat_minor": 5,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
    }))
    return path


class VoilaServer:
    """``voila NB`` in a subprocess; ``url`` once the TCP port accepts (a GET would start a kernel)."""

    def __init__(self, notebook: Path, log: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        voila = shutil.which("voila")
        command = [voila] if voila else [sys.executable, "-m", "voila"]
        self.log = log
        self._log_file = log.open("wb")
        self.process = subprocess.Popen(
            [*command, str(notebook), "--no-browser", f"--port={self.port}", "--Voila.ip=127.0.0.1",
             "--MappingKernelManager.cull_idle_timeout=120", "--MappingKernelManager.cull_interval=30"],
            cwd=notebook.parent, stdout=self._log_file, stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})

    def wait(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"voila exited with {self.process.returncode}:\n{self.log.read_text()[-3000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.2)
        raise TimeoutError(f"voila did not open port {self.port} in {timeout} s:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # voila stops its kernels on SIGTERM
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log_file.close()


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
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(voila_server.url)
    yield page
    page.goto("about:blank")  # sends Voilà's close beacon (refused under XSRF; culling and SIGTERM clean up)
    context.close()


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
def open_page(browser):
    """``open_page(url, width=1280, height=900)``: a new page in a context of its own (so a new kernel), closed
    with the module."""
    contexts = []

    def opener(url: str, width: int = 1280, height: int = 900):
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(url)
        return page

    yield opener
    for context in contexts:
        for page in context.pages:
            page.goto("about:blank")  # Voilà's close beacon (refused under XSRF; culling and SIGTERM clean up)
        context.close()


# ----------------------------------------------------------------------- the real escoba-tutor server, with options
# (added for tests/browser/test_app_prefix_browser.py; other modules may use it too)
class TutorServer:
    """``escoba-tutor serve --no-browser --port P ARGS`` in a subprocess; ``url`` is its base URL (with the
    ``--base-url`` prefix when one is given), usable once the TCP port accepts."""

    def __init__(self, log: Path, *args: str) -> None:
        self.port = free_port()
        prefix = args[args.index("--base-url") + 1].strip("/") if "--base-url" in args else ""
        self.url = f"http://127.0.0.1:{self.port}/" + (f"{prefix}/" if prefix else "")
        self.log = log
        self._log_file = log.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "escoba_tutor.cli", "serve", "--no-browser", "--port", str(self.port), *args],
            cwd=Path(__file__).resolve().parents[2], stdout=self._log_file, stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})

    wait = VoilaServer.wait
    stop = VoilaServer.stop


@pytest.fixture(scope="module")
def tutor_server_factory(tmp_path_factory):
    """``tutor_server_factory("--base-url", "/hub/user/ana/")``: a started server, stopped with the module."""
    servers = []

    def start(*args: str) -> TutorServer:
        server = TutorServer(tmp_path_factory.mktemp("tutor") / "server.log", *args)
        servers.append(server)
        server.wait()
        return server

    yield start
    for server in servers:
        server.stop()
