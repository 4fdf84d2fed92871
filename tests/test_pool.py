"""The kernel pool's bookkeeping (escoba_tutor/server/pool.py) without a server: a kernel is handed out once, the
pool stays within the kernel budget and behind the pages being started, and what a page's kernel is told as it is
handed over cannot be code. The pool on a real server: tests/test_app_pool.py."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time

import pytest
from own_loop import run_apart

from escoba_tutor.engine.errors import EscobaError
from escoba_tutor.server import pool as pool_module
from escoba_tutor.server.app import voila_config
from escoba_tutor.server.pool import KernelPool, handover_code, lower_priority_of, pool_size
from escoba_tutor.server.settings import Settings


class Kernels:
    """A fake kernel manager's side of the pool: started and stopped kernels, and a budget."""

    def __init__(self, budget: int = 100) -> None:
        self.started: list[str] = []
        self.stopped: list[str] = []
        self.budget, self.students, self.busy = budget, 0, False

    async def start(self, kernel_id: str) -> dict[str, str]:
        await asyncio.sleep(0.01)
        self.started.append(kernel_id)
        return {"ESCOBA_TUTOR_POOLED": "10"}

    async def stop(self, kernel_id: str) -> None:
        self.stopped.append(kernel_id)

    def pool(self, size: int) -> KernelPool:
        return KernelPool(size, self.start, self.stop, busy=lambda: self.busy,
                          room=lambda: self.budget - self.students, students=lambda: self.students)


def run(test) -> None:
    run_apart(test(), 30)


async def until(check, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline
        await asyncio.sleep(0.01)


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    monkeypatch.setattr(pool_module, "REFILL_DELAY_S", 0.01)
    monkeypatch.setattr(pool_module, "CHECK_S", 0.05)


def test_a_kernel_is_handed_out_once_and_the_pool_refills():
    async def test() -> None:
        kernels = Kernels()
        pool = kernels.pool(3)
        pool.run()
        await until(lambda: len(pool.ready) == 3)
        first, env = pool.take()
        assert env == {"ESCOBA_TUTOR_POOLED": "10"} and first not in pool
        kernels.students = 1
        taken = {first, *(pool.take()[0] for _ in range(2))}
        assert len(taken) == 3 and pool.take() is None  # never the same kernel twice, none when empty
        kernels.students = 3
        await until(lambda: len(pool.ready) == 2)  # refilled: a few for the next pages (the class is in)
        assert not taken & set(pool.ready) and pool.handed == 3
        pool.close()
    run(test)


def test_the_pool_stays_within_the_budget_and_gives_way_to_students():
    async def test() -> None:
        kernels = Kernels(budget=4)
        pool = kernels.pool(10)
        pool.run()
        await until(lambda: len(pool.ready) == 4)
        await asyncio.sleep(0.2)
        assert len(pool.ready) == 4  # the budget, not the class's size
        kernels.students = 3  # students' kernels started without the pool: the budget is theirs first
        await until(lambda: len(pool.ready) == 1)
        assert len(kernels.stopped) == 3
        pool.close()
    run(test)


def test_the_pool_waits_while_pages_are_starting():
    async def test() -> None:
        kernels = Kernels()
        kernels.busy = True
        pool = kernels.pool(2)
        pool.run()
        await asyncio.sleep(0.3)
        assert not kernels.started
        kernels.busy = False
        await until(lambda: len(pool.ready) == 2)
        pool.close()
    run(test)


def test_a_pooled_kernel_being_started_or_stopped_is_the_pools():
    async def test() -> None:
        gate = asyncio.Event()
        kernels = Kernels()

        async def slow_start(kernel_id: str) -> dict[str, str]:
            await gate.wait()
            return {}

        pool = KernelPool(1, slow_start, kernels.stop)
        pool.run()
        await until(lambda: pool.starting == 1)
        (starting,) = pool._starting
        assert starting in pool  # the server lists it already: it is no student's
        gate.set()
        await until(lambda: starting in pool.ready)
        pool.close()
    run(test)


def test_what_a_page_gives_its_kernel_is_never_code(tmp_path):
    hostile = {"QUERY_STRING": "seed=1'); __import__('os').system('touch /tmp/x'); ('",
               "ESCOBA_TUTOR_NICKNAME": "Ana\\'\"\n", "SCRIPT_NAME": "/voila/render/es/x.ipynb"}
    code = handover_code(hostile, ["ESCOBA_TUTOR_POOLED"], str(tmp_path))
    script = ("import json, os\nos.environ['ESCOBA_TUTOR_POOLED'] = '10'\nnamespace = {}\n"
              f"exec({code!r}, namespace)\n"
              "print(json.dumps([sorted(namespace), dict(os.environ), os.getcwd()]))")
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    names, env, cwd = json.loads(ran.stdout)
    assert names == ["__builtins__"]  # no name left in the kernel's namespace
    assert {name: env[name] for name in hostile} == hostile and "ESCOBA_TUTOR_POOLED" not in env
    assert cwd == str(tmp_path)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice values are Linux's")
def test_a_page_that_runs_lower_lowers_every_thread_of_its_kernel():
    child = subprocess.Popen([sys.executable, "-c", "import threading, time\n"
                              "threading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n"
                              "time.sleep(30)"])
    try:
        time.sleep(0.5)
        threads = [int(tid) for tid in os.listdir(f"/proc/{child.pid}/task")]
        before = [os.getpriority(os.PRIO_PROCESS, tid) for tid in threads]
        lower_priority_of(child.pid, 10)
        assert len(threads) == 2
        assert [os.getpriority(os.PRIO_PROCESS, tid) for tid in threads] == [min(19, n + 10) for n in before]
    finally:
        child.kill()
        child.wait()


def test_the_class_size_sets_the_pool():
    assert pool_size(30) == 30 and pool_size(None) == pool_module.DEFAULT_POOL and pool_size(None, "ana") == 0
    assert voila_config(Settings(class_size=30)).TutorVoila.pool_size == 30
    assert "pool_size" not in voila_config(Settings()).TutorVoila  # the default, or a voila.json's
    assert voila_config(Settings(hub_user="ana")).TutorVoila.pool_size == 0  # one student's server on a hub
    with pytest.raises(EscobaError, match="class_size must be from 0 to 1000, not -1"):
        Settings(class_size=-1)
