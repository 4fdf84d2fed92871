"""The server's handlers, Voilà's own with the class limits applied (see docs/hostile-input.md, "Resource limits").

- :class:`HostGate` sits in front of every handler: an unknown ``Host`` (DNS rebinding) gets 403, an odd path
  (a NUL byte, ``..`` once decoded) 400 or 404.
- :class:`CappedHTTPServer` counts the connections open from each network address, and in all: one over an
  address's cap (``connections_per_address``), or from the busiest address of a server holding as many as its open
  files allow, is answered 429 as it is accepted, before anything of it is read, and closed once the browser has
  read the answer.
- :class:`TutorRenderHandler` (a lesson page): a browser without the server's cookie gets it and comes back (one
  redirect, marked ``?cookie_check=1``; the mark is taken off the address by one more redirect). A browser that
  comes back still without the cookie refuses cookies (or was sent a marked address): it gets a short page saying
  so with a link to the plain address, never a loop of redirects. Then the page's kernel is admitted against the
  limits, or the student gets a short page in the lesson's language (the class is full: 503; this browser has too
  many pages open: 429), never an error; a refused page costs no kernel and no rendering. One browser's pages are
  rendered one at a time (:class:`PageTurns`): each starts a kernel and runs the lesson, about 2 CPU seconds, so
  a browser asking for five at once waits for its own pages instead of taking both cores from the class; and the
  whole server starts only two pages at once per core of the machine (:class:`StartTurns`, fair between
  addresses), so a burst of new pages waits for the cores instead of taking them from the students already
  working. While a page waits and starts, the student sees what is happening in the page's language (the
  starting panel: the handler sends the page's start before it waits, starting.py). The page also gets the
  ``_xsrf`` cookie that Voilà's close beacon sends back, so a left page frees its kernel.
- :class:`OwnedKernelHandler`, :class:`OwnedShutdownHandler`, :class:`TutorKernelWebsocketHandler`: only the
  browser that started a kernel may ask about it, stop it or connect to it (another gets 403); at most
  ``sockets_per_kernel`` connections; a page may send only the widget messages of :data:`PAGE_MESSAGES` (others
  are dropped, and the log says so a few times, then counts); so are, unread, the messages beyond a browser's
  budget (``message_rate_bytes`` a second for all its pages); a message over ``message_bytes`` closes the
  connection (code 1009, with a reason that names the cap) before it is read, so it costs the server nothing; a
  connection whose unsent data passes ``write_buffer_bytes`` (a page that does not read) is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import itertools
import json
import logging
import re
import secrets
import socket
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from http.client import responses
from typing import Any
from urllib.parse import urlencode

from jupyter_server.services.kernels.connection.base import (
    deserialize_binary_message,
    deserialize_msg_from_ws_v1,
)
from jupyter_server.services.kernels.handlers import KernelHandler
from tornado import web
from tornado.httpserver import HTTPServer
from tornado.ioloop import IOLoop
from tornado.iostream import StreamClosedError
from tornado.routing import Router
from tornado.websocket import WebSocketProtocol13
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.tornado.contentshandler import VoilaContentsHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler
from voila.tornado.treehandler import TornadoVoilaTreeHandler

from ..text.translator import LANGUAGES, Translator
from . import starting
from .hosts import AllowedHosts, odd_path
from .kernels import CURRENT_CLASS_ENV, CURRENT_TICKET
from .limits import SINGLE_STATE_COST, AddressConnections, ClassRegister, Limits, Refused
from .nickname import class_env
from .pages import render

__all__ = ["CLIENT_COOKIE", "PAGE_MESSAGES", "PAGE_COMM_TARGETS", "PAGE_COMM_METHODS", "HostGate", "ClientMixin",
           "PageTurns", "StartTurns", "TutorRenderHandler", "OwnedKernelHandler", "OwnedShutdownHandler",
           "TutorKernelWebsocketHandler", "NotFoundHandler", "CappedHTTPServer", "RecentIds", "screen_message",
           "connection_refusal",
           "SWAPS", "UNSERVED"]

CLIENT_COOKIE = "escoba_client"
COOKIE_CHECK = "cookie_check"  # marks the address a browser is sent back to after it got the cookie
V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"
# What a page sends its kernel: the widget manager opens its control comm and asks for every widget's state, a
# widget sends its changes and its events (a click), and the page asks what the kernel is and which comms it has.
PAGE_MESSAGES = ("comm_open", "comm_msg", "comm_close", "comm_info_request", "kernel_info_request")
PAGE_COMM_TARGETS = ("jupyter.widget.control",)  # a page opens no widget of its own (Text, Output...) in the kernel
PAGE_COMM_METHODS = ("update", "custom", "request_state", "request_states")


def reason_phrase(status: int) -> str:
    """The standard words for an HTTP status (what Tornado answers with when none is given)."""
    return responses.get(status, "Unknown")


async def _awaited(result: Awaitable[None] | None) -> None:
    """A base class's method done, whether it is a coroutine (Voilà's, jupyter_server's) or not (Tornado's)."""
    if result is not None:
        await result


def _register(handler) -> ClassRegister:
    return handler.settings["escoba_register"]


def _limits(handler) -> Limits:
    return handler.settings["escoba_register"].limits


class ClientMixin(web.RequestHandler):
    """The browser's own id: a random value in a cookie signed with the server's secret, so a script cannot make
    up new ones and must ask the server for each (docs/hostile-input.md)."""

    def client_id(self) -> str | None:
        value = self.get_signed_cookie(CLIENT_COOKIE, max_age_days=7)
        return value.decode("ascii", "replace") if value else None

    def issue_client(self) -> str:
        client = secrets.token_urlsafe(18)
        path = self.settings.get("base_url", "/") or "/"
        self.set_signed_cookie(CLIENT_COOKIE, client, expires_days=None, httponly=True, samesite="Lax", path=path)
        return client


def page_language(handler) -> str:
    """The language of the lesson asked for (``/voila/render/en/...``), else ``?lang=``, else the server's."""
    found = re.search(r"/render/([a-z]{2})/", handler.request.path)
    lang = found.group(1) if found else handler.get_argument("lang", "")
    return lang if lang in LANGUAGES else handler.settings.get("escoba_default_lang", "es")


