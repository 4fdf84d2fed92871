"""The tables page: students play each other, two at a table or four in two teams (docs/tables.md).

:class:`TablesModel` holds what the server last said: the table's code, this student's seat, the version the
view was read at, the seat's own view (its hand, never another's), the table's state, the status line's text and
the class's list of tables. :class:`ClassTables` observes it and draws it, reusing the game against the computer's
parts: the capture table (the hand, the table and the captures the hand can make on the student's own turn), its
Play button, its status line, its hint (when the table allows hints: the opener's choice), the end-of-deal score
sheet and the two reviews of a finished deal (step by step, and the expert's judgement of the student's costliest
play). A hint and a review are worked out here, in the student's kernel, from the seat's own view alone
(escoba_tutor/records/table_view.py rebuilds the engine's view, and the finished deal from its public plays).

Every call goes through the kernel's client (escoba_tutor/records/table_client.py) to the course server, which
keeps the table in the class database. One long poll (``TableClient.watch``) runs in a thread of its own; what it
hears is shown on the kernel's event loop, where the page's clicks are handled too (as the class exercise does),
so the page never changes under a click. A refusal (not your turn, a stale version, an illegal play) is said in the
server's words; a stale version reads the table again first. The seat is the nickname's: a reload (or the address
``?table=CODE``) sits the student in the same seat again.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from typing import TYPE_CHECKING, Any

import ipywidgets as w
from traitlets import Bool, Dict, HasTraits, Int, List, Unicode

from ..engine.captures import capture_gains
from ..engine.cards import SUITS, Suit, parse_card
from ..engine.errors import EscobaError
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.rules import VARIANTS, rules_by_name
from ..engine.scoring import DealScore, ScoreLine, Setenta, SuitBest
from ..exercises.kinds.house_rules import house_rule_name
from ..records.table_client import TableClient, TableRequestError, left_seats, table_client_from_environment
from ..records.table_view import finished_deal, player_view
from ..text import labels
from ..text.labels import Label
from ..text.phrases import and_list, sentence_start, the_cards
from ..text.translator import DEFAULT_LANGUAGE, N_, Translator, normalize_language
from .capture_table import CaptureModel, CaptureTable
from .game_table import PLAY_WORDS, SWEEPS_HEADING, DealReview, ExpertReview, leftover_said
from .kernel_loop import kernel_loop, on_kernel_loop
from .look import SharedLook
from .primitives import ActionButton, CardRow, LiveRegion, PlaceKeeper
from .safety import guarded

if TYPE_CHECKING:  # imported when the first hint is asked for (_draw_hint)
    from .hint_panel import HintPanel

__all__ = ["TablesModel", "ClassTables", "house_rule_choices", "rules_words"]

#: The computer's levels a seat may be given, as the server takes them.
LEVELS = (("random", N_("easy")), ("greedy", N_("medium")), ("expert", N_("hard")))
#: House rules that need three players or more: never offered at a table of two or four.
_NOT_AT_TABLES = ("three_player_ties", "chile")
LIST_EVERY = 10.0  # seconds between two reads of the class's list while the student sits at no table
STATE_WORDS = {"waiting": N_("waiting for players"), "playing": N_("playing"), "finished": N_("finished")}
#: A table's hints, as the lobby's list and the table's header say them.
HINT_WORDS = {True: N_("hints allowed"), False: N_("no hints")}

_TEMPLATES = {
    "header": "<h3 class='escoba-title'>{{ title }}</h3>"
              "<p class='escoba-tables-code'>{{ code_words }} <strong class='escoba-code'>{{ code }}</strong> · "
              "<a class='escoba-tables-link' href='?table={{ code }}' target='_blank' rel='noopener'>{{ link }}</a>"
              "</p><ul class='escoba-tables-seats'>{% for seat in seats %}<li>{{ seat }}</li>{% endfor %}</ul>"
              "<p class='escoba-tables-hints'>{{ hints }}</p>",
    "scores": "<table class='escoba-scores'><caption>{{ caption }}</caption><thead><tr>"
              "{% for h in heads %}<th scope='col'>{{ h }}</th>{% endfor %}</tr></thead><tbody>"
              "{% for row in rows %}<tr><th scope='row'>{{ row.name }}</th><td>{{ row.points }}</td>"
              "<td>{{ row.cards }}</td><td>{{ row.escobas }} <span aria-hidden='true'>{{ '▮' * row.escobas }}</span>"
              "</td></tr>{% endfor %}</tbody></table>",
    "list": "<h3>{{ heading }}</h3>{% if tables %}<ul class='escoba-tables-list'>{% for t in tables %}<li>"
            "<strong class='escoba-code'>{{ t.code }}</strong> · {{ t.words }}</li>{% endfor %}</ul>"
            "{% else %}<p>{{ empty }}</p>{% endif %}",
    "player": "<b>{{ name }}</b>{{ turn }}",
    "paragraph": "{% if heading %}<h4>{{ heading }}</h4>{% endif %}"
                 "{% for line in lines %}<p class='{{ css }}'>{{ line }}</p>{% endfor %}",
}


@functools.cache
def _template(name: str):
    """One of the page's templates. Jinja is imported here, not with the module: the static site's Python, which
    imports every page module as it is built, has no Jinja, and shows no table (tables need the course server)."""
    from jinja2 import Environment

    return Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True).from_string(_TEMPLATES[name])


def house_rule_choices(server_rules: str) -> list[str]:
    """The rules a table may be opened with: the server's, then the server's with one house rule by name
    (``escoba+figuras``), those the rules allow together and that suit two or four players."""
    choices = [server_rules]
    for name in VARIANTS:
        if name in _NOT_AT_TABLES:
            continue
        try:
            rules_by_name(f"{server_rules}+{name}")
        except EscobaError:
            continue  # a house rule these rules refuse (Scopa has no escoba de mano)
        choices.append(f"{server_rules}+{name}")
    return choices


def _added_house_rules(rules: str, server_rules: str) -> list[str] | None:
    """The house rules a table's ``rules`` add to the server's, by their engine names (``[]``: none), or None
    when they are not the server's with house rules added (a table opened under other rules)."""
    if rules == server_rules:
        return []
    added = rules.removeprefix(f"{server_rules}+").split("+") if rules.startswith(f"{server_rules}+") else []
    return added if added and all(name in VARIANTS for name in added) else None


