"""A student's kernel at a table where students play each other: its calls to its own course server.

The kernel talks to its own course server only, as the recorder and the class exercise do (recorder.py,
exercise_client.py): the server's address on this machine and this kernel's records token come from the
kernel's environment; the kernel never knows the class database. The server keeps the table
(escoba_tutor/server/tables.py) and tells this kernel its own seat's view only: its hand, never another's.

:class:`TableClient` makes each call and returns the server's answer as plain data (the view is a dict: ``hand``,
``table``, ``turn``, ``my_turn``, ``legal``, ``version``…); a refusal raises :class:`TableRequestError`, whose
``code`` names the problem (``table_not_your_turn``, ``table_stale_version``…) and whose ``message`` says it in
the page's language, ready to show. :meth:`TableClient.watch` keeps one long poll open in a thread of its own
and calls ``on_view`` with every new view of the table (the other players' plays, the computer's). Standard
library only, besides the catalogs' translator.
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

from ..text.translator import N_, Translator
from .recorder import ENV_RECORDS_TOKEN, ENV_RECORDS_URL, TOKEN_HEADER

__all__ = ["TableClient", "TableRequestError", "WatchedTable", "table_client_from_environment"]

log = logging.getLogger("escoba_tutor.records")
RECORD_PATH = "class/record"
TABLES_PATH = "class/tables"
CALL_TIMEOUT = 15.0   # seconds a call may take (a play's transaction, on a busy database, waits up to 5)
WAIT_TIMEOUT = 40.0   # seconds a long poll may take (the server answers within 25)
RETRY_PAUSE = 2.0     # seconds before asking again after the server could not be reached

_UNREACHABLE = N_("The course's server cannot be reached just now: try again in a moment.")
_NO_TABLES = N_("This course's server has no tables where classmates play each other.")
_NOT_UNDERSTOOD = N_("The course could not understand this request.")
_SESSION_ENDED = N_("This page's session on the server has ended: reload the page to sit at the table again.")


class TableRequestError(Exception):
    """A call the server refused, or could not be made. ``code``: the server's code for the problem (see
    escoba_tutor/server/tables.py), or ``table_unreachable`` (no answer), ``table_no_tables`` (a server without
    tables); ``message``: what to show the student; ``data``: the rest of the server's answer (``version`` for a stale
    play, ``reason`` and ``legal_captures`` for an illegal one)."""

    def __init__(self, code: str, message: str, status: int = 0, data: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.status, self.data = code, message, status, data or {}


class TableClient:
    """The tables as this kernel reaches them (see the module's text). ``lang``: the language of the messages."""

    def __init__(self, url: str, token: str, lang: str = "es") -> None:
        address = urlsplit(url)
        base = address.path[: -len(RECORD_PATH)] if address.path.endswith(RECORD_PATH) else "/"
        self._host, self._port = address.hostname or "127.0.0.1", address.port or 80
        self._base, self._token, self.lang = base, token, lang

    # -- the calls ------------------------------------------------------------------------------------------------

    def open(self, players: int = 2, rules: str = "", hints: bool = True) -> dict[str, Any]:
        """Open a table for ``players`` (2, or 4 in two teams) by ``rules`` (empty: the server's), where a player
        may ask for a hint on their turn or not (``hints``); the opener's view, whose ``code`` classmates type to
        join."""
        return _part(self._call("POST", "open", {"players": players, "rules": rules, "hints": hints}), "view")

    def join(self, code: str, seat: int | None = None) -> dict[str, Any]:
        """Sit at table ``code`` (as typed: slips forgiven), in ``seat`` or the first empty one; after a reload,
        the student's own seat again."""
        return _part(self._call("POST", "join", {"code": code, "seat": seat}), "view")

    def leave(self, code: str) -> dict[str, Any]:
        """Leave the table; its public facts after."""
        return _part(self._call("POST", "leave", {"code": code}), "table")

    def give_to_computer(self, code: str, seat: int, level: str) -> dict[str, Any]:
        """The computer plays ``seat`` at ``level`` (``fácil``, ``medio``, ``difícil``, or the players' names)."""
        return _part(self._call("POST", "computer", {"code": code, "seat": seat, "level": level}), "view")

    def take_back(self, code: str, seat: int) -> dict[str, Any]:
        """Take ``seat`` back from the computer."""
        return _part(self._call("POST", "take", {"code": code, "seat": seat}), "view")

    def play(self, view: dict[str, Any], move: str | None = None, *, card: str | None = None,
             take: list[str] | tuple[str, ...] = ()) -> dict[str, Any]:
        """Play on the table of ``view`` (the view the student chose from: its version and seat go with the play)
        ``move`` (``3c+1o+4b+7o``), or ``card`` taking ``take``. The view after the play; a play made against an
        older view is refused (``table_stale_version``), and one sent twice is made once."""
        body: dict[str, Any] = {"code": view["code"], "seat": view["seat"], "version": view["version"]}
        if move is not None:
            body["move"] = move
        else:
            body.update(card=card, take=list(take))
        return _part(self._call("POST", "play", body), "view")

    def view(self, code: str) -> dict[str, Any]:
        """The student's own seat's view of table ``code``."""
        return _part(self._call("GET", f"view?code={quote(code)}"), "view")

    def wait(self, code: str, after: int, timeout: float = WAIT_TIMEOUT) -> dict[str, Any]:
        """The view once the table is at another version than ``after`` (or the same view after the server's
        longest wait)."""
        return _part(self._call("GET", f"wait?code={quote(code)}&after={int(after)}", timeout=timeout), "view")

    def tables(self) -> list[dict[str, Any]]:
        """The class's tables, the newest first: their public facts (``you`` marks this student's seat)."""
        return list(self._call("GET", "list")["tables"])

    def watch(self, code: str, on_view: Callable[[dict[str, Any]], None], after: int = 0) -> WatchedTable:
        """Call ``on_view`` with every new view of table ``code`` (in a thread of its own, until stopped)."""
        watched = WatchedTable(self, code, on_view, after)
        watched.start()
        return watched

    # -- one request ----------------------------------------------------------------------------------------------

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None,
              timeout: float = CALL_TIMEOUT) -> dict[str, Any]:
        _ = Translator(self.lang)
        separator = "&" if "?" in path else "?"
        address = f"{self._base}{TABLES_PATH}/{path}{separator}lang={quote(self.lang)}"
        payload = json.dumps(body).encode("utf-8") if body is not None else None
        connection = http.client.HTTPConnection(self._host, self._port, timeout=timeout)
        try:
            connection.request(method, address, body=payload,
                               headers={TOKEN_HEADER: self._token, "Content-Type": "application/json"})
            answer = connection.getresponse()
            status, said = answer.status, answer.read(200_000)
        except (OSError, http.client.HTTPException) as error:
            log.info("the tables cannot reach the course server: %s", error)
            raise TableRequestError("table_unreachable", _(_UNREACHABLE)) from None
        finally:
            connection.close()
        try:
            data = json.loads(said) if said else {}
        except ValueError:
            data = {}
        if not isinstance(data, dict):
            data = {}
        if 200 <= status < 300 and "error" not in data:
            return data
        if "error" in data:
            extra = {k: v for k, v in data.items() if k not in ("error", "message")}
            raise TableRequestError(str(data["error"]), str(data.get("message", "")), status, extra)
        if status == 404:
            raise TableRequestError("table_no_tables", _(_NO_TABLES), status)
        if status == 403:
            raise TableRequestError("table_forbidden", _(_SESSION_ENDED), status)
        raise TableRequestError("table_bad_request", _(_NOT_UNDERSTOOD), status)


