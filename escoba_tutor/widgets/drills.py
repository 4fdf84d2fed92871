"""Drill: a seeded exercise with instant feedback that names the mistake.

Three kinds, from :mod:`escoba_tutor.drills` (so a printed worksheet with the same number is the same exercise):

- ``captures``: a card to play and a table; the learner builds every capture they see, one at a time, then
  checks: which are right, which are missing, which are wrong and why (the engine's ``check_capture``);
- ``setenta``: a pile per side; the learner types each side's setenta, or "invalid";
- ``points``: the piles and escobas of a real deal; the learner says who gets each point.

>>> drill = Drill("setenta", seed=3, lang="en")
>>> [str(a) for a in drill.model.drill.answers]
['invalid (no bastos)', '64']
>>> drill.model.answers = ["53", "64"]
>>> drill.check()
>>> drill._status.message.split("\\n")[1]
'Side 1: there is no card of clubs, so the setenta is invalid.'
"""

from __future__ import annotations

import re
from html import escape

import ipywidgets as w
from traitlets import Any, Bool, Dict, HasTraits, Int, List, Unicode, link, observe, validate

from ..cards import as_card
from ..drills import MAX_SEED, CaptureDrill, PointsDrill, SetentaDrill, make_drill
from ..errors import EscobaError
from ..rules import ESCOBA, Rules, as_rules
from .capture_table import describe_sum, sentence_start
from .i18n import DEFAULT_LANGUAGE, N_, Translator, normalize_language
from .primitives import CardRow, LiveRegion, RowPicker
from .safety import guarded
from .score_sheet import (
    ScoreSheet,
    error_dict,
    item_name,
    join_words,
    problem_text,
    reason_text,
    side_names,
    translated,
)
from .setenta_explainer import SetentaExplainer

__all__ = ["Drill", "DrillModel", "read_setenta_answer", "INVALID_WORDS"]

#: What a learner may type for an invalid setenta, in either language.
INVALID_WORDS = frozenset({"invalid", "inválida", "invalida", "inválido", "invalido", "no vale", "coja", "cojo",
                           "nula", "nulo", "x", "-", "—", "–"})
_NUMBER = re.compile(r"\d{1,4}")
# Items whose tie the "both score" variant gives to every tied side (RULES.md §7).
_TIE_ITEMS = ("cards", "oros", "sevens")

_TITLES = {"captures": N_("Find every capture"), "setenta": N_("Work out the setenta"),
           "points": N_("Who gets each point?")}
_TASKS = {"captures": N_("Select the table cards of one capture and press “Add this capture”; repeat for every "
                         "capture you see (none, if the card takes nothing), then press “Check”."),
          "setenta": N_("Write each side's setenta: a number, or “invalid” when a suit is missing. Then press "
                        "“Check”."),
          "points": N_("For each point, choose the side that gets it, or nobody. Then press “Check”.")}


def read_setenta_answer(text: object) -> tuple[str, int | None]:
    """A typed setenta answer: ``("number", 70)``, ``("invalid", None)``, ``("blank", None)`` or ``("bad", None)``.

    >>> read_setenta_answer(" 70 "), read_setenta_answer("Inválida"), read_setenta_answer("setenta")
    (('number', 70), ('invalid', None), ('bad', None))
    """
    if not isinstance(text, str):
        return ("bad", None)
    text = " ".join(text.strip().lower().split())
    if not text:
        return ("blank", None)
    if text in INVALID_WORDS:
        return ("invalid", None)
    if _NUMBER.fullmatch(text):
        return ("number", int(text))
    return ("bad", None)


