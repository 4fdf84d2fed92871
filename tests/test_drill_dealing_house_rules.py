"""The drills of dealing and turn order and of house rules: each seeded, its answers agreeing with the rule book
over many seeds (docs/rules.md §2, §5, §7: worked out here, not with the engine's own code), each named mistake
judged with its code and its sentence, hostile answers refused through the check and through the widget's
public traits, and a check landing on the teacher's board like the other kinds.
"""

from __future__ import annotations

import html
import re
from html import escape

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escoba_tutor import EscobaError
from escoba_tutor.engine.rules import ESCOBA, VARIANTS, rules_by_name
from escoba_tutor.engine.scoring import setenta
from escoba_tutor.exercises import (
    DEAL_NOW,
    HOUSE_RULES,
    MAX_SEED,
    dealing_drill,
    house_rules_drill,
    kinds_for,
    make_drill,
)
from escoba_tutor.exercises.worksheet import worksheet_html
from escoba_tutor.records import ClassStore
from escoba_tutor.records import recorder as recorder_module
from escoba_tutor.server.class_board import board_view
from escoba_tutor.text.translator import Translator
from escoba_tutor.widgets import Drill

# the rounds question, as its box is labelled
ROUNDS_EN = "How many rounds are left in the stock right now, counting any round about to be dealt?"

KINDS = ("dealing", "house_rules")
seeds = st.integers(min_value=0, max_value=MAX_SEED)


# ============================================================================================ seeds and kinds
@pytest.mark.parametrize("kind", KINDS)
def test_a_seed_always_gives_the_same_exercise(kind):
    for seed in (0, 1, 17, 12345, MAX_SEED):
        assert make_drill(kind, seed) == make_drill(kind, seed)
    assert len({str(make_drill(kind, seed)) for seed in range(15)}) >= 5


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", [-1, 1.5, True, "3", MAX_SEED + 1, None])
def test_bad_seeds_are_refused(kind, seed):
    with pytest.raises(EscobaError) as refused:
        make_drill(kind, seed)
    assert refused.value.code == "bad_seed"


def test_both_kinds_exist_under_scopa_and_with_house_rules():
    for rules in ("escoba", "scopa", "escoba+figuras", "escoba+sevens+ties_both_score"):
        assert set(KINDS) <= set(kinds_for(rules))
    # Rules seated only for 3 or 4 players (Chile) give deals of 3 or 4 players.
    assert "house_rules" in kinds_for("escoba+chile") and "dealing" in kinds_for("escoba+chile")
    assert {house_rules_drill(s, "escoba+chile").players for s in range(40)} == {3, 4}
    # Every house rule of the drill already on (or one of its options taken by another): no exercise.
    every = ("escoba+primera_by_suit_count+escoba_de_mano_15_20+escoba_de_mano_pairs+ties_both_score+low_primera"
             "+all_sevens_bonus+all_oros_bonus+cards_bonus+figuras")
    assert "house_rules" not in kinds_for(every)
    with pytest.raises(EscobaError) as refused:
        house_rules_drill(0, every)
    assert refused.value.code == "no_house_rule"
    widget = Drill("house_rules", seed=3)
    before = widget.model.drill
    widget.rules = every  # said on the page, and the exercise kept
    assert widget.status.message == ("Revisa el ejercicio: ninguna de las reglas de la casa de este ejercicio se "
                                     "puede combinar con estas reglas")
    assert widget.model.drill is before
    assert make_drill("house_rules", 3, "escoba+figuras").house_rule != "figuras"  # already on: not asked
    assert {dealing_drill(s, "escoba+chile").players for s in range(30)} == {3, 4}  # Chile seats 3 or 4


# ================================================================================ dealing: the rule book
def expected_turns(drill):
    """docs/rules.md §2, worked out by hand: the mano is to the dealer's right, play goes to the right, the
    dealer plays each round's last card, a new round when every hand is empty and the deck is not, and the
    next deal is dealt by the player to the dealer's right."""
    n, d = drill.players, drill.dealer
    if drill.moment == "start":
        return (d + 1) % n, "play_on"
    if drill.moment == "mid_round":
        return (drill.last + 1) % n, "play_on"
    if drill.deck_left:
        return (d + 1) % n, "deal_three"
    return (d + 2) % n, "deal_over"


