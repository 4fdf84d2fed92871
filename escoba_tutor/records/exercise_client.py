"""A student's kernel and the class exercise: it learns which exercise runs, and sends its one answer.

The kernel talks to its own course server only, as the recorder does (recorder.py): the server's address on this
machine and this kernel's token come from the kernel's environment; the kernel never knows the class database.
:class:`ExerciseClient` keeps one long poll open (``GET class/exercise/wait?after=STAMP``, which the server
answers once the exercise is not ``STAMP`` any more, or after some seconds), in a thread of its own, and calls
``on_state`` with every new state; :meth:`ExerciseClient.answer` posts an answer and says whether it was counted.
Standard library only.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, urlsplit

from .recorder import ENV_RECORDS_TOKEN, ENV_RECORDS_URL, TOKEN_HEADER

__all__ = ["ExerciseClient", "client_from_environment"]

log = logging.getLogger("escoba_tutor.records")
RECORD_PATH = "class/record"
WAIT_TIMEOUT = 40.0   # seconds a long poll may take (the server answers within 25)
RETRY_PAUSE = 2.0     # seconds before asking again after the server could not be reached


class ExerciseClient:
    """The class exercise as this kernel sees it (see the module's text)."""

    def __init__(self, url: str, token: str, on_state: Callable[[dict[str, Any]], None]) -> None:
        address = urlsplit(url)
        base = address.path[: -len(RECORD_PATH)] if address.path.endswith(RECORD_PATH) else "/"
        self._host, self._port = address.hostname or "127.0.0.1", address.port or 80
        self._base, self._token, self._on_state = base, token, on_state
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.stamp = ""

    def start(self) -> None:
        self._thread = threading.Thread(target=self._listen, name="escoba-class-exercise", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _request(self, method: str, path: str, body: bytes | None, timeout: float) -> tuple[int, dict[str, Any]]:
        connection = http.client.HTTPConnection(self._host, self._port, timeout=timeout)
        try:
            connection.request(method, self._base + path, body=body,
                               headers={TOKEN_HEADER: self._token, "Content-Type": "application/json"})
            answer = connection.getresponse()
            said = answer.read(20_000)
            try:
                data = json.loads(said) if said else {}
            except ValueError:
                data = {}
            return answer.status, data if isinstance(data, dict) else {}
        finally:
            connection.close()

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                status, data = self._request("GET", f"class/exercise/wait?after={quote(self.stamp)}", None,
                                             WAIT_TIMEOUT)
            except (OSError, http.client.HTTPException) as error:
                log.info("the class exercise cannot reach the course server: %s", error)
                time.sleep(RETRY_PAUSE)
                continue
            if status == 404:  # a server without the class exercise (one started with the class board off)
                with contextlib.suppress(Exception):
                    self._on_state({"unavailable": True})
                return
            if status != 200:
                log.warning("the course server answered %d to the class exercise's wait", status)
                time.sleep(RETRY_PAUSE * 5)
                continue
            if data.get("stamp") != self.stamp:
                self.stamp = str(data.get("stamp", ""))
                with contextlib.suppress(Exception):  # the page's own failure is its to tell; the wait goes on
                    self._on_state(data)

    def answer(self, exercise: dict[str, Any], correct: bool, mistake: str | None,
               given: dict[str, Any] | None = None) -> str:
        """Send this student's answer to ``exercise`` (as the server described it): its outcome, and the answer as
        given (``given``, the drill model's answers: the server keeps it for this student's reloaded page).
        Returns ``counted``, the server's reason for refusing it (``exercise_answered``, ``exercise_closed``…), or
        ``unreachable``."""
        body = json.dumps({"exercise": exercise["id"], "kind": exercise["kind"], "seed": exercise["seed"],
                           "rules": exercise["rules"], "correct": correct, "mistake": mistake,
                           "given": given}).encode("utf-8")
        try:
            status, data = self._request("POST", "class/exercise/answer", body, 10.0)
        except (OSError, http.client.HTTPException) as error:
            log.warning("a class exercise answer was not sent: %s", error)
            return "unreachable"
        if status == 200 and data.get("counted"):
            return "counted"
        return str(data.get("refused") or f"http_{status}")


def client_from_environment(on_state: Callable[[dict[str, Any]], None]) -> ExerciseClient | None:
    """A client for this kernel's course server, or None when the page has none (no nickname, no server)."""
    url = os.environ.get(ENV_RECORDS_URL, "").strip()
    token = os.environ.get(ENV_RECORDS_TOKEN, "").strip()
    if not url or not token:
        return None
    return ExerciseClient(url, token, on_state)