class DrillModel(HasTraits):
    """The exercise and the learner's answers, as data.

    ``kind``, ``seed`` and ``rules`` choose the exercise (``drill``, from the engine). An input that names no
    exercise sets ``error`` and keeps the last one. The answers: ``built`` (captures: the table cards of each
    capture the learner listed), ``answers`` (setenta: the text typed per side), ``choices`` (points: item ->
    ``"0"``, ``"1"``... a side, ``"none"`` or ``"both"``; an item left out is not answered yet). ``result`` is
    the last check (cleared when an answer changes); ``show_answer`` shows the worked answer.
    """

    kind = Unicode("captures")
    seed = Any(0)
    rules = Any(ESCOBA)
    drill = Any(None)
    built = List()
    answers = List()
    choices = Dict()
    result = Any(None)
    show_answer = Bool(False)
    error = Dict()
    revision = Int(0)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._update()

    @observe("kind", "seed", "rules")
    def _changed(self, change) -> None:
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
            drill = make_drill(self.kind, self.seed, as_rules(self.rules))
        except EscobaError as error:
            self.error = error_dict(error)
            self.revision += 1
            return
        with self.hold_trait_notifications():
            self.error = {}
            self.drill = drill
            self.built, self.choices, self.result, self.show_answer = [], {}, None, False
            self.answers = [""] * len(drill.piles) if isinstance(drill, SetentaDrill) else []
        self.revision += 1

    # --------------------------------------------------------------------------------------------- actions
    def new_position(self) -> None:
        """The next exercise: seed + 1 (kept if the seed is not valid now)."""
        seed = self.drill.seed if self.drill is not None else 0
        self.seed = seed + 1 if seed < MAX_SEED else 0

    def add_capture(self, taken) -> str:
        """Add a capture the learner built (table cards). Returns ``added``, ``empty``, ``repeated`` or
        ``bad`` (not cards)."""
        try:
            codes = sorted((as_card(c) for c in taken), key=lambda c: c.index)
        except (EscobaError, TypeError):
            return "bad"
        if not codes:
            return "empty"
        codes = [c.code for c in codes]
        if codes in self.built:
            return "repeated"
        self.built = [*self.built, codes]
        return "added"

    def remove_capture(self, codes) -> None:
        self.built = [b for b in self.built if b != list(codes)]

    def check(self):
        """Judge the answers now; the result is also kept in ``result``."""
        drill = self.drill
        if drill is None:
            return None
        if isinstance(drill, CaptureDrill):
            result = drill.check(self.built)
        elif isinstance(drill, SetentaDrill):
            result = []
            for side in range(len(drill.piles)):
                text = self.answers[side] if side < len(self.answers) else ""
                state, number = read_setenta_answer(text)
                check = drill.check(side, number) if state in ("number", "invalid") else None
                result.append({"state": state, "text": text if isinstance(text, str) else "", "check": check})
        else:
            result = drill.check({item: _sides_of(key) for item, key in self.choices.items()
                                  if _sides_of(key) is not None})
        self.result = result
        return result


def _sides_of(key: object) -> tuple[int, ...] | None:
    """A choice key as the sides it gives the point to: ``"0"`` -> (0,), ``"none"`` -> (), ``"both"`` -> (0, 1)."""
    if key == "none":
        return ()
    if key == "both":
        return (0, 1)
    if isinstance(key, str) and key.isdigit():
        return (int(key),)
    return None


