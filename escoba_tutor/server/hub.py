"""The course as a student's own server on a JupyterHub: ``python -m escoba_tutor.server.hub``.

JupyterHub starts this command for each student (``Spawner.cmd``, deploy/jupyterhub/) and tells it, through the
environment, where to listen (``JUPYTERHUB_SERVICE_URL``), its URL prefix (``/user/<name>/``) and how to check who
is asking. It runs the same server as the ``escoba-tutor`` command, with its limits, and in front of every page
the hub's login: only the student whose server it is (and the hub's admins, if the hub allows it) get in.

Host names: the student's browser reaches this server through the hub's proxy, which passes on the name the
browser asked for. Loopback names are always allowed; the hub's public address (``JUPYTERHUB_PUBLIC_URL``, set
when the hub's ``public_url`` is) is added, and ``ESCOBA_TUTOR_ALLOW_HOSTS`` (names separated by commas) adds
more: the school's names for the hub.

Other settings from the environment: ``ESCOBA_TUTOR_LANG`` (es or en; else the language of the hub's
``default_url``, ``/voila/render/es/index.ipynb``), ``ESCOBA_TUTOR_RULES`` (house rules),
``ESCOBA_TUTOR_CULL_IDLE`` (seconds before an idle kernel is stopped, default 600), ``ESCOBA_TUTOR_MAX_KERNELS``
(pages with a kernel on this student's server, default 4), ``ESCOBA_TUTOR_LESSONS`` (the lessons folder),
``ESCOBA_TUTOR_ACTIVITY_S`` (how often the hub is told of the students' last activity, default 60 s),
``ESCOBA_TUTOR_RECONNECT_S`` (seconds a kernel waits for its page to connect again, default 90; 0: only the idle
cull stops it), ``ESCOBA_TUTOR_CONNECT_S`` (seconds a kernel waits for its page to connect once it was sent,
default 45), ``ESCOBA_TUTOR_KEEP_UNTIL`` (a server started ahead of the lesson counts as active until then, at most
``ESCOBA_TUTOR_KEEP_MAX_S`` seconds after its start, default 7200: :func:`keep_until`).

The class board: ``ESCOBA_TUTOR_CLASS_DB`` (the class's PostgreSQL database, the same for every student's server
and for the hub's class-board service, hub_board.py; unset, empty or ``off``: nothing is recorded). This server
then records its owner's pages under the owner's hub name (``JUPYTERHUB_USER``, nickname.hub_nickname), asks for
no nickname, and serves no board of its own. The database's URL and password stay with this server: its kernels
send their records to it (records_endpoint.py) and never get them (kernels.kernel_environment). A database that
cannot be opened when the server starts turns recording off for this server (its log says why): the lessons go
on.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta, timezone
from urllib.parse import urlsplit

from ..engine.errors import EscobaError
from .settings import LANGS, Settings

__all__ = ["hub_settings", "main", "ActivityReport"]

KEEP_UNTIL_ENV = "ESCOBA_TUTOR_KEEP_UNTIL"  # a server started ahead of the lesson: kept until then (hub_class.py)
CLASS_DB_ENV = "ESCOBA_TUTOR_CLASS_DB"  # as kernels.py names it (not imported here: jupyter_server is heavy)
NEEDED = ("JUPYTERHUB_SERVICE_URL", "JUPYTERHUB_SERVICE_PREFIX", "JUPYTERHUB_API_TOKEN", "JUPYTERHUB_API_URL")


def _whole(env: Mapping[str, str], name: str, default: int) -> int:
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise EscobaError(f"{name} must be a whole number, not {text!r}", code="bad_setting") from None
    if value < 0:
        raise EscobaError(f"{name} must be 0 or more, not {value}", code="bad_setting")
    return value


def hub_settings(env: Mapping[str, str]) -> Settings:
    """The server's settings from the environment JupyterHub gives it; a clear error when it is not there, or when
    a setting is wrong (it names the variable).

    >>> settings = hub_settings({"JUPYTERHUB_SERVICE_URL": "http://127.0.0.1:50123/user/ana/",
    ...     "JUPYTERHUB_SERVICE_PREFIX": "/user/ana/", "JUPYTERHUB_API_TOKEN": "t",
    ...     "JUPYTERHUB_API_URL": "http://127.0.0.1:8081/hub/api",
    ...     "JUPYTERHUB_PUBLIC_URL": "https://aula.example.es/", "ESCOBA_TUTOR_ALLOW_HOSTS": "hub.example.es, x.es"})
    >>> settings.ip, settings.port, settings.base_url, settings.allow_hosts
    ('127.0.0.1', 50123, '/user/ana/', ('aula.example.es', 'hub.example.es', 'x.es'))
    >>> hub_settings({})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    escoba_tutor.engine.errors.EscobaError: not started by JupyterHub: JUPYTERHUB_SERVICE_URL, ..., JUPYTERHUB_API_URL \
