"""The tables page's widget in the kernel (escoba_tutor/widgets/class_tables.py) against a real server's table
handlers, with the records tokens of real kernels (as tests/test_app_tables.py sets them up): two students open and
join by code, each sees their own hand and whose turn it is, plays reach the other page through the long poll, a
refusal is said in words and changes nothing, a reload finds the same seat, a seat goes to the computer and comes
back, and a whole game ends with its score sheet shown and the game recorded for the board. The widgets are driven
through what the page shows: their controls by label, the status line, the text on screen."""

from __future__ import annotations

import html
import json
import random
import re
import sqlite3
import threading
import time

import pytest
from escoba_test_helpers import (
    is_shown,
    labelled,
    only,
    parts,
    press,
    shown_labels,
    shown_parts,
    shown_text,
)
from test_app_tables import cards_in, students
from test_class_board import keyed_server

from escoba_tutor.engine.cards import parse_cards
from escoba_tutor.engine.moves import Move
from escoba_tutor.records.table_client import TableClient
from escoba_tutor.text.translator import Translator
from escoba_tutor.widgets import page as page_module
from escoba_tutor.widgets.capture_table import CaptureTable
from escoba_tutor.widgets.class_tables import ClassTables, deal_score, house_rule_choices, provisional_view
from escoba_tutor.widgets.score_sheet import ScoreSheet


@pytest.fixture(scope="module")
def server(class_tutor_factory, tmp_path_factory):
    """One real server, its games to 3 points (a whole game in a few deals), the computer playing at once."""
    return keyed_server(class_tutor_factory, tmp_path_factory, "--rules", "escoba+target=3")


@pytest.fixture(scope="module")
def long_server(class_tutor_factory, tmp_path_factory):
    """A real server by the usual rules (games to 21): a deal's end is followed by another deal."""
    server = keyed_server(class_tutor_factory, tmp_path_factory)
    server.rules = "escoba"
    return server


def page(server, nickname: str, lang: str = "en", **kwargs) -> ClassTables:
    student, = students(server, nickname)
    return ClassTables(lang, client=TableClient(student.url, student.token, lang),
                       server_rules=getattr(server, "rules", "escoba+target=3"), **kwargs)


def until(check, timeout: float = 15.0) -> None:  # a wait, not a speed target: CI's machine is shared
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the page did not change in time"
        time.sleep(0.02)


def press_play(table: ClassTables, label: str) -> None:
    """Press "Play" and wait for the server's answer (the page shows the play at once, and hears the server in a
    thread of its own)."""
    press(table, label)
    until(lambda: not table.model.sending)


def choose(table: ClassTables, move: str) -> None:
    """Choose a capture in the list (by its card and taken cards), as a click on its row does."""
    captures = only(table, CaptureTable)
    card, *taken = move.split("+")

    def row():  # (a view the long poll brought is drawn in its thread: the list may be a moment behind)
        return next((r for r in captures.model.rows if r["card"] == card and sorted(r["taken"]) == sorted(taken)),
                    None)

    until(lambda: row() is not None)
    captures.model.selected = row()["id"]


def test_the_choices_offer_the_server_s_rules_and_its_house_rules_by_name():
    choices = house_rule_choices("escoba")
    assert choices[0] == "escoba" and "escoba+figuras" in choices
    assert "escoba+chile" not in choices and "escoba+three_player_ties" not in choices  # three players or more
    assert not any("escoba_de_mano" in c for c in house_rule_choices("scopa"))  # Scopa has none


def test_without_a_nickname_the_page_says_what_tables_need():
    need_nickname = ClassTables("en", connect=True)  # no records address in this kernel's environment
    assert need_nickname.client is None and "need a nickname" in need_nickname.message
    assert not is_shown(need_nickname, need_nickname.lobby)


def test_on_the_static_site_the_page_says_tables_need_the_server(monkeypatch):
    monkeypatch.setattr(page_module, "in_browser", lambda: True)
    monkeypatch.setenv("QUERY_STRING", "table=K7M2Q")
    shown = page_module.show_tables("es")
    assert "necesitan el servidor del curso" in shown_text(shown)
    assert not any(isinstance(part, ClassTables) for part in parts(shown))


