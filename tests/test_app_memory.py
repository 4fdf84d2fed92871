"""Memory after a class: the server hands back what culled kernels' connections used, and once every kernel has
gone it starts afresh in the same process, which brings it back to an idle server's memory
(benchmarks/load_class.py: 15-20 MiB more than before a class of 30, however much malloc_trim handed back)."""

from __future__ import annotations

import json
import platform
import re
import time
import urllib.request
from http.cookiejar import CookieJar

import pytest

from escoba_tutor.server import app


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc_trim is glibc's")
def test_freed_memory_is_handed_back_with_glibc():
    assert app.release_freed_memory() is True


class _Kernels:
    def __init__(self) -> None:
        self.ids: list[str] = []

    def list_kernel_ids(self) -> list[str]:
        return list(self.ids)


def _server(monkeypatch, *, start_afresh: bool, quiet_s: float = 0):
    released, fresh = [], []
    monkeypatch.setattr(app, "release_freed_memory", lambda: released.append(True) or True)
    server = app.build_app_class()(start_afresh=start_afresh, quiet_s=quiet_s)
    monkeypatch.setattr(server, "start_afresh_now", lambda: fresh.append(True))
    server.kernel_manager = _Kernels()
    server._kernels_before, server._served, server._afresh, server._last_request = 0, False, False, time.monotonic()
    return server, released, fresh


def test_memory_is_released_only_after_kernels_have_gone(monkeypatch):
    server, released, fresh = _server(monkeypatch, start_afresh=False)
    server.kernel_manager.ids = ["a", "b", "c"]
    server.after_culling()  # students arrive: nothing to hand back
    assert released == []
    server.kernel_manager.ids = ["a"]
    server.after_culling()  # two were culled
    assert released == [True]
    server.after_culling()  # no change since
    server.kernel_manager.ids = ["a", "d"]
    server.after_culling()
    assert released == [True]
    server.kernel_manager.ids = []
    server.after_culling()
    assert released == [True, True]
    assert fresh == []  # a server started from Python (not the escoba-tutor command) never starts afresh


def test_the_server_starts_afresh_once_the_class_has_gone_quiet(monkeypatch):
    server, released, fresh = _server(monkeypatch, start_afresh=True, quiet_s=3600)
    server.after_culling()  # a server no student has used yet: nothing to start afresh from
    assert fresh == []
    server.kernel_manager.ids = ["a", "b"]
    server.after_culling()
    server.kernel_manager.ids = ["a"]
    server.after_culling()  # one left: its memory is handed back, the class goes on
    assert (released, fresh) == ([True], [])
    server.kernel_manager.ids = []
    server.after_culling()  # every kernel has gone, but a request came a moment ago (a student arriving?)
    assert fresh == []
    server.quiet_s = 0
    server.after_culling()
    assert fresh == [True]


@pytest.mark.skipif(platform.system() == "Windows", reason="starting afresh is for POSIX systems")
def test_a_real_server_starts_afresh_in_the_same_process_and_serves_on(tutor_server_factory, tmp_path, monkeypatch):
    config = tmp_path / "config"
    config.mkdir()
    (config / "voila.json").write_text(json.dumps({"TutorVoila": {"memory_check_s": 0.5, "quiet_s": 1}}))
    monkeypatch.setenv("JUPYTER_CONFIG_DIR", str(config))
    server = tutor_server_factory()
    pid = server.process.pid
    jar = CookieJar()  # a browser's cookies: the server's own (a kernel answers only the browser that started it)
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with browser.open(server.url + "voila/render/es/02-captures.ipynb", timeout=60) as response:
        kernel = re.search(r'"kernelId": *"([0-9a-f-]+)"', response.read().decode()).group(1)
    xsrf = next(cookie.value for cookie in jar if cookie.name == "_xsrf")
    request = urllib.request.Request(server.url + f"api/kernels/{kernel}", method="DELETE",
                                     headers={"X-XSRFToken": xsrf})
    with browser.open(request, timeout=30) as response:
        assert response.status == 204  # what culling does to the last student's kernel
    deadline = time.monotonic() + 30
    while "starting afresh" not in server.log.read_text() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert "Every kernel has gone: starting afresh on the same port." in server.log.read_text()
    assert server.process.poll() is None  # the same process, not a new one
    with browser.open(server.url + "voila/render/es/02-captures.ipynb", timeout=60) as response:
        assert response.status == 200 and "kernelId" in response.read().decode()
    log = server.log.read_text()
    assert log.count("Voilà is running at") == 2 and server.process.pid == pid
    assert log.count("class/board?key=") == 1  # the teacher's link, printed where the server was started only
    assert "Traceback" not in log
