"""The drills of the leftover, the escoba de mano, strategy, the escobas line and the end of a game: each seeded
(the same seed, the same exercise, in another process too), each judged with the mistake named (one test per
named mistake), hostile answers refused with a clear error, and each driven in its widget (no browser).

Reference values are worked out here from docs/rules.md with the helpers of tests/conftest.py (card codes and the
capture values of docs/rules.md §1), not with the engine's own sums.
"""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys

import pytest
from babel.messages.pofile import read_po
from escoba_test_helpers import value
from hypothesis import given
from hypothesis import strategies as st

from escoba_tutor import DECK, EscobaError, Game, parse_cards
from escoba_tutor.engine.captures import check_capture
from escoba_tutor.engine.errors import WrongSumError
from escoba_tutor.exercises import (
    MAX_SEED,
    NOBODY,
    STRATEGY_TOLERANCE,
    escoba_de_mano_drill,
    escobas_drill,
    game_end_drill,
    kind_names,
    kinds_for,
    leftover_drill,
    make_drill,
    strategy_drill,
)
from escoba_tutor.text import translator
from escoba_tutor.text.translator import Translator
from escoba_tutor.widgets import Drill

NEW = ("leftover", "escoba_de_mano", "strategy", "escobas", "game_end")
seeds = st.integers(min_value=0, max_value=MAX_SEED)


# ============================================================================================ seeds and kinds
@pytest.mark.parametrize("kind", NEW)
def test_a_seed_always_gives_the_same_exercise(kind):
    for seed in (0, 1, 17, 12345, MAX_SEED):
        assert make_drill(kind, seed) == make_drill(kind, seed)
    assert len({str(make_drill(kind, seed)) for seed in range(15)}) >= 5  # and seeds differ


def test_another_process_gets_the_same_exercises():
    script = "from escoba_tutor.exercises import make_drill\n" + "\n".join(
        f"print(make_drill({kind!r}, 9))" for kind in NEW)
    here = "".join(f"{make_drill(kind, 9)}\n" for kind in NEW)
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
        assert done.stdout == here


def test_the_kinds_under_each_rules():
    assert kinds_for("escoba") == kind_names()
    assert "escoba_de_mano" not in kinds_for("scopa") and "leftover" in kinds_for("scopa")
    with pytest.raises(EscobaError, match="no escoba de mano") as refused:
        escoba_de_mano_drill(0, "scopa")
    assert refused.value.code == "no_escoba_de_mano"


@pytest.mark.parametrize("kind", NEW)
@pytest.mark.parametrize("seed", [-1, 1.5, True, "3", MAX_SEED + 1, None])
def test_bad_seeds_are_refused(kind, seed):
    with pytest.raises(EscobaError) as refused:
        make_drill(kind, seed)
    assert refused.value.code == "bad_seed"


# ====================================================================== the played card is part of the 15
def test_a_capture_whose_table_cards_make_15_alone_is_named():
    check = check_capture("3o", "12c 5e", "12c 5e 2b")  # rey (10) + 5 = 15 already: with the 3 it is 18
    assert (check.ok, check.reason, check.total) == (False, "table_alone_15", 18)
    assert check_capture("3o", "5e 2b", "12c 5e 2b").reason == "wrong_sum"  # 3 + 5 + 2 = 10: another slip
    assert check_capture("3o", "12c 2b", "12c 5e 2b").ok  # 3 + 10 + 2 = 15
    # Scopa judges by the card's own value: there the slip does not exist
    assert check_capture("5o", "12c 5e", "12c 5e", "scopa").reason != "table_alone_15"


def test_the_game_names_it_too():
    hands, table = [parse_cards("3o 4c 6e"), parse_cards("1c 2c 3c")], parse_cards("12c 5e 2b")
    rest = [c for c in DECK if c not in table and not any(c in hand for hand in hands)]
    game = Game.at_position(2, "escoba", dealer=1, turn=0, hands=hands, table=table, deck=rest[1:],
                            piles=[rest[:1], []])  # 30 cards left: whole rounds of 3 to each
    with pytest.raises(WrongSumError) as refused:
        game.play("3o", "12c 5e")
    assert refused.value.params["slip"] == "table_alone_15"
    with pytest.raises(WrongSumError) as refused:
        game.play("4c", "12c 2b")
    assert "slip" not in refused.value.params


def test_the_capture_drill_says_the_table_already_makes_15():
    widget = Drill("captures", seed=36, lang="es")  # 5o on 6o 12c 10b 11b 2e: 11b + 6o = 9 + 6 = 15 alone
    widget.view.table_row.selected = ["6o", "11b"]
    widget.view.add_button.click()
    widget.check_button.click()
    lines = widget.status.message.split("\n")
    assert ("Mal: el seis de oros y el caballo de bastos ya suman 15 sin tu carta, que también cuenta (con el "
            "cinco de oros suman 20).") in lines
    row = next(r for r in widget.view.captures_list.rows if r["id"] == "6o+11b")
    assert row["cells"][2].startswith("mal: esas cartas de la mesa ya suman 15 solas, y tu carta también cuenta")
    widget.lang = "en"
    assert ("Wrong: the six of coins and the knight of clubs already add up to 15 on their own, and your card "
            "counts too (with the five of coins they make 20).") in widget.status.message


