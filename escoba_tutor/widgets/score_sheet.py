"""ScoreSheet: the end-of-deal sheet. One row per scoring line the engine reports (escobas, cards, oros, siete de
oros, setenta or primera, and every variant line), what each side had, the points, and why in words; then the
deal's total per side and, optionally, the game totals.

The sheet is built from a ``DealScore`` (as the game gives it, or a ``DealRecord``) or from piles and escobas,
which it scores with ``score_deal``. It never decides a point itself: the words come from each line's reason code.

>>> sheet = ScoreSheet(piles=["7o 7c 7e 6b", "1o 2c"], escobas=[1, 0], names=["Ana", "Luis"])
>>> sheet.model.deal.points
(4, 0)
>>> [row[0] for row in sheet.model.rows(Translator("es"))]
['Escobas', 'Cartas', 'Oros', 'Siete de oros', 'Setenta']
>>> sheet.model.rows(Translator("es"))[2][-1]
'nadie: empate a 1'
>>> item, had_0, points_0, had_1, points_1, why = sheet.model.rows(Translator("en"), ["Ana", "Luis"])[4]
>>> item, had_0, had_1, why
('Setenta', '81', 'invalid: no swords or clubs', 'Ana has the only valid setenta (81 – invalid: no swords or clubs)')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

import ipywidgets as w
from traitlets import Any, Dict, HasTraits, Instance, Int, Unicode, link, observe, validate

from ..engine.errors import EscobaError
from ..engine.game import DealRecord
from ..engine.rules import ESCOBA, Rules, as_rules
from ..engine.scoring import DealFacts, DealScore, ScoreLine, Setenta, score_deal
from ..text import labels
from ..text.error_words import error_dict, error_words, fill, missing_words
from ..text.labels import Label
from ..text.phrases import and_list, listed
from ..text.translator import DEFAULT_LANGUAGE, N_, N_plural, Translator, normalize_language
from .primitives import LiveRegion
from .safety import guarded

__all__ = ["ScoreSheet", "ScoreSheetModel", "side_names", "player_names", "join_words", "problem_text", "setenta_text",
           "item_name", "translated", "value_text", "points_text", "reason_text", "error_dict", "REASON_WORDS",
           "ITEM_NAMES"]

#: The row title of each scoring item the engine reports.
ITEM_NAMES = {
    "escobas": N_("Escobas"), "escoba_de_mano": N_("Escoba de mano at 4 points (Chile)"),
    "escoba_en_mano": N_("Escoba en mano: 15 in hand (Chile)"), "last_play_sweep": N_("Sweep with the last card"),
    "cards": N_("Cards"), "cards_bonus": N_("Cards bonus"), "oros": N_("Coins"),
    "siete_de_oros": N_("Seven of coins"), "setenta": N_("Setenta"), "primera": N_("Primera (by suits)"),
    "sevens": N_("Sevens"), "all_sevens": N_("All four sevens"), "figuras": N_("Face cards"),
    "renuncio": N_("Renuncio"),
}

#: A row or a reason in the words of the rules' game (``Rules.sweep``) where Scopa names it otherwise: its sweeps
#: are scopas, and its point by suit count is the primera (Escoba's house rule keeps the setenta's name).
SWEEP_WORDS = {("escobas", "scopa"): N_("Scopas"), ("count", "scopa"): N_("one point per scopa"),
               ("primera", "scopa"): N_("Primera")}

#: Why a line scores as it does, by the line's reason code, or by (reason, item) where the item changes the words.
#: A pair of messages speaks of the winner: the first names a side ("{winner:the} has", the form of a label
#: inside a sentence: «el bando 1 tiene», see :mod:`escoba_tutor.text.labels`), the second is for the side
#: the student reads as "you" ("you have"), so that neither sentence breaks ("You has", «Tú tiene»).
REASON_WORDS: dict[str | tuple[str, str], str | tuple[str, str]] = {
    "count": N_("one point per escoba"),
    ("most", "cards"): (N_("{winner:the} has the most cards ({values})"), N_("you have the most cards ({values})")),
    ("most", "oros"): (N_("{winner:the} has the most coins ({values})"), N_("you have the most coins ({values})")),
    ("most", "setenta"): (N_("{winner:the} has the best setenta ({values})"),
                          N_("you have the best setenta ({values})")),
    # (the only valid setenta is no "best" of one)
    "only_valid_setenta": (N_("{winner:the} has the only valid setenta ({values})"),
                           N_("you have the only valid setenta ({values})")),
    ("most", "primera"): (N_("{winner:the} has the best primera ({values})"),
                          N_("you have the best primera ({values})")),
    ("most", "sevens"): (N_("{winner:the} has the most sevens ({values})"), N_("you have the most sevens ({values})")),
    ("most", "figuras"): (N_("{winner:the} has the most face cards ({values})"),
                          N_("you have the most face cards ({values})")),
    "more_suits": (N_("{winner:the} has cards in the most suits ({values})"),
                   N_("you have cards in the most suits ({values})")),
    "tie": N_("nobody: tie at {top}"),
    # with three sides, which two (or all three) share the top: the third's lower count does not win the point
    "tie_of_three_sides": N_("nobody: tie at {top} between {tied}"),
    # TRANSLATORS: {winners}, {others} and {tied} come with their articles, as inside a sentence («el bando 2 y
    # la pareja 1», «ti»); {winner:the} is one side's in-sentence form.
    "tie_both_score": (N_("tie at {top}: {winners} each score"), N_("tie at {top}: {others} and you each score")),
    "third_side": (N_("tie at {top} between {tied}: the point goes to {winner:the}"),
                   N_("tie at {top} between {tied}: the point goes to you")),
    "holds": (N_("{winner:the} has the seven of coins"), N_("you have the seven of coins")),
    ("nobody_holds", "siete_de_oros"): N_("nobody: the seven of coins is in no pile"),
    ("nobody_holds", "all_sevens"): N_("nobody has all four sevens"),
    "all_invalid": N_("nobody: no side has cards of all four suits"),
    # (the low-cards house rule) a side may hold every suit, one of them only in face cards, which do not count
    "all_invalid_low": N_("nobody: no side has a card from 1 to 7 in every suit (face cards do not count with "
                          "this house rule)"),
    "all_oros": (N_("{winner:the} has all ten coins: 2 points"), N_("you have all ten coins: 2 points")),
    "others_below_10": (N_("{winner:the} has the most cards and every other side has fewer than 10: 1 extra point"),
                        N_("you have the most cards and every other side has fewer than 10: 1 extra point")),
    "all_four": (N_("{winner:the} has all four sevens"), N_("you have all four sevens")),
    ("chile", "escoba_de_mano"): N_("an escoba de mano is worth 4 points (Chile)"),
    ("chile", "escoba_en_mano"): N_("an escoba en mano (three cards in hand adding up to 15, shown): 3 points each "
                                    "(Chile)"),
    "not_scored_last_play": N_("a sweep with the last card of the deal does not score"),
    "renuncio": N_("a renuncio (a card laid down that could have captured): the side that made it scores nothing "
                   "in this deal, and each other side adds the points the offending side made"),
}


# ------------------------------------------------------------------------------------ words shared by widgets
def side_names(_: Translator, names: object, sides: int) -> list[Label]:
    """Each side's name: the given ones (a list of text, one per side), else "Side 1", "Side 2"... As labels
    (:mod:`escoba_tutor.text.labels`): a sentence says «el bando 2», «del bando 2».

    >>> [str(name) for name in side_names(Translator("es"), ["Ana", ""], 3)]
    ['Ana', 'Bando 2', 'Bando 3']
    >>> f"{side_names(Translator('es'), None, 2)[1]:of}"
    'del bando 2'
    """
    return _names(_, names, sides, labels.side)


def player_names(_: Translator, names: object, players: int) -> list[Label]:
    """Who deals and plays a card in a game of two: the given names, else "Player 1", "Player 2". Each player
    is a side there, but a side scores, and a player deals and plays («juega el jugador 2», not «el bando 2»).

    >>> f"{player_names(Translator('es'), None, 2)[1]:the}"
    'el jugador 2'
    """
    return _names(_, names, players, labels.player)


def _names(_: Translator, names: object, count: int, unnamed: Callable[[Translator, int], Label]) -> list[Label]:
    given = list(names) if isinstance(names, (list, tuple)) else []
    shown = []
    for i in range(count):
        name = given[i] if i < len(given) else None
        shown.append(name if isinstance(name, Label) else labels.named(_, name.strip())
                     if isinstance(name, str) and name.strip()
                     else unnamed(_, i + 1))
    return shown


def join_words(_: Translator, words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` in the learner's language."""
    return and_list(_, words)


