"""What the page was asked for: URL parameters and the server's settings, checked, for a lesson cell.

Under Voilà the kernel sees the page's query string (``?seed=7&table=1o+4b+7o&hand=3c``) in ``QUERY_STRING``,
and ``escoba-tutor --rules scopa`` sets ``ESCOBA_TUTOR_RULES`` for every kernel. A bad parameter never breaks
the page: it is ignored, and :meth:`Page.with_notice` shows the learner what was wrong, in their language.
:meth:`Page.with_notice` also adds a :class:`ConnectionWatch`, which tells the learner when the page has lost
its server session (a killed kernel, a culled session, a restarted server) instead of leaving it frozen.

>>> p = Page("es", query="seed=12&table=1o+4b+7o&hand=8o")
>>> p.seed(0), [c.code for c in p.cards("table", "")], p.text("hand", "3c")
(12, ['1o', '4b', '7o'], '3c')
>>> [problem[0] for problem in p.problems]
['hand']
>>> p = Page("en", query="table=1o+4b&hand=4b")   # a hand card also on the table: the hand is not used
>>> p.text("table", ""), p.text("hand", "3c"), p.problems
('1o 4b', '3c', [('hand', 'card_in_both', {'card': '4b'})])

A lesson cell shows a widget with one call, so the plumbing stays out of what a student reads::

    from escoba_tutor.widgets.page import show_capture_table
    show_capture_table("es", table="1o 4b 7o", hand="3c")

Every ``show_*`` function reads the current page (:func:`current_page`: the address and the server's rules,
read once per kernel, that is once per Voilà page) and follows the same rules:

- the first widget a page shows carries the note about unused parameters and the connection watch;
- ``?seed=N`` replaces the ``seed`` of every drill and game on the page (so a whole class sees the same one);
- ``?table=...&hand=...`` replaces the cards of the page's first board that takes them (a capture table or a
  hint panel); later boards keep the cards the lesson gives them;
- ``rules=None`` means the server's rules (``escoba-tutor --rules ...``); a lesson about another rule set names it;
- ``?rules=NAME`` (``scopa``, ``escoba+target=31``) replaces the server's rules on the page: the class board links
  an exercise to the rules it was answered under. A lesson that names its rules keeps them.
"""

from __future__ import annotations

import html
import os
import re
import sys
import typing
from pathlib import Path
from urllib.parse import parse_qs

import anywidget
import ipywidgets as w
import traitlets as t

from ..engine.cards import parse_cards
from ..engine.errors import EscobaError
from ..engine.rules import ESCOBA, Rules, rules_by_name
from ..records.kernel import record_lesson_opened
from ..text.translator import LANGUAGES, N_, Translator, normalize_language
from .capture_table import MAX_HAND, MAX_TABLE, error_text
from .seeds import MAX_WIDGET_SEED

__all__ = ["Page", "page", "ConnectionWatch", "current_page", "show_capture_table", "show_hints", "show_setenta",
           "show_score_sheet", "show_drill", "show_game", "show_tournament", "show_engine", "show_class_exercise",
           "show_tables"]

MAX_PARAMETER = 200  # characters: longer values are refused before parsing
MAX_QUERY = 2000     # characters: a longer address is not read at all (cutting it could change a value)
_WHOLE_NUMBER = re.compile(r"[0-9]{1,20}")  # ASCII digits only: int() also reads "١٢" and "１２"
_CARD_PARAMETERS = ("table", "hand")
_MOST_CARDS = {"table": MAX_TABLE, "hand": MAX_HAND}
_STATIC = Path(__file__).with_name("static")
_PAGE_CSS = (_STATIC / "page.css").read_text(encoding="utf-8")