def rules_words(_: Translator, rules: str, server_rules: str) -> str:
    """A table's rules as the page says them: «las reglas de la clase», «las reglas de la clase con figuras»,
    the house rules named as lesson 7 and its exercise name them (never by the engine's names). Rules that are
    not the class's with house rules added are said by their name (``scopa``)."""
    added = _added_house_rules(rules, server_rules)
    if added is None:
        return rules
    if not added:
        return _("the class's rules")
    return _("the class's rules with {house_rules}",
             house_rules=and_list(_, [house_rule_name(_, name) for name in added]))


def _choice_words(_: Translator, rules: str, server_rules: str) -> str:
    """One choice of the lobby's house rule: «Ninguna: las reglas de la clase», «Figuras»."""
    added = _added_house_rules(rules, server_rules)
    if not added:
        return _("None: the class's rules") if added == [] else rules
    return sentence_start(and_list(_, [house_rule_name(_, name) for name in added]))


class TablesModel(HasTraits):
    """What the server said last: ``code`` ("" when seated at no table), ``seat`` (-1: none), ``version`` of the
    ``view`` (the seat's own view as the server sends it: ``hand``, ``table``, ``turn``, ``legal``…), ``state``
    (``waiting``, ``playing``, ``finished``), the status line's ``message`` and the class's ``tables`` (their
    public facts)."""

    code = Unicode("")
    seat = Int(-1)
    version = Int(0)
    view = Dict()
    state = Unicode("")
    message = Unicode("")
    tables: List[dict] = List()
    #: A play on its way to the server: the view shows it already (see :func:`provisional_view`), and the server's
    #: answer, or its refusal, comes next.
    sending = Bool(False)

    def seated(self, view: dict[str, Any]) -> None:
        """Take a view the server sent (one change: the view's observers see code, seat and version with it)."""
        with self.hold_trait_notifications():
            self.code, self.seat = str(view.get("code", "")), int(view.get("seat", -1))
            self.version, self.state = int(view.get("version", 0)), str(view.get("state", ""))
            self.view = dict(view)

    def left(self) -> None:
        with self.hold_trait_notifications():
            self.code, self.seat, self.version, self.state, self.view = "", -1, 0, "", {}


def provisional_view(view: dict[str, Any], move: Move) -> dict[str, Any] | None:
    """The seat's view after its own ``move``, to show while the server checks and writes it (a play answered
    at once, as against the computer); None where the page must wait for the server's answer.

    Only a play the server listed as legal in ``view``, and never the seat's last card: a round's last play deals
    the next hands (or ends the deal), which only the server knows. Before that, a play changes nothing hidden:
    the card leaves the hand, and it lies on the table or its capture goes to the side's pile (an escoba when it
    takes the whole table: the engine's own ``capture_gains``). Whose turn comes next is left to the server's
    answer, a moment later; the version stays the one the play was made at, so any view the server sends after
    the play replaces this one."""
    legal = {Move.from_text(text) for text in view.get("legal", ())}
    hand = list(view.get("hand", ()))
    if move not in legal or len(hand) < 2 or move.card.code not in hand:
        return None
    table, side = list(view.get("table", ())), int(view.get("side", 0))
    # in the engine's order (the deck's), as the server's answer will list them: the same line, not a reordered one
    in_order = [card.code for card in sorted(move.captured, key=lambda card: card.index)]
    taken = set(in_order)
    shown = dict(view, my_turn=False, turn=None, legal=[], played_in_deal=True,
                 hand=[code for code in hand if code != move.card.code])
    sizes = list(view.get("hand_sizes", ()))
    if 0 <= int(view.get("seat", -1)) < len(sizes):
        sizes[int(view["seat"])] -= 1
        shown["hand_sizes"] = sizes
    gains = capture_gains(move.card, move.captured, table) if taken else None
    if gains is None:
        shown["table"] = [*table, move.card.code]
    else:
        shown["table"] = [code for code in table if code not in taken]
        shown["captured"] = [n + gains.cards * (s == side) for s, n in enumerate(view.get("captured", ()))]
        shown["escobas"] = [n + gains.escoba * (s == side) for s, n in enumerate(view.get("escobas", ()))]
        shown["piles"] = [[*pile, *in_order, move.card.code] if s == side else pile
                          for s, pile in enumerate(view.get("piles", ()))]
    shown["last_play"] = {"deal": view.get("deal"), "seat": view.get("seat"), "side": side, "card": move.card.code,
                          "took": in_order, "escoba": bool(gains and gains.escoba)}
    return shown