@settings(max_examples=300)
@given(seeds)
def test_the_dealing_answers_agree_with_the_rule_book(seed):
    drill = dealing_drill(seed)
    n = drill.players
    assert (drill.next_player, drill.deal_now) == expected_turns(drill)
    per_round = 3 * n
    assert drill.deck_left % per_round == 0 and drill.rounds_left == drill.deck_left // per_round
    assert 0 <= drill.deck_left <= 36 - per_round
    if drill.moment in ("round_over", "deal_over"):
        assert drill.last == drill.dealer and drill.hands == (0,) * n  # the dealer plays each round's last card
    elif drill.moment == "start":
        assert drill.hands == (3,) * n and drill.deck_left == 36 - per_round
    else:  # m cards played in this round, in turn from the mano: each player has played every n-th of them
        m = 3 * n - sum(drill.hands)
        assert 0 < m < 3 * n and drill.last == (drill.mano + m - 1) % n
        assert drill.hands == tuple(3 - (m - (p - drill.mano) % n + n - 1) // n for p in range(n))
    if drill.moment == "deal_over":  # docs/rules.md §4: the cards left go to the side of the last capture
        assert drill.plays[-1][0] == drill.dealer and any(taken for _p, _c, taken in drill.plays)
        last_capture = [player for player, _card, taken in drill.plays if taken][-1]
        assert drill.leftover_to == (last_capture % 2 if n == 4 else last_capture)
        assert all(a.ok for a in drill.check(drill.next_player, drill.deal_now, drill.rounds_left,
                                             drill.leftover_to))
    else:
        assert drill.plays == () and "leftover" not in drill.items
        assert all(a.ok for a in drill.check(drill.next_player, drill.deal_now, drill.rounds_left))


@pytest.mark.parametrize("seed", range(40))
def test_a_game_won_in_its_first_deal_still_gives_a_position(seed):
    # A target of 1 ends most games with the first deal: there is no next player to ask for then.
    drill = dealing_drill(seed, "escoba+target=1")
    assert (drill.next_player, drill.deal_now) == expected_turns(drill)


def test_every_moment_and_table_size_comes_up():
    drills = [dealing_drill(s) for s in range(80)]
    assert {d.moment for d in drills} == {"start", "mid_round", "round_over", "deal_over"}
    assert {d.players for d in drills} == {2, 3, 4}
    assert {d.deal_now for d in drills} == set(DEAL_NOW)


def find_dealing(test):
    return next(d for d in map(dealing_drill, range(400)) if test(d))


def rest(drill):
    """The right answer to who takes the cards left, when it is asked."""
    return drill.leftover_to if "leftover" in drill.items else None


@pytest.mark.parametrize("find, answer, mistake", [
    (lambda d: d.moment == "start", lambda d: d.dealer, "dealer_first"),
    (lambda d: d.moment == "round_over", lambda d: d.dealer, "dealer_first"),
    (lambda d: d.moment == "mid_round", lambda d: d.last, "same_player"),
    (lambda d: d.moment == "start" and d.players == 4, lambda d: (d.dealer - 1) % 4, "wrong_way"),
    (lambda d: d.moment == "mid_round" and d.players == 3, lambda d: (d.last - 1) % 3, "wrong_way"),
    (lambda d: d.moment == "deal_over", lambda d: (d.dealer + 1) % d.players, "new_dealer_first"),
    (lambda d: d.moment == "start" and d.players == 4, lambda d: (d.dealer + 2) % 4, "wrong_player"),
])
def test_who_plays_next_mistakes_are_named(find, answer, mistake):
    drill = find_dealing(find)
    judged = drill.check(answer(drill), drill.deal_now, drill.rounds_left, rest(drill))
    assert [a.ok for a in judged] == [False, True, True, True][:len(judged)] and judged[0].mistake == mistake


@pytest.mark.parametrize("find, answer, mistake", [
    (lambda d: d.deal_now == "play_on", "deal_three", "hands_not_empty"),
    (lambda d: d.deal_now == "play_on", "deal_over", "hands_not_empty"),
    (lambda d: d.deal_now == "deal_three", "play_on", "hands_empty"),
    (lambda d: d.deal_now == "deal_over", "play_on", "hands_empty"),
    (lambda d: d.deal_now == "deal_three", "deal_over", "deck_not_empty"),
    (lambda d: d.deal_now == "deal_over", "deal_three", "deck_spent"),
])
def test_what_happens_now_mistakes_are_named(find, answer, mistake):
    drill = find_dealing(find)
    judged = drill.check(drill.next_player, answer, drill.rounds_left, rest(drill))
    assert [a.ok for a in judged] == [True, False, True, True][:len(judged)] and judged[1].mistake == mistake


@pytest.mark.parametrize("find, answer, mistake", [
    (lambda d: d.rounds_left > 0, lambda d: d.deck_left // 3, "per_player"),
    (lambda d: d.moment == "start", lambda d: d.rounds_left + 1, "counted_dealt_round"),
    (lambda d: d.moment == "round_over", lambda d: d.rounds_left + 1, "wrong_rounds"),
    (lambda d: True, lambda d: 50, "wrong_rounds"),
])
def test_rounds_mistakes_are_named(find, answer, mistake):
    drill = find_dealing(find)
    judged = drill.check(drill.next_player, drill.deal_now, answer(drill), rest(drill))
    assert [a.ok for a in judged] == [True, True, False, True][:len(judged)] and judged[2].mistake == mistake


def leftover_answer(drill, test):
    return next(side for side in range(drill.sides) if test(side))


@pytest.mark.parametrize("find, answer, mistake", [
    (lambda d: d.moment == "deal_over" and d.side_of(d.dealer) != d.leftover_to,
     lambda d: d.side_of(d.dealer), "last_to_play"),
    (lambda d: d.moment == "deal_over" and d.players == 3 and d.side_of(d.dealer) != d.leftover_to,
     lambda d: leftover_answer(d, lambda s: s not in (d.leftover_to, d.side_of(d.dealer))), "not_last_capture"),
    (lambda d: d.moment == "deal_over", lambda d: "nobody", "somebody_captured"),
    (lambda d: d.moment == "deal_over", lambda d: None, "unanswered"),
])
def test_who_takes_the_cards_left_mistakes_are_named(find, answer, mistake):
    drill = find_dealing(find)
    judged = drill.check(drill.next_player, drill.deal_now, drill.rounds_left, answer(drill))
    # (the deal is over, so the deck is empty: the rounds left are not asked)
    assert [a.item for a in judged] == ["next_player", "deal_now", "leftover"]
    assert [a.ok for a in judged] == [True, True, False] and judged[2].mistake == mistake


def test_unanswered_questions_are_named():
    judged = dealing_drill(3).check()
    assert [a.mistake for a in judged] == ["unanswered"] * 3


@pytest.mark.parametrize("answers", [
    {"next_player": 4}, {"next_player": -1}, {"next_player": "1"}, {"next_player": 1.0}, {"next_player": True},
    {"deal_now": "shuffle"}, {"deal_now": 3}, {"rounds_left": -2}, {"rounds_left": 10**9}, {"rounds_left": "2"},
    {"leftover": 0},  # asked only when the deal is over
])
def test_dealing_hostile_answers_are_refused(answers):
    drill = find_dealing(lambda d: d.players == 4 and d.moment != "deal_over")
    with pytest.raises(EscobaError) as refused:
        drill.check(**answers)
    assert refused.value.code == "bad_answer"


@pytest.mark.parametrize("leftover", [2, -1, "0", "none", 1.5, [0]])
def test_who_takes_the_cards_left_hostile_answers_are_refused(leftover):
    drill = find_dealing(lambda d: d.players == 4 and d.moment == "deal_over")  # two teams: side 0 or 1
    with pytest.raises(EscobaError) as refused:
        drill.check(leftover=leftover)
    assert refused.value.code == "bad_answer"


# ============================================================================ house rules: the rule book
def _strictly(values):
    return [1 if v > max(values[:i] + values[i + 1:]) else 0 for i, v in enumerate(values)]


def bonus_by_hand(name, piles):
    """What each house rule adds to each side, worked out from the piles as docs/rules.md §7 says (2 or 3 sides)."""
    count = lambda test: [sum(1 for c in pile if test(c)) for pile in piles]  # noqa: E731
    cards, oros, sevens = count(lambda c: True), count(lambda c: c.suit == "o"), count(lambda c: c.rank == 7)
    best = [setenta(pile) for pile in piles]
    totals = [b.total if b.total is not None else -1 for b in best]
    setenta_winner = [1 if t >= 0 and t > max(totals[:i] + totals[i + 1:]) else 0 for i, t in enumerate(totals)]
    if name == "figuras":
        return _strictly(count(lambda c: c.rank >= 10))
    if name == "all_sevens_bonus":
        return [1 if s == 4 else 0 for s in sevens]
    if name == "all_oros_bonus":  # the coins point is worth 2: one more than usual
        return [1 if o == 10 else 0 for o in oros]
    if name == "cards_bonus":
        return [1 if c > max(cards[:i] + cards[i + 1:]) and all(o < 10 for j, o in enumerate(cards) if j != i)
                else 0 for i, c in enumerate(cards)]
    if name == "ties_both_score":  # each side tied on top for cards or coins scores
        return [sum(1 for v in (cards, oros) if v[i] == max(v) and v.count(max(v)) > 1) for i in range(len(piles))]
    if name == "three_player_ties":  # two tied on top: the third side scores, if it has any (a valid setenta)
        added = [0, 0, 0]
        for values, has in ((cards, cards), (oros, oros), (totals, [t + 1 for t in totals])):
            tied = [i for i in range(3) if values[i] == max(values)]
            if len(tied) == 2 and max(values) >= 0:  # -1: two invalid setentas do not tie for anything
                third = ({0, 1, 2} - set(tied)).pop()
                added[third] += 1 if has[third] > 0 else 0
        return added
    if name == "sevens":  # the setenta point goes, the most sevens comes
        return [s - lo for s, lo in zip(_strictly(sevens), setenta_winner)]
    if name == "primera_by_suit_count":  # more suits first, then the higher sum; the setenta point goes
        keys = [(b.suit_count, b.sum) for b in best]
        return [w - lo for w, lo in zip(_strictly(keys), setenta_winner)]
    return None


def mano_by_hand(name, table):
    """The escobas de mano of four table cards (docs/rules.md §2 and §7), without and with the house rule."""
    total = sum(c.value for c in table)
    usual = {15: 1, 30: 2}.get(total, 0)
    if name == "escoba_de_mano_15_20":
        return usual, {15: 1, 20: 2}.get(total, 0)
    pairs = [(i, j) for i in range(4) for j in range(i + 1, 4) if table[i].value + table[j].value == 15]
    disjoint = max([len(pairs) and 1] + [2 for p in pairs for q in pairs if not set(p) & set(q)])
    return usual, usual or disjoint


@settings(max_examples=120, deadline=None)
@given(seeds)
def test_the_house_rule_answers_agree_with_the_rule_book(seed):
    drill = house_rules_drill(seed)
    assert drill.house_rule in HOUSE_RULES and drill.players in (2, 3, 4)
    assert drill.house_rules == rules_by_name(f"escoba+{drill.house_rule}")
    if drill.question == "escobas_de_mano":
        assert drill.items == ("escobas_de_mano",) and len(drill.table) == 4
        assert (drill.before[0], drill.points[0]) == mano_by_hand(drill.house_rule, drill.table)
    else:
        assert sum(map(len, drill.piles)) == 40 and len(drill.piles) == drill.sides == {2: 2, 3: 3, 4: 2}[drill.players]
        added = bonus_by_hand(drill.house_rule, drill.piles)
        if added is not None:
            assert list(drill.points) == [p + a for p, a in zip(drill.standard.points, added)], drill
    assert all(a.ok for a in drill.check(drill.points))


def test_every_house_rule_and_table_size_comes_up_and_most_positions_change():
    drills = [house_rules_drill(s) for s in range(400)]
    assert {d.house_rule for d in drills} == set(HOUSE_RULES)
    assert {"primera_by_suit_count", "all_oros_bonus", "three_player_ties", "escoba_de_mano_15_20",
            "escoba_de_mano_pairs"} <= set(HOUSE_RULES)
    assert {d.players for d in drills if d.house_rule == "three_player_ties"} == {3}
    for rule in HOUSE_RULES:
        of_rule = [d for d in drills if d.house_rule == rule]
        assert any(d.changes for d in of_rule), rule  # every house rule is met where it counts
        if rule != "three_player_ties":
            assert {d.players for d in of_rule} == {2, 3, 4}, rule
    assert 0.65 * len(drills) <= sum(d.changes for d in drills) <= 0.85 * len(drills)  # "no change" kept, rarer
    assert any(not d.changes for d in drills if d.question == "escobas_de_mano")
    # escoba de mano by pairs left unchanged: a table the dealer takes anyway (the rule then does not apply), never
    # one with no pair of 15 at all, which would show nothing of what the rule does
    pairs = [d for d in drills if d.house_rule == "escoba_de_mano_pairs"]
    assert any(d.changes for d in pairs) and any(not d.changes for d in pairs)
    assert all(d.mano[0] > 0 for d in pairs if not d.changes)


# ============================================================================ a drill kept to a few house rules
LESSON_RULES = ("escoba_de_mano_15_20", "sevens", "three_player_ties")  # lesson 7's drill (only=...)


@pytest.mark.parametrize("only", [LESSON_RULES, ("figuras",), ("all_oros_bonus", "ties_both_score")])
def test_a_drill_kept_to_some_house_rules_skips_to_the_next_exercise_about_one(only):
    for start in range(120):
        drill = house_rules_drill(start, only=only)
        assert drill.house_rule in only
        # the same exercise as on any other page under its number, the first from ``start`` on about these rules
        assert drill == house_rules_drill(drill.seed) and drill.seed >= start
        assert all(house_rules_drill(s).house_rule not in only for s in range(start, drill.seed))
    assert house_rules_drill(4, only=LESSON_RULES).seed == 7  # lesson 7 opens on exercise 7
    assert make_drill("house_rules", 4) == house_rules_drill(4)  # without ``only``: every house rule, as before
    assert house_rules_drill(4).house_rule not in LESSON_RULES
    # a rule already on under the rules is left out of ``only``, the others kept
    assert {house_rules_drill(s, "escoba+sevens", only=("sevens", "figuras")).house_rule
            for s in range(30)} == {"figuras"}


@pytest.mark.parametrize(("only", "code", "said"), [
    (("sevens", "setenta_of_gold"), "unknown_option", "no house rule 'setenta_of_gold'"),
    (("renuncio",), "unknown_option", "no house rule 'renuncio'"),  # it changes the play: never asked here
    ("sevens", "error", "a list of house rule names"),  # a name alone, not a list of them
    ((7,), "error", "a list of house rule names"),
    ((), "no_house_rule", "none of these house rules"),
])
def test_a_bad_list_of_house_rules_is_refused_clearly(only, code, said):
    with pytest.raises(EscobaError) as refused:
        house_rules_drill(4, only=only)
    assert refused.value.code == code and said in str(refused.value)
    with pytest.raises(EscobaError) as refused:  # every rule asked for already on: nothing left to ask
        house_rules_drill(4, "escoba+sevens", only=("sevens",))
    assert refused.value.code == "no_house_rule"


def test_the_lesson_s_drill_keeps_to_its_house_rules_in_the_widget():
    widget = Drill("house_rules", seed=4, lang="es", options={"only": LESSON_RULES})
    assert widget.model.drill.seed == 7 and widget.seed_box.value == 7  # the number shown is the exercise's
    for _step in range(6):
        widget.new_button.click()
        assert widget.model.drill.house_rule in LESSON_RULES and widget.seed_box.value == widget.model.drill.seed
    bad = Drill("house_rules", seed=4, lang="es", options={"only": ("no_such_rule",)})
    assert bad.model.drill is None and bad.model.error["code"] == "unknown_option"
    assert "Traceback" not in bad.status.message


def find_house(test, limit=600):
    return next(d for d in map(house_rules_drill, range(limit)) if test(d))


def test_house_rule_mistakes_are_named():
    drill = find_house(lambda d: d.house_rule == "sevens" and d.players == 2 and d.kept_both != d.points)
    side = next(i for i in range(2) if drill.kept_both[i] != drill.points[i])
    given = list(drill.points)
    given[side] = drill.kept_both[side]
    assert drill.check(given)[side].mistake == "kept_replaced_point"
    drill = find_house(lambda d: d.house_rule == "figuras" and d.players == 2 and d.changes)
    side = next(i for i in range(2) if drill.points[i] != drill.standard.points[i])
    judged = drill.check(drill.standard.points)
    assert judged[side].mistake == "unchanged" and judged[1 - side].ok
    judged = drill.check([drill.points[0] + 2, drill.points[1] + 2])
    assert judged[side].mistake == "wrong_points" and judged[1 - side].mistake == "changed_needlessly"
    assert [a.mistake for a in drill.check([None, None])] == ["unanswered", "unanswered"]


def changed_side(drill):
    return next(i for i in range(len(drill.points)) if drill.points[i] != drill.before[i])


def test_primera_by_suit_count_mistakes_are_named():
    drill = find_house(lambda d: d.house_rule == "primera_by_suit_count" and d.changes)
    assert all(setenta(pile).missing for pile in drill.piles)  # it counts only where every setenta misses a suit
    side = changed_side(drill)
    judged = drill.check(drill.before)
    assert judged[side].mistake == "missing_suit_out"
    assert drill.house.line("primera").reason == "more_suits" or drill.house.line("primera").reason == "most"


def test_all_ten_coins_mistakes_are_named():
    drill = find_house(lambda d: d.house_rule == "all_oros_bonus" and d.changes and d.players == 3)
    holder = drill.all_oros_side
    assert holder is not None and changed_side(drill) == holder
    assert drill.points[holder] == drill.before[holder] + 1
    given = list(drill.points)
    given[holder] = drill.before[holder]
    assert [a.mistake for a in drill.check(given)] == ["" if i != holder else "oros_point_once" for i in range(3)]
    given[holder] = drill.points[holder] + 1  # 2 for the ten coins on top of the usual point
    assert drill.check(given)[holder].mistake == "oros_bonus_added"


def test_three_player_ties_mistakes_are_named():
    # two sides tie for cards, coins or setenta: the third takes the point
    drill = find_house(lambda d: d.house_rule == "three_player_ties" and d.changes
                       and d.tied_points != d.before)
    assert drill.players == 3 and len(drill.points) == 3
    third = changed_side(drill)
    judged = drill.check(drill.before)
    assert judged[third].mistake == "tie_scores_nobody"
    tied = next(i for i in range(3) if drill.tied_points[i] != drill.before[i])
    given = list(drill.points)
    given[tied] = drill.tied_points[tied]
    assert drill.check(given)[tied].mistake == "tied_sides_score" and drill.check(given)[third].ok


def test_escoba_de_mano_15_20_mistakes_are_named():
    twenty = find_house(lambda d: d.house_rule == "escoba_de_mano_15_20" and d.table_total == 20)
    assert (twenty.before, twenty.points) == ((0,), (2,)) and twenty.taken == tuple(twenty.table)
    assert twenty.check([0])[0].mistake == "twenty_missed" and twenty.check([2])[0].ok
    thirty = find_house(lambda d: d.house_rule == "escoba_de_mano_15_20" and d.table_total == 30, limit=3000)
    assert (thirty.before, thirty.points) == ((2,), (0,))
    assert thirty.check([2])[0].mistake == "thirty_still_two"
    fifteen = find_house(lambda d: d.house_rule == "escoba_de_mano_15_20" and d.table_total == 15, limit=3000)
    assert not fifteen.changes and fifteen.check([2])[0].mistake == "changed_needlessly"
    assert twenty.check([1])[0].mistake == "wrong_points" and twenty.check([None])[0].mistake == "unanswered"


def test_escoba_de_mano_pairs_mistakes_are_named():
    drill = find_house(lambda d: d.house_rule == "escoba_de_mano_pairs" and d.changes)
    assert drill.before == (0,) and drill.points[0] == len(drill.taken) // 2 >= 1
    assert all(a.value + b.value == 15 for a, b in zip(drill.taken[::2], drill.taken[1::2])) or drill.points[0] == 2
    assert drill.check([0])[0].mistake == "pairs_missed"
    whole = find_house(lambda d: d.house_rule == "escoba_de_mano_pairs" and d.before[0] > 0)
    assert not whole.changes and whole.check([whole.points[0] + 1])[0].mistake == "pairs_on_top"


def test_a_card_in_two_pairs_counts_once():
    from escoba_tutor.engine.cards import as_cards
    from escoba_tutor.engine.game import _pairs_of_15
    from escoba_tutor.exercises.kinds.house_rules import HouseRulesDrill

    # a seven, two sotas (8 each) and a four: two pairs share the seven; the engine takes one (docs/rules.md §7)
    table = tuple(as_cards("7o 10c 10e 4b"))
    taken = _pairs_of_15(table)
    drill = HouseRulesDrill(0, ESCOBA, "escoba_de_mano_pairs", 2, table=table, mano=(0, len(taken) // 2),
                            taken=taken)
    assert drill.points == (1,) and drill.all_pairs == 2
    assert drill.check([2])[0].mistake == "shared_card_twice"


@pytest.mark.parametrize("given", [[1], [1, 2, 3], [-1, 0], ["1", 0], [1.0, 0], [100, 0], [10**30, 0],
                                   [float("nan"), 0], [True, 0], "12", None, {0: 1}, [None]])
def test_house_rule_hostile_answers_are_refused(given):
    drill = find_house(lambda d: d.question == "points" and d.players == 2)
    with pytest.raises(EscobaError) as refused:
        drill.check(given)
    assert refused.value.code == "bad_answer"


@pytest.mark.parametrize("given", [[1, 2], [1, 2, 3], [], [10**9], ["2"], [2.0], [-1], "2", None])
def test_hostile_answers_for_three_sides_and_the_escoba_de_mano_are_refused(given):
    for drill in (find_house(lambda d: d.players == 3 and d.question == "points"),
                  find_house(lambda d: d.question == "escobas_de_mano")):
        if isinstance(given, list) and len(given) == len(drill.points) and len(given) == 3:
            continue
        with pytest.raises(EscobaError) as refused:
            drill.check(given)
        assert refused.value.code == "bad_answer"


# ============================================================================================ the widgets
def test_the_dealing_drill_in_the_widget_names_each_mistake():
    drill = find_dealing(lambda d: d.moment == "start" and d.players == 4)
    widget = Drill("dealing", seed=drill.seed, lang="es")
    view = widget.view
    dealer, mano = f"jugador {drill.dealer + 1}", f"jugador {drill.mano + 1}"
    assert f"<p>En esta mano reparte el {dealer}.</p>" in view.position.value
    assert [label for label, _v in view.next_player.options] == ["elige…", "Jugador 1", "Jugador 2", "Jugador 3",
                                                                 "Jugador 4"]
    view.next_player.value = str(drill.dealer)
    view.deal_now.value = "deal_three"
    view.rounds_box.value = str(drill.rounds_left + 1)
    widget.check_button.click()
    assert widget.status.message.split("\n") == [
        "Aciertos: 0 de 3.",
        f"A quién le toca: no al {dealer}. El que reparte juega el último en cada ronda; sale el que está a su "
        f"derecha: el {mano}.",
        "Qué pasa ahora: todavía no se reparte. Solo se vuelve a repartir cuando nadie tiene cartas, y ahora "
        "aún hay jugadores con cartas.",
        f"Rondas: {drill.rounds_left + 1}, no. Las cartas que tienen los jugadores ya están repartidas: cuenta "
        f"solo las rondas que quedan por repartir, {drill.rounds_left}."]
    view.next_player.value, view.deal_now.value = str(drill.mano), "play_on"
    view.rounds_box.value = str(drill.rounds_left)
    widget.check_button.click()
    assert widget.status.message.split("\n") == ["Aciertos: 3 de 3.", f"A quién le toca: bien, al {mano}.",
                                                 "Qué pasa ahora: bien.", f"Rondas: bien, {drill.rounds_left}."]


def test_the_next_deal_in_the_widget_in_english():
    drill = find_dealing(lambda d: d.moment == "deal_over" and d.players == 3)
    widget = Drill("dealing", seed=drill.seed, lang="en")
    names = [f"Player {i + 1}" for i in range(3)]
    # the deal is over: the question is who plays first in the next one, and the empty deck is said as such
    assert widget.view.next_player.description == "Who plays first in the next deal?"
    # the deck is empty: no rounds to count, so none are asked (the box is not shown)
    assert widget.view.rounds_box not in widget.view.controls
    assert "<p>The stock is empty.</p>" in widget.view.position.value and "0 cards" not in widget.view.position.value
    assert widget.view.position.value.startswith("<p>Three players are playing.</p>")
    widget.view.next_player.value = str(drill.next_dealer)
    widget.view.deal_now.value = "deal_three"
    widget.check_button.click()
    assert widget.status.message.split("\n") == [
        "0 of 3 right.",
        f"Who plays first in the next deal: not {names[drill.next_dealer]}. {names[drill.next_dealer]} is the dealer "
        f"for the next deal, and the player to the dealer's right plays first: {names[drill.next_player]}.",
        "What happens now: the stock has run out, so no more cards are dealt and the deal is over.",
        "Cards left: choose who takes them (or “Nobody”)."]
    widget.answer_button.click()
    assert (f"{names[drill.next_dealer]}, to the right of {names[drill.dealer]}, is the next dealer, and "
            f"{names[drill.next_player]}, to the new dealer's right, plays first."
            ) in html.unescape(widget.answer_box.children[0].value)
    assert "rounds" not in widget.answer_box.children[0].value


def test_every_answer_about_the_next_deal_is_worded_for_the_next_deal():
    """Once the deal is over the question is who plays first in the next one: no reply speaks of "who plays next"."""
    drill = find_dealing(lambda d: d.moment == "deal_over" and d.players == 3)
    widget = Drill("dealing", seed=drill.seed, lang="es")
    names = [f"el jugador {i + 1}" for i in range(3)]
    widget.check_button.click()
    assert "Quién sale en la mano siguiente: elige un jugador." in widget.status.message.split("\n")
    widget.view.next_player.value = str(drill.dealer)  # the dealer played last in this deal
    widget.check_button.click()
    assert (f"Quién sale en la mano siguiente: no sale {names[drill.dealer]}, que ha repartido esta. El "
            f"reparto pasa a la derecha, y sale el jugador que está a la derecha del que reparte la mano siguiente: "
            f"{names[drill.next_player]}.") in widget.status.message.split("\n")
    widget.view.next_player.value = str(drill.next_player)
    widget.check_button.click()
    assert f"Quién sale en la mano siguiente: bien, {names[drill.next_player]}." in widget.status.message.split("\n")
    assert "A quién le toca" not in widget.status.message


def test_the_cards_left_in_the_widget_go_to_a_team():
    drill = find_dealing(lambda d: d.moment == "deal_over" and d.players == 4 and d.side_of(d.dealer) != d.leftover_to)
    widget = Drill("dealing", seed=drill.seed, lang="es")
    view = widget.view
    names = [f"jugador {i + 1}" for i in range(4)]
    assert view.position.value.startswith("<p>Partida de cuatro, por parejas: la pareja 1 (jugadores 1 y 3) contra "
                                          "la pareja 2 (jugadores 2 y 4); los compañeros se sientan uno enfrente "
                                          "del otro.</p>")
    assert view.position.value.endswith("<p>No quedan cartas en el mazo.</p>")
    assert view.next_player.description == "¿Quién sale en la mano siguiente?"
    assert view.plays.value.count("<li>") == len(drill.plays)
    assert [label for label, _v in view.leftover.options] == ["elige…", "Pareja 1", "Pareja 2", "Nadie"]
    view.leftover.value = str(drill.side_of(drill.dealer))
    widget.check_button.click()
    capturer, team = names[drill.last_capturer], f"pareja {drill.leftover_to + 1}"
    assert widget.status.message.split("\n")[-1] == (
        f"Cartas que quedan: no son para la pareja {drill.side_of(drill.dealer) + 1}. El {names[drill.dealer]} jugó "
        "la última carta, pero la dejó en la mesa, así que las cartas que quedan son para el último bando que hizo "
        f"baza. La última baza la hizo el {capturer}, así que las cartas que quedan son para la {team}, "
        "que es la suya.")
    view.leftover.value = str(drill.leftover_to)
    widget.check_button.click()
    assert widget.status.message.split("\n")[-1].startswith("Cartas que quedan: bien. La última baza la hizo")
    widget.seed = 0  # another layout: no question on the cards left, and nothing of it kept
    assert "leftover" not in widget.model.drill.items and not hasattr(widget.view, "leftover")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("change", [
    {"choices": {"next_player": "99"}}, {"choices": {"next_player": ["0"]}}, {"choices": {"deal_now": "dealt"}},
    {"choices": {"deal_now": {"x": 1}}}, {"answers": ["9" * 100_000]}, {"answers": ["-3", "1e3"]},
    {"answers": [5, None]}, {"answers": ["٣", "２"]}, {"choices": {"leftover": "7"}},
])
def test_hostile_answers_through_the_widget_s_traits_are_said_not_raised(kind, change):
    widget = Drill(kind, seed=5, lang="en")
    for name, value in change.items():
        setattr(widget.model, name, value)
    widget.check_button.click()
    message = widget.status.message
    assert message and "Something went wrong" not in message and "Traceback" not in message
    result = widget.model.result
    assert not all(a.ok for a in result["answers"])  # nothing hostile counts as a right answer
    if "answers" in change:
        typed = result["typed"]  # one box (dealing) or one per side (house rules)
        assert (typed[0] if isinstance(typed, list) else typed) == "bad"
        assert "write a whole number" in message.lower()


def test_the_house_rules_drill_in_the_widget():
    drill = find_house(lambda d: d.house_rule == "sevens" and d.players == 2 and d.kept_both != d.points)
    widget = Drill("house_rules", seed=drill.seed, lang="es", names=["Ana", "Luis"])
    view = widget.view
    assert view.rule.value.startswith("<p><b>Regla de la casa: los sietes en lugar de la setenta</b><br>Un punto "
                                      "para el bando con más sietes (si empatan en cabeza, no se lo apunta nadie)")
    assert f"Total: Ana: {drill.standard.points[0]}; Luis: {drill.standard.points[1]}." in view.standard.value
    # each pile sorted as a player sorts it: by suit, then 1–7, sota, caballo, rey
    assert [row.cards for _head, row in view.parts] == [[c.code for c in sorted(pile)] for pile in drill.piles]
    side = next(i for i in range(2) if drill.kept_both[i] != drill.points[i])
    name = ["Ana", "Luis"][side]
    view.boxes_of[side].value = str(drill.kept_both[side])
    view.boxes_of[1 - side].value = "many"
    widget.check_button.click()
    lines = widget.status.message.split("\n")
    assert lines[0] == "Aciertos: 0 de 2."
    assert lines[1 + side] == (f"{name}: {drill.kept_both[side]}, no. El punto de la regla de la casa sustituye "
                               f"al de la setenta, así que la setenta ya no se cuenta. La puntuación "
                               f"con la regla de la casa es {drill.points[side]}.")
    assert lines[2 - side] == f"{['Ana', 'Luis'][1 - side]}: escribe un número entero, por ejemplo 2."
    for box, points in zip(view.boxes_of, drill.points):
        box.value = str(points)
    widget.check_button.click()
    assert widget.status.message.startswith("Aciertos: 2 de 2.\n")
    widget.answer_button.click()
    worked, sheet = widget.answer_box.children[0].children
    # whose point is lost, which point the rule adds and why (or that nobody scores it in this deal)
    setenta = next(line for line in drill.standard.lines if line.item == "setenta")
    assert (f"Punto que ya no se cuenta: la setenta, que se apuntaba {['Ana', 'Luis'][setenta.winners[0]]}."
            in worked.value and sheet.score == drill.house)
    sevens = next(line for line in drill.house.lines if line.item == "sevens")
    assert ("Puntos nuevos: más sietes — " if any(sevens.points) else
            "El punto de la regla de la casa, que en esta mano no es para nadie: más sietes — ") in worked.value


def test_three_sides_in_the_widget_with_the_third_side_s_point():
    drill = find_house(lambda d: d.house_rule == "three_player_ties" and d.tied_points != d.before)
    widget = Drill("house_rules", seed=drill.seed, lang="es")
    view = widget.view
    assert view.rule.value.startswith("<p><b>Regla de la casa: empates entre tres</b><br>Con tres bandos, si dos "
                                      "empatan en cabeza")
    assert view.seats.value == ("<p>Tres jugadores, cada uno por su cuenta: el jugador 1 es el bando 1; el jugador 2, "
                                "el bando 2; y el jugador 3, el bando 3.</p>")
    assert len(view.parts) == 3 and [b.description for b in view.boxes_of] == [
        f"Puntos del bando {n} con la regla de la casa" for n in (1, 2, 3)]
    assert [h.value.split(" · ")[0] for h, _row in view.parts] == [f"<h4>Bando {n}" for n in (1, 2, 3)]
    third = changed_side(drill)
    tied = next(i for i in range(3) if drill.tied_points[i] != drill.before[i])
    answers = [str(p) for p in drill.points]
    answers[third], answers[tied] = str(drill.before[third]), str(drill.tied_points[tied])
    widget.model.answers = answers
    widget.check_button.click()
    lines = widget.status.message.split("\n")
    assert lines[0] == "Aciertos: 1 de 3."
    assert lines[1 + third] == (
        f"Bando {third + 1}: {drill.before[third]}, no. Con esta regla de la casa, el punto en el que empatan dos "
        "bandos es para el tercero si tiene algo en ese punto: alguna carta para el de las cartas, algún oro para "
        "el de los oros o una setenta válida para el de la setenta. La puntuación con la regla de la casa es "
        f"{drill.points[third]}.")
    assert lines[1 + tied].startswith(f"Bando {tied + 1}: {drill.tied_points[tied]}, no. Con esta regla de la "
                                      "casa, los bandos empatados no se apuntan el punto en el que empatan")
    widget.answer_button.click()
    worked = widget.answer_box.children[0].children[0].value
    assert f"el punto es para el bando {third + 1}" in worked


def test_teams_in_the_widget_and_hostile_answers_for_them():
    drill = find_house(lambda d: d.house_rule == "all_oros_bonus" and d.players == 4 and d.changes)
    widget = Drill("house_rules", seed=drill.seed, lang="en")
    view = widget.view
    assert view.seats.value == ("<p>Four players in two teams: Team 1 (Players 1 and 3) against Team 2 (Players 2 and "
                                "4); partners sit opposite each other.</p>")
    assert [b.description for b in view.boxes_of] == [f"Points for Team {n} with the house rule" for n in (1, 2)]
    holder = drill.all_oros_side
    assert view.parts[holder][0].value.startswith(f"<h4>Team {holder + 1} · ")
    for hostile in (["9" * 50, "2"], ["-1", "x"], ["1", "2", "3"], [None, 4], ["1"]):
        widget.model.answers = hostile  # a page sends what it likes: said, never raised nor counted right
        widget.check_button.click()
        message = widget.status.message
        assert "Traceback" not in message and "Something went wrong" not in message
        assert not all(a.ok for a in widget.model.result["answers"]) and len(widget.model.result["answers"]) == 2
    answers = [str(p) for p in drill.points]
    answers[holder] = str(drill.points[holder] + 1)
    widget.model.answers = answers
    widget.check_button.click()
    assert widget.status.message.split("\n")[1 + holder] == (
        f"Team {holder + 1}: not {drill.points[holder] + 1}. All ten coins make the coins point worth 2: those 2 "
        f"points replace the usual point; they are not added to it. The score is "
        f"{drill.points[holder]}.")
    widget.answer_button.click()
    assert f"Team {holder + 1} has all ten coins: 2 points" in widget.answer_box.children[0].children[0].value


def test_the_escoba_de_mano_in_the_widget():
    drill = find_house(lambda d: d.house_rule == "escoba_de_mano_15_20" and d.table_total == 30 and d.players == 4,
                       limit=4000)
    widget = Drill("house_rules", seed=drill.seed, lang="es")
    view = widget.view
    team = f"pareja {drill.dealer_side + 1}"
    assert view.table_row.cards == [c.code for c in drill.table] and not view.parts
    assert view.dealt.value == (f"<p><b>Reparte el jugador {drill.dealer + 1}. Las cuatro cartas boca arriba en la "
                                "mesa:</b></p>")
    assert view.standard.value == f"<p>Sin la regla de la casa: 2 escobas de mano para la {team}.</p>"
    (box,) = view.boxes_of
    assert box.description == f"Escobas de mano de la {team} con la regla de la casa"
    box.value = "2"
    widget.check_button.click()
    assert widget.status.message.split("\n") == [
        "Aciertos: 0 de 1.", "2, no. Con esta regla de la casa, una mesa de 30 ya no da escoba de mano: solo la dan 15 "
        "(una) y 20 (dos). La respuesta: 0 (ninguna escoba de mano)."]
    box.value = "dos"
    widget.check_button.click()
    assert widget.status.message.split("\n")[1] == "Escribe un número entero, por ejemplo 1."
    box.value = "0"
    widget.check_button.click()
    assert widget.status.message.split("\n") == ["Aciertos: 1 de 1.", "Bien: 0 (ninguna escoba de mano)."]
    widget.answer_button.click()
    assert "con esta regla de la casa, una mesa de 15 da una escoba de mano" in widget.answer_box.children[0].children[
        0].value
    # another exercise of another layout: the piles come back, the table goes
    other = find_house(lambda d: d.question == "points" and d.players == 3)
    widget.seed = other.seed
    assert len(widget.view.parts) == 3 and len(widget.view.boxes_of) == 3 and widget.model.answers == ["", "", ""]
    widget.answer_button.click()
    assert widget.answer_box.children[0].children[1].score == other.house


def test_the_escoba_de_mano_by_pairs_in_the_widget():
    drill = find_house(lambda d: d.house_rule == "escoba_de_mano_pairs" and d.changes and d.players == 2)
    widget = Drill("house_rules", seed=drill.seed, lang="en")
    side = f"Side {drill.dealer + 1}"
    widget.view.boxes_of[0].value = "0"
    widget.check_button.click()
    assert widget.status.message.split("\n")[1] == (
        "Not 0. The four cards make no escoba de mano, but with this house rule the dealer takes each pair among "
        f"them that adds up to 15: one escoba per pair. The answer: 1 escoba de mano for {side}.")
    widget.answer_button.click()
    worked = widget.answer_box.children[0].children[0].value
    names = " and ".join(f"the {Translator('en').card_name(c)}" for c in drill.taken)  # each with its article
    assert f"With the house rule: 1 escoba de mano for {side}." in worked
    assert f"dealer takes {names}, a pair that adds up to 15." in worked


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_house_rules_sentence_names_sides_and_teams_well(lang):
    """Sides, teams and players are labels in every sentence the drill shows: «el bando 3», «de la pareja 1»,
    never «a Bando 3» nor «de Pareja 1»."""
    from test_placeholders import _blocks, label_problems

    from escoba_tutor.text import labels

    _ = Translator(lang)
    shown = ([labels.side(_, n) for n in (1, 2, 3)] + [labels.team(_, n) for n in (1, 2)]
             + [labels.player(_, n) for n in (1, 2, 3, 4)])
    texts = []
    for rule in HOUSE_RULES:
        for players in (2, 3, 4):
            drill = next((d for d in map(house_rules_drill, range(300))
                          if d.house_rule == rule and d.players == players), None)
            if drill is None:
                continue
            widget = Drill("house_rules", seed=drill.seed, lang=lang)
            # (the rule's name and what it changes are two lines: a heading, then a sentence)
            texts += _blocks(widget.view.rule.value.replace("<br>", "</p><p>") + widget.view.seats.value
                             + widget.view.standard.value)
            texts += [b.description for b in widget.view.boxes_of]
            for shift in (0, 1, 2, 99):
                widget.model.answers = [str(p + shift) for p in drill.before]
                widget.check_button.click()
                texts += widget.status.message.split("\n")
            widget.answer_button.click()
            texts += _blocks(widget.answer_box.children[0].children[0].value)
    for seed in (1, 19, 40, 200):
        texts += _blocks(worksheet_html(seed, lang, count=4, kinds=("house_rules",)))
    assert len(texts) > 200
    problems = sorted({f"{text!r}: {p}" for text in texts for p in label_problems(text, lang, shown)})
    assert not problems, "\n".join(problems[:30])


# ================================================================================ records and the board
@pytest.mark.parametrize("kind", KINDS)
def test_a_check_lands_on_the_class_board(kind, tmp_path, monkeypatch, records_endpoint):
    database = tmp_path / "class.sqlite3"
    server = records_endpoint(database)  # the course server writes what this "kernel" sends it
    for name, value in server.kernel_env("Ana").items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(recorder_module, "_recorder", None)  # the kernel's recorder, read from its environment
    widget = Drill(kind=kind, seed=4, lang="en")
    drill = widget.model.drill
    if kind == "dealing":
        widget.view.next_player.value = str(drill.next_player)
        widget.view.deal_now.value = drill.deal_now
        widget.view.rounds_box.value = str(drill.deck_left // 3 if drill.rounds_left else 50)
        mistake = "per_player" if drill.rounds_left else "wrong_rounds"
    else:
        for box, points in zip(widget.view.boxes_of, drill.points):
            box.value = str(points + 3)
        mistake = "wrong_points" if drill.points[0] != drill.standard.points[0] else "changed_needlessly"
    widget.check()
    assert widget.status.message.startswith(("2 of 3 right.", "0 of 2 right."))
    if kind == "dealing":
        widget.view.rounds_box.value = str(drill.rounds_left)
    else:
        for box, points in zip(widget.view.boxes_of, drill.points):
            box.value = str(points)
    widget.check()
    assert recorder_module.recorder().flush(30)
    with ClassStore.open(database) as store:
        board, classes = store.board(), store.classes()
    (student,) = board.students
    assert student.nickname == "Ana" and student.drills[kind] == (2, 1)
    (row,) = board.mistakes
    assert (row.kind, row.code, [e.seed for e in row.exercises]) == (kind, mistake, [4])
    view = board_view(board, classes, "en", "/")
    column = {"dealing": "Dealing and turns", "house_rules": "House rules"}[kind]
    page = {"dealing": "04-end-of-deal", "house_rules": "07-variants"}[kind]
    assert column in view["kinds"]
    (shown,) = view["mistakes"]
    assert shown["kind"] == column and shown["seeds"][0]["href"] == f"/voila/render/en/{page}.ipynb?seed=4"
    assert escape(shown["words"]) == escape({
        "per_player": "Dividing the stock by 3 instead of by 3 × the number of players",
        "wrong_rounds": "Counting the rounds left wrongly",
        "wrong_points": "Counting the points under the house rule wrongly",
        "changed_needlessly": "Changing the points when the house rule does not change that side's total"}[mistake])


def test_the_variants_asked_are_the_rule_book_s():
    assert set(HOUSE_RULES) <= set(VARIANTS)
    assert ESCOBA.replace(**VARIANTS["sevens"].changes).primera == "sevens"


# =============================================================================================== worksheet
def test_the_worksheet_prints_both_kinds_with_their_answers():
    page = worksheet_html(19, "en", count=1, kinds=KINDS)
    exercises, key = page.split("Answer key")
    assert "<h2>1. Dealing and turns</h2>" in exercises and "<h2>2. What a house rule changes</h2>" in exercises
    # exercise 19: four players, Player 4 deals and has just played the deal's last card; Player 1 captured last
    assert ("Four players in two teams: Team 1 (Players 1 and 3) against Team 2 (Players 2 and 4); partners sit "
            "opposite each other."
            in exercises)
    assert "0 cards are left" not in exercises and "Who plays first in the next deal?" in exercises
    assert "<p>The last plays of the deal:</p><ol><li>Player 1 plays the two of coins and takes" in exercises
    assert '<th scope="row">Who takes the cards left on the table?</th>' in exercises
    assert ("Player 1, to the right of Player 4, is the next dealer, and Player 2, to the new dealer&#39;s right, "
            "plays first.") in key
    assert "The last capture was made by Player 1, so the cards left go to Player 1&#39;s team, Team 1." in key
    # the key answers in the order the sheet asks: what happens, the cards left, who plays first (the deck is
    # empty: no rounds are asked, and none are answered)
    assert "rounds are left" not in exercises and "rounds" not in key.split("2. What a house rule")[0]
    answers = ("the deal is over", "The last capture was made by", "plays first.")
    places = [key.index(words) for words in answers]
    assert places == sorted(places)
    drill = house_rules_drill(19)  # all ten coins, in a game of four: the teams are named
    assert (drill.house_rule, drill.players) == ("all_oros_bonus", 4)
    assert ("House rule: all ten coins. A side that holds all ten coins scores 2 points for the coins instead of "
            "1.") in exercises
    assert ("Four players in two teams: Team 1 (Players 1 and 3) against Team 2 (Players 2 and 4); partners sit "
            "opposite each other."
            in exercises)
    assert '<th scope="col">Team 1</th><th scope="col">Team 2</th>' in re.sub(r"\s+<", "<", exercises)
    assert "Points for Team 1 with the house rule:" in exercises
    assert f"Team 1: {drill.points[0]}; Team 2: {drill.points[1]}. The house rule changes the points." in key


def test_the_house_rules_sheet_with_three_sides_and_with_the_escoba_de_mano():
    drill = find_house(lambda d: d.house_rule == "three_player_ties" and d.changes)
    exercises, key = worksheet_html(drill.seed, "es", count=1, kinds=("house_rules",)).split("Soluciones")
    assert ("Tres jugadores, cada uno por su cuenta: el jugador 1 es el bando 1; el jugador 2, el bando 2; y el "
            "jugador 3, el bando 3.") in exercises
    assert [f"Puntos del bando {n} con la regla de la casa:" in exercises for n in (1, 2, 3)] == [True] * 3
    said = "; ".join(f"Bando {n}: {p}" for n, p in zip((1, 2, 3), drill.points))
    assert f"{said}. La regla de la casa cambia los puntos." in key and "el punto es para el bando" in key
    drill = find_house(lambda d: d.house_rule == "escoba_de_mano_15_20" and d.table_total == 20 and d.players == 2)
    exercises, key = worksheet_html(drill.seed, "en", count=1, kinds=("house_rules",)).split("Answer key")
    player, side = f"Player {drill.dealer + 1}", f"Side {drill.dealer + 1}"
    assert f"{player} deals. The four cards face up on the table:" in exercises
    assert "Without the house rule: 0 (no escoba de mano)." in exercises
    # the task leaves out the dealer's side: working it out is part of the exercise
    assert "Escobas de mano with the house rule, and the side that scores them:" in exercises
    assert f"for {side}" not in exercises
    # a face card with its value in brackets, as the course writes the 15: "knight (9) + 4 + 4 + 3 = 20"
    en = Translator("en")
    total = " + ".join(f"{en.rank_name(c.rank)} ({c.value})" if c.is_figure else str(c.value) for c in drill.table)
    assert (f"With the house rule: 2 escobas de mano for {side}. The four cards add up to {total} = 20: with this "
            "house rule a table of 15 gives one escoba de mano, a table of 20 two, and any other total none, 30 "
            "included.") in key


def test_the_house_rules_sheet_sorts_the_piles_and_its_key_says_why():
    drill = find_house(lambda d: d.house_rule == "sevens" and d.changes and d.players == 2)
    page = worksheet_html(drill.seed, "es", count=1, kinds=("house_rules",))
    exercises, key = page.split("Soluciones")
    order = ["1", "2", "3", "4", "5", "6", "7", "sota", "caballo", "rey"]
    cells = re.findall(r"<td>([^<]*)</td>", exercises)
    for cell in (c.strip() for c in cells):
        ranks = [r.strip() for r in cell.split(",")] if cell not in ("—", "") and not cell.isdigit() else []
        assert ranks == sorted(ranks, key=order.index), cell
    # the key names the point the house rule moves, with its reason, and the point it no longer scores
    # (a point nobody scores is no "new point": «Puntos nuevos: más sietes — nadie» read as a contradiction)
    assert "El punto de la regla de la casa, que en esta mano no es para nadie: más sietes — empate (2–2)." in key
    assert "Puntos nuevos" not in key and "Punto que ya no se cuenta: la setenta, que se apuntaba el bando" in key


def test_the_primera_by_suit_count_decides_the_setenta_s_point_it_never_drops_it():
    """The house rule decides the setenta's point by suit count: the key and the widget never list the setenta as
    a point no longer scored beside a "new" primera, whether the point moves or stays with its side."""
    drills = [d for d in map(house_rules_drill, range(600)) if d.house_rule == "primera_by_suit_count"
              and d.question != "escobas_de_mano"]
    assert {bool(d.changes) for d in drills} == {True, False}
    for drill in drills[:12]:
        for lang, gone, new in (("en", "Points? no longer scored", "New points?:"),
                                ("es", "Puntos? que ya no se cuentan?", "Puntos? nuevos?:")):
            key = worksheet_html(drill.seed, lang, count=1, kinds=("house_rules",)).split(
                "Answers" if lang == "en" else "Soluciones")[-1]
            widget = Drill("house_rules", seed=drill.seed, lang=lang)
            widget.answer_button.click()
            worked = widget.answer_box.children[0].children[0].value
            for text in (key, worked):
                assert not re.search(gone, text) and not re.search(new, text), (drill.seed, lang)
            standard = {line.item: line for line in drill.standard.lines}["setenta"]
            house = {line.item: line for line in drill.house.lines}["primera"]
            if house.points != standard.points:
                assert ("Point that changes: the setenta (primera) by suit count — " if lang == "en" else
                        "Punto que cambia: ") in html.unescape(key)
            elif lang == "en" and not drill.changes:
                assert "stays as it was: the setenta (primera) by suit count — " in key


# ================================================================================ players named in sentences
def _every_dealing_text(lang):
    """Every sentence the dealing drill shows for a position of each moment and table size: the position, the
    deal's last plays, the feedback on answers that hit each mistake, and the worked answer."""
    from test_placeholders import _blocks

    texts = []
    for moment in ("start", "mid_round", "round_over", "deal_over"):
        for players in (2, 3, 4):
            drill = find_dealing(lambda d, m=moment, n=players: d.moment == m and d.players == n)
            widget = Drill("dealing", seed=drill.seed, lang=lang)
            view = widget.view
            texts += _blocks(view.position.value)
            if "leftover" in drill.items:
                texts += _blocks(view.plays.value)
            for player in range(players):
                view.next_player.value = str(player)
                view.deal_now.value = DEAL_NOW[player % 3]
                view.rounds_box.value = str(drill.rounds_left + player)
                if "leftover" in drill.items:
                    view.leftover.value = [*map(str, range(drill.sides)), "none"][player % (drill.sides + 1)]
                widget.check_button.click()
                texts += widget.status.message.split("\n")
            widget.answer_button.click()
            texts += _blocks(widget.answer_box.children[0].value)
    return texts


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_dealing_sentence_names_players_and_teams_well(lang):
    """The players and the teams are labels: «al jugador 3», «después del jugador 2», «El jugador 1 juega…»,
    never «a Jugador 3» nor «de Jugador 2» (the checks of tests/test_placeholders.py, with the players shown)."""
    from test_placeholders import _blocks, label_problems

    from escoba_tutor.text import labels

    _ = Translator(lang)
    shown = [labels.player(_, n) for n in (1, 2, 3, 4)] + [labels.team(_, n) for n in (1, 2)]
    texts = _every_dealing_text(lang)
    for seed in (1, 19, 40, 200):
        texts += _blocks(worksheet_html(seed, lang, count=3, kinds=("dealing",)))
    assert len(texts) > 150
    problems = sorted({f"{text!r}: {p}" for text in texts for p in label_problems(text, lang, shown)})
    assert not problems, "\n".join(problems[:30])
    if lang == "es":
        said = "\n".join(texts)
        for words in ("A quién le toca: bien, al jugador", "A quién le toca: no al jugador", "En esta mano reparte el "
                      "jugador", "Cartas que quedan: no son para el jugador", "La última baza la hizo el jugador"):
            assert words in said, words


@pytest.mark.parametrize("lang, kept, yours", [
    ("en", "With the house rule, the setenta goes from 67 to invalid for Team 2, but the point still goes to Team 1.",
     "With the house rule, the setenta goes from 67 to invalid for the computer, but the point still goes to your "
     "team."),
    ("es", "Con la regla de la casa, la setenta de la pareja 2 pasa de 67 a inválida, pero el punto sigue siendo de "
           "la pareja 1.",
     "Con la regla de la casa, la setenta del ordenador pasa de 67 a inválida, pero el punto sigue siendo de "
     "vuestra pareja."),
])
def test_a_point_whose_winner_stays_is_not_among_the_points_that_change_on_screen(lang, kept, yours):
    """Setenta with low cards only, in a deal where Team 2's setenta becomes invalid but Team 1 wins the setenta
    either way: the worked answer says the value changes and the point stays, never "Points that change: the
    setenta"; a side the page calls "you" is, in this game of four, your team (never «de ti», nor "yours" for a
    point the partner's captures may have won)."""
    from escoba_tutor.text import labels

    widget = Drill("house_rules", seed=25, lang=lang)
    assert widget.model.drill.house_rule == "low_primera" and not widget.model.drill.changes
    widget.answer_button.click()
    said = html.unescape(widget.answer_box.children[0].children[0].value)
    assert kept in said and "Points that change" not in said and "Puntos que cambian" not in said
    _ = Translator(lang)
    widget = Drill("house_rules", seed=25, lang=lang, names=[labels.you(_), labels.computer(_)])
    widget.answer_button.click()
    said = html.unescape(widget.answer_box.children[0].children[0].value)
    assert yours in said and "de ti" not in said


def test_the_widget_shows_the_four_cards_of_the_pairs_in_the_order_dealt():
    """Escoba de mano by pairs: the order dealt breaks a tie between pairs that share a card, so the drill says
    its row of four cards is in that order (the other house rules need not)."""
    pairs = find_house(lambda d: d.house_rule == "escoba_de_mano_pairs")
    widget = Drill("house_rules", seed=pairs.seed, lang="es")
    assert widget.view.dealt.value == (f"<p><b>Reparte el jugador {pairs.dealer + 1}. Las cuatro cartas boca arriba "
                                       "en la mesa, en el orden en que se repartieron:</b></p>")
    other = find_house(lambda d: d.house_rule == "escoba_de_mano_15_20")
    widget = Drill("house_rules", seed=other.seed, lang="en")
    assert widget.view.dealt.value == (f"<p><b>Player {other.dealer + 1} deals. The four cards face up on the "
                                       "table:</b></p>")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_point_the_house_rule_no_longer_scores_says_whose_it_was(lang):
    """"Points no longer scored: the setenta" did not say which side loses it: each point is named with the sides
    that scored it without the house rule, and a new point nobody scores is said to be nobody's."""
    from escoba_tutor.exercises.kinds.house_rules import _house_rules_answer, dropped_items, house_sides
    _ = Translator(lang)
    seen = 0
    for drill in map(house_rules_drill, [*range(1, 400), 1933]):
        if drill.question == "escobas_de_mano" or not dropped_items(drill):
            continue
        seen += 1
        said = _house_rules_answer(_, drill)["said"]
        names = house_sides(_, drill)
        for item in dropped_items(drill):
            line = next(line for line in drill.standard.lines if line.item == item)
            assert len(line.winners) == 1  # (under the usual rules a point has one side, or none)
            side = names[line.winners[0]].the
            assert (f", which {side} scored" if lang == "en" else f", que se apuntaba {side}") in said, said
    assert seen >= 5
    worked = _house_rules_answer(Translator("es"), house_rules_drill(1933))["said"]
    assert ("El punto de la regla de la casa, que en esta mano no es para nadie: más sietes — empate en cabeza entre "
            "el bando 2 y el bando 3") in worked
    assert "Punto que ya no se cuenta: la setenta, que se apuntaba el bando 3." in worked


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_pairs_key_says_why_the_deal_order_picks_one_pair(lang):
    """Worksheet no. 1933, exercise 1934: the knight of coins makes 15 with either six, and the key named only the
    pair taken. When another choice of pairs takes as many cards, the key names it and the card dealt earlier that
    decides; otherwise it says nothing of the kind. Checked against the engine over many tables, and the task
    says its four cards are in the order dealt."""
    from itertools import combinations

    from escoba_tutor.engine.cards import as_cards
    from escoba_tutor.engine.game import _pairs_of_15
    from escoba_tutor.exercises.kinds.house_rules import HouseRulesDrill, mano_reason

    _ = Translator(lang)
    instead = {"en": "Taking ", "es": "Llevarse "}[lang]
    told, silent = 0, 0
    for table in combinations(as_cards("11o 6b 6o 1o 7c 10e 12b 5c 4o 3e"), 4):
        taken = _pairs_of_15(table)
        drill = HouseRulesDrill(0, ESCOBA, "escoba_de_mano_pairs", 2, table=table, mano=(0, len(taken) // 2),
                                taken=taken)
        if not taken or sum(c.value for c in table) in (15, 30):
            continue
        pairs = [p for p in combinations(range(4), 2) if sum(table[i].value for i in p) == 15]
        choices = [set(p) for p in pairs] + [set(p) | set(q) for p, q in combinations(pairs, 2) if not set(p) & set(q)]
        tie = sum(len(c) == len(taken) for c in choices) > 1
        said = mano_reason(_, drill)
        assert (instead in said) == tie, (table, said)
        if tie:
            told += 1
            first, later = re.search({"en": r": ([^,:.]+?) was dealt before (.+)\.$",
                                      "es": r": ([^,:.]+?) se repartió antes que (.+)\.$"}[lang], said).groups()
            names = [_.the_card(c) for c in table]
            assert first in names and later in names and names.index(first) < names.index(later), said
            assert table[names.index(first)] in taken and table[names.index(later)] not in taken, said
        else:
            silent += 1
    assert told and silent
    sheet = html.unescape(worksheet_html(1933, lang, kinds=("house_rules",)))
    assert {"en": "Taking the knight of coins and the six of coins instead would also make 15 with the same number "
                  "of cards. But a card can be used in only one pair, and of two pairs that share a card the dealer "
                  "takes the one whose other card was dealt first: the six of clubs was dealt before the six of "
                  "coins.",
            "es": "Llevarse el caballo de oros y el seis de oros también sumaría 15 con el mismo número de cartas. "
                  "Pero una carta solo puede estar en un par, y de dos pares que comparten una carta el que reparte "
                  "se queda con aquel cuya otra carta se repartió antes: el seis de bastos se repartió antes que el "
                  "seis de oros."}[lang] in sheet
    assert {"en": "The four cards face up on the table, in the order they were dealt:",
            "es": "Las cuatro cartas boca arriba en la mesa, en el orden en que se repartieron:"}[lang] in sheet