def test_two_students_open_join_by_code_and_see_each_other_s_plays(server):
    ana, leo = page(server, "Ana"), page(server, "Leo", lang="es")
    assert "No table is open in your class yet." in shown_text(ana)
    labelled(ana, "Players").value = 2
    press(ana, "Open a table")
    code = ana.model.code
    assert len(code) == 5 and ana.model.state == "waiting" and code in shown_text(ana)
    assert f"?table={code}" in shown_text(ana) and code in ana.message
    press(leo, "Volver a mirar")  # the class's list: Ana's table, waiting for a player
    assert (f"{code}</strong> · 2 jugadores, las reglas de la clase, con pistas: Ana, un sitio libre "
            "(esperando jugadores)") in shown_text(leo)
    assert labelled(leo, "Mesas abiertas").value == code
    # the code typed with the usual slips: lower case and a dash
    labelled(leo, "Código de la mesa").value = code.lower()[:2] + "-" + code.lower()[2:]
    press(leo, "Sentarme a esta mesa")
    assert leo.model.code == code and leo.model.seat == 1 and leo.model.state == "playing"
    until(lambda: ana.model.state == "playing")  # Ana's page heard of it through its long poll
    hands = {0: set(ana.model.view["hand"]), 1: set(leo.model.view["hand"])}
    assert len(hands[0]) == 3 and not hands[0] & hands[1]
    assert not set(ana.model.view["hand"]) & set(" ".join(shown_text(ana)).split())
    first = ana if ana.model.view["my_turn"] else leo
    second = leo if first is ana else ana
    assert first.message.endswith("Your turn." if first is ana else "Te toca.")
    # out of turn: refused in words, nothing changes
    version = second.model.version
    second_captures = only(second, CaptureTable)
    second_captures.model.selected = second_captures.model.rows[0]["id"]
    press_play(second, "Play" if second is ana else "Jugar")
    assert second.model.version == version
    assert second.message.startswith("It is not your turn." if second is ana else "No es tu turno.")
    # a few plays each way, each seen on the other page within a second
    rng = random.Random(3)
    for _ in range(4):
        mover = ana if ana.model.view["my_turn"] else leo
        other = leo if mover is ana else ana
        choose(mover, rng.choice(sorted(mover.model.view["legal"])))
        before = other.model.version
        started = time.monotonic()
        press_play(mover, "Play" if mover is ana else "Jugar")
        assert mover.model.version == before + 1
        until(lambda other=other, before=before: other.model.version == before + 1, timeout=1.0)
        assert time.monotonic() - started < 1.0
        assert other.model.view["last_play"] == mover.model.view["last_play"]
    # a stale view: the table re-read, and said so
    mover = ana if ana.model.view["my_turn"] else leo
    stale = dict(mover.model.view, version=mover.model.version - 1)
    mover.model.seated(stale)
    choose(mover, sorted(stale["legal"])[0])
    press_play(mover, "Play" if mover is ana else "Jugar")
    assert mover.model.version == stale["version"] + 1  # read again: the current version
    assert "changed meanwhile" in mover.message or "ha cambiado mientras tanto" in mover.message
    # a reload: a new page of Ana's sits in the same seat with the same hand
    again = page(server, "Ana")
    assert again.model.code == code and again.model.seat == 0 and again.model.view["hand"] == ana.model.view["hand"]
    for table in (ana, leo, again):
        table.close()


def test_a_bad_code_is_said_and_the_address_s_code_seats_the_student(server):
    eva, noa = page(server, "Eva"), page(server, "Noa")
    labelled(eva, "Table code").value = "ZZZZZ"
    press(eva, "Sit at this table")
    assert not eva.model.code and "no table with that code" in eva.message
    press(eva, "Open a table")
    code = eva.model.code
    noa.close()
    via_link = page(server, "Noa", table=code)  # the shared link: ?table=CODE
    assert via_link.model.code == code and via_link.model.seat == 1
    for table in (eva, via_link):
        table.close()


def test_a_table_is_chosen_from_the_class_s_list(server):
    rut = page(server, "Rut")
    press(rut, "Open a table")
    code = rut.model.code
    pia = page(server, "Pia")  # a new page reads the list: Rut's table is there, chosen
    choice = labelled(pia, "Open tables")
    assert code in [value for _label, value in choice.options] and is_shown(pia, choice)
    choice.value = code
    press(pia, "Sit at the chosen table")
    assert pia.model.code == code and pia.model.seat == 1 and pia.model.state == "playing"
    assert not is_shown(pia, pia.lobby)
    for table in (rut, pia):
        table.close()


