"""The kernel pool (escoba_tutor/server/pool.py) on a real escoba-tutor server: a page gets a ready kernel with the
course already imported, and every page's kernel is its own.

The server runs with ``--class-size 2`` and the class board on, on a lesson folder whose lesson prints what its
kernel holds: its process, the page's address and query, the nickname it records for, its working folder, whether
the course was imported before the lesson ran, and what an earlier page would have left in it. Two browsers (two
cookies) open pages; a page that leaves frees its kernel for good.
"""

from __future__ import annotations

import html
import json
import os
import re
import sqlite3
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from escoba_test_helpers import write_lessons

LESSON = """
import json, os, sys
preloaded = "escoba_tutor.widgets.game_table" in sys.modules  # before this page imports anything
from escoba_tutor.records.kernel import record_lesson_opened
record_lesson_opened("es")
seen = {"pid": os.getpid(), "query": os.environ.get("QUERY_STRING"), "script": os.environ.get("SCRIPT_NAME"),
        "nickname": os.environ.get("ESCOBA_TUTOR_NICKNAME", ""), "cwd": os.getcwd(), "preloaded": preloaded,
        "before": globals().get("left_by_a_page"), "pool_mark": os.environ.get("ESCOBA_TUTOR_POOLED", ""),
        "rules": os.environ.get("ESCOBA_TUTOR_RULES"), "token": bool(os.environ.get("ESCOBA_TUTOR_RECORDS_TOKEN"))}
left_by_a_page = os.environ.get("QUERY_STRING")
print("SEEN" + json.dumps(seen) + "END")
"""
POOL = 2


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """One browser: its own cookies (the server's client cookie, the nickname the landing page's form sets)."""

    def __init__(self, base: str, nickname: str = "") -> None:
        self.base, self.cookies = base, {}
        if nickname:
            self.cookies["escoba_nickname"] = urllib.parse.quote(nickname)
        self.opener = urllib.request.build_opener(NoRedirect)

    def request(self, path: str, method: str = "GET", headers: dict | None = None) -> tuple[int, str, dict]:
        cookie = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        request = urllib.request.Request(self.base + path, method=method,
                                         headers={"Cookie": cookie, **(headers or {})})
        try:
            with self.opener.open(request, timeout=120) as response:
                status, body, got = response.status, response.read().decode(), response.headers
        except urllib.error.HTTPError as error:
            status, body, got = error.code, error.read().decode(errors="replace"), error.headers
        for header in got.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        return status, body, got

    def open(self, path: str) -> tuple[str, dict]:
        """The page (after the cookie's round trip): its kernel's id and what its lesson printed."""
        status, body, _ = self.request(path)
        if status in (301, 302, 303):  # the first visit: the cookie, then the plain address
            status, body, _ = self.request(path)
        assert status == 200, (status, body[:500])
        kernel = re.search(r'"kernelId": *"([0-9a-f-]+)"', body)
        seen = re.search(r"SEEN(\{.*?\})END", html.unescape(body))
        assert kernel and seen, body[-2000:]
        return kernel.group(1), json.loads(seen.group(1))

    def leave(self, kernel_id: str) -> int:
        """What the page does as it closes: stop its kernel (the owner may; jupyter_server wants the xsrf token)."""
        status, _, _ = self.request(f"api/kernels/{kernel_id}", "DELETE",
                                    headers={"X-XSRFToken": urllib.parse.unquote(self.cookies.get("_xsrf", ""))})
        return status


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] if Path(f"/proc/{pid}").exists() \
        else "X"
    return state not in ("Z", "X")  # a zombie has ended


