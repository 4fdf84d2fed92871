"""The server's settings (escoba_tutor/server/settings.py): one object, checked as it is built, and what a kernel
needs of it given to each kernel as it starts (not through the server's own environment)."""

from __future__ import annotations

import asyncio
import http.client
import os
import re
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from http.cookiejar import CookieJar
from pathlib import Path

import pytest

from escoba_tutor.engine.errors import EscobaError
from escoba_tutor.engine.rules import rules_by_name
from escoba_tutor.server.settings import Settings, previous_run


@pytest.mark.parametrize("changes, words", [
    ({"port": 0}, "port must be from 1 to 65535, not 0"),
    ({"lang": "fr"}, "no language 'fr': choose es or en"),
    ({"rules": "scopa"}, "rules must be a Rules object"),
    ({"base_url": "/tutor"}, "base_url must start and end with '/'"),
    ({"cull_idle": -1}, "cull_idle must be 0 or more"),
    ({"reconnect_s": -1}, "reconnect_s must be 0 or more"),
    ({"max_kernels": -2}, "max_kernels must be 0 or more"),
    ({"kernel_memory": -5}, "kernel_memory must be 0 (no limit) or more"),
    ({"activity_s": 0}, "activity_s must be at least 1"),
    ({"connect_s": 0}, "connect_s must be at least 1"),
    ({"allow_hosts": "aula.example.es"}, "allow_hosts is a tuple of host names"),
    ({"record_rate": 0}, "record_rate must be more than 0, not 0"),
    ({"address_record_burst": -1}, "address_record_burst must be more than 0"),
])
def test_a_bad_setting_is_refused_with_its_name(changes, words):
    with pytest.raises(EscobaError) as refused:
        Settings(**changes)
    assert words in str(refused.value)


def test_settings_are_frozen_and_keep_the_commands_defaults():
    settings = Settings(allow_hosts=["aula.example.es"])
    assert (settings.port, settings.ip, settings.lang, settings.rules.name, settings.cull_idle,
            settings.base_url, settings.class_board) == (8866, "127.0.0.1", "es", "escoba", 600, "/", True)
    assert settings.allow_hosts == ("aula.example.es",)
    with pytest.raises(AttributeError):
        settings.port = 9000  # type: ignore[misc]


def test_the_time_a_kernel_waits_for_its_page_to_come_back_reaches_the_class_limits():
    from escoba_tutor.server.app import voila_config
    from escoba_tutor.server.hub import hub_settings
    from escoba_tutor.server.limits import Limits

    assert Settings().reconnect_s == Limits.reconnect_s == 90
    assert voila_config(Settings(reconnect_s=30, class_board=False)).TutorVoila.reconnect_s == 30
    hub = {"JUPYTERHUB_SERVICE_URL": "http://127.0.0.1:50123/user/ana/", "JUPYTERHUB_SERVICE_PREFIX": "/user/ana/",
           "JUPYTERHUB_API_TOKEN": "t", "JUPYTERHUB_API_URL": "http://127.0.0.1:8081/hub/api"}
    assert hub_settings(hub).reconnect_s == 90
    assert hub_settings({**hub, "ESCOBA_TUTOR_RECONNECT_S": "0"}).reconnect_s == 0  # only the idle cull


def test_the_bounds_of_the_class_records_reach_the_class_limits():
    from escoba_tutor.server.app import voila_config
    from escoba_tutor.server.limits import Limits

    assert (Settings().record_rate, Settings().address_record_burst) == (Limits.record_rate,
                                                                          Limits.address_record_burst)
    config = voila_config(Settings(record_rate=2.5, address_record_burst=4000, class_board=False)).TutorVoila
    assert (config.record_rate, config.address_record_burst) == (2.5, 4000)
    assert "record_burst" not in voila_config(Settings(class_board=False)).TutorVoila  # a voila.json's stands


def test_the_time_a_kernel_waits_for_its_pages_first_connection_reaches_the_class_limits():
    from escoba_tutor.server.app import voila_config
    from escoba_tutor.server.hub import hub_settings
    from escoba_tutor.server.limits import Limits

    assert Settings().connect_s == Limits.connect_s == 45
    assert voila_config(Settings(connect_s=30, class_board=False)).TutorVoila.connect_s == 30
    hub = {"JUPYTERHUB_SERVICE_URL": "http://127.0.0.1:50123/user/ana/", "JUPYTERHUB_SERVICE_PREFIX": "/user/ana/",
           "JUPYTERHUB_API_TOKEN": "t", "JUPYTERHUB_API_URL": "http://127.0.0.1:8081/hub/api"}
    assert hub_settings(hub).connect_s == 45
    assert hub_settings({**hub, "ESCOBA_TUTOR_CONNECT_S": "90"}).connect_s == 90


def test_a_server_starting_afresh_reads_its_sockets_and_key_once():
    assert previous_run({"ESCOBA_TUTOR_LISTEN_FDS": "5", "ESCOBA_TUTOR_TEACHER_KEY": "k"}) == {
        "listen_fds": (5,), "teacher_key": "k"}
    with pytest.raises(EscobaError, match="ESCOBA_TUTOR_LISTEN_FDS must be file numbers"):
        previous_run({"ESCOBA_TUTOR_LISTEN_FDS": "three"})


