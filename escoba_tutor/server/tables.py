"""Tables where students play each other, on the course server: the students' kernels open, join, play and wait.

The tables' state is in the class database (escoba_tutor/records/tables.py, docs/tables.md); this module is the
course server's side of it. A student's kernel asks its own course server, with its records token, from this
machine only (as the records and the class exercise do, records_endpoint.py), under ``class/tables/``:

- ``POST open`` (JSON ``players``: 2 or 4, ``rules``: empty for the server's rules, or the server's rules with
  named house rules, such as ``escoba+figuras``, ``hints``: whether a player may ask for a hint, true by
  default), ``POST join`` (``code``, typed as the student typed it; ``seat`` optional), ``POST leave``
  (``code``), ``POST computer`` (``code``, ``seat``, ``level``: an empty or left seat, or one's own, to the
  computer), ``POST take`` (``code``, ``seat``: a seat taken back from the computer), ``POST play`` (``code``,
  ``seat``, ``version``: the version the play was made against, and ``move``: ``3c+1o+4b+7o``, or ``card`` and
  ``take``, a list of table cards);
- ``GET view?code=C`` the student's own seat's view; ``GET wait?code=C&after=V`` the same, once the table is at
  another version than ``V`` (a long poll: answered at once when it is, else when the table changes, or after
  :data:`WAIT_S` seconds); ``GET list`` the class's tables, their public facts only.

Every answer about a table is the asking student's own seat's view (:func:`view_json`): their hand, the table,
each side's captures (counted, and the piles as the game shows them to everybody), whose turn it is, the plays
they may make only on their own turn, whether they have played in the deal under way (the page keeps the last
deal's score sheet until they have), the scores and the end of the last deal and of the game, whether hints are
allowed, and the public events of the last deal finished and of the deal under way (the table dealt, each play as
everybody saw it: a hint and a deal's review are worked out from them in the student's kernel). Never another
player's hand, the game's seed or its save. A refusal is JSON too: ``error`` (the records' code, or one of this
module's) and ``message``, in the language the kernel asks for (``lang``), from the server's catalog; nothing is
changed by a refused request.

Whose seat: a seat is held by the student the server knows, the nickname of the page that started the kernel
(the register's record owner), never by what a request says. The records layer keeps a seat by a token; the
server makes it from the nickname (:func:`seat_token`), so that the same student finds their seat again from
another page, after a reload, and after a restart of the server (the kernels and their records tokens are new
then; the nickname is the same). A nickname is the student's identity for their records already: on one computer
it is what the student typed, on a JupyterHub the hub's login.

Waking the pages: :class:`TableBell` keeps, in the server's process, one event per table that a kernel waits
on; every change this server makes rings that table's bell (:meth:`TableBell.changed`), and the waiting kernels
read their own views again (a wake that finds the table at the version the kernel has waits on). The teacher's
list of the class's tables (board_tables.py) waits on the bell of every table at once. Over PostgreSQL (a
JupyterHub, where the two players' pages reach two servers and the teacher's board a third) the server's one
listener (records/notify.py) rings the bell of a table another server changed: records/tables.py notifies every
change on the channel ``escoba_tables`` (:func:`table_settings`; docs/tables.md).

The computer's seats: after a change, this server plays the computer's turns itself, one play every
:data:`COMPUTER_DELAY` seconds (so that each is seen), in a thread of its own (the expert's search takes a
moment, and the event loop serves the class meanwhile), ringing the bell after each. A computer's turn left
unplayed (the server stopped) is played once a student's view of the table is read again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import time
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, NoReturn

from tornado import web

from ..engine.cards import DECK
from ..engine.errors import EscobaError
from ..engine.game import DealScored, Play
from ..engine.moves import Move
from ..engine.rules import VARIANTS
from ..engine.scoring import Setenta
from ..records import tables as records_tables
from ..records.events import RecordsError, nickname_key
from ..records.recorder import TOKEN_HEADER
from ..records.table_view import events_json
from ..records.tables import IllegalPlayError, SeatView, StaleVersionError, TableError, TableInfo
from ..text.error_words import error_words
from ..text.translator import LANGUAGES, N_, Translator
from .limits import Buckets
from .records_endpoint import from_this_machine

__all__ = ["TableBell", "TableService", "table_handlers", "table_settings", "seat_token", "view_json", "info_json",
           "TABLES_PATH", "WAIT_S", "COMPUTER_DELAY", "MAX_BODY"]

TABLES_PATH = "class/tables"
WAIT_S = 25.0            # a long poll's longest wait: the kernel then asks again
COMPUTER_DELAY = 0.8     # seconds before each of the computer's plays, so that the players see each one
MAX_BODY = 1024          # a request's body: a play is a few dozen bytes
SEEN_EVERY = 30.0        # a student's sign of life is written at most this often per table (a seat is left at 120 s)
WAITS_PER_STUDENT = 8    # long polls one student may hold open at once (a few tabs)
CHANGES_PER_S, CHANGES_BURST = 10.0, 100  # one student's changes (plays, seats): far above a player's pace
PLAYS_KEPT = 2000        # plays remembered, so that one sent twice is answered as done rather than refused
# The tables' database work, off the event loop: a long poll's read, a play's transaction, the computer's choice.
TABLE_WORK = ThreadPoolExecutor(max_workers=4, thread_name_prefix="escoba-tables")

# What a student's page may be told, by the code of the refusal (the records' codes, then this module's own).
ERROR_WORDS: dict[str, str] = {
    "table_not_found": N_("There is no table with that code. Check the code your classmate gave you."),
    "table_bad_code": N_("A table code has five letters and digits, like K7M2Q."),
    "table_bad_settings": N_("A table is for two players, or four in two teams, with rules the course knows."),
    "table_bad_level": N_("The computer plays at the easy, medium or hard level."),
    "table_full": N_("Every seat at this table is taken."),
    "table_not_seated": N_("You have no seat at this table."),
    "table_not_your_seat": N_("That seat at this table is not yours."),
    "table_seat_taken": N_("That seat is taken."),
    "table_not_ready": N_("The game starts once every seat is taken."),
    "table_over": N_("The game at this table is over."),
    "table_not_your_turn": N_("It is not your turn."),
    "table_stale_version": N_("The table has changed meanwhile: look at it again and choose your play."),
    "table_illegal_play": N_("That play is not allowed."),
    "table_bad_request": N_("The course could not understand this request."),
    "table_too_big": N_("This request is too long."),
    "table_too_many": N_("Too many requests at once: wait a moment and try again."),
    "table_unavailable": N_("The class's tables cannot be reached just now: try again in a moment."),
    "table_forbidden": N_("This page's session on the server has ended: reload the page to sit at the table again."),
    "table_no_tables": N_("This course's server has no tables where classmates play each other."),
}
_ILLEGAL_BECAUSE = N_("That play is not allowed: {problem}.")
_STATUS = {"table_not_found": 404, "table_bad_code": 404, "table_not_seated": 403, "table_bad_token": 403,
           "table_full": 409, "table_seat_taken": 409, "table_not_ready": 409, "table_over": 409,
           "table_not_your_turn": 409, "table_stale_version": 409, "table_too_big": 413, "table_too_many": 429,
           "table_unavailable": 503}


def seat_token(nickname: str) -> str:
    """The token the records layer keeps a seat by, for the student ``nickname`` (see the module's text): the
    same for every spelling the board counts as one student (``Ana``, ``ana``)."""
    digest = hashlib.sha256(f"escoba-tutor-seat:{nickname_key(nickname)}".encode()).hexdigest()
    return f"seat-{digest}"


# ------------------------------------------------------------------------------------------ what a kernel is told
def _codes(cards) -> list[str]:
    return [card.code for card in cards]


def _value(value: Any) -> Any:
    """A score line's value as JSON: a count or yes/no as it is; a setenta as the numbers and suits the score sheet
    shows (its sum, its total or none, the suits it misses and those it holds in face cards only): no card, so an
    answer never names a card a new deal may have dealt to another hand."""
    if isinstance(value, Setenta):
        return {"sum": value.sum, "total": value.total, "missing": [suit.value for suit in value.missing],
                "face_only": [suit.value for suit in value.face_only]}
    return value if isinstance(value, (bool, int)) or value is None else str(value)


def info_json(info: TableInfo, nickname: str | None = None) -> dict[str, Any]:
    """A table's public facts (no hand): for the class's list, and the seats of a view. ``you`` marks the seat
    of the student ``nickname``, when given."""
    key = nickname_key(nickname) if nickname else None
    return {"code": info.code, "players": info.players, "rules": info.rules, "state": info.state,
            "version": info.version, "turn": info.turn, "deal": info.deal, "totals": list(info.totals),
            "winner": info.winner, "hints": info.hints,
            "seats": [{"seat": s.seat, "side": s.side, "nickname": s.nickname, "computer": s.computer,
                       "left": s.left, "empty": s.empty,
                       "you": key is not None and s.nickname is not None and nickname_key(s.nickname) == key}
                      for s in info.seats]}


def _deal_summary(event: DealScored) -> dict[str, Any]:
    return {"deal": event.deal, "points": list(event.score.points), "totals": list(event.totals),
            "lines": [{"item": line.item, "values": [_value(v) for v in line.values], "points": list(line.points),
                       "winners": list(line.winners), "reason": line.reason} for line in event.score.lines]}


def _played_in_deal(history: Sequence[Any], deal: int, seat: int) -> bool:
    """Whether ``seat`` has made a play in the deal under way (the history read from its end, to its deal's
    start)."""
    for event in reversed(history):
        if getattr(event, "deal", deal) != deal:
            return False
        if isinstance(event, Play) and event.player == seat:
            return True
    return False


def view_json(view: SeatView) -> dict[str, Any]:
    """One seat's view, as its own student's kernel is told it: see the module's text. Built from the engine's
    view for that seat alone, which holds no other hand."""
    game, table = view.game, view.table
    mine = view.my_turn
    last_play = next((e for e in reversed(game.history) if isinstance(e, Play)), None)
    last_deal = next((e for e in reversed(game.history) if isinstance(e, DealScored)), None)
    seats = info_json(table)["seats"]
    seats[view.seat]["you"] = True
    return {
        "code": table.code, "version": table.version, "state": table.state, "players": table.players,
        "rules": table.rules, "seat": view.seat, "side": game.side, "seats": seats,
        "deal": game.deal, "dealer": game.dealer, "turn": table.turn, "my_turn": mine,
        "hand": _codes(game.hand), "table": _codes(game.table), "hand_sizes": list(game.hand_sizes),
        "captured": list(game.pile_sizes), "piles": [_codes(pile) for pile in game.piles],
        "escobas": list(game.escobas), "deck_left": game.deck_left, "totals": list(game.totals),
        "legal": [move.text for move in game.legal_moves] if mine else [],
        "last_play": None if last_play is None else {
            "deal": last_play.deal, "seat": last_play.player, "side": last_play.side, "card": last_play.card.code,
            "took": _codes(last_play.captured), "escoba": last_play.escoba},
        "last_deal": None if last_deal is None else _deal_summary(last_deal),
        # the public events of the last deal finished and of the deal under way: every play in them was made in
        # the open (records/table_view.py rebuilds the view for a hint, and the finished deal for its review)
        "history": events_json(game.history, game.deal if last_deal is None else last_deal.deal),
        "hints": table.hints,
        "played_in_deal": _played_in_deal(game.history, game.deal, view.seat),
        "game_over": None if game.winner is None else {"winner": game.winner, "totals": list(game.totals)},
    }


# ------------------------------------------------------------------------------------------------- the bell
class TableBell:
    """One event per table that a kernel waits on (see the module's text), and one that any table's change sets
    (the teacher's list of the class's tables). Lives on the event loop's thread, the one that first asks for an
    event; :meth:`changed` may be called from any thread."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.loop = loop
        self._events: dict[str, asyncio.Event] = {}
        self._any: asyncio.Event | None = None

    def _bind(self) -> None:
        if self.loop is None:
            self.loop = asyncio.get_running_loop()

    def event(self, code: str) -> asyncio.Event:
        """The event the next change of ``code`` sets; taken before the table is read, so that a change made
        between the read and the wait still wakes the waiter."""
        self._bind()
        event = self._events.get(code)
        if event is None:
            event = self._events[code] = asyncio.Event()
        return event

    def any_event(self) -> asyncio.Event:
        """The event the next change of any table sets (taken before the tables are read, as :meth:`event`)."""
        self._bind()
        if self._any is None:
            self._any = asyncio.Event()
        return self._any

    def changed(self, code: str | None) -> None:
        """The table ``code`` has changed (this server changed it, or a listener heard of it): wake its waiters.
        None: any table may have changed (a lost notification, a class's tables forgotten): wake every waiter."""
        if self.loop is None:
            return  # nobody has waited yet: no event to set
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self.loop:
            self._ring(code)
        else:
            self.loop.call_soon_threadsafe(self._ring, code)

    def _ring(self, code: str | None) -> None:
        for event in ([self._events.pop(code, None)] if code is not None else self._pop_all()):
            if event is not None:
                event.set()
        if self._any is not None:
            self._any.set()
            self._any = None

    def _pop_all(self) -> list[asyncio.Event]:
        events, self._events = list(self._events.values()), {}
        return events

    @staticmethod
    async def wait(event: asyncio.Event, timeout: float = WAIT_S) -> bool:
        """Wait for ``event`` (from :meth:`event`) at most ``timeout`` seconds; whether it rang."""
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)
        return event.is_set()


class TableService:
    """The server's tables: the store, the bell, the computer's plays under way, the plays already made (a play
    sent twice is answered as done), the last sign of life written per seat, and each student's bounds."""

    def __init__(self, store, loop: asyncio.AbstractEventLoop | None = None, *,
                 computer_delay: float = COMPUTER_DELAY) -> None:
        self.store = store
        self.bell = TableBell(loop)
        self.computer_delay = computer_delay
        self._computer: dict[str, asyncio.Task] = {}
        self._computer_wanted: set[str] = set()
        self.plays: OrderedDict[tuple[str, str, int, str], bool] = OrderedDict()
        self.seen: dict[tuple[str, str], float] = {}
        self.changes = Buckets(CHANGES_BURST, CHANGES_PER_S)
        self.waits: dict[str, int] = {}

    async def run(self, work, *args, **kwargs):
        return await asyncio.get_running_loop().run_in_executor(TABLE_WORK, partial(work, *args, **kwargs))

    def computer_plays(self, code: str) -> None:
        """Have the computer's turns at ``code`` played (a task per table; asked again while it runs, it looks
        once more before it stops)."""
        self._computer_wanted.add(code)
        if code not in self._computer:
            self._computer[code] = asyncio.ensure_future(self._play_computer(code))

    async def _play_computer(self, code: str) -> None:
        try:
            while code in self._computer_wanted:
                self._computer_wanted.discard(code)
                while True:
                    await asyncio.sleep(self.computer_delay)
                    made = await self.run(self.store.play_computer_turns, code, 1)
                    if not made:
                        break
                    self.bell.changed(code)
        except RecordsError as error:  # the database failed: the next read of the table tries again
            with contextlib.suppress(Exception):
                import logging

                logging.getLogger("escoba_tutor.records").warning("the computer's play at table %s was not made: "
                                                                  "%s", code, str(error)[:200])
        finally:
            self._computer.pop(code, None)

    def after(self, view: SeatView) -> None:
        """After a view was read or a change made: the computer plays if it is its turn."""
        table = view.table
        if table.state == "playing" and table.turn is not None and table.seats[table.turn].computer is not None:
            self.computer_plays(table.code)

    def notified(self, payload: str | None) -> None:
        """Another server changed a table (PostgreSQL's ``escoba_tables``: ``CODE VERSION``), or the listener
        connected again (None: notifications may have been lost meanwhile, so every waiter reads again)."""
        code = payload.split(" ", 1)[0] if payload else None
        if code is not None and not (len(code) == records_tables.CODE_LENGTH and code.isalnum()):
            return  # not a table's code: nothing of ours
        self.bell.changed(code)

    def remember_play(self, key: tuple[str, str, int, str]) -> None:
        self.plays[key] = True
        while len(self.plays) > PLAYS_KEPT:
            self.plays.popitem(last=False)

    async def sign_of_life(self, code: str, token: str) -> None:
        """Write that the student is at the table, at most every :data:`SEEN_EVERY` seconds."""
        now = time.monotonic()
        if now - self.seen.get((code, token), -SEEN_EVERY) < SEEN_EVERY:
            return
        self.seen[(code, token)] = now
        if len(self.seen) > 10_000:  # a long-lived server: forget the oldest half
            for key in sorted(self.seen, key=self.seen.__getitem__)[:5_000]:
                del self.seen[key]
        with contextlib.suppress(TableError):  # no seat (left, removed): the view's read says so
            await self.run(self.store.seen_at_table, code, token)


def service_of(handler: web.RequestHandler) -> TableService:
    """The server's one table service (:func:`table_settings`), or one made on first use where the settings have
    none (a server of handlers alone: the benchmarks')."""
    service = handler.settings.get("escoba_table_service")
    if service is None:
        service = handler.settings["escoba_table_service"] = TableService(
            handler.settings["escoba_class_store"], asyncio.get_running_loop(),
            computer_delay=handler.settings.get("escoba_computer_delay", COMPUTER_DELAY))
    return service


def table_settings(store, listener=None) -> dict:
    """The server's settings for the tables: its one :class:`TableService`, and, over PostgreSQL, the server's
    listener (records/notify.py, shared with the class exercise) ringing its bell when another server changes a
    table: on a JupyterHub the two players' pages reach two servers, and the teacher's board a third."""
    service = TableService(store)
    if listener is not None:
        listener.add(records_tables.CHANNEL, service.notified)
    return {"escoba_table_service": service}


# ------------------------------------------------------------------------------------------------- the handlers
class _Refused(Exception):
    def __init__(self, code: str, status: int | None = None, **extra: Any) -> None:
        super().__init__(code)
        self.code, self.status, self.extra = code, status or _STATUS.get(code, 400), extra


class TableHandler(web.RequestHandler):
    """A kernel's request about tables: from this machine, with its records token (as records_endpoint.py), its
    student the token's owner. Every answer is JSON."""

    def check_xsrf_cookie(self) -> None:
        """No cookie is read here: the kernel's token, from this machine only, is the proof."""

    def lang(self) -> str:
        lang = self.get_argument("lang", "") or str(getattr(self, "_body", {}).get("lang", ""))
        return lang if lang in LANGUAGES else self.settings.get("escoba_default_lang", "es")

    def send(self, status: int, body: dict) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps(body))

    def refuse(self, code: str, status: int | None = None, **extra: Any) -> NoReturn:
        raise _Refused(code, status, **extra)

    def write_error(self, status_code: int, **kwargs) -> None:
        """A failure this module did not foresee: JSON all the same, never a traceback."""
        _ = Translator(self.lang())
        code = {403: "table_forbidden", 404: "table_no_tables"}.get(
            status_code, "table_bad_request" if status_code < 500 else "table_unavailable")
        self.send(status_code, {"error": code, "message": _(ERROR_WORDS[code])})

    def owner(self):
        """The student whose kernel sent this request (403 otherwise, as for the records)."""
        if self.settings.get("escoba_class_store") is None:
            raise web.HTTPError(404, "the class board is off: there are no tables")
        if not from_this_machine(self.request.remote_ip, self.settings.get("escoba_record_addresses", frozenset())):
            raise web.HTTPError(403, "the tables answer this machine's kernels only")
        owner = self.settings["escoba_register"].record_owner(self.request.headers.get(TOKEN_HEADER, ""))
        if owner is None:
            raise web.HTTPError(403, "no kernel holds this token")
        return owner

    def body(self) -> dict[str, Any]:
        if len(self.request.body) > MAX_BODY:
            self.refuse("table_too_big")
        try:
            body = json.loads(self.request.body or b"{}")
        except ValueError:
            self.refuse("table_bad_request")
        if not isinstance(body, dict):
            self.refuse("table_bad_request")
        self._body = body
        return body

    @staticmethod
    def code_of(text: object) -> str:
        try:
            return records_tables.table_code(text)
        except TableError:
            raise _Refused("table_bad_code") from None

    @staticmethod
    def number(value: object) -> int:
        if type(value) is not int or not 0 <= value < 10**15:
            raise _Refused("table_bad_request")
        return value

    async def answer(self, work) -> None:
        """Run ``work`` (a coroutine function giving the status and body) and send its answer, or the refusal in
        the student's language."""
        try:
            status, body = await work()
        except _Refused as refused:
            self.send_refusal(refused.code, refused.status, refused.extra)
            return
        except IllegalPlayError as error:
            self.send_refusal("table_illegal_play", 400, self.illegal(error))
            return
        except StaleVersionError as error:
            self.send_refusal("table_stale_version", 409, {"version": error.params.get("current")})
            return
        except TableError as error:
            code = error.code
            if code == "table_bad_settings" and "level" in error.params:
                code = "table_bad_level"
            words = "table_not_your_seat" if code == "table_not_seated" and "seat" in error.params else code
            self.send_refusal(code, _STATUS.get(code, 400), {"message": self.words(words)})
            return
        except RecordsError as error:
            self.settings["escoba_log"].warning("a table request was not served: %s", str(error)[:200])
            self.send_refusal("table_unavailable", 503, {})
            return
        self.send(status, body)

    def words(self, code: str) -> str:
        return Translator(self.lang())(ERROR_WORDS.get(code, ERROR_WORDS["table_bad_request"]))

    def send_refusal(self, code: str, status: int, extra: dict[str, Any]) -> None:
        message = extra.pop("message", None) or self.words(code)
        self.send(status, {"error": code, "message": message, **extra})

    def illegal(self, error: IllegalPlayError) -> dict[str, Any]:
        """An illegal play's reason, the captures the card could make, and the words for it."""
        _ = Translator(self.lang())
        engine = error.engine_error
        legal: list[list[str]] = []
        words = _(ERROR_WORDS["table_illegal_play"])
        if engine is not None:
            legal = [sorted((c.code for c in capture), key=_deck_order) for capture in
                     engine.params.get("legal_captures", ())]
            said = {"code": engine.code, **{k: v for k, v in engine.params.items()
                                            if k in ("card", "sum", "goal", "slip", "token", "hint_code",
                                                     "suggestion")}}
            if legal:
                said["legal_captures"] = legal
            with contextlib.suppress(Exception):  # words missing for a reason: the plain refusal
                words = _(_ILLEGAL_BECAUSE, problem=error_words(_, said))
        return {"reason": error.reason, "legal_captures": legal, "message": words}


