"""Shared parts of the served-app benchmarks (bench_app.py, load_class.py): servers, memory, a page's kernel
protocol.

- :class:`Server` runs the real ``escoba-tutor`` server (:func:`tutor_server`) or plain Voilà on a notebook
  (:func:`voila_server`), and reads the memory of its process tree from ``/proc``.
- :class:`PageClient` does over HTTP and the kernel websocket what a Voilà page does in the browser: GET the
  page (Voilà runs the notebook while it sends it), connect to ``/api/kernels/<id>/channels`` with the page's
  cookie and origin, ask the kernel for every widget's state over the ``jupyter.widget.control`` comm, then
  change widgets with the ``comm_msg`` messages a click sends (``update`` for a value, ``custom``/``click`` for
  a button). Each change is timed until the kernel is idle again, that is until its whole answer has arrived.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import time
import uuid
from pathlib import Path

from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1, serialize_msg_to_ws_v1

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run"]
BARE_CELL = """
import ipywidgets as w
button, label = w.Button(description="Pulsar"), w.Label("0")
button.on_click(lambda _b: setattr(label, "value", str(int(label.value) + 1)))
w.VBox([button, label])
"""
# The time from the navigation's start until an element matching the selector is drawn (read in the page).
FIRST_IN_VIEW = """(selector) => [...document.querySelectorAll(selector)].some(
  (el) => el.offsetParent !== null && el.getBoundingClientRect().height > 0) && performance.now()"""
# What a student would read as a failure on a page.
WIDGET_VIEW = re.compile(r'"application/vnd\.jupyter\.widget-view\+json": *\{"model_id": *"([0-9a-f]{32})"')
ERROR_TEXT = re.compile(r"Traceback|There was an error|Error executing|Algo ha fallado|Something went wrong")
# Every lesson page carries its starting panel's words, the failure's among them, for its script to show (the server's
# starting.py): they are no error unless the panel is moved on to its "failed" step.
START_WORDS = re.compile(r'<script type="application/json" id="escoba-start-words">.*?</script>', re.S)
START_FAILED = 'window.escobaStart.show("failed")'


def page_error(page: str) -> str | None:
    """What an error in a served page says, or None: the starting panel's words are left out unless it failed."""
    if START_FAILED in page:
        return "the starting panel's failure"
    found = ERROR_TEXT.search(START_WORDS.sub("", page))
    return found.group(0) if found else None


def widget_outputs(notebook: Path) -> int:
    """How many widget outputs a lesson notebook holds (its outputs are stored, see STACK.md on nbval)."""
    cells = json.loads(notebook.read_text())["cells"]
    return sum("application/vnd.jupyter.widget-view+json" in output.get("data", {})
               for cell in cells for output in cell.get("outputs", []))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_notebook(path: Path, *cells: str) -> Path:
    path.write_text(json.dumps({
        "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": c.strip()}
                  for c in cells],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5}))
    return path


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def new_kernel(server, before: set[int], what: str, timeout: float = 30) -> int:
    """The pid of the kernel a page has just started: the newest of the server's kernels not in ``before``."""
    deadline = time.monotonic() + timeout
    while True:
        new = {pid: start for pid, start in server.kernels().items() if pid not in before}
        if new or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    if not new:
        raise RuntimeError(f"no new kernel found for {what}")
    return max(new, key=new.get)


def rss_mib(pid: int) -> float:
    """VmRSS of one process (0 once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _processes() -> dict[int, tuple[int, float, bytes]]:
    """Every process: pid -> (parent pid, start time in clock ticks since boot, command line)."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        found[int(entry)] = (int(fields[1]), float(fields[19]), cmdline)
    return found


