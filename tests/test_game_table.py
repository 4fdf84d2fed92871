"""GameTable and GameSession driven in the kernel, clicking as a student would (no browser)."""

from __future__ import annotations

import base64
import random
import re

import ipywidgets as w
import pytest

from escoba_tutor import Game
from escoba_tutor.engine.save import MAX_UPLOAD_BYTES
from escoba_tutor.text.phrases import sentence_start
from escoba_tutor.text.translator import Translator
from escoba_tutor.widgets.game_table import GameTable, describe_play, leftover_words
from escoba_tutor.widgets.session import GameSession


def my_turn(table: GameTable) -> bool:
    s = table.session
    return s.phase == "play" and s.game.turn == s.viewer


def play_a_row(table: GameTable, rng: random.Random) -> None:
    table._captures._picker.selected = rng.choice(table._captures._picker.rows)["id"]
    table._play.click()


def test_the_computer_plays_until_it_is_your_turn_and_says_what_it_did():
    table = GameTable(players=2, seed=11, delay=0)
    s = table.session
    assert my_turn(table) or s.phase == "deal_over"
    if any(e.kind == "play" for e in s.game.history):
        assert "Ordenador:" in table._announce.message
    assert "Te toca." in table._announce.message
    assert table._captures._hand_row.cards == [c.code for c in s.game.hand(0)]
    # The other hand is face down: its cards appear nowhere on the screen's card rows.
    other = table._other_rows[0]
    assert other.cards == [] and other.face_down == len(s.game.hand(1))


def test_a_whole_game_played_by_clicking_rows():
    table = GameTable(players=2, seed=5, delay=0)
    s, rng = table.session, random.Random(5)
    for _ in range(1000):
        if s.phase == "game_over":
            break
        if s.phase == "deal_over":
            assert table._sheet_box.children, "the score sheet is shown at the deal's end"
            table._next_deal.click()
        elif my_turn(table):
            play_a_row(table, rng)
    assert s.phase == "game_over" and s.game.winner is not None
    said = " ".join(getattr(child, "value", "") for child in table._sheet_box.children)  # "¡Has ganado…!"
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
    table._captures._hand_row.selected = [card.code]  # lay it down without taking anything
    table._play.click()
    assert "puede hacer baza, así que debe hacerla" in table._announce.message
    assert "Elige otra vez" in table._announce.message
    assert game.state_key() == before


def test_undo_takes_back_your_move_and_the_computers_reply():
    table = GameTable(players=2, seed=8, delay=0)
    s, rng = table.session, random.Random(1)
    assert table._undo.disabled
    before = s.game.state_key()
    play_a_row(table, rng)
    assert not table._undo.disabled
    table._undo.click()
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
    table._cancel_timer()


def test_pass_and_play_hides_each_hand_until_the_student_takes_over():
    table = GameTable(players=2, seed=3, mode="pass_and_play", delay=0)
    s, rng = table.session, random.Random(3)
    first = s.viewer
    assert s.phase == "play" and s.game.turn == first
    play_a_row(table, rng)
    assert s.phase == "handover"
    assert table._captures._hand_row.cards == [] and table._board.layout.display == "none"
    assert "Pasa la pantalla a Jugador" in table._announce.message
    table._handover.click()
    assert s.viewer == 1 - first and table._captures._hand_row.cards == [c.code for c in s.game.hand(s.viewer)]


@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_players(players):
    table = GameTable(players=players, seed=9, delay=0, lang="en")
    s = table.session
    assert len(table._other_rows) == players - 1
    if players == 4:
        assert "Your team" in table._scores.value and "The computer&#x27;s team" in table._scores.value
        assert any("Your partner" in row.group_label for row in table._other_rows)
    rng = random.Random(players)
    for _ in range(12):
        if my_turn(table):
            play_a_row(table, rng)
        elif s.phase == "deal_over":
            table._next_deal.click()
    assert len([e for e in s.game.history if e.kind == "play"]) >= 12


