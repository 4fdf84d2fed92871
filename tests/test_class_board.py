"""The class board's server side (escoba_tutor/server/class_board.py and nickname.py), against one real
``escoba-tutor`` server with a class database of its own: the teacher's key, the nickname form and its cookie,
a kernel that records for the page's nickname and only then, the board's page, JSON, CSV, a new class and
forgetting one. And the pieces without a server: the board's words for every mistake code, its escaping, the
catalogs.

The browser test (three students, the teacher's page live) is tests/browser/test_class_board_browser.py.
"""

from __future__ import annotations

import ast
import html
import io
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timedelta, timezone
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from escoba_test_helpers import TutorServer

from escoba_tutor.exercises.registry import kind, kind_names, mistake_codes, mistake_words
from escoba_tutor.records import (
    Board,
    ClassInfo,
    ClassStore,
    DealFinished,
    DrillAnswer,
    Exercise,
    GameFinished,
    LessonOpened,
    LessonRow,
    MistakeRow,
    StudentRow,
)
from escoba_tutor.server.class_board import board_view, exercise_link, key_matches, kind_page, student_view
from escoba_tutor.server.nickname import NICKNAME_COOKIE
from escoba_tutor.text.catalogs import extract
from escoba_tutor.text.translator import LOCALE_DIR, Translator

ROOT = Path(__file__).resolve().parents[1]
KEYS: dict[str, str] = {}  # server address -> the teacher's key


def keyed_server(class_tutor_factory, tmp_path_factory, *args: str):
    """A real server whose pages keep their kernels for an hour, its teacher's key in :data:`KEYS`, with a
    ``students`` dict for the tests' seats."""
    from escoba_test_helpers import voila_settings

    env = voila_settings(tmp_path_factory.mktemp("config"), connect_s=3600)
    server = class_tutor_factory(*args, env=env)
    KEYS[server.url] = server.key
    server.students = {}
    return server


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """A browser's cookies and requests, as urllib makes them (no redirect is followed: the tests look at it)."""

    def __init__(self, base: str) -> None:
        self.base, self.jar = base, CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect)

    def request(self, path: str, form: dict | None = None, timeout: float = 120, headers: dict | None = None):
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        try:
            answer = self.opener.open(urllib.request.Request(self.base + path, data=data, headers=headers or {}),
                                      timeout=timeout)
        except urllib.error.HTTPError as error:
            answer = error
        body = answer.read().decode("utf-8", "replace")
        return answer.status, answer.headers, body

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def xsrf(self) -> str:
        """The ``_xsrf`` cookie's token, which a page's forms send back (the landing page or the board sets it;
        the board is the quicker of the two: it starts no kernel)."""
        if self.cookie("_xsrf") is None:
            self.request(f"class/board?key={KEYS[self.base]}")
        return self.cookie("_xsrf")


@pytest.fixture(scope="module")
def server(class_tutor_factory):
    server = class_tutor_factory("--cull-idle", "2")
    KEYS[server.url] = server.key
    return server


def store_of(server) -> ClassStore:
    return ClassStore.open(server.database)


def landing(browser: Browser, lang: str = "es") -> str:
    """The landing page (it starts a kernel, which runs the page's cells and records the page opened)."""
    status, _headers, body = browser.request(f"voila/render/{lang}/index.ipynb")
    if status == 302:  # the first visit gets the browser's cookie, then comes back
        status, _headers, body = browser.request(f"voila/render/{lang}/index.ipynb")
    assert status == 200, body[:300]
    return body


# ------------------------------------------------------------------------------------------------ the key
def test_the_key_is_long_random_and_compared_whole(server):
    assert len(server.key) >= 40
    assert key_matches(server.key, server.key)
    assert not key_matches(server.key[:-1], server.key)
    assert not key_matches("", server.key) and not key_matches(None, server.key)
    assert not key_matches("anything", "")


@pytest.mark.parametrize("address", ["class/board", "class/board?key=", "class/board?key=wrong",
                                     "class/board.json?key=wrong", "class/board.csv", "class/board?key=%00%ff"])
def test_without_the_key_the_board_says_nothing_about_the_class(server, address):
    store = store_of(server)
    name = store.current_class().name
    store.close()
    status, headers, body = Browser(server.url).request(address)
    if "%00" in address:  # not even text: refused before the key is looked at
        assert status == 400 and name not in body
        return
    assert status == 403
    assert "teacher's link" in body or "enlace del profesor" in body
    assert name not in body and "class/board.json" not in body
    assert "no-store" in headers.get("Cache-Control", "")


def test_a_wrong_key_is_refused_in_english_when_asked(server):
    status, _headers, body = Browser(server.url).request("class/board?key=wrong&lang=en")
    assert status == 403 and "The class board opens only with the teacher's link" in html.unescape(body)
    assert server.key not in body


def test_the_posts_need_the_key_and_the_xsrf_token(server):
    browser = Browser(server.url)
    token = browser.xsrf()
    before = len(store_of(server).classes())
    assert browser.request("class/new", {"_xsrf": token, "key": "wrong"})[0] == 403
    assert browser.request("class/new", {"key": server.key})[0] == 403  # no _xsrf
    assert browser.request("class/forget", {"_xsrf": token, "key": "", "class": "1", "confirm": "yes"})[0] == 403
    assert len(store_of(server).classes()) == before


def test_the_key_never_reaches_the_log(server):
    Browser(server.url).request(f"class/board?key={server.key}")
    log = server.log.read_text()
    assert log.count(server.key) == 1  # the teacher's link printed at start, and nothing else


# -------------------------------------------------------------------------------------------- nicknames
def test_the_landing_page_asks_for_a_nickname_and_says_what_is_recorded(server):
    browser = Browser(server.url)
    page = landing(browser, "es")
    assert 'class="escoba-nickname"' in page and "Tu apodo para la clase" in page
    assert "Sin apodo no se guarda nada sobre ti" in page and "no tu nombre real" in page
    assert 'name="_xsrf"' in page and 'action="/class/nickname"' in page
    assert ('<a class="escoba-tables-link" href="/voila/render/es/tables.ipynb">Mesas: juega a la escoba contra tus '
            'compañeros') in page  # beside the class exercise's link
    page = landing(browser, "en")
    assert "Your nickname for the class" in page and "Without a nickname nothing about you is recorded" in page
    assert server.key not in page


