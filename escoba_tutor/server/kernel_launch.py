"""A student's kernel: ipykernel, with a memory limit and its log kept on the server.

``python -m escoba_tutor.server.kernel_launch -f CONNECTION_FILE`` is what :class:`.kernels.TutorKernelManager`
starts in place of ``python -m ipykernel_launcher``. Before the kernel starts:

- **memory**: the data the process may allocate (``RLIMIT_DATA``, soft and hard, so the kernel cannot raise it
  again) is capped at ``ESCOBA_TUTOR_KERNEL_MEMORY_MIB`` (set by the server; 0 or unset: no cap). A kernel that
  reaches it gets ``MemoryError`` in the failing callback, which is logged and told to the student in a short
  message, or dies and the page says its session has ended. Linux counts every private writable mapping; other
  systems may not enforce this limit.
- **priority**: a browser's second and later kernels run at a lower priority (``ESCOBA_TUTOR_KERNEL_NICE``, an
  increment to the server's own, set by the server), so that one browser opening many pages at once takes its CPU
  from what the class leaves, not from the class.
- **the log**: ipykernel sends whatever the kernel writes to its standard error to the page's socket. The project's
  logger (``escoba_tutor``: a widget callback's failure, with its traceback) and ipykernel's own log (an error in
  a widget message) write instead to a copy of the standard error the kernel inherited from the server, which is
  the server's log. A callback error that IPython would show as a traceback on the page's socket is written there
  too; the page gets nothing. Repeated lines are collapsed into a count (:mod:`.logs`), as on the server.
  So does every other logger: one without a handler of its own (the comm manager's, ``Comm`` and
  ``ipykernel.comm``: a page's message to a comm that does not exist, or a widget update it cannot apply, with
  its traceback) would fall to Python's last-resort handler, which writes to ``sys.stderr``, the page's socket;
  and a Python warning (its file's path) goes to the log, not to ``sys.stderr`` either.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys

if __name__ == "__main__":
    # The server interrupts a kernel before it shuts it down, and a kernel still starting when the server stops
    # would print a KeyboardInterrupt traceback into the server's log. ipykernel ignores SIGINT between cells
    # anyway once it is initialised (IPKernelApp.init_signal): until then, so does this process.
    signal.signal(signal.SIGINT, signal.SIG_IGN)

from .logs import RepeatFilter  # noqa: E402

MIB = 1024 * 1024
MEMORY_ENV = "ESCOBA_TUTOR_KERNEL_MEMORY_MIB"
NICE_ENV = "ESCOBA_TUTOR_KERNEL_NICE"
POOLED_ENV = "ESCOBA_TUTOR_POOLED"  # set for a pooled kernel: how much lower the priority of its imports is
# What a pooled kernel imports before it answers: the kernel's own modules (before its shell exists) and then the
# widgets and the course's, which the pages import as their first cell runs (after: ipywidgets registers its comm
# targets with the shell as it is imported).
KERNEL_MODULES = ("ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell", "IPython")
PRELOADED = ("IPython.display", "ipywidgets", "anywidget", "comm", "escoba_tutor.widgets", "escoba_tutor.widgets.page",
             "escoba_tutor.widgets.capture_table", "escoba_tutor.widgets.game_table",
             "escoba_tutor.widgets.hint_panel", "escoba_tutor.widgets.setenta_explainer",
             "escoba_tutor.widgets.score_sheet", "escoba_tutor.widgets.engine_facts", "escoba_tutor.players.bots",
             "escoba_tutor.records.kernel")


def limit_memory(mib: int) -> None:
    """Cap the data this process may allocate (both limits: the kernel's code cannot raise it again)."""
    if mib <= 0:
        return
    try:
        import resource
    except ImportError:  # Windows: no such limit
        return
    cap = mib * MIB
    _soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (cap, cap))


def lower_priority(increment: int) -> None:
    """Run this process (and so the kernel) at a lower priority than the server's, before its imports."""
    if increment > 0 and hasattr(os, "nice"):
        with contextlib.suppress(OSError):  # not allowed here: the kernel runs at the server's priority
            os.nice(increment)


def preload(increment: int, modules: tuple[str, ...] = PRELOADED) -> None:
    """Import ``modules`` now, in a thread whose priority is ``increment`` lower (Linux: the rest of the kernel
    keeps the server's priority); a module that fails to import is logged and left to the page, as without a pool.
    """
    import importlib
    import threading

    def work() -> None:
        if increment > 0 and sys.platform.startswith("linux"):
            with contextlib.suppress(OSError):
                thread = threading.get_native_id()
                os.setpriority(os.PRIO_PROCESS, thread, os.getpriority(os.PRIO_PROCESS, thread) + increment)
        for name in modules:
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001 - the page imports it again, and says what is wrong
                logging.getLogger("escoba_tutor.kernel").exception("a pooled kernel could not import %s", name)

    thread = threading.Thread(target=work, name="escoba-tutor-preload", daemon=True)
    thread.start()
    try:
        thread.join()
    except KeyboardInterrupt:  # the server stops a kernel it no longer needs (it is stopping): no traceback
        sys.exit(0)