# ================================================================================================== leftover
def test_leftover_positions_come_from_real_deals_and_check_out_unless_miscounted():
    miscounted = laid_last = 0
    for seed in range(60):
        drill = leftover_drill(seed)
        record = drill.record
        assert drill.taker == record.leftover_to
        total = sum(value(c.code) for c in drill.table)
        assert drill.total == total
        assert drill.checks_out == (total % 15 == 10)
        if drill.checks_out:
            assert drill.table == tuple(sorted(record.leftover))
        else:  # one card swapped for a card of another value, never one shown in the plays
            miscounted += 1
            assert len(drill.table) == len(record.leftover) and len(set(drill.table) - set(record.leftover)) == 1
        assert drill.plays == tuple(drill.plays) and drill.plays[-1][1] == record.plays[-1].move.card
        assert any(taken for _side, _card, taken in drill.plays) or drill.taker is None
        laid_last += not drill.plays[-1][2]
    assert 5 <= miscounted <= 30 and 15 <= laid_last <= 45


@pytest.mark.parametrize("rules", ["escoba", "scopa"])
def test_leftover_plays_shown_and_cards_left_agree(rules):
    """What the student reads must hold together for every seed: a card laid down in the plays shown and not
    taken by a later play shown is among the cards left; a card taken or played to capture is not; and a deal
    that does not check out hides its mistake before the plays shown, never in them."""
    for seed in range(300):
        drill = leftover_drill(seed, rules)
        laid: set = set()
        gone: set = set()
        for _side, card, taken in drill.plays:
            if taken:
                laid -= set(taken)
                gone |= {card, *taken}
            else:
                laid.add(card)
        assert laid <= set(drill.table), (seed, sorted(laid - set(drill.table)))
        assert not gone & set(drill.table), (seed, sorted(gone & set(drill.table)))
        if drill.checks_out is False:
            swapped_in = set(drill.table) - set(drill.record.leftover)
            assert len(swapped_in) == 1 and not swapped_in & (laid | gone)


@pytest.mark.parametrize("rules", ["escoba", "scopa", "escoba+no_last_play_escoba"])
def test_leftover_plays_shown_name_the_sweeps_the_game_scored(rules):
    """A capture shown that emptied the table is said as the game says it («…: ¡escoba!»): the drill's reading of
    the plays and the cards left finds exactly the escobas the engine scored (none for a last play that swept, where
    the rules do not count it)."""
    found = 0
    for seed in range(120):
        drill = leftover_drill(seed, rules)
        shown = drill.record.plays[-len(drill.plays):]
        assert [play.move.card for play in shown] == [card for _side, card, _taken in drill.plays]
        assert list(drill.sweeps) == [play.escoba for play in shown], seed
        found += sum(drill.sweeps)
    assert found >= 5


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_leftover_drill_and_worksheet_say_escoba(lang):
    from escoba_test_helpers import shown_text

    from escoba_tutor.exercises.worksheet import worksheet_html
    from escoba_tutor.widgets.drills import Drill

    cry = {"es": ": ¡escoba!", "en": ": escoba!"}[lang]
    seed = next(s for s in range(60) if any(leftover_drill(s).sweeps))
    assert cry in shown_text(Drill("leftover", seed=seed, lang=lang))
    # the sheet 1289's exercise 1290: the jack of coins took the seven of coins and left the table empty
    assert html.unescape(cry) in html.unescape(worksheet_html(1289, lang=lang, kinds=("leftover",)))


def test_leftover_right_answers():
    drill = leftover_drill(0)  # the king of clubs left, laid last by side 0; side 1 captured last
    assert (drill.taker, drill.total, drill.checks_out) == (1, 10, True)
    assert all(a.ok and a.mistake == "" for a in drill.check(1, 10, True))


@pytest.mark.parametrize("answers, item, mistake", [
    ((0, 10, True), "taker", "last_to_play"),      # side 1 played last, laying the 6 down
    ((NOBODY, 10, True), "taker", "somebody_captured"),
    ((1, 12, True), "total", "figure_printed"),    # the king counted as 12
    ((1, 11, True), "total", "wrong_total"),
    ((1, 10, False), "checks_out", "checks_out"),
    ((None, None, None), "taker", "unanswered"),
])
def test_leftover_mistakes_are_named(answers, item, mistake):
    drill = leftover_drill(0)
    assert drill.last_player_side == 0
    judged = {a.item: a for a in drill.check(*answers)}
    assert not judged[item].ok and judged[item].mistake == mistake


def test_a_deal_that_does_not_check_out_is_named():
    drill = next(leftover_drill(s) for s in range(40) if leftover_drill(s).checks_out is False)
    assert drill.total % 15 != 10
    answer = {a.item: a for a in drill.check(drill.taker if drill.taker is not None else NOBODY, drill.total, True)}
    assert answer["checks_out"].mistake == "does_not_check_out"


def test_leftover_under_scopa_asks_only_who():
    drill = leftover_drill(1, "scopa")
    assert drill.items == ("taker",) and drill.total is None and drill.checks_out is None
    assert [a.item for a in drill.check(drill.taker if drill.taker is not None else NOBODY)] == ["taker"]


