"""What plain connections cost the class server: large request bodies and idle connections.

    nice -n 10 python benchmarks/hostile_connections.py [--open-files 1024] [--idle 1100]

One ``escoba-tutor`` server (the course's lessons, the limits' defaults) is started in a process whose limit of
open files, soft and hard, is ``--open-files`` (a machine whose hard limit is the common 1024), and probed on
loopback as a script would (docs/hostile-input.md, "Resource limits"):

1. **large bodies**: 5 POSTs of 90 MB at once to Voilà's close beacon, naming a host the server refuses, while
   another student's request (the landing page's redirect) is timed every 0.2 s: the server's memory at its peak,
   and the slowest of those requests;
2. **bodies held**: 80 connections that each send 900 kB of a POST's body (under the 1 MiB cap the server had,
   far over what its forms send) and hold on: how much the server grew while they were open;
3. **idle connections**: ``--idle`` connections from one address (or, in turn, from ``--addresses`` loopback
   addresses, as scripts on many machines) that send nothing, then a student's browser from another address asks
   for a lesson: how long until the page (with its kernel) arrives, if it does within 120 s. ``--idle-only``: this
   step alone.

Printed: one run's figures with the load average beside each. Run it with ``PYTHONPATH`` pointing at the code to
measure (a checkout before and after a change).
"""

from __future__ import annotations

import argparse
import functools
import http.client
import socket
import sys
import tempfile
import threading
import time
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

from _voila_bench import ROOT, Server, free_port, load_average, rss_mib

LIMITED = ("import resource, runpy, sys; n = int(sys.argv.pop(1)); resource.setrlimit(resource.RLIMIT_NOFILE, (n, n)); "
           "runpy.run_module('escoba_tutor.cli', run_name='__main__', alter_sys=True)")


def start(folder: Path, open_files: int) -> Server:
    port = free_port()
    command = [sys.executable, "-c", LIMITED, str(open_files), "serve", "--no-browser", "--port", str(port),
               "--lessons", str(ROOT / "lessons")]
    server = Server(command, port, folder / "server.log", cwd=ROOT)
    server.wait()
    time.sleep(2)  # its start-up done
    return server


def click_s(server: Server) -> float:
    """One other student's request: the landing page's redirect, in seconds (60 if it never came)."""
    started = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
            sock.sendall(f"GET /?lang=en HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
            sock.recv(100)
    except OSError:
        return 60.0
    return time.monotonic() - started


def post(server: Server, host: str, size: int, hold: bool) -> None:
    """A POST of ``size`` bytes to the close beacon (all but its last byte when ``hold``)."""
    head = f"POST /voila/api/shutdown/0123 HTTP/1.1\r\nHost: {host}\r\nContent-Length: {size}\r\n\r\n".encode()
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=60)
    try:
        sock.sendall(head)
        block, sent = b"x" * (1 << 20), 0
        while sent < size - 1:
            part = block[:min(len(block), size - 1 - sent)]
            sock.sendall(part)
            sent += len(part)
        if not hold:
            sock.sendall(b"x")
            sock.recv(100)
    except OSError:  # refused: the server closed the connection
        sock.close()
        return
    if not hold:
        sock.close()
    else:
        HELD.append(sock)


HELD: list[socket.socket] = []
STUDENT = "127.0.0.3"  # another machine than the script's 127.0.0.1 (Linux routes all of 127.0.0.0/8 here)


def large_bodies(server: Server) -> None:
    pid = server.process.pid
    before = peak = rss_mib(pid)
    slowest = 0.0
    senders = [threading.Thread(target=post, args=(server, "rebind.example", 90 * 1000 * 1000, False))
               for _ in range(5)]
    for sender in senders:
        sender.start()
    while any(sender.is_alive() for sender in senders):
        peak = max(peak, rss_mib(pid))
        slowest = max(slowest, click_s(server))
        time.sleep(0.2)
    print(f"5 POSTs of 90 MB, refused host: server {before:.0f} MiB -> peak {peak:.0f} MiB, after "
          f"{rss_mib(pid):.0f} MiB; another student's request at most {slowest:.2f} s (load {load_average()})",
          flush=True)


def held_bodies(server: Server) -> None:
    pid = server.process.pid
    before = rss_mib(pid)
    for _ in range(80):
        post(server, f"127.0.0.1:{server.port}", 900 * 1024, hold=True)
    time.sleep(0.5)
    during = rss_mib(pid)
    print(f"80 POST bodies of 900 kB held open: server {before:.0f} MiB -> {during:.0f} MiB "
          f"(load {load_average()})", flush=True)
    for sock in HELD:
        sock.close()
    HELD.clear()


def idle_connections(server: Server, count: int, addresses: int) -> None:
    idle = []
    sources = ["127.0.0.1"] if addresses == 1 else [f"127.0.0.{10 + n}" for n in range(addresses)]
    for n in range(count):
        try:
            idle.append(socket.create_connection(("127.0.0.1", server.port), timeout=2,
                                                 source_address=(sources[n % len(sources)], 0)))
        except OSError:
            break
    opened = time.monotonic()
    jar = CookieJar()
    handler = urllib.request.HTTPHandler()  # the student's browser, from another address than the script's
    handler.http_open = lambda request: handler.do_open(  # type: ignore[method-assign]
        functools.partial(http.client.HTTPConnection, source_address=(STUDENT, 0)), request)
    browser = urllib.request.build_opener(handler, urllib.request.HTTPCookieProcessor(jar))
    try:
        with browser.open(server.url + "voila/render/es/index.ipynb", timeout=120) as response:
            got = f"status {response.status} after {time.monotonic() - opened:.1f} s"
    except OSError as error:
        got = f"no page after {time.monotonic() - opened:.0f} s ({type(error).__name__})"
    where = "one address" if addresses == 1 else f"{addresses} addresses"
    print(f"{len(idle)} idle connections of {count} opened from {where}: a student's lesson page from another: "
          f"{got} (load {load_average()})", flush=True)
    for sock in idle:
        sock.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--open-files", type=int, default=1024)
    parser.add_argument("--idle", type=int, default=1100)
    parser.add_argument("--addresses", type=int, default=1, choices=range(1, 240), metavar="1-239",
                        help="loopback addresses the idle connections come from, in turn (127.0.0.10 and on)")
    parser.add_argument("--idle-only", action="store_true", help="only the idle connections (step 3)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hostile-connections-") as folder:
        server = start(Path(folder), args.open_files)
        try:
            print(f"server idle: {rss_mib(server.process.pid):.0f} MiB, open files {args.open_files} "
                  f"(load {load_average()})", flush=True)
            if not args.idle_only:
                large_bodies(server)
                held_bodies(server)
                time.sleep(65)  # what the previous steps left open has timed out, with either version's timeouts
            idle_connections(server, args.idle, args.addresses)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
