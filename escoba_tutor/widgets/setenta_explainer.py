"""SetentaExplainer: the setenta (primera) of one or more piles, one step at a time.

For each side: each suit's best card and its setenta value (7 = 21, 6 = 18, as = 16, 5 = 15, 4 = 14, 3 = 13,
2 = 12, figures 10), then the sum, or "invalid" when a suit is missing; then who gets the point. Every value and
verdict is the engine's (``setenta`` and ``score_deal``); this module only shows them.

>>> widget = SetentaExplainer(piles=["7o 6c 1e 5b", "7c 7e 6o"], names=["Ana", "Luis"])
>>> [s.total for s in widget.model.setentas]
[70, None]
>>> widget.next_step()
>>> widget._status.message
'Ana, oros: el siete de oros, que vale 21.'
>>> widget.show_all()
>>> widget._status.message
'Ana se lleva el punto de la setenta: 70 es la única setenta válida (70 – inválida: faltan bastos).'
"""

from __future__ import annotations

from html import escape

import ipywidgets as w
from traitlets import Any, Bool, Dict, HasTraits, Instance, Int, List, Tuple, Unicode, link, observe, validate

from ..engine.cards import as_cards
from ..engine.errors import EscobaError
from ..engine.rules import ESCOBA, Rules, as_rules
from ..engine.scoring import ScoreLine, Setenta, score_deal, setenta
from ..exercises import PRIMERA_ITEM
from ..text import labels
from ..text.error_words import error_dict, error_words
from ..text.phrases import listed, the_cards
from ..text.translator import DEFAULT_LANGUAGE, N_, N_plural, Translator, normalize_language
from .primitives import CardRow, LiveRegion, RowPicker
from .safety import guarded
from .score_sheet import reason_text, setenta_text, side_names

__all__ = ["SetentaModel", "SetentaExplainer", "MAX_SIDES", "YOU_FORMS", "YOU_PLURAL_FORMS"]

MAX_SIDES = 4

#: The sentences about a side (or a point's winner) that would break with the student's own label ("You gets",
#: «Tú se lleva», «Montón de ti»), each beside its form for the student, which the explainer says instead when the
#: side's label is the student's (``names`` may hold ``labels.you``).
YOU_FORMS = {
    N_("{side}'s pile"): N_("Your pile"),
    N_("{side}'s setenta"): N_("Your setenta"),
    N_("{side}: the setenta is invalid (no {suits:or}), so it cannot win the point."):
        N_("Your setenta is invalid (you have no {suits:or}), so it cannot win the point."),
    N_("{side}: the setenta is invalid (no {suits:or} from 1 to 7), so it cannot win the point."):
        N_("Your setenta is invalid (you have no {suits:or} from 1 to 7), so it cannot win the point."),
    N_("{winner} gets the setenta point: {top} is the only valid setenta ({values})."):
        N_("You get the setenta point: {top} is the only valid setenta ({values})."),
    N_("{winner} gets the setenta point: {top} is the highest valid setenta ({values})."):
        N_("You get the setenta point: {top} is the highest valid setenta ({values})."),
    N_("Two sides tie at the top ({values}): the point goes to the third, {winner}."):
        N_("Two sides tie at the top ({values}): the point goes to you, the third."),
    N_("{winner} gets the primera point: more suits ({values}) win, whatever the sums."):
        N_("You get the primera point: more suits ({values}) win, whatever the sums."),
    N_("{winner} gets the primera point: with the same number of suits, the higher sum wins ({values})."):
        N_("You get the primera point: with the same number of suits, the higher sum wins ({values})."),
    N_("{winner} gets the setenta point: more suits ({values}) win, whatever the sums."):
        N_("You get the setenta point: more suits ({values}) win, whatever the sums."),
    N_("{winner} gets the setenta point: with the same number of suits, the higher sum wins ({values})."):
        N_("You get the setenta point: with the same number of suits, the higher sum wins ({values})."),
}