@pytest.mark.parametrize("answers", [(5, None, None), ("0", None, None), (0, -1, None), (0, 2.5, None),
                                     (0, 10, "yes"), (0, 10**6, None)])
def test_leftover_hostile_answers_are_refused(answers):
    with pytest.raises(EscobaError) as refused:
        leftover_drill(0).check(*answers)
    assert refused.value.code == "bad_answer"


# ============================================================================================ escoba de mano
def test_escoba_de_mano_tables():
    counts = {0: 0, 1: 0, 2: 0}
    for seed in range(80):
        drill = escoba_de_mano_drill(seed)
        total = sum(value(c.code) for c in drill.table)
        expected = {15: 1, 30: 2}.get(total, 0)
        assert len(drill.table) == 4 and drill.escobas == expected and drill.total == total
        assert drill.side == (drill.dealer % 2 if expected else None)
        counts[expected] += 1
    assert all(n >= 8 for n in counts.values()), counts
    twenty = [escoba_de_mano_drill(s, "escoba+escoba_de_mano_15_20") for s in range(40)]
    assert any(d.total == 20 and d.escobas == 2 for d in twenty) and not any(d.total == 30 and d.escobas for d in
                                                                              twenty)


@pytest.mark.parametrize("seed, answers, item, mistake", [
    (3, (1, 1), None, ""),                        # 2 + 6 + 1 + 6 = 15, dealt by side 2 (index 1)
    (3, (0, NOBODY), "escobas", "missed"),
    (3, (2, 1), "escobas", "two_not_one"),
    (3, (1, 0), "side", "dealer_scores"),
    (3, (1, NOBODY), "side", "somebody_scores"),
    (2, (1, 0), "escobas", "figure_printed"),     # 2 + sota + 1 + 2 = 13; 15 with the sota as 10
    (2, (0, 0), "side", "nobody_scores"),
    (0, (1, 1), "escobas", "not_an_escoba"),      # 1 + 2 + 3 + 7 = 13, no face card
])
def test_escoba_de_mano_mistakes_are_named(seed, answers, item, mistake):
    drill = escoba_de_mano_drill(seed)
    judged = {a.item: a for a in drill.check(*answers)}
    if item is None:
        assert all(a.ok for a in judged.values())
    else:
        assert not judged[item].ok and judged[item].mistake == mistake


def test_thirty_is_two_escobas():
    drill = next(d for d in map(escoba_de_mano_drill, range(40)) if d.escobas == 2)
    assert {a.item: a.mistake for a in drill.check(1, drill.dealer_side)}["escobas"] == "one_not_two"


# A game of four in two teams (docs/rules.md §2: players 0 and 2 against 1 and 3; the escoba de mano is the dealer
# side's capture, so the dealer's team scores it).
def test_some_escoba_de_mano_deals_are_from_a_game_of_four():
    drills = [escoba_de_mano_drill(s) for s in range(120)]
    four = [d for d in drills if d.players == 4]
    assert 20 <= len(four) <= 70 and {d.dealer for d in four} == {0, 1, 2, 3}
    assert all(d.players == 2 and d.dealer in (0, 1) for d in drills if d not in four)
    assert any(d.escobas == 2 for d in four) and any(d.escobas == 0 for d in four)
    for d in four:
        assert d.side == (d.dealer % 2 if d.escobas else None) and d.partner == (d.dealer + 2) % 4


def test_the_dealers_team_scores_the_escoba_de_mano_as_the_game_does():
    # The engine's own 4-player game: a deal whose table makes 15 or 30 gives the escobas to the dealer's side.
    game = next(g for g in (Game(players=4, seed=s) for s in range(400))
                if sum(g.escobas) and g.dealer in (2, 3))
    dealer_side = game.side_of[game.dealer]
    assert dealer_side == game.dealer % 2 and game.escobas[dealer_side] > 0 and game.escobas[1 - dealer_side] == 0


@pytest.mark.parametrize("answers, item, mistake", [
    ((2, 1), None, ""),                          # seed 12: 10e 3b 11b 12b = 30, dealt by player 4 (team 2)
    ((2, 0), "side", "dealer_pair_scores"),      # the other team: the mano's
    ((2, NOBODY), "side", "somebody_scores"),
    ((1, 1), "escobas", "one_not_two"),
    ((0, 1), "escobas", "missed"),
])
def test_escoba_de_mano_in_a_game_of_four_names_each_mistake(answers, item, mistake):
    drill = escoba_de_mano_drill(12)
    assert (drill.players, drill.dealer, drill.escobas, drill.side) == (4, 3, 2, 1)
    judged = {a.item: a for a in drill.check(*answers)}
    if item is None:
        assert all(a.ok for a in judged.values())
    else:
        assert not judged[item].ok and judged[item].mistake == mistake


@pytest.mark.parametrize("answers", [(2, 3), (2, 2), (2, -1), (2, "team 2"), (9, 1)])
def test_escoba_de_mano_of_four_refuses_players_given_as_sides(answers):
    # The question is which team: a player's number (3) or text is not an answer.
    with pytest.raises(EscobaError):
        escoba_de_mano_drill(12).check(*answers)


