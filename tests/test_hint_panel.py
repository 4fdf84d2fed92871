"""The hint panel: the expert's ranking of a position, in words, from a lesson's cards or a game's view."""

import ipywidgets as w
import pytest
from escoba_test_helpers import status_line

from escoba_tutor import Game
from escoba_tutor.engine.cards import parse_cards
from escoba_tutor.engine.errors import EscobaError
from escoba_tutor.engine.game import Move
from escoba_tutor.players.expert import ExpertBot
from escoba_tutor.players.hints import REASON_CODES, Reason
from escoba_tutor.text.translator import Translator
from escoba_tutor.widgets.hint_panel import HintPanel, move_words, points_words, position_view, reason_words


def hints_html(panel: HintPanel) -> str:
    """The panel's table of moves (or why there is none), under its title."""
    (shown,) = [part.value for part in panel.children if isinstance(part, w.HTML) and "<h3" not in part.value]
    return shown

ES, EN = Translator("es"), Translator("en")


def test_the_moves_are_ranked_best_first_and_the_first_is_the_experts_move():
    panel = HintPanel(table="1o 7o 2c 2b", hand="3c 7e 12b")
    ranked = panel.model.hints
    assert [h.value for h in ranked] == sorted((h.value for h in ranked), reverse=True)
    assert ranked[0].loss == 0 and all(h.loss >= 0 for h in ranked)
    view = position_view("1o 7o 2c 2b", "3c 7e 12b")
    assert ranked[0].move == ExpertBot(seed=0).choose(view)
    assert {h.move for h in ranked} == set(view.legal_moves)


def test_an_escoba_is_explained_as_one_and_shown_in_both_languages():
    panel = HintPanel(table="1o 7o 2c 2b", hand="3c 7e 12b", lang="es")
    assert "Se lleva todas las cartas de la mesa: escoba" in hints_html(panel)
    assert "El tres de copas, que se lleva el as de oros" in hints_html(panel)
    panel.lang = "en"
    assert "It takes every card on the table: an escoba" in hints_html(panel)
    assert "The three of cups, taking the ace of coins" in hints_html(panel)


def test_the_same_position_always_gets_the_same_hints():
    first = HintPanel(table="5o 6c 3e 1b", hand="4c 11e 2o").model.hints
    again = HintPanel(table="5o 6c 3e 1b", hand="4c 11e 2o").model.hints
    assert first == again


def test_limit_shows_only_the_best_moves():
    panel = HintPanel(table="1o 7o 2c 2b", hand="3c 7e 12b", limit=2, lang="en")
    assert hints_html(panel).count("<tr") == 3  # the header and two moves
    assert len(panel.model.hints) > 2


@pytest.mark.parametrize("code", REASON_CODES)
def test_every_reason_code_has_its_own_words_in_both_languages(code):
    reason = Reason(code, parse_cards("7o 7c"), count=2, total=11, sweeper_value=4, unseen=3)
    es, en = reason_words(ES, reason), reason_words(EN, reason)
    assert es != en and code.replace("_", " ") not in (es, en)
    if code == "leaves_sweepable":
        assert tuple(n for n in ("11", "4", "3") if n in es and n in en) == ("11", "4", "3")


def test_moves_and_values_read_as_each_language_writes_them():
    assert move_words(ES, Move("12b")) == "el rey de bastos, que se queda en la mesa"
    # the article agrees with the card
    assert move_words(ES, Move("10c")) == "la sota de copas, que se queda en la mesa"
    assert move_words(EN, Move("3c", "1o 4b")) == "the three of cups, taking the ace of coins and the four of clubs"
    # what a move is worth, in words a student reads (not "+1,2" or "−0.5")
    assert points_words(ES, 1.25) in ("1,2 puntos más que el otro bando", "1,3 puntos más que el otro bando")
    assert points_words(EN, -0.5) == "0.5 points less than the other side"  # ("fewer": whole things, not averages)
    # one point: a whole number, in the singular ("1 point", never "1.0 points" nor "1 points")
    assert points_words(EN, 1.0) == "1 point more than the other side"
    assert points_words(EN, -1.04, sides=3) == "1 point less than the best of the other sides"
    assert points_words(ES, 0.01) == "los mismos puntos que el otro bando"
    # with three sides the value is against the best of the other two, and says so
    assert points_words(EN, 2.0, sides=3) == "2 points more than the best of the other sides"  # never "2.0"
    assert points_words(EN, 0.98) == "1 point more than the other side"
    assert points_words(ES, -1.0) == "1 punto menos que el otro bando"
    assert points_words(ES, -0.5, sides=3) == "0,5 puntos menos que el mejor de los demás bandos"