# The point counted by suits, by the game's own name for it (``Rules.sweep``): Escoba's house rule keeps the
# setenta's name (the point a pupil has learnt all along), Scopa's rules call it the primera.
_BY_SUITS = {
    "escoba": {"title": N_("The setenta by suit count, step by step"),
               "rule": N_("Setenta by suit count: more suits beat fewer, whatever the sums; with the same number "
                          "of suits the higher sum wins; a tie gives the point to nobody."),
               "more_suits": N_("{winner} gets the setenta point: more suits ({values}) win, whatever the sums."),
               "most": N_("{winner} gets the setenta point: with the same number of suits, the higher sum wins "
                          "({values})."),
               "tie": N_("Same number of suits and same sum ({values}): nobody gets the setenta point.")},
    "scopa": {"title": N_("The primera, step by step"),
              "rule": N_("Primera by suit count: more suits beat fewer, whatever the sums; with the same number "
                         "of suits the higher sum wins; a tie gives the point to nobody."),
              "more_suits": N_("{winner} gets the primera point: more suits ({values}) win, whatever the sums."),
              "most": N_("{winner} gets the primera point: with the same number of suits, the higher sum wins "
                         "({values})."),
              "tie": N_("Same number of suits and same sum ({values}): nobody gets the primera point.")},
}

# The sum step by suit count (the primera by suit count), said of a side and of the student («te faltan»).
_SUIT_COUNT = N_plural("{side}: {n} suit (no {suits:or}); {terms}.", "{side}: {n} suits (no {suits:or}); {terms}.")
_SUIT_COUNT_YOU = N_plural("You: {n} suit (you have no {suits:or}); {terms}.",
                           "You: {n} suits (you have no {suits:or}); {terms}.")

#: The same for a sentence with plural forms.
YOU_PLURAL_FORMS = {_SUIT_COUNT: _SUIT_COUNT_YOU}


def _is_you(name: object) -> bool:
    return isinstance(name, labels.Label) and name.is_you


def _said(_: Translator, message: str, you: bool, **params: object) -> str:
    """``message``, or its form for the student when the side it speaks of is the student's (:data:`YOU_FORMS`)."""
    return _(YOU_FORMS[message] if you else message, **params)


class SetentaModel(HasTraits):
    """The piles, the engine's setenta of each, the line of the point, and the steps to show.

    ``piles``: one pile per side (text like ``"7o 6c 1e 5b"`` or a list of cards); a single text is one pile.
    Piles that are not valid set ``error`` and keep the last valid position. ``step`` is how many steps are
    shown (0 to ``len(steps)``); it goes back to 0 when the position changes.
    """

    piles = Any(())
    rules = Any(ESCOBA)
    #: The last valid position: the rules, each side's cards and setenta, and the engine's line of the point
    #: (None with a single pile: there is nothing to compare).
    rules_used = Instance(Rules, args=())
    pile_cards = Tuple()
    setentas = Tuple()
    line = Instance(ScoreLine, allow_none=True)
    #: One dict per step: {"kind": "suit", "side", "suit", "card", "value", "ignored"}, {"kind": "sum", "side"}
    #: and, with two or more sides, {"kind": "point"}.
    steps: List[dict] = List()
    step = Int(0)
    error = Dict()
    #: Changes once after every change of the above: views redraw on it.
    revision = Int(0)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._update()

    @observe("piles", "rules")
    def _changed(self, change) -> None:
        self._update()

    @validate("step")
    def _valid_step(self, proposal):
        return max(0, min(int(proposal["value"]), len(self.steps)))

    @observe("step")
    def _step_changed(self, change) -> None:
        self.revision += 1

    def next_step(self) -> None:
        self.step += 1

    def show_all(self) -> None:
        self.step = len(self.steps)

    def restart(self) -> None:
        self.step = 0

    @property
    def done(self) -> bool:
        return self.step >= len(self.steps)

    def _update(self) -> None:
        try:
            rules, piles, setentas, line = self._parse()
        except EscobaError as error:
            self.error = error_dict(error)
            self.revision += 1
            return
        with self.hold_trait_notifications():
            self.error = {}
            self.rules_used, self.pile_cards, self.setentas, self.line = rules, piles, setentas, line
            self.steps = self._steps()
            self.step = 0
        self.revision += 1

    def _parse(self) -> tuple[Rules, tuple, tuple, ScoreLine | None]:
        rules = as_rules(self.rules)
        piles = self.piles
        if isinstance(piles, str):
            piles = [piles]
        if not isinstance(piles, (list, tuple)) or not piles:
            raise EscobaError("piles must be a list with one pile of cards per side", code="bad_piles")
        if len(piles) > MAX_SIDES:
            raise EscobaError(f"at most {MAX_SIDES} piles, one per side", code="too_many_piles")
        cards = tuple(as_cards(pile) for pile in piles)
        line = None
        if len(cards) >= 2:  # the engine checks that no card is in two piles, and says who gets the point
            line = score_deal(cards, [0] * len(cards), rules).line(PRIMERA_ITEM[rules.primera])
        return rules, cards, tuple(setenta(pile, rules) for pile in cards), line

    def _steps(self) -> list[dict]:
        steps: list[dict] = []
        for side, (pile, value) in enumerate(zip(self.pile_cards, self.setentas)):
            every_card = setenta(pile)  # with every card counting: shows which figures low primera leaves out
            for best, full in zip(value.best, every_card.best):
                ignored = [c.code for c in pile if c.suit is best.suit] if best.card is None and full.card else []
                steps.append({"kind": "suit", "side": side, "suit": best.suit.value,
                              "card": best.card.code if best.card else None, "value": best.value,
                              "ignored": ignored})
            steps.append({"kind": "sum", "side": side})
        if len(self.pile_cards) >= 2:
            steps.append({"kind": "point"})
        return steps


