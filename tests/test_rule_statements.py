"""The facts the lessons and the docs state, shown by the engine, so that a lesson and the engine cannot drift apart.

Each test names the statement it holds up (lesson or doc, in a few words). Deals are played through the public API
(``Game``, ``legal_moves``, ``renuncio_moves``, ``play``, ``deals``) with moves drawn at random from the legal ones.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escoba_tutor import DECK, Game, Move, parse_cards, rules_by_name, setenta
from escoba_tutor.players.bots import make_bot

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def play_one_deal(rules, players: int, seed: int, renuncio_share: float = 0.0):
    """Play the first deal of a game at random (with the renuncio variant, lay a card that could capture down
    about ``renuncio_share`` of the times it is possible) and return its record."""
    chooser = random.Random(seed)
    game = Game(players=players, rules=rules, seed=seed)
    while not game.deals:
        renuncios = game.renuncio_moves()
        if renuncios and chooser.random() < renuncio_share:
            game.play(chooser.choice(renuncios))
        else:
            game.play(chooser.choice(game.legal_moves()))
    return game.deals[0]


def value(cards) -> int:
    return sum(card.value for card in cards)


# ------------------------------------------------------------------------------- lesson 1 and lesson 4: the deck
def test_the_deck_sums_to_220_which_is_10_more_than_a_multiple_of_15():
    assert value(DECK) == 220 == 14 * 15 + 10


# ----------------------------------------------------- lesson 4: cards are always left, worth 10 more than 15s
@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, players=st.sampled_from([2, 3, 4]))
def test_under_escoba_cards_are_always_left_and_the_15_check_holds(seed, players):
    deal = play_one_deal("escoba", players, seed)
    assert deal.leftover, "the table is never empty at the end of an Escoba deal"
    assert value(deal.leftover) >= 10 and value(deal.leftover) % 15 == 10


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, players=st.sampled_from([2, 3, 4]), share=st.sampled_from([0.3, 1.0]))
def test_the_15_check_holds_under_renuncio_too(seed, players, share):
    # A renuncio only lays a card down; a wrong sum is still refused, so every capture still takes 15.
    deal = play_one_deal(rules_by_name("escoba+renuncio"), players, seed, renuncio_share=share)
    assert deal.leftover and value(deal.leftover) % 15 == 10


def test_renuncio_deals_were_really_played_with_renuncios():
    # The property above would prove nothing if no renuncio was ever made.
    made = sum(sum(play_one_deal(rules_by_name("escoba+renuncio"), 2, seed, 1.0).renuncios) for seed in range(20))
    assert made > 0


def test_under_renuncio_a_wrong_sum_is_still_refused():
    game = Game(players=2, rules=rules_by_name("escoba+renuncio"), seed=3)
    card = game.hand(game.turn)[0]
    wrong = next((c,) for c in game.table if card.value + c.value != 15)
    with pytest.raises(Exception, match="not 15"):
        game.play(Move(card, wrong))


def test_the_leftover_goes_to_the_last_side_that_captured_and_is_no_escoba():
    for seed in range(30):
        game = Game(players=2, seed=seed)
        plays_before = None
        while not game.deals:
            plays_before = len(game.current_plays)
            game.play(random.Random(seed * 31 + plays_before).choice(game.legal_moves()))
        deal = game.deals[0]
        capturers = [game.side_of[record.player] for record in deal.plays if record.move.captured]
        if deal.dealer_capture:
            capturers.insert(0, game.side_of[deal.dealer])
        assert deal.leftover_to == (capturers[-1] if capturers else None)
        escobas_in_plays = sum(record.escoba for record in deal.plays) + deal.dealer_escobas
        assert sum(deal.escobas) == escobas_in_plays, "taking the leftover adds no escoba"


# ----------------------------------------------- lessons 3, 4 and 7: the escoba on the very last play of a deal
@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, players=st.sampled_from([2, 3, 4]))
def test_under_escoba_the_last_play_never_sweeps_the_table(seed, players):
    deal = play_one_deal("escoba", players, seed)
    assert not deal.plays[-1].escoba and deal.last_play_sweeps == (0,) * len(deal.escobas)


def test_under_scopa_the_last_play_can_sweep_and_scores_unless_the_switch_is_off():
    swept = [seed for seed in range(400) if play_one_deal("scopa", 2, seed).plays[-1].escoba]
    assert swept, "a Scopa deal can end with a sweep"
    seed = swept[0]
    assert not play_one_deal("scopa", 2, seed).leftover, "and then nothing is left on the table"
    off = play_one_deal(rules_by_name("scopa+no_last_play_escoba"), 2, seed)
    assert not off.plays[-1].escoba and sum(off.last_play_sweeps) == 1


def test_under_scopa_the_15_check_does_not_hold():
    leftovers = {value(play_one_deal("scopa", 2, seed).leftover) % 15 for seed in range(60)}
    assert leftovers - {10}


# ------------------------------------------------------------------------------- lesson 3: the escoba de mano
@pytest.mark.parametrize(("total", "escobas"), [(15, 1), (30, 2)])
def test_the_escoba_de_mano_is_one_escoba_for_15_and_two_for_30(total, escobas):
    seed = next(s for s in range(5000) if value(Game(players=2, seed=s).history[0].table) == total)
    game = Game(players=2, seed=seed)
    assert value(game.history[0].table) == total
    assert game.table == () and game.escobas[game.side_of[game.dealer]] == escobas


# ------------------------------------------------------------------------------------ lesson 5: the setenta
def test_setenta_values_and_a_missing_suit():
    best = setenta("7o 6c 1e 5b")
    assert [b.value for b in best.best] == [21, 18, 16, 15] and best.total == 70
    assert setenta("7o 7c 7e 7b").total == 84
    assert not setenta("7o 7c 7e").valid


# --------------------------------------------- lessons 6 and 8: the one order of priorities and the levels
def medium_choice(hand: str, table: str, seen_piles: str = "") -> Move:
    """The medium level's choice for player 0 in a two-player position; ``seen_piles`` is already taken."""
    hand_cards, table_cards, taken = parse_cards(hand), parse_cards(table), parse_cards(seen_piles)
    rest = [c for c in DECK if c not in (*hand_cards, *table_cards, *taken)]
    other, deck = rest[:3], rest[3:]
    deck = deck[:len(deck) - len(deck) % 6]
    taken = (*taken, *[c for c in rest[3:] if c not in deck])
    game = Game.at_position(2, "escoba", dealer=1, turn=0, hands=[hand_cards, other], table=table_cards,
                            deck=deck, piles=[taken, ()], last_capturer=0)
    return make_bot("medio").choose(game.view(0))


