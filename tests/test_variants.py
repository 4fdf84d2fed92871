"""One reference case per row of docs/rules.md §7, each with a result that differs from the default rules,
plus the refusals of combinations that cannot be played."""

from __future__ import annotations

import random

import pytest

from escoba_tutor import ESCOBA, SCOPA, Game, MustCaptureError, RulesError, legal_captures, rules_by_name, score_deal
from escoba_tutor.engine.cards import DECK, parse_cards
from escoba_tutor.engine.game import _pairs_of_15
from escoba_tutor.engine.rules import VARIANTS
from escoba_tutor.engine.scoring import DealFacts


def codes(captures):
    return sorted(" ".join(sorted(c.code for c in cap)) for cap in captures)


def rest_of_deck(*piles: str) -> tuple:
    used = {c for pile in piles for c in parse_cards(pile)}
    return tuple(c for c in DECK if c not in used)


# ---------------------------------------------------------------------------------------------- profiles
def test_scopa_captures_by_own_value_and_an_equal_card_first():
    assert codes(legal_captures("5o", "2c 3e 5b", ESCOBA)) == ["2c 3e 5b"]  # 5 + 2 + 3 + 5 = 15
    assert codes(legal_captures("5o", "2c 3e 5b", SCOPA)) == ["5b"]          # the matching card alone
    assert codes(legal_captures("5o", "2c 3e 4b", SCOPA)) == ["2c 3e"]       # 2 + 3 = 5
    assert SCOPA.target == 11 and ESCOBA.target == 21


def test_scopa_has_no_escoba_de_mano():
    seed = next(s for s in range(5000) if sum(c.value for c in Game(2, ESCOBA, s, dealer=0).deals or
                                              Game(2, ESCOBA, s, dealer=0)._s.initial_table) == 15)
    assert Game(2, ESCOBA, seed, dealer=0).escobas == (1, 0)
    assert Game(2, SCOPA, seed, dealer=0).escobas == (0, 0)


def test_primera_by_suit_count_gives_the_point_to_more_suits():
    piles = ["7o 7c 7e", "6o 6c"]  # both setentas are invalid (missing suits)
    assert score_deal(piles, [0, 0]).line("setenta").winners == ()
    line = score_deal(piles, [0, 0], rules_by_name("escoba+primera_by_suit_count")).line("primera")
    assert line.winners == (0,) and line.reason == "more_suits"


# ------------------------------------------------------------------------------------- escoba de mano
def _seed_with_initial_total(total: int, players: int = 2) -> int:
    for seed in range(20000):
        game = Game(players, ESCOBA.replace(escoba_de_mano="none"), seed, dealer=0)
        if sum(c.value for c in game._s.initial_table) == total:
            return seed
    raise AssertionError(f"no seed deals a table of {total}")


def test_escoba_de_mano_15_20():
    seed20 = _seed_with_initial_total(20)
    assert Game(2, ESCOBA, seed20, dealer=0).escobas == (0, 0)
    assert Game(2, rules_by_name("escoba+escoba_de_mano_15_20"), seed20, dealer=0).escobas == (2, 0)
    seed30 = _seed_with_initial_total(30)
    assert Game(2, ESCOBA, seed30, dealer=0).escobas == (2, 0)
    assert Game(2, rules_by_name("escoba+escoba_de_mano_15_20"), seed30, dealer=0).escobas == (0, 0)


def test_escoba_de_mano_pairs_takes_the_pair_and_leaves_the_rest():
    rules = rules_by_name("escoba+escoba_de_mano_pairs")
    for seed in range(20000):
        plain = Game(2, ESCOBA, seed, dealer=1)
        table = plain._s.initial_table
        total = sum(c.value for c in table)
        pairs = [(a, b) for i, a in enumerate(table) for b in table[i + 1:] if a.value + b.value == 15]
        if total not in (15, 30) and len(pairs) == 1:
            break
    game = Game(2, rules, seed, dealer=1)
    assert plain.escobas == (0, 0) and plain.table == table
    assert game.escobas == (0, 1)
    assert set(game.piles[1]) == set(pairs[0])
    assert set(game.table) == set(table) - set(pairs[0])
    assert game.history[-1].kind == "escoba_de_mano" and game.history[-1].pairs