def test_a_nickname_is_kept_in_a_long_lived_httponly_cookie(server):
    browser = Browser(server.url)
    status, headers, _body = browser.request("class/nickname", {"_xsrf": browser.xsrf(), "nickname": " Lucía 2 ",
                                                                "lang": "en"})
    assert status == 303 and headers["Location"] == "/voila/render/en/index.ipynb"
    cookie = headers["Set-Cookie"]
    assert cookie.startswith(f"{NICKNAME_COOKIE}=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Path=/" in cookie
    expires = datetime.strptime(re.search(r"expires=([^;]+)", cookie).group(1), "%a, %d %b %Y %H:%M:%S GMT")
    assert (expires.replace(tzinfo=timezone.utc) - datetime.now(timezone.utc)).days >= 360
    assert urllib.parse.unquote(browser.cookie(NICKNAME_COOKIE)) == "Lucía 2"
    page = landing(browser, "en")
    assert "Your nickname: <strong class=\"escoba-nickname-now\">Lucía 2</strong>." in page
    assert "Forget my nickname" in page
    status, headers, _body = browser.request("class/nickname", {"_xsrf": browser.xsrf(), "action": "forget",
                                                                "lang": "en"})
    assert status == 303 and browser.cookie(NICKNAME_COOKIE) is None


@pytest.mark.parametrize("typed, lang, said", [
    ("<script>", "es", "Un apodo solo puede tener letras, cifras, espacios"),
    ("<script>alert(1)</script>", "en", "The nickname is too long"),
    ("", "es", "El apodo está vacío"),
    ("x" * 25, "en", "The nickname is too long: at most 24 characters."),
    ("Ana 😀", "en", "A nickname may contain only letters, digits, spaces"),
    ("Ana\u202eevil", "en", "The nickname contains an invisible character"),
    ("B\u200bea", "es", "El apodo tiene un carácter invisible"),
    ("M\u0430r\u00eda", "es", "El apodo mezcla letras de alfabetos distintos"),  # a Cyrillic а in «María»
    ("M\u0430r\u00eda", "en", "The nickname mixes letters of different alphabets"),
    ("Za\u0308\u0301\u0301", "es", "El apodo tiene signos de más sobre una letra"),
    ("Za\u0308\u0301\u0301", "en", "The nickname has extra accents on a letter"),
])
def test_a_bad_nickname_is_refused_in_words_and_nothing_is_kept(server, typed, lang, said):
    browser = Browser(server.url)
    status, headers, body = browser.request("class/nickname", {"_xsrf": browser.xsrf(), "nickname": typed,
                                                               "lang": lang})
    assert status == 400 and said in body
    assert "Set-Cookie" not in headers or NICKNAME_COOKIE not in headers["Set-Cookie"]
    assert browser.cookie(NICKNAME_COOKIE) is None
    assert "<script>" not in body  # shown as text in the field, escaped
    if typed.startswith("<script>"):
        assert f'value="{html.escape(typed)}"' in body


@pytest.mark.parametrize("typed, kept", [
    ("\uff2c\uff55\uff43\uff49\uff41", "Lucia"), ("\u00cd\u00f1igo", "\u00cd\u00f1igo"),
    ("I\u0301n\u0303igo", "\u00cd\u00f1igo"), ("Mar\u00eda  Jos\u00e9", "Mar\u00eda Jos\u00e9"),
])
def test_a_nickname_is_kept_in_its_usual_letters(server, typed, kept):
    """Full-width letters, accents typed as marks, spaces in a row: kept as the usual letters, one student."""
    browser = Browser(server.url)
    status, _headers, _body = browser.request("class/nickname", {"_xsrf": browser.xsrf(), "nickname": typed})
    assert status == 303 and urllib.parse.unquote(browser.cookie(NICKNAME_COOKIE)) == kept


def test_the_nickname_form_needs_the_xsrf_token(server):
    browser = Browser(server.url)
    status, _headers, _body = browser.request("class/nickname", {"nickname": "Ana"})
    assert status == 403 and browser.cookie(NICKNAME_COOKIE) is None


def test_a_made_up_cookie_is_no_nickname(server):
    """A browser can send any cookie: one that is no valid nickname records nothing."""
    browser = Browser(server.url)
    browser.xsrf()
    from http.cookiejar import Cookie

    host = urllib.parse.urlparse(server.url).hostname
    browser.jar.set_cookie(Cookie(0, NICKNAME_COOKIE, urllib.parse.quote("<b>x</b>"), None, False, host, False,
                                  False, "/", True, False, None, False, None, None, {}))
    page = landing(browser, "en")
    assert "Your nickname:" not in page
    store = store_of(server)
    assert "<b>x</b>" not in [s.nickname for s in store.board().students]
    store.close()


# ------------------------------------------------------------------------------ kernels record for the page
def test_a_page_with_a_nickname_records_and_one_without_does_not(server):
    store = store_of(server)
    store.start_new_class("kernels")
    with_name, without = Browser(server.url), Browser(server.url)
    with_name.request("class/nickname", {"_xsrf": with_name.xsrf(), "nickname": "Kernel Kim", "lang": "es"})
    landing(with_name, "es")
    landing(without, "en")
    deadline = time.monotonic() + 20
    while not store.board().students and time.monotonic() < deadline:
        time.sleep(0.3)
    students = store.board().students
    assert [s.nickname for s in students] == ["Kernel Kim"]
    assert students[0].lessons == ["index"]
    store.close()


@pytest.mark.server  # a server of its own
def test_without_class_db_the_server_and_its_kernels_use_the_records_default(tmp_path, monkeypatch):
    """No ``--class-db``: the records' own choice (here ``ESCOBA_TUTOR_CLASS_DB``), for the server and its kernels."""
    database = tmp_path / "default.sqlite3"
    monkeypatch.setenv("ESCOBA_TUTOR_CLASS_DB", str(database))
    server = TutorServer(tmp_path / "server.log")
    try:
        server.wait()
        deadline = time.monotonic() + 30
        while "key=" not in server.log.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        KEYS[server.url] = re.search(r"class/board\?key=([A-Za-z0-9_-]+)", server.log.read_text()).group(1)
        browser = Browser(server.url)
        browser.request("class/nickname", {"_xsrf": browser.xsrf(), "nickname": "Dora", "lang": "es"})
        landing(browser, "es")
        store = ClassStore.open(database)
        deadline = time.monotonic() + 20
        while not store.board().students and time.monotonic() < deadline:
            time.sleep(0.3)
        assert [s.nickname for s in store.board().students] == ["Dora"]
        store.close()
    finally:
        server.stop()


@pytest.mark.server  # a server of its own
def test_under_a_url_prefix_the_cookie_and_the_board_stay_under_it(tmp_path):
    """A JupyterHub serves each student's server under ``/user/NAME/``: the cookie's path is that prefix."""
    server = TutorServer(tmp_path / "server.log", "--base-url", "/hub/user/ana/", "--class-db",
                         str(tmp_path / "class.sqlite3"))
    try:
        server.wait()
        deadline = time.monotonic() + 30
        while "key=" not in server.log.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        link = re.search(r"(http://\S+)/class/board\?key=([A-Za-z0-9_-]+)", server.log.read_text())
        assert link.group(1) + "/" == server.url  # the teacher's link is under the prefix
        KEYS[server.url] = link.group(2)
        browser = Browser(server.url)
        status, headers, _body = browser.request("class/nickname", {"_xsrf": browser.xsrf(), "nickname": "Ana"})
        assert status == 303 and headers["Location"] == "/hub/user/ana/voila/render/es/index.ipynb"
        assert "Path=/hub/user/ana/" in headers["Set-Cookie"]
        assert "action=\"/hub/user/ana/class/nickname\"" in landing(browser, "es")
    finally:
        server.stop()


# ------------------------------------------------------------------------------------------ the board
def test_the_board_shows_the_class_and_its_numbers(server):
    store = store_of(server)
    info = store.start_new_class("numbers")
    for correct, mistake, seed in ((True, None, 3), (False, "figure_face_value", 4), (False, "figure_face_value", 5)):
        assert store.record(DrillAnswer("Ana", kind="captures", seed=seed, correct=correct, mistake=mistake))
    store.record(DrillAnswer("Bea", kind="captures", seed=4, correct=False, mistake="figure_face_value"))
    store.close()
    browser = Browser(server.url)
    status, headers, page = browser.request(f"class/board?key={server.key}&lang=es")
    assert status == 200 and "Panel de la clase: numbers" in page
    assert headers["Referrer-Policy"] == "no-referrer"
    assert "Contar una figura por su número (la sota como 10 y no como 8)" in page
    assert "2 estudiantes" in page and "3 veces" in page
    assert f'href="/voila/render/es/{kind_page("captures")}.ipynb?seed=4"' in page
    ana = re.search(r'<tr data-name-rank="0"[^>]*>(.*?)</tr>', page, re.S).group(1)
    assert re.search(r'<a class="nick" href="[^"]*nickname=Ana[^"]*">Ana</a>', ana)
    cells = re.findall(r'<td class="number cell band-low[^"]*"><span class="share-text">([^<]*)</span> '
                       r'<span class="answered">(\d+)</span>', ana)
    assert cells == [("33\xa0%", "3"), ("33\xa0%", "3")]  # all exercises, then captures: 1 right of 3
    status, headers, data = browser.request(f"class/board.json?key={server.key}&lang=en&class={info.id}")
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    live = json.loads(data)
    assert live["class"] == info.id and "Counting a face card at its printed number" in live["html"]
    assert "<html" not in live["html"]


def test_the_board_s_refresh_is_a_304_until_its_class_changes(server):
    """board.json carries an ETag of what it was drawn from; sent back, it is answered 304 with no body while
    nothing changed, and a new board (200, a new ETag) as soon as anything the page shows did: a new record
    (written by another program: the count and largest id of the class's records say so), a class renamed, another
    class made current (the banner of a past class), a student's records deleted, the class forgotten, a student
    no longer active now. The page itself starts with the ETag of what it shows."""
    store = store_of(server)
    info = store.start_new_class("etag 3A")
    assert store.record(DrillAnswer("Ana", kind="captures", seed=3, correct=True, mistake=None))
    browser = Browser(server.url)
    path = f"class/board.json?key={server.key}&lang=en&class={info.id}"

    def refresh(etag: str | None, expected: int) -> tuple[str, dict | None]:
        status, headers, body = browser.request(path, headers={"If-None-Match": etag} if etag else None)
        assert status == expected, (status, body[:200])
        assert headers["Cache-Control"] == "no-store" and headers["ETag"]
        if status == 304:
            assert body == "" and headers["ETag"] == etag
            return etag, None
        assert headers["ETag"] != etag
        return headers["ETag"], json.loads(body)

    status, _headers, page = browser.request(f"class/board?key={server.key}&lang=en&class={info.id}")
    etag = re.search(r'data-etag="([^"]*)"', page).group(1).replace("&#34;", '"')
    assert refresh(etag, 304)[0] == etag  # the page's first refresh: nothing changed since it was drawn
    etag, data = refresh(None, 200)
    assert data["class"] == info.id and ">Ana</a>" in data["html"] and "Bea" not in data["html"]
    assert data["parts"]["class-banner"].strip() == ""  # the current class: no banner
    assert "<option>Ana</option>" in data["parts"]["remove-student"]
    assert refresh(etag, 304)[0] == etag
    assert refresh(etag, 304)[0] == etag

    assert store.record(DrillAnswer("Bea", kind="captures", seed=4, correct=False, mistake="missed_15"))
    etag, data = refresh(etag, 200)
    assert ">Bea</a>" in data["html"] and "<option>Ana</option><option>Bea</option>" in data["parts"]["remove-student"]
    assert refresh(etag, 304)[0] == etag

    store.rename_class(info.id, "etag 3B")
    etag, data = refresh(etag, 200)
    assert f'<option value="{info.id}" selected>etag 3B (current)</option>' in data["parts"]["class-picker"]
    newer = store.start_new_class("etag 4A")
    etag, data = refresh(etag, 200)
    assert "This is not the current class: what students do now is saved in “etag 4A”." in html.unescape(
        data["parts"]["class-banner"])
    assert 'name="_xsrf" value="2|' in data["parts"]["class-banner"]  # its form can be sent
    assert f'<option value="{newer.id}">etag 4A (current)</option>' in data["parts"]["class-picker"]
    store.make_current(info.id)
    etag, data = refresh(etag, 200)
    assert data["parts"]["class-banner"].strip() == ""

    store.remove_student(info.id, "Bea")
    etag, data = refresh(etag, 200)
    assert ">Ana</a>" in data["html"] and "Bea" not in data["html"] + data["parts"]["remove-student"]

    # «active now» ends five minutes after a student's last record, with no new record at all
    almost = datetime.now(timezone.utc) - timedelta(minutes=5) + timedelta(seconds=3)
    assert store.record(LessonOpened("Cai", "01-cards", "en", at=almost))
    etag, data = refresh(etag, 200)
    cai = re.search(r'<tr [^>]*data-key="Cai"[^>]*>', data["html"]).group(0)
    assert 'class="active"' in cai
    time.sleep(max(0.0, (almost + timedelta(minutes=5, seconds=0.5) - datetime.now(timezone.utc)).total_seconds()))
    etag, data = refresh(etag, 200)
    assert 'class="active"' not in re.search(r'<tr [^>]*data-key="Cai"[^>]*>', data["html"]).group(0)

    store.forget_class(info.id)  # the class forgotten: the current class's board
    etag, data = refresh(etag, 200)
    assert data["class"] == store.current_class().id != info.id
    store.close()


def test_a_student_s_page_shows_their_answers_and_mistakes_and_needs_the_key(server):
    store = store_of(server)
    info = store.start_new_class("one student")
    assert store.record(LessonOpened("Bea", "02-captures", "es"))
    assert store.record(DrillAnswer("Bea", kind="captures", seed=4, correct=False, mistake="figure_face_value",
                                    lesson="02-captures", rules="escoba"))
    assert store.record(DrillAnswer("bea", kind="captures", seed=5, correct=True, mistake=None,
                                    lesson="02-captures"))
    assert store.record(DrillAnswer("Ana", kind="setenta", seed=1, correct=True, mistake=None))
    store.close()
    browser = Browser(server.url)
    address = f"class/student?class={info.id}&nickname=BEA"
    for key in ("", "&key=wrong"):
        status, _headers, body = browser.request(f"{address}{key}")
        assert status == 403 and "Bea" not in body and "Bazas" not in body
    status, headers, page = browser.request(f"{address}&key={server.key}&lang=es")
    assert status == 200 and headers["Cache-Control"] == "no-store"
    text = html.unescape(page)
    # as the latest record spells it
    assert '<span class="nick">bea</span><span class="alias">Estudiante 1</span>' in page
    assert "2. Bazas de 15" in text and "abrió 2. Bazas de 15" in text
    assert "Contar una figura por su número (la sota como 10 y no como 8)" in text
    assert 'href="/voila/render/es/02-captures.ipynb?seed=4"' in page
    assert re.search(r'<td class="number">2</td><td class="number cell band-mid"><span class="share-text">50\xa0%',
                     page)
    assert "Setenta" not in text  # Ana's answer is not Bea's
    form = re.search(r'<form method="post" action="/class/remove-student">(.*?)</form>', page, re.S).group(1)
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form))
    assert fields == {"_xsrf": fields["_xsrf"], "key": server.key, "lang": "es", "class": str(info.id),
                      "nickname": "bea"} and fields["_xsrf"]
    assert re.findall(r'<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ">\d{4}-\d\d-\d\d \d\d:\d\d UTC</time>',
                      page)
    # a nickname the class does not have: a clear page, not a traceback, its words escaped
    for asked, lang, said in (("Zoe", "es", "no hay nada guardado con el apodo «Zoe»"),
                              ("<b>x</b>", "en", "no record of the nickname “<b>x</b>”"), ("", "en", "“…”")):
        status, _headers, body = browser.request(
            f"class/student?key={server.key}&lang={lang}&class={info.id}&nickname={urllib.parse.quote(asked)}")
        assert status == 404 and said in html.unescape(body) and "Traceback" not in body
        assert "<b>x</b>" not in body
        assert f'class/board?key={server.key}' in html.unescape(body)  # the way back


