"""The class's tables on the teacher's board (escoba_tutor/server/board_tables.py): the board's list of tables and
one table on the projector, through a real ``escoba-tutor`` server with real kernels' tokens; both with the
teacher's key only, both woken by a change of a table (a long poll on the server's TableBell), and the projector's
page never showing a card of any hand. And on a JupyterHub's layout: two servers on one PostgreSQL database,
where a play through one wakes a long poll on the other (the listener on ``escoba_tables``).

The records' picture of a table without hands is tested over random games in tests/test_tables.py; here its
drawing is too, in both languages.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import random
import re
import secrets
import socket
import threading
import time

import pytest
from own_loop import run_apart
from test_app_tables import students
from test_class_board import Browser, keyed_server
from test_tables import seated_table

from escoba_tutor.engine.cards import DECK
from escoba_tutor.records import ClassStore
from escoba_tutor.records.recorder import TOKEN_HEADER
from escoba_tutor.records.table_client import TableClient
from escoba_tutor.server.pages import jinja
from escoba_tutor.text.translator import Translator

NAMES = {lang: {card.code: Translator(lang).card_name(card) for card in DECK} for lang in ("es", "en")}


@pytest.fixture(scope="module")
def server(class_tutor_factory, tmp_path_factory):
    return keyed_server(class_tutor_factory, tmp_path_factory)


def teacher(server) -> Browser:
    return Browser(server.url)


def get_json(browser: Browser, path: str, timeout: float = 60) -> tuple[int, dict]:
    status, _headers, body = browser.request(path, timeout=timeout)
    return status, json.loads(body) if status == 200 else {}


def in_background(call, *args) -> tuple[threading.Thread, dict]:
    """``call(*args)`` in a thread of its own, started: the thread, and what it answers (``answer``) and when
    (``at``), once it has."""
    got: dict = {}

    def run() -> None:
        got["answer"] = call(*args)
        got["at"] = time.monotonic()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, got


def rows(markup: str) -> dict[str, str]:
    """The list's rows by their table's code, as text (tags dropped, spaces as one; the nicknames' hidden aliases
    left out)."""
    found = {}
    for code, row in re.findall(r'<tr data-key="([0-9A-Z]{5})".*?>(.*?)</tr>', markup, re.S):
        shown = re.sub(r'<span class="alias">[^<]*</span>', "", row)
        found[code] = " ".join(re.sub(r"<[^>]+>", "", shown).split())
    return found


def cell(markup: str, code: str, name: str) -> str:
    """One cell of a table's row in the list (its class ``name``), as text."""
    row = re.search(rf'<tr data-key="{code}".*?</tr>', markup, re.S).group(0)
    found = re.search(rf'<td class="[^"]*\b{name}\b[^"]*">(.*?)</td>', row, re.S).group(1)
    return " ".join(re.sub(r"<[^>]+>", "", re.sub(r'<span class="alias">[^<]*</span>', "", found)).split())


def hand_words(views: list[dict], lang: str) -> set[str]:
    """Each card of every hand, by its name in ``lang`` and its code."""
    codes = {code for view in views for code in view["hand"]}
    return {NAMES[lang][code] for code in codes} | codes