class Server:
    """A server in a subprocess, its log in a file; ``url`` ends with the base URL (``/`` or a prefix)."""

    def __init__(self, command: list[str], port: int, log: Path, cwd: Path, base_url: str = "/") -> None:
        self.port, self.log_path = port, log
        self.url = f"http://127.0.0.1:{port}{base_url}"
        self._log = log.open("wb")
        self.process = subprocess.Popen(command, cwd=cwd, stdout=self._log, stderr=subprocess.STDOUT,
                                        env={**os.environ, "PYTHONUNBUFFERED": "1"})

    def wait(self, timeout: float = 90) -> None:
        """Until the port accepts (a GET would start a kernel)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}: {self.log_tail()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.2)
        raise TimeoutError(f"the server did not open port {self.port}: {self.log_tail()}")

    def log_tail(self, chars: int = 3000) -> str:
        return self.log_path.read_text(errors="replace")[-chars:]

    def tree(self) -> list[int]:
        """The server and all its descendants (kernels and anything they start)."""
        processes = _processes()
        children: dict[int, list[int]] = {}
        for pid, (parent, _start, _cmd) in processes.items():
            children.setdefault(parent, []).append(pid)
        found, todo = [], [self.process.pid]
        while todo:
            pid = todo.pop()
            found.append(pid)
            todo += children.get(pid, [])
        return found

    def tree_rss_mib(self) -> float:
        return sum(rss_mib(pid) for pid in self.tree())

    def tree_cpu_s(self) -> float:
        """CPU seconds used so far by the server and its descendants, living or ended (an ended kernel's time
        is in its parent's count of waited-for children)."""
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0
        for pid in self.tree():
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            total += sum(int(x) for x in fields[11:15]) if pid == self.process.pid else int(fields[11]) + int(
                fields[12])
        return total / ticks

    def kernels(self) -> dict[int, float]:
        """The kernel children of this server (ipykernel, or escoba-tutor's launcher of it): pid -> start time
        (clock ticks since boot)."""
        return {pid: start for pid, (parent, start, cmd) in _processes().items()
                if parent == self.process.pid and (b"ipykernel" in cmd or b"kernel_launch" in cmd)}

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # Voilà stops its kernels on SIGTERM
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()


def tutor_server(folder: Path, *args: str, base_url: str = "/", voila_json: dict | None = None) -> Server:
    """The real ``escoba-tutor`` server (no browser) on a free port; ``args`` are more serve options.
    ``voila_json``: more settings, in a ``voila.json`` of the server's working folder (Voilà reads it)."""
    port = free_port()
    command = [sys.executable, "-m", "escoba_tutor.cli", "serve", "--no-browser", "--port", str(port),
               "--lessons", str(ROOT / "lessons"), *args]
    if base_url != "/":
        command += ["--base-url", base_url]
    cwd = ROOT
    if voila_json:
        cwd = folder / f"cwd-{port}"
        cwd.mkdir()
        (cwd / "voila.json").write_text(json.dumps(voila_json))
    return Server(command, port, folder / f"tutor-{port}.log", cwd=cwd, base_url=base_url)


def voila_server(notebook: Path, cull_idle: int = 60) -> Server:
    """Plain Voilà on one notebook, with culling like the app's (a measured page's kernel goes away)."""
    port = free_port()
    command = [sys.executable, "-m", "voila", str(notebook), "--no-browser", f"--port={port}",
               "--Voila.ip=127.0.0.1", f"--MappingKernelManager.cull_idle_timeout={cull_idle}",
               f"--MappingKernelManager.cull_interval={max(1, cull_idle // 2)}"]
    return Server(command, port, notebook.with_suffix(f".{port}.log"), cwd=notebook.parent)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100), linear between the nearest ranks; nan for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    at = (len(ordered) - 1) * q / 100
    low = int(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


# --------------------------------------------------------------------------------------- the page's protocol
class PageError(Exception):
    """Something a student would have seen go wrong: an error page, a closed connection, no answer."""


V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"  # what Voilà's page asks for, and the server accepts


def _pack_v1(message: dict) -> bytes:
    """A message in the protocol the browser's page speaks (``V1_PROTOCOL``): the server passes it on to the kernel
    without reading it, as it passes the kernel's messages on."""
    parts = [json.dumps(message[part]).encode() for part in ("header", "parent_header", "metadata", "content")]
    return serialize_msg_to_ws_v1(parts, message["channel"])


def _unpack_v1(frame: bytes) -> dict:
    channel, parts = deserialize_msg_from_ws_v1(frame)
    header, parent, metadata, content = (json.loads(part) for part in parts[:4])
    return {"channel": channel, "header": header, "msg_type": header.get("msg_type"), "parent_header": parent,
            "metadata": metadata, "content": content, "buffers": parts[4:]}


def _unpack(frame: bytes | str) -> dict:
    """A websocket frame of Jupyter's default protocol: JSON text, or (with buffers) a count of parts, their
    offsets and the parts, the first being the JSON message."""
    if isinstance(frame, str):
        return json.loads(frame)
    count = struct.unpack("!I", frame[:4])[0]
    offsets = [*struct.unpack(f"!{count}I", frame[4:4 + 4 * count]), len(frame)]
    message = json.loads(frame[offsets[0]:offsets[1]].decode())
    message["buffers"] = [frame[offsets[i]:offsets[i + 1]] for i in range(1, count)]
    return message


class PageClient:
    """One student's page at protocol level. ``await open()``, then ``models`` mirrors every widget's state and
    ``await update(...)`` / ``await click(...)`` change one, returning the seconds until the kernel's answer.
    It speaks the kernel protocol Voilà's page asks for (``V1_PROTOCOL``: the server passes the kernel's messages
    on without reading them); ``v1=False`` speaks the older JSON one, which the server reads and writes anew."""

    def __init__(self, base: str, path: str, answer_timeout: float = 30, views: int | None = None,
                 cookies: dict[str, str] | None = None, source: str | None = None, v1: bool = True) -> None:
        self.base, self.path, self.answer_timeout = base.rstrip("/") + "/", path.lstrip("/"), answer_timeout
        self.source = source  # the client's own address (a loopback address other than 127.0.0.1: another machine)
        self.first_cookies = dict(cookies or {})  # a login's, behind a hub
        self.expected_views = views  # the widget outputs the page must hold (None: at least one)
        self.views: list[str] = []
        self.models: dict[str, dict] = {}
        self.errors: list[str] = []
        self.stderr: list[str] = []  # what the kernel wrote that no page shows
        self.session = uuid.uuid4().hex
        self._pending: dict[str, asyncio.Future] = {}
        self._connection = None
        self._reader = None
        self.closed = False
        self.v1 = v1  # speak the browser's protocol when the server accepts it (the JSON one otherwise)
        self._v1 = False

    async def open(self) -> dict[str, float]:
        """GET the page, connect to its kernel and load the widgets; the seconds each step took."""
        from tornado.httpclient import AsyncHTTPClient, HTTPRequest
        from tornado.websocket import websocket_connect

        times, start = {}, time.monotonic()
        client = AsyncHTTPClient()
        cookies: dict[str, str] = dict(self.first_cookies)
        for _visit in range(2):  # a browser's first visit gets the server's cookie and is sent to the page again
            headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else {}
            response = await client.fetch(HTTPRequest(self.base + self.path, headers=headers, request_timeout=600,
                                                      connect_timeout=60, follow_redirects=False,
                                                      network_interface=self.source),
                                          raise_error=False)
            for cookie in response.headers.get_list("Set-Cookie"):
                name, _, value = cookie.split(";")[0].partition("=")
                cookies[name.strip()] = value
            if response.code not in (301, 302):
                break
        if response.code != 200:
            raise PageError(f"GET {self.path}: HTTP {response.code}")
        page = response.body.decode(errors="replace")
        times["page_s"] = time.monotonic() - start
        if page_error(page):
            raise PageError(f"GET {self.path}: the page shows {page_error(page)!r}")
        found = re.search(r'"kernelId": *"([0-9a-f-]+)"', page)
        if not found:
            raise PageError(f"GET {self.path}: no kernel id in the page")
        self.kernel_id = found.group(1)
        # the widgets the browser would draw: a page without them shows the lesson's text and no widget
        self.views = WIDGET_VIEW.findall(page)
        if len(self.views) < (self.expected_views or 1):
            raise PageError(f"GET {self.path}: {len(self.views)} widget output(s) in the page, not "
                            f"{self.expected_views or 'at least 1'}")
        self.cookies = cookies
        origin = self.base.split("/", 3)
        url = (self.base.replace("http", "ws", 1)
               + f"api/kernels/{self.kernel_id}/channels?session_id={self.session}")
        self._connection = await websocket_connect(HTTPRequest(
            url, headers={"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()),
                          "Origin": f"{origin[0]}//{origin[2]}"}, connect_timeout=60,
            request_timeout=60, network_interface=self.source),
            subprotocols=[V1_PROTOCOL] if self.v1 else None)
        self._v1 = self._connection.selected_subprotocol == V1_PROTOCOL
        if self.v1 and not self._v1:  # a browser's page would still work, but the figures would not be its own
            raise PageError(f"{self.path}: the server did not accept {V1_PROTOCOL}, the protocol browsers speak")
        self._reader = asyncio.ensure_future(self._read())
        times["socket_s"] = time.monotonic() - start
        await self._load_widgets()
        times["usable_s"] = time.monotonic() - start
        return times

    def _message(self, msg_type: str, content: dict, metadata: dict | None = None) -> dict:
        return {"header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "student",
                           "session": self.session, "date": "", "version": "5.3"},
                "parent_header": {}, "metadata": metadata or {}, "content": content, "channel": "shell",
                "buffers": []}

    async def _send(self, message: dict) -> float:
        """Send a shell message; the seconds until the kernel is idle after it."""
        answered = asyncio.get_running_loop().create_future()
        self._pending[message["header"]["msg_id"]] = answered
        start = time.monotonic()
        await self._write(message)
        try:
            await asyncio.wait_for(answered, self.answer_timeout)
        except asyncio.TimeoutError:
            raise PageError(f"{self.path}: no answer from the kernel in {self.answer_timeout:.0f} s") from None
        finally:
            self._pending.pop(message["header"]["msg_id"], None)
        return time.monotonic() - start

    async def _write(self, message: dict) -> None:
        if self._v1:
            await self._connection.write_message(_pack_v1(message), binary=True)
        else:
            await self._connection.write_message(json.dumps(message))

    async def _load_widgets(self) -> None:
        """As the widget manager does: a ``jupyter.widget.control`` comm, ``request_states``, ``update_states``."""
        control = uuid.uuid4().hex
        self._control = (control, asyncio.get_running_loop().create_future())
        await self._write(self._message(
            "comm_open", {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}},
            {"version": "1.0.0"}))
        await self._send(self._message("comm_msg", {"comm_id": control, "data": {"method": "request_states"}}))
        try:
            states = await asyncio.wait_for(self._control[1], self.answer_timeout)
        except asyncio.TimeoutError:
            raise PageError(f"{self.path}: the widget states did not arrive") from None
        await self._write(self._message("comm_close", {"comm_id": control, "data": {}}))
        for model_id, model in states.items():
            self.models[model_id] = dict(model["state"])
        missing = [view for view in self.views if view not in self.models]
        if missing:
            raise PageError(f"{self.path}: the kernel has no widget {missing[0]} that the page shows")

    async def _read(self) -> None:
        try:
            while True:
                frame = await self._connection.read_message()
                if frame is None:
                    if not self.closed:
                        self.errors.append(f"{self.path}: the kernel connection closed")
                        for future in self._pending.values():
                            if not future.done():
                                future.set_exception(PageError("the kernel connection closed"))
                    return
                self._receive(_unpack_v1(frame) if self._v1 else _unpack(frame))
        except Exception as error:  # noqa: BLE001 - a reader that dies must be noticed by the student
            if not self.closed:
                self.errors.append(f"{self.path}: reading the kernel connection failed: {error!r}")

    def _receive(self, message: dict) -> None:
        kind, content = message.get("msg_type") or message["header"]["msg_type"], message.get("content", {})
        parent = message.get("parent_header", {}).get("msg_id")
        if kind == "status" and content.get("execution_state") == "idle" and parent in self._pending:
            if not self._pending[parent].done():
                self._pending[parent].set_result(None)
        elif kind == "comm_open" and content.get("target_name") == "jupyter.widget":
            self.models[content["comm_id"]] = dict(content["data"].get("state", {}))
        elif kind == "comm_msg":
            data = content.get("data", {})
            if content.get("comm_id") == getattr(self, "_control", (None,))[0]:
                if data.get("method") == "update_states" and not self._control[1].done():
                    self._control[1].set_result(data["states"])
            elif data.get("method") in ("update", "echo_update") and content.get("comm_id") in self.models:
                self.models[content["comm_id"]].update(data.get("state", {}))
                said = data.get("state", {}).get("message", "")
                if isinstance(said, str) and ERROR_TEXT.search(said):
                    self.errors.append(f"{self.path}: the page says {said!r}")
        elif kind == "comm_close":
            self.models.pop(content.get("comm_id"), None)
        elif kind == "error" or (kind == "stream" and "Traceback" in content.get("text", "")):
            text = content.get("ename", "") + content.get("text", "")
            self.errors.append(f"{self.path}: the kernel sent {kind}: {text[:200]!r}")
        elif kind == "stream":  # e.g. "No such comm" once the page closes its control comm, as browsers do too
            self.stderr.append(content.get("text", ""))

    async def update(self, model_id: str, state: dict) -> float:
        """A value changed in the page (``model.set``, ``save_changes``)."""
        return await self._send(self._message("comm_msg", {"comm_id": model_id, "data": {
            "method": "update", "state": state, "buffer_paths": []}}))

    async def click(self, model_id: str) -> float:
        """A button pressed in the page."""
        return await self._send(self._message("comm_msg", {"comm_id": model_id, "data": {
            "method": "custom", "content": {"event": "click"}}}))

    def find(self, **wanted) -> list[str]:
        """The ids of the models whose state has all these values (a value may be a tuple of choices)."""
        found = []
        for model_id, state in self.models.items():
            if all(key in state and (state[key] in value if isinstance(value, tuple) else state[key] == value)
                   for key, value in wanted.items()):
                found.append(model_id)
        return found

    def layout_display(self, model_id: str) -> str:
        layout = self.models.get(model_id, {}).get("layout", "")
        return self.models.get(layout.removeprefix("IPY_MODEL_"), {}).get("display") or ""

    async def close(self) -> None:
        self.closed = True
        if self._connection is not None:
            self._connection.close()
        if self._reader is not None:
            self._reader.cancel()