def notice_page(lang: str, title: str, text: str, link: str = "", link_text: str = "Reload the page") -> str:
    """A short page in the student's language with one link (by default: this page again)."""
    _ = Translator(lang)
    return render("notice.html.j2", lang=lang, title=_(title), text=text, link=link, link_text=_(link_text))


class PageTurns:
    """One browser's pages are rendered one at a time: :meth:`take` waits until the browser's page before has
    been sent (or ``wait_s`` at most, should it hang), :meth:`give_back` lets the next one go.

    >>> async def two_pages():
    ...     turns, order = PageTurns(), []
    ...     async def page(name):
    ...         await turns.take("ana"); order.append(name + " starts"); await asyncio.sleep(0.01)
    ...         order.append(name + " sent"); turns.give_back("ana")
    ...     await asyncio.gather(page("first"), page("second"))
    ...     return order, turns.waiting()
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(1) as thread:  # an event loop of its own, whatever runs in this thread
    ...     thread.submit(asyncio.run, two_pages()).result()
    (['first starts', 'first sent', 'second starts', 'second sent'], 0)
    """

    def __init__(self, wait_s: float = 120) -> None:
        self.wait_s = wait_s
        self._turns: dict[str, tuple[asyncio.Lock, list[int]]] = {}  # client -> its lock, pages holding or waiting

    async def take(self, client: str) -> None:
        lock, count = self._turns.setdefault(client, (asyncio.Lock(), [0]))
        count[0] += 1
        try:
            await asyncio.wait_for(lock.acquire(), self.wait_s)
        except BaseException:  # a timeout (the page before hangs: this one goes ahead without the turn), or gone
            self._leave(client)
            raise

    def give_back(self, client: str) -> None:
        lock, _count = self._turns.get(client, (None, None))
        if lock is not None and lock.locked():
            lock.release()
        self._leave(client)

    def _leave(self, client: str) -> None:
        found = self._turns.get(client)
        if found is not None:
            found[1][0] -= 1
            if found[1][0] <= 0:
                del self._turns[client]

    def waiting(self) -> int:
        """Browsers with a page being rendered or waiting for its turn."""
        return len(self._turns)

    def free(self, client: str) -> bool:
        """Whether a page of ``client`` would have its turn at once (no page of that browser is being rendered)."""
        return client not in self._turns


def _turns(handler) -> PageTurns:
    return handler.application.settings.setdefault("escoba_page_turns", PageTurns())


