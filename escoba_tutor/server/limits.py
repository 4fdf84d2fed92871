"""What one client may cost the class server, and the register of who started which kernel.

One *client* is one browser: the server gives every browser a signed cookie of its own before it starts a kernel
for it, so thirty students behind one school address (NAT) are thirty clients. A script that throws its cookies
away is a new client on every page, so every address has a cap of its own too, high enough for a class, and a
rate of kernel starts (a token bucket a class arriving together does not empty). A full server admits a newcomer
from a quieter address by stopping the newest kernel of the address holding the most, if it holds more than its
share: the class is never locked out by one address.

Plain Python: the handlers (:mod:`.handlers`) and the kernel manager (:mod:`.kernels`) call the register.

>>> register = ClassRegister(Limits(max_kernels=3, per_client=2, per_address=3))
>>> a = register.admit("ana", "10.0.0.5"); register.bind(a, "k1")
>>> b = register.admit("ana", "10.0.0.5"); register.bind(b, "k2")
>>> register.admit("ana", "10.0.0.5")
Traceback (most recent call last):
...
escoba_tutor.server.limits.Refused: too_many_pages
>>> c = register.admit("luis", "10.0.0.5"); register.bind(c, "k3")
>>> register.admit("eva", "10.0.0.5")
Traceback (most recent call last):
...
escoba_tutor.server.limits.Refused: class_full
>>> register.admit("rosa", "10.0.0.9").evict  # a quieter address: the busiest one's newest page makes room
'k3'
>>> register.owner("k3") is None, register.owner("k1")
(True, 'ana')
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..engine.save import MAX_UPLOAD_BYTES

__all__ = ["Limits", "ClassRegister", "AddressConnections", "Admission", "connections_for_open_files", "Refused",
           "RecordOwner", "Buckets", "default_max_kernels",
           "machine_memory_mib", "raise_open_files", "upload_message_bytes"]

MIB = 1024 * 1024
KERNEL_BUDGET_MIB = 100  # a student's kernel: about 77 MiB resident on the play page (docs/classroom.md), with room
SYSTEM_RESERVE_MIB = 1024  # the system, the server and the teacher's own programs
MEMORY_SHARE = 0.75  # of what is left, the share the kernels may fill
FILES_PER_KERNEL = 20  # a student costs the server about 14 file handles (kernel sockets, websockets, pipes)
FILES_RESERVE = 256  # the server's own files and listening sockets
KERNEL_FILES = 16  # a kernel's handles in the server besides its page's connections: 14 measured (ZMQ, pipes)
CONNECTION_FILES_MARGIN = 64  # files the server opens after it starts, and refused connections being closed
MIN_CONNECTIONS = 16


def machine_memory_mib() -> int:
    """The machine's physical memory, in MiB (0 where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // MIB
    except (ValueError, OSError, AttributeError):
        return 0