def assert_no_hand(markup: str, views: list[dict], lang: str = "es") -> None:
    text = " ".join(re.sub(r"<[^>]+>", " ", markup).split())
    shown = {word for word in hand_words(views, lang) if re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", text)}
    attributes = set(re.findall(r'="([^"]*)"', markup))
    shown |= {word for word in hand_words(views, lang) if any(word == value for value in attributes)}
    assert not shown, f"the projector shows cards of a hand: {shown}"


# --------------------------------------------------------------------------------------------- the board's list
def test_the_board_lists_the_class_s_tables_and_a_change_wakes_its_long_poll(server):
    board = teacher(server)
    key = server.key
    status, _headers, page = board.request(f"class/board?key={key}")
    assert status == 200 and 'id="game-tables"' in page
    source, stamp = re.search(r'id="game-tables" data-source="([^"]*)" data-stamp="([0-9a-f]+)"', page).groups()
    source = html.unescape(source)
    assert source.startswith(f"/class/tables.json?key={key}&")  # where the page's script asks

    ana, leo = students(server, "Ana", "Leo")
    opened: dict = {}

    def wait(after: str) -> None:
        opened["answer"] = get_json(board, f"{source.removeprefix('/')}&after={after}")
        opened["at"] = time.monotonic()

    waiting = threading.Thread(target=wait, args=(stamp,))
    waiting.start()
    time.sleep(0.5)
    assert not opened, "the list was answered with no table changed"
    began = time.monotonic()
    code = ana.open(2)["code"]
    waiting.join(30)
    status, said = opened["answer"]
    assert status == 200 and said["stamp"] != stamp and opened["at"] - began < 1.0
    row = rows(said["html"])[code]
    assert "Esperando jugadores" in row and "Bando 1: Ana" in row and "un sitio libre" in row
    assert "con pistas" in row  # the opener's choice, as the table's own page says it

    leo.join(code)
    status, said = get_json(board, f"class/tables.json?key={key}&after={said['stamp']}")
    row = rows(said["html"])[code]
    assert "En juego" in row and re.search(r"Bando 1: Ana contra Bando 2: Leo 0 – 0", row), row
    view = ana.view(code)
    mover = (ana, leo)[view["turn"]]
    assert cell(said["html"], code, "turn") == mover.nickname and cell(said["html"], code, "score") == "0 – 0"

    # a long poll with the stamp it has waits; the turn's play wakes it within a second
    opened.clear()
    waiting = threading.Thread(target=wait, args=(said["stamp"],))
    waiting.start()
    time.sleep(0.5)
    assert not opened
    began = time.monotonic()
    before = mover.view(code)
    mover.play(before, before["legal"][0])
    waiting.join(30)
    status, said = opened["answer"]
    assert status == 200 and opened["at"] - began < 1.0
    other = leo if mover is ana else ana
    assert cell(said["html"], code, "turn") == other.nickname

    # in English, a seat the computer plays shows its level
    eva = students(server, "Eva")[0]
    four = eva.open(4, hints=False)["code"]
    eva.give_to_computer(four, 1, "greedy")
    status, said = get_json(board, f"class/tables.json?key={key}&lang=en&after=")
    row = rows(said["html"])[four]
    assert "Waiting for players" in row and "Team 2: the computer (medium)" in row, row
    assert "Team 1: Eva, an empty seat" in row and "no hints" in row and "hints allowed" not in row


def test_the_teacher_s_pages_about_tables_need_the_key(server):
    ana, _leo = students(server, "Ana", "Leo")
    code = ana.tables()[0]["code"]
    stranger = Browser(server.url)
    for path in ("class/tables.json?after=", f"class/table?code={code}", f"class/table.json?code={code}&after=0"):
        for key in ("", "&key=" + secrets.token_urlsafe(24)):
            status, _headers, body = stranger.request(path + key, timeout=30)
            assert status == 403 and code not in body and "Ana" not in body, (path, status)
        # a student's kernel token is no key either
        status, _headers, body = stranger.request(path, headers={TOKEN_HEADER: ana.token}, timeout=30)
        assert status == 403 and "Ana" not in body


# ------------------------------------------------------------------------------------------------ the projector
def test_the_projected_table_follows_the_game_and_shows_no_hand(server):
    board = teacher(server)
    key = server.key
    ana, leo = students(server, "Ana", "Leo")
    code = ana.open(2)["code"]
    leo.join(code)
    status, _headers, page = board.request(f"class/table?key={key}&code={code.lower()}")
    assert status == 200 and f"Mesa {code}" in page
    source = html.unescape(re.search(r'id="table-top" data-source="([^"]*)"', page).group(1))
    assert source == f"/class/table.json?key={key}&lang=es&code={code}"  # where the page's script asks
    players = [ana, leo]
    views = [p.view(code) for p in players]
    assert_no_hand(page, views)
    for name in (NAMES["es"][c] for c in views[0]["table"]):
        assert name in page  # the cards on the table, in words
    version = views[0]["version"]
    rng = random.Random(4)
    for _turn in range(12):
        views = [p.view(code) for p in players]
        mover = players[views[0]["turn"]]
        waiting, answered = in_background(get_json, board, f"class/table.json?key={key}&code={code}&after={version}")
        time.sleep(0.2)
        assert not answered
        began = time.monotonic()
        mine = views[players.index(mover)]
        played = mover.play(mine, rng.choice(mine["legal"]))
        waiting.join(30)
        status, said = answered["answer"]
        assert status == 200 and said["version"] == played["version"] and answered["at"] - began < 1.0
        version = said["version"]
        after = [p.view(code) for p in players]
        assert_no_hand(said["html"], after)
        text = " ".join(re.sub(r"<[^>]+>", " ", said["html"]).split())
        assert "Última jugada:" in text and mover.nickname in text
        captured = after[0]["captured"]
        assert f"{captured[0]} carta" in text and f"{captured[1]} carta" in text
    status, _headers, english = board.request(f"class/table?key={key}&code={code}&lang=en")
    assert status == 200 and "On the table" in english and "Last play:" in english
    assert_no_hand(english, [p.view(code) for p in players], "en")

    status, _headers, missing = board.request(f"class/table?key={key}&code=ZZZZZ")
    assert status == 404 and "No hay ninguna mesa con este código" in missing


def test_the_projector_s_drawing_of_random_games_holds_no_hand(tmp_path):
    """Random games of two and four (some seats the computer's), played through the records' own calls: at every
    turn the projector's part, drawn in both languages, names no card of any hand (by name or by code)."""
    from escoba_tutor.server.board_tables import top_view

    template = jinja.get_template("class_table_top.html.j2")
    with ClassStore.open(tmp_path / "class.sqlite3") as store:
        for number, (players, computers) in enumerate([(2, ()), (4, (1,)), (4, (2, 3)), (2, (1,))]):
            rng = random.Random(number)
            code, tokens, humans = seated_table(store, players, "escoba+target=5", computers,
                                                rng.randrange(2**40))
            for _step in range(40):
                top = store.table_top(code)
                hands = [{"hand": [c.code for c in store.table_view(code, tokens[s]).game.hand]} for s in humans]
                hands += [{"hand": [c.code for c in hand]} for hand in _hands_of(store, code)]
                for lang in ("es", "en"):
                    markup = template.render(_=Translator(lang), v=top_view(Translator(lang), top), lang=lang)
                    assert_no_hand(markup, hands, lang)
                if top.table.state == "finished":
                    break
                view = store.table_view(code, tokens[top.table.turn])
                store.play_at_table(code, view.seat, tokens[view.seat], rng.choice(view.game.legal_moves),
                                    view.version)


def test_the_projector_names_the_figure_under_a_10_11_or_12(tmp_path):
    """Spanish cards print the sota, the caballo and the rey as 10, 11 and 12: on the projector the word under the
    number says which figure it is (a sota read as "10" would be counted as 10, not 8); a 1 to 7 has no word."""
    import re

    from escoba_tutor.server.board_tables import top_view

    template = jinja.get_template("class_table_top.html.j2")
    card = re.compile(r'<li class="card suit-(\w)" title="([^"]*)"><span class="rank">(\d+)</span>'
                      r'(?:<span class="figure">([^<]*)</span>)?<span class="suit">')
    figures = {"es": {10: "sota", 11: "caballo", 12: "rey"}, "en": {10: "jack", 11: "knight", 12: "king"}}
    seen: set[int] = set()
    with ClassStore.open(tmp_path / "class.sqlite3") as store:
        code, tokens, _humans = seated_table(store, 2, "escoba+target=5", (), 7)
        rng = random.Random(7)
        for _step in range(60):
            top = store.table_top(code)
            for lang in ("es", "en"):
                markup = template.render(_=Translator(lang), v=top_view(Translator(lang), top), lang=lang)
                drawn = card.findall(markup)
                assert len(drawn) == len(top.cards)
                for _suit, title, rank, figure in drawn:
                    assert figure == figures[lang].get(int(rank), ""), (title, rank, figure)
                    seen.add(int(rank))
            if top.table.state == "finished":
                break
            view = store.table_view(code, tokens[top.table.turn])
            store.play_at_table(code, view.seat, tokens[view.seat], rng.choice(view.game.legal_moves), view.version)
    assert seen >= {1, 10, 11, 12}  # the game showed figures and plain cards alike


def _hands_of(store: ClassStore, code: str):
    """Every hand at the table, from the game the database holds (the test's own check: no page gets it)."""
    from sqlalchemy import select

    from escoba_tutor.engine.game import Game
    from escoba_tutor.records.schema import game_tables

    with store.engine.connect() as connection:
        text = connection.execute(select(game_tables.c.game).where(game_tables.c.code == code)).scalar_one()
    return Game.from_json(text).hands


# ------------------------------------------------------------------------------------------ two servers on a hub
class HubServer:
    """One student's course server as on a JupyterHub, reduced to what tables need: the table handlers (and the
    teacher's, as the board service has them), over a PostgreSQL database shared with the other servers, with the
    server's one listener started on its own event loop (as app.py and hub_board.py make them)."""

    def __init__(self, url: str, key: str) -> None:
        from tornado.httpserver import HTTPServer
        from tornado.web import Application

        from escoba_tutor.server.board_tables import board_tables_handlers
        from escoba_tutor.server.class_exercise import listening_settings
        from escoba_tutor.server.limits import ClassRegister, Limits
        from escoba_tutor.server.tables import table_handlers, table_settings

        self.store = ClassStore.open(url)
        self.register = ClassRegister(Limits(max_kernels=99, record_rate=1e6, record_burst=1_000_000,
                                             address_record_rate=1e6, address_record_burst=1_000_000))
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        started = threading.Event()

        def serve() -> None:
            self.loop = asyncio.new_event_loop()
            asyncio.set_event_loop(self.loop)
            listening = listening_settings(self.store, tallies=False)
            self.listener = listening["escoba_listener"]
            listening.update(table_settings(self.store, self.listener))
            app = Application(table_handlers("/") + board_tables_handlers("/"), escoba_log=logging.getLogger("hub"),
                              escoba_class_store=self.store, escoba_register=self.register, escoba_teacher_key=key,
                              **listening)
            HTTPServer(app).listen(self.port, "127.0.0.1")
            started.set()
            self.loop.run_forever()

        threading.Thread(target=serve, daemon=True).start()
        assert started.wait(10)
        deadline = time.monotonic() + 15
        while not self.listener.connected.is_set():
            assert time.monotonic() < deadline, "the listener did not connect"
            time.sleep(0.05)

    def client(self, nickname: str) -> TableClient:
        from escoba_tutor.server.limits import Seat

        token = self.register.issue_record_token(nickname, f"browser {nickname}", "127.0.0.1")
        self.register.seats[f"k-{nickname}"] = Seat(f"browser {nickname}", "127.0.0.1")
        self.register.bind_record_token(token, f"k-{nickname}")
        return TableClient(f"http://127.0.0.1:{self.port}/class/record", token, "es")

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.listener.stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.store.close()


def test_on_a_hub_a_play_through_one_server_wakes_a_long_poll_on_another(postgres_server):
    url = postgres_server.create_database("board_tables_hub")
    key = secrets.token_urlsafe(24)
    first, second = HubServer(url, key), HubServer(url, key)
    try:
        ana, leo = first.client("Ana"), second.client("Leo")
        board = Browser(f"http://127.0.0.1:{second.port}/")  # the teacher's list, on the other server
        stamp = get_json(board, f"class/tables.json?key={key}&after=x")[1]["stamp"]
        listed: dict = {}
        watching = threading.Thread(target=lambda: listed.update(
            answer=get_json(board, f"class/tables.json?key={key}&after={stamp}"), at=time.monotonic()))
        watching.start()
        time.sleep(0.5)
        began = time.monotonic()
        code = ana.open(2)["code"]  # on the first server: the second hears of it from PostgreSQL
        watching.join(30)
        assert listed["at"] - began < 1.0 and code in rows(listed["answer"][1]["html"])

        view = leo.join(code)
        took = []
        for _turn in range(6):
            turn = view["turn"]
            player, other = (ana, leo) if turn == 0 else (leo, ana)
            mine = player.view(code)
            waiting, waited = in_background(other.wait, code, mine["version"])
            time.sleep(0.3)
            assert not waited, "the other server's long poll was answered with nothing changed"
            began = time.monotonic()
            view = player.play(mine, mine["legal"][0])
            waiting.join(30)
            assert waited["answer"]["version"] == view["version"]
            took.append(waited["at"] - began)
        print(f"\nplay on one server -> long poll answered on the other: "
              f"{', '.join(f'{t * 1000:.0f}' for t in took)} ms")
        assert max(took) < 1.0
        # the projector's long poll on the other server wakes too
        watched: dict = {}
        version = view["version"]
        projecting = threading.Thread(target=lambda: watched.update(
            answer=get_json(board, f"class/table.json?key={key}&code={code}&after={version}"), at=time.monotonic()))
        projecting.start()
        time.sleep(0.3)
        player = ana if view["turn"] == 0 else leo
        mine = player.view(code)
        began = time.monotonic()
        player.play(mine, mine["legal"][0])
        projecting.join(30)
        assert watched["answer"][0] == 200 and watched["at"] - began < 1.0
        assert watched["answer"][1]["version"] > version
    finally:
        first.close()
        second.close()


def test_a_lost_notification_wakes_every_waiter_to_read_again():
    """After the listener connects again (notifications may have been lost), every table's waiters and the
    teacher's list wake, and read again."""
    from escoba_tutor.server.tables import TableService

    async def run() -> None:
        service = TableService(None)
        one, two, every = service.bell.event("K7M2Q"), service.bell.event("ABCDE"), service.bell.any_event()
        service.notified("junk that is no code")
        await asyncio.sleep(0)
        assert not (one.is_set() or two.is_set() or every.is_set())
        service.notified("K7M2Q 4")
        await asyncio.sleep(0)
        assert one.is_set() and not two.is_set() and every.is_set()
        every = service.bell.any_event()
        service.notified(None)
        await asyncio.sleep(0)
        assert two.is_set() and every.is_set()

    run_apart(run())


def test_a_table_s_house_rules_are_named_on_the_board_and_the_projector(server):
    """The list and the projected table name a table's house rules as lesson 7 does, never by the engine's names;
    a table by the class's own rules names none."""
    board = teacher(server)
    key = server.key
    rut, = students(server, "Rut")
    plain = rut.open(2)["code"]
    rut.leave(plain)
    code = rut.open(2, "escoba+capture_optional")["code"]
    for lang, words in (("es", "baza no obligada"), ("en", "capture optional")):
        status, said = get_json(board, f"class/tables.json?key={key}&lang={lang}&after=")
        assert status == 200
        listed = rows(said["html"])
        assert words in listed[code] and "capture_optional" not in said["html"] and "escoba+" not in said["html"]
        assert words not in listed[plain]
        status, _headers, page = board.request(f"class/table?key={key}&lang={lang}&code={code}")
        assert status == 200 and f'<span class="rules">{words}</span>' in page and "capture_optional" not in page