class ConnectionWatch(anywidget.AnyWidget):
    """Invisible; on a Voilà page it shows a banner, in the page's language, when the page has lost its
    kernel: killed (the server restarts it empty), culled or shut down, or the server stopped or restarted.
    The banner says what happened and offers a reload; the learner's resume code brings their game back.

    The watching is done in the browser (``static/connection.js``): a page without its kernel cannot ask
    Python anything. ``check_every`` is how often, in seconds, the browser asks the server whether the page's
    kernel still exists (a click or a key press asks too). ``server`` is False where Python runs in the page
    itself (the static site, Pyodide): there is no server to lose, so the watch says nothing and asks nothing.

    >>> ConnectionWatch(lang="en").texts["reload"]
    'Reload the page'
    """

    _esm = (_STATIC / "connection.js").read_text(encoding="utf-8")
    _css = (_STATIC / "connection.css").read_text(encoding="utf-8")

    lang = t.Unicode("es")
    texts = t.Dict(value_trait=t.Unicode(), key_trait=t.Unicode()).tag(sync=True)
    check_every = t.Float(10.0, min=1.0, max=600.0).tag(sync=True)
    server = t.Bool(True).tag(sync=True)

    @t.validate("lang")
    def _valid_lang(self, proposal):
        return normalize_language(proposal["value"])

    @t.observe("lang")
    def _lang_changed(self, change) -> None:
        self.texts = self._texts()

    def __init__(self, lang: str = "es", **kwargs) -> None:
        super().__init__(lang=lang, **kwargs)
        self.texts = self._texts()

    def _texts(self) -> dict[str, str]:
        _ = Translator(self.lang)
        return {
            "title": _("The connection to the server was lost: this page no longer answers."),
            "ended": _("This page's session on the server has ended: it stopped, or it was left unused for a "
                       "while, or the server was restarted."),
            "unreachable": _("The server cannot be reached: it may have stopped, or the network is down."),
            "advice": _("Reload the page. If you were playing a game, paste your resume code (or load the game "
                        "you downloaded) to go on where you left off."),
            "reload": _("Reload the page"),
        }


