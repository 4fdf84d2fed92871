"""Start a class's course servers on a JupyterHub before the lesson: ``escoba-tutor hub-start-class``.

A class logging in together on a hub waits for 30 servers to start at once (minutes on a small machine, and a
server slow to start can be stopped by the idle culler as it comes up: docs/classroom.md). A teacher (the hub's
``teachers`` group, whose role may start the ``students`` group's servers: deploy/jupyterhub/) or a hub admin
starts them a little before the lesson instead, through the hub's REST API with their API token (made at
``<hub>/hub/token``): ``POST /hub/api/users/<name>/server`` for each student, a few at a time, each followed to
the end through its progress stream (``GET .../server/progress``), which says when it is ready or why it failed.

Every name is checked before any server is started: a name the hub does not know (a student who has never
logged in and was not added), a token the hub refuses, a hub that cannot be reached, each stops the command with
one line naming the problem, and nothing is started. Only the standard library: the teacher's computer needs
nothing but escoba-tutor.

Keeping the servers until the lesson: the hub's idle culler stops a server idle for its timeout (20 minutes as
shipped), counted from the server's start. ``until`` (the lesson's start) is passed to each server as its
``user_options`` (``escoba_keep_until``); the hub's configuration hands it to the course server
(``ESCOBA_TUTOR_KEEP_UNTIL``), which reports itself active until then (hub.py, :class:`~.hub.ActivityReport`), so
the idle time counts from the lesson's start.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from datetime import datetime, timezone
from urllib.parse import quote, urlsplit

from ..engine.errors import EscobaError

__all__ = ["HubClient", "Outcome", "hub_base_url", "start_class", "summary"]

KEEP_OPTION = "escoba_keep_until"  # the user option the hub's configuration passes to the course server
STARTED, RUNNING, FAILED = "started", "already running", "failed"
SERVER_SCOPES = ("servers", "start:servers", "admin:servers")


def hub_base_url(text: str) -> str:
    """The hub's address with one trailing slash, from what a teacher may paste (the hub's page, its API).

    >>> hub_base_url("https://escoba.ies-ejemplo.es/hub/home")
    'https://escoba.ies-ejemplo.es/'
    >>> hub_base_url("http://127.0.0.1:8000/school/hub/api/")
    'http://127.0.0.1:8000/school/'
    >>> hub_base_url("escoba.ies-ejemplo.es")
    Traceback (most recent call last):
    ...
    escoba_tutor.engine.errors.EscobaError: 'escoba.ies-ejemplo.es' is not a hub's address: give it whole, \
e.g. https://escoba.ies-ejemplo.es
    """
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise EscobaError(f"{text[:60]!r} is not a hub's address: give it whole, e.g. https://escoba.ies-ejemplo.es",
                          code="bad_hub_url")
    path = parts.path
    if "/hub/" in path + "/":  # the hub's own pages and API live under <base>hub/
        path = path[:(path + "/").index("/hub/")]
    return f"{parts.scheme}://{parts.netloc}{path.rstrip('/')}/"


@dataclass
class Outcome:
    """What became of one student's server: ``status`` is STARTED, RUNNING or FAILED (then ``reason`` says why)."""

    name: str
    status: str
    seconds: float = 0.0
    reason: str = ""


