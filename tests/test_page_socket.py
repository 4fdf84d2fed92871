"""A page's connection to its kernel sends each frame at once.

Tornado turns Nagle's algorithm back on when the upgrade's HTTP request is done, and jupyter_server does not turn
it off: the second and later frames of one click's answer then wait for the browser's delayed acknowledgement
(40 ms on Linux, up to 200 ms on other systems). benchmarks/load_tables.py showed it as a 40 ms floor under every
"Play" at the tables (docs/classroom.md).
"""

from __future__ import annotations

import socket

from own_loop import run_apart
from tornado.iostream import IOStream
from tornado.netutil import bind_sockets

from escoba_tutor.server import handlers
from escoba_tutor.server.handlers import TutorKernelWebsocketHandler


def _connected_stream() -> tuple[IOStream, socket.socket, socket.socket]:
    """A Tornado stream over a real TCP connection on this machine (and the two ends' sockets)."""
    listener = bind_sockets(0, "127.0.0.1")[0]
    client = socket.create_connection(listener.getsockname())
    server, _ = listener.accept()
    listener.close()
    return IOStream(server), server, client


def test_opening_a_page_s_socket_turns_off_nagle_before_the_kernel_is_connected(monkeypatch):
    async def opened() -> tuple[int, int]:
        stream, server, client = _connected_stream()
        try:
            stream.set_nodelay(False)  # as Tornado leaves it after the upgrade
            seen: list[int] = []

            class Connection:
                def set_nodelay(self, value: bool) -> None:
                    stream.set_nodelay(value)

            async def base_open(self, kernel_id):
                # what jupyter_server does next (connect to the kernel) finds the socket already without delay
                seen.append(server.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                assert kernel_id == "k1"

            monkeypatch.setattr(handlers.VoilaKernelWebsocketHandler, "open", base_open)
            page = object.__new__(TutorKernelWebsocketHandler)
            page.ws_connection = Connection()
            await page.open("k1")
            return seen[0], server.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        finally:
            stream.close()
            client.close()

    during, after = run_apart(opened())
    assert during and after