class Drill(w.VBox):
    """A seeded exercise: captures, setenta or points.

    ``Drill(kind="captures", seed=0, lang="es", rules="escoba")``; ``names`` names the sides; ``deck`` is
    ``spanish`` or ``french``. A lesson may set ``kind``, ``seed``, ``rules``, ``names``, ``lang`` and ``deck``.
    The seed is shown, and can be typed, so a teacher can give the whole class the same exercise.
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
                 **kwargs) -> None:
        self.model = model or DrillModel(kind=kind, seed=seed, rules=rules)
        super().__init__(**kwargs)
        self.add_class("escoba-drill")
        self._title = w.HTML()
        self._seed_box = w.BoundedIntText(min=0, max=MAX_SEED, layout=w.Layout(width="auto"),
                                          style={"description_width": "initial"})
        self._new = w.Button(icon="random")
        self._task = w.HTML()
        self._position = w.VBox()
        self._check = w.Button(icon="check", button_style="")
        # A button that says what it will do (a ToggleButton shows its state only by its look).
        self._answer_button = w.Button(icon="eye")
        self._feedback = w.HTML()
        self._answer = w.VBox()
        self._status = LiveRegion()
        self.children = [self._title, w.HBox([self._seed_box, self._new], layout=w.Layout(flex_flow="row wrap")),
                         self._task, self._position,
                         w.HBox([self._check, self._answer_button], layout=w.Layout(flex_flow="row wrap")),
                         self._feedback, self._answer, self._status]
        self._note = ""  # what the last action says, when it is not a check (e.g. "capture added")
        self._built_for = None  # the layout the position's controls were built for (see _layout_of)
        self._answer_widgets: dict = {}  # kind -> the widget that shows the worked answer, made when first asked
        self._syncing = False  # True while the view writes its own controls: their observers then do nothing
        for name in self._LINKED:  # the model's values first: a link copies left to right
            self.set_trait(name, getattr(self.model, name))
        self._links = [link((self.model, name), (self, name)) for name in self._LINKED]
        self.names, self.lang, self.deck = names, lang, deck
        self._seed_box.observe(self._typed_seed, "value")
        self._new.on_click(lambda _b: self.new_position())
        self._check.on_click(lambda _b: self.check())
        self._answer_button.on_click(lambda _b: self.toggle_answer())
        self.model.observe(self._redraw, "revision")
        self._redraw()

    # ------------------------------------------------------------------------------------------- actions
    @guarded
    def new_position(self) -> None:
        self._note = ""
        self.model.new_position()

    @guarded
    def check(self) -> None:
        self._note = ""
        self.model.check()

    @guarded
    def add_capture(self) -> None:
        """Add the table cards selected now as one capture (captures drills only)."""
        if not isinstance(self.model.drill, CaptureDrill):
            return
        outcome = self.model.add_capture(list(self._table_row.selected))
        self._note = outcome
        if outcome == "added":
            self._table_row.selected = []
        self._redraw()

    @guarded
    def remove_capture(self) -> None:
        """Remove the capture chosen in the learner's list."""
        if not isinstance(self.model.drill, CaptureDrill):
            return
        chosen = self._built_picker.selected
        self._note = ""
        if chosen and not chosen.startswith("missing:"):
            self.model.remove_capture(chosen.split("+"))

    @guarded
    def clear_captures(self) -> None:
        self._note = ""
        self.model.built = []

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
        if hasattr(self, "_status"):
            self._redraw()

    @guarded
    def _typed_seed(self, change) -> None:
        if not self._syncing and change["new"] != self.model.seed:
            self._note = ""
            self.seed = change["new"]

    @guarded
    def toggle_answer(self) -> None:
        """Show the worked answer, or hide it again."""
        self.model.show_answer = not self.model.show_answer

    @guarded
    def _typed_answer(self, side: int, change) -> None:
        if self._syncing:
            return
        answers = list(self.model.answers)
        answers[side] = change["new"]
        self._note = ""
        self.model.answers = answers

    @guarded
    def _chose(self, item: str, change) -> None:
        if self._syncing:
            return
        choices = dict(self.model.choices)
        if not change["new"]:
            choices.pop(item, None)
        else:
            choices[item] = change["new"]
        self._note = ""
        self.model.choices = choices

    # ------------------------------------------------------------------------------------------- building
    def _layout_of(self, drill) -> tuple:
        """What the position's controls depend on: a new exercise of the same layout reuses them."""
        sides = len(drill.piles) if not isinstance(drill, CaptureDrill) else 0
        return (drill.kind, sides, drill.items if isinstance(drill, PointsDrill) else ())

    def _build(self) -> None:
        """The controls of the position (the kinds need different ones). Controls that are dropped are closed, so
        a long session of new positions does not pile up widgets in the kernel."""
        drill = self.model.drill
        self._built_for = self._layout_of(drill)
        for child in self._position.children:
            _close_tree(child)
        if isinstance(drill, CaptureDrill):
            self._hand_label, self._table_label = w.HTML(), w.HTML()
            self._hand_row = CardRow(mode="none")
            self._table_row = CardRow(mode="multi")
            self._add = w.Button(icon="plus")
            self._remove = w.Button(icon="minus")
            self._clear = w.Button(icon="eraser")
            self._built_picker = RowPicker()
            self._add.on_click(lambda _b: self.add_capture())
            self._remove.on_click(lambda _b: self.remove_capture())
            self._clear.on_click(lambda _b: self.clear_captures())
            self._position.children = [self._hand_label, self._hand_row, self._table_label, self._table_row,
                                       w.HBox([self._add, self._remove, self._clear],
                                              layout=w.Layout(flex_flow="row wrap")), self._built_picker]
        elif isinstance(drill, SetentaDrill):
            self._pile_parts = []
            boxes = []
            for side in range(len(drill.piles)):
                heading, row = w.HTML(), CardRow(mode="none")
                text = w.Text(continuous_update=False, layout=w.Layout(width="auto", flex="1 1 18em"),
                              style={"description_width": "initial"})
                text.observe(lambda change, side=side: self._typed_answer(side, change), "value")
                self._pile_parts.append((heading, row, text))
                boxes.append(w.VBox([heading, row, text]))
            self._position.children = boxes
        elif isinstance(drill, PointsDrill):
            self._pile_parts = []
            boxes = []
            for _side in range(len(drill.piles)):
                heading, row = w.HTML(), CardRow(mode="none", size="small")
                self._pile_parts.append((heading, row, None))
                boxes.append(w.VBox([heading, row]))
            # A native select per item: its value is read out by screen readers (ToggleButtons show the choice
            # only by their look). The first option, "", means not answered yet.
            self._item_choices = {}
            for item in drill.items:
                choice = w.Dropdown(options=[("…", "")], value="", style={"description_width": "initial"},
                                    layout=w.Layout(width="auto"))
                choice.observe(lambda change, item=item: self._chose(item, change), "value")
                self._item_choices[item] = choice
            self._position.children = [*boxes, *self._item_choices.values()]

    # -------------------------------------------------------------------------------------------- drawing
    @guarded
    def _redraw(self, change=None) -> None:
        m = self.model
        _ = Translator(self.lang)
        self._seed_box.description = _("Position number")
        self._new.description = _("New position")
        self._check.description = _("Check")
        self._answer_button.description = _("Hide the answer") if m.show_answer else _("Show the answer")
        if m.drill is None:  # the very first input named no exercise: only the problem can be shown
            self._status.message = _("Check the exercise: {problem}", problem=problem_text(_, m.error))
            return
        if self._layout_of(m.drill) != self._built_for:
            self._build()
        drill = m.drill
        names = side_names(_, self.names, 2 if isinstance(drill, CaptureDrill) else len(drill.piles))
        self._syncing = True
        try:
            # Text first, then markup: a _() call inside an f-string is not seen by the catalog extractor.
            title, number = translated(_, _TITLES[drill.kind]), _("no. {seed}", seed=drill.seed)
            task = translated(_, _TASKS[drill.kind])
            share = _("Give the class this number to share the exercise: {seed}.", seed=drill.seed)
            self._title.value = f"<h3 class='escoba-title'>{escape(title)} · {escape(number)}</h3>"
            self._seed_box.value = drill.seed
            self._task.value = f"<p>{escape(task)}<br><small>{escape(share)}</small></p>"
            if isinstance(drill, CaptureDrill):
                self._draw_captures(_, drill)
            elif isinstance(drill, SetentaDrill):
                self._draw_setenta(_, drill, names)
            else:
                self._draw_points(_, drill, names)
            lines = self._feedback_lines(_, drill, names)
        finally:
            self._syncing = False
        self._feedback.value = ("<ul>" + "".join(f"<li>{escape(line)}</li>" for line in lines[1:]) + "</ul>"
                                if len(lines) > 1 else "")
        self._draw_answer(_, drill, names)
        self._status.message = self._message(_, drill, lines)

    def _draw_captures(self, _: Translator, drill: CaptureDrill) -> None:
        m = self.model
        you_play, table = _("You play"), _("Table")
        self._hand_label.value = f"<b>{escape(you_play)}</b>"
        self._table_label.value = f"<b>{escape(table)}</b>"
        for row, cards, label in ((self._hand_row, (drill.card,), you_play), (self._table_row, drill.table, table)):
            row.deck = self.deck
            row.cards = [c.code for c in cards]
            row.labels = [_.card_name(c) for c in cards]
            row.marks = {c.code: str(c.value) for c in cards if c.is_figure}
            row.group_label = label
        self._hand_row.highlighted = [drill.card.code]
        self._add.description = _("Add this capture")
        self._remove.description = _("Remove the chosen capture")
        self._clear.description = _("Clear my captures")
        picker = self._built_picker
        picker.deck = self.deck
        picker.caption = _("Your captures")
        picker.empty_text = _("No capture yet: if the card takes nothing, just press “Check”.")
        result = m.result
        verdicts = {}
        if result is not None:
            for taken in result.right:
                verdicts[_key(taken)] = (_("right"), "good")
            for check in result.wrong:
                verdicts[_key(check.taken)] = (_("wrong: {why}", why=self._why_wrong(_, drill, check)), "warn")
        rows = []
        for codes in m.built:
            key = "+".join(codes)
            verdict, tone = verdicts.get(key, ("", ""))
            taken = ", ".join(_.card_name(c) for c in codes)
            label = _("{card} takes {taken}", card=_.card_name(drill.card), taken=taken)
            rows.append({"id": key, "cells": [drill.card.code, " ".join(codes), verdict],
                         "cards": [drill.card.code, *codes], "label": f"{label}. {verdict}".rstrip(". "),
                         "tone": tone})
        if result is not None:
            for taken in result.missing:
                codes = [c.code for c in sorted(taken)]
                verdict = _("missing: you did not list it")
                taken_names = ", ".join(_.card_name(c) for c in codes)
                label = _("{card} takes {taken}", card=_.card_name(drill.card), taken=taken_names)
                rows.append({"id": "missing:" + "+".join(codes), "cells": [drill.card.code, " ".join(codes), verdict],
                             "cards": [drill.card.code, *codes], "label": f"{label}. {verdict}", "tone": "info"})
        picker.headers = [_("Card played"), _("Takes"), _("Verdict")]
        picker.rows = rows

    def _draw_setenta(self, _: Translator, drill: SetentaDrill, names: list[str]) -> None:
        for side, (heading, row, text) in enumerate(self._pile_parts):
            pile = drill.piles[side]
            heading.value = f"<h4>{escape(names[side])}</h4>"
            row.deck = self.deck
            row.cards = [c.code for c in pile]
            row.labels = [_.card_name(c) for c in pile]
            row.group_label = _("{side}'s pile", side=names[side])
            text.description = _("Setenta of {side}", side=names[side])
            text.placeholder = _("a number, or “invalid”")
            wanted = self.model.answers[side] if side < len(self.model.answers) else ""
            if text.value != wanted:
                text.value = wanted if isinstance(wanted, str) else ""

    def _draw_points(self, _: Translator, drill: PointsDrill, names: list[str]) -> None:
        for side, (heading, row, _none) in enumerate(self._pile_parts):
            pile = drill.piles[side]
            escobas = _.plural("{n} escoba", "{n} escobas", drill.escobas[side])
            pile_size = _.plural("{n} card", "{n} cards", len(pile))
            heading.value = f"<h4>{escape(names[side])} · {escape(pile_size)} · {escape(escobas)}</h4>"
            row.deck = self.deck
            row.cards = [c.code for c in pile]
            row.labels = [_.card_name(c) for c in pile]
            row.group_label = _("{side}'s pile", side=names[side])
        for item, choice in self._item_choices.items():
            options = [(_("choose…"), "")] + [(names[side], str(side)) for side in range(len(drill.piles))]
            options.append((_("Nobody"), "none"))
            if drill.rules.ties == "both_score" and item in _TIE_ITEMS:
                options.append((_("Both"), "both"))
            if list(choice.options) != options:
                choice.options = options
            wanted = self.model.choices.get(item, "")
            choice.value = wanted if wanted in [v for _label, v in options] else ""
            choice.description = item_name(_, item)

    def _draw_answer(self, _: Translator, drill, names: list[str]) -> None:
        """The worked answer, drawn by the widget that explains it best; each is made once and reused."""
        if not self.model.show_answer:
            self._answer.children = []
            return
        current = self._answer_widgets.get(drill.kind)
        if isinstance(drill, CaptureDrill):
            current = current or RowPicker(disabled=True)
            current.deck = self.deck
            current.caption = _("Every legal capture")
            current.headers = [_("Card played"), _("Takes"), _("Sum")]
            current.empty_text = _("{card} takes nothing here: it stays on the table.", card=_.card_name(drill.card))
            rows = []
            for taken in drill.answer:
                codes = [c.code for c in sorted(taken)]
                total = describe_sum(_, drill.card, tuple(sorted(taken)), drill.rules)
                rows.append({"id": "+".join(codes), "cells": [drill.card.code, " ".join(codes), total],
                             "cards": [drill.card.code, *codes]})
            current.rows = rows
        elif isinstance(drill, SetentaDrill):
            current = current or SetentaExplainer(piles=[list(p) for p in drill.piles], rules=drill.rules,
                                                  editable=False)
            if current.model.pile_cards != drill.piles or current.model.rules_used != drill.rules:
                current.model.rules = drill.rules
                current.piles = [list(p) for p in drill.piles]
            current.names, current.lang, current.deck = names, self.lang, self.deck
            current.show_all()
        else:
            current = current or ScoreSheet(score=drill.answer)
            current.score = drill.answer
            current.names, current.lang = names, self.lang
        self._answer_widgets[drill.kind] = current
        self._answer.children = [current]

    # ---------------------------------------------------------------------------------------------- words
    def _why_wrong(self, _: Translator, drill: CaptureDrill, check) -> str:
        taken = tuple(sorted(check.taken))
        if check.reason == "not_on_table":
            return _("those cards are not all on the table")
        if check.reason == "equal_card_first":
            return _("with an equal card on the table, it must be taken alone")
        total = describe_sum(_, drill.card, taken, drill.rules)
        if check.reason == "figure_face_value":
            return _("{sum}, not {goal}: careful, the sota is worth 8, the caballo 9 and the rey 10",
                     sum=total, goal=check.goal)
        return _("{sum}, not {goal}", sum=total, goal=check.goal)

    def _feedback_lines(self, _: Translator, drill, names: list[str]) -> list[str]:
        """The check in words: a summary line, then one line per item."""
        result = self.model.result
        if result is None:
            return []
        if isinstance(drill, CaptureDrill):
            return self._capture_feedback(_, drill, result)
        if isinstance(drill, SetentaDrill):
            lines = [self._setenta_feedback(_, names[side], entry) for side, entry in enumerate(result)]
            right = sum(1 for entry in result if entry["check"] is not None and entry["check"].ok)
            return [_("{right} of {total} right.", right=right, total=len(result)), *lines]
        lines = [self._points_feedback(_, names, check) for check in result]
        right = sum(1 for check in result if check.ok)
        return [_("{right} of {total} right.", right=right, total=len(result)), *lines]

    def _capture_feedback(self, _: Translator, drill: CaptureDrill, result) -> list[str]:
        card = _.card_name(drill.card)
        if result.ok:
            if not drill.answer:
                return [_("Right: {card} takes nothing here, so it stays on the table.", card=card)]
            return [_.plural("Right! You found the only capture.", "Right! You found all {n} captures.",
                             len(drill.answer))]
        lines = [_("{right} right, {missing} missing, {wrong} wrong.", right=len(result.right),
                   missing=len(result.missing), wrong=len(result.wrong))]
        for check in result.wrong:  # cards in words: these are sentences (the table of answers shows codes)
            taken = ", ".join(_.card_name(c) for c in sorted(check.taken))
            lines.append(_("Wrong: {card} with {taken}: {why}.", card=card, taken=taken,
                           why=self._why_wrong(_, drill, check)))
        for taken in result.missing:
            names = ", ".join(_.card_name(c) for c in sorted(taken))
            total = describe_sum(_, drill.card, tuple(sorted(taken)), drill.rules)
            lines.append(_("Missing: {card} can also take {taken} ({sum}).", card=card, taken=names, sum=total))
        if not drill.answer and result.wrong:
            lines.append(_("{card} takes nothing here: it stays on the table.", card=sentence_start(card)))
        return lines

    def _setenta_feedback(self, _: Translator, side: str, entry: dict) -> str:
        check = entry["check"]
        if entry["state"] == "blank":
            return _("{side}: write a number, or “invalid”.", side=side)
        if check is None:
            return _("{side}: “{text}” is not a number: write one like 70, or “invalid”.", side=side,
                     text=entry["text"][:20])
        expected = check.expected
        suits = join_words(_, [_.suit_name(s) for s in (check.suits or expected.missing)])
        if check.ok:
            if expected.total is None:
                return _("{side}: right, the setenta is invalid (no {suits}).", side=side, suits=suits)
            return _("{side}: right, {total}.", side=side, total=expected.total)
        mistake = check.mistake
        if mistake == "missing_suit":
            return _("{side}: there is no card of {suits}, so the setenta is invalid.", side=side, suits=suits)
        if mistake == "only_figures":
            return _("{side}: in {suits} there are only figures, and in the low primera only cards 1 to 7 count: "
                     "the setenta is invalid.", side=side, suits=suits)
        if mistake == "not_invalid":
            return _("{side}: there is a card of every suit, so the setenta is valid: add the best card of each "
                     "suit.", side=side)
        cards = join_words(_, [_.card_name(c) for c in check.cards])
        if mistake == "figure_capture_value":
            if len(check.cards) == 1 and check.cards[0].rank == 10:
                return _("{side}: you counted the {card} as 8, but for the setenta figures are worth 10.",
                         side=side, card=cards)
            if len(check.cards) == 1:
                return _("{side}: you counted the {card} as 9, but for the setenta figures are worth 10.",
                         side=side, card=cards)
            return _("{side}: you counted {cards} with their value for making 15 (sota 8, caballo 9), but for the "
                     "setenta figures are worth 10.", side=side, cards=cards)
        if mistake == "figure_printed":
            return _("{side}: you counted {cards} by the number printed on them (caballo 11, rey 12), but for the "
                     "setenta figures are worth 10.", side=side, cards=cards)
        if mistake == "wrong_best":
            slips = []
            for chosen, better in zip(check.cards, check.better):
                slips.append(_("in {suit}, the {better} ({better_value}) beats the {card} ({value})",
                               suit=_.suit_name(better.suit), better=_.card_name(better),
                               better_value=better.setenta_value, card=_.card_name(chosen),
                               value=chosen.setenta_value))
            slip_text = "; ".join(slips)
            return _("{side}: {slips}. Take each suit's best card by its setenta value, not by its number.",
                     side=side, slips=slip_text)
        if mistake == "capture_values":
            return _("{side}: you added the values for making 15; the setenta has its own: 7 = 21, 6 = 18, "
                     "as = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12, figures 10.", side=side)
        if mistake == "summed_all":
            return _("{side}: you added every card; add only the best card of each suit, four cards in all.",
                     side=side)
        given = check.given
        if given is None:
            return _("{side}: not “invalid”.", side=side)
        return _("{side}: {given} is not right. Check each suit's best card and add again.", side=side, given=given)

    def _points_feedback(self, _: Translator, names: list[str], check) -> str:
        item = item_name(_, check.item)
        if check.given is None:
            return _("{item}: choose who gets it.", item=item)
        reason = reason_text(_, check.line, names) if check.line is not None else _("nobody earns it this time")
        if check.ok:
            return _("{item} — right: {reason}.", item=item, reason=reason)
        return _("{item} — not so: {reason}.", item=item, reason=reason)

    def _message(self, _: Translator, drill, lines: list[str]) -> str:
        m = self.model
        if m.error:
            return _("Check the exercise: {problem}", problem=problem_text(_, m.error))
        if lines:
            return "\n".join(lines)
        if self._note == "added":
            return _.plural("Capture added: you have listed {n} capture.",
                            "Capture added: you have listed {n} captures.", len(m.built))
        if self._note == "empty":
            return _("Select the table cards of the capture first.")
        if self._note == "repeated":
            return _("That capture is already in your list.")
        return ""


def _close_tree(widget: w.Widget) -> None:
    """Close a widget and everything in it."""
    for child in getattr(widget, "children", ()):
        _close_tree(child)
    widget.close()


def _key(taken) -> str:
    return "+".join(c.code for c in sorted(taken))