class SetentaExplainer(w.VBox):
    """The setenta of each pile, step by step, and who gets the point.

    ``SetentaExplainer(piles=["7o 6c 1e 5b", "7c 7e 6o"], names=["Ana", "Luis"])``; ``rules`` is a profile
    name or a ``Rules`` (low primera, primera by suit count and the sevens rule change the steps); ``lang`` is
    ``es`` (default) or ``en``; ``deck`` is ``spanish`` or ``french``; ``editable`` shows a text box per pile.
    A lesson may set ``piles``, ``names``, ``rules``, ``lang``, ``deck``, ``editable`` and ``step``.
    """

    piles = Any(())
    names = Any(None)
    rules = Any(ESCOBA)
    lang = Unicode(DEFAULT_LANGUAGE)
    deck = Unicode("spanish")
    editable = Bool(True)
    step = Int(0)

    _LINKED = ("piles", "rules", "step")

    def __init__(self, piles=("7o 6c 1e 5b", "7c 7e 6o"), names=None, rules: Rules | str = ESCOBA,
                 lang: str = DEFAULT_LANGUAGE, deck: str = "spanish", *, editable: bool = True,
                 model: SetentaModel | None = None, **kwargs) -> None:
        self.model = model or SetentaModel(piles=list(piles) if isinstance(piles, tuple) else piles, rules=rules)
        super().__init__(**kwargs)
        self.add_class("escoba-setenta")
        self._title = w.HTML()
        self._rule_note = w.HTML()
        self._inputs = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self._texts: list[w.Text] = []
        self._sides = w.VBox()
        self._side_parts: list[tuple[w.HTML, CardRow, RowPicker, w.VBox]] = []
        self._point = w.HTML()
        self._next = w.Button(icon="step-forward")
        self._all = w.Button(icon="forward")
        self._restart = w.Button(icon="undo")
        self._status = LiveRegion()
        self.children = [self._title, self._rule_note, self._inputs, self._sides, self._point,
                         w.HBox([self._next, self._all, self._restart], layout=w.Layout(flex_flow="row wrap")),
                         self._status]
        for name in self._LINKED:  # the model's values first: a link copies left to right
            self.set_trait(name, getattr(self.model, name))
        self._links = [link((self.model, name), (self, name)) for name in self._LINKED]
        self.names, self.lang, self.deck, self.editable = names, lang, deck, editable
        self._next.on_click(lambda _button: self.next_step())
        self._all.on_click(lambda _button: self.show_all())
        self._restart.on_click(lambda _button: self.restart())
        self.model.observe(self._redraw, "revision")
        self._redraw()

    # ------------------------------------------------------------------------------------------- actions
    @guarded
    def next_step(self) -> None:
        """Show one more step (announced in the status line)."""
        self.model.next_step()

    @guarded
    def show_all(self) -> None:
        self.model.show_all()

    @guarded
    def restart(self) -> None:
        self.model.restart()

    @validate("lang")
    def _valid_lang(self, proposal):
        return normalize_language(proposal["value"])

    @validate("step")
    def _valid_step(self, proposal):
        # The same bounds as the model's, so the linked values agree (a link does not copy a clamped value back).
        steps = len(self.model.steps) if hasattr(self, "model") else 0
        return max(0, min(int(proposal["value"]), steps))

    @validate("deck")
    def _valid_deck(self, proposal):
        if proposal["value"] not in ("spanish", "french"):
            raise EscobaError("deck must be 'spanish' or 'french'", code="bad_deck")
        return proposal["value"]

    @observe("lang", "names", "deck", "editable")
    def _look_changed(self, change) -> None:
        if hasattr(self, "_status"):
            self._redraw()

    @guarded
    def _typed(self, side: int, change) -> None:
        current = self.model.piles
        if isinstance(current, str):
            current = [current]
        if isinstance(current, (list, tuple)) and len(current) == len(self._texts):
            piles = list(current)
        else:
            piles = [" ".join(c.code for c in cards) for cards in self.model.pile_cards]
        piles[side] = change["new"]
        self.piles = piles

    # ------------------------------------------------------------------------------------------- drawing
    @guarded
    def _redraw(self, change=None) -> None:
        m = self.model
        _ = Translator(self.lang)
        names = side_names(_, self.names, len(m.pile_cards))
        self._title.value = f"<h3 class='escoba-title'>{escape(self._title_text(_))}</h3>"
        self._rule_note.value = "<p>" + "<br>".join(escape(t) for t in self._rule_texts(_)) + "</p>"
        self._draw_inputs(_, names)
        self._draw_sides(_, names)
        shown = m.steps[:m.step]
        point = next((s for s in shown if s["kind"] == "point"), None)
        self._point.value = f"<p><strong>{escape(self._point_text(_, names))}</strong></p>" if point else ""
        self._next.description, self._all.description = _("Next step"), _("Show all")
        self._restart.description = _("Start again")
        self._next.disabled = self._all.disabled = m.done
        self._restart.disabled = m.step == 0
        self._status.message = self._message(_, names)

    def _title_text(self, _: Translator) -> str:
        rules = self.model.rules_used
        if rules.primera == "suit_count":
            return _(_BY_SUITS[rules.sweep]["title"])
        return _("The setenta, step by step")

    def _rule_texts(self, _: Translator) -> list[str]:
        rules = self.model.rules_used
        texts = [_("For each suit take the best card: 7 = 21, 6 = 18, ace = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12, "
                   "jack, knight and king = 10. Then add the four.")]
        if rules.setenta_cards == "low":
            texts.append(_("Setenta with low cards only: only cards 1 to 7 count; a suit held only in face cards "
                           "counts as missing."))
        if rules.primera == "suit_count":
            texts.append(_(_BY_SUITS[rules.sweep]["rule"]))
        else:
            texts.append(_("A side missing a suit has no valid setenta. The highest valid setenta wins the point; "
                           "a tie gives it to nobody."))
        if rules.primera == "sevens":
            texts.append(_("With these rules the point goes to the side with the most sevens instead: this setenta "
                           "is only for practice."))
        if rules.three_player_ties:
            texts.append(_("Three sides: when two tie at the top, the point goes to the third if it has a valid "
                           "setenta."))
        return texts

    def _draw_inputs(self, _: Translator, names: list[labels.Label]) -> None:
        m = self.model
        if len(self._texts) != len(m.pile_cards):
            for old in self._texts:
                old.close()
            self._texts = []
            for side in range(len(m.pile_cards)):
                text = w.Text(continuous_update=False, layout=w.Layout(width="auto", flex="1 1 14em"))
                text.observe(lambda change, side=side: self._typed(side, change), "value")
                self._texts.append(text)
            self._inputs.children = self._texts
        self._inputs.layout.display = "flex" if self.editable else "none"
        current = m.piles if not isinstance(m.piles, str) else [m.piles]
        for side, text in enumerate(self._texts):
            text.description = names[side]
            text.placeholder = "7o 6c 1e 5b"
            if m.error:
                continue  # keep what the learner typed, so they can correct it
            pile = current[side] if isinstance(current, (list, tuple)) and side < len(current) else None
            wanted = pile if isinstance(pile, str) else " ".join(c.code for c in m.pile_cards[side])
            if text.value != wanted:
                text.value = wanted

    def _draw_sides(self, _: Translator, names: list[labels.Label]) -> None:
        m = self.model
        while len(self._side_parts) < len(m.pile_cards):  # made once per side, kept for later positions
            made = (w.HTML(), CardRow(mode="none"), RowPicker(disabled=True))
            self._side_parts.append((*made, w.VBox(list(made))))
        parts = self._side_parts[:len(m.pile_cards)]
        if len(self._sides.children) != len(parts):
            self._sides.children = [box for *_parts, box in parts]
        shown = m.steps[:m.step]
        for side, (heading, row, picker, _box) in enumerate(parts):
            pile = m.pile_cards[side]
            steps = [s for s in shown if s.get("side") == side]
            best = [s for s in steps if s["kind"] == "suit" and s["card"]]
            heading.value = f"<h4>{escape(names[side])}</h4>"
            row.deck = picker.deck = self.deck
            row.figure_words = [_.rank_name(rank) for rank in (10, 11, 12)]  # (under the card: sota / jack)
            row.cards = [c.code for c in pile]
            row.labels = [_.card_name(c) for c in pile]
            # the student's own pile and setenta take the possessive: "Your pile", never "You's pile", «de ti»
            you = _is_you(names[side])
            row.group_label = _said(_, "{side}'s pile", you, side=names[side])
            row.highlighted = [s["card"] for s in best]
            row.marks = {s["card"]: str(s["value"]) for s in best}
            picker.caption = _said(_, "{side}'s setenta", you, side=names[side])
            picker.headers = [_("Best card"), _("Suit"), _("Setenta value")]
            picker.empty_text = _("Press “Next step” to see the best card of each suit.")
            picker.rows = [self._row(_, names, s) for s in steps]

    # ------------------------------------------------------------------------------------------------ words
    def _row(self, _: Translator, names: list[labels.Label], step: dict) -> dict:
        side = step["side"]
        if step["kind"] == "sum":  # a valid sum has no tone: "good" (★) is an escoba's mark
            value = self.model.setentas[side]
            return {"id": f"{side}-sum", "cells": ["", _("Sum"), self._sum_cell(_, value)],
                    "label": self._step_text(_, names, step), "tone": "" if self._sum_ok(value) else "warn"}
        suit = _.suit_name(step["suit"])
        if step["card"]:
            return {"id": f"{side}-{step['suit']}", "cells": [step["card"], suit, str(step["value"])],
                    "cards": [step["card"]], "label": self._step_text(_, names, step), "tone": ""}
        missing = _("only face cards: they do not count") if step["ignored"] else _("no card")
        return {"id": f"{side}-{step['suit']}", "cells": ["—", suit, missing],
                "label": self._step_text(_, names, step), "tone": "warn"}

    def _sum_ok(self, value: Setenta) -> bool:
        return value.total is not None or self.model.rules_used.primera == "suit_count"

    def _terms(self, value: Setenta) -> str:
        values = [str(b.value) for b in value.best if b.value is not None]
        return " + ".join(values) + f" = {value.sum}" if len(values) > 1 else f"{value.sum}"

    def _sum_cell(self, _: Translator, value: Setenta) -> str:
        if value.total is not None:
            return self._terms(value)
        if self.model.rules_used.primera == "suit_count":
            return _.plural("{n} suit: {terms}", "{n} suits: {terms}", value.suit_count, terms=self._terms(value))
        return setenta_text(_, value)

    def _step_text(self, _: Translator, names: list[labels.Label], step: dict) -> str:
        m = self.model
        if step["kind"] == "point":
            return self._point_text(_, names)
        side = names[step["side"]]
        if step["kind"] == "sum":
            value = m.setentas[step["side"]]
            if value.total is not None:
                return _("{side}: {terms}.", side=side, terms=self._terms(value))
            missing = listed(_, [_.suit_name(s) for s in value.missing])  # ("no cups or clubs")
            if m.rules_used.primera == "suit_count":
                forms = _SUIT_COUNT_YOU if _is_you(side) else _SUIT_COUNT
                return _.plural(*forms, value.suit_count, side=side, suits=missing, terms=self._terms(value))
            # (the low-cards house rule) "no clubs" would be false of a pile holding the king of clubs
            message = ("{side}: the setenta is invalid (no {suits:or} from 1 to 7), so it cannot win the point."
                       if value.face_only else
                       "{side}: the setenta is invalid (no {suits:or}), so it cannot win the point.")
            return _said(_, message, _is_you(side), side=side, suits=missing)
        suit = _.suit_name(step["suit"])
        if step["card"]:
            return _("{side}, {suit}: {card}, worth {value}.", side=side, suit=suit, card=_.the_card(step["card"]),
                     value=step["value"])
        if step["ignored"]:
            return _("{side}, {suit}: only face cards ({cards}), which do not count in a setenta with low cards "
                     "only.", side=side, suit=suit, cards=the_cards(_, step["ignored"]))
        if m.rules_used.primera == "suit_count":
            return _("{side}, {suit}: no card of this suit, so one suit fewer in the count of suits.", side=side,
                     suit=suit)
        return _("{side}, {suit}: no card of this suit, so the setenta is invalid.", side=side, suit=suit)

    def _point_text(self, _: Translator, names: list[labels.Label]) -> str:
        line = self.model.line
        if line is None:
            return ""
        winner = labels.joined(_, [names[i] for i in line.winners])
        you = winner.is_you  # (a setenta or primera point has one winner at most)
        by_suits = line.item == "primera"
        shown = [setenta_text(_, v, by_suits=by_suits) if isinstance(v, Setenta) else str(v) for v in line.values]
        values = " – ".join(shown)
        if line.item == "setenta":
            totals = [v.total for v in line.values]
            if line.reason in ("all_invalid", "all_invalid_low"):
                return _("No side has a valid setenta: nobody gets the point.")
            best = max(t for t in totals if t is not None)
            if line.reason == "tie" and len(totals) > 2:  # three sides: say which share the top
                return _("Tie at {top} between {tied}: nobody gets the setenta point.", top=best,
                         tied=labels.joined(_, [names[i] for i in line.top_sides]))
            if line.reason == "tie":
                return _("Tie at {top}: nobody gets the setenta point.", top=best)
            if line.reason == "third_side":
                return _said(_, "Two sides tie at the top ({values}): the point goes to the third, {winner}.", you,
                             values=values, winner=winner)
            top = totals[line.winners[0]]
            if sum(t is not None for t in totals) == 1:
                return _said(_, "{winner} gets the setenta point: {top} is the only valid setenta ({values}).", you,
                             winner=winner, top=top, values=values)
            return _said(_, "{winner} gets the setenta point: {top} is the highest valid setenta ({values}).", you,
                         winner=winner, top=top, values=values)
        if line.item == "primera":
            said = _BY_SUITS[self.model.rules_used.sweep]
            if line.reason in ("more_suits", "most"):
                return _said(_, said[line.reason], you, winner=winner, values=values)
            return _(said["tie"], values=values)
        student = next((i for i, name in enumerate(names) if _is_you(name)), None)
        reason = reason_text(_, line, names, student)
        return _("With these rules the point goes to the side with the most sevens: {reason}.", reason=reason)

    def _message(self, _: Translator, names: list[labels.Label]) -> str:
        m = self.model
        if m.error:
            return _("Check the piles: {problem}", problem=error_words(_, m.error))
        if m.step:  # the last step shown is the news
            return self._step_text(_, names, m.steps[m.step - 1])
        return _("Press “Next step” to see the setenta step by step.")

