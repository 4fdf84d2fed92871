"""Traces: exact shape, and check_trace accepts every simulated game and catches each kind of tampering."""

from __future__ import annotations

import copy
import io
import json
import random
import re

import pytest

from escoba_tutor import ESCOBA, Game, parse_cards, rules_by_name
from escoba_tutor.engine.trace import (
    PLAY_KEYS,
    TRACE_KEYS,
    Problem,
    TraceWriter,
    _dealer_takes,
    check_trace,
    game_lines,
    game_to_json,
)
from escoba_tutor.players.simulate import simulate

CODE = re.compile(r"(?:[1-7]|1[012])[oceb]")


def make_trace(players=2, games=3, seed=1, rules="escoba"):
    stream = io.StringIO()
    simulate(players, games, seed, rules, trace=stream, progress=False)
    return [json.loads(line) for line in stream.getvalue().splitlines()]


@pytest.fixture(scope="module")
def trace2():
    return make_trace(players=2, games=6, seed=3)


@pytest.fixture
def trace(trace2):
    return copy.deepcopy(trace2)  # each test tampers with its own copy


def find_play(trace, test):
    """(deal index, play index) of the first play for which ``test(deal, play)`` holds."""
    for i, deal in enumerate(trace):
        for j, play in enumerate(deal["plays"]):
            if test(deal, play):
                return i, j
    raise AssertionError("no such play in the trace")


def at(problems, deal, play=None):
    """The problems located at this deal (and play)."""
    return [p for p in problems if (p.game, p.deal) == (deal["game"], deal["deal"])
            and (play is None or p.play == play)]


# ------------------------------------------------------------------------------------------------ shape
def is_codes(value, length=None):
    return isinstance(value, list) and all(isinstance(c, str) and CODE.fullmatch(c) for c in value) and (
        length is None or len(value) == length)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_trace_has_exactly_the_keys_and_types(players):
    sides = {2: [[0], [1]], 3: [[0], [1], [2]], 4: [[0, 2], [1, 3]]}[players]
    trace = make_trace(players=players, games=2, seed=7)
    assert trace
    for deal in trace:
        assert list(deal) == list(TRACE_KEYS)  # no "variants": the profile is unchanged
        assert type(deal["game"]) is int and type(deal["deal"]) is int
        assert deal["rules"] == "escoba" and deal["players"] == players and deal["sides"] == sides
        assert deal["dealer"] in range(players)
        assert is_codes(deal["table"], 4) and is_codes(deal["dealer_capture"]) and is_codes(deal["leftover"])
        assert type(deal["dealer_escobas"]) is int
        assert deal["leftover_to"] is None or deal["leftover_to"] in range(len(sides))
        assert len(deal["piles"]) == len(sides) and all(is_codes(pile) for pile in deal["piles"])
        for key in ("escobas", "points", "totals"):
            assert len(deal[key]) == len(sides) and all(type(n) is int for n in deal[key])
        assert len(deal["plays"]) == 36
        for play in deal["plays"]:
            assert list(play) == list(PLAY_KEYS)
            assert play["player"] in range(players)
            assert is_codes(play["hand"]) and 1 <= len(play["hand"]) <= 3
            assert CODE.fullmatch(play["card"]) and play["card"] in play["hand"]
            assert is_codes(play["captured"]) and type(play["escoba"]) is bool
        all_cards = deal["table"] + [c for play in deal["plays"] for c in play["hand"] if len(play["hand"]) == 3]
        assert len(set(all_cards)) == 40
    # The example of the brief, checked on real data: sides, points this deal, totals so far.
    assert trace[0]["totals"] == trace[0]["points"]


def test_variants_appear_only_when_the_rules_differ_from_their_profile():
    trace = make_trace(players=2, games=1, seed=2, rules="escoba+target=11+figuras")
    assert all(deal["variants"] == {"target": 11, "figuras": True} for deal in trace)
    assert list(trace[0]) == [*TRACE_KEYS[:3], "variants", *TRACE_KEYS[3:]]
    assert check_trace(trace) == []
    scopa = make_trace(players=2, games=1, seed=2, rules="scopa")
    assert all(deal["rules"] == "scopa" and "variants" not in deal for deal in scopa)