missing from the environment
    """
    from ..engine.rules import as_rules

    missing = [name for name in NEEDED if not env.get(name)]
    if missing:
        raise EscobaError(f"not started by JupyterHub: {', '.join(missing)} missing from the environment",
                          code="not_on_hub")
    bind = urlsplit(env["JUPYTERHUB_SERVICE_URL"])
    hosts = [urlsplit(env["JUPYTERHUB_PUBLIC_URL"]).hostname] if env.get("JUPYTERHUB_PUBLIC_URL") else []
    hosts += [name.strip() for name in env.get("ESCOBA_TUTOR_ALLOW_HOSTS", "").split(",")]
    prefix = "/" + env["JUPYTERHUB_SERVICE_PREFIX"].strip("/") + "/"
    # the hub's default_url names the landing page, and so the language students land in
    landing = re.search(r"/render/([a-z]{2})/", env.get("JUPYTERHUB_DEFAULT_URL", ""))
    lang = env.get("ESCOBA_TUTOR_LANG") or (landing.group(1) if landing else "es")
    if lang not in LANGS:
        raise EscobaError(f"ESCOBA_TUTOR_LANG: no language {lang!r}: choose es or en", code="bad_language")
    class_db = env.get(CLASS_DB_ENV, "").strip()
    recording = bool(class_db) and class_db.lower() != "off" and bool(env.get("JUPYTERHUB_USER"))
    return Settings(ip=bind.hostname or "127.0.0.1", port=bind.port or 8888, base_url=prefix,
                    allow_hosts=tuple(dict.fromkeys(host for host in hosts if host)), lang=lang,
                    rules=as_rules(env.get("ESCOBA_TUTOR_RULES", "escoba")),
                    cull_idle=_whole(env, "ESCOBA_TUTOR_CULL_IDLE", 600),
                    reconnect_s=_whole(env, "ESCOBA_TUTOR_RECONNECT_S", Settings.reconnect_s),
                    connect_s=_whole(env, "ESCOBA_TUTOR_CONNECT_S", Settings.connect_s) or Settings.connect_s,
                    max_kernels=_whole(env, "ESCOBA_TUTOR_MAX_KERNELS", 4) or 4,
                    lessons=env.get("ESCOBA_TUTOR_LESSONS") or None, open_browser=False, class_board=recording,
                    class_db=class_db if recording else None,
                    hub_user=env.get("JUPYTERHUB_USER", "") if recording else "",
                    activity_s=_whole(env, "ESCOBA_TUTOR_ACTIVITY_S", 60) or 60)


def identity_provider_class(prefix: str):
    """JupyterHub's own login check for a Jupyter server, with its two pages (the end of the hub's login and
    logging out) under this server's prefix, where the hub sends the browser (Voilà would add them at ``/``)."""
    from jupyter_server.utils import url_path_join
    from jupyterhub.singleuser.extension import JupyterHubIdentityProvider

    class HubIdentityProvider(JupyterHubIdentityProvider):
        def get_handlers(self):
            return [(url_path_join(prefix, path), *rest) for path, *rest in super().get_handlers()]

    return HubIdentityProvider


