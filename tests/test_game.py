"""A whole game: setup, dealing, plays and refusals, undo, the end of the game; rules options."""

from __future__ import annotations

import random

import pytest
from escoba_test_helpers import brute_captures, codes, play_randomly, play_to_end, side_of, value

from escoba_tutor import (
    DECK,
    ESCOBA,
    SCOPA,
    Card,
    CardError,
    EscobaError,
    Game,
    GameOverError,
    IllegalMoveError,
    Move,
    MustCaptureError,
    NothingToUndoError,
    NotOnTableError,
    NotYourCardError,
    Rules,
    RulesError,
    WrongSumError,
    parse_card,
    rules_by_name,
)
from escoba_tutor.engine.game import MAX_SEED


def find_position(predicate, rules=ESCOBA, players=2, seeds=range(3000), moves_per_game=80):
    """The first game position (from random legal play) where ``predicate(game)`` returns something true."""
    for seed in seeds:
        game = Game(players=players, rules=rules, seed=seed)
        rng = random.Random(seed)
        for _ in range(moves_per_game + 1):
            found = predicate(game)
            if found:
                return game, found
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
    raise AssertionError("no position found: widen the search")


def hand_and_table(game):
    return [c.code for c in game.hand(game.turn)], [c.code for c in game.table]


def assert_refused(game, move, error_type):
    """The move raises ``error_type`` and the game is exactly as before."""
    before = game.state_key()
    legal_before = game.legal_moves()
    with pytest.raises(error_type) as info:
        game.play(move)
    assert game.state_key() == before
    assert game.legal_moves() == legal_before
    assert isinstance(info.value, (IllegalMoveError, CardError))
    return info.value


# ------------------------------------------------------------------------------------------------ setup
@pytest.mark.parametrize("players", [1, 5, 0, -2, "2", 2.0, True, None, [2]])
def test_bad_player_count(players):
    with pytest.raises(EscobaError) as info:
        Game(players=players)
    assert info.value.code == "player_count"
    assert repr(players) in str(info.value)


@pytest.mark.parametrize("seed", [-1, 2**60, MAX_SEED + 1, 1.5, 3.0, True, False, "7", [7]])
def test_bad_seed(seed):
    with pytest.raises(EscobaError) as info:
        Game(seed=seed)
    assert info.value.code == "bad_seed" and "seed" in str(info.value)


def test_seed_limits_are_accepted():
    assert Game(seed=0).seed == 0 and Game(seed=MAX_SEED).seed == MAX_SEED


@pytest.mark.parametrize("players, dealer", [(2, -1), (2, 2), (3, 3), (4, 4), (2, "0"), (2, True), (2, 1.0)])
def test_bad_dealer(players, dealer):
    with pytest.raises(EscobaError) as info:
        Game(players=players, seed=1, dealer=dealer)
    assert info.value.code == "bad_dealer" and "dealer" in str(info.value)


@pytest.mark.parametrize("rules", [None, {"capture": "fifteen"}, ESCOBA.to_dict(), 5])
def test_rules_must_be_rules_or_a_rules_name(rules):
    with pytest.raises(RulesError) as info:
        Game(rules=rules)
    assert info.value.code == "bad_rules"


def test_rules_can_be_named():
    assert Game(rules="scopa", seed=1).rules == SCOPA
    with pytest.raises(RulesError, match="no rules profile"):
        Game(rules="poker")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_new_game_deals_three_each_and_four_to_the_table(players):
    for seed in range(30):
        game = Game(players=players, seed=seed)
        assert [len(game.hand(p)) for p in range(players)] == [3] * players
        assert len(game.table) == 4 or (len(game.table) == 0 and sum(game.escobas) > 0)
        assert game.deck_left == 40 - 3 * players - 4
        assert game.turn == (game.dealer + 1) % players          # the mano, to the dealer's right
        assert game.deal == 0 and game.totals == (0,) * len(game.sides) and game.winner is None
        assert 0 <= game.dealer < players and game.first_dealer == game.dealer


def test_sides_and_partners():
    assert Game(players=2).sides == ((0,), (1,))
    assert Game(players=3).sides == ((0,), (1,), (2,))
    game = Game(players=4)
    assert game.sides == ((0, 2), (1, 3))
    assert game.side_of == (0, 1, 0, 1)