@pytest.mark.parametrize("lang, lines", [
    ("es", ["Aciertos: 1 de 2.", "Escobas: bien, 8 + 3 + 9 + 10 = 30, así que hay 2 escobas de mano.",
            "Para quién: si se juega por parejas, la escoba de mano es de la pareja del que reparte. Reparte el "
            "jugador 4, así que es para la pareja 2."]),
    ("en", ["1 of 2 right.", "Escobas: right, 8 + 3 + 9 + 10 = 30, so there are 2 escobas de mano.",
            "Who scores them: in a team game the escoba de mano goes to the dealer's team. Player 4 dealt, so it goes "
            "to Team 2."])])
def test_the_escoba_de_mano_of_four_in_the_widget(lang, lines):
    widget = Drill("escoba_de_mano", seed=12, lang=lang)
    view = widget.view
    assert ("jugadores 1 y 3" if lang == "es" else "Players 1 and 3") in view.dealt.value
    assert ("Reparte el jugador 4." if lang == "es" else "Player 4 deals.") in view.dealt.value
    assert [label for label, _v in view.side.options][1:3] == (["Pareja 1", "Pareja 2"] if lang == "es"
                                                               else ["Team 1", "Team 2"])
    view.escobas.value, view.side.value = "2", "0"
    widget.check_button.click()
    assert widget.status.message.split("\n") == lines
    view.side.value = "1"
    widget.check_button.click()
    assert widget.status.message.split("\n")[0] == ("Aciertos: 2 de 2." if lang == "es" else "2 of 2 right.")
    widget.answer_button.click()
    assert ("2 escobas para la pareja 2" if lang == "es" else "2 escobas for Team 2") in \
        widget.answer_box.children[0].value


@pytest.mark.parametrize("lang, options, right, wrong, worked", [
    ("en", ["Your team", "The other team"], "Who scores them: right, your team.",
     "Player 3 dealt, so it goes to your team.", "Player 3, who dealt, takes the four cards: 1 escoba for your team."),
    ("es", ["Vuestra pareja", "La otra pareja"], "Para quién: bien, para vuestra pareja.",
     "Reparte el jugador 3, así que es para vuestra pareja.",
     "el jugador 3, que reparte, se lleva las cuatro cartas: 1 escoba para vuestra pareja.")])
def test_the_escoba_de_mano_of_four_names_your_team_when_your_partner_deals(lang, options, right, wrong, worked):
    """A page that names the student's side "you" in a game of four: that side is a team, and here Player 3, the
    partner, deals, so the escoba is your team's, never "for you" (nor "Tú")."""
    from escoba_tutor.text import labels

    _ = Translator(lang)
    drill = escoba_de_mano_drill(36)
    assert (drill.players, drill.dealer, drill.escobas) == (4, 2, 1)
    widget = Drill("escoba_de_mano", seed=36, lang=lang, names=[labels.you(_), labels.computer_team(_)])
    view = widget.view
    assert [label for label, _v in view.side.options][1:3] == options
    view.escobas.value, view.side.value = "1", "0"
    widget.check_button.click()
    assert widget.status.message.split("\n")[-1] == right
    view.side.value = "1"
    widget.check_button.click()
    assert widget.status.message.split("\n")[-1].endswith(wrong)
    widget.answer_button.click()
    shown = html.unescape(widget.answer_box.children[0].value)
    assert worked in shown and _("you") not in shown.split(": ", 1)[1].replace(_("your team"), "")


@pytest.mark.parametrize("answers", [(5, 0), (-1, 0), ("1", 0), (1, 2), (1, "x")])
def test_escoba_de_mano_hostile_answers_are_refused(answers):
    with pytest.raises(EscobaError):
        escoba_de_mano_drill(3).check(*answers)


# ================================================================================================== strategy
def test_strategy_positions_are_real_turns_where_the_choice_matters():
    for seed in range(6):
        drill = strategy_drill(seed)
        assert set(h.move for h in drill.ranking) == set(drill.view.legal_moves)
        assert drill.ranking[0].loss == 0 and drill.ranking[-1].loss > STRATEGY_TOLERANCE
        assert all(a.value >= b.value for a, b in zip(drill.ranking, drill.ranking[1:]))


def test_strategy_judged_against_the_expert():
    drill = strategy_drill(3)
    best, worst = drill.ranking[0], drill.ranking[-1]
    right = drill.check(best.move)
    assert right.ok and right.mistake == "" and right.loss == 0 and right.best == best
    wrong = drill.check(str(worst.move))  # a move as text works too
    assert not wrong.ok and wrong.mistake == "costly" and wrong.loss == worst.loss
    for hint in drill.ranking:  # right exactly when within the tolerance
        assert drill.check((hint.move.card, hint.move.captured)).ok == (hint.loss <= STRATEGY_TOLERANCE)


@pytest.mark.parametrize("move", ["8o", "1o+12c", "", "3o+3o", 7])
def test_strategy_hostile_moves_are_refused(move):
    with pytest.raises(EscobaError):
        strategy_drill(3).check(move)