def test_a_seat_goes_to_the_computer_and_comes_back(server):
    teo = page(server, "Teo")
    labelled(teo, "Players").value = 4
    press(teo, "Open a table")
    assert teo.model.view["players"] == 4
    for seat in (1, 2, 3):
        labelled(teo, "Seat").value = seat
        labelled(teo, "Computer").value = "random"
        press(teo, "Give this seat to the computer")
    assert teo.model.state == "playing"
    assert "Seat 2: the computer (easy)" in shown_text(teo)
    labelled(teo, "Seat").value = 3
    press(teo, "Take this seat back")  # Teo holds a seat of his own here: another one is refused, in words
    assert teo.model.view["seats"][3]["computer"] and teo.message.startswith("That seat is taken.")
    labelled(teo, "Seat").value = 0  # his own seat to the computer, and back
    press(teo, "Give this seat to the computer")
    assert teo.model.view["seats"][0]["computer"] == "random"
    press(teo, "Take this seat back")
    assert teo.model.view["seats"][0]["computer"] is None and "Seat 1: you" in shown_text(teo)
    press(teo, "Leave the table")
    assert not teo.model.code and is_shown(teo, teo.lobby) and "left the table" in teo.message
    teo.close()


def test_a_whole_game_ends_with_the_score_sheet_and_is_recorded(server):
    uma, ivo = page(server, "Uma"), page(server, "Ivo")
    press(uma, "Open a table")
    code = uma.model.code
    labelled(ivo, "Table code").value = code
    press(ivo, "Sit at this table")
    rng = random.Random(11)
    seen_sheet = False
    for _ in range(400):
        until(lambda: uma.model.version == ivo.model.version)
        if uma.model.view.get("game_over"):
            break
        mover = uma if uma.model.view["my_turn"] else ivo
        choose(mover, rng.choice(sorted(mover.model.view["legal"])))
        press_play(mover, "Play")
        if mover.model.view.get("last_deal"):
            seen_sheet = seen_sheet or any(isinstance(p, ScoreSheet) for p in mover.sheet_box.children)
    over = uma.model.view["game_over"]
    assert over and seen_sheet and uma.model.state == "finished"
    winner, loser = (uma, ivo) if over["winner"] == uma.model.view["side"] else (ivo, uma)
    for table in (uma, ivo):
        def final_sheet(table=table):  # (the last view may still be drawing in the long poll's thread)
            return next((p for p in table.sheet_box.children if isinstance(p, ScoreSheet)
                         and list(p.totals) == over["totals"]), None)

        until(lambda final_sheet=final_sheet: final_sheet() is not None)
        assert is_shown(table, final_sheet()) and table.model.view["game_over"] == over
        assert "The game is over." in table.message
    score = "–".join(map(str, over["totals"]))
    assert f"You win the game, {score}!" in shown_text(winner)
    assert f"{'Uma' if winner is uma else 'Ivo'} wins the game, {score}!" in shown_text(loser)
    # the game is on the board: a finished game recorded for each student under the level "table"
    with sqlite3.connect(server.database) as db:
        games = db.execute("SELECT nickname, outcome FROM records WHERE event = 'game' AND level = 'table' "
                           "AND nickname IN ('Uma', 'Ivo')").fetchall()
    won = "Uma" if winner is uma else "Ivo"  # (recorded in the play's own transaction)
    assert sorted(games) == sorted([(won, "won"), ("Uma" if won == "Ivo" else "Ivo", "lost")])
    for table in (uma, ivo):
        table.close()


def test_a_setenta_from_the_server_is_shown_on_the_sheet_as_the_engine_s():
    from escoba_tutor.engine.rules import rules_by_name
    from escoba_tutor.engine.scoring import score_deal
    from escoba_tutor.server.tables import _deal_summary

    class Scored:  # a finished deal's event, as the view's history holds it
        deal, totals = 0, (0, 1)
        score = score_deal(["7o 6c 1e 12b 5o", "7c 7e 7b 5c 4o 2e"], [0, 0], rules_by_name("escoba+low_primera"))

    summary = json.loads(json.dumps(_deal_summary(Scored)))  # as the kernel reads it
    assert not cards_in(summary["lines"])  # no card named: a new deal may have dealt it to another hand
    rebuilt = deal_score(summary)
    for lang in ("es", "en"):
        engine = ScoreSheet(score=Scored.score, names=["Ana", "Leo"], lang=lang)
        shown = ScoreSheet(score=rebuilt, names=["Ana", "Leo"], lang=lang)
        assert shown.model.rows(Translator(lang)) == engine.model.rows(Translator(lang))


