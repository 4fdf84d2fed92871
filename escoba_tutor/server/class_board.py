"""The class board: the teacher's page (students' nicknames and what their kernels record: nickname.py).

``class/board?key=K`` with the key ``escoba-tutor`` prints at start (the teacher's link). The key is compared in
constant time; without it every address here answers 403 with a short page that says nothing about the class.
``class/board.json`` is what the page fetches every few seconds to redraw itself (static/class_board.js, which
changes only what differs), answered 304 while nothing it is drawn from changed (its ETag, BoardDataHandler);
``class/board.csv`` the export; ``class/new``, ``class/make-current``, ``class/rename``, ``class/forget`` and
``class/remove-student`` are POSTs with the key and the XSRF token (all but renaming ask first, on a page of
their own, then act on the same POST with ``confirm=yes``). The numbers come from the records' store, read in a
thread of its own, which also draws the board (the store keeps each class's running totals: records/board.py).
``class/student?key=K&class=N&nickname=NAME`` is one student's page. The teacher's views (sorting, hiding the
nicknames, the times in the browser's zone, print) are static/class_board_views.js, on the data the live part
carries (ranks, ISO times in UTC, labels).

docs/class-board.md is the teacher's guide to it; docs/hostile-input.md lists the bad inputs tried.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import io
import json
import re
import secrets
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from http.client import responses
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlencode

from tornado import web

from ..exercises import registry
from ..exercises.registry import column_words, kind_names, mistake_words
from ..records.tables import TABLE_LEVEL
from ..text.board_words import level_words
from ..text.translator import Translator
from .board_export import lesson_titles
from .nickname import NicknameHandler, base_url_of, page_lang
from .pages import jinja, render

__all__ = ["board_handlers", "key_matches", "board_view", "student_view", "kind_page"]

REFRESH_S = 2.5
_STATIC = Path(__file__).resolve().parent / "static"
_PAGE_NAME = re.compile(r"[A-Za-z0-9._-]{1,60}")  # as records/kernel.py's lesson_of_page reads it
CLASS_PAGE = "class"  # the class exercise page (lessons/source/class.md), where class exercise answers are given
_jinja = jinja  # the server's templates (pages.py)
# The store's calls are short, blocking database work: one thread runs them, off the server's event loop.
_DATABASE = ThreadPoolExecutor(max_workers=1, thread_name_prefix="escoba-class-board")
_SERVER_RUN = secrets.token_hex(8)  # in every ETag: a page drawn by an earlier run of the server never matches


def kind_page(name: str) -> str | None:
    """The lesson page whose drill shows a kind of exercise: a mistake's exercise opens there (``?seed=N``) when its
    record does not say on which page it was answered (a record made before schema version 2, or off the server);
    None for a kind this server does not know."""
    return registry.kind(name).lesson if name in kind_names() else None


def views_script() -> str:
    """The teacher's views in the page (sorting, hiding nicknames, times in the browser's zone): static/."""
    return _STATIC.joinpath("class_board_views.js").read_text(encoding="utf-8")


def key_matches(given: str | None, key: str | None) -> bool:
    """The teacher's key, compared in constant time (a missing or empty one never matches)."""
    if not given or not key:
        return False
    return hmac.compare_digest(given.encode("utf-8", "replace"), key.encode("utf-8"))


def _percent(part: int, whole: int, lang: str) -> str:
    share = round(100 * part / whole) if whole else 0
    return f"{share}\u00a0%" if lang == "es" else f"{share}%"


def _lesson_label(_: Translator, lesson: str) -> str:
    if lesson == "play":
        return _("game")
    if lesson == CLASS_PAGE:
        return _("class exercise")
    if lesson == "index":
        return _("start page")
    number = lesson.split("-", 1)[0]
    return str(int(number)) if number.isdigit() else lesson


def _lesson_order(lesson: str) -> tuple:
    """The start page, the lessons by number, then the rest (the game page)."""
    number = lesson.split("-", 1)[0]
    if lesson == "index":
        return (0, 0, "")
    return (1, int(number), "") if number.isdigit() else (2, 0, lesson)


def server_rules(handler) -> str:
    """The name of the rules the server gives its pages (``escoba-tutor --rules``)."""
    return handler.settings.get("escoba_rules") or "escoba"


def exercise_link(_: Translator, kind: str, exercise, lang: str, base_url: str, rules: str) -> dict:
    """A mistake's exercise on the board: the link that opens that very exercise (the page it was answered on, in
    the board's language, ``?seed=N``, and ``&rules=NAME`` when it ran under other rules than the server's
    pages now have; the page shows the address's rules unless its lesson names its own) and its words."""
    # a class's board lists thousands of these and draws them again every few seconds: each is made once
    return dict(_link(_.lang, lang, kind_page(kind), exercise.seed, exercise.lesson, exercise.rules, base_url, rules))