def default_max_kernels(memory_mib: int, open_files: int) -> int:
    """How many kernels the machine holds: three quarters of its memory beyond 1 GiB, at 100 MiB a kernel, and no
    more than its open-file limit allows.

    >>> default_max_kernels(16 * 1024, 1 << 20), default_max_kernels(8 * 1024, 1 << 20)
    (115, 53)
    >>> default_max_kernels(16 * 1024, 1024)  # 1024 open files: 38 kernels at most
    38
    """
    by_memory = int((memory_mib - SYSTEM_RESERVE_MIB) * MEMORY_SHARE // KERNEL_BUDGET_MIB) if memory_mib else 60
    by_files = (open_files - FILES_RESERVE) // FILES_PER_KERNEL
    return max(2, min(by_memory, by_files))


def raise_open_files() -> tuple[int, int]:
    """Raise this process's soft limit of open files to its hard limit (as Jupyter Server does), so that a class
    does not run out of file handles at the usual soft limit of 1024. Returns the (soft, hard) limits now in
    force; (0, 0) where the system has no such limit."""
    try:
        import resource
    except ImportError:  # Windows
        return (0, 0)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (ValueError, OSError):  # macOS refuses more than OPEN_MAX: keep what there is
            wanted = soft
        soft = wanted
    return (soft, hard)


UPLOAD_ENVELOPE = 2048  # the comm message around a file's bytes: 383 bytes in a binary frame, measured in Chromium


def upload_message_bytes(size: int) -> int:
    """The largest websocket message a page sends to load a save file of ``size`` bytes: the bytes as base64 text
    (a binary frame carries them as they are, which is smaller) and the message around them.

    >>> upload_message_bytes(MAX_UPLOAD_BYTES) < Limits.message_bytes  # the largest file a page sends gets through
    True
    """
    return 4 * -(-size // 3) + UPLOAD_ENVELOPE


@dataclass(frozen=True)
class Limits:
    """The limits of one server (``escoba-tutor --max-kernels``, ``--kernel-memory``, or ``TutorVoila`` settings in a
    ``voila.json``; docs/classroom.md lists them)."""

    max_kernels: int  # every kernel on the server
    per_client: int = 5  # pages with a kernel, per browser
    per_address: int = 64  # per network address: a class of 30 behind one NAT address, twice over
    # A kernel whose page has not connected this long after it was sent is shut down (a script's GET, a page
    # closed while it loaded). Asking the server about the kernel (``api/kernels/<id>``) does not count as
    # connecting. On an overloaded 2-core machine pages connected up to 29 s after they were sent
    # (docs/classroom.md, "Limits"): the server's Settings give the value it runs with.
    connect_s: float = 45
    # A kernel whose page's last connection closed, and none came back this long after, is shut down (0: only the
    # idle cull stops it). A page gone without a goodbye (a tab killed, a browser closed) loses its kernel then;
    # a page whose connection drops reconnects within it (Voilà's page tries again at once, then after up to 1,
    # 3, 7, 15, 31 s).
    reconnect_s: float = 90
    sockets_per_kernel: int = 2  # the page's websocket, and one more while a reconnecting page replaces it
    kernel_memory_mib: int = 512  # the data a kernel may allocate (RLIMIT_DATA); 0: no limit
    # One websocket message from a page. The largest a lesson's widgets send is a game's save file when it is
    # loaded (about 5 kB for a long game; the page sends none over MAX_UPLOAD_BYTES); a bigger message is refused
    # from its length alone, before it is read.
    message_bytes: int = 64 * 1024
    write_buffer_bytes: int = 16 * MIB  # what may wait unsent to one page before the server drops it
    # What one browser's pages may send their kernels, all its connections together: this many bytes a second,
    # with bursts up to ``message_burst_bytes``; each message counts ``MESSAGE_COST`` bytes more than its length
    # (a message costs the server and the kernel work of its own). A student's clicks and typing send a few kB a
    # second at most; beyond the budget messages are dropped unread.
    message_rate_bytes: int = 64 * 1024
    message_burst_bytes: int = 1 * MIB
    # The class records a kernel sends its server (server/records_endpoint.py), per student (the browser that owns
    # the kernel: all its pages together) and per network address (a class behind one router shares one): this
    # many records a second, with bursts up to the burst. A student answering drills quickly makes one record
    # every 2 or 3 seconds, a class of 30 about 12 a second, and opening the lessons together a burst of one each;
    # beyond the bounds (a script's flood of hundreds a second) records are dropped.
    record_rate: float = 1.0
    record_burst: int = 30
    address_record_rate: float = 50.0
    address_record_burst: int = 1000
    # What the server keeps for a page while it has no connection (the kernel's messages, replayed when it
    # reconnects): beyond this many bytes the page cannot be brought up to date, so its kernel is shut down and
    # the page says its session has ended (the game comes back from the browser's memory after a reload).
    offline_buffer_bytes: int = 4 * MIB
    # ``request_states`` asks the kernel for every widget's state (about 370 kB on the play page): a page asks
    # once when it connects. Per page: a burst of this many, then ``state_requests_per_minute``; beyond it they
    # are dropped. One widget's ``request_state`` (the page's fallback) counts ``SINGLE_STATE_COST`` of one.
    state_requests_burst: int = 4
    state_requests_per_minute: float = 3
    # Kernel starts, as token buckets: per address (a school behind one router counts once) and per browser. A
    # class of 30 arriving together takes 30 to 60 starts at once (a landing page, then a lesson each), then a
    # few a minute; a script taking a new cookie for every page is held to the address's rate.
    starts_per_address_burst: int = 60
    starts_per_address_per_minute: float = 12
    # A student clicking through every lesson in a minute opens about a dozen pages, each a start of its own.
    starts_per_client_burst: int = 20
    starts_per_client_per_minute: float = 10

    def __post_init__(self) -> None:
        for name in ("record_rate", "record_burst", "address_record_rate", "address_record_burst"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be more than 0, not {getattr(self, name)}")
        needed = upload_message_bytes(MAX_UPLOAD_BYTES)
        if self.message_bytes < needed:
            raise ValueError(f"message_bytes must be at least {needed}: a page sends a save file of up to "
                             f"{MAX_UPLOAD_BYTES} bytes in one message")


class Refused(Exception):
    """No kernel for this page: ``class_full`` (the server or the address holds its maximum), ``too_many_pages``
    (this browser holds its maximum), ``browser_too_fast`` or ``address_too_fast`` (this browser, or this
    address, has started kernels faster than its rate)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class Seat:
    """One kernel: who started it and what its page did since."""

    client: str
    address: str
    sent_at: float | None = None  # the page was sent (clock time); None while it is being rendered
    sockets: int = 0
    connected: bool = False
    alone_since: float | None = None  # when its page's last connection closed (None: one is open, or never was)
    bound_at: float = 0.0  # when its kernel started
    connected_after: float | None = None  # seconds from the page sent to its first connection


@dataclass
class Ticket:
    """A kernel about to start for a page: it counts against the limits until it is bound or released (or, should
    neither ever happen, for ``TICKET_S`` seconds)."""

    client: str
    address: str
    issued_at: float = 0.0
    kernel_id: str | None = None
    evict: str | None = None  # a kernel of the busiest address to stop so that this page gets a place
    hurried: bool = False  # its address is starting kernels fast: the kernel runs at a lower priority


@dataclass
class RecordOwner:
    """Whose kernel holds a records token: the student's nickname, browser and address, as the page that started
    the kernel gave them (the kernel's own word is never taken for them)."""

    nickname: str
    client: str
    address: str
    kernel_id: str | None = None
    gone_at: float | None = None  # the kernel was shut down then: its last records may still be on their way


TICKET_S = 600  # far longer than any page takes to render (Voilà waits up to 60 s for a cell's outputs)
RECORD_GRACE_S = 30  # a shut-down kernel's token still takes the records it had on their way for this long
SINGLE_STATE_COST = 0.01  # one widget's state, as a share of every widget's: a page's fallback loads 400 at once
MESSAGE_COST = 1024  # what a message costs besides its bytes, in bytes of a browser's message budget
BUDGETS_KEPT = 10_000  # browsers whose message budget is remembered before the full ones are forgotten


class Buckets:
    """Token buckets, one per key: ``burst`` tokens at most, ``per_s`` more a second.

    >>> now = [0.0]
    >>> buckets = Buckets(burst=2, per_s=0.5, clock=lambda: now[0])
    >>> [buckets.take("a") for _ in range(3)], buckets.take("b")
    ([True, True, False], True)
    >>> now[0] += 2; buckets.take("a"), buckets.take("a")
    (True, False)
    """

    def __init__(self, burst: float, per_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.burst, self.per_s, self.clock = float(burst), per_s, clock
        self._left: dict[str, tuple[float, float]] = {}  # key -> (tokens left, at that time)

    def left(self, key: str) -> float:
        now = self.clock()
        tokens, then = self._left.get(key, (self.burst, now))
        return min(self.burst, tokens + (now - then) * self.per_s)

    def can(self, key: str, cost: float = 1) -> bool:
        return self.left(key) >= cost

    def take(self, key: str, cost: float = 1) -> bool:
        if self.left(key) < cost:
            return False
        self.spend(key, cost)
        return True

    def spend(self, key: str, cost: float = 1) -> None:
        """Take ``cost`` whether or not it is there (a budget checked against another one first)."""
        tokens = self.left(key)
        if key not in self._left and len(self._left) >= BUDGETS_KEPT:
            self._left = {k: v for k, v in self._left.items() if self.left(k) < self.burst}  # the full ones go
        self._left[key] = (tokens - cost, self.clock())

    def forget(self, key: str) -> None:
        self._left.pop(key, None)


def connections_for_open_files(open_files: int, kernels: int, open_now: int) -> int:
    """How many connections the server may hold at once with ``open_files`` file handles: what is left once the
    files open now (``open_now``: logs, the class database, the listening sockets), a margin for the files the
    server opens later (and refused connections being closed), and every kernel's own handles are set aside.

    >>> connections_for_open_files(1024, 38, 12)  # the usual limit: 38 students, and 340 connections
    340
    >>> connections_for_open_files(300, 2, 12), connections_for_open_files(100, 38, 12)  # never none at all
    (192, 16)
    """
    return max(MIN_CONNECTIONS, open_files - open_now - CONNECTION_FILES_MARGIN - kernels * KERNEL_FILES)


@dataclass(frozen=True)
class Admission:
    """What :meth:`AddressConnections.admit` decided: the connection is counted (true), or refused because its
    address holds its cap (``why`` "address") or is the busiest of a full server ("server"). ``made_room``: the
    address whose newest connection was closed so that this one is counted."""

    why: str = ""
    made_room: str = ""

    def __bool__(self) -> bool:
        return not self.why


class AddressConnections:
    """The connections open from each network address, each counted from the moment it is accepted until it is
    closed, whatever it carries meanwhile (requests, then perhaps a page's websocket); at most ``cap`` per address,
    and ``total`` in all (0: no bound but the addresses'). A connection is anything with ``closed()`` and
    ``close()`` methods (Tornado's streams): the closed ones are looked for, and no longer counted, when their
    address reaches its cap or the server its total, and at the sweep of every address once a minute.

    >>> class Connection:
    ...     def __init__(self): self.open = True
    ...     def closed(self): return not self.open
    ...     def close(self): self.open = False
    >>> now = [0.0]
    >>> held = AddressConnections(cap=2, clock=lambda: now[0])
    >>> first, second, third = Connection(), Connection(), Connection()
    >>> [bool(held.admit("10.0.0.66", each)) for each in (first, second, third)]
    [True, True, False]
    >>> bool(held.admit("10.0.0.5", Connection())), held.open("10.0.0.66")  # another address has its own
    (True, 2)
    >>> first.open = False; bool(held.admit("10.0.0.66", third))
    True

    Refusals are told once a minute per address: :meth:`refused` says how many to tell, or None until then.

    >>> [held.refused("10.0.0.66") for _ in range(3)]
    [1, None, None]
    >>> now[0] += 60; held.refused("10.0.0.66")
    3

    When the server holds its ``total``, a connection from a quieter address closes the newest connection of the
    busiest one (a page's connection to its kernel, marked ``page_socket``, last); one from the busiest address (or
    as busy, but for one) is refused.

    >>> full = AddressConnections(cap=10, total=4)
    >>> script = [Connection() for _ in range(3)]
    >>> [bool(full.admit("10.0.0.66", each)) for each in script] + [bool(full.admit("10.0.0.5", Connection()))]
    [True, True, True, True]
    >>> full.admit("10.0.0.66", Connection()).why  # the busiest address is refused its next one
    'server'
    >>> ana = full.admit("10.0.0.9", Connection())  # a quieter address gets in: the busiest one's newest goes
    >>> bool(ana), ana.made_room, [each.open for each in script]
    (True, '10.0.0.66', [True, True, False])
    >>> script[1].page_socket = True  # a page's connection to its kernel: the newest of the others goes first
    >>> full.admit("10.0.0.7", Connection()).made_room, [each.open for each in script]
    ('10.0.0.66', [False, True, False])
    >>> full.admit("10.0.0.7", Connection()).why  # one each: nobody is closed for a second one
    'server'
    """

    def __init__(self, cap: int, clock: Callable[[], float] = time.monotonic, total: int = 0) -> None:
        self.cap, self.clock, self.total = cap, clock, total
        self._open: dict[str, list] = {}  # address -> its connections, oldest first, some perhaps closed since
        self._told: dict[str, tuple[float, int]] = {}  # address -> (its refusals last told, refused since)
        self._swept = clock()
        self._counted = 0  # connections in _open, closed ones not yet looked for included

    def open(self, address: str) -> int:
        """The connections open from ``address`` now."""
        listed = self._open.get(address, [])
        held = [each for each in listed if not each.closed()]
        self._counted -= len(listed) - len(held)
        if held:
            self._open[address] = held
        else:
            self._open.pop(address, None)
        return len(held)

    def held(self) -> int:
        """The connections open now, from every address."""
        for address in list(self._open):
            self.open(address)
        return self._counted

    def admit(self, address: str, connection) -> Admission:
        """Count ``connection``, just accepted from ``address``, or say why not (it is then not counted)."""
        now = self.clock()
        if now - self._swept >= 60:  # addresses that have gone leave nothing behind
            self._swept = now
            self.held()
        listed = self._open.get(address, [])
        if len(listed) >= self.cap and self.open(address) >= self.cap:  # (closed ones are looked for only then)
            return Admission("address")
        made_room = ""
        if self.total and self._counted >= self.total and self.held() >= self.total:
            made_room = self._make_room(address)
            if not made_room:
                return Admission("server")
        self._open.setdefault(address, []).append(connection)
        self._counted += 1
        return Admission(made_room=made_room)

    def _make_room(self, address: str) -> str:
        """Close the newest connection of the address holding the most, if it holds at least two more than
        ``address`` (so the newcomer's address never ends up the busier): that address, or "" if none."""
        busiest = max(self._open, key=lambda each: len(self._open[each]), default="")
        if not busiest or busiest == address or len(self._open[busiest]) < len(self._open.get(address, ())) + 2:
            return ""
        listed = self._open[busiest]
        # a page's connection to its kernel goes last: the others (a browser's idle ones, a script's) cost nobody
        # more than a new connection when needed
        spare = [n for n, each in enumerate(listed) if not getattr(each, "page_socket", False)]
        newest = listed.pop(spare[-1] if spare else -1)
        self._counted -= 1
        if not self._open[busiest]:
            del self._open[busiest]
        newest.close()
        return busiest

    def refused(self, address: str) -> int | None:
        """One more connection of ``address`` refused: how many to tell in the log now (this one and those not yet
        told), or None if its last line is under a minute old."""
        now = self.clock()
        told, since = self._told.get(address, (None, 0))
        if told is not None and now - told < 60:
            self._told[address] = (told, since + 1)
            return None
        if len(self._told) >= BUDGETS_KEPT:
            self._told = {key: value for key, value in self._told.items() if now - value[0] < 60}
        self._told[address] = (now, 0)
        return since + 1


@dataclass
class ClassRegister:
    limits: Limits
    clock: Callable[[], float] = time.monotonic
    seats: dict[str, Seat] = field(default_factory=dict)
    pending: list[Ticket] = field(default_factory=list)
    budgets: dict[str, tuple[float, float]] = field(default_factory=dict)  # client -> (bytes left, at that time)
    address_starts: Buckets = field(init=False)
    client_starts: Buckets = field(init=False)
    state_requests: Buckets = field(init=False)  # per kernel: its page's requests for every widget's state
    student_records: Buckets = field(init=False)  # per browser: the class records its kernels send
    address_records: Buckets = field(init=False)  # per address: the same, for everyone behind it
    record_tokens: dict[str, RecordOwner] = field(default_factory=dict)

    def __post_init__(self) -> None:
        limits = self.limits
        self.address_starts = Buckets(limits.starts_per_address_burst, limits.starts_per_address_per_minute / 60,
                                      self.clock)
        self.client_starts = Buckets(limits.starts_per_client_burst, limits.starts_per_client_per_minute / 60,
                                     self.clock)
        self.state_requests = Buckets(limits.state_requests_burst, limits.state_requests_per_minute / 60,
                                      self.clock)
        self.student_records = Buckets(limits.record_burst, limits.record_rate, self.clock)
        self.address_records = Buckets(limits.address_record_burst, limits.address_record_rate, self.clock)

    def _count(self, **which: str) -> int:
        (key, value), = which.items()
        return (sum(getattr(seat, key) == value for seat in self.seats.values())
                + sum(getattr(ticket, key) == value for ticket in self.pending))

    def kernels(self) -> int:
        return len(self.seats) + len(self.pending)

    def admit(self, client: str, address: str) -> Ticket:
        """A ticket for a new kernel, or :class:`Refused`. Counted at once: pages requested together cannot all
        pass the check before any kernel exists. When the server is full, a newcomer from a quieter address gets
        the place of the newest kernel of the busiest address, if that address holds more than its fair share
        (the ticket's ``evict``, already forgotten here: the caller stops it); a student of a small address is
        never the one stopped.

        >>> now = [0.0]
        >>> register = ClassRegister(Limits(max_kernels=4, per_client=2, starts_per_address_burst=3,
        ...                                 starts_per_address_per_minute=6), clock=lambda: now[0])
        >>> for n in range(3): register.bind(register.admit(f"script{n}", "10.0.0.66"), f"s{n}")
        >>> register.admit("script3", "10.0.0.66")  # a new cookie each time: held to the address's rate
        Traceback (most recent call last):
        ...
        escoba_tutor.server.limits.Refused: address_too_fast
        >>> now[0] += 10; register.bind(register.admit("script3", "10.0.0.66"), "s3")  # one more in 10 s
        >>> ticket = register.admit("eva", "10.0.0.5")  # the server is full: the busiest address's newest goes
        >>> ticket.evict, register.kernels()
        ('s3', 4)
        """
        now = self.clock()
        self.pending = [ticket for ticket in self.pending if now - ticket.issued_at < TICKET_S]
        if self._count(client=client) >= self.limits.per_client:
            raise Refused("too_many_pages")
        if not self.client_starts.can(client):
            raise Refused("browser_too_fast")
        if not self.address_starts.can(address):
            raise Refused("address_too_fast")
        if self._count(address=address) >= self.limits.per_address:
            raise Refused("class_full")
        evict = None
        if self.kernels() >= self.limits.max_kernels:
            evict = self._place_for(address)
            if evict is None:
                raise Refused("class_full")
            self.forget(evict)
        self.client_starts.take(client)
        self.address_starts.take(address)
        hurried = self.address_starts.left(address) < self.limits.starts_per_address_burst / 2
        ticket = Ticket(client, address, now, evict=evict, hurried=hurried)
        self.pending.append(ticket)
        return ticket

    def _place_for(self, address: str) -> str | None:
        """The kernel to stop so that a page from ``address`` gets a place on a full server: the newest (one
        whose page never connected first) of the address holding the most, if that is another address and it
        holds more than its fair share and more than one browser may hold; None if there is none."""
        held: dict[str, int] = {}
        for seat in self.seats.values():
            held[seat.address] = held.get(seat.address, 0) + 1
        for ticket in self.pending:
            held[ticket.address] = held.get(ticket.address, 0) + 1
        if not held:
            return None
        busiest = max(held, key=lambda each: held[each])
        # its fair share, and never fewer than one browser may hold: one student's pages are never stopped
        fair = max(self.limits.max_kernels / len({*held, address}), self.limits.per_client)
        if busiest == address or held[busiest] <= fair:
            return None
        theirs = [(seat.connected, seat.bound_at, kernel_id) for kernel_id, seat in self.seats.items()
                  if seat.address == busiest]
        if not theirs:
            return None
        return max(theirs, key=lambda each: (not each[0], each[1]))[2]

    def bind(self, ticket: Ticket, kernel_id: str) -> None:
        """The ticket's kernel has started."""
        if ticket in self.pending:
            self.pending.remove(ticket)
        ticket.kernel_id = kernel_id
        self.seats[kernel_id] = Seat(ticket.client, ticket.address, bound_at=self.clock())

    def release(self, ticket: Ticket) -> None:
        """The page is done (sent, or failed): a ticket that never got a kernel counts no more; a kernel's page
        starts its time to connect."""
        if ticket in self.pending:
            self.pending.remove(ticket)
        seat = self.seats.get(ticket.kernel_id or "")
        if seat is not None and seat.sent_at is None:
            seat.sent_at = self.clock()

    def kernels_of(self, client: str) -> int:
        """The kernels this browser holds (started, not those of pages still being rendered)."""
        return sum(seat.client == client for seat in self.seats.values())

    def may_send(self, client: str, size: int) -> bool:
        """Whether a message of ``size`` bytes from this browser's pages fits its message budget (counted if so).

        >>> now = [0.0]
        >>> register = ClassRegister(Limits(max_kernels=9, message_rate_bytes=10_000, message_burst_bytes=20_000),
        ...                          clock=lambda: now[0])
        >>> [register.may_send("ana", 3976) for _ in range(5)]  # 5,000 bytes each with their cost; a burst of 20,000
        [True, True, True, True, False]
        >>> register.may_send("eva", 3976)  # every browser has its own
        True
        >>> now[0] += 1; [register.may_send("ana", 3976) for _ in range(3)]  # 10,000 bytes more a second
        [True, True, False]
        """
        limits, now = self.limits, self.clock()
        left, then = self.budgets.get(client, (float(limits.message_burst_bytes), now))
        left = min(float(limits.message_burst_bytes), left + (now - then) * limits.message_rate_bytes)
        cost = size + MESSAGE_COST
        allowed = cost <= left
        if allowed:
            left -= cost
        if client not in self.budgets and len(self.budgets) >= BUDGETS_KEPT:
            self._forget_full_budgets(now)
        self.budgets[client] = (left, now)
        return allowed

    def _forget_full_budgets(self, now: float) -> None:
        limits = self.limits
        self.budgets = {client: (left, then) for client, (left, then) in self.budgets.items()
                        if left + (now - then) * limits.message_rate_bytes < limits.message_burst_bytes}

    def owner(self, kernel_id: str) -> str | None:
        seat = self.seats.get(kernel_id)
        return seat.client if seat else None

    def may_ask_states(self, kernel_id: str, cost: float = 1) -> bool:
        """Whether this kernel's page may ask for every widget's state now (counted if so): a page asks once as it
        connects; a script asking again and again makes its kernel send hundreds of kB each time.

        >>> register = ClassRegister(Limits(max_kernels=9, state_requests_burst=2), clock=lambda: 0.0)
        >>> [register.may_ask_states("k1") for _ in range(3)], register.may_ask_states("k2")
        ([True, True, False], True)
        """
        return self.state_requests.take(kernel_id, cost)

    def socket_opened(self, kernel_id: str) -> bool:
        """A page connects to its kernel; False when the kernel already has all the connections it may have."""
        seat = self.seats.get(kernel_id)
        if seat is None or seat.sockets >= self.limits.sockets_per_kernel:
            return False
        if not seat.connected and seat.sent_at is not None:
            seat.connected_after = self.clock() - seat.sent_at
        seat.sockets += 1
        seat.connected = True
        seat.alone_since = None
        return True

    def socket_closed(self, kernel_id: str) -> None:
        seat = self.seats.get(kernel_id)
        if seat is not None:
            seat.sockets = max(0, seat.sockets - 1)
            if seat.sockets == 0:
                seat.alone_since = self.clock()

    def forget(self, kernel_id: str) -> None:
        """The kernel has been shut down (by its page, by culling, or by :meth:`unconnected` or :meth:`gone`)."""
        self.seats.pop(kernel_id, None)
        self.state_requests.forget(kernel_id)
        now = self.clock()
        for owner in self.record_tokens.values():
            if owner.kernel_id == kernel_id and owner.gone_at is None:
                owner.gone_at = now

    # -- the class records' tokens and bounds (server/records_endpoint.py) -----------------------------------------

    def issue_record_token(self, nickname: str, client: str, address: str) -> str:
        """A new secret for a kernel about to start for ``nickname``'s page: the kernel sends its records with it,
        and the server records them for that student (and no other) while the kernel lives.

        >>> register = ClassRegister(Limits(max_kernels=9))
        >>> token = register.issue_record_token("Ana", "c1", "10.0.0.5"); register.bind_record_token(token, "k1")
        >>> register.record_owner(token).nickname, register.record_owner("made up")
        ('Ana', None)
        """
        now = self.clock()
        self.record_tokens = {token: owner for token, owner in self.record_tokens.items()
                              if owner.gone_at is None or now - owner.gone_at < RECORD_GRACE_S}
        token = secrets.token_urlsafe(32)
        self.record_tokens[token] = RecordOwner(nickname, client, address)
        return token

    def bind_record_token(self, token: str, kernel_id: str) -> None:
        owner = self.record_tokens.get(token)
        if owner is not None:
            owner.kernel_id = kernel_id
            if kernel_id not in self.seats:  # started without a seat (or forgotten already): it lives no longer
                owner.gone_at = self.clock()

    def drop_record_token(self, token: str) -> None:
        """The kernel did not start: its token is worth nothing."""
        self.record_tokens.pop(token, None)

    def record_owner(self, token: str) -> RecordOwner | None:
        """Whose kernel holds ``token``; None for a token never issued, or of a kernel gone for a while."""
        owner = self.record_tokens.get(token) if isinstance(token, str) else None
        if owner is None or (owner.gone_at is not None and self.clock() - owner.gone_at >= RECORD_GRACE_S):
            return None
        return owner

    def may_record(self, owner: RecordOwner) -> str | None:
        """None when one more record of ``owner``'s fits the bounds (counted then); else which bound it passes:
        ``student`` or ``address``.

        >>> register = ClassRegister(Limits(max_kernels=9, record_rate=1, record_burst=2, address_record_rate=1,
        ...                                 address_record_burst=3), clock=lambda: 0.0)
        >>> ana, eva, luis = (RecordOwner(name, name, "10.0.0.5") for name in ("Ana", "Eva", "Luis"))
        >>> [register.may_record(ana) for _ in range(3)], register.may_record(eva), register.may_record(luis)
        ([None, None, 'student'], None, 'address')
        """
        if self.student_records.left(owner.client) < 1:
            return "student"
        if self.address_records.left(owner.address) < 1:
            return "address"
        self.student_records.spend(owner.client)
        self.address_records.spend(owner.address)
        return None

    def unconnected(self) -> list[str]:
        """The kernels whose page was sent more than ``connect_s`` ago and never connected (a script's GET, a
        page closed while it loaded). A script asking about its kernel (``api/kernels/<id>``) is no page connected.
        """
        now = self.clock()
        return [kernel_id for kernel_id, seat in self.seats.items()
                if not seat.connected and seat.sent_at is not None and now - seat.sent_at >= self.limits.connect_s]

    def gone(self) -> list[str]:
        """The kernels whose page connected, then lost its last connection more than ``reconnect_s`` ago and has
        not connected again: a page closed without a goodbye (a phone's tab killed, a browser closed, a network
        cut). Only a closed connection counts: a page that is merely slow, or in a background tab whose timers the
        browser throttles or freezes, keeps its connection open.

        >>> now = [0.0]
        >>> register = ClassRegister(Limits(max_kernels=9, reconnect_s=90), clock=lambda: now[0])
        >>> register.bind(register.admit("ana", "10.0.0.5"), "k1"); register.socket_opened("k1")
        True
        >>> now[0] += 3600; register.gone()  # an hour connected, idle or in a background tab: kept
        []
        >>> register.socket_closed("k1"); now[0] += 60; register.socket_opened("k1")  # back within the grace
        True
        >>> register.socket_closed("k1"); now[0] += 89; register.gone()
        []
        >>> now[0] += 1; register.gone()
        ['k1']
        """
        if self.limits.reconnect_s <= 0:
            return []
        now = self.clock()
        return [kernel_id for kernel_id, seat in self.seats.items()
                if seat.sockets == 0 and seat.alone_since is not None
                and now - seat.alone_since >= self.limits.reconnect_s]