def wait_for(check, timeout: float = 90, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


@pytest.fixture(scope="module")
def pooled(tutor_server_factory, tmp_path_factory):
    folder = write_lessons(tmp_path_factory.mktemp("lessons"), LESSON, ("index", "lesson"))
    database = tmp_path_factory.mktemp("class") / "class.sqlite3"
    server = tutor_server_factory("--lessons", str(folder), "--class-size", str(POOL), "--class-db", str(database))
    return server, folder, database


def pool_ready(server) -> bool:
    return server.log.read_text(errors="replace").count(f"Kernel pool: {POOL} kernels ready") >= 1


def handed(server) -> int:
    return server.log.read_text(errors="replace").count("(from the pool) for a page")


def test_two_browsers_get_ready_kernels_each_with_its_own_page(pooled):
    server, folder, database = pooled
    wait_for(lambda: pool_ready(server), what="the pool to fill")
    started = set(re.findall(r"Kernel started: ([0-9a-f-]+)", server.log.read_text()))
    assert len(started) == POOL  # the pool's kernels, before any page
    ana, luis = Browser(server.url, "Ana"), Browser(server.url, "Luis")
    before = handed(server)
    with ThreadPoolExecutor(2) as pages:  # together, as a class arrives
        (kernel_a, seen_a), (kernel_l, seen_l) = pages.map(
            lambda job: job[0].open(job[1]), [(ana, "voila/render/es/lesson.ipynb?seed=11"),
                                              (luis, "voila/render/es/lesson.ipynb?seed=22")])
    assert handed(server) - before == 2  # both from the pool, which had started them before the pages came
    assert {kernel_a, kernel_l} <= started and kernel_a != kernel_l and seen_a["pid"] != seen_l["pid"]
    for seen, query, nickname in ((seen_a, "seed=11", "Ana"), (seen_l, "seed=22", "Luis")):
        assert seen["preloaded"]  # the course was imported before the page asked
        assert seen["query"] == query and seen["nickname"] == nickname and seen["token"]
        assert seen["script"].endswith("/voila/render/es/lesson.ipynb")
        assert Path(seen["cwd"]) == folder / "es"  # the page's folder, as a kernel started for it has
        assert seen["before"] is None and seen["pool_mark"] == "" and seen["rules"] == "escoba"
    # the records go to the right student: each kernel's record is under its own page's nickname
    def opened() -> list[tuple[str, str]]:
        with sqlite3.connect(database) as db:
            return sorted(db.execute("SELECT nickname, lesson FROM records WHERE event = 'lesson'").fetchall())
    wait_for(lambda: len(opened()) >= 2, 30, "the records")
    assert opened() == [("Ana", "lesson"), ("Luis", "lesson")]
    # a kernel answers only its own browser
    assert luis.request(f"api/kernels/{kernel_a}")[0] == 403
    assert ana.leave(kernel_a) == 204 and luis.leave(kernel_l) == 204


def test_a_kernel_is_never_used_again_after_its_page_leaves(pooled):
    server, _folder, _database = pooled
    wait_for(lambda: pool_ready(server) and len(re.findall(r"Kernel started", server.log.read_text())) >= 2 * POOL,
             what="the pool to fill again")
    eva = Browser(server.url, "Eva")
    kernel, seen = eva.open("voila/render/es/lesson.ipynb?seed=5")
    assert seen["nickname"] == "Eva" and seen["before"] is None
    assert eva.leave(kernel) == 204
    wait_for(lambda: not alive(seen["pid"]), 30, "the left page's kernel to end")
    assert eva.request(f"api/kernels/{kernel}")[0] == 404
    others = [Browser(server.url, f"Alumno{n}") for n in range(POOL + 1)]  # the pool's kernels and a fresh one
    for number, browser in enumerate(others):
        next_kernel, next_seen = browser.open(f"voila/render/en/lesson.ipynb?seed={100 + number}")
        assert next_kernel != kernel and next_seen["pid"] != seen["pid"]
        assert next_seen["before"] is None  # nothing of another page's lesson in it
        assert next_seen["nickname"] == f"Alumno{number}" and next_seen["query"] == f"seed={100 + number}"
        assert Path(next_seen["cwd"]).name == "en"
        assert browser.leave(next_kernel) == 204


def this_run(server) -> str:
    """The log of the server's current process (once a class has left, the server starts afresh)."""
    return server.log.read_text(errors="replace").rsplit("Voilà is running at", 1)[-1]


def test_a_pooled_kernel_belongs_to_no_browser(pooled):
    server, _folder, _database = pooled
    stranger = Browser(server.url)
    own, _seen = stranger.open("voila/render/es/index.ipynb")  # a browser with a cookie and a page of its own

    def waiting() -> list[str]:
        text = this_run(server)
        used = {own, *re.findall(r"Kernel ([0-9a-f-]+) \(from the pool\)", text),
                *re.findall(r"Kernel shutdown: ([0-9a-f-]+)", text)}
        return [kernel for kernel in re.findall(r"Kernel started: ([0-9a-f-]+)", text) if kernel not in used]

    wait_for(lambda: len(waiting()) == POOL, what="the pool to fill again")
    time.sleep(1)
    for kernel in waiting():
        assert stranger.request(f"api/kernels/{kernel}")[0] == 404  # as no kernel at all
        assert stranger.request(f"api/kernels/{kernel}", "DELETE", headers={
            "X-XSRFToken": urllib.parse.unquote(stranger.cookies.get("_xsrf", ""))})[0] == 404
    assert stranger.request(f"api/kernels/{own}")[0] == 200  # its own page's kernel answers it
    assert waiting()  # still waiting in the pool (asking did not stop them)
