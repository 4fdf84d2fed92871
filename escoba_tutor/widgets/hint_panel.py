"""HintPanel: the moves of a position ranked by the expert, each with what it is worth and one reason in words.

The ranking and the reasons come from :func:`escoba_tutor.players.hints.hints` as data (a reason code and the cards and
numbers it names); this module only puts them into sentences from the message catalogs. A position is given by
its cards (``table``, ``hand`` and the cards already captured in this deal, ``seen``) or taken from a game as the
player's own view (``view``), so the panel never sees a hidden hand.

>>> panel = HintPanel(table="1o 7o 2c 2b", hand="3c 7e 12b", lang="en")
>>> best = panel.model.hints[0]
>>> best.move.text, best.reason.code
('3c+1o+7o+2c+2b', 'escoba')
>>> panel.model.rows(Translator("en"))[0][0]
'The three of cups, taking the ace of coins, the seven of coins, the two of cups and the two of clubs'
>>> HintPanel(table="1o 1o", hand="3c").model.error["code"]
'duplicate_card'
"""

from __future__ import annotations

from html import escape

import ipywidgets as w
from traitlets import Any, Dict, HasTraits, Int, List, Unicode, observe, validate

from ..engine.cards import DECK, as_cards
from ..engine.errors import EscobaError
from ..engine.game import Game, Move, PlayerView
from ..engine.rules import ESCOBA, Rules, as_rules
from ..players.expert import ExpertBot
from ..players.hints import Hint, Reason, hints
from ..text.error_words import error_dict, error_words, fill, missing_words
from ..text.phrases import points_number, sentence_start, the_cards
from ..text.translator import DEFAULT_LANGUAGE, N_, N_plural, Translator, normalize_language
from .primitives import LiveRegion
from .safety import guarded

__all__ = ["HintPanel", "HintModel", "move_words", "reason_words", "points_words", "position_view", "REASON_WORDS"]


# ------------------------------------------------------------------------------------------------ words
def move_words(_: Translator, move: Move) -> str:
    """A move in words: ``el tres de copas, que se lleva el as de oros y el siete de oros``; ``el rey de bastos, que se
    queda en la mesa``."""
    card = _.the_card(move.card)
    if not move.captured:
        return _("{card}, laid down on the table", card=card)
    return _("{card}, taking {taken}", card=card, taken=the_cards(_, sorted(move.captured)))


def points_words(_: Translator, value: float, sides: int = 2) -> str:
    """What a move is worth in this deal, in words: ``1.5 points more than the other side``.

    ``value`` is the expected difference of this deal's points (the student's side minus the best of the
    others), shown with one decimal as the learner's language writes it (``1,5``), a whole number without it
    (``1 point``); with three sides it is
    said against the best of the other two."""
    shown, count = points_number(_, value)
    if sides > 2:
        if abs(value) < 0.05:
            return _("as many points as the best of the other sides")
        if value > 0:
            return _.plural("{points} point more than the best of the other sides",
                            "{points} points more than the best of the other sides", count, points=shown)
        return _.plural("{points} point less than the best of the other sides",
                        "{points} points less than the best of the other sides", count, points=shown)
    if abs(value) < 0.05:
        return _("as many points as the other side")
    if value > 0:
        return _.plural("{points} point more than the other side", "{points} points more than the other side",
                        count, points=shown)
    return _.plural("{points} point less than the other side", "{points} points less than the other side", count,
                    points=shown)