class Page:
    """The settings of one lesson page: ``Page("es")`` reads the URL and the server; ``query`` is for tests."""

    def __init__(self, lang: str, query: str | None = None) -> None:
        self.lang = normalize_language(lang)
        query = os.environ.get("QUERY_STRING", "") if query is None else query
        self.problems: list[tuple[str, str, dict]] = []  # (parameter, code, details)
        self._params: dict[str, str] = {}
        self._used: dict[str, tuple] = {}  # the cards each card parameter gave, to keep table and hand apart
        if len(query) > MAX_QUERY:
            self.problems.append(("address", "too_long", {}))
            query = ""
        for name, values in parse_qs(query, keep_blank_values=True).items():
            if len(values) > 1:  # ?seed=1&seed=2: which one was meant cannot be known
                self.problems.append((name[:20], "repeated", {}))
            else:
                self._params[name] = values[0]
        self.rules = self._server_rules()
        self._noticed = False          # the first widget shown carries the notice and the connection watch
        self._position_given = False   # ?table= and ?hand= go to the first board that takes cards
        asked = self._params.get("lang")
        if asked is not None and asked not in LANGUAGES:
            self.problems.append(("lang", "bad_lang", {"value": asked[:20]}))

    def _server_rules(self) -> Rules:
        asked = self._raw("rules")
        if asked:
            try:
                return rules_by_name(asked)
            except EscobaError:
                self.problems.append(("rules", "bad_address_rules", {"value": asked[:40]}))
        name = os.environ.get("ESCOBA_TUTOR_RULES", "")
        if not name:
            return ESCOBA
        try:
            return rules_by_name(name)
        except EscobaError:
            self.problems.append(("rules", "bad_rules", {"value": name[:40]}))
            return ESCOBA

    def _raw(self, name: str) -> str | None:
        value = self._params.get(name)
        if value is not None and len(value) > MAX_PARAMETER:
            self.problems.append((name, "too_long", {}))
            return None
        return value

    def seed(self, default: int | None) -> int | None:
        """``?seed=N``, a whole number from 0 to MAX_WIDGET_SEED (2**53 - 2); otherwise ``default``."""
        raw = self._raw("seed")
        if raw is None or raw == "":
            return default
        digits = raw.strip()
        if not _WHOLE_NUMBER.fullmatch(digits) or int(digits) > MAX_WIDGET_SEED:
            self.problems.append(("seed", "bad_seed", {"value": raw[:24], "max": MAX_WIDGET_SEED}))
            return default
        return int(digits)

    def cards(self, name: str, default: str):
        """``?table=...`` or ``?hand=...`` as cards (``+`` or spaces between codes); otherwise ``default``.

        The table and the hand never share a card, and hold at most the cards a capture table shows."""
        raw = self._raw(name)
        chosen = parse_cards(default)
        if raw is not None:
            try:
                asked = parse_cards(raw)
                self._check_position(name, asked)
                chosen = asked
            except EscobaError as error:
                self.problems.append((name, error.code, {k: str(v) for k, v in error.params.items()}))
        taken = {card for other, cards in self._used.items() if other != name for card in cards}
        chosen = tuple(card for card in chosen if card not in taken)  # a default never repeats a card either
        if name in _CARD_PARAMETERS:
            self._used[name] = chosen
        return chosen

    def _check_position(self, name: str, cards: tuple) -> None:
        most = _MOST_CARDS.get(name)
        if most is not None and len(cards) > most:
            raise EscobaError(f"the {name} holds at most {most} cards", code=f"{name}_too_big", count=len(cards))
        for other, used in self._used.items():
            both = set(cards) & set(used)
            if other != name and both:
                card = min(both)
                raise EscobaError(f"{card} cannot be in the hand and on the table at once", code="card_in_both",
                                  card=card.code)

    def text(self, name: str, default: str) -> str:
        """Card text for a widget: the parameter when it names valid cards, else ``default``."""
        return " ".join(card.code for card in self.cards(name, default))

    def notice(self) -> w.HTML:
        """A short note for every parameter that was not used, or an empty widget."""
        _ = Translator(self.lang)
        items = []
        for name, code, details in self.problems:
            if code == "bad_lang":
                said = _("The language “{value}” is not available: choose es or en.", value=details["value"])
            elif code == "bad_seed":
                said = _("The exercise number “{value}” is not valid: it must be a whole number from 0 to {max}.",
                         value=details["value"], max=details["max"])
            elif code == "too_long" and name == "address":
                said = _("The address is too long, so none of its settings were used.")
            elif code == "too_long":
                said = _("The setting “{name}” in the address is too long, so it was ignored.", name=name)
            elif code == "repeated":
                said = _("The setting “{name}” appears more than once in the address, so it was ignored.", name=name)
            elif code == "bad_rules":
                said = _("The server's rules “{value}” are unknown: the usual rules are used.", value=details["value"])
            elif code == "bad_address_rules":
                said = _("The rules “{value}” in the address are unknown: the page's own rules are used.",
                         value=details["value"])
            else:
                said = _("The cards for “{name}” in the address were not used: {problem}", name=name,
                         problem=error_text(_, {"code": code, **details}))
            item = f"<li>{html.escape(said)}</li>"
            if item not in items:  # a parameter read by several widgets is told once
                items.append(item)
        if not items:
            return w.HTML("")
        return w.HTML(f"<div class='escoba-notice' role='note'><ul>{''.join(items)}</ul></div>")

    def connection_watch(self) -> ConnectionWatch:
        """The banner that tells the learner when the page has lost its server session."""
        return ConnectionWatch(lang=self.lang, server=not in_browser())

    def with_notice(self, widget: w.Widget) -> w.VBox:
        """The widget, with the note about unused parameters above it (when there is one), and the watch on the
        page's connection (last, so the lesson's first output stays the same)."""
        return w.VBox([self.notice(), widget, self.connection_watch()])

    def show(self, widget: w.Widget) -> w.Widget:
        """The widget as a lesson cell shows it: the page's first one with :meth:`with_notice`."""
        if self._noticed:
            return widget
        self._noticed = True
        self.seed(None)  # a bad ?seed= is told with the first widget, even when a later one uses the seed
        _show_page_style()
        return self.with_notice(widget)

    def position(self, table: str, hand: str) -> tuple[str, str]:
        """The cards of a board: the address's ``table`` and ``hand`` for the page's first board, else the
        lesson's own."""
        if self._position_given:
            return table, hand
        self._position_given = True
        return self.text("table", table), self.text("hand", hand)

    def table_code(self) -> str:
        """``?table=`` as a table code where students play each other (the tables page: the server checks it);
        no board then takes it for cards."""
        self._position_given = True
        return (self._raw("table") or "").strip()

    def rules_or(self, rules: Rules | str | None) -> Rules | str:
        """``None``: the server's rules; otherwise the rules a lesson names."""
        return self.rules if rules is None else rules


