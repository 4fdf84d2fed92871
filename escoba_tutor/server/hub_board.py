"""The teacher's class board on a JupyterHub, as a hub service: ``python -m escoba_tutor.server.hub_board``.

On a hub every student has a course server of their own (hub.py), and each writes its student's records into the
one class database the hub's configuration names (``ESCOBA_TUTOR_CLASS_DB``, PostgreSQL). This service shows the
board of that database, at ``/services/class-board/`` (the hub's service prefix), behind the hub's own login: the
hub's OAuth (``jupyterhub.services.auth.HubOAuthenticated``), and only for the users the hub grants the scope
``access:services!service=class-board`` (deploy/jupyterhub/: the ``teachers`` group, and the hub's admins). No
teacher's key: the key is for one computer's ``escoba-tutor``. A mistake's exercise opens in the teacher's own
course server (``/hub/user-redirect/...``).

Why a service and not the teacher's own server: the board is one page for the class, reading every student's
records, so it must not run in a server that is one user's (which the hub stops when idle, and which would have to
find out for itself who is a teacher); a service is started and kept by the hub, and the hub's roles say who may
open it, with nothing of the project's own to check.

The hub starts it (``JupyterHub.services``, with ``command`` and ``url``) and gives it, in its environment, where
to listen (``JUPYTERHUB_SERVICE_URL``), its prefix, its OAuth client and the hub's API. The database comes in
``ESCOBA_TUTOR_CLASS_DB`` (the service's ``environment``); ``ESCOBA_TUTOR_LANG`` (es or en) and
``ESCOBA_TUTOR_RULES`` as for the students' servers.
"""

from __future__ import annotations

import os
import secrets
import signal
import sys
from collections.abc import Mapping
from urllib.parse import urlsplit

from ..engine.errors import EscobaError
from .settings import LANGS

__all__ = ["board_app", "main", "SERVICE_NEEDED"]

SERVICE_NEEDED = ("JUPYTERHUB_SERVICE_URL", "JUPYTERHUB_SERVICE_PREFIX", "JUPYTERHUB_API_TOKEN",
                  "JUPYTERHUB_API_URL", "JUPYTERHUB_CLIENT_ID")


def hub_teacher_handler(board_class, hub_prefix: str):
    """``board_class`` (a handler of class_board.py) behind the hub's login instead of the teacher's key."""
    from jupyterhub.services.auth import HubOAuthenticated
    from tornado import web

    from ..text.translator import Translator
    from .nickname import page_lang
    from .pages import render

    class HubTeacher(HubOAuthenticated, board_class):
        def prepare(self):
            if self.current_user is None:  # not logged in (a redirect to the hub's login), or not allowed (403)
                if self.request.method in ("GET", "HEAD"):
                    self.redirect(self.get_login_url())
                    return None
                raise web.HTTPError(403)
            return super().prepare()

        def teacher_allowed(self, given: str) -> bool:
            return self.current_user is not None  # the hub said who it is, and that they may open the board

        def lessons_base(self) -> str:
            return f"{hub_prefix}user-redirect/"  # the teacher's own course server, started if need be

        def write_error(self, status_code: int, **kwargs) -> None:
            if status_code != 403 or getattr(self, "_hub_auth_user_cache", None) is not None:
                super().write_error(status_code, **kwargs)  # a teacher's own request refused (a form's XSRF)
                return
            _ = Translator(page_lang(self))
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.set_header("Cache-Control", "no-store")
            self.finish(render("board_refused.html.j2", lang=page_lang(self),
                               page_title=_("This page is for the class's teachers"), text=_(
                "The class board is shown only to the teachers of this JupyterHub. If you teach this class, ask "
                "whoever runs the school's hub to add your account to its teachers.")))

    HubTeacher.__name__ = f"Hub{board_class.__name__}"
    return HubTeacher