_ORDER = {card.code: number for number, card in enumerate(DECK)}


def _deck_order(code: str) -> int:
    return _ORDER.get(code, 99)


class _StudentHandler(TableHandler):
    """The student's service, token and seat token, for each request."""

    def prepare(self) -> None:
        self.student = self.owner()
        self.token = seat_token(self.student.nickname)
        self.service = service_of(self)

    def change(self) -> None:
        """One more change by this student: within their bounds, else 429."""
        key = nickname_key(self.student.nickname)
        if not self.service.changes.take(key):
            self.refuse("table_too_many")

    def view(self, view: SeatView, status: int = 200, **extra: Any) -> tuple[int, dict[str, Any]]:
        self.service.after(view)
        return status, {"view": view_json(view), **extra}


class OpenHandler(_StudentHandler):
    """``POST class/tables/open``: a new table, its opener in seat 0."""

    async def post(self) -> None:
        async def work():
            body = self.body()
            players, rules = body.get("players", 2), body.get("rules") or ""
            hints = body.get("hints", True)  # a kernel from before the choice allows them, as the page did then
            if type(players) is not int or not isinstance(rules, str) or len(rules) > 200 or type(hints) is not bool:
                self.refuse("table_bad_settings", 400)
            self.change()
            chosen = table_rules(rules, self.settings.get("escoba_rules") or "escoba")
            view = await self.service.run(self.service.store.open_table, self.token, self.student.nickname, players,
                                          chosen, hints=hints)
            self.service.bell.changed(view.table.code)  # the teacher's list of tables shows it
            return self.view(view, 201)
        await self.answer(work)