def test_medium_takes_an_escoba_before_the_seven_of_coins():
    # The seven of coins takes the jack (7 + 8 = 15); the six of clubs sweeps (6 + 8 + 1 = 15).
    move = medium_choice("7o 6b", "10c 1e")
    assert move.card == parse_cards("6b")[0] and set(move.captured) == set(parse_cards("10c 1e"))


def test_medium_takes_the_seven_of_coins_before_more_sevens_or_coins():
    # The king takes two coins (10 + 3 + 2); the ace takes the seven of coins and another seven (1 + 7 + 7).
    move = medium_choice("1b 12e", "7o 7c 3o 2o 10b")
    assert parse_cards("7o")[0] in move.captured


def test_medium_prefers_sevens_then_coins_then_cards():
    # The jack takes the seven of cups (8 + 7); the king takes two coins (10 + 3 + 2). Every card that could
    # sweep what either leaves is already taken, so both plays are safe.
    aces = "1o 1c 1e 1b"
    sevens = medium_choice("10b 12e", "7c 3o 2o 11e", seen_piles=aces)
    assert set(sevens.captured) == set(parse_cards("7c")), "the seven before two coins"
    # The king takes one coin (10 + 5); the knight takes two cups (9 + 2 + 4): more cards, no coin.
    coins = medium_choice("12e 11c", "5o 2c 4c", seen_piles="11o 11e 11b 12o 12c 12b")
    assert set(coins.captured) == set(parse_cards("5o")), "a coin before more cards"


def test_easy_plays_any_legal_move_and_hard_ranks_with_the_hints():
    from escoba_tutor.players.hints import hints

    game = Game(players=2, seed=4)
    view = game.view(game.turn)
    chosen = {make_bot("fácil", seed=s).choose(view) for s in range(30)}
    assert len(chosen) > 1 and chosen <= set(view.legal_moves)
    assert make_bot("difícil", seed=1).choose(view) == hints(view, make_bot("difícil", seed=1))[0].move


def test_lesson_6_first_play_of_game_1_as_the_hint_ranks_it():
    # Lesson 6, task 1: in game no. 1 the tips' order picks the ace's capture over the two's (it takes a card of
    # coins), while laying down the six of coins is the only play that serves no escoba; the answer says that
    # "Hint" (the hard level, as the game's hint button runs it) ranks the ace's capture first, then the two's, and
    # the six of coins last.
    from escoba_tutor.players.expert import ExpertBot
    from escoba_tutor.players.hints import hints

    game = Game(players=2, seed=1)
    assert game.turn == 0 and game.dealer == 1, "the computer deals, the student plays first"
    assert set(game.hands[0]) == set(parse_cards("6o 2e 1b"))
    assert set(game.table) == set(parse_cards("3o 5c 10e 3b"))
    ranked = [hint.move for hint in hints(game.view(0), ExpertBot(seed=0))]
    assert ranked == [Move("1b", "3o 10e 3b"), Move("2e", "5c 10e"), Move("6o")]
    assert value([*game.table, *parse_cards("6o")]) == 25, "laid down, the six of coins leaves 25: no escoba"
