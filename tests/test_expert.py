"""The "difícil" bot: perfect 2-player endings, the same decisions from the same seed, only its own view, and
whole games for every player count and several rules."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from escoba_tutor import DECK, EscobaError, Game, Move, PlayerView, legal_captures, parse_cards
from escoba_tutor.engine.rules import VARIANTS
from escoba_tutor.players.bots import LEVELS, ExpertBot, GreedyBot, RandomBot, make_bot
from escoba_tutor.players.expert import GAME_WEIGHT, estimate_points, public_piles
from escoba_tutor.players.simulate import game_seed, simulate

ENDGAMES = json.loads((Path(__file__).parent / "data" / "endgames.json").read_text(encoding="utf-8"))


def replay(position: dict) -> Game:
    game = Game(players=2, rules=position["rules"], seed=position["seed"], dealer=position["dealer"])
    for text in position["moves"]:
        game.play(text)
    return game


def small(seed):
    """An expert on a small budget, so that whole games stay quick in the tests."""
    return ExpertBot(seed=seed, samples=3, budget=300)


# ------------------------------------------------------------------------------------------ endgames
def test_the_reference_endgames_are_varied():
    assert len(ENDGAMES) >= 30
    assert {p["rules"] for p in ENDGAMES} >= {"escoba", "scopa", "escoba+capture_optional"}
    assert sum(len(set(p["values"].values())) > 1 for p in ENDGAMES) >= 20  # the choice matters in most


@pytest.mark.parametrize("position", ENDGAMES, ids=lambda p: f"{p['rules']}-seed{p['seed']}")
def test_the_endgame_is_played_perfectly(position):
    game = replay(position)
    assert game.deck_left == 0 and game.turn == position["player"]
    assert [[c.code for c in hand] for hand in game.hands] == position["hands"]
    view = game.view(game.turn)
    ranked = ExpertBot(seed=5).evaluate(view)
    assert all(value.exact for value in ranked)
    # Every move's value is the brute-force value (with the same winning chances: deal 0 cannot end a game).
    assert {value.move.text: value.value for value in ranked} == pytest.approx(position["values"])
    best = ExpertBot(seed=6).choose(view)
    assert position["values"][best.text] == position["best"]


def test_a_deal_end_that_wins_the_game_counts_more_than_its_points():
    # Totals 20-20 with target 21: whoever scores more in this deal wins; the exact search says so.
    game = replay(ENDGAMES[0])
    near = game.view(game.turn)._replace(totals=(20, 20))
    values = {v.move.text: v.value for v in ExpertBot().evaluate(near)}
    for text, value in values.items():
        points = ENDGAMES[0]["values"][text]
        assert value == pytest.approx(points + (GAME_WEIGHT if points > 0 else -GAME_WEIGHT if points < 0 else 0))


def _last_capturer(game: Game) -> int | None:
    captures = [p for p in game.current_plays if p.move.captured]
    return game.side_of[captures[-1].player] if captures else None


# ------------------------------------------------------------------------------------- determinism
def test_the_same_seed_gives_the_same_decisions():
    first, second = io.StringIO(), io.StringIO()
    one = simulate(2, 2, 31, "escoba+target=8", [small, GreedyBot], trace=first, progress=False)
    two = simulate(2, 2, 31, "escoba+target=8", [small, GreedyBot], trace=second, progress=False)
    assert one == two
    assert first.getvalue() == second.getvalue()


def test_a_decision_depends_on_the_seed_and_the_view_only():
    game = Game(players=2, seed=12, dealer=0)
    for _ in range(5):
        game.play(game.legal_moves()[0])
    view = game.view(game.turn)
    bot = ExpertBot(seed=4)
    first = bot.evaluate(view)
    other = Game(players=2, seed=99, dealer=1)
    bot.choose(other.view(other.turn))  # other decisions in between change nothing
    assert bot.evaluate(view) == first == ExpertBot(seed=4).evaluate(view)


# ------------------------------------------------------------------------------- only its own view
def _hidden_swapped(game: Game) -> Game:
    """The same position with the other player's hand exchanged for cards of the deck: nothing public changes."""
    other = 1 - game.turn
    placed = {c for part in (*game.hands, game.table, *game.piles) for c in part}
    deck = [c for c in DECK if c not in placed]
    assert len(deck) >= len(game.hand(other))
    new_hand, rest = deck[:len(game.hand(other))], deck[len(game.hand(other)):] + list(game.hand(other))
    hands = list(game.hands)
    hands[other] = tuple(new_hand)
    return Game.at_position(2, game.rules, dealer=game.dealer, turn=game.turn, hands=hands, table=game.table,
                            deck=rest, piles=game.piles, escobas=game.escobas, last_capturer=_last_capturer(game))