@functools.lru_cache(maxsize=20_000)
def _link(words_lang: str, lang: str, fallback: str | None, seed: int, lesson: str | None, exercise_rules: str | None,
          base_url: str, rules: str) -> dict:
    _ = Translator(words_lang)
    exercise = _Where(seed, lesson, exercise_rules)
    # an answer to the class exercise opens on its kind's own page: the class exercise page shows only the
    # exercise the teacher leads
    own = exercise.lesson if exercise.lesson and _PAGE_NAME.fullmatch(exercise.lesson) \
        and exercise.lesson != CLASS_PAGE else None
    page = own or fallback
    query: dict[str, int | str] = {"seed": exercise.seed}
    where = []
    if exercise.lesson == CLASS_PAGE:
        where.append(_lesson_label(_, CLASS_PAGE))
    elif own:
        where.append(_lesson_label(_, own) if own == "index" else _("lesson {number}", number=_lesson_label(_, own)))
    if exercise.rules and exercise.rules != rules:
        query["rules"] = exercise.rules
        where.append(_("“{rules}” rules", rules=exercise.rules))
    words = _("Exercise {seed}", seed=exercise.seed)
    if where:
        places = ", ".join(where)
        words = _("{exercise} ({where})", exercise=words, where=places)
    return {"seed": exercise.seed, "words": words,
            "href": f"{base_url}voila/render/{lang}/{page}.ipynb?{urlencode(query)}" if page else "",
            "id": "".join(ch if ch.isalnum() else "-" for ch in
                          f"{exercise.seed}-{exercise.lesson or ''}-{exercise.rules or ''}")[:120]}


class _Where(NamedTuple):
    """Where a student's answer was given, as :func:`exercise_link` reads it (the records' Exercise, without
    loading the records' database code into the page)."""

    seed: int
    lesson: str | None
    rules: str | None


# a mistake lists its most recent exercises, this many: enough to choose one to project, and a whole class's
# board stays small enough to draw again every few seconds (each link is most of what the board sends)
MISTAKE_EXERCISES_SHOWN = 12
ACTIVE_MINUTES = 5  # a student with a record in the last this many minutes counts as active now


def _when(moment: datetime) -> dict:
    """A time for the page: ISO 8601 in UTC for the browser to show in its own time zone and the board's format
    (class_board.js), and the same in UTC as the text a page without scripts shows."""
    utc = moment.astimezone(timezone.utc)
    return {"iso": utc.strftime("%Y-%m-%dT%H:%M:%SZ"), "text": utc.strftime("%Y-%m-%d %H:%M UTC")}


def _sig(*parts) -> str:
    """A short fingerprint of what one row of the board shows (``data-sig``): a refresh leaves alone the rows whose
    fingerprint did not change (class_board.js)."""
    return hashlib.blake2b(repr(parts).encode("utf-8"), digest_size=8).hexdigest()


def _band(right: int, answered: int) -> str:
    """The colour band of a share right (always shown with its number too): under 50 %, under 80 %, the rest."""
    share = 100 * right / answered if answered else 0
    return "low" if share < 50 else "mid" if share < 80 else "high"


def _cell(right: int, answered: int, lang: str) -> dict:
    return {"answered": answered, "right": right, "share": _percent(right, answered, lang) if answered else "",
            "width": round(100 * right / answered) if answered else 0, "band": _band(right, answered)}


def _lesson_title(_: Translator, lesson: str, titles: dict[str, str]) -> str:
    if lesson in ("play", "index", CLASS_PAGE):
        return _lesson_label(_, lesson)
    return titles.get(lesson) or _("lesson {number}", number=_lesson_label(_, lesson))


def _lessons(_: Translator, names, titles: dict[str, str]) -> list[dict]:
    return [{"short": _lesson_label(_, name), "title": _lesson_title(_, name, titles)}
            for name in sorted(names, key=_lesson_order)]


def _need(s) -> tuple:
    """Sort key of «by need»: the lowest share right first, then the most wrong answers; no answer yet, last."""
    answered = sum(a for a, _r in s.drills.values())
    right = sum(r for _a, r in s.drills.values())
    return (0, right / answered, -(answered - right)) if answered else (1, 0.0, 0)


