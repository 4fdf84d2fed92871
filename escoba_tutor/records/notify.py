"""Changes in the class database told to every server that shares it: PostgreSQL's ``NOTIFY`` and ``LISTEN``.

On a school's JupyterHub every student has a course server of their own and the teacher's board is a hub service:
one PostgreSQL database joins them. When one of them changes something another serves (the teacher starts the
class exercise on the board service; a student's server stores an answer the projector counts), the writer sends
a notification in the same transaction as the change (:func:`notify`: PostgreSQL delivers it when, and only if, the
transaction commits), and every server that listens is told at once. Nothing asks the database over and over.

Each server keeps **one** :class:`Listener`, with **one** connection to the database, whatever it listens for:
a part of the server registers the channels it cares about by name, each with a callback (:meth:`Listener.add`),
and the listener calls it with each notification's payload. A connection that drops (the database restarted, the
network away) is opened again, after a pause that grows from :data:`FIRST_PAUSE` to :data:`LAST_PAUSE` seconds;
notifications sent while it was down are lost, so after every connection (the first one too) each callback is
called with ``None``, meaning "read the state again". A connection lost without a word (a cable pulled) is found
by a ``SELECT 1`` when no notification came for :data:`HEARTBEAT_S` seconds, and by TCP keepalives.

A callback that fails (its read of the database failed while the listening connection stayed up: a query timed
out, the pool's connection was lost) is called again with the same payload, after the same growing pauses, at
most :data:`RETRIES` times: otherwise the server's picture would stay stale until the next notification, which
may never come (the teacher waiting for the last answers to be counted). A new call of the callback meanwhile
(the next notification) takes the place of a retry still waiting.

SQLite has no notifications (and needs none: one server writes and serves it): :func:`notify` does nothing there,
and :meth:`Listener.for_store` gives None.

The channels in use: ``escoba_class_exercise`` (class_exercise.py: ``state`` when the running exercise or the
current class changed, ``answer`` when an answer was counted).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import Connection, Engine, text

__all__ = ["Listener", "notify", "FIRST_PAUSE", "LAST_PAUSE", "HEARTBEAT_S", "RETRIES"]

FIRST_PAUSE = 0.2     # seconds before the first new try after a lost connection; doubled each failed try
LAST_PAUSE = 10.0     # the longest pause between tries
HEARTBEAT_S = 60.0    # a quiet connection is checked (SELECT 1) this often
RETRIES = 6           # a failed callback is called again at most this often (0.2 + 0.4 + ... + 6.4 s: 12.6 s)
CHECK_S = 10.0        # how long that check may take before the connection counts as lost
_CHANNEL = re.compile(r"[a-z_][a-z0-9_]{0,62}\Z")  # a channel's name is written into LISTEN: plain names only

log = logging.getLogger("escoba_tutor.records")

#: a channel's callback: the payload, or None after a (re)connection (read the state again); it may be async
Callback = Callable[[str | None], Awaitable[None] | None]


def notify(connection: Connection, channel: str, payload: str = "") -> None:
    """Tell the servers listening on ``channel`` (``payload``: a few words), once the transaction of
    ``connection`` commits; nothing on SQLite."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": channel, "payload": payload})


def _checked(channel: str) -> str:
    if not _CHANNEL.match(channel):
        raise ValueError(f"a channel's name is lower-case letters, digits and _, not {channel!r}")
    return channel