class JoinHandler(_StudentHandler):
    """``POST class/tables/join``: a seat at the table (the student's own again, after a reload)."""

    async def post(self) -> None:
        async def work():
            body = self.body()
            code, wanted = self.code_of(body.get("code")), body.get("seat")
            seat = None if wanted is None else self.number(wanted)
            self.change()
            view = await self.service.run(self.service.store.join_table, code, self.token, self.student.nickname,
                                          seat, computer=False)
            self.service.bell.changed(code)
            return self.view(view)
        await self.answer(work)


class LeaveHandler(_StudentHandler):
    """``POST class/tables/leave``: the student leaves the table."""

    async def post(self) -> None:
        async def work():
            code = self.code_of(self.body().get("code"))
            self.change()
            info = await self.service.run(self.service.store.leave_table, code, self.token)
            self.service.seen.pop((code, self.token), None)
            self.service.bell.changed(code)
            return 200, {"left": True, "table": info_json(info)}
        await self.answer(work)


class ComputerHandler(_StudentHandler):
    """``POST class/tables/computer``: the computer plays a seat, at a level."""

    async def post(self) -> None:
        async def work():
            body = self.body()
            code, seat = self.code_of(body.get("code")), self.number(body.get("seat"))
            level = body.get("level", "")
            if not isinstance(level, str) or len(level) > 40:
                self.refuse("table_bad_level", 400)
            self.change()
            view = await self.service.run(self.service.store.give_seat_to_computer, code, seat, level, self.token,
                                          computer=False)
            self.service.bell.changed(code)
            return self.view(view)
        await self.answer(work)