def problem_text(_: Translator, error: dict) -> str:
    """What is wrong with an input, from an engine error's code and params (see ``error_dict``)."""
    return error_words(_, error)


def setenta_text(_: Translator, value: Setenta, *, by_suits: bool = False) -> str:
    """``70``; ``invalid: no clubs`` (``invalid: no clubs from 1 to 7`` when the low-cards house rule leaves out
    the pile's face cards of clubs); by suit count (primera), ``3 suits, 52``."""
    if by_suits:
        return _.plural("{n} suit, {total}", "{n} suits, {total}", value.suit_count, total=value.sum)
    if value.total is not None:
        return str(value.total)
    missing = listed(_, [_.suit_name(suit) for suit in value.missing])  # ("no cups or clubs")
    if value.face_only:  # (the low-cards house rule) the pile holds that suit, but only in face cards
        return _("invalid: no {suits:or} from 1 to 7", suits=missing)
    return _("invalid: no {suits:or}", suits=missing)


def translated(translator: Translator, message: str, **params: object) -> str:
    """A message chosen at run time from ids marked with ``N_`` (not named ``_`` here, so the catalog
    extractor, which reads only literal ids, does not see an empty one)."""
    return translator(message, **params)


#: A side's sweeps counted, by the rules' word for a sweep: «2 escobas», «2 scope».
SWEEP_COUNTS = {"escoba": N_plural("{n} escoba", "{n} escobas"), "scopa": N_plural("{n} scopa", "{n} scopas")}


