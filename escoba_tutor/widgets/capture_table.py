"""CaptureTable: every legal capture for a hand and a table, explained; and captures the learner builds.

>>> from escoba_tutor.widgets import CaptureTable
>>> widget = CaptureTable(table="1o 4b 7o", hand="3c 5e")
>>> [row["id"] for row in widget.model.rows]
['3c:1o+7o+4b', '5e:']
>>> widget.model.rows[0]["gains"]
Gains(cards=4, oros=2, sevens=1, siete_de_oros=True, escoba=True)
>>> widget.lang = "en"
>>> widget._picker.rows[0]["cells"][2]
'3 + 1 + 7 + 4 = 15'
"""

from __future__ import annotations

import html

import ipywidgets as w
from traitlets import Any, Bool, Dict, HasTraits, Instance, Int, List, Tuple, Unicode, link, observe, validate

from ..engine.captures import CaptureCheck, capture_gains, check_capture, legal_captures
from ..engine.cards import DECK, Card, parse_card, parse_cards
from ..engine.errors import EscobaError
from ..engine.rules import ESCOBA, Rules, rules_by_name
from ..text.error_words import error_words, fill, missing_words
from ..text.phrases import alternatives, and_list, sentence_start, the_cards
from ..text.translator import DEFAULT_LANGUAGE, N_, Translator, normalize_language
from .look import SharedLook
from .primitives import ActionButton, CardRow, LiveRegion, RowPicker
from .safety import guarded

__all__ = ["CaptureModel", "CaptureTable", "describe_sum", "describe_gains", "error_text", "sentence_start",
           "VERDICT_WORDS", "SCOPA_VERDICT_WORDS"]

MAX_HAND = 3
MAX_TABLE = 36


def as_rules(rules: Rules | str) -> Rules:
    return rules if isinstance(rules, Rules) else rules_by_name(rules)


def describe_sum(_: Translator, card: Card, taken: tuple[Card, ...], rules: Rules) -> str:
    """``3 + 1 + 4 + 7 = 15``; a figure shows its value: ``sota (8)``. In Scopa the taken cards add up to the
    played card: ``2 + 3 = 5``."""
    def term(c: Card) -> str:
        return _("{figure} ({value})", figure=_.rank_name(c.rank), value=c.value) if c.is_figure else str(c.value)

    if rules.capture == "fifteen":
        return " + ".join(term(c) for c in (card, *taken)) + f" = {card.value + sum(c.value for c in taken)}"
    return " + ".join(term(c) for c in taken) + f" = {sum(c.value for c in taken)}"


#: A sweep among a capture's gains, by the rules' word for it (``Rules.sweep``).
A_SWEEP = {"escoba": N_("an escoba"), "scopa": N_("a scopa")}


def describe_gains(_: Translator, gains, rules: Rules = ESCOBA) -> str:
    """What a capture wins: ``an escoba and 4 cards (the seven of coins, 2 coins cards
    and 1 seven)``; ``2 cards``; under Scopa rules a sweep is ``a scopa``."""
    details = []
    if gains.siete_de_oros:
        details.append(_.the_card("7o"))
    if gains.oros:
        details.append(_.plural("{n} coins card", "{n} coins cards", gains.oros))
    if gains.sevens:
        details.append(_.plural("{n} seven", "{n} sevens", gains.sevens))
    cards = _.plural("{n} card", "{n} cards", gains.cards)
    if details:
        cards = _("{cards} ({which})", cards=cards, which=and_list(_, details))
    return and_list(_, [_(A_SWEEP[rules.sweep]), cards] if gains.escoba else [cards])


