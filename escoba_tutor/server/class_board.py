"""The class board: students' nicknames, what their kernels get to record, and the teacher's page.

- **Nickname** (optional): the landing page of each language carries a small form (:func:`landing_hook` adds it
  to the landing notebook as the page is rendered); :class:`NicknameHandler` checks it with
  :func:`escoba_tutor.records.valid_nickname` and keeps it in a cookie of the browser (a year, HttpOnly,
  SameSite=Lax, the server's base URL as its path). Without one, nothing about the student is recorded.
- **Kernels**: :func:`class_env` is what a lesson page's kernel gets from that page's request (the nickname and
  the class database, see kernels.py); the kernel's own widgets make the records (widgets/class_records.py). A
  page can send its kernel only widget messages (handlers.py), so it cannot write a record of its own.
- **The teacher's page**: ``class/board?key=K`` with the key ``escoba-tutor`` prints at start (the teacher's
  link). The key is compared in constant time; without it every address here answers 403 with a short page
  that says nothing about the class. ``class/board.json`` is what the page fetches every few seconds to redraw
  itself, ``class/board.csv`` the export; ``class/new`` and ``class/forget`` are POSTs with the key and the
  XSRF token (forgetting asks first).

docs/class-board.md is the teacher's guide to it; docs/hostile-input.md lists the bad inputs tried.
"""

from __future__ import annotations

import asyncio
import hmac
import html
import io
import json
from concurrent.futures import ThreadPoolExecutor
from datetime import timezone
from pathlib import Path
from urllib.parse import quote, unquote, urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from tornado import web

from ..widgets.i18n import LANGUAGES, Translator
from .board_words import kind_words, level_words, mistake_words
from .kernels import CLASS_DB_ENV, NICKNAME_ENV

__all__ = ["NICKNAME_COOKIE", "read_nickname", "class_env", "landing_hook", "nickname_form", "board_handlers",
           "key_matches", "board_view"]

NICKNAME_COOKIE = "escoba_nickname"
NICKNAME_DAYS = 365
REFRESH_S = 2.5
#: Drill kind -> the lesson page whose drill shows it (a mistake's seed opens there, ``?seed=N``).
KIND_PAGES = {"captures": "02-captures", "escoba_de_mano": "03-escoba", "leftover": "04-end-of-deal",
              "escobas": "05-scoring", "game_end": "05-scoring", "setenta": "05-scoring", "points": "06-game",
              "strategy": "08-strategy"}
_TEMPLATES = Path(__file__).resolve().parent / "templates"
_STATIC = Path(__file__).resolve().parent / "static"
_jinja = Environment(loader=FileSystemLoader(str(_TEMPLATES)), autoescape=select_autoescape(["html", "j2"]),
                     trim_blocks=True, lstrip_blocks=True)
# The store's calls are short, blocking database work: one thread runs them, off the server's event loop.
_DATABASE = ThreadPoolExecutor(max_workers=1, thread_name_prefix="escoba-class-board")


def _base_url(handler) -> str:
    return handler.settings.get("base_url", "/") or "/"


def _lang(handler) -> str:
    lang = handler.get_argument("lang", "")
    return lang if lang in LANGUAGES else handler.settings.get("escoba_default_lang", "es")


# ------------------------------------------------------------------------------------------------ nicknames
def _valid(text: str) -> str:
    from ..records import valid_nickname

    return valid_nickname(text)


def read_nickname(handler) -> str | None:
    """The nickname this browser gave, checked again (a cookie can be made up by anyone); None without one."""
    raw = handler.get_cookie(NICKNAME_COOKIE)
    if not raw or len(raw) > 400:
        return None
    try:
        return _valid(unquote(raw, errors="strict"))
    except Exception:  # noqa: BLE001 - a bad cookie is no nickname: nothing is recorded for it
        return None


def nickname_problem(_: Translator, code: str) -> str:
    """Why a text is not a nickname (the code of the records' NicknameError), in the student's language."""
    if code == "nickname_empty":
        return _("The nickname is empty: write one, or leave the course without one.")
    if code == "nickname_too_long":
        from ..records.events import MAX_NICKNAME

        return _("The nickname is too long: at most {count} characters.", count=MAX_NICKNAME)
    return _("A nickname may have only letters, digits, spaces and the signs - _ . (no other signs or emoji).")


def class_env(handler) -> dict[str, str]:
    """What a lesson page's kernel gets for the class records: the page's nickname and the class database; empty
    (nothing recorded) without a nickname, or with the class board off."""
    if handler.settings.get("escoba_class_store") is None:
        return {}
    nickname = read_nickname(handler)
    if not nickname:
        return {}
    database = handler.settings.get("escoba_class_db")  # "": the records' default place, as the server's
    return {NICKNAME_ENV: nickname, **({CLASS_DB_ENV: database} if database else {})}


