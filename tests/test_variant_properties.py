"""The engine's invariants over random combinations of the section 7 switches: every card accounted for,
undo restores the exact state, and both save formats round-trip."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from escoba_tutor import ESCOBA, SCOPA, Game, RulesError
from escoba_tutor.engine.rules import VARIANTS

NAMES = sorted(VARIANTS)


def rules_for(base, names, players):
    changes = {}
    for name in names:
        changes.update(VARIANTS[name].changes)
    try:
        rules = base.replace(**changes)
        rules.check_players(players)
    except RulesError:
        return None  # a combination the engine refuses: covered by test_variants
    return rules


def accounted(game: Game) -> None:
    seen = [c for hand in game.hands for c in hand] + list(game.table) + [c for pile in game.piles for c in pile]
    assert len(seen) == len(set(seen)), "a card is in two places"
    assert len(seen) + game.deck_left == 40


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.lists(st.sampled_from(NAMES), max_size=4, unique=True),
       base=st.sampled_from([ESCOBA, SCOPA]), players=st.sampled_from([2, 3, 4]),
       seed=st.integers(0, 10**6), plays=st.integers(1, 80))
def test_switch_combinations_keep_the_invariants(names, base, players, seed, plays):
    rules = rules_for(base, names, players)
    if rules is None:
        return
    game = Game(players, rules, seed)
    rng = random.Random(seed)
    keys = [game.state_key()]
    for _ in range(plays):
        if game.is_over:
            break
        moves = game.legal_moves()
        renuncios = game.renuncio_moves()
        if renuncios and rng.random() < 0.1:
            moves = renuncios
        game.play(rng.choice(moves))
        accounted(game)
        keys.append(game.state_key())
        if rng.random() < 0.2:
            game.undo()
            keys.pop()
            assert game.state_key() == keys[-1]
    assert Game.from_json(game.to_json()).state_key() == game.state_key()
    assert Game.from_resume_code(game.resume_code()).state_key() == game.state_key()
    while len(keys) > 1:
        game.undo()
        keys.pop()
        assert game.state_key() == keys[-1]
