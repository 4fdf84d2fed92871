"""Tables where students play each other, through a real ``escoba-tutor`` server (escoba_tutor/server/tables.py)
and the kernel's own client (escoba_tutor/records/table_client.py), with the records tokens of real kernels: whole
deals of two and of four by the rules, turn discipline, the long poll, the computer's seats, a restart of the
server between plays, and bad input; every answer any student gets is searched for the cards of the other hands.
The records layer underneath has its own tests (tests/test_tables.py)."""

from __future__ import annotations

import http.client
import json
import random
import socket
import threading
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

import pytest
from escoba_test_helpers import brute_captures, voila_settings
from test_class_board import KEYS, landing
from test_records_server import kernel_env_of, student

from escoba_tutor.records.recorder import TOKEN_HEADER
from escoba_tutor.records.table_client import TableClient, TableRequestError

DECK_CODES = {f"{rank}{suit}" for rank in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12) for suit in "oceb"}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request, class_tutor_factory, tmp_path_factory):
    """One real server for the module, on a SQLite file, then on a database of a real PostgreSQL. Its kernels'
    pages never connect (the tests speak for the kernels): they are kept for the module's time."""
    database = None
    if request.param == "postgresql":
        database = request.getfixturevalue("postgres_server").create_database("tables_app")
    env = voila_settings(tmp_path_factory.mktemp("config"), connect_s=3600)
    server = class_tutor_factory(database=database, env=env) if database else class_tutor_factory(env=env)
    KEYS[server.url] = server.key
    server.students = {}
    return server


class Student:
    """A student whose lesson page is open: the kernel's records token, and the kernel's table client. Every
    answer the student gets is kept (``answers``), to be searched for other hands' cards."""

    def __init__(self, server, nickname: str) -> None:
        self.server, self.nickname = server, nickname
        self.connect()

    def connect(self) -> None:
        browser = student(self.server, self.nickname)
        landing(browser, "es")
        env = kernel_env_of(self.server, self.nickname)
        self.token, self.url = env["ESCOBA_TUTOR_RECORDS_TOKEN"], env["ESCOBA_TUTOR_RECORDS_URL"]
        self.client = TableClient(self.url, self.token, "es")
        self.answers: list[object] = []

    def __getattr__(self, name: str):
        call = getattr(self.__dict__["client"], name)

        def kept(*args, **kwargs):
            try:
                answer = call(*args, **kwargs)
            except TableRequestError as error:
                self.answers.append({"error": error.code, "message": error.message, **error.data})
                raise
            self.answers.append(answer)
            return answer
        return kept

    def raw(self, method: str, path: str, body: bytes | None = None, token: str | None = None):
        address = urllib.parse.urlsplit(self.url)
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
        try:
            headers = {TOKEN_HEADER: self.token if token is None else token, "Content-Type": "application/json"}
            connection.request(method, address.path.removesuffix("class/record") + "class/tables/" + path,
                               body=body, headers=headers)
            reply = connection.getresponse()
            said = reply.read().decode("utf-8", "replace")
        finally:
            connection.close()
        self.answers.append(said)
        return reply.status, json.loads(said)


def students(server, *names: str) -> list[Student]:
    for name in names:
        if name not in server.students:
            server.students[name] = Student(server, name)
    return [server.students[name] for name in names]