def test_escoba_de_mano_pairs_overlapping_takes_the_earliest_pair():
    table = parse_cards("7o 10c 10e 3b")  # 7+8 twice, sharing the 7o: the pair dealt earliest wins
    assert [c.code for c in _pairs_of_15(table)] == ["7o", "10c"]
    assert [c.code for c in _pairs_of_15(parse_cards("7o 3b 10e 10c"))] == ["7o", "10e"]
    assert [c.code for c in _pairs_of_15(parse_cards("7o 10c 5e 12b"))] == ["7o", "10c", "5e", "12b"]
    assert _pairs_of_15(parse_cards("1o 2c 3e 4b")) == ()


# -------------------------------------------------------------------------------------------- scoring
def test_ties_both_score():
    a, b = DECK[:20], DECK[20:]  # 20-20 cards
    assert score_deal([a, b], [0, 0]).line("cards").winners == ()
    line = score_deal([a, b], [0, 0], rules_by_name("escoba+ties_both_score")).line("cards")
    assert line.winners == (0, 1) and line.points == (1, 1) and line.reason == "tie_both_score"


def test_sevens_replace_setenta():
    piles = ["7o 7c 7e", "7b 6o 6c 6e 6b"]  # three sevens, invalid setenta / one seven, valid setenta
    default = score_deal(piles, [0, 0])
    assert default.line("setenta").winners == (1,)
    sevens = score_deal(piles, [0, 0], rules_by_name("escoba+sevens"))
    assert sevens.line("sevens").winners == (0,) and sevens.line("sevens").values == (3, 1)
    assert all(line.item != "setenta" for line in sevens.lines)


def test_primera_of_low_cards():
    piles = ["7o 7c 7e 12b", "1o 1c 1e 1b"]  # 21+21+21+10 = 73 against 64
    assert score_deal(piles, [0, 0]).line("setenta").winners == (0,)
    line = score_deal(piles, [0, 0], rules_by_name("escoba+low_primera")).line("setenta")
    assert line.winners == (1,) and line.values[0].total is None and [s.value for s in line.values[0].missing] == ["b"]


def test_all_sevens_bonus():
    piles = ["7o 7c 7e 7b", "1o"]
    assert "all_sevens" not in [line.item for line in score_deal(piles, [0, 0]).lines]
    score = score_deal(piles, [0, 0], rules_by_name("escoba+all_sevens_bonus"))
    assert score.line("all_sevens").points == (1, 0)
    assert score.points[0] == score_deal(piles, [0, 0]).points[0] + 1


def test_all_oros_bonus():
    oros = " ".join(c.code for c in DECK if c.suit == "o")
    piles = [oros, "1c 2c"]
    assert score_deal(piles, [0, 0]).line("oros").points == (1, 0)
    line = score_deal(piles, [0, 0], rules_by_name("escoba+all_oros_bonus")).line("oros")
    assert line.points == (2, 0) and line.reason == "all_oros"


def test_cards_bonus_when_every_other_side_has_fewer_than_10():
    piles = [DECK[:31], DECK[31:]]
    assert [line.item for line in score_deal(piles, [0, 0]).lines].count("cards_bonus") == 0
    score = score_deal(piles, [0, 0], rules_by_name("escoba+cards_bonus"))
    assert score.line("cards_bonus").points == (1, 0)
    no_bonus = score_deal([DECK[:30], DECK[30:]], [0, 0], rules_by_name("escoba+cards_bonus"))  # 30-10
    assert "cards_bonus" not in [line.item for line in no_bonus.lines]


def test_figuras():
    piles = ["10o 11o 12o 10c 11c", "12c 10e 12e 1b"]
    assert "figuras" not in [line.item for line in score_deal(piles, [0, 0]).lines]
    line = score_deal(piles, [0, 0], rules_by_name("escoba+figuras")).line("figuras")
    assert line.values == (5, 3) and line.points == (1, 0)


