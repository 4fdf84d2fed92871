"""A kind of exercise is one file and one registry entry: a kind made here, in this file alone, is registered and
then shows everywhere the course's own kinds do — the Drill widget (its view, its check), the printed worksheet,
the class records a student's check writes, and the teacher's board (its column and its mistakes in words) —
without a line of any other file changed. And the registry refuses what would mix the records up.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timezone
from html import escape

import ipywidgets as w
import pytest

from escoba_tutor import ESCOBA, EscobaError, parse_cards
from escoba_tutor.engine.cards import DECK, Suit
from escoba_tutor.exercises import DrillKind, WorksheetPart, kind, kind_names, kinds_for, make_drill, registry
from escoba_tutor.exercises.common import check_seed, seeded
from escoba_tutor.exercises.worksheet import worksheet_html
from escoba_tutor.records import ClassStore
from escoba_tutor.records import recorder as recorder_module
from escoba_tutor.server.class_board import board_view, kind_page
from escoba_tutor.text.translator import N_, Translator
from escoba_tutor.widgets import Drill
from escoba_tutor.widgets.drills import KindView


# ------------------------------------------------------------------ the kind: how many coins are in the pile?
@dataclasses.dataclass(frozen=True)
class CoinsCheck:
    ok: bool
    given: int | None
    mistake: str = ""


@dataclasses.dataclass(frozen=True)
class CoinsDrill:
    kind = "coins"
    seed: int
    rules: object
    pile: tuple
    answer: int

    def check(self, given: int | None) -> CoinsCheck:
        if given is None:
            return CoinsCheck(False, None, "unanswered")
        if given == self.answer:
            return CoinsCheck(True, given)
        return CoinsCheck(False, given, "counted_every_card" if given == len(self.pile) else "miscounted")


def coins_drill(seed: int, rules) -> CoinsDrill:
    rng = seeded("coins", check_seed(seed))
    pile = tuple(sorted(rng.sample(DECK, rng.randint(5, 9))))
    return CoinsDrill(seed, rules, pile, sum(card.suit is Suit.OROS for card in pile))


def coins_outcome(result: CoinsCheck):
    if result.given is None:
        return None
    return (True, None) if result.ok else (False, result.mistake)


# Its part of the worksheet: the markup in its own macros (with the shared pieces), the words from Python.
COINS_SHEET = """
{% macro task(drill, pile_label) %}
  <li><p>{{ paper.number(drill) }} {{ pile_label }}</p>
  <p>{{ paper.cards(drill.pile) }}</p></li>
{% endmacro %}