# ---------------------------------------------------------------------------------------- valid traces
@pytest.mark.parametrize("rules", ["escoba", "scopa"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulated_traces_pass(players, rules):
    trace = make_trace(players=players, games=3, seed=players, rules=rules)
    assert check_trace(trace) == []


@pytest.mark.parametrize("players, rules", [
    (2, "escoba+capture_optional"), (2, "escoba+no_last_play_escoba"), (4, "escoba+escoba_de_mano_pairs"),
    (3, "escoba+chile"), (3, "escoba+three_player_ties"), (2, "escoba+escoba_de_mano_15_20+cards_bonus"),
    (4, "scopa+sevens+all_sevens_bonus"),
])
def test_simulated_traces_pass_with_variants(players, rules):
    assert check_trace(make_trace(players=players, games=2, seed=5, rules=rules)) == []


def test_renuncio_lay_downs_are_accepted_and_scored_under_that_variant():
    # Bots only play legal moves, so play the renuncio lay-downs here, through the game's own API.
    game = Game(players=2, rules=rules_by_name("escoba+renuncio"), seed=4, dealer=0)
    chooser = random.Random(1)
    renuncios = 0
    while not game.is_over:
        offending = game.renuncio_moves()
        # Now and then only: when both sides renounce in a deal, neither scores, and the game drags on.
        if offending and chooser.random() < 0.1:
            move = chooser.choice(offending)
            renuncios += 1
        else:
            move = chooser.choice(game.legal_moves())
        game.play(move)
    assert renuncios
    trace = game_to_json(0, game)
    assert check_trace(trace) == []
    for deal in trace:  # the same plays under the default rules break must-capture
        deal.pop("variants")
    assert any("so it must" in p.message for p in check_trace(trace))


def test_check_trace_reads_a_path_text_lines_or_objects(tmp_path, trace2):
    path = tmp_path / "trace.jsonl"
    path.write_text("".join(json.dumps(deal) + "\n" for deal in trace2) + "\n", encoding="utf-8")
    assert check_trace(path) == []
    assert check_trace(str(path)) == []
    assert check_trace(path.read_text(encoding="utf-8").splitlines()) == []
    with open(path, encoding="utf-8") as stream:
        assert check_trace(stream) == []
    assert check_trace(trace2) == []


def test_escoba_de_mano_pairs_take_the_earliest_pair_dealt():
    rules = ESCOBA.replace(escoba_de_mano_pairs=True)
    # 7o + sota and sota + 7c both make 15 and share the sota: the pair dealt first is taken.
    table = parse_cards("7o 10c 7c 1b")
    assert _dealer_takes(table, rules) == (frozenset(parse_cards("7o 10c")), 1)
    assert _dealer_takes(parse_cards("7c 10c 7o 1b"), rules) == (frozenset(parse_cards("7c 10c")), 1)
    assert _dealer_takes(table, ESCOBA) == (frozenset(), 0)
    assert _dealer_takes(parse_cards("1o 2o 5o 7o"), ESCOBA) == (frozenset(parse_cards("1o 2o 5o 7o")), 1)


# ---------------------------------------------------------------------------------------- tampering
def test_a_capture_that_does_not_make_15_is_caught(trace):
    i, j = find_play(trace, lambda deal, play: len(play["captured"]) >= 2)
    trace[i]["plays"][j]["captured"].pop()
    problems = at(check_trace(trace), trace[i], j)
    assert problems and "cannot take" in problems[0].message


def test_a_capture_of_cards_not_on_the_table_is_caught(trace):
    i, j = find_play(trace, lambda deal, play: play["captured"])
    trace[i]["plays"][j]["captured"].append(next(c for c in trace[i]["plays"][j + 1]["hand"]))
    problems = at(check_trace(trace), trace[i], j)
    assert problems and "not on the table" in problems[0].message


def test_laying_down_a_card_that_could_capture_is_caught(trace):
    i, j = find_play(trace, lambda deal, play: play["captured"])
    trace[i]["plays"][j]["captured"] = []
    trace[i]["plays"][j]["escoba"] = False
    problems = at(check_trace(trace), trace[i], j)
    assert problems and "so it must" in problems[0].message


def test_a_wrong_point_is_caught(trace):
    trace[2]["points"][1] += 1
    problems = check_trace(trace)
    assert [p.message.split(" (")[0] for p in problems] == [
        f"the points should be {[trace[2]['points'][0], trace[2]['points'][1] - 1]}"]
    assert (problems[0].game, problems[0].deal, problems[0].play) == (trace[2]["game"], trace[2]["deal"], None)


def test_a_wrong_total_is_caught(trace):
    trace[1]["totals"][0] += 2
    problems = check_trace(trace)
    assert len(problems) == 1 and problems[0].message.startswith("the totals should be")


def test_a_missing_play_is_caught(trace):
    deal = trace[1]
    del deal["plays"][7]
    problems = at(check_trace(trace), deal)
    assert problems
    assert problems[0].play == 7  # the next play is out of turn


def test_a_missing_last_play_is_caught(trace):
    deal = trace[0]
    deal["plays"].pop()
    messages = [p.message for p in at(check_trace(trace), deal)]
    assert any("35 plays, not 36" in m for m in messages)


def test_a_card_dealt_twice_is_caught(trace):
    deal = trace[0]
    play = deal["plays"][1]  # the second player's first hand of the deal
    spare = next(c for c in play["hand"] if c != play["card"])
    play["hand"][play["hand"].index(spare)] = deal["table"][0]
    problems = at(check_trace(trace), deal, 1)
    assert problems and "dealt twice" in problems[0].message


def test_a_hand_that_does_not_follow_from_the_plays_is_caught(trace):
    deal = trace[0]
    play = deal["plays"][2]  # player of play 0, one card fewer
    play["hand"] = play["hand"][:-1] + [deal["plays"][0]["card"]]
    problems = at(check_trace(trace), deal, 2)
    assert problems and "hand" in problems[0].message


def test_a_card_not_in_the_stated_hand_is_caught(trace):
    deal = trace[0]
    play = deal["plays"][0]
    play["card"] = deal["plays"][1]["hand"][0]
    problems = at(check_trace(trace), deal, 0)
    assert problems and "is not in player" in problems[0].message


def test_a_wrong_leftover_to_is_caught(trace):
    i = next(i for i, deal in enumerate(trace) if deal["leftover_to"] is not None)
    trace[i]["leftover_to"] = 1 - trace[i]["leftover_to"]
    problems = at(check_trace(trace), trace[i])
    assert problems and "the leftover goes to" in problems[0].message
    trace[i]["leftover_to"] = None
    assert any("the leftover goes to" in p.message for p in at(check_trace(trace), trace[i]))


def test_a_wrong_leftover_is_caught(trace):
    i = next(i for i, deal in enumerate(trace) if deal["leftover"])
    trace[i]["leftover"].pop()
    assert any("the leftover is" in p.message for p in at(check_trace(trace), trace[i]))


def test_a_flipped_escoba_flag_is_caught(trace):
    i, j = find_play(trace, lambda deal, play: play["escoba"])
    trace[i]["plays"][j]["escoba"] = False
    problems = at(check_trace(trace), trace[i], j)
    assert problems and "escoba flag" in problems[0].message


def test_wrong_piles_and_escobas_are_caught(trace):
    deal = trace[0]
    deal["piles"][0], deal["piles"][1] = deal["piles"][1], deal["piles"][0]
    deal["escobas"][0] += 1
    messages = [p.message for p in at(check_trace(trace), deal)]
    assert any("pile lacks" in m for m in messages)
    assert any(m.startswith("the escobas are") for m in messages)


def test_a_wrong_escoba_de_mano_is_caught():
    trace = make_trace(players=2, games=12, seed=1)
    i = next(i for i, deal in enumerate(trace) if deal["dealer_escobas"])
    tampered = copy.deepcopy(trace)
    tampered[i]["dealer_escobas"] = 0
    assert any("escoba de mano" in p.message or "the dealer takes" in p.message
               for p in at(check_trace(tampered), tampered[i]))
    j = next(j for j, deal in enumerate(trace) if not deal["dealer_escobas"])
    tampered = copy.deepcopy(trace)
    tampered[j]["dealer_escobas"] = 1
    assert any("no escoba de mano" in p.message for p in at(check_trace(tampered), tampered[j]))


def test_a_wrong_dealer_is_caught(trace):
    trace[1]["dealer"] = (trace[1]["dealer"] + 1) % 2
    messages = [p.message for p in at(check_trace(trace), trace[1])]
    assert any("the dealer must be player" in m for m in messages)


def test_a_missing_deal_is_caught(trace):
    assert trace[1]["game"] == trace[2]["game"]
    del trace[1]
    messages = [p.message for p in check_trace(trace)]
    assert any("was expected here" in m for m in messages)


def test_a_game_cut_short_or_going_on_after_a_win_is_caught(trace):
    last = max(i for i, deal in enumerate(trace) if deal["game"] == 0)
    cut = trace[:last] + trace[last + 1:]
    assert any("without a winner" in p.message for p in check_trace(cut))
    extra = copy.deepcopy(trace[last])
    extra["deal"] += 1
    longer = trace[:last + 1] + [extra] + trace[last + 1:]
    assert any("had already won" in p.message for p in check_trace(longer))


@pytest.mark.parametrize("tamper, expected", [
    (lambda deal: deal.update(extra=1), "unexpected 'extra'"),
    (lambda deal: deal.pop("piles"), "missing 'piles'"),
    (lambda deal: deal["table"].__setitem__(0, "7D"), "not a card code"),
    (lambda deal: deal["table"].__setitem__(0, "8o"), "not a card code"),
    (lambda deal: deal["plays"][0].update(escoba="no"), "'escoba' must be true or false"),
    (lambda deal: deal.update(players=5), "'players' must be a whole number from 2 to 4"),
    (lambda deal: deal.update(rules="poker"), "'rules' must name a profile"),
    (lambda deal: deal.update(sides=[[0, 1]]), "'sides' must be"),
    (lambda deal: deal["table"].append(deal["table"][0]), "twice"),
])
def test_malformed_deals_are_reported_not_raised(trace, tamper, expected):
    tamper(trace[0])
    problems = check_trace(trace)
    assert problems and expected in problems[0].message
    assert problems[0].line == 1


def test_lines_that_are_not_json_objects_are_reported():
    problems = check_trace(["{not json", "[]", ""])
    assert [p.line for p in problems] == [1, 2]
    assert "not JSON" in problems[0].message
    assert check_trace([])[0].message == "the trace holds no deal"


def test_problem_text_names_where():
    problem = Problem(line=3, game=0, deal=2, play=5, message="7o is not in player 1's hand")
    assert str(problem) == "line 3, game 0, deal 2, play 5: 7o is not in player 1's hand"
    assert str(Problem(None, None, None, None, "empty")) == "empty"


@pytest.mark.parametrize(("rules", "players"), [
    ("escoba", 2), ("escoba", 3), ("escoba", 4), ("scopa", 2), ("escoba+capture_optional", 2),
    ("escoba+escoba_de_mano_pairs", 2), ("escoba+renuncio", 2), ("escoba+chile", 3), ("escoba+target=31", 4),
    ("escoba+no_last_play_escoba+ties_both_score", 2),
])
def test_the_written_lines_are_the_trace_objects_as_json(rules, players):
    """The writer builds its lines as text; they must be json.dumps of deal_to_json, character for character."""
    for seed in range(4):
        game = Game(players=players, rules=rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves() + game.renuncio_moves()))
        expected = [json.dumps(data) + "\n" for data in game_to_json(seed, game)]
        assert game_lines(seed, game) == expected
        stream = io.StringIO()
        with TraceWriter(stream) as writer:
            writer.write_game(seed, game)
        assert stream.getvalue() == "".join(expected) and writer.deals_written == len(expected)
