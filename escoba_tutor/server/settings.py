"""The server's settings, in one object: :class:`Settings`, built once and checked as it is built.

The ``escoba-tutor`` command builds it from its options (cli.py), the course server on a JupyterHub from the
environment the hub gives it (hub.py, :func:`~.hub.hub_settings`), a Python session from :func:`~.app.serve`'s
keywords. The server reads it (app.py turns it into Voilà's configuration, where a ``voila.json`` may still set
the limits of docs/classroom.md), and what a student's kernel needs of it (the house rules, the language, the
memory limit) is given to each kernel by the kernel manager as the kernel starts (kernels.py): nothing changes
the server's own environment while it serves.

>>> Settings(port=9001, lang="en").base_url
'/'
>>> Settings(lang="fr")
Traceback (most recent call last):
...
escoba_tutor.engine.errors.EscobaError: no language 'fr': choose es or en
>>> Settings(base_url="tutor")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
escoba_tutor.engine.errors.EscobaError: base_url must start and end with '/', ...
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypedDict

from ..engine.errors import EscobaError
from ..engine.rules import PROFILES, Rules
from ..text.translator import LANGUAGES
from .limits import Limits

__all__ = ["Settings", "LANGS", "previous_run", "LISTEN_FDS", "TEACHER_KEY_ENV", "RULES_ENV", "LANG_ENV"]

LANGS = tuple(LANGUAGES)  # the course's languages, as the translator has them
# Set only for the server's own fresh start (app.py, TutorVoila.listen): the sockets it listens on, and the
# teacher's key, so that the teacher's link stays the same. The kernel manager never gives them to a kernel.
LISTEN_FDS = "ESCOBA_TUTOR_LISTEN_FDS"
TEACHER_KEY_ENV = "ESCOBA_TUTOR_TEACHER_KEY"
# What every kernel of the server gets (the widgets read their house rules there: widgets/page.py)
RULES_ENV, LANG_ENV = "ESCOBA_TUTOR_RULES", "ESCOBA_TUTOR_LANG"
MAX_CLASS_SIZE = 1000  # kernels kept ready at most (each holds about 60 MiB while it waits)
MIN_BODY_BYTES = 4096  # the largest form the server answers (the class board's, the nickname's) sends under 1 kB


def _bad(message: str, setting: str) -> EscobaError:
    return EscobaError(message, code="bad_setting", setting=setting)


@dataclass(frozen=True)
class Settings:
    """Everything the command line or the hub's environment sets for one server."""

    port: int = 8866
    ip: str = "127.0.0.1"
    lang: str = "es"  # the landing page's language, when the URL names none
    rules: Rules = field(default_factory=lambda: PROFILES["escoba"])  # every widget's house rules
    open_browser: bool = True
    cull_idle: int = 600  # seconds before an idle kernel is stopped (0: never)
    # seconds a kernel waits for its page to connect again once its last connection closed: a page gone without a
    # goodbye (a tab killed, a browser closed) frees its kernel then, not at the idle cull (0: only the idle cull)
    reconnect_s: int = 90
    # seconds a kernel waits for its page to connect after the page was sent: a script's GET (a new cookie each
    # time) costs a kernel only this long. Pages connected within 29 s on a 2-core machine overloaded (load 15 to
    # 26) by a class of 30 arriving and other work, and 3 of 30 took over 20 s (docs/classroom.md, "Limits")
    connect_s: int = 45
    lessons: str | None = None  # the lessons folder (None: the installed lessons)
    base_url: str = "/"
    start_afresh: bool = False  # only the escoba-tutor command: the process runs its command again once a class left
    max_kernels: int = 0  # 0: from the machine's memory
    kernel_memory: int | None = None  # MiB a kernel may allocate; None: the limits' default; 0: no limit
    allow_hosts: tuple[str, ...] = ()
    class_board: bool = True
    class_db: str | None = None  # a path or URL; None: the records' default place
    # On a JupyterHub: the hub user whose server this is. Their pages are recorded under their hub name (no
    # nickname form), and this server serves no teacher's board (the hub's class-board service does: hub_board.py)
    hub_user: str = ""
    teacher_key: str = ""  # "": a new one for this run
    listen_fds: tuple[int, ...] = ()  # the sockets of the server's previous run, when it starts afresh
    activity_s: int = 60  # on a hub: how often the hub is told of the students' last activity
    # the class records the kernels send the server (docs/classroom.md, "Limits"): a second and at once, per
    # student and per network address; beyond them records are dropped
    record_rate: float = Limits.record_rate
    record_burst: int = Limits.record_burst
    address_record_rate: float = Limits.address_record_rate
    address_record_burst: int = Limits.address_record_burst
    # The HTTP server's limits (app.http_limits). A request's body: the server's forms and Voilà's close beacon send
    # a few hundred bytes, a save file travels over the page's websocket; a longer body is refused from its length.
    request_body_bytes: int = 64 * 1024
    # seconds a connection may stay open without a request (or take to send its headers): a browser opens another
    # when it needs one; 1,100 idle connections used to hold every file handle a server at 1024 had
    idle_connection_s: int = 20
    body_timeout_s: int = 30  # seconds a request may take to send its body (64 kB over the slowest school link)
    # connections open at once from one network address: one browser holds up to 11 (6 for a page's files, one
    # websocket per page: benchmarks/page_connections.py, 5 tabs), a class of 30 behind one school address about 330
    # at the very most; a script opening more is refused (429) as each is accepted
    connections_per_address: int = 400
    # pages the server starts at once (a page's kernel started and its lesson run: a second or two of a core); the
    # others wait their turn, fairly between addresses. 0: two per core of the machine
    max_starting_kernels: int = 0
    # students expected at once: that many kernels are started, with the course imported, before they arrive
    # (pool.py); None: a few (pool.DEFAULT_POOL), none on a JupyterHub (one student's server); 0: no pool
    class_size: int | None = None

    def __post_init__(self) -> None:
        if self.lang not in LANGS:
            raise EscobaError(f"no language {self.lang!r}: choose es or en", code="bad_language")
        if not isinstance(self.rules, Rules):
            raise _bad(f"rules must be a Rules object (escoba_tutor.engine.rules.as_rules), not "
                       f"{type(self.rules).__name__}", "rules")
        if not 1 <= self.port <= 65535:
            raise _bad(f"port must be from 1 to 65535, not {self.port}", "port")
        if not self.base_url.startswith("/") or not self.base_url.endswith("/"):
            raise _bad(f"base_url must start and end with '/', not {self.base_url!r}", "base_url")
        for name in ("cull_idle", "reconnect_s", "max_kernels", "max_starting_kernels"):
            if getattr(self, name) < 0:
                raise _bad(f"{name} must be 0 or more, not {getattr(self, name)}", name)
        if self.connect_s < 1:
            raise _bad(f"connect_s must be at least 1, not {self.connect_s}", "connect_s")
        if self.class_size is not None and not 0 <= self.class_size <= MAX_CLASS_SIZE:
            raise _bad(f"class_size must be from 0 to {MAX_CLASS_SIZE}, not {self.class_size}", "class_size")
        if self.kernel_memory is not None and self.kernel_memory < 0:
            raise _bad(f"kernel_memory must be 0 (no limit) or more, not {self.kernel_memory}", "kernel_memory")
        for name in ("record_rate", "record_burst", "address_record_rate", "address_record_burst"):
            if not getattr(self, name) > 0:
                raise _bad(f"{name} must be more than 0, not {getattr(self, name)}", name)
        if self.request_body_bytes < MIN_BODY_BYTES:
            raise _bad(f"request_body_bytes must be at least {MIN_BODY_BYTES} (the server's forms), not "
                       f"{self.request_body_bytes}", "request_body_bytes")
        if self.connections_per_address < 1:
            raise _bad(f"connections_per_address must be at least 1, not {self.connections_per_address}",
                       "connections_per_address")
        for name in ("idle_connection_s", "body_timeout_s"):
            if getattr(self, name) < 1:
                raise _bad(f"{name} must be at least 1 second, not {getattr(self, name)}", name)
        if self.activity_s < 1:
            raise _bad(f"activity_s must be at least 1, not {self.activity_s}", "activity_s")
        if isinstance(self.allow_hosts, str):  # one name given as text would count as its letters
            raise _bad("allow_hosts is a tuple of host names, not one text", "allow_hosts")
        object.__setattr__(self, "allow_hosts", tuple(self.allow_hosts))
        object.__setattr__(self, "listen_fds", tuple(self.listen_fds))


class PreviousRun(TypedDict):
    listen_fds: tuple[int, ...]
    teacher_key: str


def previous_run(env: Mapping[str, str]) -> PreviousRun:
    """What a server starting afresh gets from its previous run (the sockets, the teacher's key), as settings.

    >>> previous_run({"ESCOBA_TUTOR_LISTEN_FDS": "3,4", "ESCOBA_TUTOR_TEACHER_KEY": "k"})
    {'listen_fds': (3, 4), 'teacher_key': 'k'}
    >>> previous_run({})
    {'listen_fds': (), 'teacher_key': ''}
    """
    text = env.get(LISTEN_FDS, "").strip()
    try:
        fds = tuple(int(fd) for fd in text.split(",")) if text else ()
    except ValueError:
        raise _bad(f"{LISTEN_FDS} must be file numbers separated by commas, not {text[:40]!r}",
                   "listen_fds") from None
    return {"listen_fds": fds, "teacher_key": env.get(TEACHER_KEY_ENV, "")}
