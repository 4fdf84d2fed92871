"""The frame every drill shares, its model, and the base of the views of each kind.

A :class:`Drill` is a frame (title, exercise number, "New exercise", "Check", "Show the answer", the feedback
and the status line) around the view of one kind of exercise (:class:`KindView`), which builds the position's
controls, reads the learner's answers into the model, puts the engine's judgement into words and draws the
worked answer. Each kind's view lives in a module of its own in this package, named by the kind's
:class:`escoba_tutor.exercises.DrillKind` (``view``), and is imported when a drill of that kind is first shown.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from html import escape

import ipywidgets as w
from traitlets import Any, Bool, Dict, HasTraits, Int, List, Unicode, link, observe, validate

from ...engine.cards import Card, as_card
from ...engine.errors import EscobaError
from ...engine.rules import ESCOBA, Rules, as_rules
from ...exercises import paper
from ...exercises.registry import kind, kind_names, make_drill
from ...records.kernel import record_drill_check
from ...text import labels
from ...text.translator import DEFAULT_LANGUAGE, N_, Translator, normalize_language
from ..primitives import ActionButton, LiveRegion
from ..safety import guarded
from ..score_sheet import error_dict, join_words, problem_text, side_names, translated
from ..seeds import MAX_WIDGET_SEED

__all__ = ["Drill", "DrillModel", "KindView", "view_class", "the_card", "the_cards", "close_tree", "choice_box",
           "read_number", "fill_row", "two_players_line", "YOU_FORMS", "of_side"]

_VIEWS: dict[str, type[KindView]] = {}

#: The messages about a side that break when the side is the student, each beside its form for the student: a
#: page may name a side "you" (``names`` may hold ``labels.you``), and «Montón de ti», «Gana tú», «para tú» are
#: not Spanish («Tu montón», «Ganas tú», «para ti» are).
YOU_FORMS = {
    N_("{side}'s pile"): N_("Your pile"),
    N_("{side}'s setenta"): N_("Your setenta"),
    N_("{side}'s escobas"): N_("Your escobas"),
    N_("Points for {side} with the house rule"): N_("Your points with the house rule"),
    N_("Escobas de mano for {side} with the house rule"): N_("Your escobas de mano with the house rule"),
    N_("Write how many escobas de mano {side} scores with the house rule."):
        N_("Write how many escobas de mano you score with the house rule."),
    N_("{side} wins"): N_("You win"),
    N_("Who scores them: right, {side}."): N_("Who scores them: right, you."),
    # the deal's plays and who deals, said of the student: «Juegas…», «Repartes tú», never «Tú juega», «Reparte tú»
    N_("{side} plays {card} and takes {taken}."): N_("You play {card} and take {taken}."),
    N_("{side} plays {card} and takes {taken}: {sweep}"): N_("You play {card} and take {taken}: {sweep}"),
    N_("{side} plays {card}: it stays on the table."): N_("You play {card}: it stays on the table."),
    N_("{side} takes the four cards dealt face up."): N_("You take the four cards dealt face up."),
    N_("{side} takes the cards left at the end."): N_("You take the cards left at the end."),
    N_("Right: {side} made the last capture, and so takes them."):
        N_("Right: you made the last capture, and so you take them."),
    N_("{side} made the last capture and takes the cards left."):
        N_("You made the last capture and take the cards left."),
    N_("No: {side} played last, but laid the card down. The cards left go to the last side that captured: "
       "{taker}."):
        N_("No: you played last, but laid the card down. The cards left go to the last side that captured: "
           "{taker}."),
    # a player deals, never a side or a team: these messages name the player ({player}), the side that scores
    # ({side}) apart
    N_("{player} deals."): N_("You deal."),
    N_("{player} deals. The four cards face up on the table:"): N_("You deal. The four cards face up on the table:"),
    N_("Who scores them: the escoba de mano always goes to the dealer's side: {player} dealt, so it goes to "
       "{side}."):
        N_("Who scores them: the escoba de mano always goes to the dealer's side, and you dealt."),
    N_("{totals}: {side} wins."): N_("{totals}: you win."),
}


def of_side(_: Translator, message: str, side: object, /, **params: object) -> str:
    """One of :data:`YOU_FORMS`'s messages about ``side``, in the student's form when the side is "you". A
    message about who deals names a player: ``side`` then fills its ``{player}``."""
    you = isinstance(side, labels.Label) and side.is_you
    placeholder = "player" if message.startswith("{player}") or "{player} dealt" in message else "side"
    return _(YOU_FORMS[message], **params) if you else _(message, **{placeholder: side}, **params)


def view_class(name: str) -> type[KindView]:
    """The view of the kind called ``name``: the class its :class:`escoba_tutor.exercises.DrillKind` names
    (``"module:Class"``), imported the first time it is needed."""
    where = kind(name).view
    if where not in _VIEWS:
        module, _colon, attribute = where.partition(":")
        _VIEWS[where] = getattr(importlib.import_module(module), attribute)
    return _VIEWS[where]


def the_card(_: Translator, card: Card | str) -> str:
    """A card's name with its article, for a sentence: «el rey de bastos», «la sota de espadas» (the sota is the
    one feminine name), "the king of clubs"."""
    card = as_card(card)
    if card.rank == 10:
        return _("the {jack}", jack=_.card_name(card))
    return _("the {card}", card=_.card_name(card))


def the_cards(_: Translator, cards) -> str:
    """Cards with their articles, as one list: «el as de oros y la sota de bastos»."""
    names = [the_card(_, c) for c in cards]
    if len(names) <= 1:
        return "".join(names)
    first, last = ", ".join(names[:-1]), names[-1]
    return _("{first} and {last}", first=first, last=last)


def two_players_line(_: Translator, players: int, given: object) -> str:
    """In a game of two whose sides the page did not name, who is which side ("Player 1 is Side 1…"), as a
    paragraph (escaped): an exercise that names players and asks for sides says it once; "" otherwise."""
    if players != 2 or given:
        return ""
    return f"<p>{escape(paper.two_players(_))}</p>"


def fill_row(row, _: Translator, cards, label: str, deck: str, *, marks: bool = False) -> None:
    """Show ``cards`` in a CardRow, named for the learner: their names, the face cards' words on their faces in
    the learner's language, and (``marks``) a face card's capture value on its corner."""
    row.deck = deck
    row.cards = [c.code for c in cards]
    row.labels = [_.card_name(c) for c in cards]
    row.figure_words = [_.rank_name(rank) for rank in (10, 11, 12)]
    if marks:
        row.marks = {c.code: str(c.value) for c in cards if c.is_figure}
    row.group_label = label


def close_tree(widget: w.Widget) -> None:
    """Close a widget and everything in it (a long session of new exercises must not pile up widgets)."""
    for child in getattr(widget, "children", ()):
        close_tree(child)
    widget.close()


def choice_box(on_change) -> w.Dropdown:
    """A native select for one question: its value is read out by screen readers (ToggleButtons show the choice
    only by their look). The first option, "", means not answered yet."""
    choice = w.Dropdown(options=[("…", "")], value="", style={"description_width": "initial"},
                        layout=w.Layout(width="auto", max_width="36em"))
    choice.observe(on_change, "value")
    return choice


def set_options(choice: w.Dropdown, options: list[tuple[str, str]], wanted: str) -> None:
    if list(choice.options) != options:
        choice.options = options
    choice.value = wanted if wanted in [value for _label, value in options] else ""


def read_number(text: object, most: int = 9999) -> int | None | str:
    """A typed whole number: the number, None when blank, ``"bad"`` when it is not one (or is above ``most``).

    >>> read_number(" 25 "), read_number(""), read_number("2.5"), read_number("١٢")
    (25, None, 'bad', 'bad')
    """
    if not isinstance(text, str):
        return "bad"
    text = text.strip()
    if not text:
        return None
    if text.isascii() and text.isdigit() and len(text) <= 4 and int(text) <= most:
        return int(text)
    return "bad"


class DrillModel(HasTraits):
    """The exercise and the learner's answers, as data.

    ``kind``, ``seed`` and ``rules`` choose the exercise (``drill``, from the engine), with the kind's own
    ``options`` (keywords of its generator, such as the house rules drill's ``only``; none by default). An input
    that names no exercise sets ``error`` and keeps the last one. The answers: ``built`` (captures: the table
    cards of each capture the learner listed), ``answers`` (text typed, one per box: a setenta per side, a number...),
    ``choices`` (question -> the option chosen, e.g. ``"0"``, ``"1"`` a side, ``"none"``; a question left out is
    not answered yet). ``result`` is the last check (cleared when an answer changes); ``show_answer`` shows the
    worked answer.
    """

    kind = Unicode("captures")
    seed = Any(0)
    rules = Any(ESCOBA)
    options = Dict()
    drill = Any(None)
    built: List = List()
    answers: List = List()
    choices: Dict = Dict()
    result = Any(None)
    show_answer = Bool(False)
    error = Dict()
    revision = Int(0)
    #: False: a check is not recorded as a drill answer here (the class exercise sends its one answer itself)
    recorded = Bool(True)

    def __init__(self, **kwargs) -> None:
        self._starting = False
        super().__init__(**kwargs)
        self._update()

    @observe("kind", "seed", "rules", "options")
    def _changed(self, change) -> None:
        if not self._starting:
            self._update()

    def start(self, kind: str, seed: object, rules: object) -> None:
        """Show this exercise with its answers afresh, even when it is the one shown already: the three settings
        change together and the exercise is made once (the class exercise's next exercise, on the same drill)."""
        self._starting = True
        try:
            self.kind, self.rules, self.seed = kind, rules, seed
        finally:
            self._starting = False
        self._update()

    @observe("built", "answers", "choices")
    def _answered(self, change) -> None:
        self.result = None  # a check is about the answers it saw
        self.revision += 1

    @observe("result", "show_answer")
    def _shown(self, change) -> None:
        self.revision += 1

    def _update(self) -> None:
        try:
            if type(self.seed) is int and self.seed > MAX_WIDGET_SEED:  # the page could not show it (seeds.py)
                raise EscobaError(f"a drill seed is at most {MAX_WIDGET_SEED} in a widget, not {self.seed}",
                                  code="bad_seed", value=str(self.seed)[:24])
            drill = make_drill(self.kind, self.seed, as_rules(self.rules), **self.options)
        except EscobaError as error:
            self.error = error_dict(error)
            self.revision += 1
            return
        with self.hold_trait_notifications():
            self.error = {}
            self.drill = drill
            self.built, self.choices, self.result, self.show_answer = [], {}, None, False
            self.answers = [""] * view_class(drill.kind).boxes(drill)
        self.revision += 1

    def new_position(self) -> None:
        """The next exercise: seed + 1 (kept if the seed is not valid now)."""
        seed = self.drill.seed if self.drill is not None else 0
        self.seed = seed + 1 if seed < MAX_WIDGET_SEED else 0

    def add_capture(self, taken) -> str:
        """Add a capture the learner built (table cards) to ``built``. Returns ``added``, ``empty``,
        ``repeated`` or ``bad`` (not cards)."""
        try:
            cards = sorted((as_card(c) for c in taken), key=lambda c: c.index)
        except (EscobaError, TypeError):
            return "bad"
        if not cards:
            return "empty"
        codes = [c.code for c in cards]
        if codes in self.built:
            return "repeated"
        self.built = [*self.built, codes]
        return "added"

    def check(self):
        """Judge the answers now (each kind's view knows how to read them); the result is also kept in
        ``result``."""
        if self.drill is None:
            return None
        self.result = view_class(self.drill.kind).judge(self.drill, self)
        if not self.recorded:
            return self.result
        record_drill_check(self.drill.kind, self.drill.seed, self.result,  # the class board (never raises)
                           kind(self.drill.kind).outcome, rules=getattr(self.drill.rules, "name", None))
        return self.result


class KindView:
    """The part of a :class:`Drill` that shows one kind of exercise. A subclass sets ``kind``, ``title`` and
    ``task`` (message ids) and fills in the methods; ``controls`` are the widgets of the position."""

    kind = ""
    title = ""
    task = ""

    def __init__(self, frame: Drill, drill) -> None:
        self.frame = frame
        self.controls: list[w.Widget] = self.build(drill)

    # What the status line says when a view's own callback fails (see safety.guarded).
    @property
    def _status(self) -> LiveRegion:
        return self.frame.status

    @property
    def lang(self) -> str:
        return self.frame.lang

    @property
    def model(self) -> DrillModel:
        return self.frame.model

    @staticmethod
    def boxes(drill) -> int:
        """How many text answers the exercise has (``model.answers`` starts with that many blanks)."""
        return 0

    @staticmethod
    def layout_of(drill) -> tuple:
        """What the controls depend on: a new exercise of the same layout reuses them."""
        return (drill.kind,)

    @staticmethod
    def judge(drill, model: DrillModel):
        """The engine's judgement of the model's answers."""
        raise NotImplementedError

    def build(self, drill) -> list[w.Widget]:
        raise NotImplementedError

    def draw(self, _: Translator, drill, names: Sequence[str]) -> None:
        """Show the position and the model's answers in the controls."""

    def feedback(self, _: Translator, drill, names: Sequence[str], result) -> list[str]:
        """The check in words: a summary line, then one line per item."""
        return []

    def answer(self, _: Translator, drill, names: Sequence[str], current: w.Widget | None) -> w.Widget:
        """The worked answer (``current``: the widget made for it before, to reuse)."""
        raise NotImplementedError

    def note_text(self, _: Translator, note: str) -> str:
        """What an action that is not a check says (e.g. "capture added")."""
        return ""

    def sides(self, drill) -> int:
        return len(getattr(drill, "piles", ())) or 2

    # helpers for the views' callbacks
    @guarded
    def typed(self, box: int, change) -> None:
        """A text answer typed into box ``box``."""
        if self.frame.syncing:
            return
        answers = list(self.model.answers)
        answers[box] = change["new"]
        self.frame.note = ""
        self.model.answers = answers

    @guarded
    def chose(self, question: str, change) -> None:
        """An option chosen for ``question`` ("" takes the answer back)."""
        if self.frame.syncing:
            return
        choices = dict(self.model.choices)
        if not change["new"]:
            choices.pop(question, None)
        else:
            choices[question] = change["new"]
        self.frame.note = ""
        self.model.choices = choices

    def close(self) -> None:
        for widget in self.controls:
            close_tree(widget)


class Drill(w.VBox):
    """A seeded exercise of one of the kinds of :mod:`escoba_tutor.exercises.registry`.

    ``Drill(kind="captures", seed=0, lang="es", rules="escoba")``; ``names`` names the sides; ``deck`` is
    ``spanish`` or ``french``; ``options`` are the kind's own keywords (:class:`DrillModel`).
    A lesson may set ``kind``, ``seed``, ``rules``, ``names``, ``lang`` and ``deck``.
    The exercise number is shown, and can be typed, so a teacher can give the whole class the same exercise.
    The controls: ``title``, ``seed_box``, ``new_button``, ``task``, ``view`` (the kind's controls, see
    :class:`KindView`), ``check_button``, ``answer_button``, ``feedback``, ``answer_box`` and ``status``.
    """

    kind = Unicode("captures")
    seed = Any(0)
    rules = Any(ESCOBA)
    names = Any(None)
    lang = Unicode(DEFAULT_LANGUAGE)
    deck = Unicode("spanish")

    _LINKED = ("kind", "seed", "rules")

    def __init__(self, kind: str = "captures", seed: int = 0, lang: str = DEFAULT_LANGUAGE,
                 rules: Rules | str = ESCOBA, *, names=None, deck: str = "spanish", model: DrillModel | None = None,
                 options: dict | None = None, **kwargs) -> None:
        self.model = model or DrillModel(kind=kind, seed=seed, rules=rules, options=options or {})
        super().__init__(**kwargs)
        self.add_class("escoba-drill")
        self.title = w.HTML()
        self.seed_box = w.BoundedIntText(min=0, max=MAX_WIDGET_SEED, layout=w.Layout(width="auto"),
                                         style={"description_width": "initial"})
        self.new_button = w.Button(icon="random")
        self.task = w.HTML()
        self.position = w.VBox()
        # A check judges the answers the page shows, even those whose updates are still on their way.
        self.check_button = ActionButton(icon="check", inputs=[self.position])
        # A button that says what it will do (a ToggleButton shows its state only by its look).
        self.answer_button = w.Button(icon="eye")
        self.feedback = w.HTML()
        self.answer_box = w.VBox()
        self.status = LiveRegion()
        self._status = self.status  # where safety.guarded reports a failed callback
        self.children = [self.title, w.HBox([self.seed_box, self.new_button], layout=w.Layout(flex_flow="row wrap")),
                         self.task, self.position,
                         w.HBox([self.check_button, self.answer_button], layout=w.Layout(flex_flow="row wrap")),
                         self.feedback, self.answer_box, self.status]
        self.view: KindView | None = None
        self.note = ""  # what the last action says, when it is not a check (e.g. "capture added")
        self._built_for: tuple | None = None  # the layout the view was built for
        self._answer_widgets: dict = {}  # kind -> the widget that shows the worked answer, made when first asked
        self.syncing = False  # True while the frame writes the controls: their observers then do nothing
        for name in self._LINKED:  # the model's values first: a link copies left to right
            self.set_trait(name, getattr(self.model, name))
        self._links = [link((self.model, name), (self, name)) for name in self._LINKED]
        self.names, self.lang, self.deck = names, lang, deck
        self.seed_box.observe(self._typed_seed, "value")
        self.new_button.on_click(lambda _b: self.new_position())
        self.check_button.on_click(lambda _b: self.check())
        self.answer_button.on_click(lambda _b: self.toggle_answer())
        self.model.observe(self._redraw, "revision")
        self._redraw()

    # ------------------------------------------------------------------------------------------- actions
    @guarded
    def new_position(self) -> None:
        self.note = ""
        self.model.new_position()

    @guarded
    def check(self) -> None:
        self.note = ""
        self.model.check()

    @guarded
    def toggle_answer(self) -> None:
        """Show the worked answer, or hide it again."""
        self.model.show_answer = not self.model.show_answer

    @validate("lang")
    def _valid_lang(self, proposal):
        return normalize_language(proposal["value"])

    @validate("deck")
    def _valid_deck(self, proposal):
        if proposal["value"] not in ("spanish", "french"):
            raise EscobaError("deck must be 'spanish' or 'french'", code="bad_deck")
        return proposal["value"]

    @observe("lang", "names", "deck")
    def _look_changed(self, change) -> None:
        if hasattr(self, "status"):
            self._redraw()

    @guarded
    def _typed_seed(self, change) -> None:
        if not self.syncing and change["new"] != self.model.seed:
            self.note = ""
            self.seed = change["new"]

    # -------------------------------------------------------------------------------------------- drawing
    def _build(self, drill) -> KindView:
        """The kind's view for this exercise; the controls of the one before are closed."""
        if self.view is not None:
            self.view.close()
        view = self.view = view_class(drill.kind)(self, drill)
        self._built_for = view_class(drill.kind).layout_of(drill)
        self.position.children = view.controls
        return view

    @guarded
    def _redraw(self, change=None) -> None:
        m = self.model
        _ = Translator(self.lang)
        self.seed_box.description = _("Exercise")
        self.new_button.description = _("New exercise")
        self.check_button.description = _("Check")
        self.answer_button.description = _("Hide the answer") if m.show_answer else _("Show the answer")
        if m.drill is None:  # the very first input named no exercise: only the problem can be shown
            self.status.message = _("Check the exercise: {problem}", problem=self._problem(_, m.error))
            return
        drill = m.drill
        shown = view_class(drill.kind)
        view = self.view
        if view is None or shown.layout_of(drill) != self._built_for:
            view = self._build(drill)
        names = side_names(_, self.names, view.sides(drill))
        self.syncing = True
        try:
            # Text first, then markup: a _() call inside an f-string is not seen by the catalog extractor.
            title, number = translated(_, shown.title), _("no. {seed}", seed=drill.seed)
            task = translated(_, shown.task)
            share = _("Exercise no. {seed}: with this number, the whole class gets the same exercise.", seed=drill.seed)
            self.title.value = f"<h3 class='escoba-title'>{escape(title)} · {escape(number)}</h3>"
            self.seed_box.value = drill.seed
            self.task.value = f"<p>{escape(task)}<br><small>{escape(share)}</small></p>"
            view.draw(_, drill, names)
            lines = view.feedback(_, drill, names, m.result) if m.result is not None else []
        finally:
            self.syncing = False
        self.feedback.value = ("<ul>" + "".join(f"<li>{escape(line)}</li>" for line in lines[1:]) + "</ul>"
                               if len(lines) > 1 else "")
        if m.show_answer:
            current = view.answer(_, drill, names, self._answer_widgets.get(drill.kind))
            self._answer_widgets[drill.kind] = current
            self.answer_box.children = [current]
        else:
            self.answer_box.children = []
        self.status.message = self._message(_, lines)

    def _problem(self, _: Translator, error: dict) -> str:
        """What is wrong with the settings: the problems only a drill has in its own words, others as the score
        sheet says them."""
        code = error.get("code")
        if code == "bad_kind":
            kinds = join_words(_, [translated(_, kind(k).label) for k in kind_names()])
            return _("the kinds of exercise are: {kinds}", kinds=kinds)
        if code == "bad_seed":
            return _("an exercise number is a whole number, 0 or more")
        if code == "no_escoba_de_mano":
            return _("these rules have no escoba de mano, so there is no exercise on it")
        return problem_text(_, error)

    def _message(self, _: Translator, lines: list[str]) -> str:
        if self.model.error:
            return _("Check the exercise: {problem}", problem=self._problem(_, self.model.error))
        if lines:
            return "\n".join(lines)
        return self.view.note_text(_, self.note) if self.note and self.view is not None else ""

