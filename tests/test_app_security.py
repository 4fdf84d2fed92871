"""A student's browser can drive widgets but never run code on the server.

The real `escoba-tutor` server is started on a small lesson folder; the test opens the kernel websocket the
way the page does and sends an ``execute_request`` whose code would write a file. Nothing may run; widget
messages (``comm_info_request``) still get their answer.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
from escoba_test_helpers import write_lessons

CELL = "import escoba_tutor\nprint('lesson ready')"


@pytest.fixture(scope="module")
def server(tutor_server_factory, tmp_path_factory):
    folder = write_lessons(tmp_path_factory.mktemp("lessons"), CELL)
    return tutor_server_factory("--lessons", str(folder)).url, folder


def open_page(base: str, path: str):
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with opener.open(base + path, timeout=60) as response:
        page = response.read().decode()
        final = response.geturl()
    return page, jar, final


def test_the_landing_redirect_keeps_the_query(server):
    base, _folder = server
    _page, _jar, final = open_page(base, "?lang=en&seed=3")
    assert final.endswith("/voila/render/en/index.ipynb?lang=en&seed=3")
    _page, _jar, final = open_page(base, "?lang=xx")
    assert "/voila/render/es/index.ipynb" in final  # an unknown language falls back to the default


def test_the_page_shows_no_source_and_runs_the_lesson(server):
    base, _folder = server
    page, _jar, _final = open_page(base, "voila/render/es/index.ipynb")
    assert "lesson ready" in page
    assert "import escoba_tutor" not in page  # no notebook source reaches a student


def test_a_page_cannot_run_code_on_the_server(server):
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    base, folder = server
    page, jar, _final = open_page(base, "voila/render/es/index.ipynb")
    kernel = re.search(r'"kernelId": *"([0-9a-f-]+)"', page).group(1)
    cookies = "; ".join(f"{c.name}={c.value}" for c in jar)
    marker = folder / "pwned.txt"

    def message(msg_type: str, content: dict) -> str:
        return json.dumps({"header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "student",
                                      "session": uuid.uuid4().hex, "version": "5.3"},
                           "parent_header": {}, "metadata": {}, "content": content, "channel": "shell"})

    async def talk() -> list[dict]:
        url = base.replace("http", "ws") + f"api/kernels/{kernel}/channels"
        connection = await websocket_connect(HTTPRequest(url, headers={"Cookie": cookies}))
        code = f"open({str(marker)!r}, 'w').write('ran')"
        await connection.write_message(message("execute_request", {"code": code, "silent": False,
                                                                    "store_history": False, "user_expressions": {},
                                                                    "allow_stdin": False, "stop_on_error": True}))
        await connection.write_message(message("comm_info_request", {}))
        replies = []
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(connection.read_message(), timeout=1)
            except asyncio.TimeoutError:
                continue
            if raw is None:
                break
            if isinstance(raw, str):
                replies.append(json.loads(raw))
            if any(r.get("msg_type") == "comm_info_reply" for r in replies):
                await asyncio.sleep(2)  # time enough for an execute_request to have run, had it got through
                break
        connection.close()
        return replies

    with ThreadPoolExecutor(1) as pool:  # its own event loop: a browser test's loop may be running here
        replies = pool.submit(asyncio.run, talk()).result()
    types = {r.get("msg_type") for r in replies}
    assert "comm_info_reply" in types, types  # widget traffic still flows
    assert "execute_reply" not in types and "execute_input" not in types
    assert not marker.exists(), "code sent by a browser ran on the server"


def test_the_server_waits_for_slow_outputs_and_hides_tracebacks():
    """A class arriving at once makes outputs late: Voilà must wait for them rather than send a lesson without
    its boards (its default is 4 s; benchmarks/load_class.py measured pages without widgets at 20 students)."""
    from escoba_tutor.server.app import voila_config

    config = voila_config(port=8866, ip="127.0.0.1", lang="es", cull_idle=600)
    assert config.VoilaExecutor.iopub_timeout >= 30
    assert config.VoilaConfiguration.show_tracebacks is False
    assert config.Voila.port_retries == 0
    binder = (Path(__file__).resolve().parent.parent / "binder" / "postBuild").read_text()
    settings = json.loads(binder.split("<<'JSON'\n", 1)[1].split("\nJSON", 1)[0])
    assert settings["VoilaExecutor"]["iopub_timeout"] == config.VoilaExecutor.iopub_timeout

