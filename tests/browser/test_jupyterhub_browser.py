"""The course on a real JupyterHub: deploy/jupyterhub/jupyterhub_config.py, as shipped, with only what a test
machine needs changed (the dummy login, a local process spawner, loopback ports, short culling times).

The hub (jupyterhub from PyPI, configurable-http-proxy from npm, installed into ``.cache/`` of the checkout the
first time) is reached by a school's host name, ``aula.escoba.test``, which Chromium resolves to 127.0.0.1: the
name the proxy passes on to each student's course server, which must allow it (the host allow-list) and no
other. Chromium treats that address as a secure one, as a school's hub served over https is: only then does it
send the ``Sec-Fetch-*`` headers with which the hub tells a page's own requests (checked against XSRF) from a
page being opened. Three students log in, land on the Spanish landing page under ``/user/<name>/``, answer a
capture over the kernel websocket and follow a link to a lesson, each page in its own language (``<html lang>``);
every request their pages make stays on the hub and none fails, in the browser or in the hub's log, and no page
shows the banner of a lost connection. One student's server takes longer to start than the idle time, and is not
culled for it. Then they leave, and the idle culler stops their servers.

The class board on the hub: the hub's configuration names one real PostgreSQL database (started by the test,
tests/records_postgres.py); each student answers the landing page's capture drill in their own server, which
records it under their hub name, while that server's kernels hold neither the database's URL nor its password
(read from /proc). A teacher (the ``teachers`` group) logs in and sees the three students' answers on the board,
the hub's ``class-board`` service, behind the hub's login; a student who asks for the board is refused it.

A table across the hub: two students, each on their own course server, play each other at a table of two (a play
reaches the other's page through the database's notifications, within a second); the board service lists the table.
"""

from __future__ import annotations

import re
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest
from helpers import assert_no_error, board_refreshed, start_class_exercise, wait_rendered
from hub_setup import CULL_TIMEOUT, DB_PASSWORD, ROOT, SCHOOL_HOST, SLOW_STUDENT, TEACHER, WAIT, Hub
from playwright.sync_api import expect

from escoba_tutor.records import ClassStore

pytest.importorskip("jupyterhub", reason="the JupyterHub test needs the hub extra: pip install -e '.[hub]'")
pytest.importorskip("jupyterhub_idle_culler", reason="the JupyterHub test needs the hub extra: pip install -e '.[hub]'")

pytestmark = pytest.mark.browser

STUDENTS = ("ana", "bruno", "carmen")  # SLOW_STUDENT among them
# the landing page's capture drill is exercise 1: the two of swords takes 10b+5c, 6e+7e or 6e+7b
SEED_1_CAPTURES = [["10b", "5c"], ["6e", "7e"], ["6e", "7b"]]
ANSWERS = {"ana": SEED_1_CAPTURES, "bruno": [["7e", "7b"]], "carmen": [["10b", "5c"]]}  # right, wrong, missing

#: A request's line in the hub's log or a course server's (both write to it): its status, method and path
LOGGED_REQUEST = re.compile(r"\b([1-5]\d\d) (GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) (\S+)")

#: Before any script of a page runs: report every connection banner the page puts up, however briefly
BANNER_SPY = """
new MutationObserver((changes) => {
  for (const change of changes) {
    for (const node of change.addedNodes) {
      if (node.id === "escoba-connection-lost") {
        window.escobaBannerShown(location.pathname + ": " + (node.dataset.reason || "") + " " + node.textContent);
      }
    }
  }
}).observe(document, {childList: true, subtree: true});
"""


def failed_in_log(hub: Hub, start: int) -> list[str]:
    """The requests the hub's log shows answered with 4xx or 5xx after byte ``start``."""
    with hub.log.open("rb") as log:
        log.seek(start)
        text = log.read().decode(errors="replace")
    return [line.strip() for line in text.splitlines()
            if any(match.group(1)[0] in "45" for match in LOGGED_REQUEST.finditer(line))]


