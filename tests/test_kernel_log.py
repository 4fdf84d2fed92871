"""What a student's kernel writes to the server's log (``escoba_tutor.server.kernel_launch``)."""

import errno
import io
import logging

import zmq

from escoba_tutor.server.kernel_launch import ClosedSocketFilter, log_to_server


def logged(exception: BaseException, logger_name: str, text: str) -> str:
    stream = io.StringIO()
    handler = log_to_server(stream, logging.getLogger(f"test.{logger_name}"))
    handler.addFilter(ClosedSocketFilter())
    try:
        raise exception
    except BaseException:  # noqa: BLE001 - logged as the event loop does
        logging.getLogger(f"test.{logger_name}").error(text, exc_info=True)
    return stream.getvalue()


def test_a_stopping_kernels_queued_read_on_its_closed_socket_is_left_out_of_the_log():
    closed = zmq.ZMQError(errno.ENOTSOCK)
    assert logged(closed, "tornado.application", "Exception in callback functools.partial(...)") == ""
    assert logged(closed, "asyncio", "Task exception was never retrieved") == ""


def test_every_other_error_in_a_kernel_is_logged_with_its_traceback():
    other = logged(zmq.ZMQError(errno.EAGAIN), "tornado.application", "Exception in callback x")
    assert "Exception in callback x" in other and "Traceback" in other and "ZMQError" in other
    plain = logged(ValueError("a widget's value"), "escoba_tutor", "a widget callback failed")
    assert "a widget callback failed" in plain and "ValueError: a widget's value" in plain


def test_an_interrupt_while_the_kernel_starts_writes_no_traceback(tmp_path):
    """The server interrupts a kernel before shutting it down: one still starting (a pooled kernel when the server
    stops) ignores it, as ipykernel does between cells, rather than print a KeyboardInterrupt traceback into the
    server's log. Interrupted again and again from its first moments, it starts and answers its connection file."""
    import json
    import signal
    import subprocess
    import sys
    import time

    from jupyter_client.connect import write_connection_file

    connection, _ = write_connection_file(str(tmp_path / "kernel.json"))
    kernel = subprocess.Popen([sys.executable, "-m", "escoba_tutor.server.kernel_launch", "-f", connection],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        started = time.monotonic()
        time.sleep(0.15)  # past the interpreter's own start, whose SIGINT no module can catch
        while time.monotonic() - started < 4:
            kernel.send_signal(signal.SIGINT)
            time.sleep(0.05)
        assert kernel.poll() is None, kernel.stderr.read() if kernel.stderr else ""
        assert json.loads((tmp_path / "kernel.json").read_text())["shell_port"]
    finally:
        kernel.kill()
        _out, err = kernel.communicate(timeout=10)
    assert "KeyboardInterrupt" not in err and "Traceback" not in err, err