class CaptureModel(HasTraits):
    """The position and what the engine says about it. Views observe it; they compute no rule.

    ``hand`` and ``table`` are card text. Text that is not a valid position sets ``error`` (a code and the
    engine's message) and leaves the last valid position in place: nothing is half-changed.
    """

    hand = Unicode("")
    table = Unicode("")
    rules = Instance(Rules, args=())  # Rules() is the default profile, ESCOBA
    hand_cards = Tuple()
    table_cards = Tuple()
    error = Dict()
    rows: List[dict] = List()  # one dict a row: see _rows
    selected = Unicode("")
    built_card = Unicode("")
    built_taken: List[str] = List()
    verdict = Instance(CaptureCheck, allow_none=True)
    #: Changes once after every change of the above: views redraw on it, never on a half-made state.
    revision = Int(0)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._update()

    @validate("rules")
    def _valid_rules(self, proposal):
        return as_rules(proposal["value"])

    @observe("hand", "table", "rules")
    def _changed(self, change) -> None:
        if self._placing is None:
            self._update()
        else:
            self._placing = True  # worked out once, when place() has set them all

    _placing: bool | None = None

    def place(self, hand: str, table: str, rules: Rules | None = None) -> None:
        """A whole new position (a game's next turn): worked out and drawn once, not once for each of the hand,
        the table and the rules; nothing at all when none of them changed."""
        self._placing = False
        try:
            with self.hold_trait_notifications():
                self.hand, self.table = hand, table
                if rules is not None:
                    self.rules = rules
        finally:
            changed, self._placing = self._placing, None
        if changed:
            self._update()

    @observe("verdict")
    def _shown_changed(self, change) -> None:
        self.revision += 1  # (a new ``selected`` alone is drawn by the views' quicker path, not a whole redraw)

    def _update(self) -> None:
        with self.hold_trait_notifications():
            self._reparse()
        self.revision += 1

    def _reparse(self) -> None:
        try:
            hand, table = parse_cards(self.hand), parse_cards(self.table)
            both = set(hand) & set(table)
            if both:
                card = min(both)
                raise EscobaError(f"{card} cannot be in the hand and on the table at once", code="card_in_both",
                                  card=card.code)
            if len(hand) > MAX_HAND:
                raise EscobaError(f"a hand holds at most {MAX_HAND} cards, not {len(hand)}", code="hand_too_big",
                                  count=len(hand))
            if len(table) > MAX_TABLE:
                raise EscobaError(f"a table holds at most {MAX_TABLE} cards here, not {len(table)}",
                                  code="table_too_big", count=len(table))
        except EscobaError as error:
            self.error = {"code": error.code, "message": str(error), **{k: str(v) for k, v in error.params.items()}}
            return
        self.error = {}
        self.hand_cards, self.table_cards = hand, table
        self.rows = self._rows()
        if self.selected not in {row["id"] for row in self.rows}:
            self.selected = ""
        self.built_card, self.built_taken, self.verdict = "", [], None

    def _rows(self) -> list[dict]:
        """One row per legal capture, then a row for each hand card that takes nothing; data, not text."""
        rows: list[dict] = []
        for card in self.hand_cards:
            captures = legal_captures(card, self.table_cards, self.rules)
            for capture in captures:
                taken = tuple(sorted(capture))
                rows.append({"id": f"{card.code}:" + "+".join(c.code for c in taken), "card": card.code,
                             "taken": [c.code for c in taken], "gains": capture_gains(card, taken, self.table_cards)})
            if not captures:
                rows.append({"id": f"{card.code}:", "card": card.code, "taken": [], "gains": None})
        return rows

    def check_built(self) -> CaptureCheck:
        """Judge the capture the learner built from ``built_card`` and ``built_taken``."""
        verdict = check_capture(self.built_card or None, self.built_taken, self.table_cards, self.rules,
                                hand=self.hand_cards)
        self.verdict = verdict
        return verdict