def expect_checked(page, prefix: str) -> None:
    """The page's connection watch has asked the hub for its kernel (connection.js, on render and every 10 s)."""
    kernel = page.evaluate("() => window.jupyterapp.widgetManager.kernel.id")
    check = f"{prefix}api/kernels/{kernel}"
    with page.expect_response(lambda response: urlsplit(response.url).path == check, timeout=WAIT) as asked:
        page.keyboard.press("Shift")  # a key press asks again when the last check is 3 s old
    assert asked.value.status == 200, f"{asked.value.status} {asked.value.url}"


def log_in(page, hub: Hub, name: str) -> None:
    page.goto(hub.url + "hub/login")
    log_in_here(page, name)


def log_in_here(page, name: str) -> None:
    page.get_by_label(re.compile("user ?name", re.I)).fill(name)
    page.get_by_label(re.compile("password", re.I)).fill("any")
    page.get_by_role("button", name=re.compile("sign in", re.I)).click()


def answer_the_drill(page, captures) -> None:
    """The landing page's capture drill: build these captures, then check."""
    box = page.locator(".escoba-drill")
    expect(box.get_by_role("status")).to_be_attached(timeout=WAIT)
    table = box.get_by_role("group", name="Mesa")
    for codes in captures:
        for code in codes:
            card = table.locator(f'[data-code="{code}"]')
            card.click()
            expect(card).to_have_attribute("aria-pressed", "true")
        box.get_by_role("button", name="Añadir esta baza").click()
        expect(table.locator('[aria-pressed="true"]')).to_have_count(0)
    box.get_by_role("button", name="Comprobar").click()
    expect(box.get_by_role("status")).to_contain_text("¡Bien!" if captures == SEED_1_CAPTURES else "Falta:")


def environ(pid: int) -> dict[str, str]:
    text = Path(f"/proc/{pid}/environ").read_bytes().decode("utf-8", "replace")
    return dict(item.split("=", 1) for item in text.split("\0") if "=" in item)


def kernel_environments(name: str) -> dict[str, tuple[dict, dict]]:
    """The kernels recording for ``name``, each with its course server's environment (its parent's), as Linux
    holds them (/proc): kernel pid -> (kernel's environment, server's environment)."""
    found = {}
    deadline = time.monotonic() + 30
    while not found and time.monotonic() < deadline:
        for entry in Path("/proc").iterdir():
            try:
                if not entry.name.isdigit() or b"escoba_tutor.server.kernel_launch" not in (
                        entry / "cmdline").read_bytes():
                    continue
                env = environ(int(entry.name))
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                if env.get("ESCOBA_TUTOR_NICKNAME") == name:
                    found[int(entry.name)] = (env, environ(parent))
            except (OSError, IndexError, ValueError):
                continue
        time.sleep(0.3)
    assert found, f"no kernel records for {name}"
    return found