def cards_in(answer: object) -> set[str]:
    """Every card code anywhere in an answer (a whole string, or a part of a play's text ``3c+1o``)."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(key)
                walk(item)
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item)
        elif isinstance(value, str):
            text = value
            if text.startswith("{") or text.startswith("["):
                try:
                    walk(json.loads(text))
                    return
                except ValueError:
                    pass
            for part in text.replace("+", " ").replace(",", " ").replace('"', " ").split():
                if part in DECK_CODES:
                    found.add(part)
    walk(answer)
    return found


HANDS: dict[tuple[str, int], dict[str, set[str]]] = {}  # (table, version) -> each player's hand then


def note_hands(views: dict[str, dict]) -> None:
    """Each player's hand at one version of a table (``views``: nickname -> that player's view)."""
    first = next(iter(views.values()))
    HANDS[first["code"], first["version"]] = {name: set(view["hand"]) for name, view in views.items()}


def check_secrets(players: list[Student], code: str) -> None:
    """No answer any player got since the last check holds a card of another player's hand at that answer's
    version (a new deal deals the piles' cards again: an old answer is compared with the hands of its time)."""
    now = {p.nickname: p.client.view(code) for p in players}
    note_hands(now)
    current = next(iter(now.values()))["version"]
    for player in players:
        for answer in player.answers:
            view = answer.get("view", answer) if isinstance(answer, dict) else None
            if isinstance(view, dict) and view.get("code") not in (None, code):
                continue  # another table's: checked with that table
            version = view.get("version", current) if isinstance(view, dict) else current
            hands = HANDS.get((code, version), HANDS[code, current])
            others = set().union(*(hand for name, hand in hands.items() if name != player.nickname))
            told = answer
            if isinstance(view, dict):
                # the deal before, shown at the start of the next (its last play, and its plays for the review):
                # cards played in the open then, which the new deal may have dealt to a hand again now
                deal, last_play = view.get("deal"), view.get("last_play")
                told = {**view, "last_play": last_play if not last_play or last_play["deal"] == deal else None,
                        "history": [e for e in view.get("history") or () if e.get("deal") == deal]}
            leaked = cards_in(told) & others
            assert not leaked, f"{player.nickname} was told {leaked} of another hand: {answer}"
        player.answers.clear()


def legal_by_rules(hand: list[str], table: list[str]) -> set[str]:
    """Every play the rules allow (Escoba: a card that can capture must), by the tests' own brute force."""
    plays = set()
    for card in hand:
        captures = brute_captures(card, table)
        if captures:
            plays |= {"+".join([card, *sorted(capture, key=_order)]) for capture in captures}
        else:
            plays.add(card)
    return plays


def _order(code: str) -> int:
    from escoba_tutor.engine.cards import DECK

    return [c.code for c in DECK].index(code)


def play_turns(players: list[Student], code: str, turns: int, rng: random.Random) -> dict:
    """Whoever's turn it is plays a random legal play, ``turns`` times (or to the game's end); each play checked:
    only the seat to play is offered plays, and they are the rules' own; the cards are all accounted for."""
    by_seat = {}
    view = None
    for player in players:
        mine = player.view(code)
        by_seat[mine["seat"]] = player
    for _ in range(turns):
        views = {seat: p.view(code) for seat, p in by_seat.items()}
        note_hands({by_seat[seat].nickname: seen for seat, seen in views.items()})
        view = views[next(iter(views))]
        if view["state"] != "playing":
            break
        turn = view["turn"]
        for seat, seen in views.items():
            assert seen["version"] == view["version"] and seen["turn"] == turn
            assert seen["my_turn"] == (seat == turn) and bool(seen["legal"]) == (seat == turn)
            assert len(seen["hand"]) == seen["hand_sizes"][seat]
            shown = len(seen["table"]) + sum(seen["captured"]) + sum(seen["hand_sizes"]) + seen["deck_left"]
            assert shown == 40
        mine = views[turn]
        assert set(mine["legal"]) == legal_by_rules(mine["hand"], mine["table"])
        move = rng.choice(sorted(mine["legal"]))
        after = by_seat[turn].play(mine, move)
        assert after["version"] == mine["version"] + 1
        assert after["last_play"]["seat"] == turn and after["last_play"]["card"] == move.split("+")[0]
        if after["deal"] == mine["deal"]:  # (a new deal may deal the card again)
            assert move.split("+")[0] not in after["hand"]
    return view


# ----------------------------------------------------------------------------------------------- whole deals
def test_two_players_play_a_whole_deal_by_the_rules_and_never_see_the_other_hand(server):
    ana, leo = students(server, "Ana", "Leo")
    opened = ana.open(2)
    code = opened["code"]
    assert opened["state"] == "waiting" and opened["seat"] == 0 and len(code) == 5
    joined = leo.join(code.lower()[:2] + "-" + code.lower()[2:])  # typed with slips: forgiven
    assert joined["seat"] == 1 and joined["state"] == "playing" and joined["code"] == code
    rng = random.Random(5)
    deal = joined["deal"]
    last = None
    while True:
        last = play_turns([ana, leo], code, 6, rng)
        check_secrets([ana, leo], code)
        if last["deal"] != deal or last["state"] != "playing":
            break
    view = ana.view(code)
    summary = view["last_deal"]
    assert summary["deal"] == deal and len(summary["points"]) == 2
    assert {line["item"] for line in summary["lines"]} >= {"cards", "escobas"}
    assert view["totals"] == summary["totals"]
    # the list of the class's tables: public facts only
    listed = next(t for t in leo.tables() if t["code"] == code)
    assert [s["nickname"] for s in listed["seats"]] == ["Ana", "Leo"] and listed["seats"][1]["you"]
    assert "hand" not in json.dumps(listed)
    check_secrets([ana, leo], code)


def test_four_players_in_two_teams_share_their_captures(server):
    players = students(server, "Eva", "Noa", "Teo", "Uma")
    code = players[0].open(4)["code"]
    for player in players[1:]:
        player.join(code)
    view = players[0].view(code)
    assert view["state"] == "playing" and [s["side"] for s in view["seats"]] == [0, 1, 0, 1]
    play_turns(players, code, 16, random.Random(9))
    check_secrets(players, code)
    views = [p.view(code) for p in players]
    assert all(len(v["piles"]) == 2 and len(v["captured"]) == 2 for v in views)
    assert views[0]["piles"] == views[2]["piles"] == views[1]["piles"]  # the piles as everybody saw them taken
    assert sum(views[0]["hand_sizes"]) + len(views[0]["table"]) + sum(views[0]["captured"]) \
        + views[0]["deck_left"] == 40


# ----------------------------------------------------------------------------------------------- turn discipline
def two_at_a_table(server, first: str, second: str):
    a, b = students(server, first, second)
    code = a.open(2)["code"]
    b.join(code)
    views = {p.nickname: p.view(code) for p in (a, b)}
    on_turn = a if views[a.nickname]["my_turn"] else b
    waiting = b if on_turn is a else a
    return code, on_turn, waiting


def test_out_of_turn_stale_and_double_sent_plays(server):
    code, on_turn, waiting = two_at_a_table(server, "Ana", "Leo")
    mine, theirs = on_turn.view(code), waiting.view(code)
    assert theirs["legal"] == [] and mine["legal"]
    # a play from the seat whose turn it is not: refused, nothing changed
    with pytest.raises(TableRequestError) as refused:
        waiting.play(theirs, theirs["hand"][0])
    assert refused.value.code == "table_not_your_turn" and refused.value.status == 409
    assert refused.value.message == "No es tu turno."
    assert on_turn.view(code)["version"] == mine["version"]
    # a play against an older version: refused naming the current one
    stale = {**mine, "version": mine["version"] - 1}
    with pytest.raises(TableRequestError) as refused:
        on_turn.play(stale, mine["legal"][0])
    assert refused.value.code == "table_stale_version" and refused.value.data["version"] == mine["version"]
    # the same play sent twice (its answer lost): made once, the second answered as made
    first = on_turn.play(mine, mine["legal"][0])
    again = on_turn.client._call("POST", "play", {"code": code, "seat": mine["seat"], "version": mine["version"],
                                                  "move": mine["legal"][0]})
    assert again["repeated"] and again["view"]["version"] == first["version"] == mine["version"] + 1
    assert waiting.view(code)["version"] == mine["version"] + 1
    # another play against the version already played on: stale, not made
    other = next((m for m in mine["legal"] if m != mine["legal"][0]), None)
    if other is not None:
        with pytest.raises(TableRequestError) as refused:
            on_turn.play(mine, other)
        assert refused.value.code == "table_stale_version"
    assert waiting.view(code)["version"] == mine["version"] + 1
    check_secrets([on_turn, waiting], code)


def test_bad_input_gets_a_clear_error_and_changes_nothing(server):
    code, on_turn, waiting = two_at_a_table(server, "Leo", "Ana")
    mine = on_turn.view(code)
    version = mine["version"]

    def refused(call, *args, **kwargs) -> TableRequestError:
        with pytest.raises(TableRequestError) as caught:
            call(*args, **kwargs)
        assert on_turn.view(code)["version"] == version  # nothing changed
        return caught.value

    error = refused(on_turn.join, "ZZZZZ" if code != "ZZZZZ" else "YYYYY")
    assert (error.code, error.status) == ("table_not_found", 404) and "código" in error.message
    error = refused(on_turn.join, "not a code")
    assert error.code == "table_bad_code" and "K7M2Q" in error.message
    error = refused(on_turn.play, mine, "8o")  # no such card in the Spanish deck
    assert error.code == "table_illegal_play" and error.status == 400 and "8o" in error.message
    not_mine = next(c for c in sorted(DECK_CODES) if c not in mine["hand"] and c not in mine["table"])
    error = refused(on_turn.play, mine, not_mine)
    assert error.code == "table_illegal_play" and error.data["reason"] == "card_not_in_hand"
    capturing = [m for m in mine["legal"] if "+" in m]
    if capturing:  # a card that can capture laid down instead: refused, with the captures it could make
        card = capturing[0].split("+")[0]
        error = refused(on_turn.play, mine, card)
        assert error.data["reason"] == "must_capture" and error.data["legal_captures"]
        assert error.message.startswith("Esa jugada no está permitida")
    laid = next((m for m in mine["legal"] if "+" not in m), None)
    if laid is not None and mine["table"]:  # a capture that does not add up
        wrong = next((t for t in mine["table"] if f"{laid}+{t}" not in mine["legal"]), None)
        if wrong is not None:
            error = refused(on_turn.play, mine, card=laid, take=[wrong])
            assert error.code == "table_illegal_play" and error.data["reason"] in ("wrong_sum", "card_not_on_table")
    third = students(server, "Eva")[0]
    error = refused(third.join, code)
    assert (error.code, error.status) == ("table_full", 409)
    error = refused(on_turn.give_to_computer, code, waiting.view(code)["seat"], "medio")
    assert error.code == "table_seat_taken"  # a classmate still at the table keeps their seat
    error = refused(on_turn.open, 2, "scopa")  # another game than the server's: not a house rule
    assert error.code == "table_bad_settings" and "reglas" in error.message
    error = refused(on_turn.open, 3)
    assert error.code == "table_bad_settings"
    error = refused(on_turn.give_to_computer, code, 1, "genius")
    assert error.code in ("table_bad_level", "table_seat_taken")
    # raw requests: too long, not JSON, not an object, a made-up token
    status, said = on_turn.raw("POST", "play", b'{"code": "' + b"x" * 2000 + b'"}')
    assert status == 413 and said["error"] == "table_too_big"
    status, said = on_turn.raw("POST", "play", b"not json")
    assert status == 400 and said["error"] == "table_bad_request"
    status, said = on_turn.raw("POST", "play", b'["a list"]')
    assert status == 400 and said["error"] == "table_bad_request"
    status, said = on_turn.raw("POST", "play", json.dumps({"code": code, "seat": "0", "version": version,
                                                           "move": mine["legal"][0]}).encode())
    assert status == 400 and said["error"] == "table_bad_request"
    status, said = on_turn.raw("GET", f"view?code={code}", token="made-up-token-of-nobody")
    assert status == 403 and said["error"] == "table_forbidden"
    status, said = on_turn.raw("GET", f"wait?code={code}&after=-1")
    assert status == 400
    assert on_turn.view(code)["version"] == version
    check_secrets([on_turn, waiting], code)
    assert not cards_in(third.answers[-1])  # the refusal: no card
    third.answers.clear()


def test_no_endpoint_gives_another_seat_or_hand(server):
    code, on_turn, waiting = two_at_a_table(server, "Ana", "Leo")
    stranger = students(server, "Xia")[0]
    for call in (lambda: stranger.view(code), lambda: stranger.wait(code, 0, timeout=30)):
        with pytest.raises(TableRequestError) as refused:
            call()
        assert refused.value.code == "table_not_seated" and refused.value.status == 403
    mine = on_turn.view(code)
    theirs_seat = 1 - mine["seat"]
    for seat in (theirs_seat,):  # playing from the other's seat, with one's own token
        with pytest.raises(TableRequestError) as refused:
            on_turn.play({**mine, "seat": seat}, mine["legal"][0])
        assert refused.value.code in ("table_not_seated", "table_not_your_turn")
    stranger.tables()  # the class's list: seats and names, no cards
    check_secrets([on_turn, waiting], code)
    hands = set(on_turn.client.view(code)["hand"]) | set(waiting.client.view(code)["hand"])
    assert not cards_in(stranger.answers) & hands


# ----------------------------------------------------------------------------------------------- the long poll
def test_a_long_poll_wakes_within_a_second_of_the_other_player_s_play(server):
    code, on_turn, waiting = two_at_a_table(server, "Leo", "Ana")
    theirs = waiting.view(code)
    woken: dict = {}

    def wait() -> None:
        woken["view"] = waiting.client.wait(code, theirs["version"])
        woken["at"] = time.monotonic()

    thread = threading.Thread(target=wait)
    thread.start()
    time.sleep(0.8)
    assert "view" not in woken  # nothing changed: the long poll waits
    mine = on_turn.view(code)
    began = time.monotonic()
    on_turn.play(mine, mine["legal"][0])
    thread.join(30)
    assert woken["view"]["version"] == theirs["version"] + 1 and woken["view"]["my_turn"]
    assert woken["at"] - began < 1.0
    # the client's watch: every new view, in a thread of its own
    seen: list = []
    watched = waiting.client.watch(code, seen.append, after=woken["view"]["version"])
    try:
        theirs = woken["view"]
        after = waiting.play(theirs, theirs["legal"][0])
        deadline = time.monotonic() + 10
        while not seen and time.monotonic() < deadline:
            time.sleep(0.05)
        assert seen and seen[0]["version"] == after["version"] and seen[0]["last_play"]["seat"] == theirs["seat"]
    finally:
        watched.stop()
    # asked about a version already behind, it answers at once
    began = time.monotonic()
    assert waiting.client.wait(code, theirs["version"])["version"] > theirs["version"]
    assert time.monotonic() - began < 1.0
    check_secrets([on_turn, waiting], code)


# ----------------------------------------------------------------------------------------------- the computer
def test_a_seat_given_to_the_computer_plays_and_is_taken_back(server):
    ivo, = students(server, "Ana")
    opened = ivo.open(2)
    code = opened["code"]
    view = ivo.give_to_computer(code, 1, "medio")
    assert view["state"] == "playing" and view["seats"][1]["computer"] == "greedy"
    for _ in range(4):  # Ivo plays; the computer answers on the server, a moment later
        deadline = time.monotonic() + 20
        while not view["my_turn"] and time.monotonic() < deadline:
            view = ivo.client.wait(code, view["version"], timeout=30)
        assert view["my_turn"], view
        view = ivo.play(view, view["legal"][0])
        assert not view["my_turn"]  # the answer comes before the computer's play
        view = ivo.client.wait(code, view["version"], timeout=30)
        assert view["last_play"]["seat"] == 1
    with pytest.raises(TableRequestError) as refused:  # the computer's seat was nobody's: it may be taken
        ivo.take_back(code, 1)
    assert refused.value.code == "table_seat_taken"  # (but not by one who sits at the table already)
    newcomer, = students(server, "Xia")
    taken = newcomer.take_back(code, 1)
    assert taken["seat"] == 1 and taken["seats"][1]["computer"] is None and taken["seats"][1]["nickname"] == "Xia"
    check_secrets([ivo, newcomer], code)


def test_a_table_by_a_house_rule(server):
    ana, = students(server, "Ana")
    opened = ana.open(4, "escoba+figuras")
    assert opened["rules"] == "escoba+figuras" and opened["players"] == 4 and len(opened["seats"]) == 4
    assert next(t for t in ana.tables() if t["code"] == opened["code"])["rules"] == "escoba+figuras"
    check_secrets([ana], opened["code"])


def test_leaving_a_waiting_table_empties_the_seat(server):
    kai, lia = students(server, "Ana", "Leo")
    code = kai.open(4)["code"]
    lia.join(code)
    left = lia.leave(code)
    assert left["seats"][1]["empty"] and left["state"] == "waiting"
    with pytest.raises(TableRequestError) as refused:
        lia.view(code)
    assert refused.value.code == "table_not_seated"
    assert lia.join(code)["seat"] == 1  # back, in the first empty seat
    check_secrets([kai, lia], code)


# ----------------------------------------------------------------------------------------------- bounds
def test_one_student_s_long_polls_and_changes_are_bounded(server):
    xia, = students(server, "Xia")
    opened = xia.open(2)
    code, version = opened["code"], opened["version"]
    answers: list = []

    def wait() -> None:
        try:
            answers.append(xia.client.wait(code, version, timeout=60)["version"])
        except TableRequestError as error:
            answers.append(error.code)

    waiting = [threading.Thread(target=wait) for _ in range(8)]
    for thread in waiting:
        thread.start()
    time.sleep(1.5)
    with pytest.raises(TableRequestError) as refused:  # a ninth long poll of one student
        xia.client.wait(code, version)
    assert (refused.value.code, refused.value.status) == ("table_too_many", 429)
    leo, = students(server, "Leo")
    leo.join(code)  # a change: the eight waits answer
    for thread in waiting:
        thread.join(30)
    assert answers == [version + 1] * 8
    # a flood of changes (here, joins of a table that is not there), eight at a time: 100 at once, then 10 a second
    unknown = json.dumps({"code": "ZZZZZ" if code != "ZZZZZ" else "YYYYY"}).encode()
    began = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(lambda _: xia.raw("POST", "join", unknown)[1]["error"], range(300)))
    elapsed = time.monotonic() - began
    assert "table_too_many" in codes and set(codes) == {"table_not_found", "table_too_many"}
    assert codes.count("table_not_found") <= 100 + 10 * elapsed + 1
    with pytest.raises(TableRequestError) as refused:
        leo.join("ZZZZZ" if code != "ZZZZZ" else "YYYYY")
    assert refused.value.code == "table_not_found"
    check_secrets([xia, leo], code)