class ActivityReport:
    """What the course server tells the hub of its last activity (``JUPYTERHUB_ACTIVITY_URL``).

    The hub's idle culler goes by the last activity the hub knows of. The hub marks a server active when it asks
    for it to start; a server that takes long to start (a class logging in together on a busy machine) would look
    idle for all that time and be culled as soon as it is up, before its student's page opens. So the server's own
    start counts as activity, and is reported at once; after that, its kernels' last use (a student clicking in a
    lesson: widget messages the hub's proxy never sees).

    >>> from datetime import datetime, timezone
    >>> started = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
    >>> report = ActivityReport({"JUPYTERHUB_API_TOKEN": "t"}, started)
    >>> report.latest([])
    datetime.datetime(2026, 12, 1, 10, 0, tzinfo=datetime.timezone.utc)
    >>> report.body(report.latest([datetime(2026, 12, 1, 10, 5)]))   # a kernel's time, naive (UTC)
    '{"servers": {"": {"last_activity": "2026-12-01T10:05:00Z"}}, "last_activity": "2026-12-01T10:05:00Z"}'

    A server started ahead of a lesson (``escoba-tutor hub-start-class --until``, hub_class.py) is kept until the
    lesson starts: until then it counts as active now, so the idle time counts from the lesson's start.

    >>> kept = ActivityReport({"JUPYTERHUB_API_TOKEN": "t", KEEP_UNTIL_ENV: "2026-12-01T10:40:00Z"}, started)
    >>> kept.latest([], now=datetime(2026, 12, 1, 10, 25, tzinfo=timezone.utc)).time()
    datetime.time(10, 25)
    >>> kept.latest([], now=datetime(2026, 12, 1, 11, 0, tzinfo=timezone.utc)).time()
    datetime.time(10, 40)
    """

    def __init__(self, env: Mapping[str, str], started: datetime) -> None:
        self.url, self.token = env.get("JUPYTERHUB_ACTIVITY_URL"), env["JUPYTERHUB_API_TOKEN"]
        self.server_name = env.get("JUPYTERHUB_SERVER_NAME", "")
        self.started = _utc(started)
        self.keep_until = keep_until(env, self.started)
        self.last_sent: datetime | None = None

    def latest(self, kernel_times: Iterable[datetime | None], now: datetime | None = None) -> datetime:
        times = [self.started, *(_utc(when) for when in kernel_times if when is not None)]
        if self.keep_until is not None:
            times.append(min(now or datetime.now(timezone.utc), self.keep_until))
        return max(times)

    def body(self, last: datetime) -> str:
        import json

        stamp = last.isoformat().replace("+00:00", "Z")
        return json.dumps({"servers": {self.server_name: {"last_activity": stamp}}, "last_activity": stamp})

    async def send(self, kernel_times: Iterable[datetime | None], log) -> None:
        """Tell the hub, when there is something new to tell (else the server ages towards culling)."""
        from tornado.httpclient import AsyncHTTPClient, HTTPRequest

        last = self.latest(kernel_times)
        if not self.url or (self.last_sent is not None and last <= self.last_sent):
            return
        try:
            await AsyncHTTPClient().fetch(HTTPRequest(self.url, method="POST", body=self.body(last), request_timeout=20,
                                                      headers={"Authorization": f"token {self.token}",
                                                               "Content-Type": "application/json"}))
            self.last_sent = last
        except Exception as error:  # noqa: BLE001 - the hub busy or restarting: tell it next time
            log.warning("could not tell the hub of the last activity: %s", error)


def _utc(when: datetime) -> datetime:
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def keep_until(env: Mapping[str, str], started: datetime) -> datetime | None:
    """Until when a server started ahead is kept (``ESCOBA_TUTOR_KEEP_UNTIL``, ISO 8601), at most
    ``ESCOBA_TUTOR_KEEP_MAX_S`` (default 7200) after its start: the value comes from whoever started the server,
    the student included, so it is bounded; an unreadable one is ignored (the log says so), never a failed start.

    >>> start = datetime(2026, 12, 1, 8, 0, tzinfo=timezone.utc)
    >>> keep_until({KEEP_UNTIL_ENV: "2026-12-01T09:00:00+01:00"}, start)
    datetime.datetime(2026, 12, 1, 8, 0, tzinfo=datetime.timezone.utc)
    >>> keep_until({KEEP_UNTIL_ENV: "2027-01-01T00:00:00Z"}, start).isoformat()   # a month ahead: two hours
    '2026-12-01T10:00:00+00:00'
    >>> keep_until({}, start) is None
    True
    """
    text = env.get(KEEP_UNTIL_ENV, "").strip()
    if not text:
        return None
    try:
        until = _utc(datetime.fromisoformat(text.replace("Z", "+00:00"))).astimezone(timezone.utc)
        most = timedelta(seconds=_whole(env, "ESCOBA_TUTOR_KEEP_MAX_S", 7200))
    except (ValueError, EscobaError) as error:
        print(f"escoba-tutor (hub): not kept until the lesson: {KEEP_UNTIL_ENV}={text[:40]!r}: {error}",
              file=sys.stderr, flush=True)
        return None
    return min(until, started + most)