class Visit:
    """One student's visit, in a browser context of its own: ``Visit(...)`` logs them in (the hub starts their
    server, the page waits for it by itself); ``go(seen)`` then lands on the course, answers the drill and a
    capture, follows a link (and, with ``english``, opens the lesson in English), and leaves. ``seen`` gets the
    environments of their kernels."""

    def __init__(self, school_browser, hub: Hub, name: str) -> None:
        self.hub, self.name, self.prefix = hub, name, f"/user/{name}/"
        self.requests: list[str] = []
        self.failures: list[str] = []
        self.banners: list[str] = []
        self.log_start = hub.log.stat().st_size

        def answered(response) -> None:
            if urlsplit(response.url).hostname == SCHOOL_HOST:
                self.requests.append(urlsplit(response.url).path)
                if response.status >= 400:
                    self.failures.append(f"{response.status} {response.url}")

        self.context = school_browser.new_context(viewport={"width": 1280, "height": 900})
        page = self.page = self.context.new_page()
        page.set_default_timeout(120_000)  # a server starting and a lesson running on a busy machine
        page.on("response", answered)
        page.on("websocket", lambda ws: self.requests.append(urlsplit(ws.url).path))
        page.expose_function("escobaBannerShown", lambda shown: self.banners.append(shown))
        page.add_init_script(BANNER_SPY)
        try:
            log_in(page, hub, name)
        except BaseException:
            self.context.close()
            raise

    def go(self, seen: dict, english: bool = False) -> None:
        hub, name, prefix, page, requests = self.hub, self.name, self.prefix, self.page, self.requests
        try:
            page.wait_for_url(re.compile(re.escape(prefix) + r"voila/render/es/index\.ipynb"), timeout=180_000)
            wait_rendered(page)
            expect(page.get_by_role("heading", name=re.compile("Escoba: aprende a jugar"))).to_be_visible(timeout=WAIT)
            expect(page.locator("html")).to_have_attribute("lang", "es")
            assert_no_error(page)
            assert hub.servers(name).get("", {}).get("ready"), f"{name}'s server is not running: {hub.servers(name)}"

            # the hub says who the student is: no nickname asked, the landing page names the board's name for them
            expect(page.locator(".escoba-nickname-form")).to_have_count(0)
            expect(page.locator(".escoba-hub-recorded .escoba-nickname-now")).to_have_text(name)
            # and the class exercise's page, on their own server (the teacher leads it from the board service)
            expect(page.locator(".escoba-hub-recorded .escoba-class-exercise-link")).to_have_attribute(
                "href", f"{prefix}voila/render/es/class.ipynb")
            answer_the_drill(page, ANSWERS[name])
            seen.update(kernel_environments(name))

            # a capture answered over the kernel websocket: the kernel's answer comes back to the status line
            table = page.locator(".escoba-capture-table").first
            row = table.locator("tr[data-id]").first
            row.click()
            expect(table.locator(".et-live")).to_have_text(row.get_attribute("aria-label"), timeout=WAIT)
            expect(row).to_have_attribute("aria-selected", "true", timeout=WAIT)
            assert any(path.startswith(f"{prefix}api/kernels/") and path.endswith("/channels") for path in requests)

            # every link of the landing page leads to a lesson of this server, under the student's prefix
            hrefs = page.locator("main a[href], .jp-RenderedHTMLCommon a[href]").evaluate_all(
                "links => links.map(link => link.href)")
            lessons = [urlsplit(href) for href in hrefs if urlsplit(href).path.endswith(".ipynb")]
            assert len(lessons) >= 5, hrefs
            for link in lessons:
                assert link.hostname == SCHOOL_HOST and link.path.startswith(f"{prefix}voila/render/"), link.geturl()
                lesson = ROOT / "lessons" / link.path[len(f"{prefix}voila/render/"):]
                assert lesson.is_file(), f"the link {link.geturl()} names no lesson"
            page.locator("a[href='02-captures.ipynb']").first.click()
            wait_rendered(page)
            assert urlsplit(page.url).path == f"{prefix}voila/render/es/02-captures.ipynb"
            expect(page.locator(".escoba-capture-table .et-card:visible").first).to_be_visible(timeout=WAIT)
            expect(page.locator("html")).to_have_attribute("lang", "es")
            assert_no_error(page)
            expect_checked(page, prefix)
            if english:
                page.goto(hub.url.rstrip("/") + f"{prefix}voila/render/en/02-captures.ipynb")
                wait_rendered(page)
                expect(page.get_by_role("heading", level=1, name=re.compile("Making 15"))).to_be_visible(timeout=WAIT)
                expect(page.locator("html")).to_have_attribute("lang", "en")
                assert_no_error(page)
                expect_checked(page, prefix)
            expect(page.locator("#escoba-connection-lost")).to_have_count(0)
            page.goto("about:blank")  # the student leaves: Voilà's close beacon frees the kernel
        finally:
            self.context.close()
        outside = [path for path in requests if not (path.startswith(prefix) or path.startswith("/hub/"))]
        assert not outside, f"requests outside {prefix} and /hub/: {outside[:5]}"
        assert not self.failures, f"failed requests: {self.failures[:5]}"
        assert not self.banners, f"{name}'s pages said the connection was lost: {self.banners[:3]}"
        logged = failed_in_log(hub, self.log_start)
        assert not logged, f"requests failed in the hub's log while {name} visited: {logged[:5]}"