class CaptureTable(w.VBox):
    """For a hand and a table: one row per legal capture (the cards, the sum, what it wins), a row for each card
    that takes nothing, and a place to build a capture and have it checked.

    ``CaptureTable(table="1o 4b 7o", hand="3c 5e 12b")``; ``rules`` is a profile name or a ``Rules``;
    ``lang`` is ``es`` (default) or ``en``; ``deck`` is ``spanish`` or ``french``. ``controls=False`` hides the
    table's own Check and Clear buttons and status line, for a view that has its own (a game plays instead).

    Choosing a row answers with one message from the kernel (the status line): the browser already shows the
    chosen row and highlights its cards (the card rows follow the row picker), and its choice is not echoed.
    """

    table = Unicode("")
    hand = Unicode("")
    lang = Unicode(DEFAULT_LANGUAGE)
    rules = Any(ESCOBA)
    deck = Unicode("spanish")
    selected = Unicode("")
    editable = Bool(True)

    def __init__(self, table: str = "", hand: str = "", *, rules: Rules | str = ESCOBA, lang: str = DEFAULT_LANGUAGE,
                 deck: str = "spanish", editable: bool = True, controls: bool = True,
                 model: CaptureModel | None = None, look: SharedLook | None = None, **kwargs) -> None:
        self.model = model or CaptureModel(hand=hand, table=table, rules=as_rules(rules))
        super().__init__(**kwargs)
        self.add_class("escoba-capture-table")
        look = look or SharedLook()  # a composite that embeds this table can share its own
        self._title = w.HTML(layout=look.layout, style=look.html)
        self._table_text = w.Text(continuous_update=False, layout=w.Layout(width="auto", flex="1 1 14em"))
        self._hand_text = w.Text(continuous_update=False, layout=w.Layout(width="auto", flex="1 1 10em"))
        self._inputs = w.HBox([self._table_text, self._hand_text], layout=w.Layout(flex_flow="row wrap"))
        self._picker = RowPicker(layout=look.layout)
        self._table_row = CardRow(mode="multi", picker=self._picker, layout=look.layout)
        self._hand_row = CardRow(mode="single", picker=self._picker, layout=look.layout)
        self._table_label = w.HTML(layout=look.layout, style=look.html)
        self._hand_label = w.HTML(layout=look.layout, style=look.html)
        # A check judges what the page shows, even choices whose updates are still on their way (ActionButton).
        self._check = ActionButton(icon="check", layout=look.layout, inputs=[self])
        self._clear = w.Button(icon="eraser", layout=look.layout, style=look.button)
        # the status line says the chosen row at once in the browser; _message() says the same for a chosen row
        self._status = LiveRegion(sticky=True, picker=self._picker)
        self._controls = w.HBox([self._check, self._clear], layout=w.Layout(flex_flow="row wrap"))
        # The deck picker (40 cards) is built the first time it is opened: most pages never open it.
        self._deck_target: w.ToggleButtons | None = None
        self._deck_row: CardRow | None = None
        self._deck_box = w.VBox()
        self._deck_toggle = w.ToggleButton(icon="th")
        # Names for the page's style sheet (a game lays these parts out in two columns on a wide screen)
        for part, name in ((self._title, "escoba-ct-title"), (self._table_label, "escoba-ct-label"),
                           (self._hand_label, "escoba-ct-label"), (self._table_row, "escoba-ct-cards"),
                           (self._hand_row, "escoba-ct-cards"), (self._picker, "escoba-ct-list")):
            part.add_class(name)
        self._hand_label.add_class("escoba-ct-hand")
        self._hand_row.add_class("escoba-ct-hand")
        self.children = [self._title, self._inputs, self._deck_toggle, self._deck_box, self._table_label,
                         self._table_row,
                         self._hand_label, self._hand_row, self._picker, self._controls, self._status]
        if not controls:
            self._controls.layout.display = self._status.layout.display = "none"
        for name in ("table", "hand", "selected"):  # the model's values first: a link copies left to right
            self.set_trait(name, getattr(self.model, name))
        self._links = [link((self.model, name), (self, name)) for name in ("table", "hand", "selected")]
        self.lang, self.deck, self.editable = lang, deck, editable
        self.rules = self.model.rules
        self._table_text.observe(self._typed_table, "value")
        self._hand_text.observe(self._typed_hand, "value")
        self._picker.observe(self._picked_row, "selected")
        self._hand_row.observe(self._built, "selected")
        self._table_row.observe(self._built, "selected")
        self._deck_toggle.observe(self._redraw, "value")
        self._check.on_click(self._check_clicked)
        self._clear.on_click(self._clear_clicked)
        self.model.observe(self._redraw, "revision")
        self.model.observe(self._selection_changed, "selected")
        self._redraw()

    # --------------------------------------------------------------------------------------- inputs
    @observe("rules")
    @guarded
    def _rules_changed(self, change) -> None:
        self.model.rules = as_rules(change["new"])

    @validate("lang")
    def _valid_lang(self, proposal):
        return normalize_language(proposal["value"])

    @observe("deck", "editable", "lang")
    @guarded
    def _look_changed(self, change) -> None:
        if hasattr(self, "_status"):
            self._redraw()

    @guarded
    def _typed_table(self, change) -> None:
        self.table = change["new"]

    @guarded
    def _typed_hand(self, change) -> None:
        self.hand = change["new"]

    @guarded
    def _picked_row(self, change) -> None:
        chosen = change["new"]
        # A row picked replaces the capture being built and its verdict (as building replaces a picked row), so
        # the status line says the row, as the browser already does. The model's observers run once all is set.
        with self.model.hold_trait_notifications():
            if chosen:
                self._hand_row.selected = []
                self._table_row.selected = []
                self.model.verdict = None
            self.model.selected = chosen

    @guarded
    def _built(self, change) -> None:
        if self._hand_row.selected or self._table_row.selected:
            self.model.selected = ""  # building a capture by hand replaces a row picked before
        self.model.built_card = self._hand_row.selected[0] if self._hand_row.selected else ""
        self.model.built_taken = list(self._table_row.selected)
        self.model.verdict = None

    @guarded
    def _deck_clicked(self, change) -> None:
        chosen = [code for code in change["new"]]
        to_hand = self._deck_target is not None and self._deck_target.index == 1
        other = self.model.table_cards if to_hand else self.model.hand_cards
        chosen = [code for code in chosen if code not in {c.code for c in other}]
        if to_hand:
            self.hand = " ".join(chosen)
        else:
            self.table = " ".join(chosen)

    @guarded
    def _check_clicked(self, button) -> None:
        self.model.check_built()

    @guarded
    def _clear_clicked(self, button) -> None:
        self._hand_row.selected = []
        self._table_row.selected = []
        self.model.selected = ""
        self.model.verdict = None

    # ------------------------------------------------------------------------------------- drawing
    @guarded
    def _redraw(self, change=None) -> None:
        m = self.model
        _ = Translator(self.lang)
        title = _("Making 15") if m.rules.capture == "fifteen" else _("Captures (Scopa)")
        self._title.value = f"<h3 class='escoba-title'>{html.escape(title)}</h3>"
        self._table_text.description, self._hand_text.description = _("Table"), _("Hand")
        self._table_text.placeholder, self._hand_text.placeholder = "1o 4b 7o", "3c 5e 12b"
        if self._table_text.value != self.table:
            self._table_text.value = self.table
        if self._hand_text.value != self.hand:
            self._hand_text.value = self.hand
        self._inputs.layout.display = "flex" if self.editable else "none"
        self._deck_toggle.layout.display = "inline-flex" if self.editable else "none"
        self._deck_toggle.description = _("Pick cards from the pack")
        self._deck_box.layout.display = "flex" if self._deck_toggle.value and self.editable else "none"
        if self._deck_toggle.value and self._deck_row is None:
            self._deck_target = w.ToggleButtons()
            self._deck_row = CardRow(mode="multi", size="small")
            self._deck_box.children = [self._deck_target, self._deck_row]
            self._deck_row.observe(self._deck_clicked, "selected")
            self._deck_target.observe(self._redraw, "value")
        deck_target, deck_row = self._deck_target, self._deck_row
        if deck_target is not None and deck_row is not None:
            index = deck_target.index
            labels = (_("Table"), _("Hand"))
            if tuple(deck_target.options) != labels:
                deck_target.options = labels
            if deck_target.index != (index if index in (0, 1) else 0):
                deck_target.index = index if index in (0, 1) else 0  # one is always on, and shows it
            deck_row.deck = self.deck
            deck_row.group_label = _("The 40 cards")
            deck_row.cards = [c.code for c in DECK]
            deck_row.labels = [_.card_name(c) for c in DECK]
            target = [c.code for c in (m.hand_cards if deck_target.index == 1 else m.table_cards)]
            if set(deck_row.selected) != set(target):
                # In step with the position (a refused pick, e.g. a fourth card for the hand, is taken back):
                # this is not a click, so _deck_clicked must not answer it.
                deck_row.unobserve(self._deck_clicked, "selected")
                try:
                    deck_row.selected = target
                finally:
                    deck_row.observe(self._deck_clicked, "selected")

        figures = [_.rank_name(rank) for rank in (10, 11, 12)]
        for row_widget, cards, label in ((self._table_row, m.table_cards, _("Table")),
                                         (self._hand_row, m.hand_cards, _("Your hand"))):
            with row_widget.hold_sync():  # a new position: one message per card row
                row_widget.deck = self.deck
                row_widget.figure_words = figures
                row_widget.cards = [c.code for c in cards]
                row_widget.labels = [_.card_name(c) for c in cards]
                row_widget.marks = {c.code: str(c.value) for c in cards if c.is_figure}
                row_widget.group_label = label
        self._table_label.value = f"<b>{html.escape(_('Table'))}</b>"
        self._hand_label.value = f"<b>{html.escape(_('Your hand'))}</b>"

        with self._picker.hold_sync():  # the chosen row's cards are highlighted by the card rows that follow it
            self._picker.deck = self.deck
            self._picker.caption = _("Every legal capture")
            self._picker.headers = [_("Card"), _("Takes"), _("Sum"), _("You get")]
            self._picker.empty_text = _("Put cards in your hand to see their captures.")
            self._picker.rows = [self._picker_row(_, row) for row in m.rows]
            self._picker.selected = m.selected
        self._check.description = _("Check my capture")
        self._clear.description = _("Clear")
        self._status.message = self._message(_)

    @guarded
    def _selection_changed(self, change=None) -> None:
        """A row chosen: only the choice and the status line change (a click is answered by one message)."""
        if self._picker.selected != self.model.selected:
            self._picker.selected = self.model.selected
        self._status.message = self._message(Translator(self.lang))

    def _picker_row(self, _: Translator, row: dict) -> dict:
        card = _.the_card(row["card"])
        if row["taken"]:
            row = {**row, "sum": describe_sum(_, parse_card(row["card"]), parse_cards(row["taken"]), self.model.rules),
                   "gains_text": describe_gains(_, row["gains"], self.model.rules)}
        if not row["taken"]:
            text = sentence_start(_("{card:The} takes nothing: it stays on the table.", card=card))
            return {"id": row["id"], "cells": [row["card"], "—", "—", _("stays on the table")], "cards": [row["card"]],
                    "label": text, "tone": "info"}
        label = sentence_start(_("{card:The} takes {taken}: {sum}. It wins {gains}.", card=card,
                                 taken=the_cards(_, row["taken"]), sum=row["sum"], gains=row["gains_text"]))
        return {"id": row["id"], "cells": [row["card"], " ".join(row["taken"]), row["sum"], row["gains_text"]],
                "cards": [row["card"], *row["taken"]], "label": label, "tone": "good" if row["gains"].escoba else ""}

    def _message(self, _: Translator) -> str:
        m = self.model
        if m.error:
            return _("Check the cards: {problem}", problem=error_text(_, m.error))
        if m.verdict is not None:
            return _verdict_text(_, m.verdict, m.rules)
        chosen = next((row for row in m.rows if row["id"] == m.selected), None)
        if chosen:
            return self._picker_row(_, chosen)["label"]
        return ""


