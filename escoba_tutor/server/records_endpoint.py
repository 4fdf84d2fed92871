"""The class records' one writer: the course server writes every record its students' kernels send it.

A kernel opens no database and is never told where it is. The kernel manager (kernels.py) gives each kernel
whose page has a nickname the address of this endpoint (:func:`records_url`: the server's own address on this
machine, under its base URL) and a secret token made for that kernel; the register (limits.py) keeps whose
kernel holds it: the nickname, the browser and the address of the page that started it.

``POST <base_url>class/record``, with the token in the ``X-Escoba-Record-Token`` header and one event as a small
JSON object (escoba_tutor.records.events.to_message) in the body:

- only from this machine (a loopback address, or the address the server itself listens on), else 403; a page's
  cookies are neither needed nor read, so the XSRF check does not apply (the token is the proof: a proxy on this
  machine, such as JupyterHub's, passes browsers' requests on from loopback, and without a kernel's token they
  are refused all the same);
- an unknown token (made up, or of a kernel gone for a while) gets 403; the record is the token's owner's:
  whatever nickname a body names is ignored;
- a body over 4 kB gets 413, one that is not an event (or whose values break the records' rules) 400;
- the bounds of docs/classroom.md: at most ``record_rate`` records a second per student (``record_burst`` at
  once) and ``address_record_rate`` per address (``address_record_burst``); beyond them a record is dropped
  (429), and the log says so a few times, then counts (logs.py);
- the record is written by the class store in a thread of its own (:data:`WRITING`), never on the event loop:
  a slow database delays the kernel's sending thread, not the class's clicks. 204 once it is stored; 503 when
  the database could not store it (the store logged why) or :data:`MAX_PENDING` records already wait for it.

Once the server has the record it writes it, whatever becomes of the kernel that sent it.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import socket
from concurrent.futures import ThreadPoolExecutor
from typing import NoReturn

from tornado import web

from ..records.events import MAX_MESSAGE_BYTES, RecordsError, from_message
from ..records.recorder import TOKEN_HEADER
from ..records.rows import event_row

__all__ = ["RecordHandler", "records_url", "from_this_machine", "RECORD_PATH", "WRITING", "MAX_PENDING"]

RECORD_PATH = "class/record"
# The store's writes, off the event loop: two threads (PostgreSQL takes both; SQLite's writers take turns anyway).
WRITING = ThreadPoolExecutor(max_workers=2, thread_name_prefix="escoba-records")
MAX_PENDING = 500  # records waiting for the store; beyond, the database is too slow for the class: 503
_PENDING = [0]  # records handed to WRITING and not written yet (counted on the event loop's thread)


def records_url(ip: str, port: int, base_url: str) -> tuple[str, frozenset[str]]:
    """Where this server's kernels send their records, and the server's own addresses besides loopback (a kernel
    on this machine reaching the server there comes from that address).

    A server listening on every address (``0.0.0.0``, ``::``) is reached on loopback; one listening on a single
    address (or name) there, since it listens nowhere else.

    >>> records_url("0.0.0.0", 8866, "/")
    ('http://127.0.0.1:8866/class/record', frozenset())
    >>> records_url("::", 8866, "/user/ana/")
    ('http://[::1]:8866/user/ana/class/record', frozenset())
    >>> records_url("127.0.0.1", 9000, "/")[0]
    'http://127.0.0.1:9000/class/record'
    """
    base_url = base_url.rstrip("/") + "/"
    if ip in ("", "0.0.0.0", "*"):
        return f"http://127.0.0.1:{port}{base_url}{RECORD_PATH}", frozenset()
    if ip == "::":
        return f"http://[::1]:{port}{base_url}{RECORD_PATH}", frozenset()
    try:
        found = [info[4][0] for info in socket.getaddrinfo(ip, port, type=socket.SOCK_STREAM)]
    except (OSError, UnicodeError):
        found = []
    first = str(found[0]) if found else "127.0.0.1"
    host = f"[{first}]" if ":" in first else first
    own = frozenset(str(address) for address in found if not ipaddress.ip_address(address).is_loopback)
    return f"http://{host}:{port}{base_url}{RECORD_PATH}", own


def from_this_machine(remote_ip: str | None, own: frozenset[str] = frozenset()) -> bool:
    """A connection from this machine: a loopback address (IPv4, IPv6, or IPv4 written as IPv6), or one of the
    server's own addresses.

    >>> [from_this_machine(ip) for ip in ("127.0.0.1", "127.3.2.1", "::1", "::ffff:127.0.0.1", "10.0.0.5", "", None)]
    [True, True, True, True, False, False, False]
    >>> from_this_machine("192.168.1.20", frozenset({"192.168.1.20"}))
    True
    """
    if not remote_ip:
        return False
    try:
        address = ipaddress.ip_address(remote_ip.split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or bool(mapped and mapped.is_loopback) or str(address) in own


class RecordHandler(web.RequestHandler):
    """``POST class/record``: one record from a student's kernel (see the module's text)."""

    def check_xsrf_cookie(self) -> None:
        """No cookie is read here: the kernel's token, from this machine only, is the proof."""

    def write_error(self, status_code: int, **kwargs) -> None:
        error = kwargs.get("exc_info", (None, None, None))[1]
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{getattr(error, 'log_message', None) or self._reason}\n")

    def _refuse(self, status: int, why: str) -> NoReturn:
        raise web.HTTPError(status, why)

    async def post(self) -> None:
        log = self.settings["escoba_log"]
        store = self.settings.get("escoba_class_store")
        if store is None:
            self._refuse(404, "the class board is off: nothing is recorded")
        if not from_this_machine(self.request.remote_ip, self.settings.get("escoba_record_addresses", frozenset())):
            log.warning("refused a record from %s: records come from this machine's kernels only",
                        self.request.remote_ip)
            self._refuse(403, "records come from this machine's kernels only")
        register = self.settings["escoba_register"]
        owner = register.record_owner(self.request.headers.get(TOKEN_HEADER, ""))
        if owner is None:
            log.warning("refused a record from %s: no kernel holds its token", self.request.remote_ip)
            self._refuse(403, "no kernel holds this token")
        if len(self.request.body) > MAX_MESSAGE_BYTES:
            self._refuse(413, f"a record is at most {MAX_MESSAGE_BYTES} bytes")
        try:
            message = json.loads(self.request.body)
            event = from_message(message, owner.nickname)  # the token's owner's, whatever the body says
            event_row(event)  # checked here: a malformed event is the kernel's fault (400), not the database's
        except (ValueError, RecordsError) as error:
            log.warning("refused a record from kernel %s: %s", owner.kernel_id, str(error)[:200])
            self._refuse(400, str(error)[:200])
        bound = register.may_record(owner)
        if bound is not None:
            limits = register.limits
            rate = limits.record_rate if bound == "student" else limits.address_record_rate
            log.warning("dropped a record from kernel %s: its %s sends more than %g records a second",
                        owner.kernel_id, "student" if bound == "student" else "address", rate)
            self._refuse(429, f"more than {rate:g} records a second from this {bound}")
        if _PENDING[0] >= MAX_PENDING:
            log.warning("dropped a record from kernel %s: %d records wait for the class database already",
                        owner.kernel_id, MAX_PENDING)
            self._refuse(503, "the class database is behind")
        _PENDING[0] += 1
        try:
            stored = await asyncio.wrap_future(WRITING.submit(store.record, event))
        finally:
            _PENDING[0] -= 1
        if not stored:
            self._refuse(503, "the class database could not store the record (the server's log says why)")
        self.set_status(204)
        self.finish()