@pytest.fixture(scope="module")
def visited(hub, school_browser) -> dict[int, tuple[dict, dict]]:
    """The three students' visits, once for the module's tests: their kernels' environments, and their servers'."""
    seen: dict[int, tuple[dict, dict]] = {}
    # the slow student logs in first: the hub starts their server (longer than the idle time) while the first
    # student visits, and their page, waiting on the hub's page, goes on to the course by itself once it is up
    slow = Visit(school_browser, hub, SLOW_STUDENT)
    for name in STUDENTS:
        visit = slow if name == SLOW_STUDENT else Visit(school_browser, hub, name)
        visit.go(seen, english=name == STUDENTS[0])
    return seen


def test_a_student_s_kernel_holds_neither_the_database_nor_its_password(hub, visited):
    assert {env["ESCOBA_TUTOR_NICKNAME"] for env, _server in visited.values()} == set(STUDENTS)
    for kernel_env, server_env in visited.values():
        name = kernel_env["ESCOBA_TUTOR_NICKNAME"]
        # the course server holds the database (the hub gave it); its kernel sends records to it, with a token
        assert server_env["ESCOBA_TUTOR_CLASS_DB"] == hub.class_db
        assert server_env["JUPYTERHUB_USER"] == name
        assert kernel_env["ESCOBA_TUTOR_RECORDS_URL"].endswith(f"/user/{name}/class/record")
        assert len(kernel_env["ESCOBA_TUTOR_RECORDS_TOKEN"]) >= 40
        held = "\n".join(f"{key}={value}" for key, value in kernel_env.items())
        assert DB_PASSWORD not in held and "escoba_classes" not in held, held
        assert "ESCOBA_TUTOR_CLASS_DB" not in kernel_env and "ESCOBA_HUB_CLASS_DB" not in kernel_env


def test_the_teacher_sees_the_three_students_on_the_class_board(hub, school_browser, visited):
    context = school_browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.set_default_timeout(WAIT)
    log_start = hub.log.stat().st_size
    try:
        page.goto(hub.url + "hub/login?next=%2Fservices%2Fclass-board%2F")
        log_in_here(page, TEACHER)
        page.wait_for_url(re.compile(r"/services/class-board/class/board"), timeout=WAIT)
        expect(page.get_by_role("heading", level=1)).to_contain_text("Panel de la clase")
        assert "key=" not in page.url
        rows = page.locator("#students tbody tr")
        expect(rows).to_have_count(3, timeout=WAIT)
        expect(page.locator("#students tbody th a.nick")).to_have_text(list(STUDENTS))
        row = {name: rows.filter(has=page.locator("a.nick", has_text=re.compile(f"^{name}$"))) for name in STUDENTS}
        # the captures column (after all the exercises together): share right, answers checked
        expect(row["ana"].locator("td").nth(1)).to_have_text("100\xa0% 1")
        expect(row["bruno"].locator("td").nth(1)).to_have_text("0\xa0% 1")
        expect(row["carmen"].locator("td").nth(1)).to_have_text("0\xa0% 1")
        for name in STUDENTS:
            expect(row[name].locator("td.lessons")).to_contain_text("inicio")
        # a mistake's exercise opens in the teacher's own course server, through the hub
        page.locator("ol.mistakes > li summary").first.click()
        link = page.locator("ol.mistakes > li").first.get_by_role("link").first
        assert link.get_attribute("href").startswith("/hub/user-redirect/voila/render/es/index.ipynb?seed=1")
        board_refreshed(page)  # the live part, asked over the hub's XSRF check of a script's fetch
        expect(page.locator("#board-status")).to_contain_text("Última actualización:")
    finally:
        context.close()
    logged = failed_in_log(hub, log_start)
    assert not logged, f"requests failed in the hub's log while the teacher looked: {logged[:5]}"
    # what the database holds: each answer under the student's hub name
    with ClassStore.open(hub.class_db) as store:
        board = store.board()
    assert {s.nickname: s.drills["captures"] for s in board.students} == {
        "ana": (1, 1), "bruno": (1, 0), "carmen": (1, 0)}
    assert not hub.servers(TEACHER), "the teacher's own server was started to show the board"


