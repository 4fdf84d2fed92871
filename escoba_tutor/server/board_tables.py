"""The class's tables on the teacher's board: the list of the tables where students play each other, and one
table on the projector, with no hand in sight.

With the board's key (one computer) or the hub's login (the board service), as the board's other pages
(class_board.BoardMixin):

- ``GET class/tables.json?key=K[&class=N]&after=STAMP``: the board's section listing the class's tables (its
  code, waiting, playing or finished, who plays whom by side, the computer's seats with their level, each side's
  total, whose turn), drawn, once it is other than ``STAMP`` (a long poll: answered at once when it is, else when
  a table changes, or after :data:`WAIT_S` seconds). The board's page draws it first with the page;
  static/class_board_tables.js keeps one long poll open and puts each answer in place;
- ``GET class/table?key=K&code=C``: one table for the projector (1920×1080, big cards): the cards on the table,
  each side's captures counted, escobas and total, how many cards each player holds, the last play, whose turn;
  ``GET class/table.json?key=K&code=C&after=V`` its live part once the table is at another version than ``V``.

Both are made from the records' public picture of a table (records/tables.py, :class:`TableInfo` and
:class:`TableTop`), which holds no card of any hand: nothing here could show one.

What wakes them is the server's :class:`~escoba_tutor.server.tables.TableBell`, the one the students' long polls
wait on: on one computer every change of a table is this server's own, and over PostgreSQL (the hub's board
service) the server's listener rings it when another server changes a table (tables.table_settings). Nothing
reads the database while no table changes, but for the wait's end every :data:`WAIT_S` seconds (a seat whose
student left shows so then).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any

from tornado import web

from ..engine.cards import Card
from ..engine.rules import VARIANTS
from ..exercises.kinds.house_rules import house_rule_name
from ..records.tables import SeatInfo, TableError, TableInfo, TableTop, table_code
from ..text import labels
from ..text.board_words import level_words
from ..text.phrases import and_list
from ..text.translator import Translator
from .class_board import _STATIC, BoardMixin
from .tables import TableService, service_of

__all__ = ["tables_view", "top_view", "board_tables_handlers", "tables_part", "WAIT_S"]

WAIT_S = 25.0  # a long poll's longest wait: the page then asks again
TABLES_DATA, TABLE_PAGE, TABLE_DATA = "class/tables.json", "class/table", "class/table.json"


def _state_words(_: Translator, state: str) -> str:
    # each said in full, so that the catalogs' extractor finds it
    return {"waiting": _("Waiting for players"), "playing": _("Playing"), "finished": _("Finished")}[state]


def _seat(_: Translator, seat: SeatInfo) -> dict[str, Any]:
    """One seat's words: the student's nickname (with «Player N» for the projector's hidden nicknames), the
    computer at its level, or an empty seat."""
    alias = _("Player {number}", number=seat.seat + 1)
    if seat.computer is not None:
        return {"nickname": None, "alias": alias, "words": _("the computer ({level})", level=level_words(
            _, seat.computer)), "computer": True, "left": False}
    if seat.nickname is None:
        return {"nickname": None, "alias": alias, "words": _("an empty seat"), "computer": False, "left": False}
    return {"nickname": seat.nickname, "alias": alias, "words": seat.nickname, "computer": False, "left": seat.left}


def _sides(_: Translator, info: TableInfo) -> list[dict[str, Any]]:
    sides: list[dict[str, Any]] = []
    for side in sorted({seat.side for seat in info.seats}):
        seats = [_seat(_, seat) for seat in info.seats if seat.side == side]
        # four players are two teams of partners: the lessons and the students' screens call them teams
        # (a label: «Bando 1» as a heading, «el bando 1» where a sentence names it)
        name = labels.team(_, side + 1) if info.players == 4 else labels.side(_, side + 1)
        sides.append({"side": side, "name": name, "seats": seats,
                      "total": info.totals[side] if side < len(info.totals) else 0,
                      "won": info.winner == side})
    return sides


def _house_rules(_: Translator, rules: str) -> str:
    """A table's house rules by the names lesson 7 gives them («figuras», "face cards"), "" for none: never the
    engine's names (``escoba+figuras``)."""
    names = [part.strip().lower() for part in rules.split("+")[1:]]
    return and_list(_, [house_rule_name(_, name) for name in names if name in VARIANTS])


def _turn(_: Translator, info: TableInfo) -> dict[str, Any] | None:
    if info.state != "playing" or info.turn is None:
        return None
    return _seat(_, info.seats[info.turn])


def tables_view(_: Translator, infos: list[TableInfo]) -> list[dict[str, Any]]:
    """The board's list of tables, every word ready (the template computes nothing)."""
    rows = []
    for info in infos:
        sides = _sides(_, info)
        row = {"code": info.code, "state": info.state, "state_words": _state_words(_, info.state),
               "players": info.players, "rules": info.rules, "house_rules": _house_rules(_, info.rules),
               "hints_words": _("hints allowed") if info.hints else _("no hints"),
               "sides": sides, "turn": _turn(_, info),
               "score": " – ".join(str(side["total"]) for side in sides), "deal": info.deal,
               "winner": next((side["name"] for side in sides if side["won"]), None)}
        row["sig"] = hashlib.blake2b(repr(row).encode("utf-8"), digest_size=8).hexdigest()
        rows.append(row)
    return rows


def _card(_: Translator, card: Card) -> dict[str, str]:
    # Spanish cards print the figures as 10, 11 and 12: the word under the number says which figure it is (a sota
    # read as "10" would be counted as 10, not 8), as under the cards of the students' pages
    return {"code": card.code, "rank": str(card.rank), "suit": card.code[-1], "suit_words": _.suit_name(card.suit),
            "name": _.card_name(card), "figure": _.rank_name(card.rank) if card.rank >= 10 else ""}


def top_view(_: Translator, top: TableTop) -> dict[str, Any]:
    """The projector's picture of one table, every word ready: made from :class:`TableTop` alone (no hand)."""
    info = top.table
    sides = _sides(_, info)
    for side in sides:
        side["captured"] = _.plural("{n} card captured", "{n} cards captured", top.captured[side["side"]])
        side["escobas"] = _.plural("{n} escoba", "{n} escobas", top.escobas[side["side"]])
        for seat, row in zip([s for s in info.seats if s.side == side["side"]], side["seats"]):
            row["hand"] = top.hand_sizes[seat.seat]
            row["hand_words"] = _.plural("{n} card in hand", "{n} cards in hand", top.hand_sizes[seat.seat])
            row["turn"] = info.state == "playing" and info.turn == seat.seat
    last = None
    if top.last_play is not None:
        play = top.last_play
        who = _seat(_, info.seats[play.player])
        if play.captured:
            words = _("took {cards} with {card}", cards=and_list(_, [_.the_card(c) for c in play.captured]),
                      card=_.the_card(play.card))
        else:
            words = _("laid {card} on the table", card=_.the_card(play.card))
        last = {"who": who, "words": words, "escoba": play.escoba}
    return {"code": info.code, "rules": info.rules, "house_rules": _house_rules(_, info.rules), "state": info.state,
            "state_words": _state_words(_, info.state),
            "version": info.version, "sides": sides, "turn": _turn(_, info),
            "deal": _("Deal {number}", number=top.deal + 1), "deck": _.plural(
                "{n} card left to deal", "{n} cards left to deal", top.deck_left),
            "cards": [_card(_, card) for card in top.cards], "last": last,
            "last_deal": None if top.last_deal_points is None else " – ".join(map(str, top.last_deal_points)),
            "winner": next((side["name"] for side in sides if side["won"]), None),
            "score": " – ".join(str(side["total"]) for side in sides)}


def tables_stamp(class_id: int, infos: list[TableInfo], lang: str) -> str:
    """What the board's list is drawn from: a refresh answers once it differs."""
    drawn_from = (class_id, lang, tuple((i.code, i.version, tuple(s.left for s in i.seats)) for i in infos))
    return hashlib.blake2b(repr(drawn_from).encode("utf-8"), digest_size=12).hexdigest()


def tables_part(handler: BoardMixin, class_id: int, infos: list[TableInfo]) -> dict[str, Any]:
    """The list's view for its template: the rows, the stamp, where the page asks for the next."""
    _ = Translator(handler.lang)
    return {"tables": tables_view(_, infos), "stamp": tables_stamp(class_id, infos, handler.lang),
            "source": handler.board_address(TABLES_DATA.removeprefix("class/"), **{"class": class_id}),
            "script": _STATIC.joinpath("class_board_tables.js").read_text(encoding="utf-8")}


class _TablesMixin(BoardMixin):
    def service(self) -> TableService:
        return service_of(self)

    async def class_tables(self) -> tuple[int, list[TableInfo]]:
        """The tables of the class the address names (the current one when it names none, or one forgotten)."""
        from ..records import RecordsError

        wanted = self.class_id()

        def read() -> tuple[int, list[TableInfo]]:
            known = {c.id for c in self.store.classes()}
            chosen = wanted if wanted is not None and wanted in known else self.store.current_class().id
            return chosen, self.store.class_tables(chosen)

        try:
            return await self.database(read)
        except RecordsError as error:
            raise web.HTTPError(503, str(error)[:200]) from None

    async def table_top(self, code: str) -> TableTop | None:
        from ..records import RecordsError

        try:
            return await self.database(self.store.table_top, code)
        except TableError:
            return None
        except RecordsError as error:
            raise web.HTTPError(503, str(error)[:200]) from None


class TablesDataHandler(_TablesMixin, web.RequestHandler):
    """``GET class/tables.json?key=K[&class=N]&after=STAMP``: the board's list of tables, once it changes."""

    async def get(self) -> None:
        bell = self.service().bell
        after = self.get_argument("after", "")[:80]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT_S
        while True:
            event = bell.any_event()  # before the read: a change during it still wakes this wait
            class_id, infos = await self.class_tables()
            stamp = tables_stamp(class_id, infos, self.lang)
            left = deadline - loop.time()
            if stamp != after or left <= 0 or not await bell.wait(event, left):
                break
        view = tables_part(self, class_id, infos)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps({"stamp": view["stamp"], "class": class_id,
                                "html": self.render_part("class_board_game_tables.html.j2", view)}))


