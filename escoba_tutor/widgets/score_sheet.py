"""ScoreSheet: the end-of-deal sheet. One row per scoring line the engine reports (escobas, cards, oros, siete de
oros, setenta or primera, and every variant line), what each side had, the points, and why in words; then the
deal's total per side and, optionally, the game totals.

The sheet is built from a ``DealScore`` (as the game gives it, or a ``DealRecord``) or from piles and escobas,
which it scores with ``score_deal``. It never decides a point itself: the words come from each line's reason code.

>>> sheet = ScoreSheet(piles=["7o 7c 7e 6b", "1o 2c"], escobas=[1, 0], names=["Ana", "Luis"])
>>> sheet.model.deal.points
(4, 0)
>>> [row[0] for row in sheet.model.rows(Translator("es"))]
['Escobas', 'Cartas', 'Oros', 'Siete de oros (velo)', 'Setenta']
>>> sheet.model.rows(Translator("es"))[2][-1]
'nadie: empate a 1'
>>> item, had_0, points_0, had_1, points_1, why = sheet.model.rows(Translator("en"), ["Ana", "Luis"])[4]
>>> item, had_0, had_1, why
('Setenta', '81', 'invalid: no swords and clubs', 'Ana has the best setenta (81 – invalid: no swords and clubs)')
"""

from __future__ import annotations

from html import escape

import ipywidgets as w
from traitlets import Any, Dict, HasTraits, Instance, Int, Unicode, link, observe, validate

from ..errors import EscobaError
from ..game import DealRecord
from ..rules import ESCOBA, Rules, as_rules
from ..scoring import DealFacts, DealScore, ScoreLine, Setenta, score_deal
from .i18n import DEFAULT_LANGUAGE, N_, Translator, normalize_language
from .primitives import LiveRegion
from .safety import guarded

__all__ = ["ScoreSheet", "ScoreSheetModel", "side_names", "join_words", "problem_text", "setenta_text",
           "item_name", "translated", "value_text", "points_text", "reason_text"]

#: The row title of each scoring item the engine reports.
ITEM_NAMES = {
    "escobas": N_("Escobas"), "escoba_de_mano": N_("Escoba de mano (Chile)"),
    "escoba_en_mano": N_("Escoba en mano (Chile)"), "last_play_sweep": N_("Sweep with the last card"),
    "cards": N_("Cards"), "cards_bonus": N_("Cards bonus"), "oros": N_("Oros"),
    "siete_de_oros": N_("Siete de oros (velo)"), "setenta": N_("Setenta"), "primera": N_("Primera (by suits)"),
    "sevens": N_("Sevens"), "all_sevens": N_("All four sevens"), "figuras": N_("Figures"),
    "renuncio": N_("Renuncio"),
}

# "{winner} has the most ...": the sentence of the reason "most" for each item.
_MOST = {
    "cards": N_("{winner} has the most cards ({values})"),
    "oros": N_("{winner} has the most oros ({values})"),
    "setenta": N_("{winner} has the best setenta ({values})"),
    "primera": N_("{winner} has the best primera ({values})"),
    "sevens": N_("{winner} has the most sevens ({values})"),
    "figuras": N_("{winner} has the most figures ({values})"),
}


# ------------------------------------------------------------------------------------ words shared by widgets
def side_names(_: Translator, names: object, sides: int) -> list[str]:
    """Each side's name: the given ones (a list of text, one per side), else "Side 1", "Side 2"...

    >>> side_names(Translator("es"), ["Ana", ""], 3)
    ['Ana', 'Bando 2', 'Bando 3']
    """
    given = list(names) if isinstance(names, (list, tuple)) else []
    shown = []
    for i in range(sides):
        name = given[i] if i < len(given) else None
        shown.append(name.strip() if isinstance(name, str) and name.strip() else _("Side {n}", n=i + 1))
    return shown