def error_text(_: Translator, error: dict) -> str:
    """What is wrong with the cards typed, from the error's code (see :mod:`.error_words`)."""
    return error_words(_, error)


def card_names(_: Translator, cards) -> str:
    """Cards in a sentence, each with its article: ``el as de oros y el cuatro de bastos``."""
    return the_cards(_, cards)


def captures_in_words(_: Translator, captures) -> str:
    """Several possible captures in a sentence: ``el rey de copas, o el dos de copas y la sota de bastos``."""
    return alternatives(_, captures)


#: What a capture the learner built says, by the verdict's reason (``ok`` with no card taken: "nothing").
VERDICT_WORDS = {
    "ok": N_("Right! {card:The} takes {taken}: together they make {total}."),
    "nothing": N_("Right! {card:The} takes nothing, so it stays on the table."),
    "no_card": N_("Choose a card from your hand first: it is part of the 15."),
    "card_not_in_hand": N_("{card:The} is not in your hand."),
    "not_on_table": N_("You can only take cards that are on the table."),
    "must_capture": N_("{card:The} can capture, so it must: it can take {legal}."),
    "figure_face_value": N_("Watch out for the face cards: {jack}, {knight}, {king}. These cards make {total}, "
                            "not {goal}."),
    "equal_card_first": N_("With a matching card on the table, it must be taken alone: {legal}."),
    "table_alone_15": N_("The table cards you chose already add up to 15 on their own, and your card counts too: "
                         "together they make {total}, not {goal}."),
    "wrong_sum": N_("These cards make {total}, not {goal}. {card:The} can take {legal}."),
    "wrong_sum_no_capture": N_("These cards make {total}, not {goal}. {card:The} cannot capture anything here."),
}