def test_same_seed_same_game_and_dealer_can_be_chosen():
    assert Game(players=3, seed=99).state_key() == Game(players=3, seed=99).state_key()
    assert len({Game(seed=s).hand(0) for s in range(20)}) > 15
    for dealer in range(4):
        game = Game(players=4, seed=5, dealer=dealer)
        assert game.dealer == dealer and game.turn == (dealer + 1) % 4


@pytest.mark.parametrize("players, rounds", [(2, 6), (3, 4), (4, 3)])
def test_deals_rotate_to_the_right_and_play_in_turn(players, rounds):
    game = play_to_end(Game(players=players, seed=11 + players), random.Random(players))
    assert len(game.deals) >= 2
    for number, record in enumerate(game.deals):
        assert record.deal == number
        assert record.dealer == (game.first_dealer + number) % players
        assert len(record.plays) == 36
        assert [p.player for p in record.plays] == [(record.dealer + 1 + k) % players for k in range(36)]
        dealt = [e for e in game.history if e.kind == "cards_dealt" and e.deal == number]
        assert [e.round for e in dealt] == list(range(1, rounds + 1))
        assert [len(p.hand) for p in record.plays[:players]] == [3] * players


# ----------------------------------------------------------------------------------------- escoba de mano
def _first_table_total(seed, players=2):
    table = next(e.table for e in Game(players=players, seed=seed).history if e.kind == "deal_started")
    return sum(value(c.code) for c in table)


def _seed_with_table_total(total, players=2):
    return next(seed for seed in range(20_000) if _first_table_total(seed, players) == total)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("total, escobas", [(15, 1), (30, 2)])
def test_escoba_de_mano(players, total, escobas):
    seed = _seed_with_table_total(total, players)
    game = Game(players=players, seed=seed)
    started = next(e for e in game.history if e.kind == "deal_started")
    side = side_of(players, game.dealer)
    assert game.table == ()
    assert game.escobas[side] == escobas and sum(game.escobas) == escobas
    assert codes(game.piles[side]) == codes(started.table)
    event = next(e for e in game.history if e.kind == "escoba_de_mano")
    assert (event.player, event.side, event.escobas) == (game.dealer, side, escobas)
    assert game.turn == (game.dealer + 1) % players


def test_no_escoba_de_mano_for_other_totals_or_in_scopa():
    seed15 = _seed_with_table_total(15)
    scopa = Game(seed=seed15, rules=SCOPA)
    assert len(scopa.table) == 4 and scopa.escobas == (0, 0)
    seed20 = _seed_with_table_total(20)
    assert len(Game(seed=seed20).table) == 4
    # the 15/20 variant: 2 escobas for a 20 table, nothing for 30
    variant = ESCOBA.replace(escoba_de_mano="15/20")
    game = Game(seed=seed20, rules=variant)
    assert game.table == () and sum(game.escobas) == 2
    assert len(Game(seed=_seed_with_table_total(30), rules=variant).table) == 4


# ---------------------------------------------------------------------------------------- refused moves
def test_card_not_in_hand_is_refused():
    game = Game(players=2, seed=3)
    other = game.hand((game.turn + 1) % 2)[0]
    error = assert_refused(game, Move(other), NotYourCardError)
    assert other.code in str(error) and error.code == "card_not_in_hand"
    if game.table:
        assert_refused(game, Move(game.table[0]), NotYourCardError)


def test_taken_card_not_on_table_is_refused():
    game = Game(players=2, seed=3)
    card = game.hand(game.turn)[0]
    absent = game.hand((game.turn + 1) % 2)[0]
    error = assert_refused(game, Move(card, frozenset([absent])), NotOnTableError)
    assert absent.code in str(error) and "not on the table" in str(error)


def test_wrong_sum_is_refused_with_the_sum_and_the_legal_captures():
    def wrong_pair(game):
        hand, table = hand_and_table(game)
        return next(((c, t) for c in hand for t in table if value(c) + value(t) != 15), None)

    game, (card, taken) = find_position(wrong_pair)
    error = assert_refused(game, f"{card}+{taken}", WrongSumError)
    assert error.params["sum"] == value(card) + value(taken) and error.params["goal"] == 15
    assert str(value(card) + value(taken)) in str(error)
    hand, table = hand_and_table(game)
    assert {codes(c) for c in error.legal_captures} == brute_captures(card, table)


