"""The kernel pool: kernels started before the students arrive, each handed to one page, once.

A page's start used to be a kernel's start (Python, ipykernel, IPython, the widgets and the course imported:
about three quarters of the page's CPU) and then its lesson. The pool keeps ``size`` kernels started, with the
course imported (``kernel_launch.preload``), so a page that arrives takes one and only runs its lesson.

- **One page, once.** A pooled kernel belongs to no page and no browser (the register has no owner for it: a
  browser asking for it gets 404, as for no kernel). :meth:`KernelPool.take` hands it to one page's start and
  forgets it; from then on it is that page's kernel like any other, shut down when the page leaves. A kernel never
  goes back to the pool.
- **What is the page's.** A kernel used to get what is the page's in its environment as it started: the page's
  address and query (``SCRIPT_NAME``, ``QUERY_STRING``: the lesson's position, ``?seed=``, ``?rules=``), Voilà's
  variables, the nickname with its records token, a lower priority for a browser's extra pages. A pooled kernel
  started before the page existed, with the server's part only (the rules, the language, the memory limit: the
  same for every page). When it is handed over, the kernel manager sends it, before Voilà runs the lesson, one
  silent request of its own (the page never can: its requests to run code are dropped) that sets the page's
  variables and working folder (:func:`handover_code`), and lowers its priority from outside if it is to run
  lower (:func:`lower_priority_of`); the kernel then reads them as a freshly started one would.
- **Within the budget.** Pooled kernels count against ``max_kernels`` with the students': the pool is filled
  only while the students' kernels and the pool together stay under it, and a ready kernel is shut down when a
  student needs its place. Each has the per-kernel memory limit of any kernel.
- **As many as are still to come.** The pool holds ``size`` kernels while the class has not arrived; as students'
  kernels come, it holds only as many as are still to come (``size`` less the students' kernels), and never fewer
  than a few (:data:`DEFAULT_POOL`, or a tenth of the class) for students moving on to their next page. A class
  that has arrived does not have a second class's kernels waiting beside it.
- **Behind the students.** The pool is filled one kernel at a time, only while no page is starting or waiting
  to (``busy``), a second after a kernel was taken, and each pooled kernel does its imports at a lower priority;
  an idle pooled kernel is never culled.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field

__all__ = ["KernelPool", "DEFAULT_POOL", "PRELOAD_NICE", "pool_size", "handover_code", "lower_priority_of"]

DEFAULT_POOL = 2  # without --class-size: a page or two arriving together still finds a kernel ready
PRELOAD_NICE = 10  # how much lower a pooled kernel's imports run than the server
REFILL_DELAY_S = 1.0  # after a kernel is taken: its page's lesson runs first
CHECK_S = 5.0  # how often the pool looks again (a student's kernel gone frees room in the budget)


def pool_size(class_size: int | None, hub_user: str = "") -> int:
    """Kernels kept ready: the class's size when the teacher gives it, else a few (none on a JupyterHub, where the
    server is one student's).

    >>> pool_size(30), pool_size(None), pool_size(None, hub_user="ana"), pool_size(0)
    (30, 2, 0, 0)
    """
    if class_size is not None:
        return class_size
    return 0 if hub_user else DEFAULT_POOL


def handover_code(changed: Mapping[str, str], dropped: list[str], cwd: str | None) -> str:
    """The one statement a pooled kernel runs as it is handed to a page: the page's environment and working
    folder. Every value is a Python literal (``repr`` of text), so nothing of a page's address is ever code; the
    statement binds no name in the kernel's namespace.

    >>> namespace = {}
    >>> exec(handover_code({"ESCOBA_TUTOR_DOCTEST": "7'); import sys; ('"}, [], None), namespace)
    >>> os.environ.pop("ESCOBA_TUTOR_DOCTEST"), sorted(namespace)
    ("7'); import sys; ('", ['__builtins__'])
    """
    values = {str(name): str(value) for name, value in changed.items()}
    names = [str(name) for name in dropped]
    folder = f", os.chdir({str(cwd)!r})" if cwd else ""
    return (f"(lambda os: (os.environ.update({values!r}), [os.environ.pop(name, None) for name in {names!r}]"
            f"{folder}))(__import__('os'))")


def lower_priority_of(pid: int, increment: int) -> None:
    """Run process ``pid`` (every thread of it: on Linux a thread has its own nice value) ``increment`` lower.
    Lowering another process of the same user's priority is allowed; raising it is not, which is why a pooled
    kernel starts at the server's priority and is lowered only for a page that must run lower."""
    if increment <= 0 or not hasattr(os, "setpriority"):
        return
    try:
        threads = [int(tid) for tid in os.listdir(f"/proc/{pid}/task")] if sys.platform.startswith("linux") else [pid]
    except OSError:
        threads = [pid]
    for thread in threads:
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            os.setpriority(os.PRIO_PROCESS, thread, min(19, os.getpriority(os.PRIO_PROCESS, thread) + increment))