# ========================================================================================= the escobas line
def test_the_escobas_line_is_the_deals():
    for seed in range(30):
        drill = escobas_drill(seed)
        record = drill.record
        assert drill.escobas == record.escobas
        sweeps = [0, 0]
        for what, side, before, _card, taken in drill.captures:
            if what != "leftover" and set(taken) == set(before):
                sweeps[side] += 1 if what == "capture" else record.dealer_escobas
        assert tuple(sweeps) == drill.escobas
        assert drill.captures[-1][0] == "leftover" or not record.leftover or record.leftover_to is None


@pytest.mark.parametrize("mistake", ["counted_leftover", "missed_escoba_de_mano", "wrong_count", "unanswered"])
def test_escobas_mistakes_are_named(mistake):
    for seed in range(200):
        drill = escobas_drill(seed)
        record = drill.record
        given = list(drill.escobas)
        if mistake == "counted_leftover" and record.leftover and record.leftover_to is not None:
            side = record.leftover_to
            given[side] += 1
        elif mistake == "missed_escoba_de_mano" and record.dealer_escobas:
            side = record.dealer % 2
            given[side] -= record.dealer_escobas
        elif mistake == "wrong_count":
            side = 0
            given[0] += 3
        elif mistake == "unanswered":
            side = 1
            given[1] = None
        else:
            continue
        judged = drill.check(given)
        assert not judged[side].ok and judged[side].mistake == mistake
        assert judged[1 - side].ok
        return
    pytest.fail(f"no deal of the first 200 seeds shows {mistake}")


@pytest.mark.parametrize("given", [[1], [1, 2, 3], [-1, 0], ["1", 0], [1.0, 0], "12", None])
def test_escobas_hostile_answers_are_refused(given):
    with pytest.raises(EscobaError):
        escobas_drill(3).check(given)


# ======================================================================================= the end of a game
@given(seeds)
def test_the_end_of_a_game_follows_the_tie_rule(seed):
    drill = game_end_drill(seed)
    a, b = drill.totals
    # docs/rules.md §6: add first; the highest total past the target wins; a shared highest total plays on
    expected = None if max(a, b) < 21 or a == b else (0 if a > b else 1)
    assert drill.winner == expected and drill.check(expected if expected is not None else "another_deal").ok


@given(seeds)
def test_the_last_deal_scores_what_a_real_deal_can(seed):
    # a deal without escobas hands out 4 points in all: 6 between two sides is already two escobas
    drill = game_end_drill(seed)
    assert all(0 <= p <= 5 for p in drill.points) and 1 <= sum(drill.points) <= 6, drill


def test_every_situation_comes_up():
    kinds = set()
    for seed in range(60):
        drill = game_end_drill(seed)
        a, b = drill.totals
        kinds.add("none" if max(a, b) < 21 else "tie" if a == b else "both" if min(a, b) >= 21 else "one")
    assert kinds == {"none", "tie", "both", "one"}


@pytest.mark.parametrize("find, answer, mistake", [
    (lambda d: d.winner is None and max(d.totals) >= 21, 0, "tie_plays_on"),
    (lambda d: max(d.totals) < 21, 1, "not_reached"),
    (lambda d: d.winner is not None and min(d.totals) >= 21, "loser", "highest_wins"),
    (lambda d: d.winner is not None, "another_deal", "someone_won"),
    (lambda d: d.winner is not None and min(d.totals) < 21, "loser", "wrong_side"),
    (lambda d: True, None, "unanswered"),
])
def test_end_of_game_mistakes_are_named(find, answer, mistake):
    drill = next(d for d in map(game_end_drill, range(100)) if find(d))
    if answer == "loser":
        answer = 1 - drill.winner
    judged = drill.check(answer)
    assert not judged.ok and judged.mistake == mistake


def test_scopa_plays_to_11():
    drill = game_end_drill(3, "scopa")
    assert drill.target == 11 and all(2 <= b < 11 for b in drill.before)


@pytest.mark.parametrize("answer", [2, -1, "0", "nobody", 1.0])
def test_end_of_game_hostile_answers_are_refused(answer):
    with pytest.raises(EscobaError):
        game_end_drill(3).check(answer)


# ============================================================================================ the widgets
def test_the_leftover_drill_in_the_widget():
    widget = Drill("leftover", seed=0, lang="es")
    view = widget.view
    assert view.table_row.cards == ["12b"]
    assert "El jugador 1 juega el rey de bastos: se queda en la mesa.</li></ol>" in view.plays.value
    assert [label for label, _v in view.taker.options] == ["elige…", "Bando 1", "Bando 2", "Nadie"]
    view.taker.value = "0"          # the side that played last
    view.total_box.value = "12"     # the king counted as 12
    view.checks.value = "yes"
    widget.check_button.click()
    assert widget.status.message.split("\n") == [
        "Aciertos: 1 de 3.",
        "No: el jugador 1 jugó la última carta, pero la dejó en la mesa. Las cartas que quedan se las lleva el "
        "último bando que hizo baza: el bando 2.",
        "Suma: has contado las figuras por el número que llevan impreso, pero su valor en las bazas es sota 8, "
        "caballo 9 y rey 10: 10.",
        "Comprobación: bien, quedan justo 10, así que cuadra."]
    view.taker.value, view.total_box.value = "1", "10"
    assert widget.model.result is None  # a changed answer clears the verdict
    widget.check_button.click()
    assert widget.status.message.split("\n")[0] == "Aciertos: 3 de 3."
    view.total_box.value = "diez"
    widget.check_button.click()
    assert "Escribe la suma como un número entero, por ejemplo 25." in widget.status.message
    view.total_box.value, view.checks.value = "10", "no"  # a lone king: no «15 × 0 + 10» sum to read
    widget.check_button.click()
    assert widget.status.message.split("\n")[-1] == (
        "Comprobación: sí cuadra: quedan justo 10, como siempre que todas las bazas han sumado 15.")
    widget.answer_button.click()
    assert ("<p>Solo queda el rey de bastos: 10.</p><p>Como es menos de 15, no hay nada que restar.</p>"
            "<p>Sale 10, así que la mano cuadra.</p>") in widget.answer_box.children[0].value