class TakeHandler(_StudentHandler):
    """``POST class/tables/take``: a seat taken back from the computer."""

    async def post(self) -> None:
        async def work():
            body = self.body()
            code, seat = self.code_of(body.get("code")), self.number(body.get("seat"))
            self.change()
            view = await self.service.run(self.service.store.take_seat_back, code, seat, self.token,
                                          self.student.nickname, computer=False)
            self.service.bell.changed(code)
            return self.view(view)
        await self.answer(work)


def table_rules(asked: str, server: str) -> str:
    """The rules a table is opened with: the server's (``asked`` empty, or the server's own name), or the server's
    with named house rules added (``escoba+figuras``); others (another game's, an option set by hand) are refused.

    >>> table_rules("", "escoba"), table_rules("escoba+figuras", "escoba"), table_rules("Escoba + Renuncio", "escoba")
    ('escoba', 'escoba+figuras', 'escoba+renuncio')
    >>> table_rules("escoba+target=3+figuras", "escoba+target=3"), table_rules("escoba+figuras", "escoba+figuras")
    ('escoba+target=3+figuras', 'escoba+figuras')
    >>> table_rules("scopa", "escoba")
    Traceback (most recent call last):
    ...
    escoba_tutor.server.tables._Refused: table_bad_settings
    """
    asked = asked.strip()
    if not asked or asked == server:
        return server
    base, *own = (part.strip().lower().replace("-", "_") for part in server.split("+"))
    profile, *parts = asked.split("+")
    # the server's own settings (``target=3``) may come again in the name asked: the choices offered name them
    names = [name for name in (part.strip().lower().replace("-", "_") for part in parts) if name not in own]
    if profile.strip().lower() != base or not parts or not all(name in VARIANTS for name in names):
        raise _Refused("table_bad_settings")
    return "+".join([server, *names])