@dataclass
class KernelPool:
    """``size`` kernels kept ready; ``start`` starts one with the id it is given (returns the environment it gave it),
    ``stop`` shuts one down, ``busy`` says pages are starting (the pool waits), ``room`` is how many more kernels
    the budget allows beside the students' (the pool's own not counted)."""

    size: int
    start: Callable[[str], Awaitable[dict[str, str]]]
    stop: Callable[[str], Awaitable[None]]
    busy: Callable[[], bool] = lambda: False
    room: Callable[[], int] = lambda: 1 << 30
    students: Callable[[], int] = lambda: 0  # the students' kernels now (pages that have one, or are getting one)
    ready: dict[str, dict[str, str]] = field(default_factory=dict)  # kernel id -> the environment it started with
    starting: int = 0
    handed: int = 0  # kernels handed to pages so far
    closed: bool = False
    log: logging.Logger = field(default_factory=lambda: logging.getLogger("escoba_tutor.pool"))
    _wake: asyncio.Event | None = None
    _task: asyncio.Task | None = None
    _stopping: set[str] = field(default_factory=set)
    _starting: set[str] = field(default_factory=set)  # kernels being started for the pool (their ids known before)

    def __contains__(self, kernel_id: object) -> bool:
        """A kernel of the pool: ready, being started or being stopped (no page's, whatever the server lists)."""
        return kernel_id in self.ready or kernel_id in self._stopping or kernel_id in self._starting

    def run(self) -> None:
        """Start filling (once the server's loop runs)."""
        if self.size > 0 and self._task is None and not self.closed:
            self._wake = asyncio.Event()
            self._task = asyncio.ensure_future(self._fill())

    def take(self) -> tuple[str, dict[str, str]] | None:
        """A ready kernel for a page (it leaves the pool for good), or None."""
        if not self.ready:
            return None
        kernel_id = next(iter(self.ready))
        env = self.ready.pop(kernel_id)
        self.handed += 1
        self.wake()
        return kernel_id, env

    def forget(self, kernel_id: str) -> None:
        """The kernel has gone (shut down, or died): no longer ready."""
        if self.ready.pop(kernel_id, None) is not None:
            self.wake()

    def wake(self) -> None:
        if self._wake is not None:
            self._wake.set()

    def close(self) -> None:
        self.closed = True
        if self._task is not None:
            self._task.cancel()

    def target(self) -> int:
        """Kernels to hold now: those of the class still to come, and a few for the next pages.

        >>> pool = KernelPool(30, None, None)
        >>> pool.target(), [KernelPool(30, None, None, students=lambda: n).target() for n in (10, 28, 40)]
        (30, [20, 3, 3])
        >>> KernelPool(2, None, None, students=lambda: 5).target()
        2
        """
        floor = min(self.size, max(DEFAULT_POOL, self.size // 10))
        return max(floor, self.size - self.students())

    def wanted(self) -> int:
        """How many more kernels the pool should start now."""
        if self.closed:
            return 0
        return max(0, min(self.target() - len(self.ready) - self.starting,
                          self.room() - len(self.ready) - self.starting))

    async def trim(self) -> None:
        """Shut down ready kernels whose place the students' kernels need (the budget is theirs first)."""
        while self.ready and self.room() - len(self.ready) - self.starting < 0:
            kernel_id = next(iter(self.ready))
            del self.ready[kernel_id]
            self._stopping.add(kernel_id)
            try:
                await self.stop(kernel_id)
            except Exception:  # noqa: BLE001 - gone meanwhile: its place is free all the same
                self.log.debug("pooled kernel %s was already gone", kernel_id)
            finally:
                self._stopping.discard(kernel_id)

    async def _fill(self) -> None:
        assert self._wake is not None
        delay = 0.0
        while not self.closed:
            if delay:
                await asyncio.sleep(delay)
            await self.trim()
            while self.wanted() > 0 and not self.busy() and not self.closed:
                await self._start_one()
            self._wake.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), CHECK_S)
            delay = REFILL_DELAY_S

    async def _start_one(self) -> None:
        kernel_id = str(uuid.uuid4())
        self.starting += 1
        self._starting.add(kernel_id)
        try:
            env = await self.start(kernel_id)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - the server goes on without it; the next check tries again
            self.log.warning("a kernel for the pool could not be started", exc_info=True)
            await asyncio.sleep(CHECK_S)
            return
        finally:
            self.starting -= 1
            self._starting.discard(kernel_id)
        if self.closed:
            await self.stop(kernel_id)
            return
        self.ready[kernel_id] = env
        if len(self.ready) == self.target():
            self.log.info("Kernel pool: %d kernels ready for arriving pages", len(self.ready))