def test_the_escoba_de_mano_drill_in_the_widget():
    widget = Drill("escoba_de_mano", seed=2, lang="en")  # 2e 10e 1b 2b: 13, or 15 counting the jack as 10
    view = widget.view
    assert view.table_row.cards == ["2e", "10e", "1b", "2b"]
    view.escobas.value, view.side.value = "1", "0"
    widget.check_button.click()
    assert widget.status.message.split("\n") == [
        "0 of 2 right.",
        "Escobas: watch out for the face cards (jack 8, knight 9, king 10). 2 + 8 + 1 + 2 = 13, so there is no "
        "escoba de mano.",
        "Who scores them: nobody, as there is no escoba de mano here."]
    view.escobas.value, view.side.value = "0", "none"
    widget.check_button.click()
    assert widget.status.message.split("\n")[0] == "2 of 2 right."
    widget.seed = 3  # 2 + 6 + 1 + 6 = 15, dealt by Side 2
    view.escobas.value, view.side.value = "1", "0"
    widget.check_button.click()
    assert ("Who scores them: the escoba de mano always goes to the dealer's side. Player 2 dealt, so it goes to "
            "Side 2.") in widget.status.message


def test_the_strategy_drill_in_the_widget():
    widget = Drill("strategy", seed=3, lang="es")
    drill = widget.model.drill
    view = widget.view
    assert view.hand_row.cards == [c.code for c in drill.hand] and view.table_row.cards == [c.code for c in drill.table]
    assert {row["id"] for row in view.moves.rows} == {str(h.move) for h in drill.ranking}
    # what a play is weighed with, as the worksheet prints it: the players, the deck, the other hand, the cards taken
    left, other = drill.view.deck_left, drill.view.hand_sizes[1 - drill.view.player]
    assert f"Juegan dos. Quedan {left} cartas en el mazo." in view.situation.value
    held = "le queda una carta" if other == 1 else f"le quedan {other} cartas"
    assert f"Al otro jugador {held}" in view.situation.value
    taken = Translator("es")("Already taken in this deal:")
    assert f"{taken} oros: " in view.situation.value and "ya no están en juego" in taken
    widget.check_button.click()
    assert widget.status.message == "Primero elige una jugada de la lista."
    view.moves.selected = str(drill.ranking[-1].move)   # as a click in the list does
    widget.check_button.click()
    lines = widget.status.message.split("\n")
    assert lines[0] == "No es la mejor: da alrededor de 1 punto menos que la jugada del experto."
    assert lines[1].startswith("Tu jugada: ") and "8" in lines[1] and lines[2].startswith("Mejor: el cinco de bastos")
    view.moves.selected = str(drill.ranking[0].move)
    widget.check_button.click()
    assert widget.status.message.startswith("¡Muy bien! Es la jugada del experto.\nPor qué: ")
    widget.answer_button.click()
    ranking = widget.answer_box.children[0]
    assert [row["id"] for row in ranking.rows] == [str(h.move) for h in drill.ranking]
    # Which moves count as right is said in words; ★ (the "good" tone) marks an escoba and nothing else.
    assert [row["cells"][1].rsplit(" (", 1)[1] for row in ranking.rows] == [
        "bien)" if h.loss <= STRATEGY_TOLERANCE else Translator("es")("loses too much") + ")" for h in drill.ranking]
    assert ranking.rows[0]["label"].endswith("; bien")


@pytest.mark.parametrize("seed", range(12))
def test_the_strategy_drill_stars_only_escobas(seed):
    widget = Drill("strategy", seed=seed, lang="en")
    drill = widget.model.drill
    widget.answer_button.click()
    ranking = widget.answer_box.children[0]
    for rows in (widget.view.moves.rows, ranking.rows):
        starred = {row["id"] for row in rows if row.get("tone") == "good"}
        assert starred == {str(h.move) for h in drill.ranking if h.move.captured
                           and set(h.move.captured) == set(drill.table)}


def test_some_strategy_position_has_an_escoba_to_star():
    # (so the test above sees a star given, not only stars withheld)
    assert any(set(h.move.captured) == set(strategy_drill(s).table) for s in range(12)
               for h in strategy_drill(s).ranking if h.move.captured)


