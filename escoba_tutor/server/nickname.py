"""Students' nicknames for the class board: the landing page's form, its cookie, and what a kernel gets.

The landing page of each language carries a small form (:func:`landing_hook` adds it to the landing notebook as
the page is rendered); :class:`NicknameHandler` checks a nickname with
:func:`escoba_tutor.records.valid_nickname` and keeps it in a cookie of the browser (a year, HttpOnly,
SameSite=Lax, the server's base URL as its path). :func:`class_env` is what a lesson page's kernel gets from
that page's request (the nickname; kernels.py adds the records endpoint and the kernel's token); the kernel's
own widgets make the records (records/kernel.py) and send them to this server, which writes them
(records_endpoint.py). Without a nickname nothing about the student is recorded. The teacher's
side is class_board.py.

On a JupyterHub the hub already knows who the student is: the course server there (hub.py) records its owner's
pages under the owner's hub name (:func:`hub_nickname`), asks for no nickname, and its landing page says instead
what the teacher sees, under which name (:func:`hub_notice`). Only the owner's own pages are recorded: someone
else the hub lets in (an admin) is not.
"""

from __future__ import annotations

from http.client import responses
from urllib.parse import quote, unquote

from tornado import web

from ..text.translator import LANGUAGES, Translator
from .kernels import NICKNAME_ENV
from .pages import render

__all__ = ["NICKNAME_COOKIE", "read_nickname", "nickname_problem", "class_env", "nickname_form", "landing_hook",
           "NicknameHandler", "base_url_of", "page_lang", "hub_nickname", "hub_notice"]

NICKNAME_COOKIE = "escoba_nickname"
NICKNAME_DAYS = 365


def base_url_of(handler) -> str:
    return handler.settings.get("base_url", "/") or "/"


def page_lang(handler) -> str:
    lang = handler.get_argument("lang", "")
    return lang if lang in LANGUAGES else handler.settings.get("escoba_default_lang", "es")


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
        return _("The nickname is empty: write one, or carry on without one.")
    if code == "nickname_too_long":
        from ..records.events import MAX_NICKNAME

        return _("The nickname is too long: at most {count} characters.", count=MAX_NICKNAME)
    if code == "nickname_mixed_scripts":
        return _("The nickname mixes letters of different alphabets (such as Latin and Cyrillic), which can look "
                 "alike: use one alphabet only.")
    if code == "nickname_stacked_marks":
        return _("The nickname has extra accents on a letter, or an accent that letter never takes: write "
                 "it the way names are normally written (Íñigo, Zoë).")
    if code == "nickname_invisible":
        return _("The nickname contains an invisible character: write it with visible letters only.")
    return _("A nickname may contain only letters, digits, spaces and the characters - _ . (no other symbols or "
             "emoji).")