def test_a_seat_left_on_its_turn_is_offered_to_the_computer_and_taken_back(server):
    ana, ben = page(server, "Abril"), page(server, "Bruno", lang="es")
    labelled(ana, "Players").value = 2
    press(ana, "Open a table")
    code = ana.model.code
    labelled(ben, "Código de la mesa").value = code
    press(ben, "Sentarme a esta mesa")
    until(lambda: ana.model.state == "playing")
    if ana.model.view["my_turn"]:  # Bruno leaves on his own turn
        choose(ana, sorted(ana.model.view["legal"])[0])
        press_play(ana, "Play")
        until(lambda: ben.model.view.get("my_turn"))
    press(ben, "Dejar la mesa")
    until(lambda: "has left the table" in ana.message)
    assert "Bruno has left the table. You can give their seat to the computer (seat 2, below)" in ana.message
    assert labelled(ana, "Seat").value == 1  # his seat is the one offered
    press(ana, "Give this seat to the computer")
    until(lambda: ana.model.view["my_turn"])  # the computer played Bruno's turn
    assert ana.model.view["seats"][1]["computer"] and ana.model.view["last_play"]["seat"] == 1
    back = page(server, "Bruno", lang="es", table=code)  # Bruno comes back: his seat, still the computer's
    labelled(back, "Sitio").value = 1
    press(back, "Recuperar este sitio")
    assert back.model.seat == 1 and back.model.view["seats"][1]["computer"] is None
    until(lambda: "has left" not in ana.message and not ana.model.view["seats"][1]["computer"])
    for table in (ana, ben, back):
        table.close()


def test_the_watch_passes_on_a_seat_that_became_left_without_a_new_version():
    """A seat counts as left by the clock: the long poll's answer after its longest wait, at the same version, is
    the only news of it, and the page must hear it."""
    from escoba_tutor.records.table_client import WatchedTable

    seats = [{"seat": 0, "left": False}, {"seat": 1, "left": False}]
    answers = [{"version": 4, "seats": seats}, {"version": 4, "seats": seats},
               {"version": 4, "seats": [seats[0], {"seat": 1, "left": True}]},
               {"version": 4, "seats": [seats[0], {"seat": 1, "left": True}]}]
    seen: list[dict] = []

    class Client:
        def wait(self, code, after):
            if not answers:
                watched.stop()
                return {"version": after, "seats": seen[-1]["seats"]}
            return answers.pop(0)

    watched = WatchedTable(Client(), "K7M2Q", seen.append, after=4)  # type: ignore[arg-type]
    watched._listen()
    assert [[s["left"] for s in view["seats"]] for view in seen] == [[False, False], [False, True]]


# ------------------------------------------------------------------------------------------ hints and reviews
def server_game(server, code: str):
    """The table's game as the class database holds it (the server's own, with every hand): what a page must never
    be sent, read here to check what the page works out from its own view."""
    from escoba_tutor.engine.game import Game
    from escoba_tutor.engine.save import load_json

    with sqlite3.connect(server.database) as db:
        text, = db.execute("SELECT game FROM game_tables WHERE code = ?", (code,)).fetchone()
    return load_json(text, Game)


def two_at_a_table(server, first: str, second: str, hints: bool | None = None):
    opener, joiner = page(server, first), page(server, second)
    if hints is not None:
        labelled(opener, "Hints").value = hints
    press(opener, "Open a table")
    labelled(joiner, "Table code").value = opener.model.code
    press(joiner, "Sit at this table")
    until(lambda: opener.model.state == "playing")
    return opener, joiner