def test_the_escobas_drill_in_the_widget():
    widget = Drill("escobas", seed=3, lang="en")
    drill = widget.model.drill
    assert len(widget.view.captures.rows) == len(drill.captures)
    assert widget.view.captures.rows[-1]["label"].endswith("Player 1 takes the cards left at the end.")
    # The student reads cards in words, never codes like 7o.
    cells = [cell for row in widget.view.captures.rows for cell in row["cells"]]
    assert not any(re.search(r"\b(1[0-2]|[1-7])[oceb]\b", cell) for cell in cells), cells
    what, _side, before, card, taken = next(c for c in drill.captures if c[0] == "capture")
    row = widget.view.captures.rows[drill.captures.index((what, _side, before, card, taken))]
    assert row["cells"][1].endswith(": " + Translator("en").card_name(card)) and " of " in row["cells"][0]
    first, second = widget.view.boxes_of
    first.value, second.value = "1", "one"
    widget.check_button.click()
    assert widget.status.message.split("\n") == [
        "0 of 2 right.",
        "Side 1: 0. Taking the cards left at the end is never an escoba, even though it empties the table.",
        "Side 2: write a whole number, for example 2."]
    first.value, second.value = "0", "1"
    widget.check_button.click()
    assert widget.status.message.split("\n") == ["2 of 2 right.", "Side 1: right, 0.", "Side 2: right, 1."]


def test_the_end_of_game_drill_in_the_widget():
    widget = Drill("game_end", seed=3, lang="es", names=["Ana", "Luis"])
    view = widget.view
    assert "<td>19</td><td>19</td>" in view.points_table.value and "<td>3</td><td>3</td>" in view.points_table.value
    assert [label for label, _v in view.winner.options] == ["elige…", "Gana Ana", "Gana Luis",
                                                            "Nadie todavía: otra mano"]
    view.winner.value = "1"
    widget.check_button.click()
    assert widget.status.message.split("\n") == [
        "No: el total más alto, 22, lo tiene más de un bando, así que todavía no gana nadie: se juega otra "
        "mano, y las que hagan falta hasta que un solo bando tenga el total más alto.",
        "Ana: 19 + 3 = 22; Luis: 19 + 3 = 22: empate en cabeza, así que se juega otra mano."]
    view.winner.value = "another_deal"
    widget.check_button.click()
    assert widget.status.message.startswith("Bien.\n")


@pytest.mark.parametrize("kind", NEW)
def test_every_new_kind_switches_reuses_and_shows_its_answer(kind):
    widget = Drill("captures", seed=5, lang="en")
    widget.kind = kind
    assert widget.view.kind == kind and widget.model.drill == make_drill(kind, 5)
    controls = widget.position.children
    widget.new_button.click()
    assert widget.seed == 6 and widget.position.children == controls  # the same layout: the same controls
    widget.answer_button.click()
    assert widget.answer_box.children and widget.answer_button.description == "Hide the answer"
    widget.check_button.click()  # nothing answered: each question says so, nothing raises
    assert widget.status.message and "Something went wrong" not in widget.status.message


# ================================================================================================ properties
@given(seeds)
def test_a_leftover_checks_out_exactly_when_it_is_the_deals(seed):
    drill = leftover_drill(seed)
    # docs/rules.md §4: every capture takes a multiple of 15 and the deck sums to 220, so the real leftover is 10 mod 15
    assert sum(value(c.code) for c in drill.record.leftover) % 15 == 10
    assert drill.checks_out == (drill.table == tuple(sorted(drill.record.leftover)))
    assert drill.check(drill.taker if drill.taker is not None else NOBODY, drill.total, drill.checks_out)[0].ok


@given(seeds, st.sampled_from(["escoba", "escoba+escoba_de_mano_15_20"]))
def test_an_escoba_de_mano_is_judged_by_the_totals_of_the_rules(seed, rules):
    drill = escoba_de_mano_drill(seed, rules)
    total = sum(value(c.code) for c in drill.table)
    two = 20 if rules.endswith("15_20") else 30
    assert drill.escobas == (1 if total == 15 else 2 if total == two else 0)
    assert all(a.ok for a in drill.check(drill.escobas, drill.dealer % 2 if drill.escobas else NOBODY))



@pytest.mark.parametrize("name", ["escobas", "leftover", "escoba_de_mano", "house_rules"])
def test_a_drill_of_two_says_once_which_player_is_which_side(name):
    """A reader of the course: an exercise of two names players ("Player 2 deals") and asks for sides ("Side 1,
    Side 2, Nobody") without saying Player N is Side N. On screen, it says so once; a page that names the sides
    ("Ana", "Luis") has no such line, and a game of three or four says who is who in its own words."""
    from escoba_test_helpers import shown_text

    from escoba_tutor.engine.rules import ESCOBA
    from escoba_tutor.exercises.registry import make_drill

    said = "Juegan dos: el jugador 1 es el bando 1 y el jugador 2, el bando 2."
    seeds = [s for s in range(60) if make_drill(name, s, ESCOBA).players == 2][:2] \
        if name in ("escoba_de_mano", "house_rules") else [0, 1]
    others = [s for s in range(60) if getattr(make_drill(name, s, ESCOBA), "players", 2) != 2][:1]
    for seed in seeds:
        assert shown_text(Drill(name, seed=seed, lang="es")).count(said) == 1, (name, seed)
        assert said not in shown_text(Drill(name, seed=seed, lang="es", names=["Ana", "Luis"])), (name, seed)
    for seed in others:
        assert said not in shown_text(Drill(name, seed=seed, lang="es")), (name, seed)