def test_a_student_is_refused_the_class_board(hub, school_browser):
    context = school_browser.new_context()
    page = context.new_page()
    page.set_default_timeout(WAIT)
    try:
        page.goto(hub.url + "hub/login?next=%2Fservices%2Fclass-board%2F")
        log_in_here(page, "diego")
        # the hub itself refuses to let the board know who they are: they do not hold the board's access scope
        expect(page.get_by_role("heading", name=re.compile("403.*do not have permission"))).to_be_visible()
        expect(page.locator("#students")).to_have_count(0)
    finally:
        context.close()


def exercise_status(page):
    return page.locator(".escoba-class-exercise").get_by_role("status").first


def student_on_own_server(hub, school_browser, contexts: list, name: str, path: str):
    """A student logged in to the hub and on ``path`` of their own server, in a context of their own (added to
    ``contexts``). Through the hub's spawn page: it goes straight on when the server runs, and starts it if it was
    culled."""
    context = school_browser.new_context(viewport={"width": 1280, "height": 900})
    contexts.append(context)
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(hub.url + "hub/login?next=" + quote("/hub/spawn?next=" + quote(path, safe=""), safe=""))
    log_in_here(page, name)
    page.wait_for_url(re.compile(r"^https?://[^/]+" + re.escape(path)), timeout=180_000)
    return page


def teacher_on_the_board_service(hub, school_browser, contexts: list):
    """The teacher logged in to the hub and on the board service's board, in a projector-sized context of its own
    (added to ``contexts``, which the test closes)."""
    context = school_browser.new_context(viewport={"width": 1920, "height": 1080})
    contexts.append(context)
    teacher = context.new_page()
    teacher.set_default_timeout(WAIT)
    teacher.goto(hub.url + "hub/login?next=%2Fservices%2Fclass-board%2F")
    log_in_here(teacher, TEACHER)
    teacher.wait_for_url(re.compile(r"/services/class-board/class/board"), timeout=WAIT)
    return teacher