def test_a_mistake_s_exercises_open_where_they_were_answered(server):
    """A captures mistake in the Scopa lesson opens that lesson, under Scopa, at that seed; the same seed in lesson
    2 opens lesson 2; a record that names no page (made before schema version 2) opens the kind's lesson."""
    store = store_of(server)
    store.start_new_class("where")
    for nickname, lesson, rules, seed in (("Ana", "07-variants", "scopa", 4), ("Bea", "02-captures", "escoba", 4),
                                          ("Cai", None, None, 9)):
        assert store.record(DrillAnswer(nickname, kind="captures", seed=seed, correct=False, mistake="missed_capture",
                                        lesson=lesson, rules=rules))
    store.close()
    for lang, words in (("en", ["Exercise 9", "Exercise 4 (lesson 2)", "Exercise 4 (lesson 7, “scopa” rules)"]),
                        ("es", ["Ejercicio 9", "Ejercicio 4 (lección 2)", "Ejercicio 4 (lección 7, reglas «scopa»)"])):
        status, _headers, page = Browser(server.url).request(f"class/board?key={server.key}&lang={lang}")
        assert status == 200
        links = re.findall(r'<a id="(mistake-captures-missed-capture-seed-[^"]*)" href="([^"]*)"[^>]*>([^<]*)</a>',
                           page)
        assert [html.unescape(text) for _id, _href, text in links] == words  # the most recent first
        assert [html.unescape(href) for _id, href, _text in links] == [
            f"/voila/render/{lang}/02-captures.ipynb?seed=9", f"/voila/render/{lang}/02-captures.ipynb?seed=4",
            f"/voila/render/{lang}/07-variants.ipynb?seed=4&rules=scopa"]
        assert len({link_id for link_id, _href, _text in links}) == 3  # the focus is kept through refreshes by id