class StartTurns:
    """At most ``slots`` pages of the whole server start at once (a page's start: its kernel started and the lesson
    run, about 2 CPU seconds on a loaded machine); the others wait for a slot. A page from an address with no page
    starting does not wait, as long as fewer than twice ``slots`` are starting: one address's burst never makes
    another address's student wait for it. A freed slot goes to the waiting page whose address has the fewest
    pages starting, then whose address was given a slot the longest ago, then the earliest: the addresses take
    turns, so an address asking for many pages at once waits behind the others' pages, not before them. A page
    that waits ``wait_s`` (a start that hangs) goes ahead without a slot (:meth:`take` raises
    ``asyncio.TimeoutError``). ``extra`` gives more slots for now: the kernel pool's ready kernels (up to ``slots``
    more), since a page given a ready kernel costs the machine less than half of a page whose kernel starts.

    >>> async def pages():
    ...     turns, order = StartTurns(1), []
    ...     async def page(name, address):
    ...         await turns.take(address); order.append(name); await asyncio.sleep(0.01); turns.give_back(address)
    ...     await asyncio.gather(page("script 1", "10.0.0.66"), page("script 2", "10.0.0.66"),
    ...                          page("script 3", "10.0.0.66"), page("ana", "10.0.0.5"))
    ...     return order, turns.starting()
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(1) as thread:  # an event loop of its own, whatever runs in this thread
    ...     thread.submit(asyncio.run, pages()).result()
    (['script 1', 'ana', 'script 2', 'script 3'], 0)
    >>> async def burst(extra):  # one address asks for six pages at once: how many start before any ends
    ...     turns = StartTurns(2, extra=lambda: extra)
    ...     pages = [asyncio.ensure_future(turns.take("10.0.0.66")) for _ in range(6)]
    ...     await asyncio.sleep(0)  # every page has asked
    ...     started = turns.starting()
    ...     for page in pages:
    ...         page.cancel()
    ...     await asyncio.gather(*pages, return_exceptions=True)
    ...     return started
    >>> with ThreadPoolExecutor(1) as thread:
    ...     [thread.submit(asyncio.run, burst(extra)).result() for extra in (0, 2)]
    [2, 4]
    """

    def __init__(self, slots: int, wait_s: float = 120, extra: Callable[[], int] = lambda: 0) -> None:
        self.slots, self.wait_s, self.extra = max(1, slots), wait_s, extra
        self._starting: dict[str, int] = {}  # address -> its pages starting now
        self._waiting: list[tuple[int, str, asyncio.Future]] = []  # (arrival, address, told when its slot is free)
        self._arrivals = itertools.count()
        self._grants = itertools.count()
        self._last: dict[str, int] = {}  # address -> when it was last given a slot (in slots given)

    def starting(self) -> int:
        """Pages starting now, holding a slot."""
        return sum(self._starting.values())

    def waiting(self) -> int:
        return len(self._waiting)

    def free(self, address: str) -> bool:
        """Whether a page from ``address`` would start at once (:meth:`take` would not wait)."""
        return self._may_start(address) and (not self._waiting or address not in self._starting)

    def _may_start(self, address: str) -> bool:
        starting, slots = self.starting(), self.slots + max(0, self.extra())
        return starting < slots or (address not in self._starting and starting < 2 * slots)

    async def take(self, address: str) -> None:
        # (the pages still waiting could not start: an address with none starting goes before them)
        if self._may_start(address) and (not self._waiting or address not in self._starting):
            self._start(address)
            return
        entry = (next(self._arrivals), address, asyncio.get_running_loop().create_future())
        self._waiting.append(entry)
        try:
            await asyncio.wait_for(asyncio.shield(entry[2]), self.wait_s)
        except asyncio.TimeoutError:
            if entry[2].done():  # the slot came just as the wait ended: the page has it
                return
            self._waiting.remove(entry)
            raise
        except BaseException:  # cancelled while it waited
            if entry[2].done():
                self.give_back(address)
            else:
                self._waiting.remove(entry)
            raise

    def give_back(self, address: str) -> None:
        left = self._starting.get(address, 0) - 1
        if left > 0:
            self._starting[address] = left
        else:
            self._starting.pop(address, None)
        while self._waiting:
            entry = min(self._waiting, key=lambda each: (self._starting.get(each[1], 0), self._last.get(each[1], -1),
                                                          each[0]))
            if not self._may_start(entry[1]):  # nor may any other: its address has the fewest starting
                break
            self._waiting.remove(entry)
            self._start(entry[1])
            entry[2].set_result(None)
        if address not in self._starting and all(each[1] != address for each in self._waiting):
            self._last.pop(address, None)  # nothing more of it: its turn is forgotten

    def _start(self, address: str) -> None:
        self._starting[address] = self._starting.get(address, 0) + 1
        self._last[address] = next(self._grants)


def _starts(handler) -> StartTurns:
    return handler.application.settings["escoba_start_turns"]


