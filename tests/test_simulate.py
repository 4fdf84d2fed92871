"""The simulator and the bots: determinism, seating, dealer alternation, and bots that see only their view."""

from __future__ import annotations

import dataclasses
import io
import json
import re
from collections import Counter

import pytest

from escoba_tutor import SCOPA, Card, EscobaError, Game, Move, PlayerView
from escoba_tutor.players.bots import BOTS, RandomBot, bot_names, make_bot
from escoba_tutor.players.simulate import SimulationResult, game_seed, seat_bots, simulate

re_interval = re.compile(r"\d+\.\d%-\d+\.\d%\s+[+-]\d+\.\d\d ±\d+\.\d\d")


def run(players=2, games=3, seed=1, rules="escoba", bots="random"):
    """A quiet run and its trace, parsed."""
    stream = io.StringIO()
    result = simulate(players, games, seed, rules, bots, trace=stream, progress=False)
    return result, [json.loads(line) for line in stream.getvalue().splitlines()]


# ------------------------------------------------------------------------------------------------ bots
def test_random_bot_chooses_only_legal_moves_and_all_of_them():
    game = Game(players=2, seed=21, dealer=0)
    view = game.view(game.turn)
    bot = RandomBot(seed=4)
    chosen = Counter(bot.choose(view) for _ in range(400))
    assert set(chosen) == set(view.legal_moves)  # uniform over every legal move: each one shows up


def test_random_bot_is_reproducible_from_its_seed():
    game = Game(players=3, seed=8, dealer=1)
    view = game.view(game.turn)
    first = [RandomBot(seed=9).choose(view) for _ in range(5)]
    assert first == [RandomBot(seed=9).choose(view) for _ in range(5)]


def test_random_bot_refuses_to_move_out_of_turn():
    game = Game(players=2, seed=8, dealer=0)
    waiting = 1 - game.turn
    with pytest.raises(EscobaError) as caught:
        RandomBot(seed=1).choose(game.view(waiting))
    assert caught.value.code == "not_your_turn"


def test_bots_are_built_by_name_and_unknown_names_are_explained():
    assert "random" in bot_names()
    assert isinstance(make_bot("random", seed=1), RandomBot)
    assert isinstance(make_bot(" RANDOM "), RandomBot)
    with pytest.raises(EscobaError) as caught:
        make_bot("genius")
    assert caught.value.code == "unknown_bot"
    assert "'random'" in str(caught.value) and "'expert'" in str(caught.value)  # it lists the names that exist


# -------------------------------------------------------------------------------------------- results
def test_same_seed_same_result_and_trace():
    first, first_trace = run(players=2, games=6, seed=11)
    second, second_trace = run(players=2, games=6, seed=11)
    assert first == second
    assert first_trace == second_trace
    other, _ = run(players=2, games=6, seed=12)
    assert (other.points, other.deals) != (first.points, first.deals)


