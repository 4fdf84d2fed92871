"""The recorder a student's kernel records through: it sends each event to its own course server, which writes it.

The kernel opens no database and knows none. The server starts each student's kernel with, in its environment,
the student's nickname (``ESCOBA_TUTOR_NICKNAME``), the address of the server's records endpoint
(``ESCOBA_TUTOR_RECORDS_URL``, on this machine) and a secret made for this kernel alone
(``ESCOBA_TUTOR_RECORDS_TOKEN``). :func:`recorder` reads them once and returns the kernel's one recorder:

- no nickname, an invalid one, or no endpoint: a recorder that records nothing (``nickname`` is None);
- otherwise a recorder that sends every event as a small JSON object (its own fields, no nickname: the server
  knows whose kernel holds the token, see escoba_tutor/server/records_endpoint.py) from a thread of its own.

:meth:`Recorder.record` only puts the event in a queue (at most :data:`MAX_WAITING` events): a click never waits
for the network or the database, and recording never raises. An event that cannot be sent (a full queue, a
server that cannot be reached or refuses it) is logged as a warning on the logger ``escoba_tutor.records``
naming it, and dropped. Standard library only: a kernel loads neither SQLAlchemy nor a database driver.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import queue
import threading
import time
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from .events import NicknameError, describe, to_message, valid_nickname

if TYPE_CHECKING:
    import http.client

    from .events import Event

ENV_NICKNAME = "ESCOBA_TUTOR_NICKNAME"
ENV_RECORDS_URL = "ESCOBA_TUTOR_RECORDS_URL"
ENV_RECORDS_TOKEN = "ESCOBA_TUTOR_RECORDS_TOKEN"  # noqa: S105 - the variable's name, not a secret
TOKEN_HEADER = "X-Escoba-Record-Token"
MAX_WAITING = 200   # events waiting to be sent; a student makes one every few seconds
EXIT_WAIT = 5.0  # seconds a kernel that is shut down waits at most for its last records to be sent
SEND_TIMEOUT = 10.0  # seconds one event may take to be sent and answered (the server waits for its database)

log = logging.getLogger("escoba_tutor.records")


class Recorder:
    """Records the events of one student (see the module's text). ``nickname`` None: it records nothing."""

    def __init__(self, nickname: str | None, url: str | None = None, token: str | None = None) -> None:
        self.nickname = nickname if url and token else None
        self._url, self._token = url, token
        self._waiting: queue.Queue[Event] = queue.Queue(MAX_WAITING)
        self._sender: threading.Thread | None = None
        self._connection: http.client.HTTPConnection | None = None
        self._lock = threading.Lock()

    def record(self, event: Event) -> bool:
        """Send ``event`` (in the background): True once it waits to be sent, False when it cannot be (and a
        warning in the log); never raises, never waits."""
        if self.nickname is None:
            return False
        try:
            self._start()
            self._waiting.put_nowait(event)
            return True
        except queue.Full:
            with contextlib.suppress(Exception):
                log.warning("not recorded (%d records are waiting to be sent already): %s", MAX_WAITING,
                            describe(event))
        except Exception as error:  # a record must never break a lesson
            with contextlib.suppress(Exception):  # not even a broken log handler
                log.warning("not recorded: %s: %s", describe(event), error)
        return False

    def flush(self, timeout: float = 30.0) -> bool:
        """Wait until every event recorded so far has been sent and answered (or ``timeout`` seconds): True if
        none is left. For tests and tools; a lesson never waits for its records."""
        deadline = time.monotonic() + timeout
        while self._waiting.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.01)
        return not self._waiting.unfinished_tasks

    def close(self) -> None:
        """Drop the events still waiting (the log counts them) and close the connection to the server."""
        dropped = 0
        while True:
            try:
                self._waiting.get_nowait()
            except queue.Empty:
                break
            self._waiting.task_done()
            dropped += 1
        if dropped:
            log.warning("not recorded: %d records still waiting to be sent when the recorder was closed", dropped)
        self._disconnect()

    def _disconnect(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    # -- the sending thread ----------------------------------------------------------------------------------

    def _start(self) -> None:
        with self._lock:
            if self._sender is None or not self._sender.is_alive():
                if self._sender is None:  # a kernel shut down (not killed) sends what it still holds first
                    atexit.register(self.flush, EXIT_WAIT)
                self._sender = threading.Thread(target=self._send_all, name="escoba-records", daemon=True)
                self._sender.start()

    def _send_all(self) -> None:
        while True:
            event = self._waiting.get()
            try:
                self._send(event)
            except Exception as error:  # noqa: BLE001 - the thread goes on with the next event, whatever broke
                with contextlib.suppress(Exception):
                    log.warning("not recorded: %s: %s", describe(event), error)
            finally:
                self._waiting.task_done()

    def _send(self, event: Event) -> None:
        import http.client

        body = json.dumps(to_message(event), separators=(",", ":")).encode("utf-8")
        address = urlsplit(self._url or "")
        path = address.path or "/"
        headers = {"Content-Type": "application/json", TOKEN_HEADER: self._token or ""}
        for attempt in (1, 2):  # a kept-alive connection the server has closed meanwhile: once more, anew
            try:
                with self._lock:
                    if self._connection is None:
                        self._connection = http.client.HTTPConnection(address.hostname or "127.0.0.1",
                                                                      address.port or 80, timeout=SEND_TIMEOUT)
                    connection = self._connection
                connection.request("POST", path, body=body, headers=headers)
                answer = connection.getresponse()
                said = answer.read(300).decode("utf-8", "replace").strip()
                if answer.will_close:
                    self._disconnect()
                break
            except (OSError, http.client.HTTPException) as error:
                self._disconnect()
                if attempt == 2:
                    log.warning("not recorded: %s: the course server cannot be reached at %s: %s", describe(event),
                                self._url, error)
                    return
        if answer.status not in (200, 201, 204):
            log.warning("not recorded: %s: the course server answered %d %s", describe(event), answer.status, said)


_recorder: Recorder | None = None
_recorder_lock = threading.Lock()


def recorder_from_environment() -> Recorder:
    """A new recorder for ``ESCOBA_TUTOR_NICKNAME`` and the server's records endpoint as they are now."""
    raw = os.environ.get(ENV_NICKNAME, "")
    url = os.environ.get(ENV_RECORDS_URL, "").strip()
    token = os.environ.get(ENV_RECORDS_TOKEN, "").strip()
    if not raw.strip() or not url or not token:
        return Recorder(None)
    try:
        nickname = valid_nickname(raw)
    except NicknameError as error:
        log.warning("nothing is recorded in this kernel: %s", error)
        return Recorder(None)
    return Recorder(nickname, url, token)


def recorder() -> Recorder:
    """This kernel's recorder, made from the environment the first time it is asked for."""
    global _recorder
    with _recorder_lock:
        if _recorder is None:
            _recorder = recorder_from_environment()
        return _recorder
