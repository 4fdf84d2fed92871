"""The app: the lessons served by Voilà, with a landing page per language.

``escoba-tutor`` (see cli.py) calls :func:`serve`. The server is Voilà itself, with these changes: ``/`` leads
to the landing page of the chosen language (``?lang=en`` switches); one student cannot take the class down
(limits on kernels, connections, messages and memory, each kernel bound to the browser that started it, only
the host names the server is reached by: the :mod:`escoba_tutor.server` package, docs/hostile-input.md); a left
page frees its kernel, and idle kernels are culled; once kernels have gone the memory they used is handed back
to the system, and when the last one has gone the ``escoba-tutor`` command's server starts afresh in its own
process, on the port it holds open. A page may send its kernel only widget messages, never code to run; tests
(tests/test_app_security.py, tests/test_app_limits.py) hold it to that.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import gc
import os
import secrets
import socket
import sys
import time
import webbrowser
from pathlib import Path
from typing import Any

from ..engine.errors import EscobaError
from ..engine.rules import as_rules
from .limits import FILES_PER_KERNEL, FILES_RESERVE
from .pool import DEFAULT_POOL, KernelPool, pool_size
from .settings import LANG_ENV, LANGS, LISTEN_FDS, RULES_ENV, TEACHER_KEY_ENV, Settings

__all__ = ["serve", "lessons_dir", "build_app_class", "check_address", "release_freed_memory", "voila_config",
           "LANGS"]


def lessons_dir(path: str | os.PathLike | None = None) -> Path:
    """The lessons folder: the one given (a teacher's copy, see ``escoba-tutor copy-lessons``), else the lessons
    installed with the package (``escoba_tutor/lessons/`` in the wheel), else the checkout's own ``lessons/`` (a
    clone or an editable install)."""
    package = Path(__file__).resolve().parent.parent
    if path:
        candidate = Path(path)
        if (candidate / "es" / "index.ipynb").is_file():
            return candidate.resolve()
        raise EscobaError(f"no lessons found in {candidate}: a lessons folder holds es/index.ipynb and the other "
                          "notebooks (escoba-tutor copy-lessons DIR writes a copy to edit)", code="no_lessons")
    for candidate in (package / "lessons", package.parent / "lessons"):
        if (candidate / "es" / "index.ipynb").is_file():
            return candidate
    raise EscobaError(f"no lessons found in {package / 'lessons'}: this installation of escoba-tutor is "
                      "incomplete (install it again), or name a lessons folder with --lessons", code="no_lessons")


def check_address(ip: str, port: int) -> None:
    """Refuse, with a message that says why, an address the server could not listen on: an unknown name, an
    address of another machine, or a port in use. Voilà would otherwise end in a traceback, or move to another
    port while the URL printed for the class names this one.

    >>> check_address("999.1.1.1", 8866)
    Traceback (most recent call last):
    ...
    escoba_tutor.engine.errors.EscobaError: cannot listen on 999.1.1.1: no such address or machine name
    """
    try:
        infos = socket.getaddrinfo(ip, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError, ValueError):
        raise EscobaError(f"cannot listen on {ip}: no such address or machine name", code="bad_ip",
                          ip=ip) from None
    family, kind, proto, _name, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will: a closed port is free
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise EscobaError(f"port {port} is in use on {ip}: stop what uses it, or choose another with "
                                  "--port", code="port_in_use", port=port) from None
            if error.errno in (errno.EACCES, errno.EPERM):
                raise EscobaError(f"this user may not listen on port {port}: choose a port above 1023",
                                  code="port_refused", port=port) from None
            raise EscobaError(f"cannot listen on {ip}: {error.strerror or error} (is it an address of this "
                              "machine?)", code="bad_ip", ip=ip) from None


def release_freed_memory() -> bool:
    """Hand the memory the server has freed back to the system; False where that cannot be done.

    glibc's malloc keeps freed memory for reuse instead of returning it: after a class of 30 has left and its
    kernels are culled, the server process still holds about 60 MiB it no longer uses (measured with
    benchmarks/load_class.py), and only ``malloc_trim`` returns it. Other C libraries (macOS, Windows, musl)
    have no such call, and nothing happens there.
    """
    import ctypes
    import ctypes.util

    try:
        trim = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return False
    gc.collect()  # a closed connection's objects hold each other in cycles: free them first
    trim(0)
    return True


def build_app_class():
    """The Voilà application class with the landing page (imported late: Voilà is heavy)."""
    from jupyter_server.utils import url_path_join
    from tornado import web
    from tornado.ioloop import IOLoop, PeriodicCallback
    from tornado.netutil import bind_sockets
    from traitlets import Bool, Float, Int, List, Unicode

    from .framework import (
        check_connection_class,
        check_framework,
        check_kernel_command,
        check_page_templates,
        drop_handlers,
        swap_handlers,
    )

    check_framework()  # before anything of Voilà's is used: a renamed name stops the start, with its name
    check_page_templates()  # and the parts of Voilà's page template the starting panel leans on

    from voila.app import Voila

    from . import board_tables, class_board, class_exercise, nickname, starting, tables
    from . import handlers as guarded
    from .hosts import AllowedHosts
    from .kernels import KERNEL_MEMORY_ENV
    from .limits import (
        AddressConnections,
        ClassRegister,
        Limits,
        connections_for_open_files,
        default_max_kernels,
        machine_memory_mib,
        raise_open_files,
    )
    from .logs import install_repeat_filter
    from .records_endpoint import RECORD_PATH, RecordHandler, records_url

    class LandingHandler(guarded.ClientMixin, web.RequestHandler):
        """``/`` and ``/?lang=en``: to the landing notebook of that language, keeping the query string (and the
        browser's cookie given on the way, which spares the lesson page a redirect)."""

        def initialize(self, server_url: str, default_lang: str) -> None:
            self.server_url, self.default_lang = server_url, default_lang

        def get(self) -> None:
            if self.client_id() is None:
                self.issue_client()
            lang = self.get_argument("lang", self.default_lang)
            lang = lang if lang in LANGS else self.default_lang  # the landing page explains a bad ?lang=
            query = f"?{self.request.query}" if self.request.query else ""
            self.redirect(url_path_join(self.server_url, f"voila/render/{lang}/index.ipynb") + query)

    class TutorVoila(Voila):
        name = "escoba-tutor"
        default_lang = Unicode("es", config=True, help="the landing page's language when the URL names none")
        rules = Unicode("escoba", config=True, help="the house rules every kernel's widgets play by")
        listen_fds = List(Int(), config=True, help="the sockets of the server's previous run, when it starts afresh")

        memory_check_s = Float(2, config=True, help="how often to look for culled kernels, in seconds")
        start_afresh = Bool(False, config=True, help=(
            "once a class has left (no kernel, no request for quiet_s seconds), start the server process afresh "
            "on the same sockets: its memory goes back to an idle server's"))
        quiet_s = Float(10, config=True, help="seconds without a request before the server may start afresh")

        # The class limits (docs/classroom.md, "Limits"): Limits holds their defaults
        max_kernels = Int(0, config=True, help="kernels on the server at most (0: from the machine's memory)")
        kernels_per_client = Int(Limits.per_client, config=True, help="pages with a kernel per browser")
        kernels_per_address = Int(Limits.per_address, config=True, help=(
            "pages with a kernel per network address (a school behind one address counts once)"))
        connect_s = Float(Limits.connect_s, config=True, help=(
            "seconds a kernel may wait for its page to connect before it is shut down"))
        reconnect_s = Float(Limits.reconnect_s, config=True, help=(
            "seconds a kernel waits for its page to connect again once its last connection closed, before it is "
            "shut down (0: only the idle cull stops it)"))
        sockets_per_kernel = Int(Limits.sockets_per_kernel, config=True, help="websockets per kernel at most")
        kernel_memory_mib = Int(Limits.kernel_memory_mib, config=True, help=(
            "MiB of data a kernel may allocate (0: no limit)"))
        message_bytes = Int(Limits.message_bytes, config=True, help="bytes in one websocket message from a page")
        write_buffer_bytes = Int(Limits.write_buffer_bytes, config=True, help=(
            "bytes that may wait unsent to one page before its connection is dropped"))
        message_rate_bytes = Int(Limits.message_rate_bytes, config=True, help=(
            "bytes a second one browser's pages may send their kernels (beyond it their messages are dropped)"))
        message_burst_bytes = Int(Limits.message_burst_bytes, config=True, help=(
            "bytes one browser's pages may send at once, above message_rate_bytes"))
        record_rate = Float(Limits.record_rate, config=True, help=(
            "class records a second one student's kernels may send (beyond it, and record_burst, they are dropped)"))
        record_burst = Int(Limits.record_burst, config=True, help="class records one student may send at once")
        address_record_rate = Float(Limits.address_record_rate, config=True, help=(
            "class records a second the kernels of one network address's students may send together"))
        address_record_burst = Int(Limits.address_record_burst, config=True, help=(
            "class records one network address's students may send at once"))
        offline_buffer_bytes = Int(Limits.offline_buffer_bytes, config=True, help=(
            "bytes kept for a page without a connection; beyond them its session ends (its kernel is stopped)"))
        state_requests_burst = Int(Limits.state_requests_burst, config=True, help=(
            "requests for every widget's state a page may send at once"))
        state_requests_per_minute = Float(Limits.state_requests_per_minute, config=True, help=(
            "requests for every widget's state a page may send a minute, beyond the burst"))
        starts_per_address_burst = Int(Limits.starts_per_address_burst, config=True, help=(
            "kernels one network address may start at once"))
        starts_per_address_per_minute = Float(Limits.starts_per_address_per_minute, config=True, help=(
            "kernels one network address may start a minute, beyond the burst"))
        starts_per_client_burst = Int(Limits.starts_per_client_burst, config=True, help=(
            "kernels one browser may start at once"))
        starts_per_client_per_minute = Float(Limits.starts_per_client_per_minute, config=True, help=(
            "kernels one browser may start a minute, beyond the burst"))
        allowed_hosts = List(Unicode(), config=True, help=(
            "more host names the server answers to (a proxy's or JupyterHub's), besides its own"))
        reap_check_s = Float(10, config=True, help=(
            "how often to look for kernels whose page never connected, or has gone"))
        class_board = Bool(True, config=True, help=(
            "record what students with a nickname do, and serve the teacher's class board"))
        class_db = Unicode("", config=True, help="the class records' database: a path or URL ('': the default)")
        teacher_key = Unicode("", config=True, help="the key of the teacher's link to the class board")
        hub_user = Unicode("", config=True, help=(
            "on a JupyterHub: the user whose server this is; their pages are recorded under their hub name, and "
            "the teacher's board is the hub's service, not this server's"))
        # The HTTP server's own limits (Settings has their defaults): Tornado would read a body of 100 MB before any
        # handler could refuse it, and keep a connection that sends nothing for an hour
        request_body_bytes = Int(Settings.request_body_bytes, config=True, help=(
            "bytes in one request's body (the server's forms and Voilà's close beacon send a few hundred); a "
            "longer one is refused from its Content-Length, before it is read"))
        idle_connection_s = Float(Settings.idle_connection_s, config=True, help=(
            "seconds a connection may stay open without a request, or take to send a request's headers (a page's "
            "websocket has its pings instead)"))
        body_timeout_s = Float(Settings.body_timeout_s, config=True, help=(
            "seconds a request may take to send its body"))
        connections_per_address = Int(Settings.connections_per_address, config=True, help=(
            "connections open at once from one network address (a page's requests and its websocket; a browser "
            "holds up to 6, and one more per page); one more is refused (429) as it is accepted"))
        max_connections = Int(0, config=True, help=(
            "connections open at once on the server, from every address (0: as many as its limit of open files "
            "leaves once every kernel's files are set aside); when it holds them, a connection from a quieter "
            "address closes the newest of the address holding the most, and one from that address is refused (429)"))
        pool_size = Int(DEFAULT_POOL, config=True, help=(
            "kernels kept ready, with the course imported, for arriving pages (--class-size; 0: none)"))
        max_starting_kernels = Int(Settings.max_starting_kernels, config=True, help=(
            "pages the server starts at once (each starts its kernel and runs its lesson; the others wait their "
            "turn, fairly between addresses); 0: two per core of the machine"))

        def class_limits(self) -> Limits:
            soft, _hard = raise_open_files()
            total = self.max_kernels or default_max_kernels(machine_memory_mib(), soft or 1 << 20)
            return Limits(max_kernels=total, per_client=self.kernels_per_client,
                          per_address=self.kernels_per_address, connect_s=self.connect_s,
                          reconnect_s=self.reconnect_s,
                          sockets_per_kernel=self.sockets_per_kernel, kernel_memory_mib=self.kernel_memory_mib,
                          message_bytes=self.message_bytes, write_buffer_bytes=self.write_buffer_bytes,
                          message_rate_bytes=self.message_rate_bytes, message_burst_bytes=self.message_burst_bytes,
                          record_rate=self.record_rate, record_burst=self.record_burst,
                          address_record_rate=self.address_record_rate,
                          address_record_burst=self.address_record_burst,
                          offline_buffer_bytes=self.offline_buffer_bytes,
                          state_requests_burst=self.state_requests_burst,
                          state_requests_per_minute=self.state_requests_per_minute,
                          starts_per_address_burst=self.starts_per_address_burst,
                          starts_per_address_per_minute=self.starts_per_address_per_minute,
                          starts_per_client_burst=self.starts_per_client_burst,
                          starts_per_client_per_minute=self.starts_per_client_per_minute)

        def setup_template_dirs(self):
            """Voilà's, with the project's page template first (it loads nothing from another origin)."""
            super().setup_template_dirs()
            self.template_paths.insert(0, str(Path(__file__).resolve().parent / "templates"))

        def init_settings(self):
            from . import compiled_templates
            from .kernels import TutorMappingKernelManager

            compiled_templates.install()  # each page's templates loaded as code, not compiled again per page

            # every kernel is bound to its page by this kernel manager: no other will do
            self.voila_configuration.multi_kernel_manager_class = TutorMappingKernelManager
            # a landing page gets the nickname form as it is rendered (with the class board on); a page whose start
            # its handler sent (the starting panel) is rendered without that start
            self.voila_configuration.prelaunch_hook = starting.start_sent_hook(
                nickname.landing_hook(self.voila_configuration.prelaunch_hook))
            settings = super().init_settings()
            self.check_kernel_command()
            check_connection_class(settings.get("kernel_websocket_connection_class"))
            self.limits = self.class_limits()
            self.register = ClassRegister(self.limits)
            self.kernel_manager.register = self.register
            self.kernel_manager.allowed_message_types = list(guarded.PAGE_MESSAGES)  # no shutdown_request
            # what every kernel gets in its environment (kernel_launch reads the limit, the widgets the rules)
            self.kernel_manager.kernel_env = {RULES_ENV: self.rules, LANG_ENV: self.default_lang,
                                              KERNEL_MEMORY_ENV: str(self.limits.kernel_memory_mib)}
            # the kernels send their records to this server, at the address it listens on (records_endpoint.py)
            url, own = records_url(self.ip, self.port, self.server_url)
            self.kernel_manager.records_url = url if self.class_board else ""
            self.kernel_manager.class_db = self.class_db
            start_turns = guarded.StartTurns(starting_slots(self.max_starting_kernels))
            pool = self.kernel_manager.pool = self.kernel_pool(start_turns)
            if pool is not None:  # a page given a ready kernel starts for less than half the CPU (pool.py)
                start_turns.extra = lambda: min(start_turns.slots, len(pool.ready))
            return {**settings, "escoba_register": self.register, "escoba_default_lang": self.default_lang,
                    "escoba_rules": self.rules, "escoba_record_addresses": own,
                    "escoba_log": self.log, "websocket_max_message_size": self.limits.message_bytes,
                    # a page whose connection went silent (a network cut, a phone asleep) is found within 30 s
                    # (jupyter_server's default: 90), and its kernel's reconnect grace starts then; a browser
                    # answers pings itself, in a background tab too
                    "ws_ping_interval": WS_PING_MS, "ws_ping_timeout": 2 * WS_PING_MS,
                    "escoba_start_turns": start_turns,
                    **self.class_settings()}

        def kernel_pool(self, start_turns) -> KernelPool | None:
            """The kernels made ready before the students come (pool.py): filled while no page is starting, within
            the kernel budget the students' pages leave."""
            if self.pool_size <= 0:
                return None
            manager, register, limits = self.kernel_manager, self.register, self.limits

            async def stop(kernel_id: str) -> None:
                await manager.shutdown_kernel(kernel_id, now=True)

            return KernelPool(min(self.pool_size, limits.max_kernels), manager.start_pooled, stop,
                              busy=lambda: start_turns.starting() + start_turns.waiting() > 0,
                              room=lambda: limits.max_kernels - register.kernels(), students=register.kernels,
                              log=self.log)

        def check_kernel_command(self) -> None:
            """The lessons' kernel starts with ``-m ipykernel_launcher``, which TutorKernelManager replaces."""
            from jupyter_client.kernelspec import NATIVE_KERNEL_NAME

            spec = self.kernel_spec_manager.get_kernel_spec(NATIVE_KERNEL_NAME)
            check_kernel_command(spec.argv, NATIVE_KERNEL_NAME)

        def class_settings(self) -> dict:
            """The class board's: the store the server writes the kernels' records to and the board reads, the key."""
            if not self.class_board:
                return {"escoba_class_store": None, "escoba_teacher_key": ""}
            from ..records import ClassStore

            store = ClassStore.open(self.class_db or None)  # serve() opened it once already: it opens
            # over PostgreSQL, other servers' changes to the class exercise reach this one's pages (class_exercise.py)
            listening = class_exercise.listening_settings(store, tallies=not self.hub_user)
            # and other servers' changes to the tables (a hub: the other player's server, tables.py)
            listening.update(tables.table_settings(store, listening.get("escoba_listener")))
            if self.hub_user:  # a student's server on a hub: no key, the owner's hub name on the board
                return {"escoba_class_store": store, "escoba_teacher_key": "", "escoba_hub_user": self.hub_user,
                        "escoba_hub_nickname": nickname.hub_nickname(self.hub_user), **listening}
            return {"escoba_class_store": store, "escoba_teacher_key": self.teacher_key,
                    "escoba_class_exercise": True, **listening}

        def init_handlers(self):
            landing = (self.server_url, LandingHandler, {"server_url": self.server_url,
                                                         "default_lang": self.default_lang})
            none = [(url_path_join(self.server_url, name), guarded.NotFoundHandler) for name in ("login", "logout")]
            # each of SWAPS there, or no start; no folder listing (the course's 404 page answers there instead)
            voila = drop_handlers(swap_handlers(super().init_handlers(), guarded.SWAPS), guarded.UNSERVED)
            # a student's server on a hub serves no board (every student's records are in one database: the
            # teacher's board is the hub's service, hub_board.py) and no nickname form, only the records' endpoint
            board = [] if self.hub_user else class_board.board_handlers(self.server_url)
            if self.class_board:
                board.append((url_path_join(self.server_url, RECORD_PATH), RecordHandler))
            if self.class_board:  # the class exercise: its teacher's pages are the hub's board service's there
                board.extend(class_exercise.kernel_handlers(self.server_url) if self.hub_user
                             else class_exercise.exercise_handlers(self.server_url))
            if self.class_board:  # tables of students: the kernels' calls (on a hub, each student's own server's)
                board.extend(tables.table_handlers(self.server_url))
            if self.class_board and not self.hub_user:  # the teacher's list and projector (the hub's board service's)
                board.extend(board_tables.board_tables_handlers(self.server_url))
            handlers = [landing, *none, *board, *voila]  # first, so they win over the file tree at / and Voilà's login
            # last: any other address gets a page in its language rather than Tornado's bare one
            handlers.append((url_path_join(self.server_url, r".*"), guarded.NoSuchPageHandler,
                             {"server_url": self.server_url}))
            self._connection_total = self.connection_total()
            self.log.info("Limits: %d kernels on the server, %d per browser, %d per address, %d MiB of data per "
                          "kernel, %d pages started at once, %d connections per address and %s in all; open files: "
                          "%s", self.limits.max_kernels, self.limits.per_client, self.limits.per_address,
                          self.limits.kernel_memory_mib, starting_slots(self.max_starting_kernels),
                          self.connections_per_address, self._connection_total or "no limit",
                          raise_open_files()[0] or "no limit")
            if self.kernel_manager.pool is not None:
                self.log.info("Kernel pool: %d kernels made ready for arriving pages (--class-size)",
                              self.kernel_manager.pool.size)
                IOLoop.current().add_callback(self.kernel_manager.pool.run)
            self.check_open_files()
            install_repeat_filter(self.log)
            PeriodicCallback(self.reap, self.reap_check_s * 1000).start()
            # What start-up built lives as long as the server: the full collections that follow (the one after
            # culling among them) skip it, a few ms instead of about 170.
            gc.freeze()
            self._kernels_before, self._served, self._afresh = 0, False, False
            self._last_request = time.monotonic()
            self._board_data = url_path_join(self.server_url, class_board.BOARD_DATA)  # an open board is no class
            PeriodicCallback(self.after_culling, self.memory_check_s * 1000).start()  # runs once the loop does
            return handlers

        def connection_total(self) -> int:
            """The connections the server may hold in all: ``max_connections``, else what its limit of open files
            leaves once the files open now and every kernel's own are set aside (0: no limit of open files)."""
            if self.max_connections:
                return self.max_connections
            soft, _hard = raise_open_files()
            if not soft:
                return 0
            # kernels beyond what the files hold at all (a --max-kernels too high for them, which the log warns
            # of) are not set aside: they would leave no connection to the class
            kernels = min(self.limits.max_kernels, max(2, seats_for_open_files(soft)))
            return connections_for_open_files(soft, kernels, open_files_now())

        def check_open_files(self) -> None:
            """Warn the teacher, in the server's log, when the open-file limit (raised to the hard limit) holds
            fewer students than the memory or ``--max-kernels`` would: past it the server cannot accept a page."""
            soft, _hard = raise_open_files()
            if not soft:  # no such limit (Windows)
                return
            seats = seats_for_open_files(soft)
            wanted = self.max_kernels or default_max_kernels(machine_memory_mib(), 1 << 30)
            if seats < wanted:
                self.log.warning(
                    "Open files: this server may open %d files, enough for about %d students at once (%d files "
                    "each), fewer than the %d %s. Raise the system's hard limit of open files (ulimit -Hn, or "
                    "LimitNOFILE for a service) to serve more.", soft, seats, FILES_PER_KERNEL, wanted,
                    "--max-kernels asks for" if self.max_kernels else "its memory would hold")

        async def reap(self) -> None:
            """Shut down the kernels whose page never connected (a script's GET, a page closed while loading), and
            those whose page has gone without a goodbye (no connection for ``reconnect_s``)."""
            reasons = {kernel_id: "its page never connected" for kernel_id in self.register.unconnected()}
            for kernel_id in self.register.gone():
                if self.kernel_connections(kernel_id) > 0:  # jupyter_server still counts one: never stop a live page
                    continue
                reasons[kernel_id] = f"no page connected for {self.limits.reconnect_s:g} s"
            for kernel_id, reason in reasons.items():
                self.register.forget(kernel_id)
                if kernel_id in self.kernel_manager:
                    self.log.info("Shutting down kernel %s: %s", kernel_id, reason)
                    try:
                        await self.kernel_manager.shutdown_kernel(kernel_id)
                    except Exception:  # noqa: BLE001 - gone meanwhile: nothing left to stop
                        self.log.debug("kernel %s was already gone", kernel_id)

        def kernel_connections(self, kernel_id: str) -> int:
            """The page connections jupyter_server counts to a kernel (its REST model's ``connections``)."""
            if kernel_id not in self.kernel_manager:
                return 0
            return int(self.kernel_manager.kernel_model(kernel_id).get("connections", 0))

        def after_culling(self) -> None:
            """Once kernels have gone (culled, or shut down), give the memory their connections used back.

            Freed memory stays scattered in a long-lived Python process: after a class of 30 has left, the
            server held 15-20 MiB more than before it (benchmarks/load_class.py), however much was handed back.
            So once every kernel has gone and no request has come for a while, the server starts afresh: the
            same process (the same pid) runs the program again on the sockets it listens on, which stay open
            meanwhile, so a browser arriving then waits a few seconds and is served by the fresh server.
            """
            pool = getattr(self.kernel_manager, "pool", None)  # the pool's waiting kernels are no class
            kernels = sum(pool is None or kernel_id not in pool for kernel_id in self.kernel_manager.list_kernel_ids())
            self._served = self._served or kernels > 0
            quiet = time.monotonic() - self._last_request >= self.quiet_s
            if self.start_afresh and self._served and not kernels and quiet:
                self.start_afresh_now()
            elif kernels < self._kernels_before:
                release_freed_memory()
            self._kernels_before = kernels

        def note_request(self, path: str) -> None:
            """Every request the server lets in (the host gate calls it): the class is not quiet yet."""
            if path != self._board_data:
                self._last_request = time.monotonic()

        def start_afresh_now(self) -> None:
            self._afresh = True
            IOLoop.current().stop()  # listen() goes on after the loop: Voilà's stop(), then the new start

        def listen(self):
            """Voilà's, on the sockets of the server's previous run when it starts afresh."""
            if self.listen_fds:
                sockets = [socket.socket(fileno=fd) for fd in self.listen_fds]
                self.open_browser = False
            else:
                sockets = bind_sockets(self.port, self.ip)  # serve() checked that the port is free
            gate = guarded.HostGate(self.app, AllowedHosts(self.ip, self.allowed_hosts), self.note_request)
            server = guarded.CappedHTTPServer(gate, **http_limits(self.request_body_bytes, self.limits.message_bytes,
                                                                  self.idle_connection_s, self.body_timeout_s))
            server.connections = AddressConnections(self.connections_per_address, total=self._connection_total)
            server.log, server.refusal = self.log, guarded.connection_refusal(self.default_lang)
            server.add_sockets(sockets)
            self.log.info("Voilà is running at:\n%s", self.display_url)
            if self.open_browser:
                self.launch_browser()
            self.ioloop = IOLoop.current()
            try:
                self.ioloop.start()
            except KeyboardInterrupt:
                self.log.info("Stopping...")
            finally:
                self.stop()
            if self._afresh:
                self.log.info("Every kernel has gone: starting afresh on the same port.")
                for sock in sockets:
                    os.set_inheritable(sock.fileno(), True)
                # the program again, told its sockets and the teacher's key (the link stays the same)
                env = {**os.environ, LISTEN_FDS: ",".join(str(sock.fileno()) for sock in sockets),
                       TEACHER_KEY_ENV: self.teacher_key}
                sys.stdout.flush()
                sys.stderr.flush()
                os.execve(sys.executable, sys.orig_argv, env)

    return TutorVoila


WS_PING_MS = 15_000  # how often the server pings each page's connection; two missed and it is closed


def http_limits(body_bytes: int, message_bytes: int, idle_s: float, body_timeout_s: float) -> dict:
    """The HTTP server's own limits (Tornado's ``HTTPServer`` settings). By default Tornado reads a whole request
    body of up to 100 MB into memory before any handler, even the host gate's refusal, can refuse it, and keeps a
    connection that sends nothing for an hour: a script could hold the server's memory and its file handles.

    - ``max_body_size``: a longer body is refused from its ``Content-Length`` before a byte of it is read (a
      chunked body once its chunks pass it), with 400 and the connection closed;
    - ``max_buffer_size``: what one connection's stream may buffer: a body, or a page's websocket message;
    - ``idle_connection_timeout``: Tornado's time for a connection's next request headers, so it closes a
      connection idle between requests and one that sends its headers a byte at a time alike; a websocket is
      no longer an HTTP connection and is not cut (its pings find a silent page);
    - ``body_timeout``: a body sent too slowly.

    >>> http_limits(64 * 1024, 64 * 1024, 20, 30)["max_buffer_size"]
    131072
    """
    return {"max_body_size": body_bytes, "max_buffer_size": max(body_bytes, message_bytes) + 64 * 1024,
            "idle_connection_timeout": idle_s, "body_timeout": body_timeout_s}


def starting_slots(setting: int) -> int:
    """The pages the server starts at once: the setting, or (0) two per core of the machine. A page's start (its
    kernel's start and the lesson's run) keeps a core about two thirds busy for a second or more (0.7 CPU s in 1.1 s
    on a quiet machine, benchmarks/load_class.py): two a core keep the cores busy while a class arrives (with one a
    core, a class of 30 got in 8 s later), and more at once only share the cores with the students already working,
    whose clicks then wait.

    >>> starting_slots(3), starting_slots(0) == 2 * (os.cpu_count() or 1)
    (3, True)
    """
    return setting if setting > 0 else 2 * (os.cpu_count() or 1)


def open_files_now() -> int:
    """The files this process has open now (Linux and macOS list them; elsewhere the reserve the seats assume)."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        with contextlib.suppress(OSError):
            return len(os.listdir(folder))
    return FILES_RESERVE


def seats_for_open_files(open_files: int) -> int:
    """The students (pages with a kernel) a server may hold with this many open files: each costs about 14 file
    handles (the kernel's sockets, the page's websocket, the browser's connections), counted as 20, beyond the
    server's own.

    >>> seats_for_open_files(1024), seats_for_open_files(524288)
    (38, 26201)
    """
    return max(0, (open_files - FILES_RESERVE) // FILES_PER_KERNEL)


def voila_config(settings: Settings | None = None, **options: Any):
    """The server's Voilà configuration, from its settings (or from ``Settings`` keywords; the class board off
    unless they say otherwise). A ``voila.json`` in the working folder can still add to it."""
    from traitlets.config import Config

    if settings is None:
        settings = Settings(**{"class_board": False, **options, "rules": as_rules(options.get("rules", "escoba"))})
    config = Config()
    config.TutorVoila.class_board = settings.class_board
    config.TutorVoila.class_db = settings.class_db or ""
    config.TutorVoila.teacher_key = settings.teacher_key if settings.class_board and not settings.hub_user else ""
    config.TutorVoila.hub_user = settings.hub_user
    config.TutorVoila.rules = settings.rules.name
    config.TutorVoila.listen_fds = list(settings.listen_fds)
    if settings.max_kernels:
        config.TutorVoila.max_kernels = settings.max_kernels
    if settings.kernel_memory is not None:
        config.TutorVoila.kernel_memory_mib = settings.kernel_memory
    for bound in ("record_rate", "record_burst", "address_record_rate", "address_record_burst"):
        if getattr(settings, bound) != getattr(Settings, bound):  # else a voila.json's value stands
            setattr(config.TutorVoila, bound, getattr(settings, bound))
    if settings.allow_hosts:
        config.TutorVoila.allowed_hosts = list(settings.allow_hosts)
    config.Voila.port, config.Voila.ip, config.Voila.base_url = settings.port, settings.ip, settings.base_url
    config.Voila.open_browser = False  # serve() opens the landing page itself
    config.Voila.port_retries = 0  # never another port than the URL printed for the class
    config.TutorVoila.default_lang = settings.lang
    config.VoilaExporter.language_code = settings.lang  # <html lang> of a page whose notebook names none
    # Starting afresh runs this process's command again: only for the escoba-tutor command, on POSIX
    config.TutorVoila.start_afresh = settings.start_afresh and os.name == "posix"
    config.TutorVoila.reconnect_s = settings.reconnect_s
    config.TutorVoila.connect_s = settings.connect_s
    config.TutorVoila.request_body_bytes = settings.request_body_bytes
    config.TutorVoila.idle_connection_s = settings.idle_connection_s
    config.TutorVoila.body_timeout_s = settings.body_timeout_s
    if settings.connections_per_address != Settings.connections_per_address:  # else a voila.json's value stands
        config.TutorVoila.connections_per_address = settings.connections_per_address
    if settings.class_size is not None or settings.hub_user:  # else a voila.json's value (or the default) stands
        config.TutorVoila.pool_size = pool_size(settings.class_size, settings.hub_user)
    if settings.max_starting_kernels:  # else a voila.json's value stands
        config.TutorVoila.max_starting_kernels = settings.max_starting_kernels
    cull_idle = settings.cull_idle
    config.MappingKernelManager.cull_idle_timeout = cull_idle
    config.MappingKernelManager.cull_interval = min(60, max(1, cull_idle // 2))
    config.VoilaConfiguration.show_tracebacks = False
    # On a busy server (a class arriving at once) a cell's outputs can reach Voilà after its default 4 s wait, and
    # the page is then sent without them: a lesson with no boards (measured with benchmarks/load_class.py).
    config.VoilaExecutor.iopub_timeout = 60
    config.VoilaConfiguration.file_allowlist = [r".*\.(png|jpg|svg|css)"]
    if os.name == "posix":
        # Kernels talk to the server over Unix sockets, not TCP ports: with TCP, 30 kernels starting at once can
        # race for the same free port, and the loser dies before its page is drawn ("Address already in use",
        # seen with benchmarks/load_class.py). No kernel port is open to anyone else on the machine either.
        config.KernelManager.transport = "ipc"
    from .framework import check_config

    check_config(config)  # a setting a framework has renamed is refused, not ignored with a warning
    return config


def check_class_db(class_db: str | None) -> str:
    """Open the class database once (made, or upgraded, as needed) so that a bad path or URL stops the start with
    a message that names it; returns what the server is to write to: the path or URL given, else the records'
    own choice (``ESCOBA_TUTOR_CLASS_DB``, or "" for the default place)."""
    from ..records import ClassStore, RecordsError
    from .kernels import CLASS_DB_ENV

    try:
        ClassStore.open(class_db or None).close()
    except RecordsError as error:
        raise EscobaError(f"the class database cannot be used: {error}", code="bad_class_db") from None
    return class_db or os.environ.get(CLASS_DB_ENV, "")


def serve(settings: Settings | None = None, **options: Any) -> int:
    """Serve the course until Ctrl+C. Returns the exit code.

    ``settings`` (:class:`~.settings.Settings`), or its fields as keywords (``port``, ``lang``, ``rules`` as a
    name or a Rules object...). ``max_kernels`` (0: from the machine's memory), ``kernel_memory`` (MiB; 0: no
    limit) and ``allow_hosts`` are the limits of docs/classroom.md that the command line can change.

    ``class_board``: students with a nickname are recorded in the class database ``class_db`` (a path or URL;
    None: the records' default) and the teacher's link to the class board is printed (docs/class-board.md).

    ``start_afresh``: once a class has left, the process runs its own command line again (see
    ``TutorVoila.after_culling``); the ``escoba-tutor`` command asks for it, a Python session calling this must not.
    """
    if settings is None:
        settings = Settings(**{**options, "rules": as_rules(options.get("rules", "escoba"))})
    folder = lessons_dir(settings.lessons)
    class_db = check_class_db(settings.class_db) if settings.class_board else settings.class_db
    afresh = bool(settings.listen_fds)  # the same server starting afresh: its sockets are open
    if not afresh:
        check_address(settings.ip, settings.port)
    ip, port, base_url = settings.ip, settings.port, settings.base_url
    url = f"http://{'127.0.0.1' if ip in ('0.0.0.0', '::') else ip}:{port}{base_url}"
    teacher_key = settings.teacher_key or secrets.token_urlsafe(32)
    settings = dataclasses.replace(settings, class_db=class_db, teacher_key=teacher_key)
    print(f"escoba-tutor: {url}  ({settings.rules.name}; Ctrl+C to stop)", flush=True)
    if settings.class_board and not afresh:  # the same link as before: printed once, where the teacher started it
        print(f"escoba-tutor: the teacher's class board (keep this link to yourself): {url}class/board?key="
              f"{teacher_key}", flush=True)
    open_browser = settings.open_browser and not afresh
    if not afresh and ip not in ("127.0.0.1", "localhost", "::1"):
        print(f"escoba-tutor: listening on {ip}: anyone who can reach this machine on that network can use the "
              "course. Stop it with Ctrl+C when the class is over.", flush=True)
    app_class = build_app_class()
    if open_browser:
        import threading

        threading.Timer(1.5, lambda: webbrowser.open(url)).start()
    app_class.launch_instance(argv=[str(folder)], config=voila_config(settings))
    return 0


if __name__ == "__main__":
    sys.exit(serve())