def nickname_form(handler, lang: str, problem: str | None = None, typed: str = "") -> str:
    """The landing page's nickname section (HTML, every value escaped)."""
    _ = Translator(lang)
    nickname = read_nickname(handler)
    action = html.escape(_base_url(handler) + "class/nickname")
    hidden = (f'<input type="hidden" name="_xsrf" value="{html.escape(handler.xsrf_token.decode("ascii"))}">'
              f'<input type="hidden" name="lang" value="{lang}">')
    recorded = _("With a nickname, your teacher sees on the class board which lessons you open, your answers "
                 "to the exercises (right or which mistake) and your games against the computer, with the time. "
                 "Use a nickname, not your real name. Without a nickname nothing about you is recorded.")
    title = _("Your nickname for the class")
    parts = [f'<section class="escoba-nickname" aria-labelledby="escoba-nickname-title" lang="{lang}">',
             f'<h2 id="escoba-nickname-title">{html.escape(title)}</h2>',
             f"<p>{html.escape(recorded)}</p>"]
    if problem:
        parts.append(f'<p class="escoba-nickname-problem" role="alert">{html.escape(problem)}</p>')
    if nickname and not problem:
        mark = "\0"  # the nickname goes in after escaping, in bold
        parts.append("<p>" + html.escape(_("Your nickname: {nickname}.", nickname=mark)).replace(
            mark, f'<strong class="escoba-nickname-now">{html.escape(nickname)}</strong>') + "</p>")
    value = typed if problem else (nickname or "")
    label = _("Change the nickname") if nickname and not problem else _("Nickname (optional)")
    save, forget = _("Save the nickname"), _("Forget my nickname")
    parts.append(f'<form method="post" action="{action}" class="escoba-nickname-form">{hidden}'
                 f'<label for="escoba-nickname-input">{html.escape(label)}</label> '
                 f'<input id="escoba-nickname-input" name="nickname" type="text" maxlength="60" '
                 f'autocomplete="off" spellcheck="false" value="{html.escape(value)}"> '
                 f'<button type="submit" name="action" value="save">{html.escape(save)}</button>')
    if nickname:
        parts.append(f' <button type="submit" name="action" value="forget">{html.escape(forget)}</button>')
    parts.append("</form></section>")
    return "".join(parts)


_FORM_CSS = """<style>
.escoba-nickname{border:2px solid #0b57d0;border-radius:8px;padding:.75rem 1rem;margin:1rem 0;max-width:48rem}
.escoba-nickname h2{margin-top:0}
.escoba-nickname input{font-size:1em;padding:.3rem .5rem;border:2px solid #555;border-radius:4px}
.escoba-nickname button{font-size:1em;padding:.3rem .8rem;border:2px solid #0b57d0;border-radius:4px;
  background:#fff;color:#0b57d0;cursor:pointer}
.escoba-nickname button[value=save]{background:#0b57d0;color:#fff}
.escoba-nickname :focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
.escoba-nickname-problem{color:#a50e0e;font-weight:bold}
</style>"""


def landing_hook(previous=None):
    """Voilà's ``prelaunch_hook`` for a page: on a landing page (``<lang>/index.ipynb``) with the class board
    on, the nickname form as a cell after the first one (raw HTML, written by the server)."""

    def hook(handler, notebook, cwd):
        if previous is not None:
            notebook = previous(handler, notebook=notebook, cwd=cwd) or notebook
        if handler.settings.get("escoba_class_store") is None:
            return notebook
        for cell in notebook.cells:  # only the server's own cell is written unsanitized (index.html.j2)
            cell.get("metadata", {}).pop("escoba_server_html", None)
        path = handler.request.path
        for lang in LANGUAGES:
            if path.endswith(f"/render/{lang}/index.ipynb"):
                from nbformat.v4 import new_raw_cell

                cell = new_raw_cell(_FORM_CSS + nickname_form(handler, lang),
                                    metadata={"raw_mimetype": "text/html", "escoba_server_html": True})
                notebook.cells.insert(min(1, len(notebook.cells)), cell)
        return notebook

    return hook