def sweeps_count(_: Translator, n: int, rules: Rules) -> str:
    """``n`` sweeps in the word of ``rules``: ``1 escoba``, ``2 scopas``."""
    return _.plural(*SWEEP_COUNTS[rules.sweep], n)


def item_name(_: Translator, item: str, rules: Rules | None = None) -> str:
    """A line's title; the sweeps' row in the rules' word (``Scopas`` under Scopa rules)."""
    if rules is not None and (item, rules.sweep) in SWEEP_WORDS:
        return _(SWEEP_WORDS[item, rules.sweep])
    return translated(_, ITEM_NAMES[item]) if item in ITEM_NAMES else item.replace("_", " ")


def value_text(_: Translator, line: ScoreLine, side: int) -> str:
    """What one side had for a line, as the sheet shows it."""
    value = line.values[side]
    if line.item == "siete_de_oros":
        return _("yes") if value else _("no")
    if isinstance(value, Setenta):
        return setenta_text(_, value, by_suits=line.item == "primera")
    return str(value)


def points_text(line: ScoreLine, side: int) -> str:
    """A side's points on a line; the renuncio line shows changes with their sign."""
    points = line.points[side]
    if line.item == "renuncio":
        return f"{points:+d}".replace("-", "−") if points else "0"
    return str(points)


def reason_words_key(line: ScoreLine) -> object:
    """The key of :data:`REASON_WORDS` for a line: its (reason, item) when the item has words of its own."""
    if line.reason == "tie" and len(line.values) > 2:
        return "tie_of_three_sides"
    if (line.reason, line.item) == ("most", "setenta") and sum(
            isinstance(v, Setenta) and v.total is not None for v in line.values) == 1:
        return "only_valid_setenta"
    return (line.reason, line.item) if (line.reason, line.item) in REASON_WORDS else line.reason