class TutorRenderHandler(ClientMixin, TornadoVoilaHandler):
    """A lesson page, its kernel admitted against the limits; with the class board on, its kernel gets the page's
    nickname (nickname.class_env) and a landing page the nickname form (nickname.landing_hook)."""

    _ticket = None
    start_sent = False  # whether the page's start (the starting panel) was sent: starting.start_sent_hook reads it
    _turn: str | None = None  # the client whose turn this page holds
    _start_slot: str | None = None  # the address whose slot among the server's starting pages this page holds
    _gone = False

    async def prepare(self):
        await _awaited(super().prepare())
        if self._finished or self.request.method != "GET":
            return
        client = self.client_id()
        checked = COOKIE_CHECK in self.request.query_arguments
        if client is None and not checked:  # first visit: the cookie, then the same address again, marked
            self.issue_client()
            self.redirect(self._address(marked=True))
            return
        if client is None:  # sent back with the cookie and came without it: cookies are refused here
            self.no_cookies()
            return
        if checked:  # the cookie is kept: the plain address, so the mark is never copied into a shared link
            self.redirect(self._address(marked=False))
            return
        self.xsrf_token  # noqa: B018 - sets the _xsrf cookie, which Voilà's close beacon sends back
        try:
            self._ticket = _register(self).admit(client, self.request.remote_ip or "")
        except Refused as refused:
            self.refuse(refused.reason)
            return
        if self._ticket.evict is not None:  # the server is full: the busiest address's newest page makes room
            await self.make_room(self._ticket.evict)
        address = self.request.remote_ip or ""
        waits = not (_turns(self).free(client) and _starts(self).free(address))
        await self.send_start("wait" if waits else "prepare")  # the student sees what happens from now on
        try:
            await _turns(self).take(client)
            self._turn = client
        except asyncio.TimeoutError:
            pass
        try:  # then a slot among the pages the whole server starts at once
            await _starts(self).take(address)
            self._start_slot = address
        except asyncio.TimeoutError:
            pass
        if self._gone:  # the browser left while the page waited: no kernel for it
            self._release()
            raise web.Finish()
        if waits and self.start_sent:
            self.write(starting.step_part("prepare"))
            await self._flush()
        CURRENT_TICKET.set(self._ticket)
        CURRENT_CLASS_ENV.set(class_env(self))

    async def send_start(self, step: str) -> None:
        """The page's start (starting.py), sent before the page waits for anything: the student sees at once what
        is happening rather than a blank page. Only for a notebook that is there: once a page's start is sent, no
        other answer (the course's 404 page, Voilà's redirect to a file) can be."""
        path = self.path_args[0] if self.path_args else ""
        if self.notebook_path or not await self._serves_notebook(path):
            return
        self.set_header("Content-Type", "text/html; charset=utf-8")  # as Voilà would, with the page's encoding
        self.set_header("Cache-Control", "no-cache, no-store, must-revalidate")
        self.set_header("Pragma", "no-cache")
        self.set_header("Expires", "0")
        self.start_sent = True
        self.write(starting.first_part(page_language(self), step, self._address(marked=False)))
        await self._flush()

    async def _serves_notebook(self, path: str) -> bool:
        """Whether Voilà renders ``path`` as a page: a notebook that is there and not hidden."""
        if not path.lower().endswith(".ipynb"):
            return False
        contents = self.contents_manager
        try:
            exists = contents.file_exists(path)
            if not (await exists if inspect.isawaitable(exists) else exists):
                return False
            hidden = contents.is_hidden(path)
            hidden = await hidden if inspect.isawaitable(hidden) else hidden
        except (web.HTTPError, OSError):  # a path the contents manager refuses: Voilà will answer it
            return False
        return not hidden or bool(getattr(contents, "allow_hidden", False))

    async def _flush(self) -> None:
        with contextlib.suppress(StreamClosedError):  # the browser has gone: on_connection_close says so
            await self.flush()

    def send_error(self, status_code: int = 500, **kwargs) -> None:
        """Once the page's start was sent, an error can have no page of its own (the status was sent with the
        start): the starting panel says that the page could not be opened, and the page ends there."""
        if not self.start_sent:
            super().send_error(status_code, **kwargs)
        elif not self._finished:
            with contextlib.suppress(StreamClosedError):
                self.finish(starting.failed_part())

    def write_error(self, status_code: int, **kwargs) -> None:
        """A lesson that does not exist is said in the address's language (Voilà's page says it in English)."""
        if status_code == 404:
            write_no_such_page(self, self.base_url)
        else:
            super().write_error(status_code, **kwargs)

    def _address(self, marked: bool) -> str:
        """This page's path and query, with or without the cookie-check mark (any value it had is dropped)."""
        query = [(name, value.decode("utf-8", "replace")) for name, values in self.request.query_arguments.items()
                 if name != COOKIE_CHECK for value in values]
        if marked:
            query.append((COOKIE_CHECK, "1"))
        return self.request.path + ("?" + urlencode(query) if query else "")

    def no_cookies(self) -> None:
        lang = page_language(self)
        _ = Translator(lang)
        self.log.info("a browser from %s came back without the course's cookie", self.request.remote_ip)
        self.set_status(403)
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(notice_page(lang, "This browser does not keep cookies", _(
            "The course needs one cookie to know which pages are yours; it holds nothing else. Allow cookies for "
            "this address in the browser's settings (or leave private browsing), then open the page again."),
            link=self._address(marked=False), link_text="Open the page again"))

    async def make_room(self, kernel_id: str) -> None:
        self.log.warning("stopped kernel %s for a page from %s: the server is full and that kernel's address holds "
                         "more than its share", kernel_id, self.request.remote_ip)
        try:
            await self.kernel_manager.shutdown_kernel(kernel_id)
        except Exception:  # noqa: BLE001 - gone meanwhile: its place is free all the same
            self.log.debug("kernel %s was already gone", kernel_id)

    def refuse(self, reason: str) -> None:
        lang, limits = page_language(self), _limits(self)
        _ = Translator(lang)
        if reason == "too_many_pages":
            self.set_status(429)
            page = notice_page(lang, "Too many pages open", _.plural(
                "This browser already has {count} page of the course open. Close it if you are not using it, then "
                "reload this page.",
                "This browser already has {count} pages of the course open. Close the ones you are not using, then "
                "reload this page.", limits.per_client, count=limits.per_client))
        elif reason == "browser_too_fast":
            self.set_status(429)
            page = notice_page(lang, "Too many pages at once", _(
                "This browser has opened many pages of the course in a short time. Wait a few seconds, then reload "
                "this page."))
        else:  # the class is full, or this address starts pages faster than its rate
            self.set_status(429 if reason == "address_too_fast" else 503)
            page = notice_page(lang, "The class is full", _(
                "This server is already serving as many pages as it can. Wait a minute and reload this page; if it "
                "still does not open, tell your teacher."))
        self.log.warning("no kernel for a page from %s: %s (%d kernels on the server)", self.request.remote_ip,
                         reason, _register(self).kernels())
        self.set_header("Retry-After", "60")
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(page)

    def on_finish(self):
        self._release()
        super().on_finish()

    def on_connection_close(self):
        self._gone = True
        self._release()  # the browser went away while its page was being rendered
        super().on_connection_close()

    def _release(self) -> None:
        if self._ticket is not None:
            _register(self).release(self._ticket)
        if self._turn is not None:
            _turns(self).give_back(self._turn)
            self._turn = None
        if self._start_slot is not None:
            _starts(self).give_back(self._start_slot)
            self._start_slot = None