#: Why a move is good or bad, by the reason code of :mod:`escoba_tutor.players.hints`.
REASON_WORDS: dict[str, str | tuple[str, str]] = {
    "escoba": N_("it takes every card on the table: an escoba, one sure point"),
    "takes_siete_de_oros": N_("it takes the seven of coins, one sure point"),
    "leaves_sweepable": N_plural("then the table adds up to {total}: a card worth {value} would take it all (an "
                                 "escoba), and {n} card like that is still unseen",
                                 "then the table adds up to {total}: a card worth {value} would take it all (an "
                                 "escoba), and {n} cards like that are still unseen"),
    "lays_siete_de_oros": N_("it leaves the seven of coins on the table, where another side could take it"),
    "takes_sevens": N_plural("it takes a seven ({cards}), good for the setenta",
                             "it takes {n} sevens ({cards}), good for the setenta"),
    "takes_oros": N_plural("it takes a coins card ({cards})", "it takes {n} coins cards ({cards})"),
    "takes_cards": N_plural("it adds {n} card to your pile", "it adds {n} cards to your pile"),
    "leaves_unsweepable": N_("then the table adds up to {total}: none of the cards still to come can take it all, "
                             "so the next player cannot make an escoba"),
    "lays_card": N_("nobody plays after it, so nobody can capture with what it leaves: the cards left go to the "
                    "last side that captured"),
}
#: The reasons that name a sweep, where the rules call it otherwise (``Rules.sweep``): Scopa's scopa.
SWEEP_REASON_WORDS: dict[tuple[str, str], str | tuple[str, str]] = {
    ("escoba", "scopa"): N_("it takes every card on the table: a scopa, one sure point"),
    ("leaves_sweepable", "scopa"): N_plural("then the table adds up to {total}: a card worth {value} would take it "
                                            "all (a scopa), and {n} card like that is still unseen",
                                            "then the table adds up to {total}: a card worth {value} would take it "
                                            "all (a scopa), and {n} cards like that are still unseen"),
    ("leaves_unsweepable", "scopa"): N_("then the table adds up to {total}: none of the cards still to come can "
                                        "take it all, so the next player cannot make a scopa"),
}
#: The reasons that call a point sure, under the renuncio house rule, keyed by the rules' word for a sweep: a side
#: that makes a renuncio scores nothing in that deal, so the point is the side's only if it makes none.
RENUNCIO_REASON_WORDS: dict[tuple[str, str], str] = {
    ("escoba", "escoba"): N_("it takes every card on the table: an escoba, one point if your side makes no renuncio "
                             "in this deal"),
    ("escoba", "scopa"): N_("it takes every card on the table: a scopa, one point if your side makes no renuncio in "
                            "this deal"),
    ("takes_siete_de_oros", "escoba"): N_("it takes the seven of coins, one point if your side makes no renuncio in "
                                          "this deal"),
    ("takes_siete_de_oros", "scopa"): N_("it takes the seven of coins, one point if your side makes no renuncio in "
                                         "this deal"),
}
_COUNTS = {"leaves_sweepable": "unseen", "takes_sevens": "count", "takes_oros": "count", "takes_cards": "count"}


def reason_words(_: Translator, reason: Reason, rules: Rules | None = None) -> str:
    """One reason of :mod:`escoba_tutor.players.hints` in words (a sweep in the word of ``rules``).

    >>> print(reason_words(Translator("es"), Reason("leaves_sweepable", total=11, sweeper_value=4, unseen=2)))
    ... # doctest: +NORMALIZE_WHITESPACE
    después, la mesa suma 11: una carta que valga 4 se la llevaría entera (escoba),
    y aún quedan 2 cartas así sin salir
    """
    code = reason.code
    if code not in REASON_WORDS:
        missing_words(code)
        return code.replace("_", " ")
    params = {"total": reason.total, "value": reason.sweeper_value, "cards": the_cards(_, reason.cards)}
    message = REASON_WORDS[code]
    if rules is not None:
        message = SWEEP_REASON_WORDS.get((code, rules.sweep), message)
        if rules.renuncio:
            message = RENUNCIO_REASON_WORDS.get((code, rules.sweep), message)
    if isinstance(message, tuple):
        singular, plural = message
        return _.plural(singular, plural, getattr(reason, _COUNTS[code]) or 0, **params)
    return fill(_, message, params)


