"""The course server is the class records' one writer (escoba_tutor/server/records_endpoint.py), against a real
``escoba-tutor`` server and its real kernels: a kernel's environment holds no database place nor password, only
the server's records endpoint and a token of its own; a page's records reach the board through it; a made-up
token, or a request from another machine, is refused; a flood from one kernel is capped while another student's
records still land. The bounds themselves: escoba_tutor/server/limits.py's doctests.
"""

from __future__ import annotations

import http.client
import json
import time
import urllib.parse
from pathlib import Path

import pytest
from test_class_board import KEYS, Browser, landing

from escoba_tutor.records import ClassStore
from escoba_tutor.records.recorder import TOKEN_HEADER
from escoba_tutor.server.limits import Limits

PASSWORD = "s3cret-of-the-database"


@pytest.fixture(scope="module")
def server(class_tutor_factory, tmp_path_factory):
    database = tmp_path_factory.mktemp("records-server") / "class.sqlite3"
    # what a teacher's machine may hold besides the server's own setting: the database's place in a variable of
    # its own, and a PostgreSQL password for libpq
    env = {"SCHOOL_DATABASE": str(database), "PGPASSWORD": PASSWORD, "ESCOBA_TUTOR_CLASS_DB": str(database)}
    server = class_tutor_factory(database=database, env=env)
    KEYS[server.url] = server.key
    return server


def kernels_of(server) -> dict[int, dict[str, str]]:
    """The server's kernels (its child processes running the kernel launcher): pid -> environment, as Linux
    holds it (/proc)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
            environ = (entry / "environ").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if parent == server.process.pid and b"escoba_tutor.server.kernel_launch" in command:
            found[int(entry.name)] = dict(item.split("=", 1) for item in environ.decode("utf-8", "replace")
                                          .split("\0") if "=" in item)
    return found


def student(server, nickname: str) -> Browser:
    browser = Browser(server.url)
    status, _headers, _body = browser.request("class/nickname", {"_xsrf": browser.xsrf(), "nickname": nickname,
                                                                 "lang": "es"})
    assert status == 303
    return browser


def kernel_env_of(server, nickname: str) -> dict[str, str]:
    """The environment of the kernel that records for ``nickname`` (one started by a page just now)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for env in kernels_of(server).values():
            if env.get("ESCOBA_TUTOR_NICKNAME") == nickname:
                return env
        time.sleep(0.2)
    raise AssertionError(f"no kernel of the server records for {nickname!r}")