def board_view(board, classes, lang: str, base_url: str, rules: str = "escoba", titles: dict[str, str] | None = None,
               now: datetime | None = None) -> dict:
    """What the board's template shows: every number and word ready, nothing computed in the template.
    ``rules``: the name of the server's rules (a mistake's exercise under others opens with its own); ``titles``:
    the lessons' titles (:func:`lesson_titles`); ``now``: the time «active now» is measured from."""
    _ = Translator(lang)
    titles = titles or {}
    now = now or datetime.now(timezone.utc)
    order = kind_names()  # the course's order, then kinds this server does not know (a newer kernel's)
    kinds = sorted({kind for s in board.students for kind in s.drills},
                   key=lambda k: (order.index(k), "") if k in order else (len(order), k))
    levels = [level for level in ("random", "greedy", "expert") if level in board.games_by_level] + sorted(
        level for level in board.games_by_level if level not in ("random", "greedy", "expert"))
    by_need = {id(s): rank for rank, s in enumerate(sorted(board.students, key=_need))}
    students = []
    info_id = board.class_info.id  # a row's links name the class: another class's row is another row
    for rank, s in enumerate(board.students):
        student_games = [_.plural("{level}: {finished} (one won)", "{level}: {finished} ({n} won)", won,
                                  level=level_words(_, level), finished=finished)
                         for level, (finished, won) in sorted(s.games.items()) if finished]
        answered = sum(a for a, _r in s.drills.values())
        right = sum(r for _a, r in s.drills.values())
        finished, won = sum(f for f, _w in s.games.values()), sum(w for _f, w in s.games.values())
        students.append({"nickname": s.nickname, "label": _("Student {number}", number=s.number or rank + 1),
                         "lessons": _lessons(_, s.lessons, titles),
                         "drills": [_cell(s.drills.get(kind, (0, 0))[1], s.drills.get(kind, (0, 0))[0], lang)
                                    for kind in kinds],
                         "total": _cell(right, answered, lang), "wrong": answered - right,
                         "games": _.plural("{finished} (one won)", "{finished} ({n} won)", won, finished=finished)
                         if finished else "",
                         "games_levels": "; ".join(student_games), "last_seen": _when(s.last_seen),
                         "active": now - s.last_seen <= timedelta(minutes=ACTIVE_MINUTES),
                         "name_rank": rank, "need_rank": by_need[id(s)]})
        students[-1]["sig"] = _sig(info_id, students[-1])
    mistakes = []
    for m in board.mistakes:
        seeds = [exercise_link(_, m.kind, exercise, lang, base_url, rules)
                 for exercise in m.exercises[:MISTAKE_EXERCISES_SHOWN]]
        anchor = "mistake-" + "".join(ch if ch.isalnum() else "-" for ch in f"{m.kind}-{m.code}")
        mistakes.append({"id": anchor, "kind": column_words(_, m.kind),
                         "words": mistake_words(_, m.kind, m.code), "code": f"{m.kind}:{m.code}",
                         "students": _.plural("{n} student", "{n} students", m.students),
                         "times": _.plural("{n} time", "{n} times", m.times), "seeds": seeds})
        mistakes[-1]["sig"] = _sig(mistakes[-1])
    games = [{"level": level_words(_, level), "finished": board.games_by_level[level][0],
              "won": board.games_by_level[level][1], "lost": board.games_by_level[level][2]} for level in levels]
    progress = [{"title": _lesson_title(_, name, titles), "students": row.students, "answered": row.answered,
                 **({"cell": _cell(row.right, row.answered, lang)} if row.answered else {"cell": None})}
                for name, row in sorted(board.lessons_progress.items(), key=lambda item: _lesson_order(item[0]))]
    info = board.class_info
    return {"class_name": info.name, "class_id": info.id, "started": _when(info.started_at),
            # a class named by the time it started (the store's default name) needs no «started» beside it
            "started_is_name": info.started_at.astimezone().strftime("%Y-%m-%d %H:%M") == info.name,
            "kinds": [column_words(_, k) for k in kinds], "students": students, "mistakes": mistakes,
            "games": games, "lessons": progress, "active": sum(1 for s in students if s["active"]),
            "active_minutes": ACTIVE_MINUTES, **class_bar(_, info, classes)}


