# JupyterHub for escoba-tutor on one server: every student logs in and gets their own course server.
#
#   jupyterhub -f deploy/jupyterhub/jupyterhub_config.py
#
# What it sets up (docs/classroom.md, "A school's JupyterHub"):
# - students log in with their school accounts (Google Workspace for Education below; see "Logging in");
# - each student's server is `python -m escoba_tutor.server.hub` from the course's own environment: the escoba-tutor
#   app (Voilà) with its class limits, behind the hub's login, under /user/<name>/; students land on the Spanish
#   landing page (default_url);
# - idle servers are stopped by jupyterhub-idle-culler, idle kernels by the course server itself;
# - with a class database (ESCOBA_HUB_CLASS_DB, below): every student's server records their exercises under
#   their hub name, and the teachers open the class board at <ESCOBA_HUB_URL>/services/class-board/ with their
#   hub login (docs/class-board.md, "On a school's JupyterHub");
# - the teachers may start the servers of the students group before the lesson, with an API token of their own
#   (`escoba-tutor hub-start-class --hub-url ... --group students --until HH:MM`; docs/classroom.md), and the idle
#   culler keeps those servers until the lesson starts.
#
# Two Python environments (run as root, once):
#   python3 -m venv /opt/jupyterhub && /opt/jupyterhub/bin/pip install jupyterhub jupyterhub-idle-culler \
#       jupyterhub-systemdspawner oauthenticator && npm install -g configurable-http-proxy
#   python3 -m venv /opt/escoba-tutor && /opt/escoba-tutor/bin/pip install "escoba-tutor[hub]"
# (from a checkout: `/opt/escoba-tutor/bin/pip install "/path/to/escoba-tutor[hub]"`, and set
# ESCOBA_TUTOR_LESSONS to its lessons/ folder). The course environment needs jupyterhub too: the course
# server checks logins with the hub's own code (the `hub` extra installs it).
#
# Settings come from the environment, so this file can stay as it is:
#   ESCOBA_HUB_URL             the address students open, e.g. https://escoba.ies-ejemplo.es (required for real use)
#   ESCOBA_HUB_DOMAIN          the school's Google Workspace domain, e.g. ies-ejemplo.es
#   ESCOBA_HUB_ADMINS          teachers' accounts, separated by commas (they can see and stop students' servers)
#   ESCOBA_TUTOR_PYTHON        the course environment's python (default /opt/escoba-tutor/bin/python)
#   ESCOBA_HUB_CULL_TIMEOUT    seconds before an idle student's server is stopped (default 1200)
#   ESCOBA_HUB_MEMORY          memory per student (default 512M; a student uses about 80 MiB per open lesson)
#   ESCOBA_HUB_TEACHERS        accounts that see the class board (comma-separated; the admins see it too)
#   ESCOBA_HUB_CLASS_DB        the class database, postgresql://escoba:PASSWORD@localhost:5432/escoba_classes
#                              (none: nothing is recorded and there is no board). It holds the password: keep it
#                              out of this file, in a file only root reads, given to the hub's systemd unit with
#                              EnvironmentFile=/etc/escoba-hub.env (mode 600). Needs escoba-tutor[hub,postgres].
#   ESCOBA_HUB_BOARD_PORT      the port the class board listens on, on this machine (default 10101)
#   ESCOBA_HUB_STUDENTS        students' accounts (comma-separated): the students group, whose servers the teachers
#                              may start before the lesson (`escoba-tutor hub-start-class`); more can be added from the
#                              hub's admin page. Listing a student also creates their hub account before they first
#                              log in, so that their server can be started ahead.
#   ESCOBA_HUB_AHEAD_MAX       minutes at most a server started ahead is kept for the lesson (default 120)
import os
import sys
from urllib.parse import urlsplit

c = get_config()  # noqa: F821 - JupyterHub provides get_config() to its config files

# ------------------------------------------------------------------------------------------- the hub itself
public_url = os.environ.get("ESCOBA_HUB_URL", "")
if public_url:
    c.JupyterHub.public_url = public_url  # also tells each course server the host name it is reached by
    c.JupyterHub.bind_url = os.environ.get("ESCOBA_HUB_BIND_URL", "http://:8000")
    # TLS: put the hub behind the school's web server (nginx, Caddy) for https, or set
    # c.JupyterHub.ssl_cert / c.JupyterHub.ssl_key here.