def test_where_hints_are_allowed_the_player_on_turn_gets_the_expert_s_hint_from_their_own_view(server):
    from escoba_tutor.engine.game import DealStarted, EscobaDeMano, Play
    from escoba_tutor.players.expert import ExpertBot
    from escoba_tutor.players.hints import hints
    from escoba_tutor.widgets.hint_panel import HintPanel

    ana, leo = two_at_a_table(server, "Hana", "Hugo")  # hints are allowed unless the opener says no
    assert labelled(page(server, "Hilda"), "Hints").value is True
    code = ana.model.code
    for table in (ana, leo):
        assert "Hints are allowed at this table" in shown_text(table)
    rng = random.Random(5)
    for _ in range(3):  # a few plays first: the hint then reads the plays everybody saw (the piles, the last capture)
        mover = ana if ana.model.view["my_turn"] else leo
        choose(mover, rng.choice(sorted(mover.model.view["legal"])))
        press_play(mover, "Play")
        until(lambda: ana.model.version == leo.model.version)
    mover = ana if ana.model.view["my_turn"] else leo
    waiting = leo if mover is ana else ana
    assert is_shown(mover, labelled(mover, "Hint")) and not is_shown(waiting, labelled(waiting, "Hint"))
    labelled(mover, "Hint").value = True
    panel = only(mover, HintPanel)
    assert is_shown(mover, panel) and "What the expert would play" in shown_text(mover)
    # worked out from the seat's own view: the engine's view of that seat, field by field (its history: the deal's
    # public events), and the same ranking the expert gives the server's own view
    engine = server_game(server, code).view(mover.model.seat)
    rebuilt = panel.model.view
    for field in engine._fields:
        if field != "history":
            assert getattr(rebuilt, field) == getattr(engine, field), field
    assert rebuilt.history == tuple(e for e in engine.history if isinstance(e, (DealStarted, EscobaDeMano, Play))
                                    and e.deal == engine.deal)
    assert set(rebuilt.hand).isdisjoint(parse_cards(" ".join(waiting.model.view["hand"])))
    assert panel.model.hints == hints(engine, ExpertBot(seed=0))
    best = panel.model.hints[0].move.text
    assert best in mover.model.view["legal"]
    # a hint is for one decision: the play turns it off
    choose(mover, best)
    press_play(mover, "Play")
    assert labelled(mover, "Hint").value is False and not is_shown(mover, panel)
    for table in (ana, leo):
        table.close()


def test_where_hints_are_not_allowed_no_hint_is_shown_nor_given_to_a_forged_request(server):
    from escoba_tutor.widgets.hint_panel import HintPanel

    ana, leo = two_at_a_table(server, "Nora", "Nico", hints=False)
    code = ana.model.code
    for table in (ana, leo):
        assert "No hints at this table." in shown_text(table) and table.model.view["hints"] is False
    lobby = page(server, "Nadia")
    assert f"{code}</strong> · 2 players, the class&#39;s rules, no hints: Nora, Nico (playing)" in shown_text(lobby)
    mover = ana if ana.model.view["my_turn"] else leo
    hint = labelled(mover, "Hint")
    assert not is_shown(mover, hint)
    hint.value = True  # what a page without the button's script could send
    assert hint.value is False and not any(isinstance(p, HintPanel) for p in parts(mover))
    assert not is_shown(mover, mover.hint_box)
    for table in (ana, leo, lobby):
        table.close()


def test_a_finished_deal_is_reviewed_from_each_player_s_side_as_against_the_computer(server):
    from escoba_tutor.players.hints import costliest_move
    from escoba_tutor.widgets.game_table import DealReview, ExpertReview
    from escoba_tutor.widgets.hint_panel import move_words

    ana, leo = two_at_a_table(server, "Rosa", "Raúl")
    code = ana.model.code
    review = only(ana, DealReview)
    assert not is_shown(ana, labelled(ana, "Review the last deal"))  # no deal is over yet
    rng = random.Random(7)
    while not ana.model.view.get("last_deal"):
        until(lambda: ana.model.version == leo.model.version)
        mover = ana if ana.model.view["my_turn"] else leo
        choose(mover, rng.choice(sorted(mover.model.view["legal"])))
        press_play(mover, "Play")
    until(lambda: ana.model.version == leo.model.version)
    game = server_game(server, code)
    dealt = game.deals[0]
    for table in (ana, leo):
        # the deal replayed from the plays everybody saw is the server's deal, card for card
        assert table.deal_to_review() == dealt
        labelled(table, "Review the last deal").value = True
    assert review.text.startswith("<p>Play 1 of ")
    first = dealt.plays[0]
    said = ana.play_words(Translator("en"), first.player, first.move.card, first.move.captured, first.escoba)
    assert said in review.text and (said.startswith("You ") == (first.player == ana.model.seat))
    for _ in dealt.plays:
        press(ana, "Forward")
    assert "End of the deal:" in review.text
    # the expert's judgement of each player's own plays, as the game against the computer gives it
    press(leo, "What would the expert have played?")
    costly = costliest_move(game, leo.model.seat, deal=0)
    text = only(leo, ExpertReview).text
    if costly is None:
        assert "as good as the expert's" in text
    else:
        assert f"play {costly.play + 1}: " in text and move_words(Translator("en"), costly.best.move) in text
    for table in (ana, leo):
        table.close()