def reason_text(_: Translator, line: ScoreLine, names: Sequence[str], you: int | None = None,
                rules: Rules | None = None) -> str:
    """Why a line scores as it does, in words, from its reason code; ``you`` is the side the student reads as
    "you" (if any).

    >>> from escoba_tutor import score_deal
    >>> line = score_deal(["7o 6c 1e", "7c 7e 6o"], [0, 0]).line("setenta")
    >>> reason_text(Translator("es"), line, ["Ana", "Luis"])
    'nadie: ningún bando tiene cartas de los cuatro palos'
    >>> line = score_deal(["7o 6c 1e", "7c 7e 6o"], [0, 0]).line("siete_de_oros")
    >>> reason_text(Translator("es"), line, ["Tú", "Ordenador"], you=0)
    'tienes el siete de oros'
    >>> reason_text(Translator("en"), line, ["Ana", "Luis"])
    'Ana has the seven of coins'
    """
    if rules is not None and (line.reason, rules.sweep) in SWEEP_WORDS:
        return _(SWEEP_WORDS[line.reason, rules.sweep])
    key = reason_words_key(line)
    if key not in REASON_WORDS:
        missing_words(key)
        return line.reason.replace("_", " ")
    message = REASON_WORDS[key]
    you = student_side(names, you)
    if isinstance(message, tuple):
        message = message[1] if you is not None and you in line.winners else message[0]
    shown = [value_text(_, line, i) for i in range(len(line.values))]
    # Each side as a label with its forms: the message says «el bando 1 tiene», «para el ordenador»; inside a
    # list, "you" is the pronoun.
    sides = [name if isinstance(name, Label) else labels.named(_, name) for name in names]
    in_sentence = [_("you") if i == you else sides[i].the for i in range(len(sides))]
    params: dict[str, object] = {
        "winner": labels.joined(_, [sides[i] for i in line.winners]),
        "winners": and_list(_, [in_sentence[i] for i in line.winners]), "values": " – ".join(shown),
        "others": and_list(_, [in_sentence[i] for i in line.winners if i != you])}
    if line.reason in ("tie", "tie_both_score", "third_side"):
        params["top"] = _top_text(_, line, shown)
        params["tied"] = and_list(_, [in_sentence[i] for i in line.top_sides])
    return fill(_, message, params)


def student_side(names: object, you: int | None = None) -> int | None:
    """The side the student reads as "you": ``you`` when given, else the side named with the student's own
    label (:func:`escoba_tutor.text.labels.you`), so that a "you" label never lands in a sentence written for a
    third person («tú tiene», «para tú», "You has")."""
    if you is not None or not isinstance(names, (list, tuple)):
        return you
    return next((i for i, name in enumerate(names) if isinstance(name, Label) and name.is_you), None)


def _top_text(_: Translator, line: ScoreLine, shown: list[str]) -> str:
    return shown[line.top_sides[0]]


