"""The class exercise with a class of students, at the protocol level: how soon a started exercise reaches every
student's kernel, and how soon an answer is counted on the projector.

    python benchmarks/class_exercise.py [--students 30] [--rounds 10]

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
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import secrets
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

    def __init__(self, path: Path) -> None:
        from escoba_tutor.server.class_exercise import exercise_handlers

        super().__init__(path, exercise_handlers("/"), escoba_teacher_key=KEY, escoba_class_exercise=True,
                         xsrf_cookies=False)

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
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder) / "class.sqlite3")
        shown_at: list[float] = []
        stored: list[float] = []
        sent_at: list[float] = []
        students = [Student(server, n, shown_at, stored, sent_at) for n in range(args.students)]
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
        print(f"{args.students} students, {args.rounds} exercises (load average {load[0]:.2f} {load[1]:.2f} "
              f"{load[2]:.2f}, {os.cpu_count()} cores)")
        print(f"start -> shown on every kernel:    {percentiles(shown)}")
        print(f"answer -> stored (its round trip):  {percentiles(stored)}")
        print(f"answer -> counted on the projector: {percentiles(counted)}")


if __name__ == "__main__":
    main()
