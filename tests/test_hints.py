"""Hints: every legal move ranked by the expert with one reason as data, and the costliest move of a deal."""

from __future__ import annotations

import pytest

from escoba_tutor import DECK, ESCOBA, EscobaError, Game, Move, parse_cards
from escoba_tutor.engine.captures import legal_captures
from escoba_tutor.engine.game import PlayerView
from escoba_tutor.players.expert import ExpertBot
from escoba_tutor.players.hints import REASON_CODES, CostlyMove, Hint, costliest_move, hints, reason_for


def view(hand: str, table: str, seen: str = "", deck_left: int = 20, other_hand: int = 3) -> PlayerView:
    """Player 0's view in a 2-player deal; ``seen`` are cards already played (so no longer unseen), all in player
    0's pile."""
    hand_cards, table_cards = parse_cards(hand), parse_cards(table)
    moves = tuple(Move(card, taken) for card in hand_cards for taken in legal_captures(card, table_cards)
                  or [()])
    return PlayerView(player=0, side=0, sides=((0,), (1,)), rules=ESCOBA, deal=0, dealer=1, turn=0,
                      hand=hand_cards, table=table_cards, hand_sizes=(len(hand_cards), other_hand),
                      piles=(parse_cards(seen), ()), escobas=(0, 0), deck_left=deck_left, totals=(0, 0),
                      legal_moves=moves, history=(), winner=None)


def reason(v: PlayerView, move: str):
    return reason_for(v, Move.from_text(move))


# ------------------------------------------------------------------------------------------ ranking
@pytest.mark.parametrize("seed, plays", [(1, 0), (2, 5), (3, 11), (4, 20)])
def test_hints_rank_every_legal_move_and_the_top_one_is_the_experts(seed, plays):
    game = Game(players=2, seed=seed, dealer=0)
    for _ in range(plays):
        game.play(game.legal_moves()[-1])
    v = game.view(game.turn)
    ranked = hints(v)
    assert sorted(h.move.text for h in ranked) == sorted(m.text for m in v.legal_moves)
    assert ranked[0].move == ExpertBot().choose(v)
    assert ranked[0].loss == 0 and all(h.loss >= 0 for h in ranked)
    assert [h.value for h in ranked] == sorted((h.value for h in ranked), reverse=True)
    assert all(h.reason.code in REASON_CODES for h in ranked)
    assert all(isinstance(h, Hint) for h in ranked)


def test_hints_use_the_bot_they_are_given():
    game = Game(players=3, seed=6, dealer=0)
    v = game.view(game.turn)
    bot = ExpertBot(seed=11, samples=5)
    assert hints(v, bot)[0].move == bot.choose(v)


def test_no_hint_out_of_turn():
    game = Game(players=2, seed=5, dealer=0)
    with pytest.raises(EscobaError) as caught:
        hints(game.view(1 - game.turn))
    assert caught.value.code == "not_your_turn"


# ------------------------------------------------------------------------------------------ reasons
def test_an_escoba_names_the_cards_taken():
    r = reason(view("3c 12e", "1o 4b 7o"), "3c+1o+4b+7o")
    assert (r.code, r.count) == ("escoba", 4)
    assert r.cards[0] == parse_cards("3c")[0] and set(r.cards) == set(parse_cards("3c 1o 4b 7o"))


def test_the_siete_de_oros():
    r = reason(view("10e 5e", "7o 10c 2b"), "10e+7o")
    assert (r.code, r.cards) == ("takes_siete_de_oros", parse_cards("10e 7o"))


def test_a_table_left_that_an_unseen_card_sweeps_names_the_total_the_card_and_how_many_are_unseen():
    # Laying the 5c leaves 6 + 5 = 11: a 4 sweeps it. Two 4s were played already, so two are unseen.
    r = reason(view("5c 12c", "6b", seen="4o 4c"), "5c")
    assert (r.code, r.total, r.sweeper_value, r.unseen) == ("leaves_sweepable", 11, 4, 2)
    assert r.cards == parse_cards("6b 5c")
    # A 4 in the player's own hand is not a danger: only cards the others may hold count.
    r = reason(view("5c 4e", "6b", seen="4o"), "5c")
    assert (r.code, r.unseen) == ("leaves_sweepable", 2)