# ------------------------------------------------------------------------------------------------ model
def position_view(table, hand, seen=(), rules=ESCOBA) -> PlayerView:
    """The view of a player about to play in a 2-player deal, built from the cards a lesson gives: ``hand``,
    ``table`` and ``seen`` (the cards already captured in this deal, in nobody's pile in particular). The
    other player holds as many cards as the learner and the rest of the deck is still to be dealt, so the
    cards not in hand, on the table or seen must make whole rounds; otherwise an :class:`EscobaError` with
    code ``bad_position`` says how many cards are missing.

    >>> view = position_view("1o 4b 7o 5c", "3c 7e 12b")
    >>> view.deck_left, view.hand_sizes
    (30, (3, 3))
    """
    rules = as_rules(rules)
    hand, table, seen = as_cards(hand), as_cards(table), as_cards(seen)
    everything = (*hand, *table, *seen)
    if len(set(everything)) != len(everything):
        twice = next(c for c in everything if everything.count(c) > 1)
        raise EscobaError(f"{twice} is given twice: a card is in one place only", code="card_in_two_places",
                          card=twice.code, token=twice.code)
    if not 1 <= len(hand) <= 3:
        raise EscobaError("a hand holds 1 to 3 cards", code="bad_hand_size")
    deck_left = len(DECK) - 2 * len(hand) - len(table) - len(seen)
    if deck_left < 0 or deck_left % 6:
        missing = (deck_left % 6) if deck_left >= 0 else deck_left
        raise EscobaError(f"these cards cannot be a moment of a 2-player deal: {missing} more cards must be "
                          "among those already captured (seen)", code="bad_position", missing=missing)
    # The game itself holds the position, so the moves and the view are the ones a game gives: the other player
    # gets as many cards as the learner from the unseen ones (the view only says how many), the rest is the deck.
    unseen = [card for card in DECK if card not in everything]
    other, deck = unseen[:len(hand)], unseen[len(hand):]
    piles = (seen[:(len(seen) + 1) // 2], seen[(len(seen) + 1) // 2:])  # shared out evenly: whose is not said
    game = Game.at_position(2, rules, dealer=1, turn=0, hands=(hand, other), table=table, deck=deck, piles=piles)
    return game.view(0)


class HintModel(HasTraits):
    """The position and its ranked hints. Inputs: ``view`` (a player's own view, from a game) or ``table``,
    ``hand`` and ``seen`` as text or cards, under ``rules``. A position that is not valid sets ``error`` and
    keeps the last valid hints: nothing is half-changed. The expert's budget is fixed, so the same position
    always gets the same hints.
    """

    view = Any(None)
    table = Any("")
    hand = Any("")
    seen = Any("")
    rules = Any(ESCOBA)
    hints: List[Hint] = List()
    error = Dict()
    revision = Int(0)

    def __init__(self, **kwargs) -> None:
        self._expert = ExpertBot(seed=0)
        self._ready = False  # one evaluation for all the inputs given, not one per input
        super().__init__(**kwargs)
        self._ready = True
        self._update()

    @observe("view", "table", "hand", "seen", "rules")
    def _changed(self, change) -> None:
        if self._ready:
            self._update()

    def set_position(self, **inputs) -> None:
        """Change several inputs at once: ``model.set_position(table="1o 4b", hand="3c 7e")``."""
        unknown = set(inputs) - {"view", "table", "hand", "seen", "rules"}
        if unknown:
            raise TypeError(f"HintModel.set_position() has no input {sorted(unknown)[0]!r}")
        with self.hold_trait_notifications():
            for name, value in inputs.items():
                setattr(self, name, value)

    def _update(self) -> None:
        try:
            view = self.view if self.view is not None else position_view(self.table, self.hand, self.seen,
                                                                          self.rules)
            if not isinstance(view, PlayerView):
                raise EscobaError("view must be a player's view from Game.view()", code="bad_view")
            ranked = hints(view, self._expert) if view.legal_moves else []
        except EscobaError as error:
            self.error = error_dict(error)
        else:
            self.error = {}
            self.hints = ranked
        self.revision += 1

    def rows(self, _: Translator, limit: int | None = None) -> list[tuple[str, str, str]]:
        """Per move, best first: the move in words, its estimated value, and the reason in words."""
        shown: list[Hint] = self.hints[:limit] if limit else self.hints
        sides = len(self.view.sides) if isinstance(self.view, PlayerView) else 2
        rules = self.view.rules if isinstance(self.view, PlayerView) else as_rules(self.rules)
        return [(sentence_start(move_words(_, h.move)), points_words(_, h.value, sides),
                 sentence_start(reason_words(_, h.reason, rules))) for h in shown]


# ------------------------------------------------------------------------------------------------- view
_STYLE = ("<style>.escoba-hints{border-collapse:collapse;background:#fffdf7;color:#1a1a1a;font-size:1rem;"
          "line-height:1.4}.escoba-hints caption{text-align:left;font-weight:700;padding:0.3em 0}"
          ".escoba-hints th,.escoba-hints td{border:1px solid #8a8a8a;padding:0.3em 0.6em;text-align:left;"
          "vertical-align:top}.escoba-hints td.num{min-width:7em}"
          ".escoba-hints tr.best{font-weight:700;background:#eef6e8}</style>")


class HintPanel(w.VBox):
    """The best moves of a position and why, as the expert sees them.

    ``HintPanel(table="1o 4b 7o 5c", hand="3c 7e 12b")``; ``seen`` lists the cards already captured in the
    deal; ``view=game.view(player)`` takes the position from a game; ``limit`` is how many moves to show
    (all by default); ``lang`` is ``es`` (default) or ``en``.
    """

    limit = Int(0)
    lang = Unicode(DEFAULT_LANGUAGE)

    def __init__(self, table="", hand="", seen="", *, view: PlayerView | None = None, rules=ESCOBA,
                 limit: int = 0, lang: str = DEFAULT_LANGUAGE, model: HintModel | None = None, **kwargs) -> None:
        self.model = model or HintModel(table=table, hand=hand, seen=seen, view=view, rules=rules)
        super().__init__(**kwargs)
        self.add_class("escoba-hint-panel")
        self._title = w.HTML()
        self._table = w.HTML(layout=w.Layout(overflow="auto", max_width="100%"))
        self._status = LiveRegion()
        self.children = [self._title, self._table, self._status]
        self.limit, self.lang = limit, lang
        self.model.observe(self._redraw, "revision")
        self._redraw()

    @validate("lang")
    def _valid_lang(self, proposal):
        return normalize_language(proposal["value"])

    @validate("limit")
    def _valid_limit(self, proposal):
        return max(0, proposal["value"])

    @observe("lang", "limit")
    def _look_changed(self, change) -> None:
        if hasattr(self, "_status"):
            self._redraw()

    @guarded
    def _redraw(self, change=None) -> None:
        _ = Translator(self.lang)
        m = self.model
        title = _("What the expert would play")
        self._title.value = f"<h3 class='escoba-title'>{escape(title)}</h3>"
        self._table.value = self._html(_)
        self._status.message = _("Check the input: {problem}", problem=error_words(_, m.error)) if m.error else ""

    def _html(self, _: Translator) -> str:
        m = self.model
        if not m.hints:
            nothing = _("There is no play to judge here.")
            return f"<p>{escape(nothing)}</p>"
        caption = _("Your plays, best first")
        move, worth, why = _("Your play"), _("By the end of the deal, on average"), _("Why")
        exact = m.hints[0].exact
        note = (_("What you can expect after this play: how many points more or less than the other side (or the "
                  "best of the other sides) you will have at the end of the deal, if everyone plays well from then on. "
                  "Every card is known here, so the numbers are exact.") if exact else
                _("What you can expect after this play: how many points more or less than the other side (or the "
                  "best of the other sides) you will have at the end of the deal, if everyone plays well from then on. "
                  "The expert does not know the other hands, so it tries many possible ways the unseen cards could be "
                  "shared out, and takes the average."))
        parts = [_STYLE, f'<table class="escoba-hints"><caption>{escape(caption)}</caption><thead><tr>'
                 f'<th scope="col">{escape(move)}</th><th scope="col">{escape(worth)}</th>'
                 f'<th scope="col">{escape(why)}</th></tr></thead><tbody>']
        for i, (words, value, reason) in enumerate(m.rows(_, self.limit or None)):
            mark = ' class="best"' if i == 0 else ""
            parts.append(f'<tr{mark}><th scope="row">{escape(words)}</th><td class="num">{escape(value)}</td>'
                         f'<td>{escape(reason)}</td></tr>')
        parts.append(f"</tbody></table><p>{escape(note)}</p>")
        return "".join(parts)