def test_the_teacher_leads_a_class_exercise_from_the_board_service(hub, school_browser, visited):
    """The class exercise across the hub: the teacher starts it on the board service; two students, each on their
    own course server (already started by ``visited``: the hub starts it again if it was culled meanwhile), see it
    within seconds (their servers hear of it from the database's notifications), answer, and the projected view
    counts both answers (the service hears of them the same way); the answer revealed shows on both pages. A
    student may not start or change the exercise, neither on the service nor on their own server."""

    from test_class_board_browser import build_captures

    log_start = hub.log.stat().st_size
    contexts = []
    try:
        pages = {}
        for name in ("ana", "carmen"):  # two students of ``visited``, on their own servers
            page = pages[name] = student_on_own_server(hub, school_browser, contexts, name,
                                                       f"/user/{name}/voila/render/es/class.ipynb")
            wait_rendered(page)
            expect(exercise_status(page)).to_contain_text("Ahora no hay ningún ejercicio en marcha", timeout=WAIT)

        teacher = teacher_on_the_board_service(hub, school_browser, contexts)
        began = start_class_exercise(teacher)
        teacher.wait_for_url(re.compile(r"/services/class-board/class/exercise"))
        expect(teacher.get_by_role("heading", level=1)).to_have_text("Ejercicio de clase")
        shown = {}
        for name, page in pages.items():
            expect(page.locator(".escoba-drill h3")).to_contain_text("n.º 1", timeout=30_000)
            shown[name] = round(time.monotonic() - began, 2)
        print(f"\nhub: start on the board service -> shown on the students' pages: {shown} (s, from the click)")
        assert max(shown.values()) < 15, shown

        # a student may not start or change it: the service refuses them, their own server has no such page
        ana = pages["ana"]
        for path in ("services/class-board/class/exercise/start", "services/class-board/class/exercise/act",
                     "user/ana/class/exercise/start", "user/ana/class/exercise/act"):
            status = ana.evaluate("""async ([url, form]) => (await fetch(url, {method: "POST", redirect: "manual",
                credentials: "same-origin", body: new URLSearchParams(form)})).status""", [hub.url + path, {
                "kind": "captures", "seed": "9", "seconds": "60", "token": "x" * 24, "action": "end",
                "exercise": str(1)}])
            assert status == 403 if path.startswith("services/") else status in (403, 404), (path, status)
        with ClassStore.open(hub.class_db) as store:
            running = store.running_exercise()
        assert running is not None and (running.seed, running.state) == (1, "open")  # nothing changed

        build_captures(ana, "es", SEED_1_CAPTURES)
        ana.locator(".escoba-drill").get_by_role("button", name="Comprobar").click()
        pages["carmen"].locator(".escoba-drill").get_by_role("button", name="Comprobar").click()  # nothing built
        for page in pages.values():
            expect(exercise_status(page)).to_contain_text("Tu respuesta se ha registrado", timeout=WAIT)
        expect(teacher.locator("#exercise-answered")).to_have_text("2 respuestas", timeout=30_000)

        teacher.get_by_role("button", name="Ver la solución").click()
        expect(teacher.locator("#exercise-answer")).to_be_visible()
        for page in pages.values():
            expect(exercise_status(page)).to_contain_text("ha mostrado la solución", timeout=30_000)
        expect(ana.locator(".escoba-drill")).to_contain_text("¡Bien!")
        teacher.get_by_role("button", name="Terminar el ejercicio").click()
        for page in pages.values():
            expect(exercise_status(page)).to_contain_text("Ahora no hay ningún ejercicio en marcha", timeout=30_000)
        for page in pages.values():
            page.goto("about:blank")  # the students leave: their servers may be culled
    finally:
        for context in contexts:
            context.close()
    refused = re.compile(r"\b40[34] POST /(services/class-board|user/ana)/class/exercise/(start|act)\b")
    logged = [line for line in failed_in_log(hub, log_start) if not refused.search(line)]
    assert not logged, f"requests failed in the hub's log during the class exercise: {logged[:5]}"
    with ClassStore.open(hub.class_db) as store:
        assert store.running_exercise() is None