def _part(data: dict[str, Any], name: str) -> dict[str, Any]:
    part = data.get(name)
    return part if isinstance(part, dict) else {}


def left_seats(view: dict[str, Any]) -> tuple[int, ...]:
    """The seats of a view whose student has left (not seen for a while) and which the computer does not play."""
    return tuple(seat["seat"] for seat in view.get("seats", [])
                 if seat.get("left") and not seat.get("computer") and not seat.get("empty"))


class WatchedTable:
    """One table watched by a long poll, in a thread of its own: ``on_view`` gets every new view; ``error`` the
    last refusal (a table gone, a seat lost), after which the watching stops."""

    def __init__(self, client: TableClient, code: str, on_view: Callable[[dict[str, Any]], None], after: int) -> None:
        self.client, self.code, self.on_view, self.version = client, code, on_view, after
        self._left: tuple[int, ...] | None = None
        self.error: TableRequestError | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, name=f"escoba-table-{code}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                view = self.client.wait(self.code, self.version)
            except TableRequestError as error:
                if error.code in ("table_unreachable", "table_unavailable", "table_too_many"):
                    time.sleep(RETRY_PAUSE)
                    continue
                self.error = error
                return
            if self._stop.is_set():
                return
            # a seat counts as left by the clock, not by a change of the table: the long poll's answer after its
            # longest wait is the only news of it, so a view whose left seats differ is passed on too
            left = left_seats(view)
            if view["version"] != self.version or left != self._left:
                self.version, self._left = view["version"], left
                with contextlib.suppress(Exception):  # the page's own failure is its to tell; the watch goes on
                    self.on_view(view)


def table_client_from_environment(lang: str = "es") -> TableClient | None:
    """A client for this kernel's course server, or None when the page has none (no nickname, no server)."""
    url = os.environ.get(ENV_RECORDS_URL, "").strip()
    token = os.environ.get(ENV_RECORDS_TOKEN, "").strip()
    if not url or not token:
        return None
    return TableClient(url, token, lang)
