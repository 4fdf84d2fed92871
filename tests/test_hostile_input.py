"""Every bad input of docs/hostile-input.md, one test (or one parametrized case) per row: each is refused with a
clear message, or read as what it plainly means, and nothing is half-changed.

Kernel and engine level: the same objects a lesson page drives (CaptureModel, GameSession, GameTable, the
primitives' synced traits set as a browser's message sets them, Page for the URL). URL parameters through the
real server are in tests/browser/test_hostile_urls_browser.py.
"""

from __future__ import annotations

import base64
import json

import ipywidgets as w
import pytest
from escoba_test_helpers import browser_sends, html_with, labelled, only, press, status_line

from escoba_tutor import Game
from escoba_tutor.cli import main
from escoba_tutor.engine.save import _checksum
from escoba_tutor.text.translator import Translator
from escoba_tutor.widgets import CaptureTable, GameSession, GameTable, Page
from escoba_tutor.widgets.capture_table import CaptureModel
from escoba_tutor.widgets.file_picker import FilePicker
from escoba_tutor.widgets.primitives import CardRow, RowPicker


# ------------------------------------------------------------------------------------------------ card text
@pytest.mark.parametrize("text, code, words", [
    ("", None, None),  # no cards: an empty table or hand
    ("8o", "bad_card", "no 8 or 9"),
    ("9c", "bad_card", "no 8 or 9"),
    ("10D", "bad_card", "sota is J"),
    ("7o 7D", "duplicate_card", "given twice"),
    ("🂡", "bad_card", "is not a card"),
    ("x" * 1_000_000, "bad_card", "is not a card"),
    ("7o " * 1_000_000, "duplicate_card", "given twice"),
    ("7\u20e3o", "bad_card", "is not a card"),  # an emoji keycap is not a digit
])
def test_card_text_in_the_capture_table(text, code, words):
    model = CaptureModel(table="1o 4b", hand="3c")
    before = (model.table_cards, model.hand_cards, model.rows)
    model.table = text
    if code is None:
        assert model.error == {} and model.table_cards == ()
        return
    assert model.error["code"] == code and words in model.error["message"]
    assert len(model.error["message"]) < 400  # a huge text is not repeated back
    assert (model.table_cards, model.hand_cards, model.rows) == before


@pytest.mark.parametrize("text", ["７ｏ 1o", "7\u200do 1o", "\u200f7o 1o", "\ufeff7o 1o", "7º 1o"])
def test_card_text_that_looks_right_is_read_as_it_looks(text):
    model = CaptureModel(table=text, hand="3c")
    assert model.error == {} and [c.code for c in model.table_cards] == ["7o", "1o"]


def test_a_hand_card_already_on_the_table_is_refused():
    model = CaptureModel(table="1o 4b", hand="3c")
    before = (model.table_cards, model.hand_cards, model.rows)
    model.hand = "1o"
    assert model.error["code"] == "card_in_both" and model.error["card"] == "1o"
    assert (model.table_cards, model.hand_cards, model.rows) == before


def test_card_text_errors_are_told_in_the_learners_language():
    table = CaptureTable(table="1o 4b", hand="3c", lang="es")
    labelled(table, "Mesa", w.Text).value = "8o"
    status = status_line(table).message
    assert "8o" in status and "Traceback" not in status
    assert status != Translator("es")("the cards are not valid")


# --------------------------------------------------------------------------------------- saves and codes
def _game() -> Game:
    game = Game(players=2, seed=5)
    for _move in range(6):
        game.play(game.legal_moves()[0])
    return game


def _signed(data: dict) -> str:
    """A save changed and signed again: the checksum catches mistakes, not a forger, so what lies behind it
    must hold too."""
    body = {k: v for k, v in data.items() if k != "checksum"}
    return json.dumps({**body, "checksum": _checksum(body)})