def test_a_game_of_three_compares_with_the_best_of_the_other_sides():
    game = Game(players=3, seed=11)
    rows = HintPanel(view=game.view(game.turn), lang="en").model.rows(EN)
    assert rows and all("the best of the other sides" in worth for _move, worth, _why in rows)
    two = Game(players=2, seed=11)
    assert all(worth.endswith("the other side")
               for _move, worth, _why in HintPanel(view=two.view(two.turn)).model.rows(EN))


def test_a_game_view_gives_the_hints_of_that_player_only():
    game = Game(players=2, seed=11)
    view = game.view(game.turn)
    panel = HintPanel(view=view)
    assert {h.move for h in panel.model.hints} == set(game.legal_moves())
    other = game.view(1 - game.turn)  # not their turn: nothing to judge, and nothing is made up
    panel.model.view = other
    assert panel.model.hints == [] and "ninguna jugada" in hints_html(panel)


@pytest.mark.parametrize("table, hand, seen, code", [
    ("1o 1o 4b 7o", "3c", "", "duplicate_card"),
    ("1o 4b 7o 5c", "3c 1o", "", "card_in_two_places"),
    ("1o 4b 7o", "3c 7e 12b", "", "bad_position"),         # 31 cards left: not whole rounds of 6
    ("1o 4b 7o 5c", "", "", "bad_hand_size"),
    ("1o 4b 7o 5c", "3c 9x", "", "bad_card"),
])
def test_a_bad_position_is_named_and_the_last_good_hints_stay(table, hand, seen, code):
    panel = HintPanel(table="1o 7o 2c 2b", hand="3c 7e 12b", lang="en")
    before = panel.model.hints
    panel.model.set_position(table=table, hand=hand, seen=seen)
    assert panel.model.error["code"] == code
    assert panel.model.hints == before
    assert status_line(panel).message.startswith("Check the input")
    panel.model.set_position(table="1o 7o 2c 2b", hand="3c 7e 12b", seen="")
    assert panel.model.error == {} and status_line(panel).message == ""


def test_cards_already_captured_make_a_later_moment_of_the_deal():
    view = position_view("5o 6c", "4c 11e 2o", seen="1o 2c 3e 4b 1c 2e 3b 4o")
    assert view.deck_left == 24 and view.pile_sizes == (4, 4)
    with pytest.raises(EscobaError, match="cannot be a moment"):
        position_view("5o 6c", "4c 11e 2o")


@pytest.mark.parametrize("seed", [2, 9, 31])
@pytest.mark.parametrize("rules", ["escoba", "escoba+capture_optional", "scopa"])
def test_a_position_from_cards_is_what_the_game_shows_at_that_moment(seed, rules):
    """The cards a lesson gives (hand, table, captured) make the same moves and the same knowledge as the game
    they come from, at each turn of its first deal with the same number of cards in both hands."""
    game = Game(players=2, rules=rules, seed=seed, dealer=1)
    checked = 0
    while game.deals == () and not game.is_over:
        turn = game.turn
        if turn == 0 and len(game.hand(0)) == len(game.hand(1)):
            real = game.view(0)
            built = position_view(game.table, game.hand(0), [c for pile in game.piles for c in pile], rules)
            assert set(built.legal_moves) == set(real.legal_moves) and built.legal_moves
            assert (built.seen, built.deck_left, built.hand_sizes, sum(built.pile_sizes)) == (
                real.seen, real.deck_left, real.hand_sizes, sum(real.pile_sizes))
            assert set(built.hand) == set(real.hand) and built.my_turn
            checked += 1
        game.play(game.legal_moves()[0])
    assert checked >= 3