def lesson_drill_rules(lesson: str, kind: str) -> str | None:
    """The rules a lesson's source gives its drill of ``kind`` (None: the server's)."""
    source = (ROOT / "lessons" / "source" / f"{lesson}.md").read_text(encoding="utf-8")
    found = re.search(rf'show_drill\("@lang@", "{kind}", seed=\d+(?:, rules="([^"]+)")?\)', source)
    assert found, (lesson, kind)
    return found.group(1)


@pytest.mark.parametrize(("lesson", "kind", "rules"), [
    ("07-variants", "captures", "scopa"),           # the Scopa lesson: its drill names Scopa
    ("02-captures", "captures", "scopa"),           # a server run with --rules scopa that day
    ("05-scoring", "setenta", "escoba+low_primera"),
    ("03-escoba", "escoba_de_mano", "escoba"),      # the server's own rules: nothing added to the link
    ("index", "captures", None),                    # a record that does not name the rules
])
def test_an_exercise_s_link_makes_that_very_exercise_again(lesson, kind, rules, monkeypatch):
    from escoba_tutor.exercises import make_drill
    from escoba_tutor.widgets.page import Page

    recorded = make_drill(kind, 4, rules or "escoba")
    link = exercise_link(Translator("es"), kind, Exercise(4, lesson, rules), "es", "/", "escoba")
    address, query = link["href"].split("?")
    assert address == f"/voila/render/es/{lesson}.ipynb"
    assert ("rules=" in query) == (rules not in (None, "escoba"))
    monkeypatch.setenv("ESCOBA_TUTOR_RULES", "escoba")  # the server's rules when the link is opened
    page = Page("es", query=query)
    again = make_drill(kind, page.seed(0), page.rules_or(lesson_drill_rules(lesson, kind)))
    assert page.problems == []
    assert again == recorded