@pytest.mark.parametrize("plays", [0, 3, 8])
def test_scrambling_the_hidden_cards_changes_no_decision(plays):
    game = Game(players=2, seed=40 + plays, dealer=1)
    for _ in range(plays):
        game.play(game.legal_moves()[-1])
    base = Game.at_position(2, game.rules, dealer=game.dealer, turn=game.turn, hands=game.hands,
                            table=game.table, deck=_deck_left(game), piles=game.piles, escobas=game.escobas,
                            last_capturer=_last_capturer(game))
    swapped = _hidden_swapped(base)
    assert swapped.hand(1 - base.turn) != base.hand(1 - base.turn)
    view, other_view = base.view(base.turn), swapped.view(swapped.turn)
    assert view == other_view  # the hidden cards are not in a view at all ...
    # ... so the bot, which gets nothing else, decides the same, with the same values.
    assert ExpertBot(seed=2).evaluate(view) == ExpertBot(seed=2).evaluate(other_view)


def _deck_left(game: Game) -> list:
    placed = {c for part in (*game.hands, game.table, *game.piles) for c in part}
    return [c for c in DECK if c not in placed]


def test_the_expert_decides_from_a_view_built_by_hand_with_no_game_behind_it():
    hand, table = parse_cards("3c 7b 12e"), parse_cards("1o 4b 7o 5c")
    moves = tuple(Move(card, taken) for card in hand for taken in legal_captures(card, table))
    assert len(moves) == 5  # every card captures, two of them in two ways
    view = PlayerView(player=0, side=0, sides=((0,), (1,)), rules=Game(players=2, seed=1).rules, deal=0, dealer=1,
                      turn=0, hand=hand, table=table, hand_sizes=(3, 3), piles=((), ()), escobas=(0, 0),
                      deck_left=30, totals=(0, 0), legal_moves=moves, history=(), winner=None)
    ranked = ExpertBot(seed=1).evaluate(view)
    assert ExpertBot(seed=1).choose(view) == ranked[0].move
    assert {v.move for v in ranked} == set(moves)
    assert [v.value for v in ranked] == sorted((v.value for v in ranked), reverse=True)


class _ViewOnly(ExpertBot):
    """An expert that checks what it is given (a PlayerView, nothing of the game) and logs it with its choice."""

    log: list = []

    def choose(self, view):
        assert type(view) is PlayerView
        assert not any(isinstance(getattr(view, name), Game) for name in view._fields)
        move = super().choose(view)
        type(self).log.append((view, move))
        return move


@pytest.mark.parametrize("players", [2, 3, 4])
def test_in_a_run_the_expert_gets_only_its_players_view(players):
    _ViewOnly.log = []
    simulate(players, 1, 9, "escoba+target=4", [lambda seed: _ViewOnly(seed=seed, samples=2, budget=200)],
             progress=False)
    # Replay the game: each view the bot got is exactly what its player may see at that moment.
    game = Game(players=players, rules="escoba+target=4", seed=game_seed(9, 0), dealer=0)
    for view, move in _ViewOnly.log:
        assert view == game.view(view.player)
        others = {c for player in range(players) if player != view.player for c in game.hand(player)}
        assert not others & (set(view.hand) | set(view.seen))
        game.play(move)
    assert game.is_over


# ------------------------------------------------------------------------------ whole games, any rules
@pytest.mark.parametrize("players, rules, bots", [
    (2, "escoba+target=6", "expert,greedy"),
    (2, "scopa+target=4", "expert,random"),
    (2, "escoba+capture_optional+target=6", "expert,greedy"),
    (2, "escoba+renuncio+target=6", "expert,random"),
    (2, "escoba+no_last_play_escoba+sevens+target=6", "expert,greedy"),
    (3, "escoba+target=5", "expert,greedy,random"),
    (3, "escoba+chile+three_player_ties+target=5", "expert,expert,greedy"),
    (4, "escoba+target=6", "expert,greedy"),
    (4, "scopa+figuras+target=4", "greedy,expert"),
])
def test_the_expert_plays_whole_games(players, rules, bots, monkeypatch):
    monkeypatch.setitem(__import__("escoba_tutor.players.bots", fromlist=["BOTS"]).BOTS, "expert", small)
    result = simulate(players, 2, 3, rules, bots, progress=False)
    assert result.games == 2 and sum(result.wins) == 2 and result.deals >= 2
    assert len(result.decision_ms) == len(result.sides) and all(n > 0 for n in result.decisions)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_expert_plays_under_every_variant(variant):
    players = 3 if variant in ("chile", "three_player_ties") else 2
    result = simulate(players, 1, 8, f"escoba+{variant}+target=3", [small], progress=False)
    assert sum(result.wins) == 1 and result.decisions[0] > 0