c.JupyterHub.cleanup_servers = True
# The hub learns how recently each student used their server from the proxy, every this many seconds; the
# idle culler reads it.
c.JupyterHub.last_activity_interval = 60

# ------------------------------------------------------------------------------------------------ logging in
# Google Workspace for Education: students sign in with their school account, and only that domain gets in.
# Register an OAuth client (Google Cloud console, "Web application", redirect URI
# <ESCOBA_HUB_URL>/hub/oauth_callback) and give the hub OAUTH_CLIENT_ID and OAUTH_CLIENT_SECRET in its
# environment. Other choices, same idea: Microsoft 365 ("azuread" from oauthenticator), a Moodle or other
# OpenID Connect provider ("generic-oauth"), or accounts made by the teacher (jupyterhub-nativeauthenticator,
# "native"). Never DummyAuthenticator: it lets anyone in with any name.
c.JupyterHub.authenticator_class = "google"
c.GoogleOAuthenticator.oauth_callback_url = (public_url.rstrip("/") + "/hub/oauth_callback") if public_url else ""
domain = os.environ.get("ESCOBA_HUB_DOMAIN", "")
if domain:
    c.GoogleOAuthenticator.hosted_domain = [domain]
    c.GoogleOAuthenticator.allow_all = True  # everyone of the school's domain
    c.GoogleOAuthenticator.login_service = domain
admins = {name.strip() for name in os.environ.get("ESCOBA_HUB_ADMINS", "").split(",") if name.strip()}
if admins:
    c.Authenticator.admin_users = admins
    c.JupyterHub.admin_access = False  # teachers stop and start servers; they do not open students' pages
teachers = sorted({name.strip() for name in os.environ.get("ESCOBA_HUB_TEACHERS", "").split(",") if name.strip()})
students = sorted({name.strip() for name in os.environ.get("ESCOBA_HUB_STUDENTS", "").split(",") if name.strip()})
# the teachers group: who sees the class board (a role below) and may start the students' servers before the lesson,
# besides the admins; the students group: whose servers they may start. Members may be added later from the hub's
# admin page too (the hub adds those listed here at each start, and removes nobody).
c.JupyterHub.load_groups = {"teachers": {"users": teachers}, "students": {"users": students}}

# ------------------------------------------------------------------------------------- each student's server
# systemd's dynamic users: every student's server runs as a user of its own, made for it, with its own memory
# and CPU limits; no Unix account per student is needed.
c.JupyterHub.spawner_class = "systemdspawner"
c.SystemdSpawner.dynamic_users = True
c.SystemdSpawner.mem_limit = os.environ.get("ESCOBA_HUB_MEMORY", "512M")
c.SystemdSpawner.cpu_limit = 1.0
c.SystemdSpawner.unit_name_template = "escoba-{USERNAME}"

course_python = os.environ.get("ESCOBA_TUTOR_PYTHON", "/opt/escoba-tutor/bin/python")
c.Spawner.cmd = [course_python, "-m", "escoba_tutor.server.hub"]
# Where the hub sends a student once logged in: the Spanish landing page (/voila/render/en/index.ipynb for the
# English one). The course server also answers its own /, which leads there too.
c.Spawner.default_url = "/voila/render/es/index.ipynb"
c.Spawner.environment = {
    # idle kernels inside a student's server that no page is connected to: stopped after 10 minutes at most (a
    # page gone without a goodbye frees its kernel after ESCOBA_TUTOR_RECONNECT_S, 90 s by default)
    "ESCOBA_TUTOR_CULL_IDLE": "600",
    # a student has one server; this many lesson pages open in it at once
    "ESCOBA_TUTOR_MAX_KERNELS": "4",
    # more names the school reaches the hub by, besides ESCOBA_HUB_URL's (comma-separated)
    "ESCOBA_TUTOR_ALLOW_HOSTS": os.environ.get("ESCOBA_TUTOR_ALLOW_HOSTS", ""),
}
if os.environ.get("ESCOBA_TUTOR_LESSONS"):
    c.Spawner.environment["ESCOBA_TUTOR_LESSONS"] = os.environ["ESCOBA_TUTOR_LESSONS"]

