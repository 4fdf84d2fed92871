"""What a client can do with plain connections to the class server (docs/hostile-input.md, "Resource limits"):
large or endless request bodies, connections that stay idle or send their headers a byte at a time, messages the
kernel's comm manager cannot handle, pages that would load something from another origin, and many connections held
from one address or from many (loopback addresses 127.0.0.x: Linux routes all of 127.0.0.0/8 to this machine). Each
is probed on loopback against one real ``escoba-tutor`` server, the way a curious student's script would.

The server runs with a low limit of open files, soft and hard (300: so 300 idle connections are enough to take
every one), short connection timeouts (3 s) from a ``voila.json``, and the limits' defaults otherwise.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import re
import socket
import sys
import time
import urllib.parse
import uuid
from pathlib import Path

import pytest
from escoba_test_helpers import TutorServer, voila_settings, write_lessons
from test_app_limits import Browser, connect, leave_all, message, read_for, run, wait_until, widget, widget_states

MIB = 1024 * 1024
OPEN_FILES = 300
TIMEOUT_S = 3
PAGE = """
import ipywidgets as w
w.VBox([w.Text(description="nickname"), w.Button(description="go")])
"""


class LimitedServer(TutorServer):
    """``escoba-tutor serve`` in a process whose limit of open files, soft and hard, is ``OPEN_FILES``: the server
    cannot raise it (as on a machine whose hard limit is low)."""

    def command(self) -> list[str]:
        limited = ("import resource, runpy, sys; n = int(sys.argv.pop(1)); "
                   "resource.setrlimit(resource.RLIMIT_NOFILE, (n, n)); "
                   "runpy.run_module('escoba_tutor.cli', run_name='__main__', alter_sys=True)")
        command = super().command()
        assert command[1:3] == ["-m", "escoba_tutor.cli"]
        return [sys.executable, "-c", limited, str(OPEN_FILES), *command[3:]]


def one_page_server(kind, tmp_path_factory, **limits):
    """A server (of class ``kind``) whose lessons are one small page in each language, with the class limits
    ``limits`` set in its voila.json; not started yet."""
    folder = write_lessons(tmp_path_factory.mktemp("lessons"), PAGE)
    return kind(tmp_path_factory.mktemp("tutor") / "server.log", "--lessons", str(folder),
                env=voila_settings(tmp_path_factory.mktemp("config"), **limits))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tutor = one_page_server(LimitedServer, tmp_path_factory, kernels_per_client=2, idle_connection_s=TIMEOUT_S,
                            body_timeout_s=TIMEOUT_S)
    try:
        tutor.wait()
        yield tutor
    finally:
        tutor.stop()


def address(server) -> tuple[str, int]:
    return "127.0.0.1", server.port


def rss_mib(server) -> float:
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) / 1024


def still_answers(server) -> float:
    """Seconds the server takes to answer a plain request (the landing page's redirect)."""
    started = time.monotonic()
    connection = http.client.HTTPConnection(*address(server), timeout=20)
    connection.request("GET", "/?lang=en")
    assert connection.getresponse().status == 302
    connection.close()
    return time.monotonic() - started


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes this connection within ``within`` seconds (whatever it answers first)."""
    sock.settimeout(0.5)
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if sock.recv(65536) == b"":
                return True
        except (ConnectionResetError, BrokenPipeError):
            return True
        except TimeoutError:
            continue
    return False


async def kernel_info(connection) -> list:
    """Ask the kernel for its info over a page's websocket: the frames read until its reply (None: closed)."""
    await connection.write_message(message("kernel_info_request", {}))
    return await read_for(connection, 20, until=lambda frame: frame is None or frame["header"][
        "msg_type"] == "kernel_info_reply")


def kernel_replied(frames: list) -> bool:
    return bool(frames) and frames[-1] is not None and frames[-1]["header"]["msg_type"] == "kernel_info_reply"


# ------------------------------------------------------------------------------------------ A: request bodies
BODY = 900 * 1024  # under the former cap of 1 MiB, far over what the server's forms send


def held_bodies(server, count: int, head: str, body: bytes) -> float:
    """``count`` connections each send ``head`` and then ``body``, all but its last byte, and hold on: the
    server's growth in MiB while they are all open (the server either holds what it read, or refused them)."""
    before = rss_mib(server)
    sockets = []
    try:
        for _ in range(count):
            sock = socket.create_connection(address(server), timeout=10)
            sockets.append(sock)
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # refused: the server has closed it
                sock.sendall(head.encode() + body[:-1])
        time.sleep(0.5)
        return rss_mib(server) - before
    finally:
        for sock in sockets:
            sock.close()


@pytest.mark.parametrize("case", ["a refused host", "no cookie", "chunked"])
def test_a_request_body_over_the_cap_is_refused_from_its_headers_and_costs_no_memory(server, case):
    port = server.port
    path = "/voila/api/shutdown/0123"  # Voilà's close beacon: a POST every page sends
    if case == "a refused host":
        head = f"POST {path} HTTP/1.1\r\nHost: rebind.example:{port}\r\nContent-Length: {BODY}\r\n\r\n"
        body = b"x" * BODY
    elif case == "no cookie":
        head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: {BODY}\r\n\r\n"
        body = b"_xsrf=" + b"x" * (BODY - 6)
    else:
        head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nTransfer-Encoding: chunked\r\n\r\n"
        body = b"".join(b"%x\r\n%s\r\n" % (16 * 1024, b"x" * 16 * 1024) for _ in range(BODY // (16 * 1024)))
    # the refusal itself: 400 once the headers say the length (a chunked body: once its chunks pass the cap),
    # and the connection closed
    with socket.create_connection(address(server), timeout=10) as sock:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(head.encode() + (body[:128 * 1024] if case == "chunked" else b""))
        assert sock.recv(100).startswith(b"HTTP/1.1 400 ")
        assert closed_by_server(sock, 5)
    grown = held_bodies(server, 80, head, body)  # 70 MiB of bodies, had the server read them
    assert grown < 20, f"the server grew by {grown:.0f} MiB"
    assert still_answers(server) < 5
    assert "Traceback" not in server.log.read_text()


def test_the_servers_own_forms_still_get_through(server):
    ana = Browser(server)
    try:
        status, _page = ana.open_page()
        assert status == 200
        padding = "&note=" + "x" * 30_000  # a form far longer than the beacon's still fits
        status, _ = ana.get(f"voila/api/shutdown/{ana.kernels[0]}", "POST",
                            f"_xsrf={ana.cookie('_xsrf')}{padding}".encode())
        assert status == 204
        ana.kernels.clear()
    finally:
        leave_all(ana)


# ------------------------------------------------------------------------------------ B: connections and files
def test_the_open_file_limit_is_told_with_the_students_it_allows(server):
    wait_until(lambda: "Open files:" in server.log.read_text(), 10, "the open-file warning")
    log = server.log.read_text()
    assert "Open files: this server may open 300 files, enough for about 2 students at once (20 files each)" in log
    assert "ulimit -Hn" in log


def test_idle_connections_are_closed_and_a_new_page_still_loads(server):
    idle = []
    try:
        for _ in range(OPEN_FILES):  # more than the server can hold: it can accept no page while they stay
            try:
                idle.append(socket.create_connection(address(server), timeout=2))
            except OSError:
                break
        assert len(idle) >= OPEN_FILES - 20
        time.sleep(2 * TIMEOUT_S + 1)  # those it accepted closed, then those that waited in the queue
        ana = Browser(server)
        started = time.monotonic()
        try:
            status, page = ana.open_page()
        finally:
            leave_all(ana)
        assert status == 200 and "kernelId" in page, page[:300]
        assert time.monotonic() - started < 60
        assert sum(closed_by_server(sock, 0.1) for sock in idle[:50]) == 50  # closed by the server, not by us
    finally:
        for sock in idle:
            sock.close()


def test_slow_headers_and_slow_bodies_are_cut_off(server):
    with socket.create_connection(address(server), timeout=10) as dribble, \
            socket.create_connection(address(server), timeout=10) as stalled:
        stalled.sendall(f"POST /voila/api/shutdown/0123 HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                        "Content-Length: 1000\r\n\r\n_xsrf=".encode())
        dribble.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n".encode())
        started = time.monotonic()
        cut = False
        while time.monotonic() - started < 4 * TIMEOUT_S and not cut:  # a header line a second, never the end
            try:
                dribble.sendall(b"X-Slow: 1\r\n")
            except (BrokenPipeError, ConnectionResetError):
                cut = True
            cut = cut or closed_by_server(dribble, 1)
        assert cut  # (the server's former 5 minutes: not within the 12 s)
        assert closed_by_server(stalled, 2 * TIMEOUT_S)


def test_a_page_connection_is_not_cut_by_the_idle_timeout(server):
    ana = Browser(server)
    try:
        ana.open_page()

        async def idle_then_ask():
            connection = await connect(ana, ana.kernels[0])
            await read_for(connection, 3 * TIMEOUT_S)  # longer than an idle HTTP connection may last
            frames = await kernel_info(connection)
            connection.close()
            return frames

        assert kernel_replied(run(idle_then_ask()))
    finally:
        leave_all(ana)


# ------------------------------------------------------------------------------------ C: the comm manager's errors
def test_a_message_the_comm_manager_cannot_handle_is_logged_on_the_server_not_sent_to_the_page(server):
    ana = Browser(server)
    try:
        ana.open_page("en")

        async def unhandled():
            connection = await connect(ana, ana.kernels[0])
            states = await widget_states(connection)
            text = widget(states, _model_name="TextModel")
            unknown, control = "0" * 32, uuid.uuid4().hex
            await connection.write_message(message("comm_open", {"comm_id": control, "data": {},
                                                                  "target_name": "jupyter.widget.control"},
                                                    metadata={"version": "1.0.0"}))
            for content in ({"comm_id": control, "data": {"method": "update", "state": {}}},  # not for that comm
                            {"comm_id": unknown, "data": {"method": "request_state"}},  # no such comm
                            {"comm_id": text, "data": {"method": "update", "state": {"value": 4713},
                                                       "buffer_paths": []}}):  # a number for a text: TraitError
                await connection.write_message(message("comm_msg", content))
            await connection.write_message(message("comm_close", {"comm_id": unknown, "data": {}}))
            frames = await read_for(connection, 5)
            connection.close()
            return [frame for frame in frames if frame is not None]

        frames = run(unhandled())
        sent = json.dumps(frames)
        for leak in ("Traceback", "site-packages", "TraitError", "No such comm", "Exception in comm_msg"):
            assert leak not in sent, leak
        assert not [frame for frame in frames if frame["header"]["msg_type"] in ("stream", "error")]
        wait_until(lambda: "No such comm" in server.log.read_text(), 10, "the unknown comm in the server's log")
        log = server.log.read_text()
        assert "Exception in comm_msg" in log and 'widget control msg with method "update"' in log
        assert "TraitError" in log and "4713" in log
        assert "site-packages" in log  # the traceback, with its paths, is where the teacher can read it
    finally:
        leave_all(ana)


# ------------------------------------------------------------------------------------ D: no page from elsewhere
LINKED = re.compile(r"""(?:src|href|action)\s*=\s*["']([^"']+)["']|@import\s+(?:url\()?\s*["']?([^"')\s;]+)"""
                    r"""|url\(\s*["']?([^"')]+)""", re.IGNORECASE)


SCRIPT_OR_STYLE = re.compile(r"""["'`](https?://[^"'`\s]+\.(?:m?js|css)(?:\?[^"'`\s]*)?)["'`]""")


def other_origins(text: str, own: str) -> list[str]:
    """The URLs in ``text`` (src, href, a form's action, a style's @import and url(), and a script or style sheet
    named in a script, as nbconvert's page imports Mermaid) of another origin."""
    found = []
    for match in [*LINKED.finditer(text), *SCRIPT_OR_STYLE.finditer(text)]:
        url = next(group for group in match.groups() if group)
        if url.startswith("//"):
            url = "http:" + url
        parts = urllib.parse.urlsplit(url)
        if parts.scheme in ("http", "https") and parts.netloc != own:
            found.append(url)
    return found


def stylesheets(page: str) -> list[str]:
    return re.findall(r"""<link[^>]+href=["']([^"']+\.css[^"']*)["']""", page)


def test_no_page_the_server_answers_loads_anything_from_another_origin(server):
    own = address(server)[0] + f":{server.port}"
    key = re.search(r"class/board\?key=(\S+)", server.log.read_text()).group(1)
    ana, eva = Browser(server), Browser(server, "127.0.0.3")
    pages: dict[str, tuple[int, str]] = {}
    try:
        pages["no such lesson"] = eva.get("voila/render/es/no-such-lesson.ipynb")
        pages["index"] = ana.open_page("es")  # the landing page
        pages["lesson"] = ana.open_page("en")
        pages["too many pages (429)"] = ana.open_page("es")
        pages["class full (503)"] = eva.open_page("es")  # this server holds two (its open files)
        pages["no cookies (403)"] = Browser(server).get("voila/render/es/index.ipynb?cookie_check=1")
        pages["board"] = ana.get(f"class/board?key={key}")
        pages["board refused (403)"] = ana.get("class/board?key=wrong")
        for path in ("voila/tree", "voila/tree/es", "voila/api/contents/es", "no/such/page"):
            pages[path] = ana.get(path)
        pages["no such template (Voilà's)"] = ana.get("voila/templates/none/static/x.css")
        assert [pages[name][0] for name in ("index", "lesson", "too many pages (429)", "class full (503)",
                                            "no cookies (403)", "board", "board refused (403)")] == [
            200, 200, 429, 503, 403, 200, 403]
        for path in ("voila/tree", "voila/tree/es", "voila/api/contents/es", "no/such/page", "no such lesson"):
            assert pages[path][0] == 404 and "Página no encontrada" in pages[path][1], path  # the course's page
        leaks = {name: other_origins(page, own) for name, (_status, page) in pages.items()}
        for name, (_status, page) in pages.items():
            for sheet in stylesheets(page):
                status, css = ana.get(urllib.parse.urljoin("/", sheet).lstrip("/"))
                leaks[f"{name}: {sheet}"] = other_origins(css, own) if status == 200 else []
        assert not {name: urls for name, urls in leaks.items() if urls}
    finally:
        leave_all(ana, eva)


# ------------------------------------------------------------------------------------ E: connections per address
CAP = 24  # connections_per_address of the capped server: low, so a test can pass it quickly


@pytest.fixture(scope="module")
def capped_server(tmp_path_factory):
    """A server whose cap on the connections of one address is ``CAP`` (the limits' defaults otherwise)."""
    tutor = one_page_server(TutorServer, tmp_path_factory, connections_per_address=CAP)
    try:
        tutor.wait()
        yield tutor
    finally:
        tutor.stop()


def connect_from(server, source: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=(source, 0))


def answer(sock: socket.socket, within: float) -> bytes:
    """What the server sends on this connection within ``within`` seconds, unasked (b"" if nothing)."""
    sock.settimeout(within)
    try:
        return sock.recv(1000)
    except TimeoutError:
        return b""


def said_in_both_languages(page: str) -> bool:
    """The refusal's page says it in Spanish, the server's language, then in English (the server has read nothing
    of the request, so not its language either)."""
    spanish = page.find("<h1>Demasiadas conexiones</h1>")
    english = page.find("<h1>Too many connections</h1>")
    return (page.startswith("<!DOCTYPE html>") and 0 < spanish < english
            and "demasiadas conexiones abiertas desde esta dirección" in page
            and "too many connections open from this address" in page and page.count('lang="es"') == 2
            and 'lang="en"' in page)


def whole_answer(sock: socket.socket, within: float) -> tuple[bytes, str]:
    """Everything the server sends on this connection, and how it ended: "closed" (the server's FIN), "reset" (a
    connection reset, which makes a browser drop what it received: Chromium shows "connection reset"), "open"."""
    sock.settimeout(within)
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except ConnectionResetError:
        return received, "reset"
    except TimeoutError:
        return received, "open"
    return received, "closed"


@pytest.mark.server
def test_connections_from_one_address_past_the_cap_are_refused_while_another_address_gets_in(capped_server):
    server = capped_server
    script = "127.0.0.2"
    held = [connect_from(server, script) for _ in range(CAP)]  # a script's connections, sending nothing
    ana = Browser(server, "127.0.0.3")
    try:
        time.sleep(0.5)
        assert not [sock for sock in held if answer(sock, 0.05)]  # all accepted, none answered: under the cap
        over = [connect_from(server, script) for _ in range(10)]
        try:
            replies = [answer(sock, 5) for sock in over]  # refused as they are accepted, before any request
            assert all(reply.startswith(b"HTTP/1.1 429 ") for reply in replies), replies[:2]
            assert all(closed_by_server(sock, 2) for sock in over)
        finally:
            for sock in over:
                sock.close()
        # a request from the script's address is refused the same way; a browser from another address gets in
        status, text = Browser(server, script).get("?lang=en")
        assert status == 429 and said_in_both_languages(text), text[:300]
        status, page = ana.open_page()
        assert status == 200 and "kernelId" in page, page[:300]
        log = server.log.read_text()
        assert log.count(f"connection from {script}") + log.count(f"connections from {script}") == 1, (
            "told once a minute, not once a connection")
        assert f"from {script} in the last minute: it holds {CAP} open connections" in log
    finally:
        for sock in held:
            sock.close()
        leave_all(ana)
    # its connections closed, the script's address gets in again: a page, whose websocket to its kernel counts
    # among the address's connections as long as it is open
    time.sleep(0.5)
    eva = Browser(server, script)
    try:
        status, page = eva.open_page()
        assert status == 200 and "kernelId" in page, page[:300]

        async def a_page_and_more_connections():
            connection = await connect(eva, eva.kernels[0], source=script)
            frames = await kernel_info(connection)
            more = [connect_from(server, script) for _ in range(CAP)]  # one more than the page leaves room for
            replies = [answer(sock, 2 if n == CAP - 1 else 0.05) for n, sock in enumerate(more)]
            for sock in more:
                sock.close()
            connection.close()
            return frames, replies

        frames, replies = run(a_page_and_more_connections())
        assert kernel_replied(frames)
        assert replies[:-1] == [b""] * (CAP - 1) and replies[-1].startswith(b"HTTP/1.1 429 ")
    finally:
        leave_all(eva)
    assert "Traceback" not in server.log.read_text()


@pytest.mark.server
def test_a_refused_browser_reads_the_whole_answer_in_both_languages_and_no_reset(capped_server):
    """A student's browser behind the school's router, whose address holds its cap, sends its request as soon as
    it is connected: the refusal reaches it whole, then the connection ends cleanly. (It used to be closed with
    the request unread, which resets it: the page was lost to a browser that had not read it yet.)"""
    server = capped_server
    school = "127.0.0.4"
    held = [connect_from(server, school) for _ in range(CAP)]
    try:
        time.sleep(0.3)
        for _ in range(3):
            with connect_from(server, school) as sock:
                sock.sendall(f"GET /voila/render/en/index.ipynb HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                             "User-Agent: Mozilla/5.0\r\nAccept-Language: en\r\n\r\n".encode())
                time.sleep(0.3)  # the server has the request, unread, before the browser reads
                received, ended = whole_answer(sock, 5)
            head, _, body = received.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 429 ") and b"Retry-After: 60" in head, received[:200]
            assert ended == "closed", received[:200]
            assert f"Content-Length: {len(body)}".encode() in head
            assert b"Content-Type: text/html; charset=utf-8" in head
            assert said_in_both_languages(body.decode("utf-8"))
        # a client that sends nothing is closed all the same, within the time the server reads a refused one
        with connect_from(server, school) as sock:
            received, ended = whole_answer(sock, 5)
            assert received.startswith(b"HTTP/1.1 429 ") and ended == "closed"
    finally:
        for sock in held:
            sock.close()
    assert "Traceback" not in server.log.read_text()


# ------------------------------------------------------------------------- F: connections from many addresses
SCRIPT_ADDRESSES = [f"127.0.0.{n}" for n in range(10, 30)]


@pytest.fixture(scope="module")
def crowded_server(tmp_path_factory):
    """A server limited to ``OPEN_FILES`` open files, keeping idle connections a minute (so a script's are held),
    the limits' defaults otherwise: its connections in all are bounded from the limit of open files."""
    tutor = one_page_server(LimitedServer, tmp_path_factory, idle_connection_s=60)
    try:
        tutor.wait()
        yield tutor
    finally:
        tutor.stop()


@pytest.mark.server
def test_scripts_from_many_addresses_cannot_take_every_file_and_a_student_still_gets_in(crowded_server):
    """Scripts from 20 addresses hold 15 connections each, under the cap of one address but more than the
    server's open files: the server holds the connections its file limit leaves room for, kernels' files aside,
    and a student from another address still gets a page, its kernel and its connection to it (each of the
    student's connections closes the newest of the busiest address). Without the bound the scripts took every file
    handle: no connection more was accepted, nor a kernel started, until they let go."""
    server = crowded_server
    scripts = [connect_from(server, source) for _ in range(15) for source in SCRIPT_ADDRESSES]
    ana = Browser(server, "127.0.0.3")
    try:
        time.sleep(1)
        refused = [sock for sock in scripts if answer(sock, 0.01).startswith(b"HTTP/1.1 429 ")]
        started = time.monotonic()
        status, page = ana.open_page()
        assert status == 200 and "kernelId" in page, page[:300]

        async def connected():
            connection = await connect(ana, ana.kernels[0], source="127.0.0.3")
            frames = await kernel_info(connection)
            connection.close()
            return frames

        assert kernel_replied(run(connected()))
        assert time.monotonic() - started < 30
        log = server.log.read_text()
        total = int(re.search(r"connections per address and (\d+) in all; open files: 300", log).group(1))
        assert 100 < total < OPEN_FILES - 60  # room for the server's own files and two kernels'
        assert len(scripts) - total - 20 <= len(refused) <= len(scripts) - total, (len(refused), total)
        assert f"the server holds the {total} connections its open files allow" in log
        assert "Too many open files" not in log and "Traceback" not in log
    finally:
        for sock in scripts:
            sock.close()
        leave_all(ana)
