"""The class exercise with a class of students, at the protocol level: how soon a started exercise reaches every
student's kernel, and how soon an answer is counted on the projector.

    python benchmarks/class_exercise.py [--students 30] [--rounds 10] [--postgres URL|start [--servers 3]]

The server's real handlers (escoba_tutor/server/class_exercise.py, with the class board's) run in a Tornado
server of this process over a fresh SQLite file; each student is a thread that does what a student's kernel does
(records/exercise_client.py): one long poll on ``class/exercise/wait`` with its own records token, then its
answer to ``class/exercise/answer`` after a random pause of 0 to 2 seconds; the projector is one more long poll on
``class/exercise.json``. Each round the teacher starts an exercise (the start form's POST, with the key and the
XSRF token) and, once every answer is in, ends it.

Printed, over every student and round: start -> shown (from the teacher's POST sent to a student's long poll
answered with the new exercise), answer -> stored (the answer's POST round trip: counted in the database), and
answer -> counted on the projector (from the answer's POST sent to the projector's long poll answered with a
count that includes it: the k-th answer sent is taken as counted once k answers are), as p50 / p95 / max in
milliseconds. Targets: start -> shown p95 <= 1 s, answer ->
counted p95 <= 1 s. The load average is printed beside: the machine may be shared.

``--postgres URL`` (an empty database; ``start``: a throw-away PostgreSQL server started for the run, as the tests
start one) lays the class out as on a JupyterHub: the teacher's handlers in one server (the board service) and
the kernels' in ``--servers`` others (the students' own servers, the students shared among them), each over its
own store and with its own listener (records/notify.py): a start reaches the students' servers, and an answer
the board service, only through the database's notifications.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import logging
import os
import random
import re
import secrets
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlencode

from _loopback import LoopbackServer, percentiles

from escoba_tutor.records.recorder import TOKEN_HEADER

KEY = secrets.token_urlsafe(32)


class Server(LoopbackServer):
    """The class exercise's handlers on loopback (with the class board's), in a thread of this process."""

    def __init__(self, path: Path | str, part: str = "all") -> None:
        from escoba_tutor.server.class_exercise import (
            exercise_handlers,
            kernel_handlers,
            listening_settings,
            teacher_handlers,
        )

        handlers = {"all": exercise_handlers, "teacher": teacher_handlers, "kernels": kernel_handlers}[part]("/")
        listen = None if part == "all" else (lambda store: listening_settings(store, tallies=part == "teacher"))
        super().__init__(path, handlers, escoba_teacher_key=KEY, escoba_class_exercise=True, xsrf_cookies=False,
                         on_loop=listen)

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
                timeout: float = 60) -> tuple[int, dict, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            reply = connection.getresponse()
            return reply.status, dict(reply.getheaders()), reply.read()
        finally:
            connection.close()


class Student(threading.Thread):
    """A student's kernel: the long poll, and its answer to each new exercise."""

    def __init__(self, server: Server, number: int, shown: list, stored: list, sent: list) -> None:
        super().__init__(daemon=True)
        self.server, self.token, self.stamp = server, server.token(number), ""
        self.shown, self.stored, self.sent = shown, stored, sent
        self.ready = threading.Event()

    def run(self) -> None:
        headers = {TOKEN_HEADER: self.token, "Content-Type": "application/json"}
        while True:
            status, _headers, body = self.server.request("GET", f"/class/exercise/wait?after={quote(self.stamp)}",
                                                         headers=headers)
            arrived = time.monotonic()
            data = json.loads(body)
            self.stamp = data["stamp"]
            self.ready.set()
            exercise = data["exercise"]
            if exercise is None or exercise["state"] != "open":
                continue
            self.shown.append(arrived)
            time.sleep(random.uniform(0, 2))
            answer = json.dumps({"exercise": exercise["id"], "kind": exercise["kind"], "seed": exercise["seed"],
                                 "rules": exercise["rules"], "correct": random.random() < 0.6,
                                 "mistake": None,  # and the answer as given, as a page sends it (kept in memory)
                                 "given": {"built": [["5c", "10b"], ["6e", "7e"]], "answers": [], "choices": {}}
                                 }).encode()
            began = time.monotonic()
            self.sent.append(began)  # before: the projector may count it before the POST's answer is read here
            status, _headers, _body = self.server.request("POST", "/class/exercise/answer", answer, headers)
            assert status == 200, status
            self.stored.append(time.monotonic() - began)