def test_save_file_and_resume_code_bring_back_the_same_game():
    table = GameTable(players=2, seed=6, delay=0)
    s, rng = table.session, random.Random(6)
    for _ in range(5):
        play_a_row(table, rng)
    link = table._saving._download.value
    data = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)", link).group(1))
    code = re.search(r"<code class='escoba-code'>([^<]+)</code>", table._saving._current.value).group(1)
    expected = s.game.state_key()

    other = GameTable(players=3, seed=1, delay=0)
    other._saving._code.value = code
    other._saving._resume.click()
    assert other.session.game.state_key() == expected

    third = GameTable(players=2, seed=2, delay=0)
    send_file(third, data)
    assert third.session.game.state_key() == expected
    assert Game.from_json(data).state_key() == expected


def send_file(table: GameTable, data: bytes) -> None:
    """A file chosen with "Load a game", as the page sends it (the comm message's content and one buffer)."""
    table._saving._upload._handle_custom_msg({"event": "file", "name": "escoba-game.json"}, [memoryview(data)])


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_file_too_big_to_be_a_save_is_refused_and_the_game_stays(lang):
    """The page sends no file over the limit; should one arrive all the same, it is refused in the same words."""
    table = GameTable(players=2, seed=6, delay=0, lang=lang)
    picker = table._saving._upload
    assert picker.max_bytes == MAX_UPLOAD_BYTES
    said = picker.too_large
    assert str(MAX_UPLOAD_BYTES // 1024) in said and "escoba-tutor" in said
    before = table.session.game.state_key()
    send_file(table, b"{" + b" " * MAX_UPLOAD_BYTES + b"}")
    assert table.session.game.state_key() == before
    assert table.session.problem.code == "save_too_large"
    told = table._announce.message
    assert told and said.startswith(told)  # the kernel's words, then the page's note of the limit


@pytest.mark.parametrize("text, expected", [("NOT-A-CODE", "no cuadra"), ("", "está vacío"),
                                            ("{\"format\": 1}", "no es una partida guardada")])
def test_a_bad_resume_code_or_file_is_explained_and_changes_nothing(text, expected):
    table = GameTable(players=2, seed=6, delay=0)
    before = table.session.game.state_key()
    table._saving._code.value = text
    table._saving._resume.click()
    assert expected in table._announce.message
    assert table.session.game.state_key() == before


def test_new_game_with_other_rules_and_players():
    table = GameTable(players=2, seed=6, delay=0)
    table._setup._players.value = 3
    table._setup._rules.value = "scopa"
    table._setup._new.click()
    s = table.session
    assert s.players == 3 and s.rules.profile == "scopa" and s.mode == "computer"
    assert "scopa" in table._title.value


def test_the_language_switch_redraws_everything():
    table = GameTable(players=2, seed=6, delay=0)
    table.lang = "en"
    assert table._play.description == "Play" and "Your turn." in table._announce.message
    table.lang = "es"
    assert table._play.description == "Jugar"


def test_the_deal_review_steps_through_the_plays():
    table = GameTable(players=2, seed=5, delay=0)
    s, rng = table.session, random.Random(2)
    while s.phase != "deal_over":
        if my_turn(table):
            play_a_row(table, rng)
    review = table._review
    review._open.value = True
    assert review._back.disabled and "Jugada 1 de 36" in review._text.value
    review._forward.click()
    assert "Jugada 2 de 36" in review._text.value
    for _ in range(40):
        review._forward.click()
    assert "Fin de la mano" in review._text.value and review._forward.disabled


def test_session_refuses_bad_modes_and_languages():
    with pytest.raises(Exception, match="mode"):
        GameSession(mode="online")
    with pytest.raises(Exception, match="choose es"):
        GameSession(lang="fr")


def test_the_computer_level_can_be_chosen():
    table = GameTable(players=2, seed=6, delay=0)
    assert [label for label, _value in table._setup._level.options] == ["fácil", "medio", "difícil"]
    table._setup._level.value = "greedy"
    table._setup._new.click()
    assert table.session.level == "greedy"
    assert all(type(bot).__name__ == "GreedyBot" for bot in table.session._bots.values())


# ------------------------------------------------------------------------ double clicks and the computer's turn
def human_plays(table: GameTable) -> int:
    return sum(1 for e in table.session.game.history if e.kind == "play" and e.player in table.session.humans)


def browser_sets(widget, **state) -> None:
    """A state change arriving from the browser, as ipywidgets delivers it."""
    widget._handle_msg({"content": {"data": {"method": "update", "state": state, "buffer_paths": []}},
                        "buffers": []})


def browser_double_clicks(picker, row_id: str, revision: int) -> None:
    """What a double click on a row sends: the choice, then the activation (made on the rows of ``revision``)."""
    browser_sets(picker, selected=row_id)
    picker._handle_msg({"content": {"data": {"method": "custom", "content": {
        "event": "activate", "id": row_id, "revision": revision}}}, "buffers": []})


def test_a_double_click_on_a_capture_only_chooses_it_and_play_plays_it_once():
    table = GameTable(players=2, seed=5, delay=0)
    picker = table._captures._picker
    assert my_turn(table)
    before, row_id, revision = human_plays(table), picker.rows[0]["id"], picker.revision
    browser_double_clicks(picker, row_id, revision)
    assert human_plays(table) == before, "a double click (or tap) is not a move: Play is"
    assert picker.selected == row_id
    table._play.click()
    assert human_plays(table) == before + 1
    assert my_turn(table), "the computer answered at once (delay=0): a second play would be possible"
    browser_double_clicks(picker, row_id, revision)  # the same messages again, as a flaky network may deliver
    table._play.click()  # and the Play button's second click of a double click: the chosen capture is gone
    assert human_plays(table) == before + 1
    assert "Elige una baza" in table._announce.message and "Te toca." in table._announce.message


def test_a_double_click_on_undo_takes_back_one_move():
    table = GameTable(players=2, seed=8, delay=0)
    rng = random.Random(1)
    play_a_row(table, rng)
    after_one = table.session.game.state_key()
    play_a_row(table, rng)
    assert human_plays(table) == 2
    table._undo.click()
    table._undo.click()  # the second click of a double click
    assert human_plays(table) == 1 and table.session.game.state_key() == after_one


def test_play_clicked_twice_plays_once():
    table = GameTable(players=2, seed=7, delay=0)
    picker = table._captures._picker
    before = human_plays(table)
    browser_sets(picker, selected=picker.rows[-1]["id"])
    table._play.click()
    table._play.click()
    assert human_plays(table) == before + 1


def test_clicks_during_the_computers_turn_are_ignored_with_a_visible_reason():
    table = GameTable(players=2, seed=4, delay=10)  # paced: the computer waits 10 s before each play
    s, picker = table.session, table._captures._picker
    try:
        if s.game.turn == 0:
            browser_sets(picker, selected=picker.rows[0]["id"])
            table._play.click()
        assert s.computer_to_move
        before = s.game.state_key()
        assert not table._play.disabled, "Play stays clickable, so a click can say why it does nothing"
        browser_sets(picker, selected=picker.rows[0]["id"])
        table._play.click()
        assert table._announce.message.startswith("Espera: juega el ordenador.")
        assert "El ordenador está pensando" in table._announce.message  # what was said before stays readable
        browser_double_clicks(picker, picker.rows[0]["id"], picker.revision)
        assert table._announce.message.startswith("Espera: juega el ordenador.")
        assert s.game.state_key() == before and s.computer_to_move
        table.lang = "en"
        table._play.click()
        assert table._announce.message.startswith("Wait: the computer is playing.")
    finally:
        table._cancel_timer()


def test_a_refused_play_names_the_cards_in_words():
    table = GameTable(players=2, seed=2, delay=0)
    for seed in range(100):  # a position where a hand card could capture
        game = table.session.game
        if my_turn(table) and any(game.captures_for(c) for c in game.hand(0)):
            break
        table = GameTable(players=2, seed=seed, delay=0)
    game = table.session.game
    card = next(c for c in game.hand(0) if game.captures_for(c))
    table._captures._hand_row.selected = [card.code]
    table._play.click()
    said = table._announce.message
    assert said.startswith(sentence_start(Translator("es").the_card(card)) + " puede hacer baza"), said
    assert not re.search(r"\b(1[0-2]|[1-7])[oceb]\b", said), said  # no card codes in the sentence


def test_in_a_game_the_table_of_captures_has_no_check_or_clear_buttons():
    table = GameTable(players=2, seed=5, delay=0)
    assert table._captures._controls.layout.display == "none"
    assert table._captures._status.layout.display == "none"  # one status line: the game's
    assert table._announce.sticky


# ------------------------------------------------------------------------------------------- hints (issue 7)
def _my_turn_table(**kwargs):
    table = GameTable(players=2, seed=3, delay=0, **kwargs)
    assert table.session.phase == "play" and table.session.game.turn == table.session.viewer
    return table


def test_the_hint_button_ranks_the_students_own_moves_and_goes_away_after_the_play():
    table = _my_turn_table(lang="en")
    assert table._hint.layout.display == "none"
    table._hint.button.value = True
    panel = table._hint._panel
    assert table._hint.layout.display == "flex"
    game = table.session.game
    assert {h.move for h in panel.model.hints} == set(game.legal_moves())
    assert panel.model.view.hand == game.hand(table.session.viewer)  # the student's own view, nothing else
    best = panel.model.hints[0].move
    table.session.play(best)
    assert table._hint.button.value is False and table._hint.layout.display == "none"


def test_the_level_chooser_offers_the_expert_and_a_new_game_uses_it():
    table = _my_turn_table(lang="es")
    labels = dict((value, label) for label, value in table._setup._level.options)
    assert labels == {"random": "fácil", "greedy": "medio", "expert": "difícil"}
    table._setup._level.value = "expert"
    table._setup._start()
    assert table.session.level == "expert"
    assert {type(bot).__name__ for bot in table.session._bots.values()} == {"ExpertBot"}


def test_after_a_deal_the_expert_names_the_costliest_play():
    table = GameTable(players=2, seed=5, delay=0, lang="en")
    s = table.session
    while s.phase == "play":  # the student plays their worst move each time: there is a costly one to find
        s.play(s.game.legal_moves()[-1])
    assert s.phase == "deal_over" and table._expert_review.layout.display == "flex"
    assert table._expert_review._text.value == ""
    table._expert_review._ask.click()
    text = table._expert_review._text.value
    assert "Your costliest play in this deal was play" in text or "as good as the expert" in text
    s.next_deal()
    assert table._expert_review._text.value == "" and table._expert_review.layout.display == "none"


# ------------------------------------------------------------------ one deliberate action; the level; the deal's end
def test_a_new_game_asks_first_when_a_game_is_under_way():
    table = GameTable(players=2, seed=8, delay=0)
    setup = table._setup
    setup._new.click()  # nothing played yet: nothing to lose, a new game at once
    assert setup._confirm.layout.display == "none"
    play_a_row(table, random.Random(1))
    game = table.session.game
    setup._new.click()
    setup._new.click()  # a double click: asks, and asks again, nothing more
    assert table.session.game is game and setup._confirm.layout.display == "flex"
    assert "¿Empezar una partida nueva?" in setup._ask.value
    setup._no.click()
    assert table.session.game is game and setup._confirm.layout.display == "none"
    setup._new.click()
    setup._yes.click()
    assert table.session.game is not game and human_plays(table) == 0


def test_the_level_applies_at_once_and_the_chooser_shows_the_level_played():
    table = GameTable(players=2, seed=8, delay=0)
    play_a_row(table, random.Random(1))
    game = table.session.game
    table._setup._level.value = "expert"
    assert table.session.game is game, "choosing a level keeps the game"
    assert table.session.level == "expert"
    assert {type(bot).__name__ for bot in table.session._bots.values()} == {"ExpertBot"}
    assert "«difícil»" in table._announce.message
    table.lang = "en"  # a redraw with new labels keeps the level
    assert table._setup._level.value == "expert" and table.session.level == "expert"


def test_players_and_rules_say_they_apply_with_a_new_game():
    table = GameTable(players=2, seed=8, delay=0)
    assert table._setup._note.layout.display == "none"
    table._setup._players.value = 3
    assert "cambian al pulsar «Partida nueva»" in table._setup._note.value
    table._setup._players.value = 2
    assert table._setup._note.layout.display == "none"


def test_the_finished_deal_stays_on_screen_and_undo_stays_inside_the_next_one():
    table = GameTable(players=2, seed=5, delay=0)
    s, rng = table.session, random.Random(2)
    while s.phase != "deal_over":
        play_a_row(table, rng)
    record = s.game.deals[0]
    assert table._position.table == " ".join(c.code for c in record.tables()[-1])
    assert table._position.hand == ""
    assert table._undo.disabled and "Pulsa «Siguiente mano»" in table._announce.message
    assert "mano 1" in table._scores.value
    before = s.game.state_key()
    table._undo.click()  # a late click: the finished deal stays as it ended
    assert s.game.state_key() == before and s.phase == "deal_over"
    table._next_deal.click()
    assert "mano 2" in table._scores.value
    assert table._undo.disabled, "no move of the learner in this deal yet: nothing to take back"
    assert table._position.hand == " ".join(c.code for c in s.game.hand(0))


def test_a_kept_game_is_offered_after_a_reload_with_its_level():
    played = GameTable(players=2, seed=8, delay=0, level="greedy")
    play_a_row(played, random.Random(1))
    kept = played._memory.entry
    assert kept["level"] == "greedy" and kept["code"] == played.session.resume_code()
    fresh = GameTable(players=2, seed=9, delay=0)  # the page after a reload: a new kernel, a new game
    assert fresh._offer.layout.display == "none" and fresh._memory.entry == {}
    fresh._memory.found = kept  # what the browser reports it kept
    assert fresh._offer.layout.display == "flex" and "¿Continuar tu partida?" in fresh._offer._text.value
    fresh._offer._yes.click()
    assert fresh.session.game.state_key() == played.session.game.state_key()
    assert fresh.session.level == "greedy" and fresh._setup._level.value == "greedy"
    assert fresh._offer.layout.display == "none"


def test_a_spoiled_kept_code_offers_nothing():
    fresh = GameTable(players=2, seed=9, delay=0)
    fresh._memory.found = {"code": "NOT-A-CODE", "level": "expert"}
    assert fresh._offer.layout.display == "none"
    fresh._memory.found = {"code": ["odd"]}  # anything from the browser: dropped without an error
    assert fresh._memory.found == {}


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
        ("El ordenador ha hecho la última baza, así que se la" if left == 1 else
         "El ordenador ha hecho la última baza, así que se las")
    assert taker in said, said
    assert said in table._announce.message  # the status line says it at the deal's end
    en = leftover_words(Translator("en"), s, record)
    assert ("You made the last capture" if record.leftover_to == 0 else "The computer made the last capture") in en


def test_the_score_sheet_of_a_game_speaks_to_you():
    table = GameTable(players=2, seed=5, delay=0)
    s = table.session
    while s.phase == "play":
        s.play(s.game.legal_moves()[0])
    sheet = next(child for child in table._sheet_box.children if type(child).__name__ == "ScoreSheet")
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
    ("es", "La mesa ya suma 15 sola: tu carta también cuenta (con {card} suma {total}). Elige otra vez."),
    ("en", "The table already adds up to 15 on its own: your card counts too (with {card} it makes {total}). "
           "Choose again.")])
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
    play = next(b for b in _inside(table, w.Button) if b.icon == "play")
    play.click()
    said = next(r for r in _inside(table, LiveRegion) if "15" in r.message).message
    _ = Translator(lang)
    wanted = expected.format(card=_.the_card(card), total=15 + card.value)
    assert said.startswith(wanted), said
    assert game.state_key() == before  # refused: nothing changed