def wait_for(server, nickname: str, timeout: float = 30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with ClassStore.open(server.database) as store:
            found = [s for s in store.board().students if s.nickname == nickname]
        if found:
            return found[0]
        time.sleep(0.3)
    raise AssertionError(f"no record of {nickname!r} reached the board")


def post(url: str, body: bytes, headers: dict[str, str], connection: http.client.HTTPConnection | None = None):
    address = urllib.parse.urlsplit(url)
    connection = connection or http.client.HTTPConnection(address.hostname, address.port, timeout=30)
    connection.request("POST", address.path, body=body, headers=headers)
    answer = connection.getresponse()
    return answer.status, answer.read().decode("utf-8", "replace")


def drill(seed: int) -> bytes:
    return json.dumps({"event": "drill", "kind": "captures", "seed": seed, "correct": True, "mistake": None,
                       "lesson": "02-captures", "rules": "escoba", "nickname": "Somebody Else"}).encode()


def test_a_kernel_gets_the_server_s_endpoint_and_a_token_never_the_database(server):
    browser = student(server, "Env Eva")
    landing(browser, "es")
    env = kernel_env_of(server, "Env Eva")
    assert env["ESCOBA_TUTOR_RECORDS_URL"] == f"{server.url}class/record"
    assert len(env["ESCOBA_TUTOR_RECORDS_TOKEN"]) >= 40
    held = "\n".join(f"{name}={value}" for name, value in env.items())
    assert str(server.database) not in held and "class.sqlite3" not in held
    assert PASSWORD not in held
    assert "ESCOBA_TUTOR_CLASS_DB" not in env and "PGPASSWORD" not in env and "SCHOOL_DATABASE" not in env
    assert wait_for(server, "Env Eva").lessons == ["index"]  # the page's record, sent to the server, written
    # every kernel has its own token
    other = student(server, "Env Leo")
    landing(other, "en")
    assert kernel_env_of(server, "Env Leo")["ESCOBA_TUTOR_RECORDS_TOKEN"] != env["ESCOBA_TUTOR_RECORDS_TOKEN"]


def test_a_record_is_its_kernel_s_student_s_whatever_the_body_says(server):
    browser = student(server, "Token Tina")
    landing(browser, "es")
    env = kernel_env_of(server, "Token Tina")
    status, said = post(env["ESCOBA_TUTOR_RECORDS_URL"], drill(77),
                        {TOKEN_HEADER: env["ESCOBA_TUTOR_RECORDS_TOKEN"], "Content-Type": "application/json"})
    assert status == 204, said
    assert wait_for(server, "Token Tina").drills == {"captures": (1, 1)}
    with ClassStore.open(server.database) as store:
        assert "Somebody Else" not in [s.nickname for s in store.board().students]


@pytest.mark.parametrize("token", ["", "made-up-token", "x" * 43])
def test_a_made_up_token_is_refused_and_nothing_is_written(server, token):
    with ClassStore.open(server.database) as store:
        before = sum(n for s in store.board().students for n, _ in s.drills.values())
    headers = {TOKEN_HEADER: token} if token else {}
    status, said = post(f"{server.url}class/record", drill(5), headers)
    assert status == 403 and "no kernel holds this token" in said
    with ClassStore.open(server.database) as store:
        assert sum(n for s in store.board().students for n, _ in s.drills.values()) == before
        assert "Somebody Else" not in [s.nickname for s in store.board().students]


def test_a_page_s_cookies_are_no_token(server):
    """A page (another site's form included) posting with the browser's cookies gets nothing recorded."""
    browser = student(server, "Cookie Carl")
    landing(browser, "es")
    status, _headers, _body = browser.request("class/record", {"event": "lesson", "lesson": "x", "lang": "es"})
    assert status == 403
    assert wait_for(server, "Cookie Carl").lessons == ["index"]


def test_a_flood_from_one_kernel_is_capped_while_another_student_s_records_land(server):
    flooder = student(server, "Flood Fran")
    landing(flooder, "es")
    env = kernel_env_of(server, "Flood Fran")
    address = urllib.parse.urlsplit(env["ESCOBA_TUTOR_RECORDS_URL"])
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
    headers = {TOKEN_HEADER: env["ESCOBA_TUTOR_RECORDS_TOKEN"], "Content-Type": "application/json"}
    statuses = []
    began = time.monotonic()
    for seed in range(300):  # a script's flood, as fast as one connection goes
        statuses.append(post(env["ESCOBA_TUTOR_RECORDS_URL"], drill(seed), headers, connection)[0])
    elapsed = time.monotonic() - began
    # another student of the class meanwhile: her page's record lands
    calm = student(server, "Calm Clara")
    landing(calm, "es")
    assert wait_for(server, "Calm Clara").lessons == ["index"]
    stored = wait_for(server, "Flood Fran").drills["captures"][0]
    allowed = Limits.record_burst + Limits.record_rate * elapsed + 1  # the lesson-opened record among the burst
    print(f"\n300 records sent in {elapsed:.2f} s: {stored} written, {statuses.count(429)} dropped")
    assert statuses.count(204) == stored
    assert stored <= allowed and statuses.count(429) >= 300 - allowed
    # the log says so a few times, then counts
    time.sleep(0.5)
    said = server.log.read_text(errors="replace").count("dropped a record from kernel")
    assert 1 <= said <= 12


def test_a_record_from_another_machine_is_refused(records_endpoint, caplog):
    """The real handler behind a server that reads the caller's address from ``X-Real-Ip`` (as behind a proxy):
    a request from 10.0.0.5 is refused even with a good token; from loopback it is written."""
    server = records_endpoint(xheaders=True)
    token = server.token("Ana")
    headers = {TOKEN_HEADER: token, "Content-Type": "application/json"}
    status, said = post(server.url, drill(1), {**headers, "X-Real-Ip": "10.0.0.5"})
    assert status == 403 and "this machine's kernels only" in said
    assert server.store.board().students == []
    assert post(server.url, drill(2), headers)[0] == 204
    assert [s.nickname for s in server.store.board().students] == ["Ana"]


@pytest.mark.parametrize("body, status", [
    (b"not json", 400), (b"[]", 400), (json.dumps({"event": "drill", "kind": "x"}).encode(), 400),
    (json.dumps({"event": "lesson", "lesson": "<b>" * 30, "lang": "es"}).encode(), 400),
    (b"{" + b" " * 5000 + b"}", 413),
])
def test_a_malformed_record_is_refused_and_nothing_is_written(records_endpoint, body, status):
    server = records_endpoint()
    said = post(server.url, body, {TOKEN_HEADER: server.token("Ana")})
    assert said[0] == status, said
    assert server.store.board().students == []


def test_a_shut_down_kernel_s_token_lasts_only_its_grace(records_endpoint):
    now = [0.0]
    server = records_endpoint()
    server.register.clock = lambda: now[0]
    token = server.token("Ana", kernel_id="k1")
    server.register.forget("k1")
    now[0] += 5  # a record still on its way from the kernel just shut down
    assert post(server.url, drill(1), {TOKEN_HEADER: token})[0] == 204
    now[0] += 60
    assert post(server.url, drill(2), {TOKEN_HEADER: token})[0] == 403