def test_laying_down_a_card_that_could_capture_is_refused_with_every_legal_capture():
    def capturing_card(game):
        hand, table = hand_and_table(game)
        return next(((c, brute_captures(c, table)) for c in hand if len(brute_captures(c, table)) >= 2), None)

    game, (card, captures) = find_position(capturing_card)
    error = assert_refused(game, card, MustCaptureError)
    assert error.code == "must_capture"
    assert {codes(c) for c in error.legal_captures} == captures
    for capture in captures:   # the message shows each capture
        assert " ".join(sorted(capture, key=lambda c: parse_card(c).index)) in str(error)


def test_a_card_that_cannot_capture_may_be_laid_down_while_another_could_capture():
    def mixed_hand(game):
        hand, table = hand_and_table(game)
        free = [c for c in hand if not brute_captures(c, table)]
        return free[0] if free and len(free) < len(hand) else None

    game, card = find_position(mixed_hand)
    size = len(game.table)
    event = game.play(card)
    assert event.captured == () and len(game.table) == size + 1


def test_scopa_equal_card_must_be_taken_alone():
    def combo_beside_equal_card(game):
        hand, table = hand_and_table(game)
        for card in hand:
            others = [t for t in table if value(t) != value(card)]
            combos = brute_captures(card, others, match=True)
            if combos and any(value(t) == value(card) for t in table):
                return card, min(combos, key=len)
        return None

    game, (card, combo) = find_position(combo_beside_equal_card, rules=SCOPA)
    error = assert_refused(game, Move.of(card, combo), IllegalMoveError)
    assert error.code == "equal_card_first" and "alone" in str(error)
    hand, table = hand_and_table(game)
    assert {codes(c) for c in error.legal_captures} == {frozenset([t]) for t in table if value(t) == value(card)}


@pytest.mark.parametrize("move, error_type", [("", CardError), ("8o", CardError), ("7o+7o", CardError),
                                              ("3c+", CardError), ("3c 1o", CardError), (None, IllegalMoveError),
                                              (42, IllegalMoveError), (["7o"], IllegalMoveError)])
def test_bad_move_input_is_refused(move, error_type):
    game = Game(seed=3)
    assert_refused(game, move, error_type)


@pytest.mark.parametrize("build", [lambda g: Move(g.hand(g.turn)[0].code),
                                   lambda g: Move(g.hand(g.turn)[0], frozenset([g.table[0].code])),
                                   lambda g: Move(g.hand(g.turn)[0], None)])
def test_a_move_built_from_codes_is_the_same_move(build):
    game = Game(seed=3)
    move = build(game)
    assert all(type(c) is Card for c in (move.card, *move.captured))
    before = game.state_key()
    if move in game.legal_moves():
        game.play(move)
        assert game.moves[-1] == move
    else:
        with pytest.raises(EscobaError):
            game.play(move)
        assert game.state_key() == before


@pytest.mark.parametrize("args", [(42,), (None,), ("7o", 5), ("7o", ["1o", 3])])
def test_a_move_of_the_wrong_types_is_refused(args):
    with pytest.raises(EscobaError):
        Move(*args)


def test_the_same_play_in_every_accepted_form():
    def capture(game):
        hand, table = hand_and_table(game)
        return next(((c, sorted(x)) for c in hand for x in brute_captures(c, table) if len(x) >= 2), None)

    game, (card, taken) = find_position(capture)
    french = {"o": "D", "c": "H", "e": "S", "b": "C"}
    fr_rank = {1: "A", 10: "J", 11: "Q", 12: "K"}

    def to_french(code):
        number = int(code[:-1])
        return fr_rank.get(number, str(number)) + french[code[-1]]

    forms = [Move.of(card, taken), "+".join([card, *taken]), "+".join(map(to_french, [card, *taken])),
             " + ".join([card, *reversed(taken)])]
    after = []
    for form in forms:
        event = game.play(form)
        assert event.card.code == card and codes(event.captured) == frozenset(taken)
        after.append(game.state_key())
        game.undo()
    game.play(card, taken)
    assert all(key == game.state_key() for key in after)


# ------------------------------------------------------------------------------------------ plays and deals
def test_a_capture_goes_to_the_sides_pile_and_clearing_the_table_is_an_escoba():
    def sweep(game):
        hand, table = hand_and_table(game)
        return next(((c, x) for c in hand for x in brute_captures(c, table) if len(x) == len(table)), None)

    game, (card, taken) = find_position(sweep, players=4)
    player, side = game.turn, side_of(4, game.turn)
    pile, escobas = codes(game.piles[side]), game.escobas
    event = game.play(Move.of(card, taken))
    assert event.escoba and event.player == player and event.side == side
    assert game.table == ()
    assert codes(game.piles[side]) == pile | taken | {card}
    assert game.escobas[side] == escobas[side] + 1