def _show_page_style() -> None:
    """The lesson page's own styling (``static/page.css``: lesson text and its links), as an HTML output of the
    page's first widget cell. An output, not a widget's stylesheet: Voilà writes outputs into the page as the cells
    run, while a widget's stylesheet arrives only once its view has been drawn, so links would show without their
    underline until then."""
    from IPython import get_ipython
    from IPython.display import HTML, display

    if get_ipython() is not None:  # in a notebook or under Voilà; plain Python has no page to style
        display(HTML(f"<style>{_PAGE_CSS}</style>"))


def in_browser() -> bool:
    """True when Python runs inside the browser page (Pyodide, on the static site), with no server behind it."""
    return sys.platform == "emscripten"


def page(lang: str) -> Page:
    """The settings of the current page, for a lesson written in ``lang``."""
    return Page(lang)


_PAGES: dict[tuple[str, str, str], Page] = {}


def current_page(lang: str) -> Page:
    """The page this kernel serves, in ``lang``: one :class:`Page` per address and server rules, so the notice
    shows once and the address's position goes to one board."""
    key = (normalize_language(lang), os.environ.get("QUERY_STRING", ""), os.environ.get("ESCOBA_TUTOR_RULES", ""))
    if key not in _PAGES:
        first = not _PAGES
        _PAGES.clear()  # a kernel serves one page: a new address replaces the old one
        _PAGES[key] = Page(key[0])
        if first:  # the class board: this page was opened (never raises, records nothing without a nickname)
            record_lesson_opened(key[0])
    return _PAGES[key]


# ------------------------------------------------------------------------------ one call per lesson cell
def show_capture_table(lang: str, table: str, hand: str, *, rules: Rules | str | None = None,
                       editable: bool = True) -> w.Widget:
    """A :class:`CaptureTable`; an editable one takes the address's position when it is the page's first board.
    A fixed one (``editable=False``) shows exactly the cards given, under the usual rules unless ``rules``."""
    from .capture_table import CaptureTable

    p = current_page(lang)
    if editable:
        table, hand = p.position(table, hand)
        return p.show(CaptureTable(table=table, hand=hand, rules=p.rules_or(rules), lang=p.lang))
    return p.show(CaptureTable(table=table, hand=hand, editable=False, rules=rules or ESCOBA, lang=p.lang))


def show_hints(lang: str, table: str, hand: str, seen: str = "", *, rules: Rules | str | None = None) -> w.Widget:
    """A :class:`HintPanel` (the address's position, when it is the page's first board)."""
    from .hint_panel import HintPanel

    p = current_page(lang)
    table, hand = p.position(table, hand)
    return p.show(HintPanel(table=table, hand=hand, seen=seen, rules=p.rules_or(rules), lang=p.lang))


def show_setenta(lang: str, piles, names=None, *, rules: Rules | str | None = None) -> w.Widget:
    """A :class:`SetentaExplainer` of the piles given."""
    from .setenta_explainer import SetentaExplainer

    p = current_page(lang)
    return p.show(SetentaExplainer(piles=piles, names=names, rules=p.rules_or(rules), lang=p.lang))


def show_score_sheet(lang: str, piles, escobas, names=None, *, rules: Rules | str | None = None) -> w.Widget:
    """A :class:`ScoreSheet` of the piles and escobas given."""
    from .score_sheet import ScoreSheet

    p = current_page(lang)
    return p.show(ScoreSheet(piles=piles, escobas=escobas, names=names, rules=p.rules_or(rules), lang=p.lang))


def show_drill(lang: str, kind: str, seed: int, *, rules: Rules | str | None = None, **options) -> w.Widget:
    """A :class:`Drill` of ``kind``: exercise ``seed``, or the address's ``?seed=``; ``options`` are the kind's
    own keywords (lesson 7 keeps the house rules drill to the rules it presents with ``only=...``). An address's
    number opens that very exercise, options aside: the board's link to an answer given elsewhere (the class
    exercise asks about any house rule) must show the exercise the student answered."""
    from . import Drill

    p = current_page(lang)
    asked = p.seed(None)
    if asked is not None:
        seed, options = asked, {}
    return p.show(Drill(kind=kind, seed=seed, rules=p.rules_or(rules), lang=p.lang, options=options))