def hub_nickname(user: str) -> str | None:
    """The name a hub user's records go under on the class board: the hub name, without the school's domain when
    it is an e-mail address (``ana.garcia@ies-ejemplo.es`` is ``ana.garcia``), checked as any nickname is; a name
    with other signs keeps its letters, digits and ``-_.`` (at most 24); None when nothing of it is left.

    >>> hub_nickname("ana"), hub_nickname("Ana.Garcia@ies-ejemplo.es"), hub_nickname("luis+3b@ies.es")
    ('ana', 'Ana.Garcia', 'luis-3b')
    >>> hub_nickname("@@"), hub_nickname("a" * 30)
    (None, 'aaaaaaaaaaaaaaaaaaaaaaaa')
    """
    import re

    name = user.split("@", 1)[0] if "@" in user.strip("@") else user
    for candidate in (name, re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-")[:24]):
        try:
            return _valid(candidate)
        except Exception:  # noqa: BLE001 - NicknameError: try the plainer form, else nothing is recorded
            continue
    return None


def _hub_owner_page(handler) -> bool:
    """A page of this hub server asked for by its owner (the hub let them in; an admin may be let in too)."""
    user = getattr(handler, "current_user", None)
    return bool(user) and getattr(user, "username", None) == handler.settings.get("escoba_hub_user")


def class_env(handler) -> dict[str, str]:
    """What a lesson page's kernel gets for the class records: the page's nickname (on a hub, the owner's hub
    name); empty (nothing recorded) without a nickname, or with the class board off. Never the class database:
    the server writes the records."""
    if handler.settings.get("escoba_class_store") is None:
        return {}
    if handler.settings.get("escoba_hub_user"):
        board_name = handler.settings.get("escoba_hub_nickname")
        return {NICKNAME_ENV: board_name} if board_name and _hub_owner_page(handler) else {}
    nickname = read_nickname(handler)
    return {NICKNAME_ENV: nickname} if nickname else {}


def nickname_form(handler, lang: str, problem: str | None = None, typed: str = "") -> str:
    """The landing page's nickname section, with its style (HTML, every value escaped)."""
    return render("nickname_form.html.j2", **_form_values(handler, lang, problem, typed))


def hub_notice(handler, lang: str) -> str:
    """The landing page's section on a hub: what the teacher sees, and under which name (no form: the hub says
    who the student is)."""
    _ = Translator(lang)
    mark = "\0"  # where the name goes in the sentence, in bold
    return render("hub_recorded.html.j2", lang=lang, title=_("What your teacher sees"),
                  account=handler.settings.get("escoba_hub_nickname") or "",
                  recorded=_("Your teacher sees on the class board, under your account name {name}, which lessons "
                             "you open, your answers to the exercises (whether each was right, or which "
                             "mistake you made) and your games against the computer, with the time. The board "
                             "records nothing else about you.",
                             name=mark).split(mark, 1),
                  exercise_href=base_url_of(handler) + f"voila/render/{lang}/class.ipynb",
                  exercise_words=_("Class exercise: the exercise your teacher puts on the projector, answered on "
                                   "your screen."),
                  tables_href=base_url_of(handler) + f"voila/render/{lang}/tables.ipynb",
                  tables_words=_("Tables: play Escoba against your classmates, each on their own screen."))


def _form_values(handler, lang: str, problem: str | None, typed: str) -> dict:
    _ = Translator(lang)
    nickname = read_nickname(handler)
    mark = "\0"  # where the nickname goes in the sentence, in bold
    shown = _("Your nickname: {nickname}.", nickname=mark).split(mark, 1) if nickname and not problem else None
    return {"lang": lang, "nickname": nickname, "problem": problem, "shown": shown,
            "action": base_url_of(handler) + "class/nickname", "xsrf": handler.xsrf_token.decode("ascii"),
            "title": _("Your nickname for the class"),
            "recorded": _("With a nickname, your teacher sees on the class board which lessons you open, your "
                          "answers to the exercises (whether each was right, or which mistake you made) and your "
                          "games against the computer, with the time. Use a nickname, not your real name. Without "
                          "a nickname nothing about you is recorded."),
            "label": _("Change the nickname") if nickname and not problem else _("Nickname (optional)"),
            "value": typed if problem else (nickname or ""), "save": _("Save the nickname"),
            "exercise_href": base_url_of(handler) + f"voila/render/{lang}/class.ipynb",
            "exercise_words": _("Class exercise: the exercise your teacher puts on the projector, answered on your "
                                "screen."),
            "tables_href": base_url_of(handler) + f"voila/render/{lang}/tables.ipynb",
            "tables_words": _("Tables: play Escoba against your classmates, each on their own screen."),
            "forget": _("Forget my nickname") if nickname else ""}


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

                if handler.settings.get("escoba_hub_user"):  # a hub: the owner's name, no form
                    if not _hub_owner_page(handler):
                        return notebook
                    section = hub_notice(handler, lang)
                else:
                    section = nickname_form(handler, lang)
                cell = new_raw_cell(section,
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
        self.finish(f"{status_code}: {responses.get(status_code, 'Unknown')}\n")

    def post(self) -> None:
        self.check_xsrf_cookie()
        if self.settings.get("escoba_class_store") is None:
            raise web.HTTPError(404)
        lang = page_lang(self)
        landing = base_url_of(self) + f"voila/render/{lang}/index.ipynb"
        path = base_url_of(self)
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
            self.finish(render("nickname_refused.html.j2", **_form_values(self, lang, problem, typed),
                               page_title=_("The nickname was not saved"), back=landing,
                               back_words=_("Back to the course")))
            return
        self.set_cookie(NICKNAME_COOKIE, quote(nickname, safe=""), expires_days=NICKNAME_DAYS, httponly=True,
                        samesite="Lax", path=path)
        self.redirect(landing, status=303)
