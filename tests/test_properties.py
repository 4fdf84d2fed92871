"""Property tests: random seeded games of both profiles and every player count, played through the public API
and checked against the test suite's own reading of docs/rules.md (see conftest.py)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from escoba_test_helpers import (
    ALL_CODES,
    brute_captures,
    codes,
    play_randomly,
    reference_score,
    side_of,
    value,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from escoba_tutor import (
    ESCOBA,
    SCOPA,
    Card,
    Game,
    NothingToUndoError,
    format_cards,
    legal_captures,
    parse_cards,
    score_deal,
)
from escoba_tutor.engine.game import MAX_SEED

ESCOBA_DE_MANO = {"15/30": {15: 1, 30: 2}, "15/20": {15: 1, 20: 2}, "none": {}}


@st.composite
def new_games(draw, targets=(None,)):
    """A fresh game (random profile, player count, seed, first dealer) and a random source for its moves."""
    players = draw(st.sampled_from([2, 3, 4]))
    rules = draw(st.sampled_from([ESCOBA, SCOPA]))
    target = draw(st.sampled_from(targets))
    if target is not None:
        rules = rules.replace(target=target)
    seed = draw(st.integers(0, MAX_SEED))
    dealer = draw(st.none() | st.integers(0, players - 1))
    return Game(players=players, rules=rules, seed=seed, dealer=dealer), random.Random(draw(st.integers()))


def is_match(game) -> bool:
    return game.rules.capture == "match"


# ------------------------------------------------------------------------------------------------ checks
def cards_in(thing):
    """Every card inside a value: cards, moves, events, tuples, sets, dicts and dataclasses, recursively."""
    if isinstance(thing, Card):
        yield thing.code
    elif isinstance(thing, (str, bytes, int, float, type(None))):
        return
    elif dataclasses.is_dataclass(thing):
        for field in dataclasses.fields(thing):
            yield from cards_in(getattr(thing, field.name))
    elif isinstance(thing, dict):
        for key, item in thing.items():
            yield from cards_in(key)
            yield from cards_in(item)
    elif isinstance(thing, (tuple, list, set, frozenset)):
        for item in thing:
            yield from cards_in(item)


def check_cards_accounted(game):
    """Hands + table + piles + the undealt deck hold the 40 cards, each once."""
    held = [c.code for hand in game.hands for c in hand] + [c.code for c in game.table]
    held += [c.code for pile in game.piles for c in pile]
    assert len(held) == len(set(held)), "a card is in two places"
    lost = 0
    if game.is_over and game.deals[-1].leftover_to is None:
        lost = len(game.deals[-1].leftover)   # a leftover nobody won (no capture in the whole deal)
    assert len(held) + game.deck_left + lost == 40
    sizes = [len(hand) for hand in game.hands]
    assert max(sizes) - min(sizes) <= 1 and max(sizes) <= 3
    if not game.is_over:
        assert len(game.hand(game.turn)) == max(sizes) > 0


def check_legal_moves(game):
    """legal_moves() is exactly: every capture of every hand card, or laying the card down if it has none."""
    if game.is_over:
        assert game.legal_moves() == ()
        return
    table = [c.code for c in game.table]
    expected = set()
    for card in game.hand(game.turn):
        captures = brute_captures(card, table, is_match(game))
        expected |= {(card.code, x) for x in captures} or {(card.code, frozenset())}
    legal = game.legal_moves()
    found = [(m.card.code, codes(m.captured)) for m in legal]
    assert len(found) == len(set(found)), "a move is listed twice"
    assert set(found) == expected


def hidden_from(game, player) -> set[str]:
    """What ``player`` must not see: the other hands and the undealt deck (worked out from open information)."""
    started = next(e for e in reversed(game.history) if e.kind == "deal_started")
    assert started.deal == game.deal or game.is_over
    played = {record.move.card.code for record in game.current_plays}
    all_hands = {c.code for hand in game.hands for c in hand}
    undealt = set(ALL_CODES) - all_hands - codes(started.table) - played
    assert len(undealt) == game.deck_left
    return (all_hands - codes(game.hand(player))) | undealt


def check_views(game):
    for player in range(game.players):
        view = game.view(player)
        hidden = hidden_from(game, player)
        assert view.player == player and view.side == side_of(game.players, player)
        assert view.hand == game.hand(player) and view.table == game.table
        assert view.hand_sizes == tuple(len(h) for h in game.hands)
        assert view.pile_sizes == tuple(len(p) for p in game.piles)
        assert (view.escobas, view.totals, view.deck_left, view.deal) == (
            game.escobas, game.totals, game.deck_left, game.deal)
        assert view.legal_moves == (game.legal_moves() if player == game.turn else ())
        assert codes(view.unseen) == hidden == set(ALL_CODES) - codes(view.seen)
        for name in view._fields:
            if name == "history":
                continue
            leaked = hidden & set(cards_in(getattr(view, name)))
            assert not leaked, f"view({player}).{name} shows hidden cards {leaked}"
        this_deal = [e for e in view.history if getattr(e, "deal", None) == game.deal]
        assert not hidden & set(cards_in(this_deal)), "the history shows a hidden card"
        assert view.history == game.history


def replay_deal(game, record):
    """Check one finished deal by replaying it from the open record with docs/rules.md (§2-§5) alone."""
    players, match = game.players, is_match(game)
    sides = 2 if players == 4 else players
    table = [c.code for c in record.table]
    piles = [set() for _ in range(sides)]
    escobas = [0] * sides
    last = None
    dealer_side = side_of(players, record.dealer)
    mano_escobas = ESCOBA_DE_MANO[game.rules.escoba_de_mano].get(sum(value(c) for c in table), 0)
    assert record.dealer_escobas == mano_escobas
    if mano_escobas:
        assert codes(record.dealer_capture) == set(table)
        piles[dealer_side] |= set(table)
        escobas[dealer_side] += mano_escobas
        last, table = dealer_side, []
    else:
        assert record.dealer_capture == ()
    played = set()
    for number, play in enumerate(record.plays):
        assert play.player == (record.dealer + 1 + number) % players
        card, taken = play.move.card.code, codes(play.move.captured)
        assert card in codes(play.hand) and card not in played
        played.add(card)
        legal = brute_captures(card, table, match)
        side = side_of(players, play.player)
        if taken:
            assert taken in legal
            table = [c for c in table if c not in taken]
            piles[side] |= taken | {card}
            last = side
            assert play.escoba == (not table)
            escobas[side] += play.escoba
        else:
            assert not legal, f"{card} was laid down though it could capture"
            table.append(card)
            assert not play.escoba
    assert len(played) == 36 and not played & codes(record.table)
    assert codes(record.leftover) == set(table)
    assert record.leftover_to == last
    if last is not None:
        piles[last] |= set(table)
    assert [codes(p) for p in record.piles] == piles
    assert list(record.escobas) == escobas
    if not match and game.rules.escoba_de_mano == "15/30":
        assert sum(value(c) for c in table) % 15 == 10
    expected = reference_score(piles, escobas, suit_count=game.rules.primera == "suit_count")
    assert list(record.score.points) == expected


def check_finished_deals(game):
    totals = [0] * len(game.sides)
    for number, record in enumerate(game.deals):
        assert record.deal == number and record.dealer == (game.first_dealer + number) % game.players
        replay_deal(game, record)
        totals = [t + p for t, p in zip(totals, record.score.points)]
        assert list(record.totals) == totals
        top = max(totals)
        decided = top >= game.rules.target and totals.count(top) == 1
        final = game.is_over and number == len(game.deals) - 1
        assert decided == final, f"deal {number}: totals {totals}, target {game.rules.target}"
    if game.deals:
        assert list(game.totals) == totals
    if game.is_over:
        assert game.winner == totals.index(max(totals))
        assert game.history[-1].kind == "game_won" and game.history[-1].side == game.winner


# ------------------------------------------------------------------------------------------------ properties
@settings(max_examples=25)
@given(new_games())
def test_every_step_of_a_whole_game(setup):
    """40 cards accounted for, exactly the legal moves, private views, at every step; then every finished deal
    replays by the rules, scores as the independent scorer says, and the game ends as docs/rules.md §6 says."""
    game, rng = setup
    while True:
        check_cards_accounted(game)
        check_legal_moves(game)
        check_views(game)
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
    assert game.is_over and game.deals
    check_finished_deals(game)


@settings(max_examples=60)
@given(new_games(targets=(1, 2, 4, 8)))
def test_games_with_low_targets_end_by_the_rules(setup):
    """Low targets make several sides reach the target together, and ties on top, often."""
    game, rng = setup
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
        assert len(game.deals) < 50
    check_cards_accounted(game)
    check_finished_deals(game)


@settings(max_examples=40)
@given(new_games(), st.floats(0.05, 0.4))
def test_undo_restores_the_exact_state(setup, undo_rate):
    game, rng = setup
    keys, moves = [game.state_key()], []
    for _ in range(rng.randrange(20, 160)):
        if moves and (game.is_over or rng.random() < undo_rate):
            for _ in range(rng.randint(1, min(6, len(moves)))):
                undone = game.undo()
                assert undone == moves.pop()
                keys.pop()
                assert game.state_key() == keys[-1]
            if rng.random() < 0.5:   # play the undone move again: the same state as before
                game.play(undone)
                moves.append(undone)
                keys.append(game.state_key())
        else:
            move = rng.choice(game.legal_moves())
            game.play(move)
            moves.append(move)
            keys.append(game.state_key())
        check_cards_accounted(game)
    while moves:
        assert game.undo() == moves.pop()
        keys.pop()
        assert game.state_key() == keys[-1]
    with pytest.raises(NothingToUndoError):
        game.undo()


@settings(max_examples=15)
@given(new_games())
def test_undo_across_the_end_of_a_deal(setup):
    game, rng = setup
    while not game.is_over:
        before, deal, deals = game.state_key(), game.deal, len(game.deals)
        move = rng.choice(game.legal_moves())
        game.play(move)
        if len(game.deals) > deals:
            after = game.state_key()
            assert game.undo() == move
            assert game.state_key() == before and game.deal == deal and len(game.deals) == deals
            assert not game.is_over and len(game.hand(game.turn)) == 1 and game.deck_left == 0
            game.play(move)
            assert game.state_key() == after


@settings(max_examples=30)
@given(new_games(), st.integers(0, 300))
def test_save_and_resume_code_round_trip(setup, moves):
    game, rng = setup
    play_randomly(game, rng, moves)
    key = game.state_key()
    assert Game.from_json(game.to_json()).state_key() == key
    code = game.resume_code()
    assert Game.from_resume_code(code).state_key() == key
    assert Game.from_resume_code(code.lower().replace("-", " ")).state_key() == key


TABLE_CARDS = st.lists(st.sampled_from(ALL_CODES), unique=True, min_size=1, max_size=16)
LOW_CARDS = st.lists(st.sampled_from([c for c in ALL_CODES if value(c) <= 5]), unique=True, min_size=1, max_size=16)


@settings(max_examples=300)
@given(TABLE_CARDS | LOW_CARDS, st.booleans())
def test_capture_generator_matches_brute_force(cards, match):
    card, table = cards[0], cards[1:]
    rules = SCOPA if match else ESCOBA
    found = legal_captures(card, " ".join(table), rules)
    found_codes = [codes(x) for x in found]
    assert len(found_codes) == len(set(found_codes))
    assert set(found_codes) == brute_captures(card, table, match)


@settings(max_examples=200)
@given(st.lists(st.sampled_from(ALL_CODES), unique=True, max_size=40), st.integers(2, 4), st.data())
def test_scoring_matches_the_independent_scorer(cards, sides, data):
    owners = data.draw(st.lists(st.integers(0, sides - 1), min_size=len(cards), max_size=len(cards)))
    piles = [[c for c, owner in zip(cards, owners) if owner == side] for side in range(sides)]
    escobas = data.draw(st.lists(st.integers(0, 6), min_size=sides, max_size=sides))
    for rules in (ESCOBA, SCOPA):
        score = score_deal([" ".join(p) for p in piles], escobas, rules)
        suit_count = rules.primera == "suit_count"
        assert list(score.points) == reference_score(piles, escobas, suit_count)
        for line in score.lines[1:]:   # after the escobas, every item is worth 1 to each winner
            assert list(line.points) == [1 if i in line.winners else 0 for i in range(sides)]
    shuffled = [list(reversed(p)) for p in piles]
    assert score_deal(shuffled, escobas).points == score_deal(piles, escobas).points


@settings(max_examples=100)
@given(st.lists(st.sampled_from(ALL_CODES), unique=True, max_size=12))
def test_parse_and_format_round_trip(cards):
    parsed = parse_cards(" ".join(cards))
    assert [c.code for c in parsed] == cards
    assert set(format_cards(parsed).split()) == set(cards)