def show_game(lang: str, seed: int | None = None, *, level: str | None = None, players: int = 2,
              rules: Rules | str | None = None) -> w.Widget:
    """A :class:`GameTable` against the computer: game ``seed`` (or the address's ``?seed=``; ``None`` deals a new
    game each time), at ``level``: fácil, medio or difícil, or easy, medium or hard (the table's own default when
    ``None``)."""
    from ..players.bots import LEVELS
    from .game_table import GameTable

    p = current_page(lang)
    # GameTable's keyword arguments: its own default level unless one is asked for
    options: dict[str, typing.Any] = {} if level is None else {"level": LEVELS.get(level.strip().lower(), level)}
    return p.show(GameTable(players=players, seed=p.seed(seed), rules=p.rules_or(rules), lang=p.lang, **options))


def show_class_exercise(lang: str) -> w.Widget:
    """The :class:`~.class_exercise.ClassExercise` of the class exercise page: the exercise the teacher leads."""
    from .class_exercise import ClassExercise

    p = current_page(lang)
    return p.show(ClassExercise(lang=p.lang))


def show_tables(lang: str) -> w.Widget:
    """The :class:`~.class_tables.ClassTables` of the tables page: students play each other; the address's
    ``?table=CODE`` sits the student at that table (their own seat again after a reload). On the static site, with
    no server to keep a table, a note that says so."""
    p = current_page(lang)
    if in_browser():
        _ = Translator(p.lang)
        said = _("Tables need the course's server, and this site has none: here you can play against the computer "
                 "instead.")
        return p.show(w.HTML(f"<p class='escoba-notice' role='note'>{html.escape(said)}</p>"))
    from .class_tables import ClassTables  # (it draws with Jinja, which the static site does not carry)

    return p.show(ClassTables(lang=p.lang, table=p.table_code(), server_rules=p.rules.name))


def show_engine(lang: str, fact: str, **details) -> w.Widget:
    """What the engine works out (``fact``, one of :data:`escoba_tutor.widgets.engine_facts.FACTS`), said in
    sentences in the page's language, with cards in words: a lesson shows no raw Python output."""
    from .engine_facts import fact_lines

    p = current_page(lang)
    lines = fact_lines(Translator(p.lang), fact, **details)
    box = w.HTML("<div class='escoba-engine-says'>" + "".join(f"<p>{html.escape(line)}</p>" for line in lines)
                 + "</div>")
    box.add_class("escoba-engine")  # the lesson text's size (widgets.css), not ipywidgets' 13 px
    return p.show(box)


_LEVEL_NAMES = {"random": N_("easy"), "greedy": N_("medium"), "expert": N_("hard")}


def show_tournament(lang: str, levels: str = "medio,fácil", games: int = 40, seed: int = 1) -> w.Widget:
    """A tournament between two computer levels (:func:`escoba_tutor.players.simulate.simulate`), as a table in the
    page's language with the level names the lessons use: games won, points and escobas per deal. The confidence
    intervals and the command line are for the teachers' guide, not for this table."""
    from ..players.simulate import simulate

    p = current_page(lang)
    _ = Translator(p.lang)
    result = simulate(players=2, games=games, seed=seed, bots=levels, progress=False)
    rows = []
    for side, bot in enumerate(result.bots):
        # Spanish writes a (non-breaking) space before the %, English none.
        percent = f"{100 * result.win_rates[side]:.0f}" + ("\u00a0%" if p.lang == "es" else "%")
        won = f"{result.wins[side]} ({percent})"
        numbers = [won, _number(result.points_per_deal[side], p.lang), _number(result.escobas_per_deal[side], p.lang)]
        cells = "".join(f"<td>{html.escape(n)}</td>" for n in numbers)
        rows.append(f"<tr><th scope='row'>{html.escape(_(_LEVEL_NAMES.get(bot, bot)))}</th>{cells}</tr>")
    heads = [_("Level"), _("Games won"), _("Points per deal"), _("Escobas per deal")]
    head = "".join(f"<th scope='col'>{html.escape(h)}</th>" for h in heads)
    caption = _.plural("{n} game to {target} points", "{n} games to {target} points", games,
                       target=rules_by_name(result.rules).target)
    table = (f"<table class='escoba-tournament'><caption>{html.escape(caption)}</caption>"
             f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")
    return p.show(w.HTML(table))


def _number(value: float, lang: str) -> str:
    """Two decimals, with the decimal comma in Spanish."""
    text = f"{value:.2f}"
    return text.replace(".", ",") if lang == "es" else text