def student_view(found, lang: str, base_url: str, rules: str = "escoba",
                 titles: dict[str, str] | None = None) -> dict:
    """What a student's page shows (``found``: their records, :class:`~escoba_tutor.records.StudentRecords`): per
    kind of exercise the answers and the share right, the lessons with their titles, their mistakes with the
    exercises where each happened, and every record, the most recent first."""
    _ = Translator(lang)
    titles = titles or {}
    order = kind_names()
    per_kind: dict[str, list[int]] = {}
    mistakes: dict[tuple[str, str], dict] = {}
    lessons: set[str] = set()
    history = []
    for r in found.records:
        if r.lesson and r.event in ("lesson", "drill"):
            lessons.add(r.lesson)
        what, exercise = "", None
        if r.event == "drill" and r.kind:
            tally = per_kind.setdefault(r.kind, [0, 0])
            tally[0] += 1
            tally[1] += 1 if r.correct else 0
            if r.seed is not None:
                exercise = exercise_link(_, r.kind, _Where(r.seed, r.lesson, r.rules), lang, base_url, rules)
            if r.correct:
                what = _("{kind}: right", kind=column_words(_, r.kind))
            else:
                words = mistake_words(_, r.kind, r.mistake) if r.mistake else _("wrong")
                what = _("{kind}: {mistake}", kind=column_words(_, r.kind), mistake=words)
                if r.mistake:
                    slip = mistakes.setdefault((r.kind, r.mistake), {"kind": column_words(_, r.kind),
                                                                     "words": words, "times": 0, "seeds": []})
                    slip["times"] += 1
                    if exercise and exercise["href"] not in {e["href"] for e in slip["seeds"]}:
                        slip["seeds"].append(exercise)
        elif r.event == "lesson" and r.lesson:
            what = _("opened {lesson}", lesson=_lesson_title(_, r.lesson, titles))
        elif r.event in ("game", "deal") and r.level == TABLE_LEVEL:  # at a table of classmates, not the computer
            outcome = {"won": _("won"), "lost": _("lost")}.get(r.outcome or "", "")
            what = (_("game against classmates: {outcome}", outcome=outcome) if r.event == "game"
                    else _("deal against classmates finished"))
        elif r.event in ("game", "deal"):
            level = level_words(_, r.level or "")
            outcome = {"won": _("won"), "lost": _("lost")}.get(r.outcome or "", "")
            what = (_("game against the computer ({level}): {outcome}", level=level, outcome=outcome)
                    if r.event == "game" else _("deal against the computer ({level}) finished", level=level))
        else:
            what = r.event
        history.append({"when": _when(r.at), "what": what, "right": r.correct, "exercise": exercise})
    kinds = sorted(per_kind, key=lambda k: (order.index(k), "") if k in order else (len(order), k))
    return {"nickname": found.nickname, "label": _("Student {number}", number=found.number),
            "class_name": found.class_info.name, "class_id": found.class_info.id,
            "kinds": [{"words": column_words(_, k), "cell": _cell(per_kind[k][1], per_kind[k][0], lang)}
                      for k in kinds],
            "lessons": _lessons(_, lessons, titles),
            "mistakes": [{**m, "times": _.plural("{n} time", "{n} times", m["times"]), "seeds": m["seeds"][:30]}
                         for m in sorted(mistakes.values(), key=lambda m: -m["times"])],
            "history": history, "total": found.total,
            "shown": _("The latest {shown} of {total} records.", shown=len(history), total=found.total)
            if found.total > len(history) else "",
            "last_seen": history[0]["when"] if history else None}


def class_bar(_: Translator, shown, classes) -> dict:
    """The classes for the header's list (the current one marked), and whether the class shown is the one records
    go into now (the banner of a past class names the current one)."""
    current = next((c for c in classes if c.current), None)
    return {"classes": [{"id": c.id, "name": _("{name} (current)", name=c.name) if c.current else c.name}
                        for c in classes],
            "is_current": current is None or current.id == shown.id,
            "current_name": current.name if current else "", "current_id": current.id if current else None}


