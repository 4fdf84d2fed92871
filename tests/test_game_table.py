"""GameTable and GameSession driven in the kernel, clicking as a student would (no browser)."""

from __future__ import annotations

import base64
import random
import re

import ipywidgets as w
import pytest
from escoba_test_helpers import (
    BUTTONS,
    browser_sends,
    browser_sets,
    html_with,
    is_shown,
    labelled,
    only,
    part_with,
    parts,
    press,
    shown_labels,
    shown_text,
    status_line,
)

from escoba_tutor import Game
from escoba_tutor.engine.save import MAX_UPLOAD_BYTES
from escoba_tutor.text.phrases import sentence_start
from escoba_tutor.text.translator import Translator
from escoba_tutor.widgets import CaptureTable, HintPanel, ScoreSheet
from escoba_tutor.widgets.file_picker import FilePicker
from escoba_tutor.widgets.game_table import GameTable, describe_play, leftover_words, player_name
from escoba_tutor.widgets.memory import BrowserMemory
from escoba_tutor.widgets.primitives import CardRow, PlaceKeeper, RowPicker
from escoba_tutor.widgets.session import GameSession

ES = Translator("es")


def my_turn(table: GameTable) -> bool:
    s = table.session
    return s.phase == "play" and s.game.turn == s.viewer


def captures_of(table: GameTable) -> CaptureTable:
    """The table of captures in the game: the table's cards, the hand and the list of captures."""
    return only(table, CaptureTable)


def capture_list(table: GameTable) -> RowPicker:
    return only(captures_of(table), RowPicker)


def hand_row(table: GameTable, lang: str = "es") -> CardRow:
    return labelled(table, Translator(lang)("Your hand"), CardRow)


def status(table: GameTable) -> str:
    """What the game's status line says."""
    return status_line(table).message


def play_a_row(table: GameTable, rng: random.Random) -> None:
    picker = capture_list(table)
    picker.selected = rng.choice(picker.rows)["id"]
    press(table, Translator(table.lang)("Play"))


def test_the_computer_plays_until_it_is_your_turn_and_says_what_it_did():
    table = GameTable(players=2, seed=11, delay=0)
    s = table.session
    assert my_turn(table) or s.phase == "deal_over"
    if any(e.kind == "play" for e in s.game.history):
        assert "Ordenador:" in status(table)
    assert "Te toca." in status(table)
    assert hand_row(table).cards == [c.code for c in s.game.hand(0)]
    # The other hand is face down: its cards appear nowhere on the screen's card rows.
    (other,) = table.other_hands
    assert other.cards == [] and other.face_down == len(s.game.hand(1))


def test_a_whole_game_played_by_clicking_rows():
    table = GameTable(players=2, seed=5, delay=0)
    s, rng = table.session, random.Random(5)
    for _ in range(1000):
        if s.phase == "game_over":
            break
        if s.phase == "deal_over":
            assert "Total de la mano" in shown_text(table), "the score sheet is shown at the deal's end"
            press(table, ES("Next deal"))
        elif my_turn(table):
            play_a_row(table, rng)
    assert s.phase == "game_over" and s.game.winner is not None
    said = shown_text(table)  # "¡Has ganado…!"
    assert ("Has ganado la partida" if s.game.winner == 0 else "¡El ordenador gana la partida") in said, said
    assert max(s.game.totals) >= 21


def test_a_wrong_capture_is_explained_and_you_choose_again():
    table = GameTable(players=2, seed=2, delay=0)
    s = table.session
    game = s.game
    for seed in range(100):  # find a position where a hand card could capture
        if any(game.captures_for(c) for c in game.hand(0)) and my_turn(table):
            break
        table = GameTable(players=2, seed=seed, delay=0)
        s, game = table.session, table.session.game
    card = next(c for c in game.hand(0) if game.captures_for(c))
    before = game.state_key()
    hand_row(table).selected = [card.code]  # lay it down without taking anything
    press(table, "Jugar")
    assert "puede hacer baza, así que debe hacerla" in status(table)
    assert "Elige otra vez" in status(table)
    assert game.state_key() == before