def test_a_capture_can_leave_a_sweepable_table_too():
    r = reason(view("5c", "10o 3e 2b"), "5c+10o")  # leaves 3 + 2 = 5: a sota, caballo... no: a 10 (rey) sweeps
    assert (r.code, r.total, r.sweeper_value, r.unseen) == ("leaves_sweepable", 5, 10, 4)


def test_laying_the_siete_de_oros_is_named():
    r = reason(view("7o 12c", "12e 12o"), "7o")  # 10 + 10 + 7: nobody can sweep, but the 7o lies there
    assert (r.code, r.cards, r.total) == ("lays_siete_de_oros", parse_cards("7o"), 27)


def test_sevens_then_oros_then_cards():
    # Each capture leaves a table that no unseen card sweeps (the cards that would are all seen).
    r = reason(view("1c", "7c 7e 12b 2b", seen="3o 3c 3e 3b"), "1c+7c+7e")
    assert (r.code, r.count, set(r.cards)) == ("takes_sevens", 2, set(parse_cards("7c 7e")))
    r = reason(view("3c", "4o 10e 6b", seen="11o 11c 11e 11b"), "3c+4o+10e")
    assert (r.code, r.count, r.cards) == ("takes_oros", 1, parse_cards("4o"))
    r = reason(view("5c", "10b 2c 12e 1c", seen="4o 4c 4e 4b"), "5c+10b+2c")
    assert (r.code, r.count) == ("takes_cards", 3)


def test_a_safe_lay_down_and_the_last_card_of_the_deal():
    r = reason(view("12c 7b", "12e 12o"), "12c")
    assert (r.code, r.total, r.cards) == ("leaves_unsweepable", 30, parse_cards("12e 12o 12c"))
    last = view("2c", "12e", deck_left=0, other_hand=0)
    assert reason(last, "2c").code == "lays_card" and reason(last, "2c").total == 12


def test_every_reason_code_occurs_in_real_games():
    found = set()
    for seed in range(40):
        game = Game(players=2, seed=seed, dealer=seed % 2)
        while game.deal == 0:
            v = game.view(game.turn)
            found.update(reason_for(v, m).code for m in v.legal_moves)
            game.play(v.legal_moves[seed % len(v.legal_moves)])
    assert found <= set(REASON_CODES)
    assert found >= set(REASON_CODES) - {"lays_card"}


# ------------------------------------------------------------------------------------- costliest move
def _play_deal(learner_bot, seed=8, players=2):
    game = Game(players=players, seed=seed, dealer=0)
    other = ExpertBot(seed=1, samples=4)
    while not game.deals:
        bot = learner_bot if game.turn == 0 else other
        game.play(bot.choose(game.view(game.turn)))
    return game


def test_the_costliest_move_is_a_learner_move_and_names_the_experts_choice():
    class FirstMove:
        def choose(self, v):
            return v.legal_moves[0]

    game = _play_deal(FirstMove())
    costly = costliest_move(game, 0)
    assert isinstance(costly, CostlyMove) and costly.deal == 0 and costly.loss > 0
    record = game.deals[0]
    play = record.plays[costly.play]
    assert play.player == 0 and play.move == costly.played.move and play.hand == costly.hand
    assert costly.table == record.tables()[costly.play]
    assert costly.best.move != costly.played.move and costly.best.loss == 0
    assert costly.loss == pytest.approx(costly.played.loss)
    # Judged again from the learner's view at that moment, the expert plays the move named.
    replay = Game(players=2, seed=8, dealer=0)
    for record_play in record.plays[:costly.play]:
        replay.play(record_play.move)
    assert ExpertBot().choose(replay.view(0)) == costly.best.move


def test_a_learner_who_plays_like_the_expert_has_no_costly_move():
    game = _play_deal(ExpertBot())
    assert costliest_move(game, 0) is None


def test_costliest_move_refuses_bad_questions():
    game = Game(players=2, seed=3, dealer=0)
    with pytest.raises(EscobaError) as caught:
        costliest_move(game, 0)
    assert caught.value.code == "no_finished_deal"
    finished = _play_deal(ExpertBot(samples=2))
    for player, deal, code in ((2, -1, "bad_player"), ("0", -1, "bad_player"), (0, 5, "bad_deal")):
        with pytest.raises(EscobaError) as caught:
            costliest_move(finished, player, deal)
        assert caught.value.code == code
    assert len(DECK) == 40