class BoardMixin(web.RequestHandler):
    """The teacher's key, the store, and the board's language on every request."""

    def prepare(self) -> None:
        store = self.settings.get("escoba_class_store")
        given = self.get_argument("key", "") if self.request.method == "GET" else self.get_body_argument("key", "")
        if store is None:
            raise web.HTTPError(404)
        if not self.teacher_allowed(given):
            self.log_refusal(bool(given))
            self.set_status(403)
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.set_header("Cache-Control", "no-store")
            _ = Translator(page_lang(self))
            self.finish(render("board_refused.html.j2", lang=page_lang(self),
                               page_title=_("This page needs the teacher's link"), text=_(
                "The class board opens only with the teacher's link, which escoba-tutor shows when it starts. "
                "Open that link, or ask your teacher for it.")))
            return
        self.store, self.key, self.lang = store, given, page_lang(self)
        self.set_header("Cache-Control", "no-store")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("X-Frame-Options", "DENY")

    def teacher_allowed(self, given: str) -> bool:
        """The teacher's key (one computer); the hub's class-board service lets the hub's login decide instead."""
        return key_matches(given, self.settings.get("escoba_teacher_key"))

    def lessons_base(self) -> str:
        """Where a mistake's exercise opens: this server's lessons (on a hub, the teacher's own server's)."""
        return base_url_of(self)

    def _request_summary(self) -> str:
        """The request as the server's log shows it: never with the key."""
        return f"{self.request.method} {self.request.path} ({self.request.remote_ip})"

    def log_refusal(self, given: bool) -> None:
        log = self.settings.get("escoba_log")
        if log is not None:
            log.warning("refused the class board to %s: %s key", self.request.remote_ip,
                        "a wrong" if given else "no")

    def class_id(self) -> int | None:
        text = self.get_argument("class", "")
        return int(text) if text.isascii() and text.isdigit() and len(text) < 12 else None

    async def database(self, call, *args):
        return await asyncio.get_running_loop().run_in_executor(_DATABASE, call, *args)

    async def class_changed(self) -> None:
        """Another class is current, or a class or student is gone: the class exercise the pages see is read again
        (it is the current class's; class_exercise.py), and the lists of tables too (board_tables.py)."""
        bell = self.settings.get("escoba_exercise_bell")
        if bell is not None:
            await bell.changed()
        tables = self.settings.get("escoba_table_service")
        if tables is not None:  # a student removed leaves the tables, a class forgotten takes them: lists read again
            tables.bell.changed(None)

    def board_address(self, name: str = "board", **query) -> str:
        query = {**({"key": self.key} if self.key else {}), "lang": self.lang,
                 **{k: v for k, v in query.items() if v is not None}}
        return f"{base_url_of(self)}class/{name}?{urlencode(query)}"

    async def read_board(self):
        """The board of the class the address names (the current one when it names none, or one forgotten
        meanwhile) and every class, read in one turn of the database's thread."""
        from ..records import RecordsError

        wanted = self.class_id()

        def read():
            classes = self.store.classes()
            chosen = wanted if wanted is not None and wanted in {c.id for c in classes} else None
            return self.store.board(chosen), classes

        try:
            return await self.database(read)
        except RecordsError as error:
            raise web.HTTPError(503, str(error)[:200]) from None

    def board_etag(self, board, classes, now: datetime) -> str:
        """What the board's live part and the parts around it are drawn from, as an ETag (BoardDataHandler)."""
        active = tuple(now - s.last_seen <= timedelta(minutes=ACTIVE_MINUTES) for s in board.students)
        drawn_from = (_SERVER_RUN, board.version, board.class_info.id, board.class_info.name,
                      tuple((c.id, c.name, c.current) for c in classes), active, self.lang, self.key,
                      base_url_of(self), self.lessons_base(), server_rules(self))
        return '"' + hashlib.blake2b(repr(drawn_from).encode("utf-8"), digest_size=16).hexdigest() + '"'

    def lessons_folder(self) -> str:
        """The lessons this server serves (its contents' root), or, for the hub's board service, which serves
        none, the folder its settings name (``escoba_lessons``); "" for none."""
        return getattr(self.settings.get("contents_manager"), "root_dir", "") or self.settings.get("escoba_lessons", "")

    def titles(self) -> dict[str, str]:
        """The lessons' titles in the board's language, from the notebooks of :meth:`lessons_folder`."""
        return lesson_titles(self.lessons_folder(), self.lang)

    def render_part(self, name: str, view: dict) -> str:
        _ = Translator(self.lang)
        return _jinja.get_template(name).render(_=_, v=view, lang=self.lang, key=self.key,
                                                xsrf=self.xsrf_token.decode("ascii"), base_url=base_url_of(self),
                                                address=self.board_address, refresh_ms=int(REFRESH_S * 1000),
                                                other_lang="en" if self.lang == "es" else "es")


class BoardPageHandler(BoardMixin, web.RequestHandler):
    """``GET class/board?key=K[&lang=en][&class=N]``: the board, which then redraws itself from the JSON."""

    async def get(self) -> None:
        board, classes = await self.read_board()
        now = datetime.now(timezone.utc)
        view = board_view(board, classes, self.lang, self.lessons_base(), server_rules(self), self.titles(), now=now)
        if self.settings.get("escoba_class_exercise"):  # the class exercise is served here (not in a hub student's)
            from .class_exercise import start_form

            view["exercise_form"] = start_form(self)
        if self.settings.get("escoba_table_service") is not None:  # the class's tables (board_tables.py)
            from .board_tables import tables_part

            infos = await self.database(self.store.class_tables, view["class_id"])
            view["tables_part"] = tables_part(self, view["class_id"], infos)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        # the ETag of what the page shows: its first refresh is a 304 when nothing changed meanwhile
        self.finish(self.render_part("class_board.html.j2", {**view, "etag": self.board_etag(board, classes, now),
                                                             "script": _STATIC.joinpath("class_board.js").read_text(
                                                                 encoding="utf-8"), "views_script": views_script()}))


