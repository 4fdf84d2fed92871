"""The "medio" bot follows its ordered preferences exactly."""

from __future__ import annotations

from escoba_tutor import DECK, ESCOBA, Move, parse_cards
from escoba_tutor.engine.captures import legal_captures
from escoba_tutor.engine.game import PlayerView
from escoba_tutor.players.bots import GreedyBot, make_bot


def view(hand: str, table: str, seen: str = "") -> PlayerView:
    """A view of player 0 in a 2-player deal: ``seen`` are cards already played (not unseen any more), all in
    player 0's pile."""
    hand_cards, table_cards = parse_cards(hand), parse_cards(table)
    moves = []
    for card in hand_cards:
        captures = legal_captures(card, table_cards)
        moves += [Move(card, c) for c in captures] or [Move(card)]
    return PlayerView(player=0, side=0, sides=((0,), (1,)), rules=ESCOBA, deal=0, dealer=1, turn=0, hand=hand_cards,
                      table=table_cards, hand_sizes=(len(hand_cards), 3), piles=(parse_cards(seen), ()),
                      escobas=(0, 0), deck_left=20, totals=(0, 0), legal_moves=tuple(moves), history=(), winner=None)


def choice(v: PlayerView) -> str:
    return GreedyBot().choose(v).text


def test_an_escoba_comes_first():
    # 3c sweeps 1o 4b 7o; 12e could take 1o 4b (with the 7o untouched) — the escoba wins.
    assert choice(view("12e 3c", "1o 4b 7o")) == "3c+1o+7o+4b"


def test_then_the_siete_de_oros():
    # 8 (sota) takes 7o; 5e takes 10c (more cards would be... the same count): the 7o wins.
    assert choice(view("10e 5e", "7o 10c 2b")) == "10e+7o"


def test_no_table_an_unseen_card_can_sweep_when_another_move_avoids_it():
    # Taking 4b with 11c (9 + 4 = 13)? not 15. Lay-downs only: laying 5c leaves 5c + 3e = 8 (a 7 sweeps:
    # sevens are unseen); laying 12c leaves 12c + 3e = 13 (a 2 sweeps); laying 1e leaves 4 -> an 11 sweeps...
    # every total from 2 to 14 can be swept except when all cards of the needed value are seen.
    seen = "2o 2c 2e 2b"  # no 2 is left unseen: a table of 13 is safe
    assert choice(view("5c 12c", "3e", seen)) == "12c"


def test_then_most_sevens_then_most_oros_then_most_cards():
    # 1o can take 7c 7e (1 + 7 + 7 = 15): two sevens; or 10c 6b? (1 + 8 + 6 = 15): none. Sevens first.
    v = view("1o", "7c 7e 10c 6b 3e 11b", seen="3o 3c 3b 1c 1e 1b 4o 4c 4e 4b 5o 5c 5e 5b 2o 2c 2e 2b 6o 6c 6e")
    assert choice(v) == "1o+7c+7e"


def test_with_no_capture_the_hardest_table_to_sweep_keeping_sevens_and_oros():
    # Nothing captures. Laying 7o or 7b: the table totals become the same for both... keep the 7o (an oro).
    v = view("7o 7b", "12c 12e")  # 7 + 10 + 10 = 27: nobody can sweep 27 whatever is laid
    assert choice(v) == "7b"


def test_the_greedy_bot_is_registered_and_deterministic():
    v = view("5c 12c 1o", "3e 4b")
    assert make_bot("greedy").choose(v) == make_bot("greedy", seed=9).choose(v)
    assert make_bot("greedy").name == "greedy" and len(DECK) == 40