def test_a_bad_rules_name_in_the_address_is_said_and_not_used(monkeypatch):
    from escoba_tutor.widgets.page import Page

    monkeypatch.setenv("ESCOBA_TUTOR_RULES", "scopa")
    page = Page("es", query="seed=4&rules=poker")
    assert page.rules.name == "scopa"
    assert page.problems == [("rules", "bad_address_rules", {"value": "poker"})]
    assert "No se conocen las reglas «poker» que indica la dirección" in page.notice().value


def test_the_csv_export_is_a_spreadsheet_file(server):
    store = store_of(server)
    info = store.start_new_class("csv")
    assert store.record(DrillAnswer("-Cmd", kind="captures", seed=1, correct=True, mistake=None))
    store.close()
    status, headers, body = Browser(server.url).request(
        f"class/board.csv?key={server.key}&class={info.id}&format=codes")  # the machine-readable file
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    assert "attachment" in headers["Content-Disposition"] and ".csv" in headers["Content-Disposition"]
    assert body.startswith("\ufeffclass,") and not body.startswith("\ufeff\ufeff")
    lines = body[1:].splitlines()
    assert len(lines) == 2 and "'-Cmd" in lines[1]


def test_a_new_class_keeps_the_old_one_and_forgetting_asks_first(server):
    store = store_of(server)
    old = store.start_new_class("old one")
    store.record(DrillAnswer("Ana", kind="captures", seed=1, correct=True, mistake=None))
    browser = Browser(server.url)
    token = browser.xsrf()
    status, headers, _body = browser.request("class/new", {"_xsrf": token, "key": server.key, "lang": "en",
                                                           "confirm": "yes"})
    assert status == 303 and headers["Location"].startswith("/class/board?key=")
    classes = store.classes()
    assert classes[0].id != old.id and old.id in [c.id for c in classes]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d( \(\d+\))?", classes[0].name)
    status, _headers, page = browser.request(f"class/board?key={server.key}&class={old.id}&lang=en")
    assert "Class board: old one" in page and f'<option value="{old.id}" selected>old one</option>' in page
    status, _headers, page = browser.request("class/forget", {"_xsrf": token, "key": server.key,
                                                              "class": str(old.id), "lang": "en"})
    assert status == 200 and "Forget this class?" in page and "“old one”" in page
    assert old.id in [c.id for c in store.classes()]
    status, _headers, _page = browser.request("class/forget", {"_xsrf": token, "key": server.key,
                                                               "class": str(old.id), "confirm": "yes"})
    assert status == 303 and old.id not in [c.id for c in store.classes()]
    store.close()


def post(server, browser: Browser, action: str, **fields):
    """A board form sent as the page sends it (the key, the XSRF token); ``lang`` is English unless given."""
    return browser.request(action, {"_xsrf": browser.xsrf(), "key": server.key, "lang": "en", **fields})


def test_starting_a_new_class_asks_first_and_two_in_one_minute_get_two_names(server):
    store = store_of(server)
    now = store.start_new_class("3B today")
    browser = Browser(server.url)
    before = store.classes()
    assert browser.request(f"class/new?key={server.key}&confirm=yes")[0] in (403, 405)  # a link starts nothing
    status, _headers, page = post(server, browser, "class/new", lang="es")
    text = html.unescape(page)
    assert status == 200 and "¿Empezar una clase nueva?" in text
    assert "La clase «3B today» se conserva" in text and 'name="confirm" value="yes"' in page
    assert "Sí, empezar una clase nueva" in text and "No, volver al panel" in text
    status, _headers, page = post(server, browser, "class/new", confirm="no")
    assert status == 200 and "Start a new class?" in page
    assert store.classes() == before and store.current_class() == now  # nothing changed without confirm=yes
    for _ in range(2):
        assert post(server, browser, "class/new", confirm="yes")[0] == 303
    first, second = store.classes()[:2]
    assert first.current and not second.current and first.name != second.name
    for made in (first, second):  # the minute, numbered when a class already has it
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d( \(\d+\))?", made.name)
    assert first.name[:16] != second.name[:16] or first.name.endswith(")")
    store.close()


def test_a_past_class_says_so_and_can_be_made_current_again(server):
    store = store_of(server)
    old = store.start_new_class("Monday 2A")
    new = store.start_new_class("Tuesday 3B")
    browser = Browser(server.url)
    status, _headers, page = browser.request(f"class/board?key={server.key}&class={old.id}&lang=en")
    text = html.unescape(page)
    assert status == 200 and 'id="not-current"' in page
    assert "This is not the current class: what students do now is saved in “Tuesday 3B”." in text
    assert f'<option value="{new.id}">Tuesday 3B (current)</option>' in page
    status, _headers, page = browser.request(f"class/board?key={server.key}&lang=es")
    assert 'id="not-current"' not in page  # the current class's board: no banner
    status, _headers, page = post(server, browser, "class/make-current", **{"class": str(old.id)})
    text = html.unescape(page)
    assert status == 200 and "Make “Monday 2A” the current class?" in text
    assert "saved in “Monday 2A”, not in “Tuesday 3B”" in text
    assert store.current_class() == new
    status, _headers, page = post(server, browser, "class/make-current", lang="es", **{"class": str(old.id)})
    assert "¿Hacer de «Monday 2A» la clase en curso?" in html.unescape(page)
    status, headers, _page = post(server, browser, "class/make-current", confirm="yes", **{"class": str(old.id)})
    assert status == 303 and store.current_class() == old
    status, _headers, page = browser.request(f"class/board?key={server.key}&class={old.id}&lang=es")
    assert 'id="not-current"' not in page and f'<option value="{old.id}" selected>Monday 2A (en curso)</option>' \
        in page
    assert store.record(DrillAnswer("Ana", kind="captures", seed=1, correct=True, mistake=None))
    assert [s.nickname for s in store.board(old.id).students] == ["Ana"]
    status, _headers, page = post(server, browser, "class/make-current", confirm="yes", **{"class": "999999"})
    assert status == 404 and "This class is no longer there" in page and store.current_class() == old
    store.close()