def _hostile_saves() -> dict[str, tuple[object, str]]:
    game = _game()
    good = json.loads(game.to_json())
    code = game.resume_code()
    scopa = Game(players=2, seed=5, rules="scopa")
    return {
        "truncated save": (game.to_json()[:60], "malformed_save"),
        "not an object": ("[1, 2]", "bad_code_char"),
        "players as text": (_signed({**good, "players": "2"}), "malformed_save"),
        "7 players": (_signed({**good, "players": 7}), "malformed_save"),
        "negative seed": (_signed({**good, "seed": -1}), "malformed_save"),
        "huge seed": (_signed({**good, "seed": 10**30}), "malformed_save"),
        "moves not text": (_signed({**good, "moves": [1, 2]}), "malformed_save"),
        "41 cards": (_signed({**good, "moves": good["moves"] + ["12b"] * 41}), "malformed_save"),
        "illegal move": (_signed({**good, "moves": good["moves"][:-1] + ["1o+2o+3o"]}), "malformed_save"),
        "unknown rules": (_signed({**good, "rules": {**good["rules"], "jokers": True}}), "malformed_save"),
        "rules as text": (_signed({**good, "rules": "scopa"}), "malformed_save"),
        "another profile, altered": (scopa.to_json().replace('"scopa"', '"escoba"', 1), "checksum"),
        "future version": (_signed({**good, "version": 3}), "future_version"),
        "tampered checksum": (json.dumps({**good, "checksum": "0" * 16}), "checksum"),
        "tampered summary": (_signed({**good, "summary": {**good["summary"], "totals": [9, 0]}}), "checksum"),
        "deep nesting": ("{" + '"a":[' * 100_000, "malformed_save"),
        "binary file": (b"\xff\xfe\x00PK", "malformed_save"),
        "huge file": (b"{" + b" " * 2_000_000 + b"}", "save_too_large"),
        "truncated code": (code[:-3], "checksum"),
        "code cut to its check": (code[:4], "code_too_short"),
        "empty code": ("   ", "empty_code"),
        "emoji code": ("🂡🂡🂡🂡🂡", "bad_code_char"),
        "code of a future version": ("3" + code[1:], "checksum"),
    }


HOSTILE_SAVES = _hostile_saves()


@pytest.mark.parametrize("name", HOSTILE_SAVES)
def test_a_bad_save_or_code_changes_nothing(name):
    text, code = HOSTILE_SAVES[name]
    session = GameSession(players=2, seed=9)
    session.finish_computer_turns()
    session.play(session.game.legal_moves()[0])
    game, key = session.game, session.game.state_key()
    assert session.load(text) is False
    assert session.problem.code == code
    assert session.game is game and game.state_key() == key


@pytest.mark.parametrize("name", ["truncated save", "future version", "tampered checksum", "illegal move",
                                  "emoji code", "huge file"])
@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_bad_save_is_explained_on_the_game_table(name, lang):
    table = GameTable(players=2, seed=9, delay=0, lang=lang)
    before = table.session.game.state_key()
    text, _code = HOSTILE_SAVES[name]
    if isinstance(text, bytes):
        browser_sends(only(table, FilePicker), {"event": "file", "name": "escoba-game.json"}, [memoryview(text)])
    else:
        _ = Translator(lang)
        labelled(table, _("Code"), w.Text).value = text
        press(table, _("Resume"))
    said = status_line(table).message
    assert said and "Traceback" not in said and "Error" not in said
    assert table.session.game.state_key() == before


def test_a_save_of_another_rules_profile_loads_with_its_own_rules():
    """Not an attack: a scopa game saved on a scopa server goes on as scopa here."""
    scopa = Game(players=2, seed=5, rules="scopa")
    scopa.play(scopa.legal_moves()[0])
    session = GameSession(players=2, seed=9)
    assert session.load(scopa.to_json()) is True
    assert session.rules.name == "scopa" and session.game.state_key() == scopa.state_key()


