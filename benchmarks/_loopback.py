"""Shared parts of the class records' protocol benchmarks (bench_records.py, class_exercise.py): the server's real
Tornado handlers on loopback, in a thread of this process, over a class store, with the register's bounds set out
of the way; and one run's times as percentiles.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import statistics
import threading
from collections.abc import Callable
from pathlib import Path

from escoba_tutor.records import ClassStore


def percentiles(seconds: list[float], unit: str = "ms") -> str:
    """p50 / p95 / max of ``seconds`` in ``unit`` (``ms`` or ``µs``), and how many there were."""
    scale = {"ms": 1e3, "µs": 1e6}[unit]
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (f"p50 {statistics.median(ordered) * scale:8.0f} {unit}   p95 {p95 * scale:8.0f} {unit}   "
            f"max {ordered[-1] * scale:8.0f} {unit}   ({len(ordered)})")


class LoopbackServer:
    """``handlers`` in a Tornado server on a free loopback port (``port``), its event loop in a thread of this
    process, with the class store at ``path`` (``store``) and a class register (``register``) whose bounds do not
    get in the way; ``settings`` are the application's others. ``token(student)`` is a student's records token,
    bound to a live kernel of theirs, as the kernel manager makes one."""

    def __init__(self, path: Path | str, handlers: list, address: str = "127.0.0.1", *,
                 on_loop: Callable[[ClassStore], dict] | None = None, **settings: object) -> None:
        from tornado.httpserver import HTTPServer
        from tornado.web import Application

        from escoba_tutor.server.limits import ClassRegister, Limits

        self.store = ClassStore.open(path)
        self.register = ClassRegister(Limits(max_kernels=999, record_rate=1e6, record_burst=1_000_000,
                                             address_record_rate=1e6, address_record_burst=1_000_000))
        self.address = address  # where the students' browsers are
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        started = threading.Event()

        def serve() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            more = on_loop(self.store) if on_loop is not None else {}  # settings made on the server's own loop
            app = Application(handlers, escoba_log=logging.getLogger("bench"), escoba_class_store=self.store,
                              escoba_register=self.register, **settings, **more)
            HTTPServer(app).listen(self.port, "127.0.0.1")
            started.set()
            loop.run_forever()

        threading.Thread(target=serve, daemon=True).start()
        started.wait(10)

    def token(self, student: int) -> str:
        from escoba_tutor.server.limits import Seat

        token = self.register.issue_record_token(f"student {student:02d}", f"browser {student}", self.address)
        self.register.seats[f"k{student}"] = Seat(f"browser {student}", self.address)
        self.register.bind_record_token(token, f"k{student}")
        return token