def test_a_class_is_renamed_and_a_taken_name_refused_naming_it(server):
    store = store_of(server)
    store.start_new_class("Rename me")
    other = store.start_new_class("Taken 4C")
    browser = Browser(server.url)
    status, headers, _page = post(server, browser, "class/rename", name="  Taken 4D ", **{"class": str(other.id)})
    assert status == 303 and f"class={other.id}" in headers["Location"]
    assert store.classes()[0].name == "Taken 4D"
    before = store.classes()
    status, _headers, page = post(server, browser, "class/rename", name="rename ME", **{"class": str(other.id)})
    text = html.unescape(page)
    assert status == 400 and "There is already a class named “Rename me”: choose another name." in text
    assert "The class keeps its name." in text and 'value="rename ME"' in page  # the form again, as typed
    status, _headers, page = post(server, browser, "class/rename", lang="es", name="",
                                  **{"class": str(other.id)})
    assert status == 400 and "El nombre de una clase tiene de 1 a 80 caracteres" in html.unescape(page)
    status, _headers, page = post(server, browser, "class/rename", name="<b>x</b>\ty", **{"class": str(other.id)})
    assert status == 400 and "<b>x</b>" not in page
    assert store.classes() == before
    assert post(server, browser, "class/rename", name="Fine", **{"class": "999999"})[0] == 404
    assert post(server, browser, "class/rename", name="Fine", key="wrong", **{"class": str(other.id)})[0] == 403
    assert store.classes() == before
    store.close()


def test_one_student_s_records_are_removed_after_asking(server):
    store = store_of(server)
    info = store.start_new_class("Rude names")
    for seed in range(3):
        assert store.record(DrillAnswer("Rude Name", kind="captures", seed=seed, correct=False, mistake="missed_15"))
    assert store.record(DrillAnswer("Bea", kind="captures", seed=1, correct=True, mistake=None))
    browser = Browser(server.url)
    status, _headers, page = browser.request(f"class/board?key={server.key}&lang=en")
    assert re.search(r'<select id="remove-nickname" name="nickname">\s*<option>Bea</option><option>Rude Name</option>',
                     page)
    status, _headers, page = post(server, browser, "class/remove-student", nickname="rude name",
                                  **{"class": str(info.id)})
    text = html.unescape(page)
    assert status == 200 and "Delete the records of “Rude Name”?" in text
    assert "All 3 records of “Rude Name” in the class “Rude names” will be deleted for good" in text
    assert 'name="nickname" value="rude name"' in page and 'name="confirm" value="yes"' in page
    status, _headers, page = post(server, browser, "class/remove-student", lang="es", nickname="Rude Name",
                                  **{"class": str(info.id)})
    assert "Se borrarán para siempre los 3 registros de «Rude Name» en la clase «Rude names»" in html.unescape(page)
    assert [s.nickname for s in store.board(info.id).students] == ["Bea", "Rude Name"]  # asked only
    status, headers, _page = post(server, browser, "class/remove-student", nickname="Rude Name", confirm="yes",
                                  **{"class": str(info.id)})
    assert status == 303 and headers["Location"].startswith("/class/board?key=")
    assert f"class={info.id}" in headers["Location"]
    board = store.board(info.id)
    assert [s.nickname for s in board.students] == ["Bea"] and board.mistakes == []
    for nickname in ("Rude Name", "Nobody", "", "<script>"):
        status, _headers, page = post(server, browser, "class/remove-student", nickname=nickname, confirm="yes",
                                      **{"class": str(info.id)})
        assert status == 404 and "Nothing to delete" in page and "<script>" not in page
    status, _headers, page = post(server, browser, "class/remove-student", lang="es", nickname="Nadie",
                                  **{"class": str(info.id)})
    assert "En la clase «Rude names» no hay nada guardado con el apodo «Nadie»" in html.unescape(page)
    assert browser.request("class/remove-student", {"key": server.key, "class": str(info.id),
                                                    "nickname": "Bea", "confirm": "yes"})[0] == 403  # no _xsrf
    assert [s.nickname for s in store.board(info.id).students] == ["Bea"]
    status, _headers, page = post(server, browser, "class/remove-student", nickname="Bea", **{"class": "999999"})
    assert status == 404 and [s.nickname for s in store.board(info.id).students] == ["Bea"]
    store.close()


# ----------------------------------------------------------------------------------- a kernel's own records
GAME = """
import random, sys
from escoba_tutor.widgets.game_table import GameTable

table = GameTable(players=2, seed=5, delay=0, level="greedy")
session, rng = table.session, random.Random(1)
while session.phase != "game_over":
    if session.phase == "deal_over":
        session.next_deal()
    else:
        session.play(rng.choice(session.game.legal_moves()))
print(len(session.game.deals), session.game.winner)
"""


