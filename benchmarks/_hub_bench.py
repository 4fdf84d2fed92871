"""``load_class.py --hub``: the class comes through a real JupyterHub (deploy/jupyterhub/jupyterhub_config.py with
the dummy login, a local process spawner and loopback ports, as in tests/browser/hub_setup.py).

Each student logs in at the hub (its login form, with the form's XSRF value), which starts the student's own
course server (``python -m escoba_tutor.server.hub``); the OAuth round through the hub gives the student's cookie, and
the page is then opened as on the bare app. "Kernels" here are the course servers and their kernels, so culling
is over when the hub's idle culler (the same idle time as the bare app's ``--cull-idle``) has stopped every
student's server; memory is that of the hub's whole process tree (hub, proxy, culler, servers, kernels).

With ``--ahead`` the class is the hub's students group, and the teacher starts its servers before the students
arrive (:meth:`HubServer.start_ahead`, the code of ``escoba-tutor hub-start-class``), kept until a few minutes
later, as ``--until`` does; the students then log in to servers that are running.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from urllib.parse import urlencode, urljoin, urlsplit

from _voila_bench import ROOT, Server, _processes, free_port

PROXY = ROOT / ".cache" / "configurable-http-proxy" / "node_modules" / ".bin" / "configurable-http-proxy"

CONFIG = """\
import sys
c = get_config()
load_subconfig({shipped!r})
c.JupyterHub.authenticator_class = "dummy"   # any name logs in: for this measurement only
c.Authenticator.allow_all = True
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = {folder!r} + "/homes/{{username}}"
c.Spawner.cmd = [sys.executable, "-m", "escoba_tutor.server.hub"]
c.Spawner.ip = "127.0.0.1"
c.Spawner.environment["ESCOBA_TUTOR_ACTIVITY_S"] = "5"
c.Spawner.environment["ESCOBA_TUTOR_CULL_IDLE"] = "{cull}"
c.JupyterHub.bind_url = "http://127.0.0.1:{port}"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{hub_port}"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{api_port}"
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.ConfigurableHTTPProxy.pid_file = {folder!r} + "/proxy.pid"
c.JupyterHub.db_url = "sqlite:///" + {folder!r} + "/hub.sqlite"
c.JupyterHub.cookie_secret_file = {folder!r} + "/cookie_secret"
c.JupyterHub.last_activity_interval = 10
c.JupyterHub.services[0]["command"] = [sys.executable, "-m", "jupyterhub_idle_culler", "--timeout={cull}",
                                       "--cull-every={every}"]
# --ahead: the class is the students group, whose servers the teacher starts before the lesson
c.JupyterHub.load_groups = {{"teachers": {{"users": [{teacher!r}]}}, "students": {{"users": {students!r}}}}}
"""
TEACHER = "profe"


def student_name(number: int) -> str:
    return f"alumno{number:02d}"


class HubServer(Server):
    """The hub in a subprocess; ``log_in(number)`` gives a student's base URL and cookies."""

    def __init__(self, folder: Path, cull_idle_min: int, students: int = 0) -> None:
        if not PROXY.exists():
            sys.exit(f"--hub needs configurable-http-proxy at {PROXY}: npm install --prefix "
                     f"{PROXY.parents[2]} configurable-http-proxy@4")
        folder = folder / f"hub-{os.getpid()}"
        (folder / "homes").mkdir(parents=True)
        port, cull = free_port(), cull_idle_min * 60
        config = folder / "jupyterhub_config.py"
        config.write_text(CONFIG.format(shipped=str(ROOT / "deploy" / "jupyterhub" / "jupyterhub_config.py"),
                                        folder=str(folder), port=port, hub_port=free_port(), api_port=free_port(),
                                        proxy=str(PROXY), cull=cull, every=min(60, max(1, cull // 2)),
                                        teacher=TEACHER, students=[student_name(i) for i in range(students)]))
        super().__init__([sys.executable, "-m", "jupyterhub", "-f", str(config)], port, folder / "hub.log",
                         cwd=folder)

    def wait(self, timeout: float = 120) -> None:
        """Until the hub itself answers through its proxy."""
        import time
        import urllib.request

        super().wait(timeout)
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(self.url + "hub/api/", timeout=10):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the hub did not answer: {self.log_tail()}") from None
                time.sleep(0.5)

    def kernels(self) -> dict[int, float]:
        """The students' course servers and their kernels, anywhere in the hub's tree."""
        tree = set(self.tree())
        return {pid: start for pid, (_parent, start, cmd) in _processes().items() if pid in tree
                and (b"escoba_tutor.server.hub" in cmd or b"ipykernel" in cmd or b"kernel_launch" in cmd)}

    async def log_in(self, number: int, page: str) -> tuple[str, dict[str, str]]:
        """Log student ``number`` in and wait for their server; their base URL and cookies for ``page``."""
        import asyncio

        from tornado.httpclient import AsyncHTTPClient, HTTPRequest

        client, cookies, name = AsyncHTTPClient(), {}, student_name(number)
        base = f"{self.url}user/{name}/"

        async def fetch(url: str, **kwargs):
            headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
            response = await client.fetch(HTTPRequest(url, headers=headers, follow_redirects=False,
                                                      request_timeout=600, connect_timeout=60, **kwargs),
                                          raise_error=False)
            for cookie in response.headers.get_list("Set-Cookie"):
                key, _, value = cookie.split(";")[0].partition("=")
                cookies[key.strip()] = value
            return response

        form = await fetch(self.url + "hub/login")
        xsrf = re.search(r'name="_xsrf"\s+value="([^"]+)"', form.body.decode())
        target = base + page
        response = await fetch(self.url + "hub/login?" + urlencode({"next": urlsplit(target).path}), method="POST",
                               body=urlencode({"username": name, "password": "x",
                                               "_xsrf": xsrf.group(1) if xsrf else ""}))
        url = self.url + "hub/login"
        for _step in range(200):
            if response.code in (301, 302, 303):
                if urlsplit(url).path.endswith("/oauth_callback"):
                    return base, cookies  # logged in to the student's own server
                url = urljoin(url, response.headers["Location"])
            elif response.code == 424 and "/hub/user/" in url:  # not running: the hub's "launch" page's link
                url = self.url + f"hub/spawn/{name}?" + urlencode({"next": urlsplit(target).path})
            elif response.code == 200 and "/hub/spawn-pending/" in url:
                await asyncio.sleep(1)  # the server is starting: ask for the page again
                url = target
            else:
                raise OSError(f"hub login for {name}: HTTP {response.code} at {url}")
            response = await fetch(url)
        raise OSError(f"hub login for {name}: no end to the redirects")

    def start_ahead(self, parallel: int, until) -> tuple[float, list]:
        """The teacher starts the students group's servers before the lesson (``escoba-tutor hub-start-class``,
        its own code): the seconds it took and each server's outcome."""
        import json
        import time
        import urllib.request

        from escoba_tutor.server.hub_class import HubClient, start_class

        request = urllib.request.Request(  # the teacher's token, made with their login (the dummy one here)
            self.url + f"hub/api/users/{TEACHER}/tokens", method="POST", headers={"Content-Type": "application/json"},
            data=json.dumps({"auth": {"username": TEACHER, "password": "x"}, "note": "benchmark"}).encode())
        with urllib.request.urlopen(request, timeout=60) as answer:
            token = json.load(answer)["token"]
        began = time.monotonic()
        outcomes = start_class(HubClient(self.url, token, timeout=120), group="students", until=until,
                               parallel=parallel, timeout=600)
        return time.monotonic() - began, outcomes