def sheet_shown(table: ClassTables) -> bool:
    return any(isinstance(part, ScoreSheet) for part in shown_parts(table))


def test_the_last_deal_s_sheet_stays_until_each_student_s_own_first_play_of_the_next(long_server):
    ana, leo = page(long_server, "Alba"), page(long_server, "Luis", lang="es")
    press(ana, "Open a table")
    code = ana.model.code
    labelled(leo, "Código de la mesa").value = code
    press(leo, "Sentarme a esta mesa")
    rng = random.Random(5)
    for _ in range(60):  # the first deal, played out (36 plays)
        until(lambda: ana.model.version == leo.model.version)
        if ana.model.view.get("last_deal"):
            break
        assert not sheet_shown(ana) and not sheet_shown(leo)  # no deal has ended yet
        mover = ana if ana.model.view["my_turn"] else leo
        choose(mover, rng.choice(sorted(mover.model.view["legal"])))
        press_play(mover, "Play" if mover is ana else "Jugar")
    view = ana.model.view
    assert view["last_deal"]["deal"] == 0 and view["deal"] == 1 and not view["game_over"]
    # the next deal is on the board, and the last one's sheet under it, for both students
    assert len(ana.model.view["hand"]) == 3 and len(leo.model.view["hand"]) == 3
    for table, words in ((ana, ("End of deal 1", "Hide the score sheet")),
                         (leo, ("Fin de la mano 1", "Ocultar la hoja de puntos"))):
        until(lambda table=table: sheet_shown(table))
        assert words[0] in shown_text(table) and words[1] in shown_labels(table)
    first = ana if ana.model.view["my_turn"] else leo
    second = leo if first is ana else ana
    first_name, second_name = ("Alba", "Luis") if first is ana else ("Luis", "Alba")
    # the first play of the new deal puts away the sheet of whoever made it, not the classmate's
    choose(first, sorted(first.model.view["legal"])[0])
    press_play(first, "Play" if first is ana else "Jugar")
    assert not sheet_shown(first) and first.model.view["played_in_deal"]
    until(lambda: second.model.version == first.model.version)
    assert sheet_shown(second) and not second.model.view["played_in_deal"]
    # a reload shows each student the sheet as it was: the server says who has played in this deal
    again_first, again_second = page(long_server, first_name, table=code), page(long_server, second_name, table=code)
    assert not sheet_shown(again_first) and sheet_shown(again_second)
    # «Hide» puts it away on that page only; the student's own first play puts it away everywhere
    press(again_second, "Hide the score sheet")
    assert not sheet_shown(again_second) and sheet_shown(second)
    assert "End of deal 1" not in shown_text(again_second)
    choose(second, sorted(second.model.view["legal"])[0])
    press_play(second, "Play" if second is ana else "Jugar")
    assert not sheet_shown(second)
    until(lambda: first.model.version == second.model.version)
    assert not sheet_shown(first) and not sheet_shown(again_first)
    for table in (ana, leo, again_first, again_second):
        table.close()


def words_of(markup: str) -> str:
    """A line of the page's markup as it reads (its tags left out)."""
    return html.unescape(re.sub(r"<[^>]*>", "", markup))


