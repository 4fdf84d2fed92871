"""Running a coroutine in a test whatever an earlier test left behind."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any


def run_apart(coroutine: Coroutine[Any, Any, Any], timeout: float = 60) -> Any:
    """``coroutine`` on an event loop of its own, in a thread of its own: an earlier test (Playwright's sync API,
    a server's loop) may leave a loop running in this thread, and ``asyncio.run`` refuses to start there."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, asyncio.wait_for(coroutine, timeout)).result()