# ---------------------------------------------------------------------------------------------- the class board
# One PostgreSQL database for the whole class. Each student's course server gets its URL and writes the records
# of its student's pages there, under the student's hub name (no nickname asked: the hub knows who they are); the
# server's kernels never get the URL nor its password. Teachers' own servers record nothing (the exercises they
# open from the board are not a student's work).
class_db = os.environ.get("ESCOBA_HUB_CLASS_DB", "").strip()
board_port = int(os.environ.get("ESCOBA_HUB_BOARD_PORT", "10101"))


def class_db_for(spawner) -> str:
    """The class database for a student's server, none for a teacher's (called by the hub at each start)."""
    user = spawner.user
    teaching = user.admin or any(group.name == "teachers" for group in user.groups)
    return "" if teaching else class_db


if class_db:
    c.Spawner.environment["ESCOBA_TUTOR_CLASS_DB"] = class_db_for


def keep_until_for(spawner) -> str:
    """The lesson's start, when a teacher started this server ahead (`escoba-tutor hub-start-class --until`, which
    sends it as the start's user options); the course server bounds it (ESCOBA_TUTOR_KEEP_MAX_S)."""
    return str((spawner.user_options or {}).get("escoba_keep_until", ""))[:64]


c.Spawner.environment["ESCOBA_TUTOR_KEEP_UNTIL"] = keep_until_for
c.Spawner.environment["ESCOBA_TUTOR_KEEP_MAX_S"] = str(60 * int(os.environ.get("ESCOBA_HUB_AHEAD_MAX", "120")))
# A class logging in together starts 30 servers at once: give each time to start on a busy machine.
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120

# -------------------------------------------------------------------------------------- stopping idle servers
# The hub counts a server's activity from the moment it was asked to start it, so a server that is slow to start
# (a class logging in together) would look idle for its whole start-up and be culled as soon as it is up. The
# course server reports its own start to the hub at once (escoba_tutor/server/hub.py), and its kernels' use every
# minute after; still, keep the idle time well above the longest start (Spawner.start_timeout + http_timeout, above).
# Servers a teacher starts before the lesson (`escoba-tutor hub-start-class`): the culler goes by the last activity
# alone (it has no grace time of its own), and the course server counts its start as activity, so a server started
# ahead is kept for the idle time after its start (20 minutes as shipped); with `--until HH:MM` it counts as active
# until the lesson starts (at most ESCOBA_HUB_AHEAD_MAX minutes ahead), and the idle time counts from then.
cull_timeout = int(os.environ.get("ESCOBA_HUB_CULL_TIMEOUT", "1200"))
c.JupyterHub.services = [{
    "name": "idle-culler",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={cull_timeout}",
                f"--cull-every={max(10, min(300, cull_timeout // 4))}"],
}]
c.JupyterHub.load_roles = [{
    "name": "idle-culler",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["idle-culler"],
}]

# Teachers start the students' servers before the lesson (`escoba-tutor hub-start-class`, with an API token made at
# /hub/token): start and stop the servers of the students group, read who is in it. Nothing else of the students'.
c.JupyterHub.load_roles.append({
    "name": "teachers-start-class",
    "scopes": ["servers!group=students", "read:groups!group=students"],
    "groups": ["teachers"],
})

if class_db:
    # The board: a service the hub starts and keeps running, at /services/class-board/ behind the hub's login
    # (escoba_tutor/server/hub_board.py). Only the teachers group (and the admins, who hold every service's access)
    # may open it; the hub tells the service who is asking, so no teacher's key is needed.
    c.JupyterHub.services.append({
        "name": "class-board",
        "url": f"http://127.0.0.1:{board_port}",
        "command": [course_python, "-m", "escoba_tutor.server.hub_board"],
        "environment": {"ESCOBA_TUTOR_CLASS_DB": class_db,
                        "ESCOBA_TUTOR_LANG": os.environ.get("ESCOBA_TUTOR_LANG", "es")},
        "oauth_no_confirm": True,  # the school's own board: no "authorize access" page for the teacher
        "display": True,  # listed in the hub's Services menu
    })
    c.JupyterHub.load_roles.append({
        "name": "class-board-teachers",
        "scopes": ["access:services!service=class-board"],
        "groups": ["teachers"],
    })

if public_url and not urlsplit(public_url).hostname:
    raise SystemExit(f"ESCOBA_HUB_URL must be a full address such as https://escoba.example.es, not {public_url!r}")