def test_the_last_capturer_takes_the_leftover_and_it_is_no_escoba():
    game = play_to_end(Game(players=3, seed=21), random.Random(2))
    for record in game.deals:
        last = next((p for p in reversed(record.plays) if p.move.is_capture), None)
        assert last is not None
        assert record.leftover_to == side_of(3, last.player)
        assert codes(record.leftover) <= codes(record.piles[record.leftover_to])
        event = next(e for e in game.history if e.kind == "leftover" and e.deal == record.deal)
        assert codes(event.cards) == codes(record.leftover) and event.side == record.leftover_to


def test_an_escoba_on_the_last_play_of_a_deal_counts_in_scopa():
    def last_play_sweeps(game):
        return next((r for r in game.deals if r.leftover == ()), None)

    game, record = find_position(last_play_sweeps, rules=SCOPA, moves_per_game=400)
    last = record.plays[-1]
    assert last.move.is_capture and last.escoba
    side = side_of(game.players, last.player)
    earlier = sum(1 for p in record.plays[:-1] if p.escoba and side_of(game.players, p.player) == side)
    assert record.escobas[side] >= 1 + earlier


def test_a_shared_top_total_over_the_target_plays_another_deal():
    rules = ESCOBA.replace(target=1)

    def tied_first_deal(game):
        return bool(game.deals) and len(set(game.deals[0].totals)) == 1

    game, _ = find_position(tied_first_deal, rules=rules, moves_per_game=40)
    assert game.deals[0].totals[0] >= 1
    assert game.winner is None and game.deal == 1


def test_the_highest_total_wins_when_several_reach_the_target():
    rules = ESCOBA.replace(target=1)

    def both_over(game):
        return game.is_over and min(game.totals) >= 1

    game, _ = find_position(both_over, rules=rules, moves_per_game=200)
    assert game.totals[game.winner] == max(game.totals)
    assert sorted(game.totals)[-1] > sorted(game.totals)[-2]
    assert game.history[-1].kind == "game_won" and game.history[-1].side == game.winner


# ---------------------------------------------------------------------------------------- undo, game over
def test_undo_with_nothing_to_undo():
    game = Game(seed=4)
    with pytest.raises(NothingToUndoError) as info:
        game.undo()
    assert info.value.code == "nothing_to_undo"
    first = game.state_key()
    move = game.legal_moves()[0]
    game.play(move)
    assert game.undo() == move and game.state_key() == first
    with pytest.raises(NothingToUndoError):
        game.undo()


def test_after_the_game_is_over():
    game = play_to_end(Game(players=2, seed=8), random.Random(8))
    assert game.is_over and game.turn is None and game.legal_moves() == ()
    winner = game.winner
    assert game.totals[winner] >= 21 and all(t < game.totals[winner] for i, t in enumerate(game.totals) if i != winner)
    last = game.moves[-1]
    final = game.state_key()
    for move in (last, last.text, game.deals[-1].plays[0].move, "1o"):
        with pytest.raises(GameOverError) as info:
            game.play(move)
        assert isinstance(info.value, IllegalMoveError) and "over" in str(info.value)
        assert game.state_key() == final
    assert game.undo() == last and not game.is_over and game.winner is None
    game.play(last)
    assert game.state_key() == final


# ------------------------------------------------------------------------------------------- views
@pytest.mark.parametrize("player", [-1, 2, "0", True, None, 0.0])
def test_view_of_a_player_not_in_the_game(player):
    with pytest.raises(EscobaError) as info:
        Game(players=2, seed=1).view(player)
    assert info.value.code == "bad_player"


def test_view_shows_own_hand_only():
    game = Game(players=4, seed=12)
    for player in range(4):
        view = game.view(player)
        assert view.hand == game.hand(player) and view.side == player % 2
        others = {c for p in range(4) if p != player for c in game.hand(p)}
        assert not others & view.seen and others <= set(view.unseen)
        assert view.my_turn == (player == game.turn)
        assert view.legal_moves == (game.legal_moves() if player == game.turn else ())