class TablePageHandler(_TablesMixin, web.RequestHandler):
    """``GET class/table?key=K&code=C``: one table for the projector; an unknown code gets a page that says so."""

    async def get(self) -> None:
        _ = Translator(self.lang)
        typed = self.get_argument("code", "")[:40]
        top = await self.table_top(typed)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        if top is None:
            self.set_status(404)
            self.finish(self.render_part("class_board_confirm.html.j2", {
                "title": _("There is no table with this code in the class database"), "paragraphs": [
                    _("The table may have been forgotten with its class. Choose a table in the class board's list.")],
                "back_class": None, "fields": {}, "confirm": True, "back": _("Back to the class board")}))
            return
        view = top_view(_, top)
        self.finish(self.render_part("class_table.html.j2", {
            **view, "source": self.board_address(TABLE_DATA.removeprefix("class/"), code=top.table.code),
            "script": _STATIC.joinpath("class_table.js").read_text(encoding="utf-8")}))


class TableDataHandler(_TablesMixin, web.RequestHandler):
    """``GET class/table.json?key=K&code=C&after=V``: the projected table's live part, once its version is not
    ``V``; 404 once the table is gone."""

    async def get(self) -> None:
        _ = Translator(self.lang)
        code, after = self.get_argument("code", "")[:40], self.get_argument("after", "")[:20]
        bell = self.service().bell
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT_S
        try:
            code = table_code(code)
        except TableError:
            raise web.HTTPError(404) from None
        while True:
            event = bell.event(code)  # before the read: a change during it still wakes this wait
            top = await self.table_top(code)
            if top is None:
                raise web.HTTPError(404)
            left = deadline - loop.time()
            if str(top.table.version) != after or left <= 0 or not await bell.wait(event, left):
                break
        view = top_view(_, top)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps({"version": top.table.version,
                                "html": self.render_part("class_table_top.html.j2", view)}))


def board_tables_handlers(base_url: str) -> list[tuple]:
    """The teacher's addresses of the class's tables (one computer's server; the hub's board service)."""
    return [(f"{base_url}{TABLES_DATA}", TablesDataHandler), (f"{base_url}{TABLE_PAGE}", TablePageHandler),
            (f"{base_url}{TABLE_DATA}", TableDataHandler)]