def join_words(_: Translator, words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` in the learner's language."""
    if len(words) <= 1:
        return "".join(words)
    first, last = ", ".join(words[:-1]), words[-1]
    return _("{first} and {last}", first=first, last=last)


def problem_text(_: Translator, error: dict) -> str:
    """What is wrong with an input, from an engine error's code and params (see ``error_dict``)."""
    code = error.get("code")
    token, card = error.get("token", ""), error.get("card", "")
    if code in ("bad_card", "empty_card"):
        return _("“{token}” is not a card: write codes like 7o, 10e, 12b (or 7D, JS, KC)", token=token)
    if code == "not_text":
        return _("write the cards as text, like 7o 6c 1e 5b")
    if code == "duplicate_card":
        return _("{card} is written twice: the deck has only one", card=card)
    if code == "card_in_two_piles":
        return _("{card} is in two piles: each card is captured only once", card=card)
    if code == "side_count":
        return _("a deal is scored for 2 to 4 sides")
    if code == "bad_piles":
        return _("give one pile of cards per side, like [\"7o 6c 1e 5b\", \"7c 7e 6o\"]")
    if code == "bad_escobas":
        return _("escobas: one whole number per side, from 0 to 40")
    if code == "bad_totals":
        return _("game totals: one whole number per side")
    if code == "bad_score":
        return _("this is not the score of a deal")
    if code == "rules_players":
        return _("these rules need another number of players")
    if code in ("bad_rules", "unknown_profile", "unknown_option", "rules_conflict"):
        return _("these rules are not valid")
    if code == "bad_seed":
        return _("a position number is a whole number, 0 or more")
    if code == "bad_kind":
        return _("the drills are: captures, setenta and points")
    return _("something in the input is not valid")


def error_dict(error: EscobaError) -> dict:
    """An engine error as a plain dict (code, English message, params as text) for a model's ``error`` trait."""
    return {"code": error.code, "message": str(error), **{k: str(v) for k, v in error.params.items()}}


def setenta_text(_: Translator, value: Setenta, *, by_suits: bool = False) -> str:
    """``70``; ``invalid: no clubs``; by suit count (primera), ``3 suits, 52``."""
    if by_suits:
        return _.plural("{n} suit, {total}", "{n} suits, {total}", value.suit_count, total=value.sum)
    if value.total is not None:
        return str(value.total)
    missing = join_words(_, [_.suit_name(suit) for suit in value.missing])
    return _("invalid: no {suits}", suits=missing)


def translated(translator: Translator, message: str, **params: object) -> str:
    """A message chosen at run time from ids marked with ``N_`` (not named ``_`` here, so the catalog
    extractor, which reads only literal ids, does not see an empty one)."""
    return translator(message, **params)


def item_name(_: Translator, item: str) -> str:
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


def reason_text(_: Translator, line: ScoreLine, names: list[str]) -> str:
    """Why a line scores as it does, in words, from its reason code.

    >>> from escoba_tutor import score_deal
    >>> line = score_deal(["7o 6c 1e", "7c 7e 6o"], [0, 0]).line("setenta")
    >>> reason_text(Translator("es"), line, ["Ana", "Luis"])
    'nadie: ningún bando tiene cartas de los cuatro palos'
    """
    winners = join_words(_, [names[i] for i in line.winners])
    shown = [value_text(_, line, i) for i in range(len(line.values))]
    values = " – ".join(shown)
    reason = line.reason
    if reason == "count":
        return _("one point per escoba")
    if reason == "most" and line.item in _MOST:
        return translated(_, _MOST[line.item], winner=winners, values=values)
    if reason == "more_suits":
        return _("{winner} holds more suits ({values})", winner=winners, values=values)
    if reason in ("tie", "tie_both_score", "third_side"):
        top = _top_text(_, line, shown)
        if reason == "tie":
            return _("nobody: tie at {top}", top=top)
        if reason == "tie_both_score":
            return _("tie at {top}: {winners} each score", top=top, winners=winners)
        tied = join_words(_, [names[i] for i in _tied_sides(line)])
        return _("{tied} tie at {top}: the point goes to {winner}", tied=tied, top=top, winner=winners)
    if reason == "holds":
        return _("the siete de oros is {winner}'s", winner=winners)
    if reason == "nobody_holds":
        if line.item == "all_sevens":
            return _("nobody has all four sevens")
        return _("nobody: the siete de oros is in no pile")
    if reason == "all_invalid":
        return _("nobody: no side has cards of all four suits")
    if reason == "all_oros":
        return _("{winner} has all ten oros: 2 points", winner=winners)
    if reason == "others_below_10":
        return _("{winner} has the most cards and every other side fewer than 10: one more point", winner=winners)
    if reason == "all_four":
        return _("{winner} has all four sevens", winner=winners)
    if reason == "chile":
        if line.item == "escoba_de_mano":
            return _("an escoba de mano is worth 4 points (Chile)")
        return _("a hand adding up to 15, shown: 3 points each (Chile)")
    if reason == "not_scored_last_play":
        return _("a sweep with the last card of the deal does not score")
    if reason == "renuncio":
        offenders = join_words(_, [names[i] for i, n in enumerate(line.values) if n])
        return _("renuncio by {offenders}: no points for them, and the others add those points",
                 offenders=offenders)
    return reason


def _tied_sides(line: ScoreLine) -> list[int]:
    """The sides sharing the top value of a line (the engine's line says there is a tie; this finds who)."""
    keys = [_key(v) for v in line.values]
    top = max(keys)
    return [i for i, k in enumerate(keys) if k == top]


def _key(value: object) -> object:
    if isinstance(value, Setenta):
        return (value.suit_count, value.sum) if value.total is None else (4, value.total)
    return value


def _top_text(_: Translator, line: ScoreLine, shown: list[str]) -> str:
    return shown[_tied_sides(line)[0]]


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
            score, totals = score.score, (score.totals if totals is None else totals)
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

    def rows(self, _: Translator, names: object = None) -> list[list[str]]:
        """The sheet's body as text: per line, the item, each side's value and points, and the reason."""
        if self.deal is None:
            return []
        shown = side_names(_, names, len(self.deal.points))
        rows = []
        for line in self.deal.lines:
            cells = [item_name(_, line.item)]
            for side in range(len(line.values)):
                cells += [value_text(_, line, side), points_text(line, side)]
            rows.append([*cells, reason_text(_, line, shown)])
        return rows


# -------------------------------------------------------------------------------------------------- view
# One style block per sheet, scoped to its class; fixed colours (as the primitives' CSS) so any theme reads it.
_STYLE = ("<style>.escoba-sheet{border-collapse:collapse;background:#fffdf7;color:#1a1a1a;font-size:1rem;"
          "line-height:1.4;min-width:20em}.escoba-sheet caption{text-align:left;font-weight:700;padding:0.3em 0}"
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
    lang = Unicode(DEFAULT_LANGUAGE)

    _INPUTS = ("score", "piles", "escobas", "facts", "totals", "rules")

    def __init__(self, score: DealScore | DealRecord | None = None, piles=None, escobas=None, names=None,
                 rules: Rules | str = ESCOBA, lang: str = DEFAULT_LANGUAGE, *, totals=None,
                 facts: DealFacts | None = None, model: ScoreSheetModel | None = None, **kwargs) -> None:
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
        self.names, self.lang = names, lang
        self.model.observe(self._redraw, "revision")
        self._redraw()

    def set_deal(self, **inputs) -> None:
        """Change several inputs at once: ``sheet.set_deal(piles=[...], escobas=[...])``."""
        self.model.set_deal(**inputs)

    @validate("lang")
    def _valid_lang(self, proposal):
        return normalize_language(proposal["value"])

    @observe("lang", "names")
    def _look_changed(self, change) -> None:
        if hasattr(self, "_status"):
            self._redraw()

    @guarded
    def _redraw(self, change=None) -> None:
        _ = Translator(self.lang)
        m = self.model
        # Text first, then markup: a _() call inside an f-string is not seen by the catalog extractor.
        title, nothing = _("Points of the deal"), _("No deal to score yet.")
        self._title.value = f"<h3 class='escoba-title'>{escape(title)}</h3>"
        self._table.value = self._html(_) if m.deal is not None else f"<p>{escape(nothing)}</p>"
        self._status.message = _("Check the input: {problem}", problem=problem_text(_, m.error)) if m.error else ""

    def _html(self, _: Translator) -> str:
        m = self.model
        sides = len(m.deal.points)
        names = side_names(_, self.names, sides)
        head_sides = "".join(f'<th scope="colgroup" colspan="2">{escape(n)}</th>' for n in names)
        had, points = escape(_("Had")), escape(_("Points"))
        sub = "".join(f'<th scope="col">{had}</th><th scope="col">{points}</th>' for _n in names)
        item, why, caption = escape(_("Item")), escape(_("Why")), escape(_("Points of the deal"))
        parts = [_STYLE, f'<table class="escoba-sheet"><caption>{caption}</caption>',
                 f'<thead><tr><th scope="col" rowspan="2">{item}</th>{head_sides}'
                 f'<th scope="col" rowspan="2">{why}</th></tr><tr>{sub}</tr></thead><tbody>']
        # Each cell names its column (data-label): a narrow screen shows every point as a block of labelled lines.
        labels = [escape(f"{n} · {h}", quote=True) for n in names for h in (_("Had"), _("Points"))]
        why_label = escape(_("Why"), quote=True)
        for row in m.rows(_, self.names):
            cells = "".join(f'<td class="num" data-label="{label}">{escape(c)}</td>'
                            for label, c in zip(labels, row[1:-1]))
            parts.append(f'<tr><th scope="row">{escape(row[0])}</th>{cells}'
                         f'<td data-label="{why_label}">{escape(row[-1])}</td></tr>')
        parts.append("</tbody><tfoot>")
        parts.append(self._total_row(_("Total of the deal"), [str(p) for p in m.deal.points], names))
        if m.game_totals is not None:
            parts.append(self._total_row(_("Game total"), [str(t) for t in m.game_totals], names))
        parts.append("</tfoot></table>")
        return "".join(parts)

    @staticmethod
    def _total_row(title: str, values: list[str], names: list[str]) -> str:
        cells = "".join(f'<td class="num"></td><td class="num" data-label="{escape(name, quote=True)}">{escape(v)}</td>'
                        for name, v in zip(names, values))
        return f'<tr><th scope="row">{escape(title)}</th>{cells}<td></td></tr>'