def test_three_player_tie_rule():
    piles = ["1o 2o 3o 4o", "5o 6o 7o 10o", "11o 12o"]  # oros 4-4-2
    three = ESCOBA.replace(three_player_ties=True)
    assert score_deal(piles, [0, 0, 0]).line("oros").winners == ()
    line = score_deal(piles, [0, 0, 0], three).line("oros")
    assert line.winners == (2,) and line.reason == "third_side"
    none_for_third = ["1o 2o 3o 4o 5o", "6o 7o 10o 11o 12o", "1c"]  # 5-5-0: the third has no oros
    assert score_deal(none_for_third, [0, 0, 0], three).line("oros").winners == ()
    with pytest.raises(RulesError):
        Game(2, three, 1)


def test_renuncio_penalty_moves_the_offenders_points():
    piles = [DECK[:25], DECK[25:]]
    plain = score_deal(piles, [1, 0])
    facts = DealFacts(renuncios=(1, 0))
    assert score_deal(piles, [1, 0], facts=facts).points == plain.points  # no renuncio variant: no penalty
    punished = score_deal(piles, [1, 0], rules_by_name("escoba+renuncio"), facts=facts)
    assert punished.points == (0, plain.points[1] + plain.points[0])
    assert punished.line("renuncio").points == (-plain.points[0], plain.points[0])


def _position_with_a_capturing_card(rules):
    for seed in range(1000):
        game = Game(2, rules, seed)
        for card in game.hand(game.turn):
            if game.captures_for(card):
                return game, card
    raise AssertionError("no position found")


def test_renuncio_is_accepted_marked_and_scored():
    game, card = _position_with_a_capturing_card(rules_by_name("escoba+renuncio"))
    before = game.state_key()
    event = game.play(card.code)
    assert event.renuncio and not event.captured and "renuncio" in str(event)
    assert game._s.renuncios[game.side_of[event.player]] == 1
    game.undo()
    assert game.state_key() == before
    default, card = _position_with_a_capturing_card(ESCOBA)
    with pytest.raises(MustCaptureError):
        default.play(card.code)


def test_renuncio_deal_end_penalty_in_a_game():
    rules = rules_by_name("escoba+renuncio")
    game, card = _position_with_a_capturing_card(rules)
    offender = game.side_of[game.turn]
    game.play(card.code)
    rng = random.Random(3)
    while not game.deals:
        game.play(rng.choice(game.legal_moves()))
    deal = game.deals[0]
    assert deal.renuncios[offender] == 1
    assert deal.score.points[offender] == 0
    assert deal.score.line("renuncio").points[offender] <= 0


def test_chile_escoba_en_mano_and_table_escoba_worth_4():
    piles = [DECK[:20], DECK[20:]]
    chile = rules_by_name("escoba+chile")
    facts = DealFacts(escobas_de_mano=(1, 0), hand_escobas=(0, 2))
    default = score_deal(piles, [1, 0], facts=facts)
    score = score_deal(piles, [1, 0], chile, facts=facts)
    assert default.line("escobas").points == (1, 0)
    assert score.line("escobas").points == (0, 0)
    assert score.line("escoba_de_mano").points == (4, 0)
    assert score.line("escoba_en_mano").points == (0, 6)
    with pytest.raises(RulesError, match="3 or 4 players"):
        Game(2, chile, 1)


def test_chile_hand_escoba_in_a_game():
    chile = rules_by_name("escoba+chile")
    for seed in range(5000):
        game = Game(3, chile, seed)
        shown = [e for e in game.history if e.kind == "escoba_en_mano"]
        if shown:
            break
    event = shown[0]
    assert sum(c.value for c in event.cards) == 15
    assert game.hand(event.player) == event.cards  # shown, still held
    assert game._s.hand_escobas[event.side] == 1
    assert not [e for e in Game(3, ESCOBA, seed).history if e.kind == "escoba_en_mano"]