def report_activity(app_class, env: Mapping[str, str], every_s: float):
    """The app class, telling the hub of its start at once, then every ``every_s`` seconds when a student last
    used a kernel (:class:`ActivityReport`), as Jupyter's own single-user server does; and answering, as that server
    does, the hub's check of a server that has just started (``GET <prefix>api``, whose answer's
    ``X-JupyterHub-Version`` header the hub compares with its own: a 404 and a warning otherwise)."""
    from jupyter_server.base.handlers import APIVersionHandler
    from jupyter_server.utils import url_path_join
    from jupyterhub import __version__ as hub_version
    from tornado.ioloop import IOLoop, PeriodicCallback

    class HubReportingApp(app_class):
        def init_settings(self):
            settings = super().init_settings()
            return {**settings, "headers": {**settings.get("headers", {}), "X-JupyterHub-Version": hub_version}}

        def init_handlers(self):
            handlers = super().init_handlers()
            self.activity = ActivityReport(env, datetime.now(timezone.utc))
            if self.activity.url:
                IOLoop.current().add_callback(self.send_activity)  # the start itself, as soon as the loop runs
                PeriodicCallback(self.send_activity, every_s * 1000).start()
            return [(url_path_join(self.server_url, "api"), APIVersionHandler), *handlers]

        async def send_activity(self) -> None:
            times = [getattr(self.kernel_manager.get_kernel(kernel_id), "last_activity", None)
                     for kernel_id in self.kernel_manager.list_kernel_ids()]
            await self.activity.send(times, self.log)

    return HubReportingApp


def with_class_db(settings: Settings) -> Settings:
    """The settings, recording if the class database opens (made or upgraded as needed); else recording off, and
    the log says why: a database down must not keep a student out of the lessons."""
    import dataclasses

    from .app import check_class_db
    from .nickname import hub_nickname

    try:
        if hub_nickname(settings.hub_user) is None:
            raise EscobaError(f"the hub name {settings.hub_user!r} has no letter or digit to show on the class board",
                              code="bad_hub_name")
        check_class_db(settings.class_db)
    except EscobaError as error:
        print(f"escoba-tutor (hub): nothing is recorded for this student: {error}", file=sys.stderr, flush=True)
        return dataclasses.replace(settings, class_board=False, class_db=None, hub_user="")
    return settings


def serve_on_hub(env: Mapping[str, str]) -> int:
    from jupyterhub.singleuser.extension import JupyterHubAuthorizer

    from .app import build_app_class, lessons_dir, voila_config

    settings = hub_settings(env)
    if settings.class_board:
        settings = with_class_db(settings)
    folder = lessons_dir(settings.lessons)
    config = voila_config(settings)
    config.Voila.identity_provider_class = identity_provider_class(settings.base_url)
    config.Voila.authorizer_class = JupyterHubAuthorizer
    config.Voila.auto_token = True  # the hub's identity provider brings its own token: Voilà must not set one
    print(f"escoba-tutor: the course for {env.get('JUPYTERHUB_USER', '?')} at {settings.base_url} "
          f"({settings.rules.name}; {'recorded for the class board' if settings.class_board else 'nothing recorded'})",
          flush=True)
    report_activity(build_app_class(), env, settings.activity_s).launch_instance(argv=[str(folder)], config=config)
    return 0


def main() -> int:
    try:
        return serve_on_hub(os.environ)
    except EscobaError as error:
        print(f"escoba-tutor (hub): {error}", file=sys.stderr, flush=True)
        return 2


if __name__ == "__main__":
    sys.exit(main())