class _Drawn(NamedTuple):
    view: dict  # what the parts around the live part show (the whole view is not kept: a big class's is large)
    live: str  # the live part, drawn (class_board_live.html.j2)


class _DrawnBoards:
    """The boards drawn last, by their ETag: while a class's records, its classes, who is active now and the
    page's own settings stay the same, its board is drawn once, however many times it is asked for."""

    KEPT = 6  # a few tabs, languages or classes open at once

    def __init__(self) -> None:
        self._drawn: OrderedDict[str, _Drawn] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, etag: str) -> _Drawn | None:
        with self._lock:
            drawn = self._drawn.get(etag)
            if drawn is not None:
                self._drawn.move_to_end(etag)
            return drawn

    def put(self, etag: str, drawn: _Drawn) -> None:
        with self._lock:
            self._drawn[etag] = drawn
            while len(self._drawn) > self.KEPT:
                self._drawn.popitem(last=False)


_DRAWN = _DrawnBoards()


class BoardDataHandler(BoardMixin, web.RequestHandler):
    """``GET class/board.json?key=K``: the board's live part, drawn, for the page to put in place, with the parts
    of the page around it that change with the class (the banner of a past class, the classes' list, the list of
    nicknames whose records can be deleted).

    Its ETag says what it was drawn from: the class's records (their count and largest id, :attr:`Board.version`),
    the classes (names, which is current), who is active now, and the page's language, key and addresses. The page
    sends it back (``If-None-Match``): while nothing changed the answer is a 304 with no body, and nothing is drawn;
    when something did, the board is drawn once for every page asking (the database's thread draws it, not the
    server's event loop)."""

    async def get(self) -> None:
        board, classes = await self.read_board()
        now = datetime.now(timezone.utc)
        etag = self.board_etag(board, classes, now)
        self.set_header("Etag", etag)
        if self.check_etag_header():
            self.set_status(304)
            self.finish()
            return
        drawn = _DRAWN.get(etag)
        if drawn is None:
            drawn = await self.database(self.draw, board, classes, now, self.titles())
            _DRAWN.put(etag, drawn)
        view = drawn.view
        self.set_header("Content-Type", "application/json; charset=utf-8")
        parts = {"class-banner": self.render_part("class_board_banner.html.j2", view),
                 "class-picker": self.render_part("class_board_classes.html.j2", view),
                 "remove-student": self.render_part("class_board_remove.html.j2", view)}
        self.finish(json.dumps({"class": view["class_id"], "html": drawn.live, "parts": parts}))

    def draw(self, board, classes, now: datetime, titles: dict[str, str]) -> _Drawn:
        """The view and the live part (in the database's thread: the longest part of an answer)."""
        view = board_view(board, classes, self.lang, self.lessons_base(), server_rules(self), titles, now=now)
        live = _jinja.get_template("class_board_live.html.j2").render(
            _=Translator(self.lang), v=view, lang=self.lang, key=self.key, address=self.board_address)
        around = {name: view[name] for name in ("class_id", "classes", "is_current", "current_name", "current_id")}
        return _Drawn({**around, "students": [{"nickname": s["nickname"]} for s in view["students"]]}, live)


class StudentPageHandler(BoardMixin, web.RequestHandler):
    """``GET class/student?key=K&class=N&nickname=NAME``: one student's records, mistakes and exercises; a
    nickname the class has no record of answers 404 with a page that says so."""

    async def get(self) -> None:
        from ..records import RecordsError

        nickname = self.get_argument("nickname", "")[:200]
        wanted = self.class_id()
        classes = await self.database(self.store.classes)
        if wanted is not None and wanted not in {c.id for c in classes}:
            wanted = None
        try:
            found = await self.database(self.store.student, nickname, wanted) if nickname.strip() else None
        except RecordsError as error:
            raise web.HTTPError(503, str(error)[:200]) from None
        self.set_header("Content-Type", "text/html; charset=utf-8")
        if found is None:
            _ = Translator(self.lang)
            asked = nickname.strip() or "…"
            self.set_status(404)
            self.finish(render("class_student_missing.html.j2", lang=self.lang,
                               page_title=_("No such student in this class"),
                               text=_("This class has no record of the nickname “{nickname}”. Go back to the class "
                                      "board and choose a student there.", nickname=asked),
                               back=self.board_address("board", **{"class": wanted}),
                               back_words=_("Back to the class board")))
            return
        view = student_view(found, self.lang, self.lessons_base(), server_rules(self), self.titles())
        self.finish(self.render_part("class_student.html.j2", {**view, "views_script": views_script()}))