def test_set_position_refuses_an_unknown_input():
    panel = HintPanel(table="1o 7o 2c 2b", hand="3c 7e 12b")
    with pytest.raises(TypeError, match="table_cards"):
        panel.model.set_position(table_cards="1o")


def test_the_reasons_say_what_a_number_means():
    # not «deja 36 en la mesa»: what the 36 is, and what follows from it
    said = reason_words(ES, Reason("leaves_unsweepable", parse_cards("12c 12e 11o 7b"), total=36))
    assert said == ("después, la mesa suma 36: ninguna de las cartas que faltan por salir se la puede llevar entera, "
                    "así que el siguiente jugador no puede hacer escoba")
    one = reason_words(EN, Reason("leaves_sweepable", parse_cards("3c 4b"), total=7, sweeper_value=8, unseen=1))
    assert one.endswith("a card worth 8 would take it all (an escoba), and 1 card like that is still unseen")
    # the counts agree in number, through the catalogs' plural forms
    assert reason_words(ES, Reason("takes_oros", parse_cards("1o"), count=1)) == "se lleva un oro (el as de oros)"
    assert reason_words(ES, Reason("takes_oros", parse_cards("1o 2o"), count=2)) == \
        "se lleva 2 oros (el as de oros y el dos de oros)"


def test_the_last_play_of_a_deal_says_who_takes_what_it_leaves():
    """«nadie puede llevarse lo que deja» was false: the cards left go to the last side that captured."""
    from escoba_tutor.players.hints import Reason
    from escoba_tutor.text.translator import Translator
    from escoba_tutor.widgets.hint_panel import reason_words

    said = reason_words(Translator("es"), Reason("lays_card", total=12))
    assert "nadie puede hacer baza con lo que deja" in said and "último bando que hizo baza" in said
    assert "the last side that captured" in reason_words(Translator("en"), Reason("lays_card", total=12))


@pytest.mark.parametrize("game", ["escoba", "scopa"])
@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_sure_point_is_sure_only_without_the_renuncio_house_rule(lang, game):
    """A sweep and the seven of coins are "one sure point" under the default rules; with the renuncio house rule a
    side that makes one scores nothing in that deal, so the point is said to be the side's only if it makes none."""
    from escoba_tutor.engine.rules import rules_by_name

    _ = Translator(lang)
    sure = {"es": "un punto seguro", "en": "one sure point"}[lang]
    unless = {"es": "un punto si tu bando no hace renuncio en esta mano",
              "en": "one point if your side makes no renuncio in this deal"}[lang]
    for code, cards in (("escoba", "7o 10c"), ("takes_siete_de_oros", "10c 7o")):
        reason = Reason(code, parse_cards(cards), count=2)
        plain = reason_words(_, reason, rules_by_name(game))
        penalised = reason_words(_, reason, rules_by_name(f"{game}+renuncio"))
        assert plain.endswith(sure) and unless not in plain, plain
        assert penalised.endswith(unless) and sure not in penalised, penalised
        assert penalised.removesuffix(unless) == plain.removesuffix(sure)  # the rest, the sweep's word, unchanged


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_strategy_key_s_seven_of_coins_is_sure_only_without_the_renuncio_house_rule(lang):
    """The strategy key's reason for taking the seven of coins, as the hints say it: a sure point, but with the
    renuncio house rule a point only if the side makes no renuncio."""
    from escoba_tutor.engine.rules import rules_by_name
    from escoba_tutor.exercises.kinds.strategy import _move_reason

    _ = Translator(lang)
    reason = Reason("takes_siete_de_oros", parse_cards("10c 7o"), count=2)
    assert _move_reason(_, reason, rules_by_name("escoba")) == {
        "es": "el siete de oros es un punto seguro", "en": "the seven of coins is one sure point"}[lang]
    assert _move_reason(_, reason, rules_by_name("escoba+renuncio")) == {
        "es": "el siete de oros es un punto si tu bando no hace renuncio en esta mano",
        "en": "the seven of coins is one point if your side makes no renuncio in this deal"}[lang]