class ClassTables(w.VBox):
    """The tables page's widget (see the module's text). ``ClassTables(lang, client=None, connect=True,
    table="")``: with ``connect`` and no ``client``, the kernel's own client (none without a nickname); ``table``,
    a code from the page's address, to sit at (a reload)."""

    lang = Unicode(DEFAULT_LANGUAGE)
    deck = Unicode("spanish")

    def __init__(self, lang: str = DEFAULT_LANGUAGE, *, client: TableClient | None = None, connect: bool = True,
                 table: str = "", server_rules: str = "escoba", **kwargs) -> None:
        super().__init__(**kwargs)
        self.add_class("escoba-class-tables")
        self.lang = normalize_language(lang)
        self.model = TablesModel()
        self._lock = threading.RLock()  # the long poll's views and the page's clicks change the page in turn
        self._watch = None
        self._sheet_key: tuple | None = None
        self._sheet_put_away: tuple[str, int] | None = None  # (table, deal) whose sheet "Hide" put away
        self.client = client if client is not None or not connect else table_client_from_environment(self.lang)
        look = self._look = SharedLook()
        self.status = LiveRegion(sticky=True)  # what happened and what went wrong: in view on a phone
        self.status.add_class("escoba-game-status")
        self.lobby_status = LiveRegion()  # the same line away from a table (the game's is hidden then)
        # -- the lobby: open a table, join one by its code or from the class's list
        self.players = w.Dropdown(options=[2, 4], value=2, style={"description_width": "initial"})
        self.server_rules = server_rules
        self.rules = w.Dropdown(options=house_rule_choices(server_rules), value=server_rules,
                                style={"description_width": "initial"})  # (their words: _draw_lobby)
        # Allowed unless the opener says no: the page teaches, and the game against the computer always offers
        # hints; a class that wants a match without them chooses so, and everybody sees the choice.
        self.hints_choice = w.Dropdown(options=[("yes", True), ("no", False)], value=True,
                                       style={"description_width": "initial"})
        self.open_button = ActionButton(button_style="primary", icon="plus",
                                        inputs=[self.players, self.rules, self.hints_choice],
                                        layout=w.Layout(width="auto"))
        self.open_button.add_class("escoba-tables-open")
        self.code_box = w.Text(layout=w.Layout(width="12em"), style={"description_width": "initial"})
        self.join_button = ActionButton(icon="sign-in", inputs=[self.code_box], layout=w.Layout(width="auto"))
        self.join_button.add_class("escoba-tables-join")
        self.list_html = w.HTML(layout=look.layout)
        self.list_choice = w.Dropdown(options=[], style={"description_width": "initial"})
        self.join_listed = ActionButton(icon="sign-in", inputs=[self.list_choice], layout=w.Layout(width="auto"))
        self.refresh_button = w.Button(icon="refresh", layout=look.layout, style=look.button)
        self.lobby = w.VBox([
            w.HBox([self.players, self.rules, self.hints_choice, self.open_button],
                   layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.code_box, self.join_button], layout=w.Layout(flex_flow="row wrap")),
            self.list_html,
            w.HBox([self.list_choice, self.join_listed, self.refresh_button], layout=w.Layout(flex_flow="row wrap"))])
        self.lobby.add_class("escoba-tables-lobby")
        # -- at a table: its code and seats, the seats' controls, then the game as against the computer
        self.table_header = w.HTML(layout=look.layout)
        self.seat_choice = w.Dropdown(options=[], style={"description_width": "initial"})
        self.level = w.Dropdown(options=[(k, k) for k, _w in LEVELS], value="greedy",
                                style={"description_width": "initial"})
        wide = w.Layout(width="auto")  # (a button's own width would cut its words)
        self.computer_button = ActionButton(icon="desktop", inputs=[self.seat_choice, self.level], layout=wide)
        self.take_button = ActionButton(icon="user", inputs=[self.seat_choice], layout=wide)
        self.leave_button = w.Button(icon="sign-out", layout=look.layout, style=look.button)
        self.leave_button.add_class("escoba-tables-leave")
        self.seats_box = w.HBox([self.seat_choice, self.level, self.computer_button, self.take_button,
                                 self.leave_button], layout=w.Layout(flex_flow="row wrap"))
        self.scores = w.HTML()  # (its own layout: shown and hidden)
        self.scores.add_class("escoba-scoreboard")
        self.others = w.VBox(layout=look.layout)
        self.others.add_class("escoba-others")
        self._other_rows: list[CardRow] = []
        self._other_labels: list[w.HTML] = []
        self._other_boxes: list[w.HBox] = []
        self.position = CaptureModel(rules=rules_by_name(server_rules))
        # the capture table of the game against the computer, without its own Check and status line: Play plays
        self.captures = CaptureTable(model=self.position, editable=False, controls=False, lang=self.lang, look=look)
        self.play_button = ActionButton(button_style="primary", icon="play", inputs=[self.captures])
        self.play_button.add_class("escoba-play")
        # the hint of the game against the computer, on the student's own turn, where the table allows hints
        self.hint_button = w.ToggleButton(icon="lightbulb-o")
        self.hint_button.add_class("escoba-hint-button")
        self.hint_box = w.VBox()
        self.hint_box.add_class("escoba-hint")
        self.hint_panel: HintPanel | None = None  # made on the first hint asked for
        self._hint_version: tuple | None = None
        self.actions = w.HBox([self.play_button, self.hint_button], layout=w.Layout(flex_flow="row wrap"))
        self.actions.add_class("escoba-actions")
        self.board = w.VBox([self.others, self.captures, self.actions, self.hint_box])
        self.board.add_class("escoba-board")
        self.sheet_box = w.VBox(layout=look.layout)
        self.sheet_box.add_class("escoba-deal-end")
        self._replay: tuple[tuple, Game | None] | None = None  # (the finished deal's key, its replay)
        self.deal_review = DealReview(self, look)
        self.expert_review = ExpertReview(self, look, self._guarded)
        self.hide_sheet = w.Button(icon="times", layout=look.layout, style=look.button)
        self.hide_sheet.add_class("escoba-hide-sheet")
        self._place = PlaceKeeper(scope=".escoba-game-table", status=".escoba-game-status",
                                  targets=[".escoba-ct-hand.et-row, .escoba-ct-hand .et-row", ".escoba-play"])
        self.game = w.VBox([self.scores, self.status, self.board, self.sheet_box, self.expert_review,
                            self.deal_review, self._place])
        self.game.add_class("escoba-game-table")  # the game against the computer's look, phone order included
        # the seats' controls after the game: on a phone the hand and the table come first
        self.at_table = w.VBox([self.table_header, self.game, self.seats_box])
        # (no title of its own: the page's heading above it says what this is)
        self.children = [self.lobby_status, self.lobby, self.at_table]
        # -- clicks
        self.open_button.on_click(lambda _b: self._act(self._open))
        self.join_button.on_click(lambda _b: self._act(self._join, self.code_box.value))
        self.join_listed.on_click(lambda _b: self._act(self._join, self.list_choice.value or ""))
        self.refresh_button.on_click(lambda _b: self._act(self.refresh))
        self.computer_button.on_click(lambda _b: self._act(self._give))
        self.take_button.on_click(lambda _b: self._act(self._take))
        self.leave_button.on_click(lambda _b: self._act(self._leave))
        self.play_button.on_click(lambda _b: self._act(self._play))
        self.hint_button.observe(lambda _c: self._act(self._draw_hint, Translator(self.lang)), "value")
        self.hide_sheet.on_click(lambda _b: self._act(self._put_sheet_away))
        # a new choice answers a refusal: the status line says the table's news again
        self.position.observe(lambda _c: self._act(self._chose_again), ["selected", "built_card", "built_taken"])
        self.model.observe(self._redraw_guarded, ["view", "code"])
        self.model.observe(lambda _c: self._act(self._draw_lobby, Translator(self.lang)), "tables")
        self.model.observe(self._message_changed, "message")
        self.model.observe(self._sending_changed, "sending")
        self._refused = False
        self._draw_lobby(Translator(self.lang))
        self._draw()
        _ = Translator(self.lang)
        if self.client is None:
            self.lobby.layout.display = "none"
            self.model.message = _("Tables need a nickname: choose one on the start page, then open this page "
                                   "again.")
            return
        self.refresh(quiet=True)
        self._list_later()
        if table:
            self._act(self._join, table)
        else:  # a reload: the student's own table under way, if any
            mine = next((t for t in self.model.tables if t.get("state") != "finished"
                         and any(s.get("you") for s in t.get("seats", []))), None)
            if mine is not None:
                self._act(self._join, mine["code"])
        if not self.model.code and not self.model.message:
            self.model.message = _("Open a table, or type the code a classmate gives you.")

    @property
    def message(self) -> str:
        return self.model.message

    def __repr__(self) -> str:
        # what a notebook stores as the cell's text: the same at every run (the parts' reprs hold addresses)
        return f"ClassTables(lang={self.lang!r}, code={self.model.code!r})"

    def close(self) -> None:
        self._stop_watching()
        self._closed = True
        super().close()

    def _list_later(self) -> None:
        """Away from a table, read the class's list again every :data:`LIST_EVERY` seconds (in a kernel), so that
        a classmate's new table shows without a click."""
        loop = kernel_loop()
        if loop is not None and not getattr(self, "_closed", False):
            loop.call_later(LIST_EVERY, self._list_again)

    @guarded
    def _list_again(self) -> None:
        if getattr(self, "_closed", False):
            return
        with self._lock:
            if not self.model.code:
                self.refresh(quiet=True)
        self._list_later()

    def say_failure(self, said: str) -> None:
        """An unexpected failure, said in the status line (safety.report_failure; the log has the details)."""
        self.model.message = said
        self._refused = True

    # ------------------------------------------------------------------------------------------ acting
    @guarded
    def _guarded(self, action, *args) -> None:
        """An action of a part of the page (the expert's review): an unexpected error is logged and said."""
        with self._lock:
            action(*args)

    @guarded
    def _act(self, action, *args) -> None:
        """A click's action; a refusal is said in the server's words, an unexpected error is logged and said."""
        with self._lock:
            try:
                action(*args)
            except TableRequestError as error:
                self._refused_by(error)

    def _refused_by(self, error: TableRequestError) -> None:
        _ = Translator(self.lang)
        said = error.message or _("The course could not understand this request.")
        if error.code == "table_stale_version" and self.model.code:
            with contextlib.suppress(TableRequestError):  # the table changed meanwhile: show it as it is now
                self.model.seated(self.client.view(self.model.code))  # type: ignore[union-attr]
        elif error.code == "table_illegal_play":
            again = _("Choose again.")  # (not inside an f-string: the catalogs' extractor would not see it)
            said = f"{said} {again}"
        news = self._news(_) if self.model.code else ""
        self.model.message = f"{said} {news}".strip()
        self._refused = True

    def _open(self) -> None:
        chosen = self.rules.value
        rules = "" if chosen == self.server_rules else chosen
        self._sit(self.client.open(int(self.players.value), rules,  # type: ignore[union-attr]
                                   hints=self.hints_choice.value is not False))

    def _join(self, code: str) -> None:
        _ = Translator(self.lang)
        if not str(code).strip():
            self.model.message = _("Type the table's code first: five characters, letters and digits, like K7M2Q.")
            return
        self._sit(self.client.join(str(code)))  # type: ignore[union-attr]
        self.code_box.value = ""

    def _sit(self, view: dict[str, Any]) -> None:
        if view.get("code") != self.model.code:
            self._stop_watching()
        self.model.seated(view)
        self._say_news()
        if self._watch is None:
            self._watch = self.client.watch(view["code"], self._arrived, after=view["version"])  # type: ignore
        self.refresh(quiet=True)

    def _leave(self) -> None:
        code = self.model.code
        if not code:
            return
        self.client.leave(code)  # type: ignore[union-attr]
        self._stop_watching()
        self.model.left()
        self.refresh(quiet=True)
        _ = Translator(self.lang)
        self.model.message = _("You have left the table. Open a table, or type the code a classmate gives you.")

    def _chosen_seat(self) -> int | None:
        value = self.seat_choice.value
        return value if isinstance(value, int) else None

    def _give(self) -> None:
        seat = self._chosen_seat()
        if seat is None or not self.model.code:
            return
        self.model.seated(self.client.give_to_computer(self.model.code, seat, self.level.value))  # type: ignore
        self._say_news()

    def _take(self) -> None:
        seat = self._chosen_seat()
        if seat is None or not self.model.code:
            return
        self.model.seated(self.client.take_back(self.model.code, seat))  # type: ignore[union-attr]
        self._say_news()

    def _play(self) -> None:
        _ = Translator(self.lang)
        view = self.model.view
        if not view or view.get("state") != "playing":
            self.model.message = _("The game starts once every seat is taken.") if view else ""
            self._refused = True
            return
        chosen = next((row for row in self.position.rows if row["id"] == self.position.selected), None)
        if chosen:
            move = Move(chosen["card"], chosen["taken"])
        elif self.position.built_card:
            move = Move.of(self.position.built_card, self.position.built_taken)
        else:
            self.model.message = " ".join([
                _("Choose a capture in the list, or a card from your hand (and the cards it takes), then press "
                  "“Play”."), self._news(_)]).strip()
            self._refused = True
            return
        if self.model.sending:
            return  # the play just made is on its way: a second press is not a second play
        shown = provisional_view(view, move)
        self.model.sending = True
        if shown is not None:
            self.model.seated(shown)
            self._say_news()
        # the server's answer is awaited off the kernel's event loop: the click is answered now, and the long
        # poll's views and the other clicks go on meanwhile
        threading.Thread(target=self._send_play, args=(view, move), name="escoba-tutor-play", daemon=True).start()

    def _send_play(self, view: dict[str, Any], move: Move) -> None:
        try:
            answer: dict[str, Any] | Exception = self.client.play(view, move.text)  # type: ignore[union-attr]
        except Exception as error:  # noqa: BLE001 - a refusal is said, anything else logged and said: on the loop
            answer = error
        on_kernel_loop(self._play_answered, view, answer)

    @guarded
    def _play_answered(self, view: dict[str, Any], answer: dict[str, Any] | Exception) -> None:
        """The server's answer to a play: its view (unless a newer one came first, from the long poll), or its
        refusal, said in words over the view the play was made from (what was shown at once is taken back)."""
        with self._lock:
            try:
                if isinstance(answer, Exception):
                    if self.model.code == view.get("code") and self.model.version == view.get("version"):
                        self.model.seated(view)
                    if not isinstance(answer, TableRequestError):
                        raise answer  # logged with its traceback, and said on the page (safety.guarded)
                    self._refused_by(answer)
                elif answer.get("code") == self.model.code and int(answer.get("version", 0)) >= self.model.version:
                    self.model.seated(answer)
                    self._say_news()
            finally:
                self.model.sending = False

    def _put_sheet_away(self) -> None:
        last = self.model.view.get("last_deal")
        if last and not self.model.view.get("game_over"):
            self._sheet_put_away = (self.model.code, int(last["deal"]))
            self._draw_sheet(Translator(self.lang), self.position.rules)

    def refresh(self, quiet: bool = False) -> None:
        """Read the class's tables again (the lobby's list)."""
        if self.client is None:
            return
        try:
            self.model.tables = self.client.tables()
        except TableRequestError as error:
            if not quiet:
                raise
            if error.code == "table_no_tables":
                self.model.message = error.message

    def _chose_again(self) -> None:
        if self._refused and self.model.view.get("my_turn"):
            self._refused = False
            self._say_news()

    # ------------------------------------------------------------------------------------------ the long poll
    def _arrived(self, view: dict[str, Any]) -> None:
        """A new view from the long poll's thread: shown on the kernel's event loop, where the clicks are handled
        too (outside a kernel, at once)."""
        on_kernel_loop(self._show_arrived, view)

    @guarded
    def _show_arrived(self, view: dict[str, Any]) -> None:
        with self._lock:
            version = int(view.get("version", 0))
            if view.get("code") != self.model.code or version < self.model.version or \
                    version == self.model.version and (self.model.sending or
                                                       left_seats(view) == left_seats(self.model.view)):
                # a table left since, or a view older than the one shown (a play's own answer came first), or
                # than the play on its way (shown already)
                return
            self.model.seated(view)
            self._say_news()

    def _stop_watching(self) -> None:
        if self._watch is not None:
            self._watch.stop()
            self._watch = None

    # ------------------------------------------------------------------------------------------ drawing
    def _sending_changed(self, change) -> None:
        # shown while the server has not yet answered a play the page shows made (the stylesheet's busy pointer)
        if change["new"]:
            self.game.add_class("escoba-play-sending")
        else:
            self.game.remove_class("escoba-play-sending")

    def _message_changed(self, change) -> None:
        self.status.message = self.lobby_status.message = change["new"]

    def _say_news(self) -> None:
        self._refused = False
        self.model.message = self._news(Translator(self.lang))

    @guarded
    def _redraw_guarded(self, change) -> None:
        self._draw()

    def _names(self, _: Translator) -> list[Label]:
        """Each seat as the screen names it: you, a classmate's nickname, or the computer."""
        view = self.model.view
        names = []
        for seat in view.get("seats", []):
            if seat["seat"] == view.get("seat"):
                names.append(labels.you(_))
            elif seat.get("nickname") and not seat.get("computer"):
                names.append(labels.named(_, seat["nickname"]))
            elif seat.get("computer"):
                names.append(labels.computer(_))
            else:
                names.append(labels.named(_, _("an empty seat")))
        return names

    def _side_names(self, _: Translator) -> list[Label]:
        view = self.model.view
        names = self._names(_)
        if view.get("players") != 4:
            return names
        mine = view.get("side", 0)
        other = labels.joined(_, [names[s] for s in (1 - mine, 3 - mine)])
        return [labels.your_team(_), other] if mine == 0 else [other, labels.your_team(_)]

    def _you_side(self) -> int | None:
        view = self.model.view
        return view.get("side") if view.get("players") == 2 else None

    def _describe_last(self, _: Translator) -> str:
        view = self.model.view
        last = view.get("last_play")
        if not last or last.get("deal") != view.get("deal") and not view.get("game_over"):
            return ""
        return self.play_words(_, last["seat"], last["card"], [parse_card(c) for c in last["took"]], last["escoba"])

    # -- what the deal's reviews read (game_table.ReviewSource): the last finished deal, replayed from its plays
    def play_words(self, _: Translator, player: int, card, captured, escoba: bool) -> str:
        """A play in words, its player named as this page names them (you, a classmate, the computer)."""
        person = "you" if player == self.model.view.get("seat") else "other"
        action = "lay" if not captured else self.position.rules.sweep if escoba else "take"
        return sentence_start(_(PLAY_WORDS[person, action], who=self._names(_)[player], card=_.the_card(card),
                                taken=the_cards(_, sorted(captured))))

    def leftover_words(self, _: Translator, record) -> str:
        names = self._side_names(_)
        return leftover_said(_, record, self._you_side(), lambda side: names[side])

    def _finished_deal(self) -> Game | None:
        """The last finished deal, replayed from the view's public events (made once per deal)."""
        view = self.model.view
        last = view.get("last_deal") if view else None
        if not last:
            return None
        key = (view.get("code"), last.get("deal"))
        if self._replay is None or self._replay[0] != key:
            try:
                game = finished_deal(view)
            except EscobaError:
                game = None  # a view without the deal's plays (a server from before them): no review
            self._replay = (key, game)
        return self._replay[1]

    def deal_to_review(self):
        game = self._finished_deal()
        return game.deals[-1] if game is not None and game.deals else None

    def deal_to_judge(self) -> tuple[Game, int, int] | None:
        game = self._finished_deal()
        if game is None or not game.deals:
            return None
        return game, int(self.model.view["seat"]), len(game.deals) - 1

    def _hints_allowed(self) -> bool:
        """Whether the student may ask for a hint now: the table allows them (the server's word, in the view),
        the game is under way and it is their turn. Checked at every request: the page's button is no proof."""
        view = self.model.view
        return bool(view) and view.get("hints") is True and view.get("state") == "playing" and \
            bool(view.get("my_turn"))

    def _draw_hint(self, _: Translator) -> None:
        """The hint button on the student's own turn where the table allows hints, and while it is on, the
        expert's ranking of their plays from their own view. A hint is for one position: a new one turns it off."""
        view = self.model.view
        allowed = self._hints_allowed()
        position = (view.get("code"), view.get("deal"), tuple(view.get("hand", ())), tuple(view.get("table", ())))
        if position != self._hint_version and self.hint_button.value:
            self._hint_version = position
            self.hint_button.value = False  # the redraw this causes finds the button off
            return
        self._hint_version = position
        self.hint_button.description = _("Hint")
        self.hint_button.tooltip = _("The expert ranks your plays and says why")
        self.hint_button.layout.display = "inline-flex" if allowed else "none"
        if not (allowed and self.hint_button.value):
            self.hint_box.layout.display = "none"
            if self.hint_button.value:
                self.hint_button.value = False  # asked for where hints are not allowed: nothing is worked out
            return
        from .hint_panel import HintPanel  # only needed when a hint is asked for

        seen = player_view(view)  # the seat's own view: its hand, the table, the plays everybody saw
        if self.hint_panel is None:
            self.hint_panel = HintPanel(view=seen, limit=3, lang=self.lang)
            self.hint_box.children = [self.hint_panel]
        else:
            self.hint_panel.lang = self.lang
            self.hint_panel.model.view = seen
        self.hint_box.layout.display = "flex"

    def _news(self, _: Translator) -> str:
        view = self.model.view
        if not view:
            return ""
        state = view.get("state")
        if state == "waiting":
            return _("Waiting for classmates: give them the code {code}. An empty seat can be given to the computer.",
                     code=view["code"])
        said = [self._describe_last(_)]
        if view.get("game_over"):
            said.append(_("The game is over."))
        elif view.get("my_turn"):
            said.append(_("Your turn."))
        elif view.get("turn") in left_seats(view):
            said.append(_("{name:The} has left the table. You can give their seat to the computer (seat {n}, "
                          "below) so the game goes on; they take it back when they return.",
                          name=self._names(_)[view["turn"]], n=view["turn"] + 1))
        elif view.get("turn") is not None:
            said.append(_("Waiting for {name:the} to play.", name=self._names(_)[view["turn"]]))
        return " ".join(s for s in said if s)

    def _draw(self) -> None:
        _ = Translator(self.lang)
        model, view = self.model, self.model.view
        seated = bool(model.code and view)
        self.lobby.layout.display = "none" if seated or self.client is None else "flex"
        self.lobby_status.layout.display = "none" if seated else None
        self.at_table.layout.display = "flex" if seated else "none"
        if not seated:
            return
        self._draw_header(_)
        playing = view.get("state") in ("playing", "finished")
        self.scores.layout.display = self.board.layout.display = "flex" if playing else "none"
        rules = rules_by_name(view.get("rules") or "escoba")
        self.position.place(" ".join(view.get("hand", [])), " ".join(view.get("table", [])), rules)
        if view.get("my_turn"):
            self.game.remove_class("escoba-not-my-turn")
        else:
            self.game.add_class("escoba-not-my-turn")  # the list of captures is for the student's own turn
        self.play_button.description = _("Play")
        self.play_button.disabled = view.get("state") != "playing"
        self._draw_scores(_, rules)
        self._draw_others(_)
        self._draw_sheet(_, rules)
        self._draw_hint(_)
        self.deal_review.redraw(_)
        self.expert_review.redraw(_)

    def _draw_lobby(self, _: Translator) -> None:
        self.players.description = _("Players")
        self.players.options = [(_("2 players"), 2), (_("4 players, in two teams"), 4)]
        self.rules.description = _("House rule")
        if not self.rules.options or not isinstance(self.rules.options[0], tuple):  # named once, kept chosen
            chosen = self.rules.value
            self.rules.options = [(_choice_words(_, rules, self.server_rules), rules)
                                  for rules in house_rule_choices(self.server_rules)]
            self.rules.value = chosen
        self.hints_choice.description = _("Hints")
        chosen_hints = self.hints_choice.value
        self.hints_choice.options = [(_("allowed"), True), (_("not allowed"), False)]
        self.hints_choice.value = chosen_hints
        self.open_button.description = _("Open a table")
        self.code_box.description = _("Table code")
        self.code_box.placeholder = "K7M2Q"
        self.join_button.description = _("Sit at this table")
        self.refresh_button.description = _("Look again")
        tables = [t for t in self.model.tables if t.get("state") != "finished"]
        rows = [{"code": t["code"], "words": self._table_words(_, t)} for t in tables]
        self.list_html.value = _template("list").render(heading=_("The class's tables"), tables=rows,
                                                        empty=_("No table is open in your class yet."))
        options = [(f"{t['code']} · {self._table_words(_, t)}", t["code"]) for t in tables]
        chosen = self.list_choice.value
        self.list_choice.options = options
        codes = [value for _label, value in options]
        self.list_choice.value = chosen if chosen in codes else (codes[0] if codes else None)  # never a blank
        self.list_choice.description = _("Open tables")
        self.join_listed.description = _("Sit at the chosen table")
        self.join_listed.disabled = not options
        self.list_choice.layout.display = self.join_listed.layout.display = "flex" if options else "none"

    def _table_words(self, _: Translator, table: dict[str, Any]) -> str:
        seats = ", ".join(s["nickname"] if s.get("nickname") else _("an empty seat") for s in table.get("seats", []))
        state = _(STATE_WORDS.get(table.get("state", ""), STATE_WORDS["playing"]))
        hints = _(HINT_WORDS[table.get("hints") is not False])
        return _("{players} players, {rules}, {hints}: {seats} ({state})", players=table.get("players", 2),
                 rules=rules_words(_, str(table.get("rules", "")), self.server_rules), hints=hints, seats=seats,
                 state=state)

    def _draw_header(self, _: Translator) -> None:
        view = self.model.view
        names = self._names(_)
        level_words = {k: _(v) for k, v in LEVELS}
        seats = []
        for seat, name in zip(view.get("seats", []), names):
            if seat.get("computer"):
                said = _("Seat {n}: the computer ({level})", n=seat["seat"] + 1,
                         level=level_words.get(seat["computer"], seat["computer"]))
            elif seat.get("empty"):
                said = _("Seat {n}: empty", n=seat["seat"] + 1)
            elif seat["seat"] == view.get("seat"):
                said = _("Seat {n}: you", n=seat["seat"] + 1)
            else:
                said = _("Seat {n}: {name}", n=seat["seat"] + 1, name=seat.get("nickname") or name)
            if seat.get("left") and not seat.get("computer") and not seat.get("empty"):
                gone = _("(has left)")
                said = f"{said} {gone}"
            if view.get("players") == 4:
                said = f"{said} · {labels.team(_, seat['side'] + 1)}"
            seats.append(said)
        self.table_header.value = _template("header").render(
            title=_("Table {code}", code=view["code"]), code_words=_("Code to share:"), code=view["code"],
            link=_("Link to this table"), seats=seats,
            hints=_("Hints are allowed at this table: on your turn, “Hint” shows the expert's best plays.")
            if view.get("hints") is not False else _("No hints at this table."))
        self.seat_choice.description = _("Seat")
        chosen, level = self.seat_choice.value, self.level.value
        seats = view.get("seats", [])
        self.seat_choice.options = [(_("Seat {n}", n=s["seat"] + 1), s["seat"]) for s in seats]
        # the seat chosen stays chosen; at first, an empty seat (the one to give to the computer); a seat whose
        # student has left, on its turn, is offered at once
        empty = next((s["seat"] for s in seats if s.get("empty")), view.get("seat"))
        offered = view.get("turn") if view.get("turn") in left_seats(view) else None
        self.seat_choice.value = offered if offered is not None else \
            chosen if chosen in [s["seat"] for s in seats] else empty
        self.level.description = _("Computer")
        self.level.options = [(_(words), key) for key, words in LEVELS]
        self.level.value = level
        self.computer_button.description = _("Give this seat to the computer")
        self.take_button.description = _("Take this seat back")
        self.leave_button.description = _("Leave the table")
        over = view.get("state") == "finished"
        self.computer_button.disabled = self.take_button.disabled = over

    def _draw_scores(self, _: Translator, rules) -> None:
        view = self.model.view
        names = self._side_names(_)
        rows = [{"name": name, "points": view["totals"][side], "cards": view["captured"][side],
                 "escobas": view["escobas"][side]} for side, name in enumerate(names[:len(view.get("totals", []))])]
        target = _.plural("Game to {target} point", "Game to {target} points", rules.target, target=rules.target)
        to_deal = _.plural("{n} card left to deal", "{n} cards left to deal", view.get("deck_left", 0))
        caption = _("{target} · deal {deal} · {to_deal}", target=target, deal=view.get("deal", 0) + 1,
                    to_deal=to_deal)
        heads = [_("Side"), _("Points"), _("Cards taken"), _(SWEEPS_HEADING[rules.sweep])]
        self.scores.value = _template("scores").render(caption=caption, heads=heads, rows=rows)

    def _draw_others(self, _: Translator) -> None:
        """The other players' hands, face down (made once, then only updated)."""
        view = self.model.view
        names = self._names(_)
        seats = [s["seat"] for s in view.get("seats", []) if s["seat"] != view.get("seat")]
        while len(self._other_rows) < len(seats):
            self._other_rows.append(CardRow(size="small"))
            self._other_labels.append(w.HTML(layout=self._look.layout))
            self._other_boxes.append(w.HBox([self._other_labels[-1], self._other_rows[-1]],
                                            layout=w.Layout(align_items="center", flex_flow="row wrap")))
        for row, label, seat in zip(self._other_rows, self._other_labels, seats):
            in_hand = view.get("hand_sizes", [0] * 4)[seat]
            turn = _(" (to play)") if view.get("turn") == seat and view.get("state") == "playing" else ""
            with row.hold_sync():
                row.cards = []
                row.face_down = in_hand
                row.back_label = _("a face-down card")
                row.group_label = _.plural("{name}: {n} card in hand", "{name}: {n} cards in hand", in_hand,
                                           name=names[seat]) + turn
                row.deck = self.deck
            label.value = _template("player").render(name=names[seat], turn=turn)
        shown = tuple(self._other_boxes[:len(seats)])
        if self.others.children != shown:
            self.others.children = shown

    def _sheet_shown(self) -> bool:
        """Whether the last deal's score sheet is under the table. The game against the computer keeps it until
        the student presses «Next deal»; a table's next deal is dealt at once for every seat, and a «Next deal»
        that waited for each student would hold up the others. So each student's sheet stays until their own
        first play of the next deal, or their «Hide»: not until anyone's first play, which may come before they
        have read it (the computer plays within a second). The game's end keeps its sheet."""
        view = self.model.view
        last = view.get("last_deal")
        if not last:
            return False
        if view.get("game_over"):
            return True
        return not view.get("played_in_deal") and self._sheet_put_away != (view.get("code"), last["deal"])

    def _draw_sheet(self, _: Translator, rules) -> None:
        """The last deal's score sheet (the score sheet of the game against the computer), and the winner at the
        game's end, while :meth:`_sheet_shown`."""
        view = self.model.view
        last = view.get("last_deal")
        if last is None or not self._sheet_shown():
            self.sheet_box.children = []
            self._sheet_key = None
            return
        names = self._side_names(_)
        key = (view["code"], last["deal"], bool(view.get("game_over")), self.lang, tuple(names))
        if key == self._sheet_key:
            return
        self._sheet_key = key
        from .score_sheet import ScoreSheet  # only needed once a deal has ended

        sheet = ScoreSheet(score=deal_score(last), names=names, rules=rules, lang=self.lang,
                           totals=list(last["totals"]), you=self._you_side())
        lines = []
        over = view.get("game_over")
        if over:
            score = "–".join(map(str, over["totals"]))
            if over["winner"] == self._you_side() or (view.get("players") == 4 and over["winner"] == view["side"]):
                lines.append(_("You win the game, {score}!", score=score) if view.get("players") == 2 else
                             _("Your team wins the game, {score}!", score=score))
            else:
                lines.append(_("{name:The} wins the game, {score}!", name=names[over["winner"]], score=score))
        said = w.HTML(_template("paragraph").render(heading=_("End of deal {n}", n=last["deal"] + 1), lines=lines,
                                        css="escoba-winner"), layout=self._look.layout)
        self.hide_sheet.description = _("Hide the score sheet")
        # right under the heading, as the game's «Next deal»: in reach on a phone without scrolling past the sheet
        self.sheet_box.children = [said, sheet] if over else [said, self.hide_sheet, sheet]


def deal_score(summary: dict[str, Any]) -> DealScore:
    """The engine's score of a deal, from the server's summary of it (a setenta comes as its numbers)."""
    lines = []
    for line in summary["lines"]:
        values = tuple(_setenta(v) if isinstance(v, dict) else v for v in line["values"])
        lines.append(ScoreLine(line["item"], values, tuple(line["points"]), tuple(line["winners"]), line["reason"]))
    return DealScore(tuple(summary["points"]), tuple(lines))


def _setenta(value: dict[str, Any]) -> Setenta:
    """A setenta as the score sheet shows it (its sum, total, missing suits), from the server's summary: the best
    cards are not sent (a new deal may have dealt them to another hand), and the sheet does not show them."""
    missing = tuple(Suit(s) for s in value.get("missing", []))
    best = tuple(SuitBest(suit, None, None) for suit in SUITS)
    return Setenta(best, missing, int(value.get("sum", 0)), value.get("total"),
                   tuple(Suit(s) for s in value.get("face_only", [])))