def test_house_rules_are_offered_and_listed_by_their_names(server):
    from escoba_tutor.engine.rules import VARIANTS

    # an engine name with its underscore, a rules name's «+» or «=»; a name that is a word (sevens, figuras) is
    # checked as a whole label below
    raw = [*(name for name in VARIANTS if "_" in name), "+", "="]
    opener, other = page(server, "Gala"), page(server, "Iker", lang="es")
    for table, words in ((opener, ("None: the class's rules", "Face cards", "Capture optional", "Renuncio")),
                         (other, ("Ninguna: las reglas de la clase", "Figuras", "Baza no obligada",
                                  "Sin escoba en la última jugada"))):
        choice = labelled(table, "House rule" if table is opener else "Regla de la casa")
        shown = [label for label, _value in choice.options]
        assert all(word in shown for word in words)
        assert not any(id_ in label for label in shown for id_ in raw)  # no engine name on screen
        assert not set(shown) & set(VARIANTS) and "escoba" not in shown
        assert [value for _label, value in choice.options] == house_rule_choices("escoba+target=3")
    labelled(opener, "House rule").value = "escoba+target=3+figuras"
    press(opener, "Open a table")
    code = opener.model.code
    assert opener.model.view["rules"] == "escoba+target=3+figuras"  # the rule the name stands for
    press(other, "Volver a mirar")
    listed = words_of(next(line for line in shown_text(other).split("<li>") if code in line))
    assert "2 jugadores, las reglas de la clase con figuras, con pistas: Gala, un sitio libre" in listed
    assert not any(id_ in listed for id_ in raw)
    again = page(server, "Gala")  # a reload: the same table, and the list in English
    press(again, "Leave the table")
    listed = words_of(next(line for line in shown_text(again).split("<li>") if code in line))
    assert "2 players, the class's rules with face cards, hints allowed: " in listed
    assert not any(id_ in listed for id_ in raw)
    for table in (opener, other, again):
        table.close()


def test_every_house_rule_has_its_name_in_both_languages():
    from escoba_tutor.engine.errors import EscobaError
    from escoba_tutor.engine.rules import VARIANTS
    from escoba_tutor.exercises.kinds.house_rules import house_rule_name

    for lang in ("es", "en"):
        _ = Translator(lang)
        names = {name: house_rule_name(_, name) for name in VARIANTS}
        assert len(set(names.values())) == len(VARIANTS)  # one name each, none twice
        assert all(said and "_" not in said for said in names.values())  # words, never an engine name
    assert house_rule_name(Translator("es"), "no_last_play_escoba") == "sin escoba en la última jugada"
    assert house_rule_name(Translator("en"), "capture_optional") == "capture optional"
    with pytest.raises(EscobaError) as error:
        house_rule_name(Translator("en"), "wild_cards")
    assert error.value.code == "unknown_option"