class Listener:
    """One server's connection listening to the class database (see the module's text). Make it with
    :meth:`for_store`, register channels with :meth:`add` (before or after :meth:`start`), start it on the
    server's event loop, and :meth:`stop` it when the server stops."""

    def __init__(self, conninfo: str, *, first_pause: float = FIRST_PAUSE, last_pause: float = LAST_PAUSE,
                 heartbeat_s: float = HEARTBEAT_S, retries: int = RETRIES) -> None:
        self._conninfo = conninfo
        self._first_pause, self._last_pause, self._heartbeat_s = first_pause, last_pause, heartbeat_s
        self._retries = retries
        self._retrying: dict[int, asyncio.TimerHandle] = {}  # id(callback) -> its retry, waiting
        self.retried = 0                   # how many failed callbacks were called again (tests and logs)
        self._callbacks: dict[str, list[Callback]] = {}
        self._task: asyncio.Task[None] | None = None
        self._connection: Any = None       # the psycopg AsyncConnection while connected
        self._tasks: set[asyncio.Future[Any]] = set()  # callbacks' coroutines running (kept from the collector)
        self.connected = asyncio.Event()   # set while connected and listening (tests wait on it)
        self.connections = 0               # how many times it connected (the first time included)
        self.backend_pid: int | None = None  # the database's process serving the connection (for tests and logs)

    @classmethod
    def for_store(cls, engine: Engine, **kwargs: Any) -> Listener | None:
        """A listener on the store's PostgreSQL database (the engine's URL, with its password); None for SQLite."""
        if engine.dialect.name != "postgresql":
            return None
        url = engine.url.set(drivername="postgresql")
        return cls(url.render_as_string(hide_password=False), **kwargs)

    def add(self, channel: str, callback: Callback) -> None:
        """Call ``callback`` with each notification's payload on ``channel``, and with None after each connection.
        Added while connected: the connection is opened again (a moment's work), so the new channel is listened
        to at once, and every callback reads its state again."""
        fresh = _checked(channel) not in self._callbacks
        self._callbacks.setdefault(channel, []).append(callback)
        if fresh and self._task is not None and self.connected.is_set():
            self._task.cancel()
            self._task = asyncio.get_running_loop().create_task(self._run())

    def start(self) -> None:
        """Start listening (on the running event loop)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        for waiting in self._retrying.values():
            waiting.cancel()
        self._retrying.clear()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _close(self, connection: Any) -> None:
        """Close ``connection`` (this task's own: a task cancelled to add a channel leaves the next one's alone)."""
        if connection is not None and connection is self._connection:
            self._connection = None
            self.connected.clear()
            self.backend_pid = None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.close()

    async def _run(self) -> None:
        pause = self._first_pause
        while True:
            connection = None
            try:
                connection = await self._connect()
                pause = self._first_pause
                await self._receive(connection)
            except asyncio.CancelledError:
                await self._close(connection)
                raise
            except Exception as error:  # noqa: BLE001 - the database away: try again, never give up
                log.warning("lost the class database's notifications (%s): connecting again in %.1f s",
                            str(error).splitlines()[0] if str(error) else type(error).__name__, pause)
            await self._close(connection)
            await asyncio.sleep(pause)
            pause = min(pause * 2, self._last_pause)

    async def _connect(self) -> Any:
        import psycopg

        connection = await psycopg.AsyncConnection.connect(
            self._conninfo, autocommit=True, connect_timeout=10,
            keepalives=1, keepalives_idle=30, keepalives_interval=10, keepalives_count=3)
        try:
            listened: set[str] = set()
            while set(self._callbacks) - listened:  # a channel added meanwhile is listened to as well
                channel = sorted(set(self._callbacks) - listened)[0]
                await connection.execute(f"LISTEN {_checked(channel)}")  # a checked plain name (no $1 in LISTEN)
                listened.add(channel)
        except BaseException:
            with contextlib.suppress(Exception):
                await connection.close()
            raise
        self._connection = connection
        self.backend_pid = connection.info.backend_pid
        self.connections += 1
        self.connected.set()
        # notifications sent while no connection listened are lost: everyone reads their state again
        for callbacks in list(self._callbacks.values()):
            for callback in callbacks:
                self._call(callback, None)
        return connection

    async def _receive(self, connection: Any) -> None:
        while True:
            async for note in connection.notifies(timeout=self._heartbeat_s):
                for callback in list(self._callbacks.get(note.channel, ())):
                    self._call(callback, note.payload)
            # quiet for a while: make sure the connection is still there (a lost one raises, and is opened again)
            await asyncio.wait_for(connection.execute("SELECT 1"), CHECK_S)

    def _call(self, callback: Callback, payload: str | None, attempt: int = 0) -> None:
        """Call ``callback``; should it fail, call it again later (``attempt``: the retries made so far)."""
        waiting = self._retrying.pop(id(callback), None)
        if waiting is not None:  # this call reads afresh: the retry of an older one is not needed
            waiting.cancel()
        try:
            result = callback(payload)
        except Exception:  # noqa: BLE001 - one part's mistake must not stop the others' notifications
            log.exception("a notification's callback failed")
            self._again(callback, payload, attempt)
            return
        if inspect.isawaitable(result):
            task = asyncio.ensure_future(result)
            self._tasks.add(task)
            task.add_done_callback(lambda done: self._finished(done, callback, payload, attempt))

    def _finished(self, task: asyncio.Future[Any], callback: Callback, payload: str | None, attempt: int) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a notification's callback failed: %s", task.exception())
            self._again(callback, payload, attempt)

    def _again(self, callback: Callback, payload: str | None, attempt: int) -> None:
        """Call a failed callback again after a pause that grows with each try, :data:`RETRIES` times at most."""
        if attempt >= self._retries or self._task is None:
            if self._task is not None:
                log.error("a notification's callback failed %d times: given up until the next notification",
                          attempt + 1)
            return
        pause = min(self._first_pause * 2 ** attempt, self._last_pause)

        def retry() -> None:
            self._retrying.pop(id(callback), None)
            self.retried += 1
            self._call(callback, payload, attempt + 1)

        self._retrying[id(callback)] = asyncio.get_running_loop().call_later(pause, retry)