# ------------------------------------------------------------------------------------------------- model
class ScoreSheetModel(HasTraits):
    """The deal shown and where it came from. Inputs: ``score`` (a ``DealScore`` or ``DealRecord``), or
    ``piles`` + ``escobas`` (+ ``facts``) scored under ``rules``; ``totals`` the game totals (optional).

    An input that is not valid sets ``error`` and keeps the last valid sheet: nothing is half-changed.
    """

    score = Any(None)
    piles = Any(None)
    escobas = Any(None)
    facts = Any(None)
    totals = Any(None)
    rules = Any(ESCOBA)
    #: The sheet shown: the last valid deal score (None: nothing to show yet) and its game totals.
    deal = Instance(DealScore, allow_none=True)
    game_totals = Any(None)
    error = Dict()
    revision = Int(0)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._update()

    @observe("score", "piles", "escobas", "facts", "totals", "rules")
    def _changed(self, change) -> None:
        self._update()

    def set_deal(self, **inputs) -> None:
        """Change several inputs at once (e.g. ``piles`` and ``escobas`` for another number of sides)."""
        with self.hold_trait_notifications():
            for name, value in inputs.items():
                if name not in ("score", "piles", "escobas", "facts", "totals", "rules"):
                    raise TypeError(f"ScoreSheetModel.set_deal() has no input {name!r}")
                setattr(self, name, value)

    def _update(self) -> None:
        try:
            deal, totals = self._score()
        except EscobaError as error:
            self.error = error_dict(error)
        else:
            self.error = {}
            self.deal, self.game_totals = deal, totals
        self.revision += 1

    def _score(self) -> tuple[DealScore | None, tuple[int, ...] | None]:
        score, totals = self.score, self.totals
        if isinstance(score, DealRecord):
            record = score
            score, totals = record.score, (record.totals if totals is None else totals)
        if score is not None and not isinstance(score, DealScore):
            raise EscobaError("score must be a DealScore or a DealRecord", code="bad_score")
        if score is None and self.piles is not None:
            piles = self.piles
            if isinstance(piles, (str, bytes)) or not isinstance(piles, (list, tuple)):
                raise EscobaError("piles must be a list with one pile of cards per side", code="bad_piles")
            escobas = [0] * len(piles) if self.escobas is None else self.escobas
            facts = self.facts
            if facts is not None and not isinstance(facts, DealFacts):
                raise EscobaError("facts must be a DealFacts", code="bad_facts")
            score = score_deal(piles, escobas, as_rules(self.rules), facts=facts)
        if score is None:
            return None, None
        if totals is not None:
            sides = len(score.points)
            if (not isinstance(totals, (list, tuple)) or len(totals) != sides
                    or not all(type(t) is int for t in totals)):
                raise EscobaError(f"totals must be {sides} whole numbers, one per side", code="bad_totals")
            totals = tuple(totals)
        return score, totals

    def rows(self, _: Translator, names: object = None, you: int | None = None) -> list[list[str]]:
        """The sheet's body as text: per line, the item, each side's value and points, and the reason (``you``:
        the side the student reads as "you")."""
        if self.deal is None:
            return []
        shown = side_names(_, names, len(self.deal.points))
        try:
            rules: Rules | None = as_rules(self.rules)
        except EscobaError:  # (bad rules are explained by the status line, and the last sheet stays)
            rules = None
        rows = []
        for line in self.deal.lines:
            cells = [item_name(_, line.item, rules)]
            for side in range(len(line.values)):
                cells += [value_text(_, line, side), points_text(line, side)]
            rows.append([*cells, reason_text(_, line, shown, you, rules)])
        return rows


# -------------------------------------------------------------------------------------------------- view
# One style block per sheet, scoped to its class; fixed colours (as the primitives' CSS) so any theme reads it.
# The caption names the table for screen readers only: the heading above already shows "Points for the deal", and
# the sheet says it once.
_STYLE = ("<style>.escoba-sheet{border-collapse:collapse;background:#fffdf7;color:#1a1a1a;font-size:1rem;"
          "line-height:1.4;min-width:20em}.escoba-sheet caption{position:absolute;width:1px;height:1px;"
          "overflow:hidden;clip-path:inset(50%);white-space:nowrap}"
          ".escoba-sheet th,.escoba-sheet td{border:1px solid #8a8a8a;padding:0.3em 0.6em;text-align:left;"
          "vertical-align:top}.escoba-sheet td.num{text-align:right}.escoba-sheet tfoot{font-weight:700}</style>")