class HeldClient(TableClient):
    """The page's real client, whose plays wait at a gate before they go to the server (a slow network)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.gate = threading.Event()
        self.plays: list[str] = []

    def play(self, view, move=None, **kwargs):
        self.plays.append(move)
        assert self.gate.wait(10)
        return super().play(view, move, **kwargs)


def held_page(server, nickname: str) -> ClassTables:
    student, = students(server, nickname)
    return ClassTables("en", client=HeldClient(student.url, student.token, "en"), server_rules="escoba+target=3")


def seated_pair(server, first: str, second: str) -> tuple[ClassTables, ClassTables]:
    one, two = held_page(server, first), page(server, second)
    press(one, "Open a table")
    labelled(two, "Table code").value = one.model.code
    press(two, "Sit at this table")
    until(lambda: one.model.state == "playing")
    if not one.model.view["my_turn"]:  # the held page plays first
        choose(two, sorted(two.model.view["legal"])[0])
        press_play(two, "Play")
        until(lambda: one.model.view.get("my_turn"))
    return one, two


def test_a_play_is_shown_at_once_and_the_server_s_answer_follows(server):
    ana, leo = seated_pair(server, "Alba", "Luca")
    view = ana.model.view
    move = next((m for m in sorted(view["legal"]) if "+" in m), sorted(view["legal"])[0])
    card, *taken = move.split("+")
    choose(ana, move)
    press(ana, "Play")
    # shown before the server has it: the card has left the hand, the table shows the play, no second play
    assert ana.model.sending and ana.client.plays == [move]
    shown = ana.model.view
    assert card not in shown["hand"] and len(shown["hand"]) == len(view["hand"]) - 1
    assert not shown["my_turn"] and ana.model.version == view["version"]
    if taken:
        assert not set(taken) & set(shown["table"]) and card not in shown["table"]
        assert shown["captured"][shown["side"]] == view["captured"][view["side"]] + 1 + len(taken)
    else:
        assert shown["table"] == [*view["table"], card]
    assert card not in only(ana, CaptureTable).model.hand.split()
    assert ana.message.startswith("You ")
    press(ana, "Play")  # a second press while the first is on its way
    assert ana.client.plays == [move]
    assert leo.model.version == view["version"]  # nothing has reached the server yet
    ana.client.gate.set()
    until(lambda: not ana.model.sending)
    # the server's answer: its view (the computer's and the others' news with it), the same cards as shown
    assert ana.model.version == view["version"] + 1 and ana.model.view["hand"] == shown["hand"]
    assert sorted(ana.model.view["table"]) == sorted(shown["table"])
    assert ana.model.view["captured"] == shown["captured"] and ana.model.view["last_play"] == shown["last_play"]
    assert ana.model.view["piles"] == shown["piles"]  # the taken cards in the engine's order, then the card
    until(lambda: leo.model.version == view["version"] + 1)
    assert leo.model.view["last_play"] == ana.model.view["last_play"]
    assert ana.message.endswith("Waiting for Luca to play.")
    for table in (ana, leo):
        table.close()


def test_a_play_refused_by_the_server_takes_back_what_was_shown_and_says_why(server):
    ana, leo = seated_pair(server, "Aroa", "Lucas")
    view = ana.model.view
    ana.model.seated(dict(view, version=view["version"] - 1))  # the table changed since the page drew it
    move = sorted(view["legal"])[0]
    choose(ana, move)
    press(ana, "Play")
    assert ana.model.sending and move.split("+")[0] not in ana.model.view["hand"]
    ana.client.gate.set()
    until(lambda: not ana.model.sending)
    # refused as stale: the play taken back, the table read again, and said
    assert ana.model.version == view["version"] and sorted(ana.model.view["hand"]) == sorted(view["hand"])
    assert ana.model.view["my_turn"] and "changed meanwhile" in ana.message
    assert leo.model.version == view["version"]
    # a failure nobody expected (not a refusal): the play taken back too, and the student told
    ana.client.play = lambda *args, **kwargs: 1 / 0
    choose(ana, move)
    press(ana, "Play")
    until(lambda: not ana.model.sending)
    assert sorted(ana.model.view["hand"]) == sorted(view["hand"]) and ana.model.view["my_turn"]
    assert ana.message.startswith("Something went wrong.")
    for table in (ana, leo):
        table.close()


def test_the_seat_s_last_card_waits_for_the_server_which_deals_the_next_hands():
    view = {"seat": 0, "side": 0, "deal": 1, "hand": ["3c"], "table": ["1o", "4b", "7o"], "legal": ["3c+1o+4b+7o"],
            "hand_sizes": [1, 1], "captured": [0, 0], "escobas": [0, 0], "piles": [[], []], "my_turn": True}
    assert provisional_view(view, Move.from_text("3c+1o+4b+7o")) is None
    two = dict(view, hand=["3c", "5e"], hand_sizes=[2, 2], legal=["3c+1o+4b+7o", "5e"])
    swept = provisional_view(two, Move.from_text("3c+1o+4b+7o"))
    assert swept["table"] == [] and swept["escobas"] == [1, 0] and swept["captured"] == [4, 0]
    # the taken cards in the deck's order, as the engine (and so the server's answer) lists them
    assert swept["last_play"] == {"deal": 1, "seat": 0, "side": 0, "card": "3c", "took": ["1o", "7o", "4b"],
                                  "escoba": True}
    assert swept["piles"] == [["1o", "7o", "4b", "3c"], []]
    assert swept["hand"] == ["5e"] and swept["hand_sizes"] == [1, 2] and swept["turn"] is None
    laid = provisional_view(two, Move.from_text("5e"))
    assert laid["table"] == ["1o", "4b", "7o", "5e"] and laid["captured"] == [0, 0] and not laid["last_play"]["escoba"]
    # a play the server did not list (a forged or stale choice) is never shown as made
    assert provisional_view(two, Move.from_text("5e+1o")) is None
    assert provisional_view(dict(two, legal=[]), Move.from_text("5e")) is None