def board_app(env: Mapping[str, str]):
    """The service's Tornado application, over the class database ``ESCOBA_TUTOR_CLASS_DB``; a clear error when
    the hub did not start it or the database cannot be used (the message names it, never its password)."""
    from jupyterhub.services.auth import HubOAuthCallbackHandler
    from jupyterhub.utils import url_path_join
    from tornado import web
    from tornado.log import app_log

    from ..engine.rules import as_rules
    from ..records import ClassStore, RecordsError
    from .board_tables import board_tables_handlers
    from .class_board import board_handlers
    from .class_exercise import listening_settings, teacher_handlers
    from .nickname import NicknameHandler
    from .tables import table_settings

    missing = [name for name in SERVICE_NEEDED if not env.get(name)]
    if missing:
        raise EscobaError(f"not started by JupyterHub as a service: {', '.join(missing)} missing from the "
                          "environment", code="not_on_hub")
    class_db = env.get("ESCOBA_TUTOR_CLASS_DB", "").strip()
    if not class_db or class_db.lower() == "off":
        raise EscobaError("ESCOBA_TUTOR_CLASS_DB names no class database: give the service the one the students' "
                          "servers write to", code="bad_class_db")
    lang = env.get("ESCOBA_TUTOR_LANG") or "es"
    if lang not in LANGS:
        raise EscobaError(f"ESCOBA_TUTOR_LANG: no language {lang!r}: choose es or en", code="bad_language")
    rules = as_rules(env.get("ESCOBA_TUTOR_RULES", "escoba")).name
    try:
        store = ClassStore.open(class_db)
    except RecordsError as error:
        raise EscobaError(f"the class database cannot be used: {error}", code="bad_class_db") from None
    prefix = "/" + env["JUPYTERHUB_SERVICE_PREFIX"].strip("/") + "/"
    hub_prefix = url_path_join(env.get("JUPYTERHUB_BASE_URL") or "/", "hub/")
    handlers: list[tuple] = [(prefix, web.RedirectHandler, {"url": f"{prefix}class/board"}),
                             (url_path_join(prefix, "oauth_callback"), HubOAuthCallbackHandler)]
    for path, handler in [*board_handlers(prefix), *teacher_handlers(prefix), *board_tables_handlers(prefix)]:
        if handler is not NicknameHandler:  # no student comes here
            handlers.append((path, hub_teacher_handler(handler, hub_prefix)))
    # the class exercise: the students' servers hear of the teacher's changes, and this service of their answers,
    # through the database's notifications (one listener here, started once the event loop runs); the tables'
    # changes reach the teacher's list and projector the same way (board_tables.py)
    listening = listening_settings(store, tallies=True)
    listening.update(table_settings(store, listening.get("escoba_listener")))
    return web.Application(
        handlers, base_url=prefix, cookie_secret=secrets.token_bytes(32), xsrf_cookies=False,
        escoba_class_store=store, escoba_teacher_key="", escoba_log=app_log, escoba_default_lang=lang,
        escoba_rules=rules, escoba_lessons=lessons_folder(env), escoba_class_exercise=True, **listening)


def lessons_folder(env: Mapping[str, str]) -> str:
    """The lessons the students' servers serve (``ESCOBA_TUTOR_LESSONS``, else the installed ones), for the
    board's lesson titles; "" when there are none to read (the board then names lessons by number)."""
    from .app import lessons_dir

    try:
        return str(lessons_dir(env.get("ESCOBA_TUTOR_LESSONS") or None))
    except EscobaError:
        return ""


def serve_board(env: Mapping[str, str]) -> int:
    from tornado.httpserver import HTTPServer
    from tornado.ioloop import IOLoop
    from tornado.log import enable_pretty_logging

    from .app import http_limits
    from .settings import Settings

    enable_pretty_logging()
    app = board_app(env)
    bind = urlsplit(env["JUPYTERHUB_SERVICE_URL"])
    server = HTTPServer(app, xheaders=True, **http_limits(Settings.request_body_bytes, Settings.request_body_bytes,
                                                          Settings.idle_connection_s, Settings.body_timeout_s))
    server.listen(bind.port or 80, bind.hostname or "127.0.0.1")
    shown = app.settings["escoba_class_store"].url  # its password hidden
    print(f"escoba-tutor: the class board at {env['JUPYTERHUB_SERVICE_PREFIX']} ({shown})", flush=True)
    loop = IOLoop.current()
    # the hub stops its services with SIGINT (and a machine's shutdown with SIGTERM): stop cleanly, no traceback
    signal.signal(signal.SIGTERM, lambda *_: loop.add_callback_from_signal(loop.stop))
    try:
        loop.start()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        app.settings["escoba_class_store"].close()
    return 0


def main() -> int:
    try:
        return serve_board(os.environ)
    except EscobaError as error:
        print(f"escoba-tutor (class board): {error}", file=sys.stderr, flush=True)
        return 2


if __name__ == "__main__":
    sys.exit(main())