class OwnerMixin(ClientMixin):
    """Only the browser that started a kernel may reach it: another gets 403, an unknown kernel 404."""

    # jupyter_server's handlers, which this is mixed into, have them
    kernel_manager: Any
    log: logging.Logger

    def write_error(self, status_code: int, **kwargs) -> None:
        """A short text (Jupyter Server's error pages need templates that a websocket refusal cannot render)."""
        error = kwargs.get("exc_info", (None, None, None))[1]
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code}: {getattr(error, 'log_message', None) or reason_phrase(status_code)}\n")

    def check_owner(self, kernel_id: str) -> None:
        owner = _register(self).owner(kernel_id)
        if kernel_id not in self.kernel_manager or owner is None:  # no such kernel, or one being shut down
            raise web.HTTPError(404, "no such kernel")
        if owner != self.client_id():
            self.log.warning("refused kernel %s to %s: another page started it", kernel_id, self.request.remote_ip)
            raise web.HTTPError(403, "this kernel belongs to another page")

    def _kernel_id(self) -> str:
        return self.path_kwargs.get("kernel_id") or (self.path_args[0] if self.path_args else "")


class OwnedKernelHandler(OwnerMixin, KernelHandler):
    """``api/kernels/<id>``: the page asks whether its kernel still exists (connection.js), or stops it."""

    async def prepare(self):  # type: ignore[override]  # as Jupyter Server's own API handlers
        await _awaited(super().prepare())
        if not self._finished:
            # (asking is no sign of a page: a script polling here gains its kernel no time, only a connection does)
            self.check_owner(self._kernel_id())


class OwnedShutdownHandler(OwnerMixin, VoilaShutdownKernelHandler):
    """``voila/api/shutdown/<id>``: the beacon a page sends when it is left. XSRF checks stay on: the page sends
    the ``_xsrf`` cookie's value, which :class:`TutorRenderHandler` makes sure exists."""

    async def prepare(self):
        await _awaited(super().prepare())
        if not self._finished:
            self.check_owner(self._kernel_id())


class RecentIds:
    """The ids of the last messages a page sent on one connection. The kernel refuses a message it has seen
    (the same id gives the same signature) and logs a traceback for each: a page that sends one message again and
    again is stopped here, before it costs the kernel anything."""

    def __init__(self, size: int = 1024) -> None:
        self.size, self._ids = size, OrderedDict[str, None]()

    def repeated(self, msg_id: str) -> bool:
        if msg_id in self._ids:
            return True
        self._ids[msg_id] = None
        if len(self._ids) > self.size:
            self._ids.popitem(last=False)
        return False


STATE_REQUESTS = {"request_states": 1.0, "request_state": SINGLE_STATE_COST}  # what each costs of a page's rate