{% macro answer(drill) %}<li>{{ paper.key_number(drill) }} {{ drill.answer }} coins</li>{% endmacro %}
"""


def coins_task(_: Translator, drill: CoinsDrill) -> dict[str, object]:
    return {"pile_label": "Count the <coins> & write:"}


class CoinsView(KindView):
    kind = "coins"
    title = N_("How many coins?")
    task = N_("Count the coins in the pile.")

    @staticmethod
    def boxes(drill) -> int:
        return 1

    @staticmethod
    def judge(drill: CoinsDrill, model):
        typed = model.answers[0].strip()
        return drill.check(int(typed) if typed.isdigit() else None)

    def build(self, drill) -> list[w.Widget]:
        self.pile_text, self.box = w.HTML(), w.Text()
        self.box.observe(lambda change: self.typed(0, change), "value")
        return [self.pile_text, self.box]

    def draw(self, _: Translator, drill: CoinsDrill, names: list[str]) -> None:
        self.pile_text.value = escape(", ".join(_.card_name(card) for card in drill.pile))
        self.box.value = self.model.answers[0]

    def feedback(self, _: Translator, drill: CoinsDrill, names: list[str], result: CoinsCheck) -> list[str]:
        return ["Right." if result.ok else f"Not so: {drill.answer}."]

    def answer(self, _: Translator, drill, names, current):
        current = current or w.HTML()
        current.value = str(drill.answer)
        return current


COINS = DrillKind(
    name="coins",
    make=coins_drill,
    label=N_("coins (how many coins)"),
    column=N_("Coins"),
    lesson="05-scoring",
    mistakes={"counted_every_card": N_("Counting every card of the pile, not only the coins"),
              "miscounted": N_("Counting the coins wrongly")},
    outcome=coins_outcome,
    worksheet=WorksheetPart(N_("How many coins?"), lambda _, rules: "Count the coins in each pile.", COINS_SHEET,
                            coins_task),
    view=f"{__name__}:CoinsView",
    available=lambda rules: rules.primera == "setenta",
)


@pytest.fixture
def coins():
    registry.register(COINS)
    try:
        yield COINS
    finally:
        registry.unregister("coins")


# ------------------------------------------------------------------------------------------------- the tests
def test_a_registered_kind_is_listed_made_and_taken_away_again(coins):
    assert kind_names()[-1] == "coins" and kind("coins") is coins
    assert "coins" in kinds_for("escoba") and "coins" not in kinds_for("scopa")  # its own ``available``
    assert make_drill("coins", 4) == make_drill("coins", 4, ESCOBA) == coins_drill(4, ESCOBA)
    assert kind_page("coins") == "05-scoring"
    registry.unregister("coins")
    assert "coins" not in kind_names() and kind_page("coins") is None
    with pytest.raises(EscobaError, match="no drill is called 'coins'"):
        make_drill("coins", 4)
    registry.register(coins)  # for the fixture to take away


def test_the_worksheet_prints_it_with_its_answer_key(coins):
    page = worksheet_html(3, "en", count=2, kinds=("captures", "coins"))
    exercises, key = page.split("Answer key")
    drills = [coins_drill(seed, ESCOBA) for seed in (3, 4)]
    assert "<section class='part' id='coins'><h2>2. How many coins?</h2><p>Count the coins in each pile.</p>" \
        in exercises
    en = Translator("en")
    for drill in drills:  # its words escaped, the shared pieces' markup not, and no line break of its template
        # each card with its comma in one piece that a line's end never splits
        cards = " ".join(f'<span class="in-row"><span class="card">{escape(en.card_name(card))} '
                         f'<small>({card.code})</small></span>{"," if number < len(drill.pile) - 1 else ""}</span>'
                         for number, card in enumerate(drill.pile))
        assert (f"<li><p><b>Exercise no. {drill.seed}.</b> Count the &lt;coins&gt; &amp; write:</p><p>{cards}</p>"
                "</li>") in exercises
        assert f"<li><b>Exercise no. {drill.seed}:</b> {drill.answer} coins</li>" in key
    assert "2. How many coins?" in key
    with pytest.raises(EscobaError, match="no worksheet part"):
        worksheet_html(3, "en", kinds=("coins",), rules="scopa")


def test_the_drill_widget_shows_its_view_and_records_its_check_for_the_board(coins, tmp_path, monkeypatch,
                                                                            records_endpoint):
    database = tmp_path / "class.sqlite3"
    server = records_endpoint(database)  # the server makes the database and writes what the kernel sends it
    for name, value in server.kernel_env("Ana").items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(recorder_module, "_recorder", None)  # this "kernel" reads its environment afresh
    drill = Drill(kind="coins", seed=6, lang="en")
    exercise = coins_drill(6, ESCOBA)
    assert isinstance(drill.view, CoinsView)
    assert drill.view.pile_text.value == escape(", ".join(Translator("en").card_name(c) for c in exercise.pile))
    assert "How many coins?" in drill.title.value
    drill.view.box.value = str(len(exercise.pile))  # every card counted: the kind's own mistake
    drill.check()
    assert drill.status.message == f"Not so: {exercise.answer}."
    drill.view.box.value = str(exercise.answer)
    drill.check()
    assert drill.status.message == "Right."
    assert recorder_module.recorder().flush(30)

    with ClassStore.open(database) as store:
        board = store.board()
        classes = store.classes()
    (student,) = board.students
    assert student.nickname == "Ana" and student.drills["coins"] == (2, 1)
    (mistake,) = board.mistakes
    assert (mistake.kind, mistake.code, [e.seed for e in mistake.exercises]) == ("coins", "counted_every_card", [6])
    view = board_view(board, classes, "en", "/")
    assert "Coins" in view["kinds"]
    (shown,) = view["mistakes"]
    assert shown["kind"] == "Coins" and shown["words"] == "Counting every card of the pile, not only the coins"
    assert shown["seeds"][0]["href"] == "/voila/render/en/05-scoring.ipynb?seed=6"  # its lesson, this exercise


def test_a_kind_the_server_does_not_know_is_shown_by_its_codes():
    board_kinds = board_view(_board_with("dominoes", "too_many"), [], "es", "/")
    assert board_kinds["kinds"] == ["dominoes"] and board_kinds["mistakes"][0]["words"] == "too_many"


def _board_with(kind_name: str, code: str):
    from escoba_tutor.records import Board, ClassInfo, Exercise, MistakeRow, StudentRow

    at = datetime(2026, 12, 2, 9, 0, tzinfo=timezone.utc)
    student = StudentRow("Ana", [], {kind_name: (1, 0)}, {}, at)
    return Board(ClassInfo(1, "3B", at), [student], [MistakeRow(kind_name, code, 1, 1, [5], [Exercise(5, None, None)])],
                 {})


@pytest.mark.parametrize(("change", "problem"), [
    ({"name": "captures"}, "already a kind of exercise called 'captures'"),
    ({"mistakes": {"unanswered": "…"}}, "'unanswered' is every kind's code"),
])
def test_a_kind_that_would_mix_up_the_records_is_refused(change, problem):
    with pytest.raises(EscobaError, match=problem):
        registry.register(dataclasses.replace(COINS, **change))
    assert "coins" not in kind_names()


def test_the_course_s_own_kinds_cannot_be_taken_away():
    with pytest.raises(EscobaError, match="one of the course's own kinds"):
        registry.unregister("setenta")
    with pytest.raises(EscobaError, match="a DrillKind"):
        registry.register({"name": "coins"})
    assert "setenta" in kind_names() and parse_cards("7o")  # nothing changed