def test_a_game_against_the_computer_records_each_deal_and_the_game(tmp_path, records_endpoint):
    """A kernel as the server starts it (its nickname, the server's records endpoint and its token in its
    environment) plays a whole game."""
    database = tmp_path / "class.sqlite3"
    env = {**os.environ, **records_endpoint(database).kernel_env("Gus")}
    done = subprocess.run([sys.executable, "-c", GAME], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    deals, winner = (int(word) for word in done.stdout.split())
    store = ClassStore.open(database)
    board = store.board()
    out = io.StringIO()
    store.export_csv(out)
    store.close()
    assert board.games_by_level == {"greedy": (1, int(winner == 0), int(winner != 0))}
    assert [(s.nickname, s.games) for s in board.students] == [("Gus", {"greedy": (1, int(winner == 0))})]
    events = [line.split(",")[4] for line in out.getvalue().splitlines()[1:]]
    assert events.count("deal") == deals and events.count("game") == 1


def test_without_a_nickname_a_kernel_records_nothing(tmp_path, records_endpoint):
    server = records_endpoint(tmp_path / "class.sqlite3")
    env = {**os.environ, **server.kernel_env("Gus"), "ESCOBA_TUTOR_NICKNAME": ""}
    done = subprocess.run([sys.executable, "-c", GAME], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert server.store.board().students == []


# ------------------------------------------------------------------------------------- without a server
def _board(nickname: str) -> Board:
    now = datetime.now(timezone.utc)
    return Board(class_info=ClassInfo(1, "<i>class</i>", now),
                 students=[StudentRow(nickname, ["02-captures", "index", "play"], {"captures": (2, 1)},
                                      {"random": (1, 1)}, now)],
                 mistakes=[MistakeRow("captures", "wrong_sum", 1, 1, [7], [Exercise(7, "index", None)])],
                 games_by_level={"random": (1, 1, 0)})


def _live(view: dict, lang: str = "en") -> str:
    from escoba_tutor.server.class_board import _jinja

    return _jinja.get_template("class_board_live.html.j2").render(
        _=Translator(lang), v=view, lang=lang,
        address=lambda name, **query: f"/class/{name}?{urllib.parse.urlencode(query)}")


def test_a_nickname_and_a_class_name_show_as_text():
    """The store refuses such nicknames; the board escapes whatever it is given all the same."""
    view = board_view(_board("<script>alert(1)</script>"), [], "en", "/")
    page = _live(view)
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert re.search(r'<td class="lessons"><abbr title="start page">start page</abbr>, '
                     r'<abbr title="lesson 2">2</abbr>, <abbr title="game">game</abbr></td>', page)
    assert '<td class="games" title="easy: 1 (one won)">1 (one won)</td>' in page
    assert "nickname=%3Cscript%3Ealert%281%29%3C%2Fscript%3E" in page  # the student's page's link, escaped too


TITLES = {"01-cards": "1. The cards and their values", "02-captures": "2. Making 15"}


def _class_of(*students: StudentRow, lessons=None) -> Board:
    return Board(class_info=ClassInfo(1, "3B", datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)),
                 students=list(students), mistakes=[], games_by_level={}, lessons_progress=lessons or {})


def test_the_view_ranks_by_need_marks_who_is_active_and_gives_times_in_utc():
    from escoba_tutor.records import LessonRow

    now = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
    board = _class_of(
        StudentRow("Ana", ["01-cards"], {"captures": (10, 9)}, {}, now - timedelta(minutes=5), number=2),
        StudentRow("Bea", ["02-captures"], {"captures": (10, 2), "setenta": (4, 4)}, {}, now - timedelta(minutes=6),
                   number=1),
        StudentRow("Cai", [], {}, {}, now, number=3),
        StudentRow("Dan", ["index"], {"points": (10, 2)}, {}, now, number=4),
        lessons={"02-captures": LessonRow(1, 14, 6), "01-cards": LessonRow(2, 10, 9), "index": LessonRow(1, 0, 0)})
    view = board_view(board, [], "es", "/", titles=TITLES, now=now)
    by_need = sorted(view["students"], key=lambda s: s["need_rank"])
    # Dan 20 % (8 wrong), Bea 43 % (8 wrong), Ana 90 %; Cai has answered nothing: last
    assert [s["nickname"] for s in by_need] == ["Dan", "Bea", "Ana", "Cai"]
    assert [s["name_rank"] for s in view["students"]] == [0, 1, 2, 3]
    assert [s["active"] for s in view["students"]] == [True, False, True, True] and view["active"] == 3
    assert view["active_minutes"] == 5
    assert [s["label"] for s in view["students"]] == ["Estudiante 2", "Estudiante 1", "Estudiante 3", "Estudiante 4"]
    bea = view["students"][1]
    assert bea["last_seen"] == {"iso": "2026-12-01T09:54:00Z", "text": "2026-12-01 09:54 UTC"}
    assert bea["total"] == {"answered": 14, "right": 6, "share": "43\xa0%", "width": 43, "band": "low"}
    assert view["kinds"] == ["Bazas", "Setenta", "Puntos"]  # the course's order
    assert [(d["answered"], d["share"], d["band"]) for d in view["students"][1]["drills"]] == [
        (10, "20\xa0%", "low"), (4, "100\xa0%", "high"), (0, "", "low")]
    assert view["students"][3]["drills"][2]["band"] == "low" and view["students"][0]["drills"][0]["band"] == "high"
    assert view["students"][0]["lessons"] == [{"short": "1", "title": "1. The cards and their values"}]
    assert [(row["title"], row["students"], row["answered"]) for row in view["lessons"]] == [
        ("inicio", 1, 0), ("1. The cards and their values", 2, 10), ("2. Making 15", 1, 14)]
    assert view["lessons"][0]["cell"] is None and view["lessons"][2]["cell"]["share"] == "43\xa0%"
    assert view["started"] == {"iso": "2026-12-01T09:00:00Z", "text": "2026-12-01 09:00 UTC"}
    page = _live(view, "es")
    assert '<time datetime="2026-12-01T09:54:00Z">2026-12-01 09:54 UTC</time>' in page
    assert "Activos ahora: 3" in page and "últimos 5 minutos" in page
    assert 'data-name-rank="1" data-need-rank="1"' in page


def test_the_store_reads_arrival_order_progress_per_lesson_and_one_student(tmp_path):
    base = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
    with ClassStore.open(tmp_path / "class.sqlite3") as store:
        other = store.current_class()
        assert store.record(DrillAnswer("Ana", kind="captures", seed=1, correct=True, mistake=None, at=base))
        info = store.start_new_class("3B")
        events = [LessonOpened("Zoe", "02-captures", "es", at=base),
                  DrillAnswer("Zoe", kind="captures", seed=4, correct=False, mistake="missed_capture",
                              lesson="02-captures", at=base + timedelta(minutes=1)),
                  DrillAnswer("ana", kind="captures", seed=5, correct=True, mistake=None, lesson="02-captures",
                              at=base + timedelta(minutes=2)),
                  DrillAnswer("ANA", kind="setenta", seed=6, correct=True, mistake=None, lesson="05-scoring",
                              at=base + timedelta(minutes=3)),
                  LessonOpened("Bea", "05-scoring", "es", at=base + timedelta(minutes=4))]
        assert all(store.record(event) for event in events)
        board = store.board()
        assert [(s.nickname, s.number) for s in board.students] == [("ANA", 2), ("Bea", 3), ("Zoe", 1)]
        assert board.students[0].drills == {"captures": (1, 1), "setenta": (1, 1)}
        assert board.students[2].last_seen == base + timedelta(minutes=1)
        assert board.lessons_progress == {"02-captures": LessonRow(2, 2, 1), "05-scoring": LessonRow(2, 1, 1)}
        found = store.student("anA")
        assert found.nickname == "ANA" and found.total == 2 and found.number == 2 and found.class_info == info
        assert [(r.event, r.kind, r.seed, r.correct) for r in found.records] == [("drill", "setenta", 6, True),
                                                                                  ("drill", "captures", 5, True)]
        assert store.student("Ana", other.id).total == 1  # the other class's Ana is another record
        assert store.student("Nadie") is None and store.student("Bea").records[0].lesson == "05-scoring"


def test_the_lessons_titles_come_from_the_notebooks_served(tmp_path):
    from escoba_tutor.server.app import lessons_dir
    from escoba_tutor.server.board_export import lesson_titles

    for lang, title in (("es", "2. Bazas de 15"), ("en", "2. Making 15")):
        titles = lesson_titles(lessons_dir(), lang)
        assert titles["02-captures"] == title
        assert {f"0{n}" for n in range(1, 9)} <= {name[:2] for name in titles}
    (tmp_path / "es").mkdir()
    (tmp_path / "es" / "01-cards.ipynb").write_text(
        json.dumps({"cells": [{"cell_type": "markdown", "source": ["# Mi lección\n", "Texto"]}]}))
    (tmp_path / "es" / "02-broken.ipynb").write_text("{not json")
    assert lesson_titles(tmp_path, "es") == {"01-cards": "Mi lección"}  # a broken notebook keeps its number
    assert lesson_titles(None, "es") == {}


@pytest.mark.parametrize(("key", "said"), [
    ("K" * 43, "its link has changed because escoba-tutor was restarted"),
    ("", "the hub no longer lets this page read the class"),  # the hub's board service: no key to change
])
def test_a_refused_refresh_is_explained_as_this_server_refuses(key, said):
    """What an open board says when its refresh is refused (403): with the teacher's key, that the key changed at
    a restart; on the hub's board service (no key), that the hub no longer lets it in."""
    from escoba_tutor.server.class_board import _jinja

    view = {**board_view(_board("Ana"), [], "en", "/"), "script": ""}
    page = _jinja.get_template("class_board.html.j2").render(
        _=Translator("en"), v=view, lang="en", key=key, xsrf="x", base_url="/", refresh_ms=2500, other_lang="es",
        address=lambda name, **query: f"/class/{name}")
    restarted = html.unescape(re.search(r'data-restarted="([^"]*)"', page).group(1))
    assert said in restarted


def test_every_mistake_a_drill_records_has_words_in_both_languages():
    for name in kind_names():
        assert kind_page(name) and mistake_codes(name)[-1] == "unanswered"
    for lang in ("es", "en"):
        _ = Translator(lang)
        words = {mistake_words(_, name, code) for name in kind_names() for code in mistake_codes(name)}
        assert all(w and "_" not in w for w in words)
        assert len(words) == sum(len(mistake_codes(name)) - 1 for name in kind_names()) + 1  # each its own words


def test_drill_checks_become_one_outcome_each():
    from escoba_tutor.exercises import make_drill

    def outcome(name, result):
        return kind(name).outcome(result)

    drill = make_drill("captures", 2)
    assert outcome("captures", drill.check([sorted(c) for c in drill.answer])) == (True, None)
    if drill.answer:
        assert outcome("captures", drill.check([])) == (False, "missed_capture")
    setenta = make_drill("setenta", 3)
    blank = [{"state": "blank", "text": "", "check": None} for _pile in setenta.piles]
    assert outcome("setenta", blank) is None  # nothing answered: not an answer
    assert outcome("setenta", [{"state": "number", "check": None}]) == (False, "unanswered")
    assert outcome("game_end", "nothing") == (False, "unanswered")
    strategy = make_drill("strategy", 8)
    assert outcome("strategy", "unanswered") is None
    assert outcome("strategy", strategy.check(strategy.ranking[0].move)) == (True, None)
    assert outcome("strategy", strategy.check(strategy.ranking[-1].move)) == (False, "costly")


def _template_ids() -> set[str]:
    found = set()
    for template in (ROOT / "escoba_tutor" / "server" / "templates").glob("class_*.j2"):
        text = template.read_text(encoding="utf-8")
        found |= set(re.findall(r'''_\(\s*"((?:[^"\\]|\\.)*)"''', text))
        found |= set(re.findall(r"""_\(\s*'((?:[^'\\]|\\.)*)'""", text))
    return found


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_board_s_words_are_in_the_server_catalog(lang):
    server_dir = ROOT / "escoba_tutor" / "server"
    sources = ("class_board.py", "board_export.py", "nickname.py", "handlers.py", "hub_board.py", "class_exercise.py",
               "starting.py", "tables.py", "board_tables.py")
    used = {m for f in sources for m, _ in extract(server_dir / f)}
    used |= {m for m, _ in extract(ROOT / "escoba_tutor" / "records" / "table_client.py")}  # a table's refusals
    used |= {m for m, _ in extract(ROOT / "escoba_tutor" / "text" / "board_words.py")}
    used |= _template_ids()
    # handlers.py passes some texts on to be translated (notice_page's title, its link's words): every string
    # constant in it counts as used
    tree = ast.parse((server_dir / "handlers.py").read_text(encoding="utf-8"))
    titles = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "server.po").open("rb") as handle:
        catalog = {m.id: m for m in read_po(handle, locale=lang) if m.id}
    assert not used - set(catalog), sorted(map(str, used - set(catalog)))
    assert not set(catalog) - used - titles, sorted(map(str, set(catalog) - used - titles))
    for key, message in catalog.items():
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(forms) and not message.fuzzy, key
        wanted = set(re.findall(r"\{(\w*)\}", key if isinstance(key, str) else key[0]))
        for form in forms:  # (a label's form is asked for by its spec: «{side:The} gana…»)
            assert wanted - {"n"} <= set(re.findall(r"\{(\w*)(?::\w+)?\}", form)), (key, form)


def test_a_student_s_history_tells_a_table_game_from_one_against_the_computer(tmp_path):
    """A deal and a game at a table of classmates (level ``table``) are said as such on the student's page, not
    as «against the computer (against classmates)»."""

    with ClassStore.open(tmp_path / "class.sqlite3") as store:
        store.start_new_class("tables")
        at = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
        for event in (DealFinished("Bea", "table", 8, 3, 1, 1, 0, at=at),
                      GameFinished("Bea", "table", 8, 3, 1, True, at=at + timedelta(minutes=1)),
                      GameFinished("Bea", "greedy", 9, 21, 12, False, at=at + timedelta(minutes=2))):
            assert store.record(event)
        found = store.student("Bea")
    for lang, said in (("es", ["partida contra el ordenador (medio): perdida",
                               "partida contra compañeros de clase: ganada",
                               "mano contra compañeros de clase terminada"]),
                       ("en", ["game against the computer (medium): lost", "game against classmates: won",
                               "deal against classmates finished"])):
        assert [h["what"] for h in student_view(found, lang, "/")["history"]] == said