class BoardCsvHandler(BoardMixin, web.RequestHandler):
    """``GET class/board.csv?key=K[&class=N][&lang=en][&tz=Europe/Madrid]``: every record of the class, for a
    spreadsheet, in the board's language and the teacher's time zone; ``&format=codes``: the machine-readable
    file (board_export.py)."""

    async def get(self) -> None:
        from .board_export import attachment, export_layout

        wanted = self.class_id()
        classes = await self.database(self.store.classes)
        chosen = next((c for c in classes if c.id == wanted), None) or await self.database(self.store.current_class)
        layout, file_name = export_layout(self.get_argument("format", ""), self.lang, self.get_argument("tz", ""),
                                          self.lessons_folder(), chosen.name)
        out = io.StringIO()
        await self.database(lambda: self.store.export_csv(out, chosen.id, layout=layout))
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", attachment(file_name, ".csv"))
        self.finish(out.getvalue().encode("utf-8"))  # the store starts it with the mark that says UTF-8


class _BoardPost(BoardMixin, web.RequestHandler):
    def prepare(self) -> None:
        if not self.get_cookie("_xsrf") or not self.get_body_argument("_xsrf", ""):
            raise web.HTTPError(403, "the form's _xsrf field is missing")
        self.check_xsrf_cookie()
        super().prepare()

    def write_error(self, status_code: int, **kwargs) -> None:
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code}: {responses.get(status_code, 'Unknown')}\n")


class _ClassAction(_BoardPost):
    """A POST on one class (``class=N``): the class looked up, and the pages the action answers with."""

    async def chosen_class(self, field: str = "class"):
        """The class the form names, or None after a page that says it is not there (forgotten meanwhile)."""
        wanted = self.get_body_argument(field, "")
        classes = await self.database(self.store.classes)
        chosen = next((c for c in classes if str(c.id) == wanted), None)
        if chosen is None:
            _ = Translator(self.lang)
            self.page(_("This class is no longer there"), [_(
                "Someone may have deleted it meanwhile (“Forget this class”), in another tab or on another computer. "
                "Nothing was changed.")],
                status=404)
        return chosen

    def confirmed(self) -> bool:
        return self.get_body_argument("confirm", "") == "yes"

    def page(self, title: str, paragraphs: list[str], *, status: int = 200, back_class: int | None = None,
             **form) -> None:
        """Answer with class_board_confirm.html.j2: a question (``button``, ``action``, ``fields``, ``confirm``),
        a form with one field (``input``), or, without ``button``, a notice; ``problem`` says what was wrong."""
        _ = Translator(self.lang)
        view = {"title": title, "paragraphs": paragraphs, "back_class": back_class, "fields": {}, "confirm": True,
                "back": _("No, back to the board") if form.get("button") else _("Back to the board"), **form}
        self.set_status(status)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(self.render_part("class_board_confirm.html.j2", view))


class NewClassHandler(_ClassAction):
    """``POST class/new``: asks first (the current class's name, and that it is kept); with ``confirm=yes`` a new
    class becomes current, named by the date and time (numbered when that minute already names a class)."""

    async def post(self) -> None:
        if not self.confirmed():
            _ = Translator(self.lang)
            current = await self.database(self.store.current_class)
            self.page(_("Start a new class?"), [_(
                "From now on, what students do will be saved in a new class, named with today's date and time. "
                "The class “{name}” is kept: you can see it in the list of classes and make it the current class "
                "again.", name=current.name)], button=_("Yes, start a new class"), action="class/new")
            return
        await self.database(self.store.start_new_class)
        await self.class_changed()
        self.redirect(self.board_address(), status=303)


class MakeCurrentHandler(_ClassAction):
    """``POST class/make-current`` with ``class=N``: asks first; with ``confirm=yes`` the records from then on go
    into that class."""

    async def post(self) -> None:
        _ = Translator(self.lang)
        chosen = await self.chosen_class()
        if chosen is None:
            return
        if not self.confirmed():
            current = await self.database(self.store.current_class)
            if current.id == chosen.id:
                self.redirect(self.board_address(), status=303)
                return
            self.page(_("Make “{name}” the current class?", name=chosen.name), [_(
                "From now on, what students do will be saved in “{name}”, not in “{current}”. Nothing already "
                "saved changes.", name=chosen.name, current=current.name)], back_class=chosen.id,
                button=_("Yes, make it the current class"), action="class/make-current", fields={"class": chosen.id})
            return
        await self.database(self.store.make_current, chosen.id)
        await self.class_changed()
        self.redirect(self.board_address(), status=303)