def move_text(body: dict[str, Any]) -> str:
    """The play a body names, as the engine's text (``3c+1o+4b+7o``): ``move``, or ``card`` and ``take``. Cards
    that are no cards are the engine's to refuse (with its words)."""
    move, card, take = body.get("move"), body.get("card"), body.get("take", [])
    if move is not None:
        if not isinstance(move, str) or card is not None:
            raise _Refused("table_bad_request")
        return move
    if not isinstance(card, str) or not isinstance(take, list) or not all(isinstance(c, str) for c in take) \
            or len(take) > 12:
        raise _Refused("table_bad_request")
    return "+".join([card, *take])


class PlayHandler(_StudentHandler):
    """``POST class/tables/play``: the student's play, against the version they saw."""

    async def post(self) -> None:
        async def work():
            body = self.body()
            code, seat = self.code_of(body.get("code")), self.number(body.get("seat"))
            version, text = self.number(body.get("version")), move_text(body)
            with contextlib.suppress(EscobaError):  # else the records layer refuses it, with the engine's reason
                text = Move.from_text(text).text  # one spelling of a play, for a play sent twice
            self.change()
            service = self.service
            key = (code, self.token, version, text)
            try:
                view = await service.run(service.store.play_at_table, code, seat, self.token, text, version,
                                         computer=False)
            except StaleVersionError:
                if key not in service.plays:
                    raise
                # the same play sent again (a retry after a lost answer): made once, answered as made
                view = await service.run(service.store.table_view, code, self.token, computer=False)
                return self.view(view, repeated=True)
            service.remember_play(key)
            service.bell.changed(code)
            return self.view(view)
        await self.answer(work)