@pytest.mark.parametrize("name", ["escobas", "escoba_de_mano"])
def test_a_player_deals_never_a_side(name):
    """«Reparte el jugador 2», never «Reparte el bando 2» or «la pareja 1»: a player deals, a side scores (the
    messages' {side} placeholder is given a player's label)."""
    for seed in range(1, 13):
        for lang, player, side in (("es", "Reparte el jugador ", r"Reparte (el bando|la pareja) "),
                                   ("en", "Player ", r"(Side|Team) \d deals")):
            dealt = Drill(name, seed=seed, lang=lang).view.dealt.value
            assert player in dealt and not re.search(side, dealt), (seed, lang, dealt)


# A side or a team that deals, in any language: «reparte el bando 1», «(reparte)» after a side, "Team 1 dealt".
_SIDE_DEALS = re.compile(r"repart\w* (el bando|la pareja|tu pareja)|(bando|pareja) \d+ \(reparte\)|"
                         r"(Side|Team) \d+ (deals|dealt)|(side|team) \d+ (deals|dealt)", re.IGNORECASE)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_who_scores_the_escoba_de_mano_names_the_player_who_dealt(lang):
    """Every "who scores them" line of the escoba de mano, and the engine's escobas right after the deal, with
    two players and with teams: a player deals, and the side or team is named as the dealer's («reparte el
    jugador 3, así que es para la pareja 1»), never «reparte la pareja 1», "Team 1 dealt" nor «Bando 1
    (reparte)»."""
    from escoba_tutor.widgets.engine_facts import dealt_escobas

    said, teams = [], 0
    for seed in range(40):
        widget = Drill("escoba_de_mano", seed=seed, lang=lang)
        drill = widget.model.drill
        if not drill.escobas:
            continue
        teams += drill.players == 4
        wrong = str((drill.side + 1) % (2 if drill.players == 4 else drill.players))
        widget.view.escobas.value, widget.view.side.value = str(drill.escobas), wrong
        widget.check_button.click()
        line = widget.status.message.split("\n")[2]
        player = ("reparte el jugador " if lang == "es" else "Player ") + str(drill.dealer + 1)
        assert player.lower() in line.lower() and not _SIDE_DEALS.search(line), (seed, line)
        said.append(line)
    assert len(said) >= 4 and teams >= 1, said
    for players in (2, 4):
        for game in range(1, 6):
            for line in dealt_escobas(Translator(lang), game, players):
                assert not _SIDE_DEALS.search(line), line
    # and no message of any catalog has a side or a team deal
    for path in sorted((translator.LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        for message in catalog:
            texts = message.string if isinstance(message.string, tuple) else (message.string,)
            for msgstr in texts:
                    assert not re.search(r"\{(side|team|winner)[^}]*\} (deals|dealt|\(dealer\)|\(reparte\))|"
                                     r"repart\w* \{(side|team)[^}]*\}", msgstr or ""), (path.name, msgstr)


@pytest.mark.parametrize(("lang", "said"), [
    ("es", "Comprobación: correcto, no cuadra, porque 26 = 15 × 1 + 11 y no sobran 10; alguien se ha equivocado "
           "durante la mano."),
    ("en", "The 15 check: you are right that it does not check out. 26 = 15 × 1 + 11, not 15 × something + 10, "
           "so someone made a mistake during the deal."),
])
def test_a_right_no_for_a_deal_that_does_not_check_out_says_what_is_right(lang, said):
    """«Comprobación: bien, 26 = 15 × 1 + 11, y no sobran 10: alguien se ha equivocado» put "right" beside "someone
    made a mistake": the pupil's answer is right, the deal is wrong. The line now says first that the deal does
    not check out."""
    _ = Translator(lang)
    assert _("Check: right, {total} = 15 × {times} + {rest}, and not 15 × something + 10: someone made a mistake "
             "during the deal.", total=26, times=1, rest=11) == said


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Four players in two teams: your team (Players 1 and 3) against the other team (Players 2 and 4); "
           "partners sit opposite each other."),
    ("es", "Partida de cuatro, por parejas: vuestra pareja (jugadores 1 y 3) contra la otra pareja (jugadores 2 "
           "y 4); los compañeros se sientan uno enfrente del otro."),
])
def test_the_teams_line_names_the_student_s_team_in_mid_sentence_forms(lang, said):
    """A page that calls a side "you" makes it "your team" in a game of four: in mid-sentence it reads "your
    team", never "against The other team" or ": Your team"."""
    from types import SimpleNamespace

    from escoba_tutor.text import labels
    from escoba_tutor.widgets.drills.escoba_de_mano import pairs_line

    _ = Translator(lang)
    assert pairs_line(_, SimpleNamespace(players=4), [labels.your_team(_), labels.computer_team(_)]) == said