class NicknameHandler(web.RequestHandler):
    """``POST class/nickname``: ``nickname`` and ``action`` (``save`` or ``forget``), with the XSRF token."""

    def check_xsrf_cookie(self) -> None:
        if not self.get_cookie("_xsrf") or not self.get_body_argument("_xsrf", ""):
            raise web.HTTPError(403, "the form's _xsrf field is missing")
        super().check_xsrf_cookie()

    def write_error(self, status_code: int, **kwargs) -> None:
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code}: {self._reason}\n")

    def post(self) -> None:
        self.check_xsrf_cookie()
        if self.settings.get("escoba_class_store") is None:
            raise web.HTTPError(404)
        lang = _lang(self)
        landing = _base_url(self) + f"voila/render/{lang}/index.ipynb"
        path = _base_url(self)
        if self.get_body_argument("action", "save") == "forget":
            self.clear_cookie(NICKNAME_COOKIE, path=path)
            self.redirect(landing, status=303)
            return
        typed = self.get_body_argument("nickname", "")[:400]
        try:
            nickname = _valid(typed)
        except Exception as error:  # noqa: BLE001 - NicknameError (or anything else): said in words, nothing kept
            _ = Translator(lang)
            problem = nickname_problem(_, getattr(error, "code", ""))
            self.set_status(400)
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.set_header("Cache-Control", "no-store")
            back, words = html.escape(landing), html.escape(_("Back to the course"))
            self.finish(_page(lang, _("The nickname was not saved"),
                              _FORM_CSS + nickname_form(self, lang, problem, typed)
                              + f'<p><a href="{back}">{words}</a></p>'))
            return
        self.set_cookie(NICKNAME_COOKIE, quote(nickname, safe=""), expires_days=NICKNAME_DAYS, httponly=True,
                        samesite="Lax", path=path)
        self.redirect(landing, status=303)


def _page(lang: str, title: str, body: str) -> str:
    return (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(title)}</title><style>body{{font-family:system-ui,sans-serif;font-size:1.2rem;"
            "line-height:1.5;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}"
            "a{color:#0b57d0}a:focus-visible{outline:3px solid #0b57d0;outline-offset:3px}</style></head>"
            f"<body><main><h1>{html.escape(title)}</h1>{body}</main></body></html>")


# --------------------------------------------------------------------------------------------- the board
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


def board_view(board, classes, lang: str, base_url: str) -> dict:
    """What the board's template shows: every number and word ready, nothing computed in the template."""
    _ = Translator(lang)
    kinds = sorted({kind for s in board.students for kind in s.drills}, key=lambda k: list(KIND_PAGES).index(k)
                   if k in KIND_PAGES else 99)
    levels = [level for level in ("random", "greedy", "expert") if level in board.games_by_level] + sorted(
        level for level in board.games_by_level if level not in ("random", "greedy", "expert"))
    students = []
    for s in board.students:
        lessons = sorted(s.lessons, key=_lesson_order)
        drills = []
        for kind in kinds:
            answered, right = s.drills.get(kind, (0, 0))
            drills.append({"answered": answered, "right": right,
                           "share": _percent(right, answered, lang) if answered else ""})
        games = [_("{level}: {finished} ({won} won)", level=level_words(_, level), finished=finished, won=won)
                 for level, (finished, won) in sorted(s.games.items()) if finished]
        students.append({"nickname": s.nickname, "lessons": ", ".join(_lesson_label(_, name) for name in lessons),
                         "drills": drills, "games": "; ".join(games),
                         "last_seen": s.last_seen.astimezone().strftime("%H:%M:%S") if s.last_seen else ""})
    mistakes = []
    for m in board.mistakes:
        page = KIND_PAGES.get(m.kind)
        seeds = [{"seed": seed, "href": f"{base_url}voila/render/{lang}/{page}.ipynb?seed={seed}" if page else ""}
                 for seed in m.seeds[:30]]
        anchor = "mistake-" + "".join(ch if ch.isalnum() else "-" for ch in f"{m.kind}-{m.code}")
        mistakes.append({"id": anchor, "kind": kind_words(_, m.kind),
                         "words": mistake_words(_, m.kind, m.code), "code": f"{m.kind}:{m.code}",
                         "students": _.plural("{n} student", "{n} students", m.students),
                         "times": _.plural("{n} time", "{n} times", m.times), "seeds": seeds})
    games = [{"level": level_words(_, level), "finished": board.games_by_level[level][0],
              "won": board.games_by_level[level][1], "lost": board.games_by_level[level][2]} for level in levels]
    info = board.class_info
    return {"class_name": info.name, "class_id": info.id,
            "started": info.started_at.astimezone(timezone.utc).astimezone().strftime("%Y-%m-%d %H:%M"),
            "kinds": [kind_words(_, k) for k in kinds], "students": students, "mistakes": mistakes,
            "games": games, "classes": [{"id": c.id, "name": c.name} for c in classes]}


class BoardMixin:
    """The teacher's key, the store, and the board's language on every request."""

    def prepare(self) -> None:
        store = self.settings.get("escoba_class_store")
        given = self.get_argument("key", "") if self.request.method == "GET" else self.get_body_argument("key", "")
        if store is None:
            raise web.HTTPError(404)
        if not key_matches(given, self.settings.get("escoba_teacher_key")):
            self.log_refusal(bool(given))
            self.set_status(403)
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.set_header("Cache-Control", "no-store")
            _ = Translator(_lang(self))
            self.finish(_page(_lang(self), _("This page needs the teacher's link"), "<p>" + html.escape(_(
                "The class board opens only with the teacher's link, which escoba-tutor shows when it starts. "
                "Open that link, or ask the teacher.")) + "</p>"))
            return
        self.store, self.key, self.lang = store, given, _lang(self)
        self.set_header("Cache-Control", "no-store")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("X-Frame-Options", "DENY")

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

    def board_address(self, name: str = "board", **query) -> str:
        query = {"key": self.key, "lang": self.lang, **{k: v for k, v in query.items() if v is not None}}
        return f"{_base_url(self)}class/{name}?{urlencode(query)}"

    async def view(self) -> dict:
        from ..records import RecordsError

        wanted = self.class_id()
        classes = await self.database(self.store.classes)
        if wanted is not None and wanted not in {c.id for c in classes}:
            wanted = None  # a class forgotten meanwhile (or never there): the current one
        try:
            board = await self.database(self.store.board, wanted)
        except RecordsError as error:
            raise web.HTTPError(503, str(error)[:200]) from None
        return board_view(board, classes, self.lang, _base_url(self))

    def render_part(self, name: str, view: dict) -> str:
        _ = Translator(self.lang)
        return _jinja.get_template(name).render(_=_, v=view, lang=self.lang, key=self.key,
                                                xsrf=self.xsrf_token.decode("ascii"), base_url=_base_url(self),
                                                address=self.board_address, refresh_ms=int(REFRESH_S * 1000),
                                                other_lang="en" if self.lang == "es" else "es")


class BoardPageHandler(BoardMixin, web.RequestHandler):
    """``GET class/board?key=K[&lang=en][&class=N]``: the board, which then redraws itself from the JSON."""

    async def get(self) -> None:
        view = await self.view()
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(self.render_part("class_board.html.j2", {**view, "script": _STATIC.joinpath(
            "class_board.js").read_text(encoding="utf-8")}))


class BoardDataHandler(BoardMixin, web.RequestHandler):
    """``GET class/board.json?key=K``: the board's live part, drawn, for the page to put in place."""

    async def get(self) -> None:
        view = await self.view()
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps({"class": view["class_id"], "html": self.render_part("class_board_live.html.j2",
                                                                                     view)}))