class ViewHandler(_StudentHandler):
    """``GET class/tables/view?code=C``: the student's own seat's view."""

    async def get(self) -> None:
        async def work():
            code = self.code_of(self.get_argument("code", ""))
            await self.service.sign_of_life(code, self.token)
            return self.view(await self.service.run(self.service.store.table_view, code, self.token,
                                                    computer=False))
        await self.answer(work)


class WaitHandler(_StudentHandler):
    """``GET class/tables/wait?code=C&after=V``: the view, once the table is at another version than ``V``."""

    async def get(self) -> None:
        async def work():
            code = self.code_of(self.get_argument("code", ""))
            after = self.get_argument("after", "")
            if not (after.isascii() and after.isdigit() and len(after) < 16):
                self.refuse("table_bad_request")
            key = nickname_key(self.student.nickname)
            service = self.service
            if service.waits.get(key, 0) >= WAITS_PER_STUDENT:
                self.refuse("table_too_many")
            service.waits[key] = service.waits.get(key, 0) + 1
            try:
                await service.sign_of_life(code, self.token)
                loop = asyncio.get_running_loop()
                deadline = loop.time() + WAIT_S
                while True:
                    event = service.bell.event(code)  # before the read: a change during it still wakes this wait
                    view = await service.run(service.store.table_view, code, self.token, computer=False)
                    left = deadline - loop.time()
                    if view.version != int(after) or left <= 0:
                        break
                    service.after(view)
                    # a ring that changed nothing of this table (this server's own change heard again from
                    # PostgreSQL, every waiter woken after a lost notification) waits on
                    if not await service.bell.wait(event, left):
                        break
            finally:
                service.waits[key] -= 1
                if not service.waits[key]:
                    del service.waits[key]
            return self.view(view)
        await self.answer(work)


class ListHandler(_StudentHandler):
    """``GET class/tables/list``: the class's tables, their public facts (no hand)."""

    async def get(self) -> None:
        async def work():
            found = await self.service.run(self.service.store.class_tables)
            return 200, {"tables": [info_json(info, self.student.nickname) for info in found]}
        await self.answer(work)


def table_handlers(base_url: str) -> list[tuple]:
    """The tables' addresses under the server's base URL."""
    return [(f"{base_url}{TABLES_PATH}/{name}", handler) for name, handler in (
        ("open", OpenHandler), ("join", JoinHandler), ("leave", LeaveHandler), ("computer", ComputerHandler),
        ("take", TakeHandler), ("play", PlayHandler), ("view", ViewHandler), ("wait", WaitHandler),
        ("list", ListHandler))]