#: The same under Scopa's capture rule, where a message of :data:`VERDICT_WORDS` speaks of the 15: there the cards
#: taken add up to the value of the card played, which is not part of the sum (``ok_one``: one card of that value).
SCOPA_VERDICT_WORDS = {
    "ok": N_("Right! {card:The} takes {taken}: they add up to {total}, just what the card played is worth."),
    "ok_one": N_("Right! {card:The} takes {taken}, a card of the same value."),
    "no_card": N_("Choose a card from your hand first: the cards it takes must add up to its value."),
}


def verdict_code(verdict: CaptureCheck) -> str:
    """The key of :data:`VERDICT_WORDS` for a verdict."""
    if verdict.ok:
        return "ok" if verdict.taken else "nothing"
    if verdict.reason == "wrong_sum" and not verdict.legal:
        return "wrong_sum_no_capture"
    return verdict.reason


def _verdict_text(_: Translator, verdict: CaptureCheck, rules: Rules = ESCOBA) -> str:
    code = verdict_code(verdict)
    if code not in VERDICT_WORDS:
        missing_words(code)
        return _("These cards do not make a capture.")
    words = VERDICT_WORDS[code]
    if rules.capture != "fifteen":  # Scopa: no 15, and the card played is not in the sum
        scopa_code = "ok_one" if code == "ok" and len(verdict.taken) == 1 else code
        words = SCOPA_VERDICT_WORDS.get(scopa_code, words)
    figure = {rank: _("{figure} ({value})", figure=_.rank_name(rank), value=value)
              for rank, value in ((10, 8), (11, 9), (12, 10))}
    params = {"card": _.the_card(verdict.card) if verdict.card is not None else "",
              "taken": the_cards(_, verdict.taken), "legal": alternatives(_, verdict.legal),
              "total": verdict.total, "goal": verdict.goal, "jack": figure[10], "knight": figure[11],
              "king": figure[12]}
    return sentence_start(fill(_, words, params))