class BoardCsvHandler(BoardMixin, web.RequestHandler):
    """``GET class/board.csv?key=K[&class=N]``: every record of the class, for a spreadsheet."""

    async def get(self) -> None:
        wanted = self.class_id()
        classes = await self.database(self.store.classes)
        chosen = next((c for c in classes if c.id == wanted), None) or await self.database(self.store.current_class)
        out = io.StringIO()
        await self.database(self.store.export_csv, out, chosen.id)
        name = "".join(ch if ch.isalnum() else "-" for ch in chosen.name)[:40]
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", f'attachment; filename="escoba-class-{name}.csv"')
        self.finish(out.getvalue().encode("utf-8"))  # the store starts it with the mark that says UTF-8


class _BoardPost(BoardMixin, web.RequestHandler):
    def prepare(self) -> None:
        if not self.get_cookie("_xsrf") or not self.get_body_argument("_xsrf", ""):
            raise web.HTTPError(403, "the form's _xsrf field is missing")
        self.check_xsrf_cookie()
        super().prepare()

    def write_error(self, status_code: int, **kwargs) -> None:
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code}: {self._reason}\n")


class NewClassHandler(_BoardPost):
    """``POST class/new``: a new class becomes current; the old one is kept, named by its date."""

    async def post(self) -> None:
        await self.database(self.store.start_new_class)
        self.redirect(self.board_address(), status=303)


class ForgetClassHandler(_BoardPost):
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
        if self.get_body_argument("confirm", "") != "yes":
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.finish(self.render_part("class_board_forget.html.j2", {"class_name": chosen.name,
                                                                         "class_id": chosen.id}))
            return
        await self.database(self.store.forget_class, chosen.id)
        self.redirect(self.board_address(), status=303)


def board_handlers(base_url: str) -> list[tuple]:
    """The class board's addresses under the server's base URL."""
    return [(f"{base_url}class/nickname", NicknameHandler), (f"{base_url}class/board", BoardPageHandler),
            (f"{base_url}class/board.json", BoardDataHandler), (f"{base_url}class/board.csv", BoardCsvHandler),
            (f"{base_url}class/new", NewClassHandler), (f"{base_url}class/forget", ForgetClassHandler)]