def test_a_view_is_an_immutable_value():
    game = Game(players=2, seed=4)
    view = game.view(0)
    with pytest.raises(AttributeError):
        view.totals = (20, 0)  # type: ignore[misc]
    assert view == game.view(0) and hash(view) == hash(game.view(0))
    game.play(game.legal_moves()[0])
    assert view != game.view(0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_view_sees_the_dealt_table_and_every_card_played_in_the_deal(players):
    """``seen`` and ``pile_sizes`` are worked out from the piles when read: they must match the history."""
    game = Game(players=players, seed=21 + players)
    rng = random.Random(players)
    while not game.is_over:
        started = next(e for e in reversed(game.history) if e.kind == "deal_started")
        played = [e.card for e in game.history if e.kind == "play" and e.deal == started.deal]
        for player in range(players):
            view = game.view(player)
            assert view.seen == frozenset([*started.table, *played, *game.hand(player)])
            assert view.pile_sizes == tuple(map(len, game.piles)) and view.piles == game.piles
        game.play(rng.choice(game.legal_moves()))
    for player in range(players):  # once the game is over, every card has been played
        view = game.view(player)
        assert view.seen == frozenset(DECK) and view.unseen == () and view.turn is None
        assert view.winner == game.winner is not None and view.legal_moves == ()


def test_captures_for_a_card_in_hand():
    def capture(game):
        hand, table = hand_and_table(game)
        return next((c for c in hand if brute_captures(c, table)), None)

    game, card = find_position(capture)
    assert {codes(c) for c in game.captures_for(card)} == brute_captures(card, [c.code for c in game.table])
    with pytest.raises(CardError):
        game.captures_for("9o")


def test_captures_for_a_card_on_the_table_is_refused():
    game = Game(seed=3)   # table 11c 1b 2b 7b: 7b + 1b would 'make' 15 - 7 = 8
    for card in game.table:
        with pytest.raises(CardError):
            game.captures_for(card)


# ------------------------------------------------------------------------------------------ rules options
def test_profiles_and_rules_names():
    assert ESCOBA.capture == "fifteen" and ESCOBA.target == 21 and ESCOBA.escoba_de_mano == "15/30"
    assert SCOPA.capture == "match" and SCOPA.target == 11 and SCOPA.primera == "suit_count"
    assert SCOPA.escoba_de_mano == "none"
    assert rules_by_name("scopa") is SCOPA and rules_by_name(" Escoba ") is ESCOBA
    custom = rules_by_name("escoba+target=31+escoba-de-mano=15/20")
    assert (custom.target, custom.escoba_de_mano, custom.profile) == (31, "15/20", "escoba")
    assert rules_by_name(custom.name) == custom
    assert Rules.from_dict(custom.to_dict()) == custom
    assert ESCOBA.replace(target=31).changes() == {"target": 31}


@pytest.mark.parametrize("build", [
    lambda: Rules(capture="sideways"), lambda: Rules(capture="FIFTEEN"), lambda: Rules(escoba_de_mano="15/25"),
    lambda: Rules(primera=1), lambda: Rules(target=0), lambda: Rules(target=1000), lambda: Rules(target=True),
    lambda: Rules(target=21.0), lambda: Rules(target="21"), lambda: Rules(profile="tute"), lambda: Rules(profile=None),
    lambda: ESCOBA.replace(target=-5), lambda: ESCOBA.replace(capture=None), lambda: ESCOBA.replace(speed=3),
    lambda: ESCOBA.replace(profile="scopa ")])
def test_bad_rules_options(build):
    with pytest.raises(RulesError) as info:
        build()
    assert isinstance(info.value, ValueError)


def test_unknown_option_names_the_option():
    with pytest.raises(RulesError) as info:
        ESCOBA.replace(speed=3)
    assert info.value.code == "unknown_option" and "speed" in str(info.value)
    with pytest.raises(RulesError) as info:
        Rules(capture="sideways")
    assert "capture" in str(info.value) and "sideways" in str(info.value) and "fifteen" in str(info.value)


@pytest.mark.parametrize("name", ["tute", "", "+", "escoba+", "escoba+target", "escoba+target=abc",
                                  "escoba+speed=3", "escoba+capture=sideways", "escoba+target=0",
                                  "escoba+target=" + "9" * 5000, "escoba+profile=scopa", "scopa+target=1.5",
                                  None, 21, ["escoba"]])
def test_bad_rules_names(name):
    with pytest.raises(RulesError):
        rules_by_name(name)


@pytest.mark.parametrize("data", ["escoba", None, [("target", 31)], {"profile": 3}, {"profile": "tute"},
                                  {"profile": "escoba", "target": "21"}, {"bogus": 1}, {"capture": ["fifteen"]},
                                  {"_escoba_de_mano_totals": {}}])
def test_bad_rules_dicts(data):
    with pytest.raises(RulesError):
        Rules.from_dict(data)


def test_rules_dict_with_a_non_text_key():
    with pytest.raises(RulesError):
        Rules.from_dict({"profile": "escoba", 1: 2})


def test_a_random_game_goes_on_after_refusals():
    game = Game(players=3, seed=77)
    rng = random.Random(77)
    for _ in range(60):
        before = game.state_key()
        elsewhere = [c.code for p in range(3) if p != game.turn for c in game.hand(p)] + [c.code for c in game.table]
        for bad in ("8o", *elsewhere[:2]):
            with pytest.raises(EscobaError):
                game.play(bad)
        assert game.state_key() == before
        play_randomly(game, rng, 1)


@pytest.mark.parametrize("seed", [3, 8])
def test_a_view_keeps_its_moment_after_undo_and_other_moves(seed):
    """A view is a value: its fields stay those of its moment, whatever the game does next."""
    game = Game(players=2, seed=seed)
    rng = random.Random(seed)
    for _ in range(20):
        game.play(rng.choice(game.legal_moves()))
    views = [game.view(player) for player in (0, 1)]
    expected = [(view.player, game.history, game.table, game.piles, game.hand(view.player)) for view in views]
    for _ in range(3):
        game.undo()
    for _ in range(8):  # other moves after the undo, across a round's end
        game.play(game.legal_moves()[-1])
    for view, (player, history, table, piles, hand) in zip(views, expected):
        assert (view.player, view.history, view.table, view.hand) == (player, history, table, hand)
        assert view.pile_sizes == tuple(map(len, piles))
        assert view.seen == frozenset([*table, *hand, *(card for pile in piles for card in pile)])


# ---------------------------------------------------------------- a finished deal dealt again from its plays
@pytest.mark.parametrize("players, rules", [(2, "escoba"), (4, "escoba"), (2, "escoba+escoba_de_mano_pairs"),
                                            (2, "scopa"), (4, "escoba+figuras")])
def test_every_finished_deal_is_dealt_again_from_its_public_plays(players: int, rules: str) -> None:
    """A table's review replays a finished deal from what every player saw (its table dealt and its plays): the
    deal made again is the deal played, card for card, escobas de mano included, and restarting it replays it."""
    from escoba_tutor.engine.game import deal_deck

    for seed in range(6):
        game = Game(players=players, rules=rules, seed=seed)
        play_randomly(game, random.Random(seed), 400)
        assert game.deals
        for record in game.deals:
            public = game.view(0).history  # a player's own view: public events only
            before = tuple(t - p for t, p in zip(record.totals, record.score.points))
            again = Game.dealt_from(players, rules, deck=deal_deck(players, public, record.deal),
                                    dealer=record.dealer, deal=record.deal, totals=before)
            for play in record.plays:
                again.play(play.move)
            assert again.deals == (record,)
            replay = again.restarted()
            assert replay.deal == record.deal and replay.moves == () and replay.hands == again.restarted().hands
            for move in again.moves:
                replay.play(move)
            assert replay.deals == (record,)


def test_a_deal_not_finished_or_a_deck_that_is_not_one_is_refused() -> None:
    from escoba_tutor.engine.game import deal_deck

    game = Game(players=2, seed=3)
    game.play(game.legal_moves()[0])
    with pytest.raises(EscobaError) as refused:
        deal_deck(2, game.history, 0)  # the deal under way: its hands are not all played yet
    assert refused.value.code == "bad_position"
    with pytest.raises(EscobaError):
        Game.dealt_from(2, "escoba", deck=list(DECK)[:39], dealer=0)
    with pytest.raises(EscobaError):
        Game.dealt_from(2, "escoba", deck=DECK, dealer=0, totals=(1,))
    parts = Game.at_position(2, "escoba", dealer=1, turn=0, hands=game.hands, table=game.table,
                             deck=[c for c in DECK if c not in game.table and not any(c in h for h in game.hands)
                                   and not any(c in p for p in game.piles)], piles=game.piles)
    with pytest.raises(EscobaError):
        parts.restarted()  # a position built from parts has no start