def test_the_registered_expert_plays_a_game_and_levels_name_bots():
    result = simulate(2, 1, 5, "escoba+target=4", "difícil,medio", progress=False)
    assert result.bots == ("expert", "greedy") and sum(result.wins) == 1
    assert isinstance(make_bot("difícil"), ExpertBot) and isinstance(make_bot("Medio"), GreedyBot)
    assert isinstance(make_bot("facil"), RandomBot) and set(LEVELS.values()) == {"random", "greedy", "expert"}


def test_the_levels_have_their_english_names_too():
    # an English lesson's code names the levels in English (lessons/source/08-strategy.md)
    assert isinstance(make_bot("hard"), ExpertBot) and isinstance(make_bot(" Medium"), GreedyBot)
    assert isinstance(make_bot("easy"), RandomBot)
    assert simulate(2, 1, 5, "escoba+target=4", "hard,easy", progress=False).bots == ("expert", "random")


# --------------------------------------------------------------------------------------- its parts
def test_a_position_built_from_parts_plays_on_like_the_real_game():
    game = Game(players=2, seed=77, dealer=0)
    for _ in range(7):
        game.play(game.legal_moves()[0])
    copy = Game.at_position(2, game.rules, dealer=game.dealer, turn=game.turn, hands=game.hands, table=game.table,
                            deck=_deck_left_in_order(game), piles=game.piles, escobas=game.escobas,
                            last_capturer=_last_capturer(game), totals=game.totals, deal=game.deal)
    deal = game.deal
    while game.deal == deal:
        assert copy.legal_moves() == game.legal_moves() and copy.hands == game.hands and copy.table == game.table
        move = game.legal_moves()[-1]
        game.play(move)
        copy.play(move)
    assert copy.deals[-1].score == game.deals[-1].score
    assert copy.deals[-1].piles == game.deals[-1].piles


def _deck_left_in_order(game: Game) -> list:
    """The real deck's undealt cards, in order: replayed from the seed like the game does."""
    import random
    deck = list(DECK)
    random.Random(f"escoba-tutor:{game.seed}:{game.deal}").shuffle(deck)
    return deck[40 - game.deck_left:]


@pytest.mark.parametrize("change, words", [
    ({"hands": [parse_cards("1o 2o 3o"), parse_cards("1c 2c 3c")], "table": parse_cards("4o")}, "exactly one"),
    ({"turn": 5}, "player to move"),
    ({"piles": [()]}, "one entry per side"),
    ({"hands": [parse_cards("1o 2o 3o 4o"), ()]}, "at most 3"),
])
def test_a_bad_position_is_refused_clearly(change, words):
    game = Game(players=2, seed=3, dealer=0)
    parts = {"dealer": 0, "turn": game.turn, "hands": game.hands, "table": game.table,
             "deck": _deck_left_in_order(game), **change}
    with pytest.raises(EscobaError) as caught:
        Game.at_position(2, game.rules, **parts)
    assert caught.value.code == "bad_position" and words in str(caught.value)


def test_the_piles_are_rebuilt_from_the_public_history():
    game = Game(players=4, seed=5, dealer=2)
    for _ in range(13):
        game.play(game.legal_moves()[0])
    piles, last = public_piles(game.view(game.turn))
    assert [sorted(p) for p in piles] == [sorted(p) for p in game.piles]
    assert last == _last_capturer(game) or (last is not None and not game.current_plays)


def test_the_estimate_prefers_more_cards_oros_the_siete_and_escobas():
    rules = Game(players=2, seed=1).rules
    base = estimate_points([parse_cards("2c 3c"), parse_cards("2e 3e")], [0, 0], rules, 0)
    assert base == pytest.approx(0.0, abs=1e-9)
    assert estimate_points([parse_cards("2c 3c 4c"), parse_cards("2e 3e")], [0, 0], rules, 0) > base
    assert estimate_points([parse_cards("2o 3c"), parse_cards("2e 3e")], [0, 0], rules, 0) > base
    assert estimate_points([parse_cards("7c 3c"), parse_cards("2e 3e")], [0, 0], rules, 0) > base
    assert estimate_points([parse_cards("7o 3c"), parse_cards("2e 3e")], [0, 0], rules, 0) > 1
    assert estimate_points([parse_cards("2c 3c"), parse_cards("2e 3e")], [1, 0], rules, 0) == pytest.approx(1.0)


def test_a_bad_budget_is_refused():
    with pytest.raises(EscobaError):
        ExpertBot(samples=0)
    with pytest.raises(EscobaError):
        ExpertBot(depth=0)


def test_the_expert_refuses_to_move_out_of_turn():
    game = Game(players=2, seed=8, dealer=0)
    with pytest.raises(EscobaError) as caught:
        ExpertBot().choose(game.view(1 - game.turn))
    assert caught.value.code == "not_your_turn"