def test_undo_takes_back_your_move_and_the_computers_reply():
    table = GameTable(players=2, seed=8, delay=0)
    s, rng = table.session, random.Random(1)
    undo = labelled(table, "Deshacer")
    assert undo.disabled
    before = s.game.state_key()
    play_a_row(table, rng)
    assert not undo.disabled
    undo.click()
    assert s.game.state_key() == before and my_turn(table)


def test_clicks_out_of_turn_are_refused_with_a_reason():
    table = GameTable(players=2, seed=4, delay=10)  # paced: the computer has not moved yet
    s = table.session
    if s.game.turn == 0:
        play_a_row(table, random.Random(0))
    assert s.computer_to_move
    before = s.game.state_key()
    s.play(s.game.legal_moves()[0])  # a fast double click reaching the session
    assert s.problem.code == "not_your_turn" and s.game.state_key() == before
    table.close()  # the computer's paced move is dropped with the table


def test_pass_and_play_hides_each_hand_until_the_student_takes_over():
    table = GameTable(players=2, seed=3, mode="pass_and_play", delay=0)
    s, rng = table.session, random.Random(3)
    first = s.viewer
    assert s.phase == "play" and s.game.turn == first
    play_a_row(table, rng)
    assert s.phase == "handover"
    assert hand_row(table).cards == [] and not is_shown(table, hand_row(table))
    assert "Pásale la pantalla al jugador" in status(table)
    press(table, ES("I'm {name:the}: show me my cards", name=player_name(ES, s, s.game.turn)))
    assert s.viewer == 1 - first and hand_row(table).cards == [c.code for c in s.game.hand(s.viewer)]


@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_players(players):
    table = GameTable(players=players, seed=9, delay=0, lang="en")
    s = table.session
    assert len(table.other_hands) == players - 1
    if players == 4:
        scores = html_with(table, "escoba-scores").value
        assert "Your team" in scores and "The other team" in scores
        assert any("Your partner" in row.group_label for row in table.other_hands)
    rng = random.Random(players)
    for _ in range(12):
        if my_turn(table):
            play_a_row(table, rng)
        elif s.phase == "deal_over":
            press(table, "Next deal")
    assert len([e for e in s.game.history if e.kind == "play"]) >= 12


def test_save_file_and_resume_code_bring_back_the_same_game():
    table = GameTable(players=2, seed=6, delay=0)
    s, rng = table.session, random.Random(6)
    for _ in range(5):
        play_a_row(table, rng)
    link = html_with(table, "base64,").value
    data = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)", link).group(1))
    code = re.search(r"<code class='escoba-code'>([^<]+)</code>", html_with(table, "escoba-code").value).group(1)
    expected = s.game.state_key()

    other = GameTable(players=3, seed=1, delay=0)
    labelled(other, ES("Code"), w.Text).value = code
    press(other, ES("Resume"))
    assert other.session.game.state_key() == expected

    third = GameTable(players=2, seed=2, delay=0)
    send_file(third, data)
    assert third.session.game.state_key() == expected
    assert Game.from_json(data).state_key() == expected