def test_the_client_says_when_the_server_cannot_be_reached_or_has_no_tables(server):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    with pytest.raises(TableRequestError) as refused:
        TableClient(f"http://127.0.0.1:{closed}/class/record", "token", "es").tables()
    assert refused.value.code == "table_unreachable" and refused.value.message.startswith("Ahora mismo no se puede")
    with pytest.raises(TableRequestError) as refused:  # a server without the tables: its page for no address
        TableClient(f"{server.url}elsewhere/class/record", "token", "en").tables()
    assert refused.value.code == "table_no_tables" and "no tables" in refused.value.message


# ----------------------------------------------------------------------------------------------- a restart
def test_a_table_survives_a_restart_of_the_server(server):
    code, on_turn, waiting = two_at_a_table(server, "Leo", "Ana")
    mine = on_turn.view(code)
    on_turn.play(mine, mine["legal"][0])
    before = {p.nickname: p.client.view(code) for p in (on_turn, waiting)}
    server.stop()
    server.start()
    server.key = server.read_teacher_key()  # a new start, a new key: the tests' browsers ask the board with it
    KEYS[server.url] = server.key
    for player in (on_turn, waiting):  # new kernels (new records tokens), the same students
        player.connect()
    after = {p.nickname: p.view(code) for p in (on_turn, waiting)}
    for name, view in after.items():
        assert view["hand"] == before[name]["hand"] and view["version"] == before[name]["version"]
        assert view["seat"] == before[name]["seat"]
    now = after[waiting.nickname]
    assert now["my_turn"]
    played = waiting.play(now, now["legal"][0])
    assert played["version"] == now["version"] + 1
    check_secrets([on_turn, waiting], code)