class RenameClassHandler(_ClassAction):
    """``POST class/rename`` with ``class=N`` and ``name``: renames the class (nothing to undo, so it does not ask);
    a name that is not valid or that another class has is refused on a page that says why, with the form again."""

    async def post(self) -> None:
        from ..records import RecordsError

        _ = Translator(self.lang)
        chosen = await self.chosen_class()
        if chosen is None:
            return
        typed = self.get_body_argument("name", "")
        try:
            await self.database(self.store.rename_class, chosen.id, typed)
        except RecordsError as error:
            if error.code == "records_class_name_taken":
                problem = _("There is already a class named “{name}”: choose another name.",
                            name=error.params.get("name", typed))
            elif error.code == "records_bad_class_name":
                problem = _("A class name has 1 to 80 characters (letters, digits, spaces and punctuation), on one "
                            "line.")
            else:
                raise
            self.page(_("Rename the class “{name}”", name=chosen.name), [], status=400, back_class=chosen.id,
                      problem=problem + " " + _("The class keeps its name."), button=_("Rename"),
                      action="class/rename", fields={"class": chosen.id}, confirm=False,
                      input={"label": _("New name"), "name": "name", "value": typed[:200]},
                      back=_("Back to the board"))
            return
        self.redirect(self.board_address(**{"class": chosen.id}), status=303)


class RemoveStudentHandler(_ClassAction):
    """``POST class/remove-student`` with ``class=N`` and ``nickname``: asks first (the nickname and how many records
    will go); with ``confirm=yes`` deletes every record of that student in that class and goes back to its board.
    A nickname the class has no record of: a page that says so, and nothing changed."""

    async def post(self) -> None:
        from ..records import RecordsError

        _ = Translator(self.lang)
        chosen = await self.chosen_class()
        if chosen is None:
            return
        nickname = self.get_body_argument("nickname", "")
        try:
            shown, count = await self.database(self.store.student_records, chosen.id, nickname)
            if self.confirmed():
                await self.database(self.store.remove_student, chosen.id, nickname)
                await self.class_changed()
                self.redirect(self.board_address(**{"class": chosen.id}), status=303)
                return
        except RecordsError as error:
            if error.code != "records_no_student":
                raise
            self.page(_("Nothing to delete"), [_(
                "The class “{name}” has no record of the nickname “{nickname}”: nothing was deleted.",
                name=chosen.name, nickname=nickname[:40])], status=404, back_class=chosen.id)
            return
        self.page(_("Delete the records of “{nickname}”?", nickname=shown), [
            _.plural("{n} record of “{nickname}” in the class “{name}” will be deleted for good; the rest of the "
                     "class stays as it is.",
                     "All {n} records of “{nickname}” in the class “{name}” will be deleted for good; the rest of "
                     "the class stays as it is.", count, nickname=shown, name=chosen.name),
            _("If the student goes on using this nickname, what they do from now on is saved again.")],
            back_class=chosen.id, button=_("Yes, delete"), danger=True, action="class/remove-student",
            fields={"class": chosen.id, "nickname": nickname})


class ForgetClassHandler(_ClassAction):
    """``POST class/forget`` with ``class=N``: asks first (a page with the class's name and a second button);
    with ``confirm=yes`` deletes the class and its records."""

    async def post(self) -> None:
        _ = Translator(self.lang)
        wanted = self.get_body_argument("class", "")
        classes = await self.database(self.store.classes)
        chosen = next((c for c in classes if str(c.id) == wanted), None)
        if chosen is None:
            self.redirect(self.board_address(), status=303)
            return
        if not self.confirmed():
            self.page(_("Forget this class?"), [_(
                "The class “{name}” and every record in it will be deleted for good. Download it as CSV first if "
                "you want to keep a copy.", name=chosen.name)], back_class=chosen.id, button=_("Yes, forget it"),
                danger=True, action="class/forget", fields={"class": chosen.id})
            return
        await self.database(self.store.forget_class, chosen.id)
        await self.class_changed()
        self.redirect(self.board_address(), status=303)


BOARD_DATA = "class/board.json"  # fetched by an open board every few seconds


def board_handlers(base_url: str) -> list[tuple]:
    """The class board's addresses under the server's base URL."""
    return [(f"{base_url}class/nickname", NicknameHandler), (f"{base_url}class/board", BoardPageHandler),
            (f"{base_url}{BOARD_DATA}", BoardDataHandler), (f"{base_url}class/board.csv", BoardCsvHandler),
            (f"{base_url}class/new", NewClassHandler), (f"{base_url}class/forget", ForgetClassHandler),
            (f"{base_url}class/make-current", MakeCurrentHandler), (f"{base_url}class/rename", RenameClassHandler),
            (f"{base_url}class/remove-student", RemoveStudentHandler),
            (f"{base_url}class/student", StudentPageHandler)]