def test_the_kernel_manager_gives_each_kernel_the_servers_settings_and_nothing_of_the_servers_own(monkeypatch):
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    from escoba_tutor.server.kernels import CURRENT_CLASS_ENV, CURRENT_TICKET, TutorMappingKernelManager
    from escoba_tutor.server.limits import ClassRegister, Limits

    started = []

    async def start_kernel(self, *args, **kwargs):
        started.append(kwargs["env"])
        return "k1"

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", start_kernel)
    manager = TutorMappingKernelManager()
    manager.kernel_env = {"ESCOBA_TUTOR_RULES": "scopa", "ESCOBA_TUTOR_KERNEL_MEMORY_MIB": "300"}
    manager.register = register = ClassRegister(Limits(max_kernels=9))
    manager.records_url = "http://127.0.0.1:8866/class/record"
    manager.class_db = "postgresql://escoba:pa55word@db.school/classes"
    inherited = {"PATH": "/usr/bin", "ESCOBA_TUTOR_RULES": "escoba", "ESCOBA_TUTOR_TEACHER_KEY": "secret",
                 "ESCOBA_TUTOR_LISTEN_FDS": "3", "ESCOBA_TUTOR_NICKNAME": "someone else",
                 "ESCOBA_TUTOR_CLASS_DB": "/srv/class.sqlite3", "PGPASSWORD": "pa55word",
                 "DATABASE_URL": "postgresql://escoba:pa55word@db.school/classes",
                 "ESCOBA_TUTOR_RECORDS_TOKEN": "the server's own"}

    async def page() -> None:
        CURRENT_CLASS_ENV.set({"ESCOBA_TUTOR_NICKNAME": "Ana"})
        CURRENT_TICKET.set(register.admit("browser 1", "10.0.0.5"))
        await manager.start_kernel(env=inherited)

    with ThreadPoolExecutor(1) as thread:  # an event loop of its own
        thread.submit(asyncio.run, page()).result()
    (env,) = started
    token = env.pop("ESCOBA_TUTOR_RECORDS_TOKEN")
    assert env == {"PATH": "/usr/bin", "ESCOBA_TUTOR_RULES": "scopa", "ESCOBA_TUTOR_KERNEL_MEMORY_MIB": "300",
                   "ESCOBA_TUTOR_NICKNAME": "Ana", "ESCOBA_TUTOR_RECORDS_URL": "http://127.0.0.1:8866/class/record"}
    owner = register.record_owner(token)
    assert (owner.nickname, owner.client, owner.address, owner.kernel_id) == ("Ana", "browser 1", "10.0.0.5", "k1")


def _environment(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    return dict(item.split("=", 1) for item in raw.decode("utf-8", "replace").split("\0") if "=" in item)


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except (OSError, ValueError):
            continue
        if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
            found.append(int(entry))
    return found


@pytest.fixture(scope="module")
def scopa_server(tutor_server_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ESCOBA_TUTOR_TEACHER_KEY", "the-teachers-key-4711")  # as a fresh start is given it
        return tutor_server_factory("--rules", "scopa", "--kernel-memory", "300")


def test_a_request_body_over_the_http_servers_limit_is_refused_before_it_is_read(scopa_server):
    """Tornado would read up to 100 MB of a body before any handler could refuse it."""
    host, port = scopa_server.url.split("/")[2].split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=15)
    try:
        connection.putrequest("POST", "/class/nickname")
        connection.putheader("Content-Length", str(2 * 1024 * 1024))  # and no body sent: it is refused first
        connection.endheaders()
        assert connection.getresponse().status == 400
    finally:
        connection.close()


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads the kernel's environment in /proc")
def test_a_real_servers_kernel_gets_the_rules_and_limit_but_never_the_teachers_key(scopa_server):
    server = scopa_server
    assert "class/board?key=the-teachers-key-4711" in server.log.read_text()  # the same link as before
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    with browser.open(server.url + "voila/render/es/02-captures.ipynb", timeout=90) as response:
        assert re.search(r'"kernelId": *"([0-9a-f-]+)"', response.read().decode())
    kernels = [pid for pid in _children(server.process.pid)
               if b"kernel_launch" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    assert kernels, "no kernel started"
    kernel = _environment(kernels[0])
    assert kernel["ESCOBA_TUTOR_RULES"] == "scopa" and kernel["ESCOBA_TUTOR_LANG"] == "es"
    assert kernel["ESCOBA_TUTOR_KERNEL_MEMORY_MIB"] == "300"
    assert "ESCOBA_TUTOR_TEACHER_KEY" not in kernel and "ESCOBA_TUTOR_LISTEN_FDS" not in kernel
    assert "ESCOBA_TUTOR_RULES" not in _environment(server.process.pid)
    assert rules_by_name(kernel["ESCOBA_TUTOR_RULES"]).name == "scopa"
