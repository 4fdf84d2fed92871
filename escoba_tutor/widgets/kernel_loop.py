"""The kernel's event loop, for pages whose news comes from a thread of their own (a long poll to the course
server: the class exercise, the tables). A widget is changed on the loop where the page's clicks are handled too,
so the page never changes under a click."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["kernel_loop", "on_kernel_loop"]


def kernel_loop():
    """The event loop of the kernel this runs in (ipykernel's Tornado IOLoop), or None outside a kernel."""
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    return getattr(getattr(shell, "kernel", None), "io_loop", None)


def on_kernel_loop(callback: Callable[..., Any], *args: Any) -> None:
    """Call ``callback(*args)`` on the kernel's event loop (from any thread), or at once outside a kernel."""
    loop = kernel_loop()
    if loop is None:
        callback(*args)
    else:
        loop.add_callback(callback, *args)  # thread-safe: Tornado's IOLoop