class HubClient:
    """The hub's REST API (``<base>hub/api/``) with a token; every answer is (HTTP status, JSON or None)."""

    def __init__(self, base_url: str, token: str, timeout: float = 30) -> None:
        self.base, self.token, self.timeout = hub_base_url(base_url), token, timeout

    def request(self, method: str, path: str, body: dict | None = None, timeout: float | None = None):
        """The raw answer (a response to read, or an HTTPError); a clear error if the hub cannot be reached."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"token {self.token}", "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.base + "hub/api/" + path, data=data, method=method, headers=headers)
        try:
            return urllib.request.urlopen(request, timeout=timeout or self.timeout)
        except urllib.error.HTTPError as error:
            return error
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", None) or error
            raise EscobaError(f"the hub at {self.base} cannot be reached: {reason}", code="hub_unreachable") from None

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, object]:
        answer = self.request(method, path, body)
        with answer:
            raw = answer.read()
        try:
            return answer.status, json.loads(raw) if raw.strip() else None
        except ValueError:
            return answer.status, None

    def check(self) -> str:
        """That this is a hub and that it takes the token, which may start servers: the token owner's name."""
        status, about = self.call("GET", "")
        if status != 200 or not isinstance(about, dict) or "version" not in about:
            raise EscobaError(f"{self.base} does not answer as a JupyterHub (HTTP {status} at {self.base}hub/api/): "
                              "check the hub's address", code="not_a_hub")
        status, me = self.call("GET", "user")
        if status in (401, 403) or not isinstance(me, dict):
            raise EscobaError(f"the hub refused the API token (HTTP {status}): it is mistyped, expired or revoked; "
                              f"make a new one at {self.base}hub/token", code="hub_token")
        scopes, name = me.get("scopes"), str(me.get("name", "?"))
        # a student's own token may start their own server only (servers!user=<name>): not a teacher's
        others = [scope for scope in scopes or [] if str(scope).split("!")[0] in SERVER_SCOPES
                  and str(scope).partition("!")[2] != f"user={name}"]
        if isinstance(scopes, list) and not others:
            raise EscobaError(f"the token of {name} may not start other users' servers: the hub's "
                              "admin must add this account to the teachers group (or make it an admin), and the "
                              "token must be made with all of its permissions", code="hub_token")
        return name

    def group_members(self, group: str) -> list[str]:
        status, model = self.call("GET", f"groups/{quote(group, safe='')}")
        if status in (403, 404) or not isinstance(model, dict):
            raise EscobaError(f"no group {group!r} on the hub that this token may read (HTTP {status})",
                              code="hub_no_group")
        members = sorted(str(name) for name in model.get("users") or [])
        if not members:
            raise EscobaError(f"the hub's group {group!r} has no members", code="hub_no_group")
        return members

    def server_of(self, name: str) -> dict | None:
        """The user's default server model ({} when not running), or None for a user the hub does not show."""
        status, model = self.call("GET", f"users/{quote(name, safe='')}")
        if status != 200 or not isinstance(model, dict):
            return None
        servers = model.get("servers") or {}
        return servers.get("", {}) if isinstance(servers, dict) else {}

    def start(self, name: str, options: dict, timeout: float) -> Outcome:
        """Start one user's server and follow it until it is ready, has failed, or ``timeout`` seconds passed."""
        began = time.monotonic()
        user = quote(name, safe="")
        answer = self.request("POST", f"users/{user}/server", options or None)
        with answer:
            status, raw = answer.status, answer.read()
        if status == 400 and b"already running" in raw:
            return Outcome(name, RUNNING)
        if status == 201:
            return Outcome(name, STARTED, time.monotonic() - began)
        if status != 202:
            return Outcome(name, FAILED, time.monotonic() - began, f"the hub refused to start it (HTTP {status}: "
                           f"{_message(raw)})")
        return self.follow(name, began, timeout)

    def follow(self, name: str, began: float, timeout: float) -> Outcome:
        """Read the server's progress stream (server-sent events) until ready or failed."""
        user = quote(name, safe="")
        deadline = began + timeout
        while time.monotonic() < deadline:
            answer = self.request("GET", f"users/{user}/server/progress", timeout=min(60.0, timeout))
            try:
                if answer.status != 200:
                    return Outcome(name, FAILED, time.monotonic() - began,
                                   f"the hub lost track of its start (HTTP {answer.status}: {_message(answer.read())})")
                for line in answer:
                    if not line.startswith(b"data:"):
                        continue
                    try:
                        event = json.loads(line[5:])
                    except ValueError:
                        continue
                    if event.get("ready"):
                        return Outcome(name, STARTED, time.monotonic() - began)
                    if event.get("failed"):
                        return Outcome(name, FAILED, time.monotonic() - began,
                                       str(event.get("message") or "the hub could not start it"))
                    if time.monotonic() > deadline:
                        break
            except (OSError, ValueError):  # the stream timed out or broke off: ask again
                pass
            finally:
                answer.close()
        return Outcome(name, FAILED, time.monotonic() - began,
                       f"not ready after {timeout:.0f} s (the hub may still be starting it)")


def _message(raw: bytes) -> str:
    try:
        return str(json.loads(raw).get("message") or raw[:200].decode(errors="replace"))
    except (ValueError, AttributeError):
        return raw[:200].decode(errors="replace").strip() or "no reason given"


def start_class(client: HubClient, names: Sequence[str] | None = None, group: str | None = None,
                until: datetime | None = None, parallel: int = 4, timeout: float = 300,
                progress: Callable[[int, int, Outcome], None] | None = None) -> list[Outcome]:
    """Start the servers of ``names`` (or of ``group``'s members), ``parallel`` at a time; every name is checked
    first, and an unknown one stops it all before anything starts. ``progress(done, total, outcome)`` is called
    as each one ends."""
    client.check()
    wanted = list(dict.fromkeys(names or [])) if names else client.group_members(group or "")
    servers = {name: client.server_of(name) for name in wanted}
    unknown = [name for name, server in servers.items() if server is None]
    if unknown:
        raise EscobaError(f"unknown to the hub, or not a student this token may start: {', '.join(unknown)} "
                          "(a student who has never logged in must first be added to the hub: its admin page, or "
                          "ESCOBA_HUB_STUDENTS); nothing was started", code="hub_unknown_user")
    options = {KEEP_OPTION: until.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")} if until else {}
    outcomes: list[Outcome] = []
    lock = threading.Lock()

    def one(name: str) -> Outcome:
        server = servers[name] or {}
        if server.get("ready"):
            return Outcome(name, RUNNING)
        if server.get("pending") == "spawn":  # someone started it already: follow it like our own
            return client.follow(name, time.monotonic(), timeout)
        try:
            return client.start(name, options, timeout)
        except EscobaError as error:  # the hub went away in the middle: this one failed, say so at the end
            return Outcome(name, FAILED, 0.0, str(error))

    with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        for future in as_completed([pool.submit(one, name) for name in wanted]):
            outcome = future.result()
            with lock:
                outcomes.append(outcome)
                if progress is not None:
                    progress(len(outcomes), len(wanted), outcome)
    order = {name: index for index, name in enumerate(wanted)}
    return sorted(outcomes, key=lambda outcome: order[outcome.name])


def summary(outcomes: Iterable[Outcome]) -> str:
    """The final count, then each failure and why.

    >>> print(summary([Outcome("ana", STARTED, 6.2), Outcome("bruno", RUNNING),
    ...                Outcome("carmen", FAILED, 1.0, "Spawn failed: out of memory")]))
    3 servers: 1 started, 1 already running, 1 failed
      carmen: Spawn failed: out of memory
    """
    outcomes = list(outcomes)
    counts = {status: sum(1 for outcome in outcomes if outcome.status == status)
              for status in (STARTED, RUNNING, FAILED)}
    lines = [f"{len(outcomes)} servers: " + ", ".join(f"{count} {status}" for status, count in counts.items())]
    lines += [f"  {outcome.name}: {outcome.reason}" for outcome in outcomes if outcome.status == FAILED]
    return "\n".join(lines)