def test_chile_escoba_de_mano_in_a_game_scores_4_instead_of_1():
    """A real 3-player deal under Chile whose table is dealt adding up to 15: the dealer's side scores the escoba
    de mano 4 points (not 1 more among its escobas); the same deal under the default rules scores it 1."""
    chile = rules_by_name("escoba+chile")
    seed = next(s for s in range(3000) if any(e.kind == "escoba_de_mano" for e in Game(3, chile, s).history))
    deals = []
    for rules in (chile, ESCOBA):
        game, rng = Game(3, rules, seed), random.Random(seed)
        while not game.deals:
            game.play(rng.choice(game.legal_moves()))
        deals.append(game.deals[0])
    in_chile, default = deals
    side = in_chile.dealer % 3
    assert in_chile.dealer_escobas == default.dealer_escobas == 1
    assert in_chile.score.line("escoba_de_mano").points[side] == 4
    assert in_chile.score.line("escobas").points[side] == in_chile.escobas[side] - 1
    assert default.score.line("escobas").points[side] == default.escobas[side]
    assert "escoba_de_mano" not in {line.item for line in default.score.lines}


def test_capture_optional_allows_laying_a_capturing_card():
    game, card = _position_with_a_capturing_card(rules_by_name("escoba+capture_optional"))
    assert any(m.card is card and not m.captured for m in game.legal_moves())
    event = game.play(card.code)
    assert not event.captured and not event.renuncio


def test_no_escoba_on_the_last_play():
    # In Escoba the last card can never sweep: everything captured is a multiple of 15 and the deck adds up to
    # 220, so the last card and the table add up to 10 (mod 15). The switch matters for Scopa, where it is
    # the custom.
    variant = rules_by_name("scopa+no_last_play_escoba")
    for seed in range(3000):
        game = Game(2, SCOPA, seed)
        rng = random.Random(seed)
        while not game.deals:
            moves = game.legal_moves()
            sweeping = [m for m in moves if m.captured and len(m.captured) == len(game.table)]
            game.play(sweeping[0] if sweeping else rng.choice(moves))
        if game.deals[0].plays[-1].escoba:
            break
    assert game.deals[0].plays[-1].escoba
    other = Game(2, variant, seed)
    for move in game.moves:
        other.play(move)
    last = [e for e in other.history if e.kind == "play"][-1]
    assert last.sweep_not_scored and not last.escoba
    side = last.side
    assert other.deals[0].escobas[side] == game.deals[0].escobas[side] - 1
    assert other.deals[0].score.line("last_play_sweep").values[side] == 1
    assert other.deals[0].score.points[side] == game.deals[0].score.points[side] - 1


# ------------------------------------------------------------------------------------------ selection
def test_every_variant_is_selectable_by_name_and_round_trips():
    for name, variant in VARIANTS.items():
        rules = rules_by_name(f"escoba+{name}")
        assert rules != ESCOBA
        assert rules.changes() == variant.changes
        assert rules_by_name(rules.name) == rules


@pytest.mark.parametrize("name", ["escoba+renuncio+capture_optional", "escoba+ties_both_score+three_player_ties",
                                  "escoba+escoba_de_mano=none+escoba_de_mano_pairs"])
def test_impossible_combinations_are_refused(name):
    with pytest.raises(RulesError, match="cannot go together"):
        rules_by_name(name)


def test_combinations_play_and_save():
    rules = rules_by_name("escoba+figuras+cards_bonus+ties_both_score+low_primera+no_last_play_escoba")
    game = Game(2, rules, 11)
    rng = random.Random(11)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    assert Game.from_resume_code(game.resume_code()).state_key() == game.state_key()
    assert Game.from_json(game.to_json()).state_key() == game.state_key()


def test_the_docs_table_lists_every_variant_and_option():
    from pathlib import Path

    from escoba_tutor.engine.rules import OPTIONS

    table = (Path(__file__).parent.parent / "docs" / "variants.md").read_text(encoding="utf-8")
    for name in VARIANTS:
        assert f"| `{name}` |" in table, name
    for option in OPTIONS:
        assert f"`{option.name}=" in table, option.name