def teacher_form(server: Server) -> tuple[str, str]:
    """The XSRF cookie the projected view sets, and its form's token."""
    _status, headers, body = server.request("GET", f"/class/exercise?key={KEY}")
    cookie = headers["Set-Cookie"].split(";", 1)[0]
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', body.decode()).group(1)
    return cookie, xsrf


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--postgres", help="an empty PostgreSQL database's URL, or 'start' for a throw-away one")
    parser.add_argument("--servers", type=int, default=3, help="with --postgres: the students' servers")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        if args.postgres:
            url = args.postgres
            if url == "start":
                sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
                from records_postgres import start_postgres

                postgres = start_postgres()
                stack.callback(postgres.close)
                url = next(postgres).create_database("bench")
                # the servers' listeners outlive the database at the end: their tries to connect again are no news
                stack.callback(logging.getLogger("escoba_tutor.records").setLevel, logging.CRITICAL)
            server = Server(url, "teacher")
            kernels = [Server(url, "kernels") for _n in range(args.servers)]
            time.sleep(1.0)  # the listeners connect
        else:
            server = Server(Path(folder) / "class.sqlite3")
            kernels = [server]
        shown_at: list[float] = []
        stored: list[float] = []
        sent_at: list[float] = []
        students = [Student(kernels[n % len(kernels)], n, shown_at, stored, sent_at) for n in range(args.students)]
        for student in students:
            student.start()
        for student in students:
            student.ready.wait(30)
        cookie, xsrf = teacher_form(server)
        shown, counted = [], []
        for _round in range(args.rounds):
            del shown_at[:], sent_at[:]
            form = urlencode({"_xsrf": xsrf, "key": KEY, "token": secrets.token_urlsafe(24), "kind": "captures",
                              "seed": str(random.randrange(1000)), "seconds": "120"}).encode()
            began = time.monotonic()
            status, _headers, _body = server.request("POST", "/class/exercise/start", form, {
                "Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
            assert status == 303, status
            # the projector: long polls until every answer is counted, noting when each count arrived
            seen: list[tuple[float, int]] = []
            after = ""
            while not seen or seen[-1][1] < args.students:
                _status, _headers, body = server.request("GET", f"/class/exercise.json?key={KEY}&after={quote(after)}")
                data = json.loads(body)
                after = data["tally_stamp"]
                seen.append((time.monotonic(), int(after.rsplit(".", 1)[1])))
            shown += [at - began for at in shown_at]
            if os.environ.get("BENCH_DEBUG"):
                print(f"round: {len(shown_at)} shown, max {max(at - began for at in shown_at):.3f} s")
            for rank, sent in enumerate(sorted(sent_at), 1):
                counted.append(next(at for at, count in seen if count >= rank) - sent)
            exercise = server.store.running_exercise()
            form = urlencode({"_xsrf": xsrf, "key": KEY, "exercise": str(exercise.id), "action": "end"}).encode()
            server.request("POST", "/class/exercise/act", form, {
                "Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
            time.sleep(0.3)
        load = os.getloadavg()
        layout = (f"PostgreSQL, the board service and {len(kernels)} students' servers, told by notifications"
                  if args.postgres else "SQLite, one server")
        print(f"{args.students} students, {args.rounds} exercises, {layout} (load average {load[0]:.2f} "
              f"{load[1]:.2f} {load[2]:.2f}, {os.cpu_count()} cores)")
        print(f"start -> shown on every kernel:    {percentiles(shown)}")
        print(f"answer -> stored (its round trip):  {percentiles(stored)}")
        print(f"answer -> counted on the projector: {percentiles(counted)}")


if __name__ == "__main__":
    main()