class ScoreSheet(w.VBox):
    """The points of one deal, line by line, for every side.

    ``ScoreSheet(score=game.deals[-1])`` or ``ScoreSheet(piles=["7o 6c 1e 5b", "7c 7e 6o"], escobas=[1, 0])``;
    ``names`` names the sides; ``rules`` (a profile name or ``Rules``) scores piles; ``facts`` (a
    ``DealFacts``) carries what some variants score besides the piles; ``totals`` adds the game totals row;
    ``lang`` is ``es`` (default) or ``en``. A lesson may set any of these later.
    """

    score = Any(None)
    piles = Any(None)
    escobas = Any(None)
    facts = Any(None)
    totals = Any(None)
    rules = Any(ESCOBA)
    names = Any(None)
    #: The side the student reads as "you" (its sentences say "you have", not "You has"), or None.
    you = Any(None)
    lang = Unicode(DEFAULT_LANGUAGE)

    _INPUTS = ("score", "piles", "escobas", "facts", "totals", "rules")

    def __init__(self, score: DealScore | DealRecord | None = None, piles=None, escobas=None, names=None,
                 rules: Rules | str = ESCOBA, lang: str = DEFAULT_LANGUAGE, *, totals=None,
                 facts: DealFacts | None = None, you: int | None = None, model: ScoreSheetModel | None = None,
                 **kwargs) -> None:
        self.model = model or ScoreSheetModel(score=score, piles=piles, escobas=escobas, facts=facts, totals=totals,
                                              rules=rules)
        super().__init__(**kwargs)
        self.add_class("escoba-score-sheet")
        self._title = w.HTML()
        self._table = w.HTML(layout=w.Layout(overflow="auto", max_width="100%"))
        self._status = LiveRegion()
        self.children = [self._title, self._table, self._status]
        for name in self._INPUTS:  # the model's values first: a link copies left to right
            self.set_trait(name, getattr(self.model, name))
        self._links = [link((self.model, name), (self, name)) for name in self._INPUTS]
        self.names, self.you, self.lang = names, you, lang
        self.model.observe(self._redraw, "revision")
        self._redraw()

    def set_deal(self, **inputs) -> None:
        """Change several inputs at once: ``sheet.set_deal(piles=[...], escobas=[...])``."""
        self.model.set_deal(**inputs)

    @validate("lang")
    def _valid_lang(self, proposal):
        return normalize_language(proposal["value"])

    @observe("lang", "names", "you")
    def _look_changed(self, change) -> None:
        if hasattr(self, "_status"):
            self._redraw()

    @guarded
    def _redraw(self, change=None) -> None:
        _ = Translator(self.lang)
        m = self.model
        # Text first, then markup: a _() call inside an f-string is not seen by the catalog extractor.
        title, nothing = _("Points for the deal"), _("No deal to score yet.")
        self._title.value = f"<h3 class='escoba-title'>{escape(title)}</h3>"
        self._table.value = self._html(_, m.deal) if m.deal is not None else f"<p>{escape(nothing)}</p>"
        self._status.message = _("Check the input: {problem}", problem=problem_text(_, m.error)) if m.error else ""

    def _html(self, _: Translator, deal: DealScore) -> str:
        m = self.model
        sides = len(deal.points)
        names = side_names(_, self.names, sides)
        head_sides = "".join(f'<th scope="colgroup" colspan="2">{escape(n)}</th>' for n in names)
        # the column of what a side holds agrees with its side: «Bando 1 · Tiene», but «Tú · Tienes» ("Side 1 ·
        # Holds", "You · You have")
        you = student_side(self.names, self.you)
        had = [_("You have") if i == you else _("Holds") for i in range(sides)]
        points = _("Points")
        sub = "".join(f'<th scope="col">{escape(h)}</th><th scope="col">{escape(points)}</th>' for h in had)
        item, why, caption = escape(_("Point")), escape(_("Why")), escape(_("Points for the deal"))
        parts = [_STYLE, f'<table class="escoba-sheet"><caption>{caption}</caption>',
                 f'<thead><tr><th scope="col" rowspan="2">{item}</th>{head_sides}'
                 f'<th scope="col" rowspan="2">{why}</th></tr><tr>{sub}</tr></thead><tbody>']
        # Each cell names its column (data-label): a narrow screen shows every point as a block of labelled lines.
        cell_labels = [escape(f"{n} · {h}", quote=True) for n, holds in zip(names, had) for h in (holds, points)]
        why_label = escape(_("Why"), quote=True)
        for row in m.rows(_, self.names, you):
            cells = "".join(f'<td class="num" data-label="{label}">{escape(c)}</td>'
                            for label, c in zip(cell_labels, row[1:-1]))
            parts.append(f'<tr><th scope="row">{escape(row[0])}</th>{cells}'
                         f'<td data-label="{why_label}">{escape(row[-1])}</td></tr>')
        parts.append("</tbody><tfoot>")
        parts.append(self._total_row(_("Total of the deal"), [str(p) for p in deal.points], names))
        if m.game_totals is not None:
            parts.append(self._total_row(_("Game total"), [str(t) for t in m.game_totals], names))
        parts.append("</tfoot></table>")
        return "".join(parts)

    @staticmethod
    def _total_row(title: str, values: list[str], names: Sequence[str]) -> str:
        cells = "".join(f'<td class="num"></td><td class="num" data-label="{escape(name, quote=True)}">{escape(v)}</td>'
                        for name, v in zip(names, values))
        return f'<tr><th scope="row">{escape(title)}</th>{cells}<td></td></tr>'