def test_the_download_link_is_the_save_that_loads():
    table = GameTable(players=2, seed=9, delay=0)
    href = html_with(table, "base64,").value.split("base64,")[1].split("'")[0]
    assert Game.from_json(base64.b64decode(href)).state_key() == table.session.game.state_key()


# ---------------------------------------------------------------------------------------------- URL params
@pytest.mark.parametrize("query, name, code", [
    ("lang=xx", "lang", "bad_lang"),
    ("seed=-1", "seed", "bad_seed"),
    ("seed=999999999999999999999", "seed", "bad_seed"),
    ("seed=abc", "seed", "bad_seed"),
    ("seed=%C2%B2", "seed", "bad_seed"),        # ² is a digit to str.isdigit, not to int()
    ("seed=%EF%BC%91%EF%BC%92", "seed", "bad_seed"),  # full-width １２
    ("seed=1&seed=2", "seed", "repeated"),
    ("table=" + "+".join(["1o", "2o", "3o", "4o", "5o", "6o", "7o"] * 7 + ["1c"]), "table", "duplicate_card"),
    ("table=1o+4b&hand=4b", "hand", "card_in_both"),
    ("hand=1o+2o+3o+4o", "hand", "hand_too_big"),
    ("table=8o", "table", "bad_card"),
    ("table=" + "x" * 300, "table", "too_long"),
    ("seed=1&" + "a=b&" * 600, "address", "too_long"),
])
@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_bad_url_parameter_is_left_out_and_explained(query, name, code, lang):
    page = Page(lang, query=query)
    seed = page.seed(4)
    table, hand = page.text("table", "2c 3e"), page.text("hand", "5o")
    assert (name, code) in [(n, c) for n, c, _d in page.problems]
    if name == "seed" or name == "address":
        assert seed == 4
    if name == "table":
        assert table == "2c 3e"
    if name == "hand":
        assert hand == "5o"
    notice = page.notice().value
    assert "escoba-notice" in notice and "<li>" in notice and "Traceback" not in notice
    assert "the cards are not valid" not in notice and "las cartas no son válidas" not in notice


def test_a_url_table_and_the_default_hand_never_share_a_card():
    page = Page("es", query="table=5o+1o")
    assert page.text("table", "2c") == "5o 1o" and page.text("hand", "5o 1e") == "1e"


def test_a_page_adds_the_connection_watch_in_its_language():
    from escoba_tutor.widgets.page import ConnectionWatch

    box = Page("en", query="").with_notice(CaptureTable(table="1o", hand="3c"))
    watch = box.children[-1]
    assert isinstance(watch, ConnectionWatch)
    assert watch.texts["reload"] == "Reload the page"
    assert Page("es", query="").connection_watch().texts["reload"] == "Volver a cargar la página"


# --------------------------------------------------------------------------------------------- widget fields
def test_a_row_picker_choice_that_is_no_row_is_dropped():
    table = CaptureTable(table="1o 4b 7o", hand="3c 5e")
    for value in ["zz:9", "3c:1o", "x" * 100_000, 5]:
        only(table, RowPicker).set_state({"selected": value})  # as the browser's message sets it
        assert table.model.selected == "" and table.model.error == {}


@pytest.mark.parametrize("value", [["99x"], ["12b"], [1], "7o", ["7o", "7o"]])
def test_a_card_row_selection_of_unknown_or_absent_cards_is_dropped(value):
    table = CaptureTable(table="1o 4b 7o", hand="3c 5e")
    labelled(table, "Mesa", CardRow).set_state({"selected": value})
    assert set(table.model.built_taken) <= {"1o", "4b", "7o"}
    assert len(table.model.built_taken) == len(set(table.model.built_taken))
    assert table.model.error == {}


def test_a_hand_row_selection_of_a_table_card_is_dropped():
    table = CaptureTable(table="1o 4b 7o", hand="3c 5e")
    labelled(table, "Tu mano", CardRow).set_state({"selected": ["1o"]})
    assert table.model.built_card == ""