def server_log_stream():
    """The standard error the server gave this process, before ipykernel sends file descriptor 2 to the page."""
    return os.fdopen(os.dup(2), "w", buffering=1, encoding="utf-8", errors="replace")


def log_to_server(stream, *loggers: logging.Logger) -> logging.Handler:
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter(f"[escoba-tutor kernel {os.getpid()}] %(levelname)s %(name)s: "
                                           "%(message)s"))
    for logger in loggers:
        logger.handlers[:] = [handler]
        logger.propagate = False
    return handler


class ClosedSocketFilter(logging.Filter):
    """Leave out tornado's and asyncio's traceback for a read or write on a socket that ipykernel has just closed.

    As a kernel stops, ipykernel closes its ZeroMQ sockets while the event loop may still hold a read or a send
    queued for one of them; that callback then fails with ``ENOTSOCK`` and the loop logs its traceback. Nothing is
    lost (the kernel is stopping on purpose), so the line would only hide real errors in the server's log."""

    def filter(self, record: logging.LogRecord) -> bool:
        # tornado's "Exception in callback" and asyncio's "Task exception was never retrieved" both carry the error
        # as the record's exc_info
        return not (record.exc_info and _closed_socket_error(record.exc_info[1]))


def _closed_socket_error(error: object) -> bool:
    import errno

    try:
        import zmq
    except ImportError:  # no ZeroMQ, no such error
        return False
    return isinstance(error, zmq.ZMQError) and error.errno == errno.ENOTSOCK


def log_everything_else_to(handler: logging.Handler) -> None:
    """The root logger (and so every logger without a handler of its own: the comm managers', ``Comm`` and
    ``ipykernel.comm``, among them) and Python's warnings write to the server's log, never to the page's socket."""
    logging.getLogger().handlers[:] = [handler]
    logging.captureWarnings(True)


def log_widget_errors_to(handler: logging.Handler) -> logging.Logger:
    log = logging.getLogger("escoba_tutor.kernel")
    log.handlers[:] = [handler]
    log.propagate = False
    return log


def tutor_kernel_class():
    """ipykernel's kernel, whose shell keeps a widget callback's traceback off the page.

    IPython shows an error raised in a widget callback (ipywidgets' ``on_click`` dispatcher calls the shell's
    ``showtraceback``) as a traceback on the page's socket. While the kernel answers a widget message, the shell
    writes it to the server's log instead; a cell's error (when Voilà renders the page) goes on as before, since
    Voilà needs it to show its own short note. The kernel is chosen with ipykernel's ``IPKernelApp.kernel_class``
    setting, its shell by the kernel's ``shell_class`` (imported late: the memory limit comes first)."""
    from ipykernel.ipkernel import IPythonKernel
    from ipykernel.zmqshell import ZMQInteractiveShell
    from traitlets import Type

    log = logging.getLogger("escoba_tutor.kernel")

    class TutorShell(ZMQInteractiveShell):
        def showtraceback(self, *args, **kwargs):
            kernel = getattr(self, "kernel", None)
            parent = kernel.get_parent("shell") if kernel is not None else {}
            if (parent or {}).get("header", {}).get("msg_type") == "comm_msg":
                log.error("a widget callback failed", exc_info=True)
                return None
            return super().showtraceback(*args, **kwargs)

    class TutorKernel(IPythonKernel):
        shell_class = Type(TutorShell)

    return TutorKernel


def main() -> None:
    limit_memory(int(os.environ.get(MEMORY_ENV, "0") or 0))
    lower_priority(int(os.environ.get(NICE_ENV, "0") or 0))
    stream = server_log_stream()
    handler = log_to_server(stream, logging.getLogger("escoba_tutor"))
    repeats = RepeatFilter()
    handler.addFilter(repeats)
    handler.addFilter(ClosedSocketFilter())
    logging.getLogger("escoba_tutor").setLevel(logging.INFO)
    log_widget_errors_to(handler)
    log_everything_else_to(handler)
    pooled = os.environ.get(POOLED_ENV, "")
    increment = int(pooled) if pooled.isdigit() else 0
    if pooled:
        preload(increment, KERNEL_MODULES)
    from ipykernel.kernelapp import IPKernelApp
    from traitlets.config import Config

    config = Config()
    config.IPKernelApp.kernel_class = tutor_kernel_class()
    app = IPKernelApp.instance(config=config)
    app.initialize(sys.argv[1:])
    if pooled:
        preload(increment)
    for known in app.log.handlers:
        if isinstance(known, logging.StreamHandler):
            known.setStream(stream)
            known.addFilter(repeats)  # a page's message refused again and again is a few lines, not a flood
    app.start()


if __name__ == "__main__":
    main()