def screen_message(message: str | bytes, protocol: str | None, seen: RecentIds | None = None,
                   may_ask_states: Callable[[float], bool] | None = None) -> str | None:
    """None for a message a page may send its kernel; otherwise what is wrong with it, in a few words. With
    ``seen``, a message whose id came before on the same connection is refused too; with ``may_ask_states``, a
    request for widget state that it refuses (given the request's cost: :data:`STATE_REQUESTS`).

    >>> screen_message(json.dumps({"channel": "shell", "header": {"msg_type": "execute_request"}, "content": {}}), None)
    'execute_request'
    >>> screen_message(json.dumps({"channel": "shell", "header": {"msg_type": "comm_open"},
    ...                            "content": {"target_name": "jupyter.widget"}}), None)
    'comm_open to jupyter.widget'
    >>> seen, again = RecentIds(), json.dumps({"channel": "shell", "content": {},
    ...                                        "header": {"msg_type": "kernel_info_request", "msg_id": "a1"}})
    >>> screen_message(again, None, seen), screen_message(again, None, seen)
    (None, 'a message sent twice')
    """
    try:
        if isinstance(message, bytes) and protocol == V1_PROTOCOL:
            channel, parts = deserialize_msg_from_ws_v1(message)
            header, content = json.loads(parts[0]), json.loads(parts[3])
        else:
            found = deserialize_binary_message(message) if isinstance(message, bytes) else json.loads(message)
            channel, header, content = found.get("channel"), found["header"], found.get("content") or {}
        kind = header["msg_type"]
    except Exception:  # noqa: BLE001 - anything unreadable is refused, whatever broke
        return "unreadable message"
    if kind not in PAGE_MESSAGES:
        return str(kind)[:40]
    if channel != "shell":
        return f"{kind} on channel {str(channel)[:20]}"
    if kind == "comm_open" and content.get("target_name") not in PAGE_COMM_TARGETS:
        return f"comm_open to {str(content.get('target_name'))[:40]}"
    if kind == "comm_msg" and (content.get("data") or {}).get("method") not in PAGE_COMM_METHODS:
        return f"comm_msg {str((content.get('data') or {}).get('method'))[:20]}"
    if seen is not None:
        msg_id = header.get("msg_id")
        if not isinstance(msg_id, str) or not msg_id:
            return "a message without an id"
        if seen.repeated(msg_id[:100]):
            return "a message sent twice"
    if may_ask_states is not None and kind == "comm_msg":
        cost = STATE_REQUESTS.get(str((content.get("data") or {}).get("method")))
        if cost is not None and not may_ask_states(cost):
            return "widget state asked for faster than a page does"
    return None


TOO_BIG = 1009  # the websocket close code for a message too big to process (RFC 6455)


class CappedProtocol(WebSocketProtocol13):
    """Tornado's websocket protocol, whose message cap (``message_bytes``) refuses a message from the length in its
    frame header, before it is read: here the close says why, and the server's log which kernel's page it was."""

    def close(self, code: int | None = None, reason: str | None = None) -> None:
        if code == TOO_BIG and not self.server_terminated:
            cap = self.params.max_message_size
            reason = f"a message over {cap // 1024} kB: a page's widget messages are a few kB"
            handler = self.handler
            if isinstance(handler, TutorKernelWebsocketHandler):
                handler.log.warning("closed the connection to kernel %s: its page sent a message over %d bytes",
                                    handler._counted, cap)
        super().close(code, reason)


class TutorKernelWebsocketHandler(OwnerMixin, VoilaKernelWebsocketHandler):
    """A page's connection to its kernel, within the limits."""

    _counted: str | None = None
    _unsent = 0
    _dropped = False
    _seen: RecentIds | None = None

    @property
    def max_message_size(self) -> int:
        return _limits(self).message_bytes

    def get_websocket_protocol(self):
        protocol = super().get_websocket_protocol()
        return None if protocol is None else CappedProtocol(self, False, protocol.params)

    async def get(self, kernel_id):
        self.check_owner(kernel_id)
        if not _register(self).socket_opened(kernel_id):
            self.log.warning("refused a connection to kernel %s: it has %d already", kernel_id,
                             _limits(self).sockets_per_kernel)
            raise web.HTTPError(429, "this kernel has all the connections it may have")
        self._counted = kernel_id
        stream = getattr(self.request.connection, "stream", None)
        if stream is not None:  # a full server closes this connection last to make room (AddressConnections)
            stream.page_socket = True
        seat = _register(self).seats.get(kernel_id)
        if seat is not None and seat.sockets == 1 and seat.connected_after is not None:
            self.log.info("kernel %s: its page connected %.1f s after it was sent", kernel_id, seat.connected_after)
        try:
            await _awaited(super().get(kernel_id=kernel_id))
        except BaseException:
            self._uncount()
            raise
        if self.ws_connection is None:
            self._uncount()

    async def pre_get(self):
        await _awaited(super().pre_get())
        if getattr(self, "connection", None) is None:
            # The page went away while its connection to the kernel was being made (on_close dropped it): without
            # this, accepting the websocket would fail on the missing connection with a traceback in the log.
            raise web.HTTPError(410, "the page left before its connection to the kernel was made")

    async def open(self, kernel_id):
        # Tornado leaves Nagle's algorithm on once the upgrade's request is done: a click's answer is several
        # small frames, and all but the first would wait for the browser's delayed acknowledgement (40 ms on
        # Linux, up to 200 ms elsewhere)
        self.set_nodelay(True)
        await _awaited(super().open(kernel_id))

    def _uncount(self) -> None:
        if self._counted is not None:
            _register(self).socket_closed(self._counted)
            self._counted = None

    def on_close(self):
        self._uncount()
        if getattr(self, "connection", None) is not None:
            super().on_close()

    def on_message(self, ws_message):
        client = _register(self).owner(self._counted or "")
        if client is not None and not _register(self).may_send(client, len(ws_message)):
            self.log.warning("dropped a message from the page of kernel %s: its browser sends more than %d bytes "
                             "a second", self._counted, _limits(self).message_rate_bytes)
            return None
        if self._seen is None:
            self._seen = RecentIds()
        kernel_id = self._counted or ""
        refused = screen_message(ws_message, self.selected_subprotocol, self._seen,
                                 lambda cost: _register(self).may_ask_states(kernel_id, cost))
        if refused is not None:
            self.log.warning("dropped a message from the page of kernel %s: %s", self._counted, refused)
            return None
        return super().on_message(ws_message)

    def write_message(self, message, binary=False):
        size = len(message) if isinstance(message, (bytes, str)) else 0
        if self._dropped:
            return None
        if self._unsent + size > _limits(self).write_buffer_bytes:
            self._drop_slow_reader()
            return None
        sent = super().write_message(message, binary)
        if sent is not None and size:
            self._unsent += size

            def written(future) -> None:
                self._unsent -= size
                if not future.cancelled():
                    future.exception()  # a connection closed while writing is expected: not a log line each

            sent.add_done_callback(written)
        return sent

    def _drop_slow_reader(self) -> None:
        self._dropped = True
        self.log.warning("dropped the connection to kernel %s: its page has not read %d bytes", self._counted,
                         self._unsent)
        if self._counted is not None:
            # What was not sent is lost, so the page cannot be brought up to date: its session ends (nothing kept
            # for a reconnect, the kernel stopped) and the page says so; a reload brings the game back.
            self.kernel_manager.end_page(self._counted, "its page did not read what it asked for")
        stream = getattr(self.ws_connection, "stream", None)
        if stream is not None:
            stream.close()  # at once: a closing handshake would wait behind the unsent data