def send_file(table: GameTable, data: bytes) -> None:
    """A file chosen with "Load a game", as the page sends it (the comm message's content and one buffer)."""
    browser_sends(only(table, FilePicker), {"event": "file", "name": "escoba-game.json"}, [memoryview(data)])


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_file_too_big_to_be_a_save_is_refused_and_the_game_stays(lang):
    """The page sends no file over the limit; should one arrive all the same, it is refused in the same words."""
    table = GameTable(players=2, seed=6, delay=0, lang=lang)
    picker = only(table, FilePicker)
    assert picker.max_bytes == MAX_UPLOAD_BYTES
    said = picker.too_large
    assert str(MAX_UPLOAD_BYTES // 1024) in said and "escoba-tutor" in said
    before = table.session.game.state_key()
    send_file(table, b"{" + b" " * MAX_UPLOAD_BYTES + b"}")
    assert table.session.game.state_key() == before
    assert table.session.problem.code == "save_too_large"
    told = status(table)
    assert told and said.startswith(told)  # the kernel's words, then the page's note of the limit


@pytest.mark.parametrize("text, expected", [("NOT-A-CODE", "no es válido"), ("", "está vacío"),
                                            ("{\"format\": 1}", "no es una partida guardada")])
def test_a_bad_resume_code_or_file_is_explained_and_changes_nothing(text, expected):
    table = GameTable(players=2, seed=6, delay=0)
    before = table.session.game.state_key()
    labelled(table, ES("Code"), w.Text).value = text
    press(table, ES("Resume"))
    assert expected in status(table)
    assert table.session.game.state_key() == before


def test_new_game_with_other_rules_and_players():
    table = GameTable(players=2, seed=6, delay=0)
    labelled(table, ES("Players"), w.Dropdown).value = 3
    labelled(table, ES("Rules"), w.Dropdown).value = "scopa"
    press(table, ES("New game"))
    s = table.session
    assert s.players == 3 and s.rules.profile == "scopa" and s.mode == "computer"
    assert "scopa" in html_with(table, "<h3 class='escoba-title'>Una partida de").value


def test_the_language_switch_redraws_everything():
    table = GameTable(players=2, seed=6, delay=0)
    table.lang = "en"
    play = labelled(table, "Play", BUTTONS)
    assert play.icon == "play" and "Your turn." in status(table)
    table.lang = "es"
    assert play.description == "Jugar"


def test_the_deal_review_steps_through_the_plays():
    table = GameTable(players=2, seed=5, delay=0)
    s, rng = table.session, random.Random(2)
    while s.phase != "deal_over":
        if my_turn(table):
            play_a_row(table, rng)
    review = part_with(table, ES("Review the last deal"))
    labelled(review, ES("Review the last deal")).value = True
    forward = labelled(review, ES("Forward"))
    assert labelled(review, ES("Back")).disabled and "Jugada 1 de 36" in shown_text(review)
    forward.click()
    assert "Jugada 2 de 36" in shown_text(review)
    for _ in range(40):
        forward.click()
    assert "Fin de la mano" in shown_text(review) and forward.disabled


def test_session_refuses_bad_modes_and_languages():
    with pytest.raises(Exception, match="mode"):
        GameSession(mode="online")
    with pytest.raises(Exception, match="choose es"):
        GameSession(lang="fr")


def test_the_computer_level_can_be_chosen():
    table = GameTable(players=2, seed=6, delay=0)
    level = labelled(table, ES("Computer"), w.Dropdown)
    assert [label for label, _value in level.options] == ["fácil", "medio", "difícil"]
    level.value = "greedy"
    press(table, ES("New game"))
    assert table.session.level == "greedy"
    assert all(type(bot).__name__ == "GreedyBot" for bot in table.session.bots.values())


# ------------------------------------------------------------------------ double clicks and the computer's turn
def human_plays(table: GameTable) -> int:
    return sum(1 for e in table.session.game.history if e.kind == "play" and e.player in table.session.humans)


def browser_double_clicks(picker, row_id: str, revision: int) -> None:
    """What a double click on a row sends: the choice, then the activation (made on the rows of ``revision``)."""
    browser_sets(picker, selected=row_id)
    browser_sends(picker, {"event": "activate", "id": row_id, "revision": revision})


def test_a_double_click_on_a_capture_only_chooses_it_and_play_plays_it_once():
    table = GameTable(players=2, seed=5, delay=0)
    picker = capture_list(table)
    assert my_turn(table)
    before, row_id, revision = human_plays(table), picker.rows[0]["id"], picker.revision
    browser_double_clicks(picker, row_id, revision)
    assert human_plays(table) == before, "a double click (or tap) is not a move: Play is"
    assert picker.selected == row_id
    press(table, "Jugar")
    assert human_plays(table) == before + 1
    assert my_turn(table), "the computer answered at once (delay=0): a second play would be possible"
    browser_double_clicks(picker, row_id, revision)  # the same messages again, as a flaky network may deliver
    press(table, "Jugar")  # and the Play button's second click of a double click: the chosen capture is gone
    assert human_plays(table) == before + 1
    assert "Elige una baza" in status(table) and "Te toca." in status(table)


def test_a_double_click_on_undo_takes_back_one_move():
    table = GameTable(players=2, seed=8, delay=0)
    rng = random.Random(1)
    play_a_row(table, rng)
    after_one = table.session.game.state_key()
    play_a_row(table, rng)
    assert human_plays(table) == 2
    press(table, "Deshacer")
    press(table, "Deshacer")  # the second click of a double click
    assert human_plays(table) == 1 and table.session.game.state_key() == after_one


def test_play_clicked_twice_plays_once():
    table = GameTable(players=2, seed=7, delay=0)
    picker = capture_list(table)
    before = human_plays(table)
    browser_sets(picker, selected=picker.rows[-1]["id"])
    press(table, "Jugar")
    press(table, "Jugar")
    assert human_plays(table) == before + 1


def test_clicks_during_the_computers_turn_are_ignored_with_a_visible_reason():
    table = GameTable(players=2, seed=4, delay=10)  # paced: the computer waits 10 s before each play
    s, picker, play = table.session, capture_list(table), labelled(table, "Jugar")
    try:
        if s.game.turn == 0:
            browser_sets(picker, selected=picker.rows[0]["id"])
            play.click()
        assert s.computer_to_move
        before = s.game.state_key()
        assert not play.disabled, "Play stays clickable, so a click can say why it does nothing"
        browser_sets(picker, selected=picker.rows[0]["id"])
        play.click()
        assert status(table).startswith("Espera: juega el ordenador.")
        assert "El ordenador está pensando" in status(table)  # what was said before stays readable
        browser_double_clicks(picker, picker.rows[0]["id"], picker.revision)
        assert status(table).startswith("Espera: juega el ordenador.")
        assert s.game.state_key() == before and s.computer_to_move
        table.lang = "en"
        press(table, "Play")
        assert status(table).startswith("Wait: the computer is playing.")
    finally:
        table.close()  # the computer's paced move is dropped with the table


def test_a_refused_play_names_the_cards_in_words():
    table = GameTable(players=2, seed=2, delay=0)
    for seed in range(100):  # a position where a hand card could capture
        game = table.session.game
        if my_turn(table) and any(game.captures_for(c) for c in game.hand(0)):
            break
        table = GameTable(players=2, seed=seed, delay=0)
    game = table.session.game
    card = next(c for c in game.hand(0) if game.captures_for(c))
    news = status(table)
    hand_row(table).selected = [card.code]
    press(table, "Jugar")
    said = status(table)
    assert said.startswith(sentence_start(Translator("es").the_card(card)) + " puede hacer baza"), said
    assert not re.search(r"\b(1[0-2]|[1-7])[oceb]\b", said), said  # no card codes in the sentence

    # a new choice answers the refusal: the status line says the game's news again
    other = next(c for c in game.hand(0) if c != card)
    hand_row(table).selected = [other.code]
    assert status(table) == news and news.endswith("Te toca."), status(table)


def test_a_click_out_of_place_is_forgotten_once_the_student_chooses_again():
    table = _my_turn_table()
    news = status(table)
    press(table, "Jugar")  # nothing chosen
    assert status(table).startswith("Elige una baza de la lista"), status(table)
    hand_row(table).selected = [table.session.game.hand(0)[0].code]
    assert status(table) == news and news.endswith("Te toca."), status(table)


def test_in_a_game_the_table_of_captures_has_no_check_or_clear_buttons():
    table = GameTable(players=2, seed=5, delay=0)
    captures = captures_of(table)
    buttons = [part for part in parts(captures) if isinstance(part, BUTTONS)]  # Check and Clear
    assert len(buttons) == 2 and not any(is_shown(table, button) for button in buttons)
    assert not is_shown(table, status_line(captures))  # one status line: the game's
    assert status_line(table).sticky


# ------------------------------------------------------------------------------------------- hints (issue 7)
def _my_turn_table(**kwargs):
    table = GameTable(players=2, seed=3, delay=0, **kwargs)
    assert table.session.phase == "play" and table.session.game.turn == table.session.viewer
    return table


def test_the_hint_button_ranks_the_students_own_moves_and_goes_away_after_the_play():
    table = _my_turn_table(lang="en")
    hint = labelled(table, "Hint", w.ToggleButton)
    assert not [panel for panel in parts(table) if isinstance(panel, HintPanel) and is_shown(table, panel)]
    hint.value = True
    panel = only(table, HintPanel)
    assert is_shown(table, panel)
    game = table.session.game
    assert {h.move for h in panel.model.hints} == set(game.legal_moves())
    assert panel.model.view.hand == game.hand(table.session.viewer)  # the student's own view, nothing else
    best = panel.model.hints[0].move
    table.session.play(best)
    assert hint.value is False and not is_shown(table, panel)


def test_the_level_chooser_offers_the_expert_and_a_new_game_uses_it():
    table = _my_turn_table(lang="es")
    level = labelled(table, ES("Computer"), w.Dropdown)
    labels = dict((value, label) for label, value in level.options)
    assert labels == {"random": "fácil", "greedy": "medio", "expert": "difícil"}
    level.value = "expert"
    press(table, ES("New game"))  # nothing played yet: a new game at once
    assert table.session.level == "expert"
    assert {type(bot).__name__ for bot in table.session.bots.values()} == {"ExpertBot"}


def test_after_a_deal_the_expert_names_the_costliest_play():
    table = GameTable(players=2, seed=5, delay=0, lang="en")
    s = table.session
    while s.phase == "play":  # the student plays their worst move each time: there is a costly one to find
        s.play(s.game.legal_moves()[-1])
    ask = labelled(table, "What would the expert have played?", w.Button)
    review = part_with(table, "What would the expert have played?")
    assert s.phase == "deal_over" and is_shown(table, ask)
    assert [part.value for part in parts(review) if isinstance(part, w.HTML)] == [""]
    ask.click()
    text = shown_text(review)
    assert "Your costliest play in this deal was play" in text or "as good as the expert" in text
    s.next_deal()
    assert [part.value for part in parts(review) if isinstance(part, w.HTML)] == [""]
    assert not is_shown(table, review)


# ------------------------------------------------------------------ one deliberate action; the level; the deal's end
def test_a_new_game_asks_first_when_a_game_is_under_way():
    table = GameTable(players=2, seed=8, delay=0)
    yes, no = labelled(table, ES("Yes, a new game")), labelled(table, ES("No, keep playing"))
    press(table, ES("New game"))  # nothing played yet: nothing to lose, a new game at once
    assert not is_shown(table, yes) and not is_shown(table, no)
    play_a_row(table, random.Random(1))
    game = table.session.game
    press(table, ES("New game"))
    press(table, ES("New game"))  # a double click: asks, and asks again, nothing more
    assert table.session.game is game and is_shown(table, yes) and is_shown(table, no)
    assert "¿Empezar una partida nueva?" in shown_text(part_with(table, ES("New game")))
    no.click()
    assert table.session.game is game and not is_shown(table, yes)
    press(table, ES("New game"))
    yes.click()
    assert table.session.game is not game and human_plays(table) == 0


def test_the_level_applies_at_once_and_the_chooser_shows_the_level_played():
    table = GameTable(players=2, seed=8, delay=0)
    play_a_row(table, random.Random(1))
    game = table.session.game
    level = labelled(table, ES("Computer"), w.Dropdown)
    level.value = "expert"
    assert table.session.game is game, "choosing a level keeps the game"
    assert table.session.level == "expert"
    assert {type(bot).__name__ for bot in table.session.bots.values()} == {"ExpertBot"}
    assert "«difícil»" in status(table)
    assert status(table).endswith("Sigue siendo tu turno."), "whose turn it is stays said"
    table.lang = "en"  # a redraw with new labels keeps the level
    assert level.value == "expert" and level.description == "Computer" and table.session.level == "expert"


def test_players_and_rules_say_they_apply_with_a_new_game():
    table = GameTable(players=2, seed=8, delay=0)
    setup = part_with(table, ES("New game"))
    note = "cambian al pulsar «Partida nueva»"
    assert note not in shown_text(setup)
    labelled(table, ES("Players"), w.Dropdown).value = 3
    assert note in shown_text(setup)
    labelled(table, ES("Players"), w.Dropdown).value = 2
    assert note not in shown_text(setup)


def test_the_finished_deal_stays_on_screen_and_undo_stays_inside_the_next_one():
    table = GameTable(players=2, seed=5, delay=0)
    s, rng = table.session, random.Random(2)
    while s.phase != "deal_over":
        play_a_row(table, rng)
    record = s.game.deals[0]
    position = captures_of(table).model
    undo = labelled(table, "Deshacer")
    assert position.table == " ".join(c.code for c in record.tables()[-1])
    assert position.hand == ""
    assert undo.disabled and "Pulsa «Siguiente mano»" in status(table)
    assert "mano 1" in html_with(table, "escoba-scores").value
    before = s.game.state_key()
    undo.click()  # a late click: the finished deal stays as it ended
    assert s.game.state_key() == before and s.phase == "deal_over"
    press(table, ES("Next deal"))
    assert "mano 2" in html_with(table, "escoba-scores").value
    assert undo.disabled, "no move of the learner in this deal yet: nothing to take back"
    assert position.hand == " ".join(c.code for c in s.game.hand(0))


def test_a_kept_game_is_offered_after_a_reload_with_its_level():
    played = GameTable(players=2, seed=8, delay=0, level="greedy")
    play_a_row(played, random.Random(1))
    kept = only(played, BrowserMemory).entry
    assert kept["level"] == "greedy" and kept["code"] == played.session.resume_code()
    fresh = GameTable(players=2, seed=9, delay=0)  # the page after a reload: a new kernel, a new game
    assert ES("Yes, continue") not in shown_labels(fresh) and only(fresh, BrowserMemory).entry == {}
    only(fresh, BrowserMemory).found = kept  # what the browser reports it kept
    offer = part_with(fresh, ES("Yes, continue"))
    assert is_shown(fresh, offer) and "¿Continuar tu partida?" in shown_text(offer)
    press(offer, ES("Yes, continue"))
    assert fresh.session.game.state_key() == played.session.game.state_key()
    assert fresh.session.level == "greedy" and labelled(fresh, ES("Computer"), w.Dropdown).value == "greedy"
    assert not is_shown(fresh, offer)


def test_a_spoiled_kept_code_offers_nothing():
    fresh = GameTable(players=2, seed=9, delay=0)
    memory = only(fresh, BrowserMemory)
    memory.found = {"code": "NOT-A-CODE", "level": "expert"}
    assert ES("Yes, continue") not in shown_labels(fresh)
    memory.found = {"code": ["odd"]}  # anything from the browser: dropped without an error
    assert memory.found == {}


@pytest.mark.parametrize("lang, player, captured, escoba, expected", [
    ("es", 1, "5e", False, "El ordenador juega el rey de bastos y se lleva el cinco de espadas."),
    ("es", 0, "5e", False, "Juegas el rey de bastos y te llevas el cinco de espadas."),
    ("es", 1, "", False, "El ordenador deja el rey de bastos en la mesa."),
    ("es", 0, "2c 3e", True, "Juegas el rey de bastos y te llevas el dos de copas y el tres de espadas: ¡escoba!"),
    ("en", 1, "5e", False, "The computer plays the king of clubs and takes the five of swords."),
    ("en", 0, "", False, "You lay the king of clubs on the table."),
])
def test_a_play_is_a_sentence_that_agrees_with_who_played(lang, player, captured, escoba, expected):
    session = GameTable(players=2, seed=3, delay=0).session
    from escoba_tutor.engine.cards import parse_cards

    assert describe_play(Translator(lang), session, player, "12b", parse_cards(captured), escoba) == expected


def test_a_masculine_or_feminine_card_laid_down_reads_right():
    session = GameTable(players=2, seed=3, delay=0).session
    _ = Translator("es")
    assert describe_play(_, session, 1, "10o", (), False) == "El ordenador deja la sota de oros en la mesa."
    assert describe_play(_, session, 1, "11o", (), False) == "El ordenador deja el caballo de oros en la mesa."


def test_the_end_of_a_deal_says_how_many_cards_are_left_and_who_takes_them():
    table = GameTable(players=2, seed=5, delay=0)
    s = table.session
    while s.phase == "play":
        s.play(s.game.legal_moves()[0])
    record = s.game.deals[-1]
    said = leftover_words(Translator("es"), s, record)
    left = len(record.leftover)
    assert left > 0  # under Escoba the leftover is never empty
    form = "queda 1 carta" if left == 1 else f"quedan {left} cartas"
    assert said.startswith(f"Fin de la mano: {form} en la mesa (")
    taker = ("te la llevas tú" if left == 1 else "te las llevas tú") if record.leftover_to == 0 else \
        ("El ordenador ha hecho la última baza y se lleva la carta que queda en la mesa." if left == 1 else
         f"El ordenador ha hecho la última baza y se lleva las {left} cartas que quedan en la mesa.")
    assert taker in said, said
    assert said in status(table)  # the status line says it at the deal's end
    en = leftover_words(Translator("en"), s, record)
    assert ("You made the last capture" if record.leftover_to == 0 else "The computer made the last capture") in en


def test_the_score_sheet_of_a_game_speaks_to_you():
    table = GameTable(players=2, seed=5, delay=0)
    s = table.session
    while s.phase == "play":
        s.play(s.game.legal_moves()[0])
    sheet = only(table, ScoreSheet)
    assert sheet.you == 0
    reasons = [row[-1] for row in sheet.model.rows(Translator("es"), sheet.names, sheet.you)]
    assert not any(r.startswith("Tú ") or " tú tiene" in r for r in reasons), reasons
    assert any(r.startswith(("tienes", "Ordenador tiene", "nadie", "un punto", "empate")) for r in reasons), reasons


def _inside(widget, kind):
    """Every widget of a type inside ``widget``, found through the public ``children`` of the boxes."""
    found = [widget] if isinstance(widget, kind) else []
    for child in getattr(widget, "children", ()):
        found += _inside(child, kind)
    return found


@pytest.mark.parametrize("lang, expected", [
    ("es", "Esas cartas de la mesa ya suman 15 solas, y tu carta también cuenta (con {card} suman {total}). "
           "Elige otra vez."),
    ("en", "Those table cards already add up to 15 on their own, and your card counts too (with {card} they make "
           "{total}). Choose again.")])
def test_table_cards_that_make_15_alone_are_refused_in_those_words(lang, expected):
    """The played card is part of the 15: choosing table cards that already make 15 without it is refused with
    that reason, not with a bare "these cards make 20" (the words of the capture drill)."""
    from itertools import combinations

    from escoba_tutor.widgets import CaptureTable
    from escoba_tutor.widgets.primitives import LiveRegion

    for seed in range(200):  # a position, at the student's turn, where some table cards make 15 on their own
        table = GameTable(players=2, seed=seed, delay=0, lang=lang)
        game = table.session.game
        alone = next((c for n in range(1, 5) for c in combinations(game.table, n) if sum(x.value for x in c) == 15),
                     None) if my_turn(table) else None
        if alone:
            break
    assert alone, "no seed gives a table with cards that make 15 on their own"
    card = game.hand(0)[0]
    before = game.state_key()
    captures = _inside(table, CaptureTable)[0]
    captures.model.built_card = card.code
    captures.model.built_taken = [c.code for c in alone]
    play = next(b for b in _inside(table, BUTTONS) if b.icon == "play")
    play.click()
    said = next(r for r in _inside(table, LiveRegion) if "15" in r.message).message
    _ = Translator(lang)
    wanted = expected.format(card=_.the_card(card), total=15 + card.value)
    assert said.startswith(wanted), said
    assert game.state_key() == before  # refused: nothing changed


def test_the_focus_has_a_place_to_go_in_every_phase():
    """When the control a student used goes away, the page moves the focus to the phase's next control (the
    PlaceKeeper's targets): the hand while playing, Next deal at a deal's end, the hand-over button, New game at
    the game's end (that each finds its control: tests/browser/test_game_phone_browser.py)."""
    table = GameTable(players=2, seed=5, delay=0)
    keeper = only(table, PlaceKeeper)
    s, rng = table.session, random.Random(5)
    assert keeper.scope == ".escoba-game-table" and keeper.status == ".escoba-game-status"
    assert keeper.targets[0].startswith(".escoba-ct-hand")
    while s.phase != "deal_over":
        play_a_row(table, rng)
    assert keeper.targets == [".escoba-next-deal"]
    assert is_shown(table, labelled(table, ES("Next deal"), w.Button))
    press(table, ES("Next deal"))
    assert keeper.targets[0].startswith(".escoba-ct-hand")
    table.session.new_game(2, "escoba+target=1", 5)
    while s.phase != "game_over":
        if s.phase == "deal_over":
            press(table, ES("Next deal"))
        else:
            play_a_row(table, rng)
    assert keeper.targets == [".escoba-new-game"]
    pass_and_play = GameTable(players=2, seed=3, mode="pass_and_play", delay=0)
    play_a_row(pass_and_play, random.Random(3))
    assert only(pass_and_play, PlaceKeeper).targets == [".escoba-handover"]


def test_play_takes_the_choice_the_page_shows_not_the_hidden_fields_it_holds_from_before():
    """A page behind its kernel may still hold the game's hidden Table and Hand fields as they were (an empty hand
    between two rounds): the click of Play carries them with the learner's choice, and only the choice counts."""
    table = GameTable(players=2, seed=5, delay=0)
    assert my_turn(table)
    picker, play = capture_list(table), labelled(table, ES("Play"), BUTTONS)
    row = picker.rows[0]
    hidden = [part for part in parts(captures_of(table)) if isinstance(part, w.Text)]
    assert hidden and not any(is_shown(table, part) for part in hidden)
    answers = {part.model_id: {"value": ""} for part in hidden}
    answers[picker.model_id] = {"selected": row["id"], "clicks": picker.clicks + 1}
    hand_before = len(table.session.game.hand(0))
    browser_sends(play, {"event": "click", "answers": answers})
    assert len(table.session.game.hand(0)) == hand_before - 1 or table.session.phase != "play", status(table)
    assert any(e.kind == "play" and e.player == 0 for e in table.session.game.history)


# A "you" label in a sentence written for a third person: «Tú se lleva», «tú tiene», «para tú», «Montón de ti»,
# «Gana tú»; "You has", "of you". The catalog's forms of "you" («tú», «de ti», «a ti») must never land there.
_THIRD_PERSON_YOU = {
    "es": re.compile(r"\b[Tt]ú (se |tiene|gana|hizo|juega|deja|reparte|está|hace)|[Pp]ara tú\b|\bde ti\b|\ba tú\b"
                     r"|[Gg]ana tú\b|\bdel? tú\b"),
    "en": re.compile(r"\b[Yy]ou (has|takes|wins|is|makes|plays|lays|deals|gets)\b|\bof you\b|\bto you\b"),
}


@pytest.mark.parametrize("lang, players", [("es", 2), ("es", 3), ("en", 2), ("en", 3)])
def test_whole_games_against_the_computer_never_put_you_in_a_third_person_sentence(lang, players):
    """A reader of the Spanish catalog: «you» is «tú», «of you» «de ti», «to you» «a ti»; if such a label ever
    reached «Gana {side:the}», «Escobas {side:of}» or «el punto es para {winner:the}», the screen would say «Gana
    tú», «Escobas de ti», «para tú». Whole games against the computer, every screen of them read: the student's
    own sentences («tienes», «Te llevas», "you have") are there, the broken ones never."""
    _ = Translator(lang)
    you_say = {"es": ("tienes", "Has ganado", "Te toca"), "en": ("you have", "You win", "Your turn")}[lang]
    seen_you: set[str] = set()
    for seed in (3, 8):
        table = GameTable(players=players, seed=seed, delay=0, lang=lang)
        s, rng = table.session, random.Random(seed)
        for _step in range(600):
            said = shown_text(table) + "\n" + status(table)
            found = _THIRD_PERSON_YOU[lang].search(said)
            assert found is None, (seed, found.group(0), said[max(0, found.start() - 200):found.end() + 100])
            seen_you |= {phrase for phrase in you_say if phrase.lower() in said.lower()}
            if s.phase == "game_over":
                break
            if s.phase == "deal_over":
                press(table, _("Next deal"))
            elif my_turn(table):
                play_a_row(table, rng)
        assert s.phase == "game_over", seed
    assert len(seen_you) >= 2, seen_you  # (the student's own sentences were on screen)


@pytest.mark.parametrize("lang, target, said", [
    ("en", 1, "Game to 1 point · deal 1 · "), ("en", 21, "Game to 21 points · deal 1 · "),
    ("es", 1, "Partida a 1 punto · mano 1 · "), ("es", 21, "Partida a 21 puntos · mano 1 · "),
])
def test_the_scoreboard_agrees_with_a_target_of_one(lang, target, said):
    """A teacher may set the target down to 1 point: the scoreboard's caption says "Game to 1 point", never
    "1 points", and counts the cards left to deal with their own plural."""
    from escoba_tutor.engine.rules import ESCOBA

    table = GameTable(players=2, rules=ESCOBA.replace(target=target), seed=4, delay=0, lang=lang)
    caption = re.search(r"<caption>(.*?)</caption>", html_with(table, "escoba-scores").value).group(1)
    assert caption.startswith(said), caption
    assert re.search(r"(cards left to deal|cartas por repartir|card left to deal|carta por repartir)$", caption)
