"""The kernel managers: every kernel is bound to the browser that started it, and starts with a memory limit.

:class:`TutorMappingKernelManager` (Voilà's ``multi_kernel_manager_class``) records in the server's
:class:`~.limits.ClassRegister` which page's ticket a new kernel belongs to (the page's handler sets
:data:`CURRENT_TICKET` before Voilà starts the kernel) and forgets a kernel once it is shut down or gone. A kernel
whose page has a nickname (:data:`CURRENT_CLASS_ENV`) gets it, with the address of this server's records endpoint
and a secret token made for that kernel alone (:data:`RECORDS_URL_ENV`, :data:`RECORDS_TOKEN_ENV`; the register
keeps whose kernel holds it), so the kernel's widgets can send their records to the server, which writes them
(records_endpoint.py). A kernel never gets the class database's place: neither the server's settings nor the
server's environment (:func:`kernel_environment` leaves out every variable that names it or holds its
password). A browser's kernels beyond its first start at a lower priority (:data:`KERNEL_NICE_ENV`), so a
browser that opens many pages at once slows the class down less, as do
those of an address that is starting kernels fast. While a page has no connection, what its kernel sends is kept
for its reconnection up to ``offline_buffer_bytes``: beyond that, or once its page has stopped reading, its
session ends (:meth:`TutorMappingKernelManager.end_page`) and the memory is freed at once.
:class:`TutorKernelManager` starts each kernel through :mod:`.kernel_launch`, which sets the kernel's memory limit
and sends its log to the server's log instead of the page. With a kernel pool (:mod:`.pool`), a page's start takes a
ready kernel and gives it what is the page's (its environment, its folder, its priority) instead of starting one.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Mapping
from contextvars import ContextVar
from functools import partial
from typing import Any
from urllib.parse import unquote, urlsplit

import zmq
from jupyter_core.utils import ensure_async
from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager, ServerKernelManager
from traitlets import default

from .kernel_launch import POOLED_ENV
from .limits import ClassRegister, Ticket
from .pool import PRELOAD_NICE, KernelPool, handover_code, lower_priority_of
from .settings import LISTEN_FDS, TEACHER_KEY_ENV

__all__ = ["CURRENT_TICKET", "CURRENT_CLASS_ENV", "TutorKernelManager", "TutorMappingKernelManager",
           "KERNEL_MEMORY_ENV", "KERNEL_NICE_ENV", "EXTRA_KERNEL_NICE", "NICKNAME_ENV", "CLASS_DB_ENV",
           "RECORDS_URL_ENV", "RECORDS_TOKEN_ENV", "kernel_environment"]

CURRENT_TICKET: ContextVar[Ticket | None] = ContextVar("escoba_tutor_ticket", default=None)
#: What the page's request says about the class records: ``{NICKNAME_ENV: ...}`` (set by the page's handler from
#: its nickname cookie; empty: nothing is recorded for this page).
CURRENT_CLASS_ENV: ContextVar[dict[str, str] | None] = ContextVar("escoba_tutor_class_env", default=None)
KERNEL_MEMORY_ENV = "ESCOBA_TUTOR_KERNEL_MEMORY_MIB"
KERNEL_NICE_ENV = "ESCOBA_TUTOR_KERNEL_NICE"  # how much lower the kernel's priority is than the server's
EXTRA_KERNEL_NICE = 10  # a browser's second and later kernels: the CPU goes to every student's first page first
NICKNAME_ENV, CLASS_DB_ENV = "ESCOBA_TUTOR_NICKNAME", "ESCOBA_TUTOR_CLASS_DB"
# as records/recorder.py reads them (the records package is not imported here: SQLAlchemy-free, but not needed)
RECORDS_URL_ENV, RECORDS_TOKEN_ENV = "ESCOBA_TUTOR_RECORDS_URL", "ESCOBA_TUTOR_RECORDS_TOKEN"
LAUNCHER = "escoba_tutor.server.kernel_launch"
KERNEL_MESSAGES_QUEUED = 32  # per socket on a kernel, in the server (libzmq's receive high-water mark)
HANDOVER_S = 30  # a pooled kernel that does not take its page's environment within this is not used
READY_S = 120  # a kernel started for the pool answers within this (imports at a low priority, on a busy machine)
NOT_INHERITED = (NICKNAME_ENV, CLASS_DB_ENV, RECORDS_URL_ENV, RECORDS_TOKEN_ENV, KERNEL_NICE_ENV, LISTEN_FDS,
                 TEACHER_KEY_ENV)
# libpq's own variables, which a teacher may set for the server's PostgreSQL connection (a password among them)
POSTGRES_ENV = ("PGPASSWORD", "PGPASSFILE", "PGSERVICE", "PGSERVICEFILE", "PGSSLKEY", "PGSSLPASSWORD")


def kernel_environment(inherited: Mapping[str, str], class_db: str = "") -> dict[str, str]:
    """What a kernel keeps of the server's environment: everything but what is the server's alone (its sockets,
    the teacher's key, the class database and PostgreSQL's variables), and but any variable that holds the class
    database's URL or its password (a ``DATABASE_URL`` a platform sets, say).

    >>> kernel_environment({"HOME": "/h", "ESCOBA_TUTOR_CLASS_DB": "x", "PGPASSWORD": "pw", "DATABASE_URL":
    ...     "postgresql://u:s3cret@db/c", "OTHER": "has s3cret in it"}, "postgresql://u:s3cret@db/c")
    {'HOME': '/h'}
    """
    secrets = [text for text in (class_db.strip(), _password(class_db)) if len(text) >= 4]
    return {name: value for name, value in inherited.items()
            if name not in NOT_INHERITED and name not in POSTGRES_ENV
            and not any(secret in value for secret in secrets)}


def _password(url: str) -> str:
    try:
        return unquote(urlsplit(url.strip()).password or "")
    except ValueError:
        return ""


class TutorKernelManager(ServerKernelManager):
    """One kernel, started as ``python -m escoba_tutor.server.kernel_launch`` instead of ``-m ipykernel_launcher``
    (the same kernel, with its memory limit set first)."""

    def format_kernel_cmd(self, extra_arguments=None):
        command = super().format_kernel_cmd(extra_arguments)
        for at in range(len(command) - 1):
            if command[at] == "-m" and command[at + 1] == "ipykernel_launcher":
                return [*command[:at + 1], LAUNCHER, *command[at + 2:]]
        return command


class TutorMappingKernelManager(AsyncMappingKernelManager):
    register: ClassRegister | None = None  # set by the app once its limits are known
    #: What every kernel gets in its environment (set by the app from its settings: the rules, the language, the
    #: memory limit); the one place where the server's settings reach a kernel.
    kernel_env: dict[str, str] = {}
    #: Where a kernel sends its records (set by the app: this server's own address); "": nothing is recorded.
    records_url: str = ""
    #: The class database as the server was given it: a kernel's environment never holds it (kernel_environment).
    class_db: str = ""

    @default("kernel_manager_class")
    def _default_kernel_manager_class(self):
        return "escoba_tutor.server.kernels.TutorKernelManager"

    #: Kernels started before any page asks (set by the app: pool.py); None: every page starts its own.
    pool: KernelPool | None = None

    def pre_start_kernel(self, kernel_name, kwargs):
        # What a kernel sends waits in the server's memory until the server reads it: libzmq queues up to 1000
        # messages a socket by default, each up to a page's whole widget state (370 kB), and the server has two
        # sockets on every kernel's output (the page's and the activity watch). With a short queue a backlog waits
        # in the kernel that made it, under that kernel's memory limit, instead of in the class's server. Set on
        # the context, so that it holds for the sockets of this kernel before they connect.
        self.context.setsockopt(zmq.RCVHWM, KERNEL_MESSAGES_QUEUED)
        return super().pre_start_kernel(kernel_name, kwargs)

    def _environment(self, inherited: Mapping[str, str] | None) -> dict[str, str]:
        env = kernel_environment(os.environ if inherited is None else inherited,
                                 self.class_db or os.environ.get(CLASS_DB_ENV, ""))
        env.update(self.kernel_env)
        return env

    async def start_kernel(self, *args, **kwargs):  # type: ignore[override]  # async, as its base class's
        ticket = CURRENT_TICKET.get()
        # A kernel records for the nickname of the page that started it, and for no other: never one inherited
        # from the server's own environment; nor does it see what is the server's alone (its sockets, the key).
        env = self._environment(kwargs.get("env"))
        nickname = (CURRENT_CLASS_ENV.get() or {}).get(NICKNAME_ENV)
        token = None
        if nickname and ticket is not None and self.register is not None and self.records_url:
            token = self.register.issue_record_token(nickname, ticket.client, ticket.address)
            env.update({NICKNAME_ENV: nickname, RECORDS_URL_ENV: self.records_url, RECORDS_TOKEN_ENV: token})
        if ticket is not None and self.register is not None and (
                ticket.hurried or self.register.kernels_of(ticket.client)):
            env[KERNEL_NICE_ENV] = str(EXTRA_KERNEL_NICE)
        kwargs["env"] = env
        try:
            kernel_id = await self._pooled_kernel(kwargs) if not args else None
            if kernel_id is None:
                kernel_id = await super().start_kernel(*args, **kwargs)
        except BaseException:
            if token is not None and self.register is not None:
                self.register.drop_record_token(token)
            raise
        if ticket is not None and self.register is not None and ticket.kernel_id is None:
            self.register.bind(ticket, kernel_id)
        if token is not None and self.register is not None:
            self.register.bind_record_token(token, kernel_id)
        if self.pool is not None:
            self.pool.wake()
        return kernel_id

    # -- the kernel pool (pool.py) ----------------------------------------------------------------------------------
    async def start_pooled(self, kernel_id: str) -> dict[str, str]:
        """A kernel for the pool, started as ``kernel_id``: the server's part of a kernel's environment only (no
        page's, no nickname), its imports done at a lower priority before it answers; returns its environment once
        it answers."""
        env = self._environment(None)
        env[POOLED_ENV] = str(PRELOAD_NICE)
        await super().start_kernel(kernel_id=kernel_id, env=env, kernel_name=self.default_kernel_name)
        try:
            client = self.get_kernel(kernel_id).client()
            client.start_channels(shell=True, iopub=False, stdin=False, hb=False, control=False)
            try:
                await ensure_async(client.wait_for_ready(timeout=READY_S))
            finally:
                client.stop_channels()
        except BaseException:
            await self._stop_unused(kernel_id)
            raise
        return env

    async def _stop_unused(self, kernel_id: str) -> None:
        try:
            await self.shutdown_kernel(kernel_id, now=True)
        except Exception:  # noqa: BLE001 - gone meanwhile
            self.log.debug("kernel %s was already gone", kernel_id)

    async def _pooled_kernel(self, kwargs: dict[str, Any]) -> str | None:
        """A ready kernel of the pool, made this page's (its environment, folder and priority); None if the pool
        has none that takes them (the page then starts its own kernel)."""
        if self.pool is None or kwargs.get("kernel_id") is not None:
            return None
        if kwargs.get("kernel_name") not in (None, self.default_kernel_name):
            return None
        while (taken := self.pool.take()) is not None:
            kernel_id, pooled_env = taken
            try:
                await self._hand_over(kernel_id, pooled_env, kwargs["env"], kwargs.get("path"))
            except Exception as error:  # noqa: BLE001 - a pooled kernel that died or hangs: the next one
                self.log.warning("pooled kernel %s not used: %s", kernel_id, error or type(error).__name__)
                await self._stop_unused(kernel_id)
                continue
            self.log.info("Kernel %s (from the pool) for a page", kernel_id)
            return kernel_id
        return None

    async def _hand_over(self, kernel_id: str, pooled_env: Mapping[str, str], env: Mapping[str, str],
                         path: str | None) -> None:
        """Give a pooled kernel the page's environment and working folder (one silent request of the server's own,
        answered before the page's lesson runs) and, for a page that runs lower, its priority."""
        kernel = self.get_kernel(kernel_id)
        if not await ensure_async(kernel.is_alive()):
            raise RuntimeError("it is no longer running")
        nice = int(env.get(KERNEL_NICE_ENV, "0") or 0)
        changed = {name: value for name, value in env.items()
                   if pooled_env.get(name) != value and name != KERNEL_NICE_ENV}
        dropped = [name for name in pooled_env if name not in env]
        cwd = self.cwd_for_path(path, env=dict(env)) if path is not None else None
        client = kernel.client()
        client.start_channels(shell=True, iopub=False, stdin=False, hb=False, control=False)
        try:
            msg_id = client.execute(handover_code(changed, dropped, cwd), silent=True, store_history=False,
                                    allow_stdin=False)
            deadline = time.monotonic() + HANDOVER_S
            while True:
                reply = await ensure_async(client.get_shell_msg(timeout=max(0.1, deadline - time.monotonic())))
                if reply.get("parent_header", {}).get("msg_id") == msg_id:
                    break
        finally:
            client.stop_channels()
        if reply["content"].get("status") != "ok":
            raise RuntimeError(f"its page's environment was refused: {reply['content'].get('ename', '?')}")
        pid = getattr(kernel.provisioner, "pid", None)  # the local provisioner's: the kernel's process
        if nice > 0 and pid:
            lower_priority_of(pid, nice)
        # handed over now: its idle time starts now, not when the pool started it (jupyter_server's own marker)
        kernel.last_activity = utcnow()  # type: ignore[attr-defined]

    # What is kept for a page without a connection: jupyter_server's own buffer is an unbounded list, so the three
    # public methods that keep, hand over and drop it are the server's own here, with a cap.
    _page_buffers: dict[str, dict[str, Any]] | None = None
    _ended: set[str] | None = None  # kernels whose page's session has ended: nothing is kept for them

    def _buffers(self) -> dict[str, dict[str, Any]]:
        if self._page_buffers is None:
            self._page_buffers = {}
        return self._page_buffers

    def start_buffering(self, kernel_id, session_key, channels):
        """Keep what the kernel sends while its page has no connection, up to ``offline_buffer_bytes``."""
        cap = self.register.limits.offline_buffer_bytes if self.register is not None else 0
        if not self.buffer_offline_messages or kernel_id not in self or kernel_id in (self._ended or ()):
            for stream in channels.values():
                if not stream.closed():
                    stream.close()
            return
        self.stop_buffering(kernel_id)
        kept: dict[str, Any] = {"session_key": session_key, "buffer": [], "channels": channels, "bytes": 0}
        self._buffers()[kernel_id] = kept

        def keep(channel, parts):
            kept["bytes"] += sum(len(part) for part in parts)
            if cap and kept["bytes"] > cap:
                self.end_page(kernel_id, f"it sent more than {cap // (1024 * 1024)} MiB while its page was away")
                return
            kept["buffer"].append((channel, parts))

        for channel, stream in channels.items():
            stream.on_recv(partial(keep, channel))

    def get_buffer(self, kernel_id, session_key):
        """What was kept for this page's session, handed over to its new connection (once); None if nothing."""
        kept = self._buffers().get(kernel_id)
        if kept is None:
            return None
        if kept["session_key"] == session_key:
            return self._buffers().pop(kernel_id)
        self.stop_buffering(kernel_id)
        return None

    def stop_buffering(self, kernel_id):
        kept = self._buffers().pop(kernel_id, None)
        if kept is None:
            return
        for stream in kept["channels"].values():
            if not stream.closed():
                stream.on_recv(None)
                stream.close()
        if kept["buffer"]:
            self.log.info("Discarding %d kept messages for %s", len(kept["buffer"]), kept["session_key"])
        kept["buffer"].clear()

    def end_page(self, kernel_id: str, reason: str) -> None:
        """The page of this kernel can no longer be brought up to date: drop what is kept for it and stop the
        kernel (its page then says its session has ended; the student reloads, and the browser's memory offers
        the game again)."""
        if kernel_id in (self._ended or ()) or kernel_id not in self:
            return
        self._ended = {*(self._ended or ()), kernel_id}
        self.stop_buffering(kernel_id)
        if self.register is not None:
            self.register.forget(kernel_id)
        self.log.warning("Shutting down kernel %s: %s", kernel_id, reason)

        async def stop() -> None:
            try:
                await self.shutdown_kernel(kernel_id)
            except Exception:  # noqa: BLE001 - gone meanwhile: nothing left to stop
                self.log.debug("kernel %s was already gone", kernel_id)
            finally:
                self._ended = (self._ended or set()) - {kernel_id}

        asyncio.ensure_future(stop())

    async def shutdown_kernel(self, kernel_id, now=False, restart=False):  # type: ignore[override]
        if not restart and self.register is not None:
            self.register.forget(kernel_id)
        if not restart and self.pool is not None:
            self.pool.forget(kernel_id)
        return await super().shutdown_kernel(kernel_id, now=now, restart=restart)

    async def shutdown_all(self, now=False):  # type: ignore[override]
        if self.pool is not None:
            self.pool.close()  # no more kernels started for it while the server stops
        return await super().shutdown_all(now=now)

    async def cull_kernel_if_idle(self, kernel_id):
        if kernel_id not in self:  # shut down meanwhile (its page left, or never connected): nothing to cull
            return None
        if self.pool is not None and kernel_id in self.pool:  # waiting for its page: idle is what it is for
            return None
        return await super().cull_kernel_if_idle(kernel_id)

    def remove_kernel(self, kernel_id):
        if self.register is not None:
            self.register.forget(kernel_id)
        if self.pool is not None:
            self.pool.forget(kernel_id)
        return super().remove_kernel(kernel_id)