class NotFoundHandler(web.RequestHandler):
    """``/login``, ``/logout``: a course server has no accounts."""

    def prepare(self) -> None:
        raise web.HTTPError(404)


class NoSuchPageHandler(web.RequestHandler):
    """Any address nothing else answers: a short page in the address's language, with a link to the course's
    first page (not Tornado's bare one, which says no language and leads nowhere)."""

    def initialize(self, server_url: str) -> None:
        self.server_url = server_url

    def prepare(self) -> None:
        raise web.HTTPError(404)

    def write_error(self, status_code: int, **kwargs) -> None:
        write_no_such_page(self, self.server_url)


def write_no_such_page(handler: web.RequestHandler, server_url: str) -> None:
    """Finish ``handler`` with the page that says its address leads nowhere, in the address's language."""
    lang = page_language(handler)
    _ = Translator(lang)
    handler.set_header("Content-Type", "text/html; charset=utf-8")
    handler.finish(notice_page(lang, "Page not found", _(
        "This address does not lead to any page in the course. It may be mistyped, or the page you are looking "
        "for may have moved."), link=f"{server_url}?lang={lang}", link_text="Go to the course's home page"))


class _Refusal(web.RequestHandler):
    def initialize(self, status: int, reason: str) -> None:
        self.status, self.reason = status, reason

    def prepare(self) -> None:
        self.set_status(self.status)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(self.reason + "\n")


class HostGate(Router):
    """In front of the application: unknown hosts and odd paths never reach a handler; ``on_request`` is told the
    path of every request let in."""

    def __init__(self, app: web.Application, hosts: AllowedHosts,
                 on_request: Callable[[str], None] | None = None) -> None:
        self.app, self.hosts, self.on_request = app, hosts, on_request

    def find_handler(self, request, **kwargs):
        if not self.hosts.allows(request.host):
            self.app.settings["escoba_log"].warning("refused a request for host %r", request.host[:80])
            return self.app.get_handler_delegate(request, _Refusal, {
                "status": 403, "reason": "This server does not answer to that host name (see --allow-host)."})
        status = odd_path(request.path)
        if status is not None:
            return self.app.get_handler_delegate(request, _Refusal, {
                "status": status, "reason": "Bad request." if status == 400 else "Not found."})
        if self.on_request is not None:
            self.on_request(request.path)
        return self.app.find_handler(request, **kwargs)


TOO_MANY_CONNECTIONS = "Too many connections"
TOO_MANY_CONNECTIONS_TEXT = ("The course's server has too many connections open from this address. Wait a minute, "
                             "then reload this page; if it still does not open, tell your teacher.")
LINGER_S = 2.0  # how long a refused connection is read (and what it sends dropped) before it is closed
LINGER_BYTES = 64 * 1024  # what a refused connection may send meanwhile
LINGERING = 32  # refused connections being read at once, in all; beyond them one is closed straight away