@pytest.mark.parametrize("label", ["Jugadores", "Reglas", "Ordenador"])
def test_a_setup_choice_out_of_range_is_refused(label):
    import traitlets

    table = GameTable(players=2, seed=9, delay=0)
    dropdown = labelled(table, label, w.Dropdown)
    before = dropdown.value
    with pytest.raises(traitlets.TraitError):
        dropdown.set_state({"index": 99})
    assert dropdown.value == before


def test_a_typed_card_field_keeps_the_last_good_position():
    table = CaptureTable(table="1o 4b 7o", hand="3c")
    rows = list(table.model.rows)
    labelled(table, "Mesa", w.Text).value = "1o 1o"
    assert table.model.error["code"] == "duplicate_card"
    assert table.model.rows == rows and [c.code for c in table.model.table_cards] == ["1o", "4b", "7o"]


# ----------------------------------------------------------------------------------------------------- CLI
@pytest.mark.parametrize("args, words", [
    (["--port", "0"], "from 1 to 65535"),
    (["--port", "abc"], "whole number"),
    (["--port", "99999"], "from 1 to 65535"),
    (["serve", "--rules", "poker"], "no rules profile"),
    (["serve", "--lang", "xx"], "es or en"),
    (["serve", "--ip", "foo;rm -rf"], "not an address"),
    (["serve", "--ip", "999.1.1.1"], "no such address"),
    (["serve", "--base-url", "a?b"], "not a URL prefix"),
    (["serve", "--base-url", "/a/../b"], "not a URL prefix"),
    (["serve", "--cull-idle", "0"], "idle time"),
    (["serve", "--lessons", "/no/such/folder"], "no lessons found"),
    (["serve", "--class-db", ""], "argument --class-db: '' is not a database"),
    (["serve", "--class-db", "/proc/no-such/class.sqlite3"], "argument --class-db: the class database cannot be"),
    (["serve", "--class-db", "/"], "the class database / is a folder"),
    (["serve", "--class-db", __file__], "file is not a database"),
    (["serve", "--class-db", "mysql://x@y/z"], "cannot be a mysql: URL"),
    (["serve", "--class-db", "sqlite:///"], "a database in memory"),
    (["serve", "--class-db", "postgresql://nobody:secret-word@127.0.0.1:1/x"], "Connection refused"),
    (["simulate", "--games", "0"], "at least 1"),
    (["simulate", "--games", "1e9"], "whole number"),
    (["simulate", "--players", "7"], "not 7"),
    (["simulate", "--seed", "-1"], "from 0 to"),
    (["simulate", "--seed", "99999999999999999999"], "from 0 to"),
    (["worksheet", "--seed", "abc"], "whole number"),
    (["worksheet", "--seed", "1", "--count", "99"], "from 1 to 20"),
    (["worksheet", "--seed", "1", "--lang", "xx"], "es or en"),
    (["check-trace", "/no/such/file"], "cannot read"),
])
def test_bad_command_line_arguments(capsys, monkeypatch, args, words):
    started = []
    monkeypatch.setattr("voila.app.Voila.launch_instance", lambda *a, **k: started.append(a))
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert words in err and "Traceback" not in err and err.count("\n") == 1
    assert not started  # nothing was served
    assert "secret-word" not in err  # a database password is never printed


def test_a_busy_port_is_refused_before_anything_starts(capsys, monkeypatch):
    import socket

    started = []
    monkeypatch.setattr("voila.app.Voila.launch_instance", lambda *a, **k: started.append(a))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--no-browser", "--port", str(port)]) == 2
    out, err = capsys.readouterr()
    assert f"port {port} is in use" in err and not started


def test_a_binary_trace_file_is_refused(tmp_path, capsys):
    path = tmp_path / "trace.jsonl"
    path.write_bytes(b"\xff\xfe\x00")
    assert main(["check-trace", str(path)]) == 2
    assert "not a UTF-8 text file" in capsys.readouterr().err

