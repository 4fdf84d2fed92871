"""escoba_tutor.server.hub without a hub: what the course server tells the hub of its activity, and when."""

from __future__ import annotations

import asyncio
import json
import logging
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone

import pytest

pytest.importorskip("tornado")

from tornado.httpserver import HTTPServer  # noqa: E402
from tornado.netutil import bind_sockets  # noqa: E402
from tornado.web import Application, RequestHandler  # noqa: E402

from escoba_tutor.server.hub import ActivityReport  # noqa: E402


def run(coroutine):
    """An event loop of its own, in a thread: a browser test before this one may leave its loop running here."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_the_server_reports_its_start_at_once_then_only_newer_activity():
    """A server slow to start must not look idle for its start-up: its first report, with no kernel yet, carries
    its start; a report with nothing newer is not sent."""
    received: list[dict] = []

    class FakeHub(RequestHandler):
        def post(self) -> None:
            assert self.request.headers["Authorization"] == "token secret"
            received.append(json.loads(self.request.body))

    async def scenario() -> None:
        sockets = bind_sockets(0, "127.0.0.1")
        server = HTTPServer(Application([(r"/activity", FakeHub)]))
        server.add_sockets(sockets)
        port = sockets[0].getsockname()[1]
        started = datetime.now(timezone.utc)
        report = ActivityReport({"JUPYTERHUB_ACTIVITY_URL": f"http://127.0.0.1:{port}/activity",
                                 "JUPYTERHUB_API_TOKEN": "secret", "JUPYTERHUB_SERVER_NAME": ""}, started)
        log = logging.getLogger("test")
        await report.send([], log)  # at start: no kernel yet
        await report.send([None], log)  # a kernel never used: nothing new
        used = (started + timedelta(seconds=30)).replace(tzinfo=None)  # kernels keep naive UTC times
        await report.send([used, None], log)
        server.stop()

    run(scenario())
    stamps = [body["servers"][""]["last_activity"] for body in received]
    assert len(stamps) == 2, received
    first, second = (datetime.fromisoformat(stamp.replace("Z", "+00:00")) for stamp in stamps)
    assert abs((datetime.now(timezone.utc) - first).total_seconds()) < 30  # the start, not a spawn long before
    assert second - first == timedelta(seconds=30)
    assert all(body["last_activity"] == body["servers"][""]["last_activity"] for body in received)


def test_a_hub_that_does_not_answer_is_told_next_time(caplog):
    report = ActivityReport({"JUPYTERHUB_ACTIVITY_URL": "http://127.0.0.1:9/activity", "JUPYTERHUB_API_TOKEN": "t"},
                            datetime.now(timezone.utc))
    run(report.send([], logging.getLogger("test")))
    assert report.last_sent is None  # not sent: the next report tries again
    assert "could not tell the hub of the last activity" in caplog.text