def connection_refusal(first: str) -> bytes:
    """The 429 answer to a connection refused as it is accepted, whole, headers included: a short page in every
    language of the course, ``first`` first (the server reads nothing of the request, so it does not know the
    page's language, and reading its headers would cost what the refusal saves).

    >>> refusal = connection_refusal("es").decode()
    >>> refusal.startswith("HTTP/1.1 429 Too Many Requests"), '<html lang="es">' in refusal
    (True, True)
    >>> refusal.index("Demasiadas conexiones") < refusal.index("Too many connections</h1>")
    True
    """
    parts = [{"lang": lang, "title": Translator(lang)(TOO_MANY_CONNECTIONS),
              "text": Translator(lang)(TOO_MANY_CONNECTIONS_TEXT)}
             for lang in sorted(LANGUAGES, key=lambda lang: lang != first)]
    body = render("too_many_connections.html.j2", parts=parts).encode("utf-8")
    return (b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/html; charset=utf-8\r\n"
            b"Retry-After: 60\r\nCache-Control: no-store\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s"
            % (len(body), body))


def _quietly(done) -> None:
    if not done.cancelled():
        done.exception()  # a client gone already is no error to log


class CappedHTTPServer(HTTPServer):
    """Tornado's HTTP server, with at most ``connections.cap`` connections open from one network address (requests,
    and the websockets they become) and ``connections.total`` in all (from the limit of open files). One more is
    answered at once, before anything of it is read, with 429 (:func:`connection_refusal`): it costs the server no
    request and no handler. A full server first makes room for an address quieter than the busiest one, by closing
    that one's newest connection. The log says so once a minute per address, with the count, not once per
    connection.

    A refused connection is not closed at once: the browser has most likely sent its request already, and a
    connection closed with unread data is reset, which makes a browser drop the answer it has received (most do;
    Chromium then shows "connection reset" instead of the page). So the server sends its answer, says it will send
    no more, and reads, dropping it, what comes for up to ``LINGER_S`` seconds (a browser closes as soon as it has
    the answer), ``LINGERING`` connections at most at once."""

    connections: AddressConnections | None = None
    log: logging.Logger | None = None
    refusal: bytes = b""  # connection_refusal's, in the server's language first (the server sets it)
    lingering = 0

    def handle_stream(self, stream, address) -> None:
        peer = str(address[0]) if isinstance(address, tuple) and address else ""
        connections = self.connections
        if connections is None:
            super().handle_stream(stream, address)
            return
        admission = connections.admit(peer, stream)
        if admission:
            if admission.made_room:
                self._tell(f"room {admission.made_room}", "closed %d connection%s of %s in the last minute to let "
                           "in another address's: the server holds the %d connections its open files allow, and "
                           "that address holds the most", admission.made_room, connections.total)
            super().handle_stream(stream, address)
            return
        if admission.why == "server":
            self._tell(f"server {peer}", "refused %d connection%s from %s in the last minute: the server holds the "
                       "%d connections its open files allow, and that address holds the most", peer,
                       connections.total)
        else:
            self._tell(peer, "refused %d connection%s from %s in the last minute: it holds %d open connections, as "
                       "many as one address may (connections_per_address)", peer, connections.cap)
        if self.lingering >= LINGERING:  # a flood: the answer, if the socket takes it at once, and no reading
            with contextlib.suppress(StreamClosedError):
                stream.write(self.refusal or connection_refusal("es")).add_done_callback(_quietly)
            stream.close()
            return
        self.lingering += 1
        asyncio.ensure_future(self._refuse(stream))

    def _tell(self, key: str, text: str, address: str, count: int) -> None:
        told = self.connections.refused(key) if self.connections is not None else None
        if told is not None and self.log is not None:
            self.log.warning(text, told, "" if told == 1 else "s", address, count)

    async def _refuse(self, stream) -> None:
        closing = IOLoop.current().call_later(LINGER_S, stream.close)
        try:
            await stream.write(self.refusal or connection_refusal("es"))
            if stream.socket is None:  # closed meanwhile
                return
            stream.socket.shutdown(socket.SHUT_WR)  # the answer is whole: the browser may read it and close
            dropped = 0
            while dropped < LINGER_BYTES:
                dropped += len(await stream.read_bytes(LINGER_BYTES, partial=True))
        except (StreamClosedError, OSError):  # the client closed (as a browser does once it has the answer)
            pass
        finally:
            IOLoop.current().remove_timeout(closing)
            stream.close()
            self.lingering -= 1


#: Voilà's handlers (and jupyter_server's, which Voilà routes to) that the server replaces with its own: each one
#: must be in Voilà's routes (framework.swap_handlers), or the limit its replacement carries would be lost.
SWAPS: dict[type, type] = {TornadoVoilaHandler: TutorRenderHandler, KernelHandler: OwnedKernelHandler,
                           VoilaKernelWebsocketHandler: TutorKernelWebsocketHandler,
                           VoilaShutdownKernelHandler: OwnedShutdownHandler}
#: Voilà's handlers the server does not route to at all: the folder listing (``voila/tree``) and its data
#: (``voila/api/contents``). The course's pages link to its lessons, never to a listing; a request there gets the
#: course's own 404 page (framework.drop_handlers).
UNSERVED: tuple[type, ...] = (TornadoVoilaTreeHandler, VoilaContentsHandler)
