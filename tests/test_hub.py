"""escoba_tutor.server.hub without a hub: what the course server tells the hub of its activity, and when; when a
student's server records for the class board; the teachers' board service (hub_board.py) as the hub would start it.
The real hub: tests/browser/test_jupyterhub_browser.py."""

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


HUB_ENV = {"JUPYTERHUB_SERVICE_URL": "http://127.0.0.1:50123/user/ana/", "JUPYTERHUB_SERVICE_PREFIX": "/user/ana/",
           "JUPYTERHUB_API_TOKEN": "t", "JUPYTERHUB_API_URL": "http://127.0.0.1:8081/hub/api", "JUPYTERHUB_USER": "ana"}


SERVICE_ENV = {"JUPYTERHUB_SERVICE_URL": "http://127.0.0.1:10101",
               "JUPYTERHUB_SERVICE_PREFIX": "/services/class-board/", "JUPYTERHUB_API_TOKEN": "t",
               "JUPYTERHUB_API_URL": "http://127.0.0.1:8081/hub/api", "JUPYTERHUB_CLIENT_ID": "service-class-board"}


@pytest.mark.parametrize(("class_db", "recorded"), [("postgresql://escoba:pw@db/escoba_classes", True), ("", False),
                                                    ("off", False), ("  ", False)])
def test_a_student_s_server_records_only_when_the_hub_names_a_class_database(class_db, recorded):
    from escoba_tutor.server.hub import hub_settings

    settings = hub_settings({**HUB_ENV, "ESCOBA_TUTOR_CLASS_DB": class_db})
    assert settings.class_board is recorded
    assert settings.hub_user == ("ana" if recorded else "")
    assert settings.class_db == (class_db if recorded else None)
    assert settings.teacher_key == ""  # no teacher's link on a hub: the board is the hub's service


def test_a_class_database_that_cannot_be_used_turns_recording_off_not_the_lessons(tmp_path, capsys):
    from escoba_tutor.server.hub import hub_settings, with_class_db

    settings = with_class_db(hub_settings({**HUB_ENV, "ESCOBA_TUTOR_CLASS_DB": str(tmp_path)}))  # a folder
    assert not settings.class_board and settings.class_db is None and settings.hub_user == ""
    assert "nothing is recorded for this student" in capsys.readouterr().err
    settings = with_class_db(hub_settings({**HUB_ENV, "JUPYTERHUB_USER": "@@", "ESCOBA_TUTOR_CLASS_DB": "x.sqlite3"}))
    assert not settings.class_board and "no letter or digit" in capsys.readouterr().err


def test_the_board_service_refuses_to_start_without_its_database():
    from escoba_tutor.engine.errors import EscobaError
    from escoba_tutor.server.hub_board import board_app

    with pytest.raises(EscobaError, match="names no class database"):
        board_app(SERVICE_ENV)
    with pytest.raises(EscobaError, match="not started by JupyterHub as a service: JUPYTERHUB_CLIENT_ID"):
        board_app({**SERVICE_ENV, "JUPYTERHUB_CLIENT_ID": "", "ESCOBA_TUTOR_CLASS_DB": "x"})


def test_the_board_service_serves_the_board_behind_the_hub_s_login_and_no_nickname_form(tmp_path):
    from escoba_tutor.server.hub_board import board_app

    app = board_app({**SERVICE_ENV, "ESCOBA_TUTOR_CLASS_DB": str(tmp_path / "c.sqlite3")})
    try:
        routes = {rule.matcher.regex.pattern.rstrip("$"): rule.target for rule in app.wildcard_router.rules}
        assert "/services/class-board/oauth_callback" in routes
        assert routes["/services/class-board/class/board"].__name__ == "HubBoardPageHandler"
        assert not any("nickname" in path for path in routes)  # no student comes here
        # the class's tables, listed and projected for the teachers only (and none of the kernels' calls)
        assert routes["/services/class-board/class/tables.json"].__name__ == "HubTablesDataHandler"
        assert routes["/services/class-board/class/table"].__name__ == "HubTablePageHandler"
        assert not any("class/tables/" in path for path in routes)
        assert app.settings["escoba_table_service"].store is app.settings["escoba_class_store"]
        assert app.settings["escoba_teacher_key"] == ""  # the hub's login, never a key
        # it serves no lessons, but names them by their titles, read from the lessons the students' servers serve
        from escoba_tutor.server.board_export import lesson_titles

        assert lesson_titles(app.settings["escoba_lessons"], "es")["02-captures"] == "2. Bazas de 15"
    finally:
        app.settings["escoba_class_store"].close()