def test_two_students_play_at_a_table_across_their_servers(hub, school_browser):
    """A table of two across the hub: Ana (Spanish) opens it on her own course server, Carmen (English) types its
    code on hers; they play a few turns, each play reaching the other page within a second (her server hears of it
    from the database's notification, and wakes her kernel's long poll); the teacher's board service lists the
    table, and its row follows the plays. The students' servers are started through the hub's spawn page if the
    idle culler stopped them."""

    from test_tables_browser import SEEN_WITHIN_S, Player, percentiles, play, whose_turn

    log_start = hub.log.stat().st_size
    contexts = []
    try:
        players = []
        for name, lang in (("ana", "es"), ("carmen", "en")):  # two students of the module, on their own servers
            page = student_on_own_server(hub, school_browser, contexts, name,
                                         f"/user/{name}/voila/render/{lang}/tables.ipynb")
            players.append(Player.on(page, name, lang))
        for player in players:
            player.ready()
            player.page.set_default_timeout(WAIT)
        ana, carmen = players
        expect(ana.root.locator(".escoba-tables-lobby")).to_be_visible()
        ana.button("Open a table").click()
        code_shown = ana.root.locator(".escoba-tables-code strong.escoba-code")
        expect(code_shown).to_have_text(re.compile(r"^[0-9A-Z]{5}$"), timeout=30_000)
        code = code_shown.inner_text()
        carmen.root.get_by_label("Table code").fill(code)
        carmen.button("Sit at this table").click()
        for player in players:
            expect(player.hand.locator("[data-code]")).to_have_count(3, timeout=30_000)
            expect(player.root.locator(".escoba-tables-code")).to_contain_text(code)
        assert not set(ana.hand_codes()) & set(carmen.hand_codes())

        # the teacher's board service lists the table (it reads the class database, and hears of its changes)
        teacher = teacher_on_the_board_service(hub, school_browser, contexts)
        row = teacher.locator(f'#game-tables tr[data-key="{code}"]')
        expect(row).to_have_count(1, timeout=30_000)
        expect(row.locator(".sides")).to_have_text(re.compile(r"Bando 1:\s*ana.*contra\s*Bando 2:\s*carmen"))

        times = []
        for n in range(6):
            mover = whose_turn(players)
            other = carmen if mover is ana else ana
            turn_before = row.locator(".turn").inner_text()
            times.append(play(mover, other))
            print(f"\nhub: {mover.nickname} plays -> seen on {other.nickname}'s page (another server) in "
                  f"{times[-1] * 1000:.0f} ms")
            if n == 0:  # the board's list follows the plays without a reload
                expect(row.locator(".turn")).not_to_have_text(turn_before, timeout=10_000)
        load = Path("/proc/loadavg").read_text().split()[:3]
        print(f"hub: play -> seen on the other student's page: {[round(t * 1000) for t in times]} ms; "
              f"{percentiles(times)} (load average {' '.join(load)})")
        assert max(times) < SEEN_WITHIN_S, times
        for player in players:
            assert_no_error(player.page)
            expect(player.page.locator("#escoba-connection-lost")).to_have_count(0)
            player.page.goto("about:blank")  # the students leave: their servers may be culled
    finally:
        for context in contexts:
            context.close()
    logged = failed_in_log(hub, log_start)
    assert not logged, f"requests failed in the hub's log during the game: {logged[:5]}"


def test_three_students_log_in_land_on_the_course_answer_and_are_culled(hub, visited):
    # the proxy passes on the host name the browser used: a student's server refuses one it was not given
    running = [name for name in STUDENTS if hub.servers(name)]
    assert running, "every server was stopped before the idle time ran out"
    request = urllib.request.Request(hub.local + f"user/{running[-1]}/", headers={"Host": "elsewhere.example"})
    with pytest.raises(urllib.request.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=20)
    assert refused.value.code == 403 and b"host name" in refused.value.read()
    # a student's server, which holds the class database, shows no board of it, with or without a key
    for path in ("class/board", "class/board.json?key=x", "class/board.csv"):
        request = urllib.request.Request(hub.local + f"user/{running[-1]}/{path}", headers={"Host": SCHOOL_HOST})
        with pytest.raises(urllib.request.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=20)
        assert refused.value.code == 404, (path, refused.value.code)
    # idle: the culler stops every server (its timeout, plus its interval and the hub's activity updates)
    deadline = time.monotonic() + CULL_TIMEOUT + 60
    while time.monotonic() < deadline and any(hub.servers(name) for name in STUDENTS):
        time.sleep(2)
    assert not any(hub.servers(name) for name in STUDENTS), {name: hub.servers(name) for name in STUDENTS}
    assert "Culling server" in hub.log.read_text(errors="replace")