def test_result_adds_up_with_the_trace():
    result, trace = run(players=3, games=5, seed=2)
    assert isinstance(result, SimulationResult)
    assert result.games == 5 and sum(result.wins) == 5
    assert result.deals == len(trace)
    for side in range(3):
        points = sum(deal["points"][side] for deal in trace)
        escobas = sum(deal["escobas"][side] for deal in trace)
        assert result.points[side] == points
        assert result.points_per_deal[side] == pytest.approx(points / len(trace))
        assert result.escobas_per_deal[side] == pytest.approx(escobas / len(trace))
    last_deals = {deal["game"]: deal for deal in trace}  # each game's last deal holds its final totals
    winners = Counter(max(range(3), key=deal["totals"].__getitem__) for deal in last_deals.values())
    assert tuple(winners.get(side, 0) for side in range(3)) == result.wins
    assert sum(result.win_rates) == pytest.approx(1.0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_first_dealer_alternates_from_game_to_game(players):
    _, trace = run(players=players, games=2 * players, seed=5)
    first_deals = [deal for deal in trace if deal["deal"] == 0]
    assert [deal["game"] for deal in first_deals] == list(range(2 * players))
    assert [deal["dealer"] for deal in first_deals] == [g % players for g in range(2 * players)]
    # Each game is shuffled from its own seed: the first tables differ.
    assert len({tuple(deal["table"]) for deal in first_deals}) == len(first_deals)


def test_game_seeds_come_from_the_run_seed_and_the_game_number():
    assert game_seed(1, 0) == game_seed(1, 0)
    assert len({game_seed(1, g) for g in range(50)} | {game_seed(2, g) for g in range(50)}) == 100


def test_four_players_partners_share_a_bot_and_a_side():
    assert seat_bots(4, "random,greedy") == ["random", "greedy", "random", "greedy"]
    assert seat_bots(2, "random") == ["random", "random"]
    assert seat_bots(3, ["a", "b", "c"]) == ["a", "b", "c"]
    result, trace = run(players=4, games=2, seed=3, bots="random,random")
    assert result.sides == ((0, 2), (1, 3))
    assert result.bots == ("random", "random")
    assert all(deal["sides"] == [[0, 2], [1, 3]] for deal in trace)
    assert len(result.wins) == len(result.points) == 2


def test_each_named_bot_plays_its_own_seats(monkeypatch):
    seats: dict[str, set[int]] = {"first": set(), "second": set()}

    def spy(name):
        class Spy(RandomBot):
            def choose(self, view):
                seats[name].add(view.player)
                return super().choose(view)
        return Spy

    monkeypatch.setitem(BOTS, "first", spy("first"))
    monkeypatch.setitem(BOTS, "second", spy("second"))
    result = simulate(4, 1, 6, bots="first,second", progress=False)
    assert seats == {"first": {0, 2}, "second": {1, 3}}
    assert result.bots == ("first", "second")


@pytest.mark.parametrize("players, bots", [(2, "random,random,random"), (3, "random,random"),
                                           (4, "random,random,random"), (2, ["random"] * 4)])
def test_wrong_number_of_bots_is_refused(players, bots):
    with pytest.raises(EscobaError) as caught:
        simulate(players, 1, 1, bots=bots, progress=False)
    assert caught.value.code == "bot_count"


@pytest.mark.parametrize("bots", ["", "random,", " , random"])
def test_empty_bot_names_are_refused(bots):
    with pytest.raises(EscobaError) as caught:
        simulate(2, 1, 1, bots=bots, progress=False)
    assert caught.value.code == "unknown_bot"
    assert "missing" in str(caught.value)


def test_a_bot_that_breaks_the_rules_is_named():
    class Cheat(RandomBot):
        name = "cheat"

        def choose(self, view):
            return Move.of(view.hand[0], view.table)  # takes the whole table, whatever it adds up to

    with pytest.raises(EscobaError) as caught:
        simulate(2, 1, 1, bots=[Cheat], progress=False)
    assert caught.value.code == "bad_bot_move"
    assert "'cheat' bot" in str(caught.value)


def test_the_cycle_collector_is_paused_only_while_games_are_played():
    """simulate pauses Python's cycle collector during its games (speed): never for anyone else, never left off,
    not even when a bot breaks the rules, and a run leaves no cyclic garbage behind."""
    import gc

    seen = []

    class Watcher(RandomBot):
        def choose(self, view):
            seen.append(gc.isenabled())
            return super().choose(view)

    gc.collect()
    simulate(2, 3, 1, bots=[Watcher], progress=False)
    assert seen and not any(seen) and gc.isenabled()
    assert gc.collect() < 50  # each game's few cycles were freed as the run went on

    class Cheat(RandomBot):
        def choose(self, view):
            return Move.of(view.hand[0], view.table)

    with pytest.raises(EscobaError):
        simulate(2, 1, 1, bots=[Cheat], progress=False)
    assert gc.isenabled()
    gc.disable()
    try:  # a caller who turned it off keeps it off
        simulate(2, 1, 1, progress=False)
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize("kwargs, code", [
    ({"players": 5}, "player_count"), ({"players": 1}, "player_count"), ({"games": -1}, "game_count"),
    ({"games": 0}, "game_count"), ({"seed": -1}, "bad_seed"), ({"bots": "genius"}, "unknown_bot"),
    ({"rules": "poker"}, "unknown_profile"), ({"rules": "escoba+chile"}, "rules_players"),
])
def test_bad_arguments_raise_before_any_game(kwargs, code, tmp_path):
    trace = tmp_path / "trace.jsonl"
    arguments = {"players": 2, "games": 2, "seed": 1, "rules": "escoba", "bots": "random", **kwargs}
    with pytest.raises(EscobaError) as caught:
        simulate(**arguments, trace=trace, progress=False)
    assert caught.value.code == code
    assert not trace.exists()  # refused before the trace was even opened


def test_unwritable_trace_is_refused(tmp_path):
    with pytest.raises(EscobaError) as caught:
        simulate(2, 1, 1, trace=tmp_path / "no-such-dir" / "trace.jsonl", progress=False)
    assert caught.value.code == "trace_unwritable"


def test_trace_to_a_path(tmp_path):
    path = tmp_path / "trace.jsonl"
    result = simulate(2, 2, 4, rules=SCOPA, trace=str(path), progress=False)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == result.deals
    assert {json.loads(line)["rules"] for line in lines} == {"scopa"}


def test_progress_bar_goes_to_stderr(capsys):
    simulate(2, 3, 1, progress=True)
    out, err = capsys.readouterr()
    assert out == ""
    assert "game" in err


def test_report_has_a_row_per_side():
    result, _ = run(players=4, games=2, seed=9, bots="random,random")
    report = result.report().splitlines()
    assert report[0].startswith("escoba, 4 players, 2 games, seed 9:")
    assert report[1].split() == ["side", "players", "bot", "games", "won", "points/deal", "escobas/deal"]
    assert report[2].split()[:3] == ["0", "0+2", "random"]
    assert report[3].split()[:3] == ["1", "1+3", "random"]
    assert "%" in report[2]


# ----------------------------------------------------------------------------- bots see only their view
def _cards_in(value):
    """Every Card inside a value (tuples, sets, named tuples, dataclasses); fails on any Game."""
    assert not isinstance(value, Game), "a bot was given the game itself"
    if isinstance(value, Card):
        yield value
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from _cards_in(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _cards_in(getattr(value, field.name))


class SpyBot(RandomBot):
    """A random bot that asserts what it is given and logs it, for the replay below."""

    name = "spy"

    def __init__(self, seed, log):
        super().__init__(seed)
        self.log = log

    def choose(self, view):
        assert type(view) is PlayerView
        assert not any(isinstance(getattr(view, name), Game) for name in view._fields)
        move = super().choose(view)
        assert isinstance(move, Move) and move in view.legal_moves
        self.log.append((view, move))
        return move


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_receive_only_their_players_view(players):
    log: list = []
    simulate(players, 1, 17, bots=[lambda seed: SpyBot(seed, log)], progress=False)
    assert log
    # Replay the same game and compare each view the bot got with what that player may see at that moment.
    game = Game(players=players, seed=game_seed(17, 0), dealer=0)
    for view, move in log:
        assert view.player == game.turn
        assert view == game.view(view.player)
        others = {card for player in range(players) if player != view.player for card in game.hand(player)}
        current = [event for event in view.history if getattr(event, "deal", None) == view.deal]
        # Everything of the current deal in the view (earlier deals' events hold all 40 cards, in the open).
        visible = set(_cards_in((view.hand, view.table, view.seen, view.legal_moves, current)))
        assert not visible & others, "a bot saw another player's hand"
        game.play(move)
    assert game.is_over


# ------------------------------------------------------------------------------ intervals, times, jobs
def test_wilson_interval_matches_known_values():
    from escoba_tutor.players.simulate import wilson_interval
    low, high = wilson_interval(81, 100)
    assert (round(low, 3), round(high, 3)) == (0.722, 0.875)
    assert wilson_interval(0, 10)[0] == 0.0 and round(wilson_interval(0, 10)[1], 3) == 0.278
    assert round(wilson_interval(10, 10)[0], 3) == 0.722 and wilson_interval(10, 10)[1] == pytest.approx(1.0)


def test_the_result_has_intervals_margins_and_decision_times():
    result, trace = run(players=2, games=8, seed=21, bots="greedy,random")
    for side in range(2):
        low, high = result.win_interval(side)
        assert low < result.win_rates[side] < high or result.win_rates[side] in (low, high)
    margins = [deal["points"][0] - deal["points"][1] for deal in trace]
    mean, half = result.margin_per_deal(0)
    assert mean == pytest.approx(sum(margins) / len(margins))
    assert result.margin_per_deal(1)[0] == pytest.approx(-mean) and half > 0
    moves_per_side = Counter()
    for deal in trace:
        for play in deal["plays"]:
            moves_per_side[play["player"]] += 1
    assert result.decisions == (moves_per_side[0], moves_per_side[1])
    assert all(0 <= p50 <= p95 for p50, p95 in result.decision_ms)


def test_the_stats_report_adds_columns_to_each_row():
    result, _ = run(players=4, games=3, seed=2, bots="greedy,random")
    lines = result.report(stats=True).splitlines()
    assert lines[1].split()[7:] == ["wins", "95%", "interval", "margin/deal", "ms/move", "p50", "p95"]
    assert len(lines) == 4 and all(re_interval.search(line) for line in lines[2:])
    assert result.report() == result.report(stats=False)  # the plain table is unchanged


@pytest.mark.parametrize("players, bots", [(2, "greedy,random"), (4, "random,greedy")])
def test_jobs_do_not_change_the_result_or_the_trace(players, bots):
    one, two = io.StringIO(), io.StringIO()
    alone = simulate(players, 6, 13, bots=bots, trace=one, progress=False)
    shared = simulate(players, 6, 13, bots=bots, trace=two, progress=False, jobs=2)
    assert alone == shared and one.getvalue() == two.getvalue()


def test_a_bad_job_count_is_refused():
    with pytest.raises(EscobaError) as caught:
        simulate(2, 1, 1, progress=False, jobs=0)
    assert caught.value.code == "job_count"
