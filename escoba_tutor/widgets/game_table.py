"""GameTable: a whole game against the computer, or two students at one screen.

>>> from escoba_tutor.widgets import GameTable
>>> table = GameTable(players=2, seed=3, delay=0)
>>> table.session.phase in ("play", "deal_over")
True
"""

from __future__ import annotations

import asyncio
import base64
import html
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

import ipywidgets as w
from traitlets import Float, Unicode, observe, validate

from ..engine.errors import EscobaError, IllegalMoveError, SaveFormatError
from ..engine.game import Game, Move, Play
from ..engine.rules import PROFILES, Rules
from ..engine.save import MAX_UPLOAD_BYTES, read_save
from ..records.kernel import record_game_progress
from ..text import labels
from ..text.error_words import error_words
from ..text.labels import Label
from ..text.phrases import sentence_start, the_cards
from ..text.translator import DEFAULT_LANGUAGE, N_, Translator, normalize_language
from .capture_table import CaptureModel, CaptureTable
from .file_picker import FilePicker
from .look import SharedLook
from .memory import BrowserMemory
from .primitives import ActionButton, CardRow, LiveRegion, PlaceKeeper
from .safety import guarded
from .session import MODES, GameSession

if TYPE_CHECKING:  # imported when the first hint is asked for (_Hint.redraw)
    from .hint_panel import HintPanel

__all__ = ["GameTable", "DealReview", "ExpertReview", "ReviewSource"]

def side_names(_: Translator, session: GameSession) -> list[Label]:
    """What the screen calls each side: labels, with the forms a sentence needs (``{name:the}``: «el ordenador»)."""
    if session.mode == "pass_and_play":
        return [labels.player(_, i + 1) for i in range(session.players)]
    if session.players == 4:
        return [labels.your_team(_), labels.computer_team(_)]
    if session.players == 3:
        return [labels.you(_), labels.computer(_, 1), labels.computer(_, 2)]
    return [labels.you(_), labels.computer(_)]


def you_side(session: GameSession) -> int | None:
    """The side the student reads as "you" (sentences about it say "you take", not "You takes"); none when two
    students share the screen, and none with four players, where the sides are teams ("Your team takes")."""
    return 0 if session.mode == "computer" and session.players in (2, 3) else None


def player_name(_: Translator, session: GameSession, player: int) -> Label:
    """A player, as a label: ``The computer``, ``Your partner`` (a sentence says «tu compañero o compañera juega»)."""
    if player in session.humans:
        return labels.player(_, player + 1) if session.mode == "pass_and_play" else labels.you(_)
    if session.players == 4 and player == 2:
        return labels.partner(_)
    return labels.computer(_) if session.players == 2 else labels.computer(_, player)


def is_you(session: GameSession, player: int) -> bool:
    return session.mode == "computer" and player in session.humans


#: One play in words, by who played (you or someone named) and what the card did; a sweep by the rules' word for
#: it (``Rules.sweep``: Escoba's escoba, Scopa's scopa).
PLAY_WORDS = {
    ("you", "lay"): N_("You lay {card} on the table."),
    ("you", "take"): N_("You play {card} and take {taken}."),
    ("you", "escoba"): N_("You play {card} and take {taken}: escoba!"),
    ("you", "scopa"): N_("You play {card} and take {taken}: scopa!"),
    ("other", "lay"): N_("{who:The} lays {card} on the table."),
    ("other", "take"): N_("{who:The} plays {card} and takes {taken}."),
    ("other", "escoba"): N_("{who:The} plays {card} and takes {taken}: escoba!"),
    ("other", "scopa"): N_("{who:The} plays {card} and takes {taken}: scopa!"),
}

#: The score table's column of sweeps, by the rules' word for a sweep.
SWEEPS_HEADING = {"escoba": N_("Escobas"), "scopa": N_("Scopas")}


def describe_play(_: Translator, session: GameSession, player: int, card, captured, escoba: bool) -> str:
    """``The computer plays the king of clubs and takes the five of swords.`` — one play in words."""
    person = "you" if is_you(session, player) else "other"
    action = "lay" if not captured else session.rules.sweep if escoba else "take"
    return sentence_start(_(PLAY_WORDS[person, action], who=player_name(_, session, player), card=_.the_card(card),
                            taken=the_cards(_, sorted(captured))))


def leftover_words(_: Translator, session: GameSession, record) -> str:
    """The end of a deal: the cards left on the table, and who takes them (the last side that captured)."""
    return leftover_said(_, record, you_side(session), lambda side: _side_subject(_, session, side))


def leftover_said(_: Translator, record, you: int | None, subject: Callable[[int], Label]) -> str:
    """:func:`leftover_words` for any screen: ``you`` the side read as "you" (or None), ``subject`` a side as the
    subject of a sentence (the tables page names its players its own way)."""
    left = len(record.leftover)
    if not left:
        return _("End of the deal: the table is empty.")
    said = _.plural("End of the deal: {n} card is left on the table ({cards}).",
                    "End of the deal: {n} cards are left on the table ({cards}).", left,
                    cards=the_cards(_, record.leftover))
    side = record.leftover_to
    if side is None:
        taker = _.plural("Nobody made a capture, so nobody takes it.", "Nobody made a capture, so nobody takes them.",
                         left)
    elif side == you:
        taker = _.plural("You made the last capture, so you take it.", "You made the last capture, so you take them.",
                         left)
    else:
        taker = _.plural("{who:The} made the last capture and takes the card left on the table.",
                         "{who:The} made the last capture and takes the {n} cards left on the table.",
                         left, who=subject(side))
    return f"{said} {taker}"


def _side_subject(_: Translator, session: GameSession, side: int) -> Label:
    """A side as the subject of a sentence: its player (``The computer``), or its team with four players."""
    if session.players == 4 or session.mode == "pass_and_play":
        return side_names(_, session)[side]
    return player_name(_, session, side)


GAME_LEVELS = ("random", "greedy", "expert")

#: A second click on Undo this soon after the first (seconds) is the same action: a double click takes back one move.
UNDO_REPEAT = 0.6


def human_plays_in_deal(session: GameSession) -> bool:
    """Whether a learner has played in the deal under way (Undo stays inside it: a finished deal is scored)."""
    game = session.game
    return session.phase in ("play", "handover") and any(
        isinstance(e, Play) and e.player in session.humans and e.deal == game.deal for e in game.history)


def game_under_way(session: GameSession) -> bool:
    """Whether a learner has played in this game and it is not over: a new game would lose it."""
    return session.phase != "game_over" and any(
        isinstance(e, Play) and e.player in session.humans for e in session.game.history)


class GameTable(w.VBox):
    """A whole game: your hand, the table, the other hands face down, piles and escobas, the captures your hand
    can make; play by choosing a capture or building one. The computer's plays are paced and announced.

    ``GameTable(players=2, rules="escoba", seed=None, mode="computer" | "pass_and_play", level="random",
    lang="es", delay=1.2)``; ``level`` is the computer's: ``random`` (easy), ``greedy`` (medium) or ``expert``
    (hard). A hint button ranks the student's moves; after each deal the student can ask which of their plays
    cost the most and what the expert would have played.
    """

    lang = Unicode(DEFAULT_LANGUAGE)
    deck = Unicode("spanish")
    delay = Float(1.2)  # seconds between the computer's plays (0: at once)

    def __init__(self, players: int = 2, rules: Rules | str = "escoba", seed: int | None = None, *,
                 mode: str = "computer", level: str = "random", lang: str = DEFAULT_LANGUAGE, deck: str = "spanish",
                 delay: float = 1.2,
                 session: GameSession | None = None, **kwargs) -> None:
        self.session = session or GameSession(players=players, rules=rules, seed=seed, mode=mode, level=level,
                                              lang=lang)
        super().__init__(**kwargs)
        self.add_class("escoba-game-table")
        self._timer: asyncio.TimerHandle | None = None
        self._recorded = record_game_progress(self.session, ())  # the deals already played are not news
        self._undone_at = -1.0  # when the last Undo was done (time.monotonic())
        look = self._look = SharedLook()
        # The latest resume code is kept in the browser, keyed by the page, its language and rules as made.
        self._memory = BrowserMemory(scope=f"{normalize_language(lang)}:{self.session.rules.name}")
        self._offer = _ContinueOffer(self)
        self._title = w.HTML(layout=look.layout, style=look.html)
        self._scores = w.HTML(layout=look.layout, style=look.html)
        self._others = w.VBox(layout=look.layout)
        self._other_rows: list[CardRow] = []
        self._other_labels: list[w.HTML] = []
        self._other_boxes: list[w.HBox] = []
        self._position = CaptureModel(rules=self.session.rules)
        # The table of captures without its own Check/Clear buttons and status line: in a game, Play plays.
        self._captures = CaptureTable(model=self._position, editable=False, controls=False, lang=lang, deck=deck,
                                      look=look)
        # Play plays the capture the page shows, even a choice whose update is still on its way (ActionButton).
        self._play = ActionButton(button_style="primary", icon="play", layout=look.layout, inputs=[self._captures])
        self._play.add_class("escoba-play")
        self._undo = w.Button(icon="undo", layout=look.layout, style=look.button)
        self._announce = LiveRegion(sticky=True)  # what happened and what went wrong stay in view on a phone
        # Where the focus goes when the control used goes away (Play at a deal's end, Next deal once pressed), and
        # the status line shown when it answers a press (the targets follow the phase: _focus_targets)
        self._place = PlaceKeeper(scope=".escoba-game-table", status=".escoba-game-status")
        self._handover = w.Button(button_style="primary", style=look.button)  # (their own layouts: shown, hidden)
        self._next_deal = w.Button(button_style="primary", style=look.button)
        self._handover.add_class("escoba-handover")
        self._next_deal.add_class("escoba-next-deal")
        self._sheet_box = w.VBox(layout=look.layout)
        self._review = DealReview(self, look)
        self._seen_toggle = w.ToggleButton(icon="eye", layout=look.layout, style=look.toggle)
        self._unseen = CardRow(size="small")
        self._setup = _Setup(self)
        self._saving = _Saving(self)
        self._hint = _Hint(self)
        self._actions = w.HBox([self._play, self._undo, self._hint.button], layout=w.Layout(flex_flow="row wrap"))
        self._board = w.VBox([self._others, self._captures, self._actions, self._hint])
        self._board.add_class("escoba-board")
        self._scores.add_class("escoba-scoreboard")
        self._title.add_class("escoba-game-title")
        self._announce.add_class("escoba-game-status")
        self._actions.add_class("escoba-actions")
        self._others.add_class("escoba-others")
        self._hint.add_class("escoba-hint")
        self._sheet_box.add_class("escoba-deal-end")
        self._expert_review = ExpertReview(self, look, self._guard)
        # At a deal's end the finished deal stays in view (the board shows how it ended) and right under it come
        # the deal's points with the button to go on. On one column (a phone) the status line is drawn right under
        # Play (widgets.css): what a press did shows next to it, and it never lies over the table or the hand.
        self.children = [self._title, self._offer, self._scores, self._announce, self._board, self._handover,
                         self._sheet_box, self._expert_review, self._review, self._seen_toggle, self._unseen,
                         self._setup, self._saving, self._memory, self._place]
        self._play.on_click(self._play_clicked)
        # A double click (or tap) on a capture only chooses it: playing takes a press of Play, one deliberate action.
        self._undo.on_click(self._undo_clicked)
        self._handover.on_click(lambda _b: self._guard(self.session.take_over))
        self._next_deal.on_click(lambda _b: self._guard(self.session.next_deal))
        self._seen_toggle.observe(lambda _c: self._redraw(), "value")
        self.session.observe(self._session_changed, "revision")
        # a new choice answers a refusal: the status line goes back to the game's news
        self._position.observe(lambda _c: self._guard(self._chose_again), ["selected", "built_card", "built_taken"])
        self._refused = False
        self.lang, self.deck, self.delay = lang, deck, delay
        self._redraw()
        self._schedule_computer()

    @property
    def other_hands(self) -> tuple[CardRow, ...]:
        """The other players' hands as the screen shows them (face down), in seat order after the viewer's."""
        return tuple(self._other_rows[:self.session.players - 1])

    def close(self) -> None:
        """Close the table; the computer's next move, if one is waiting its turn, is dropped."""
        if getattr(self, "_timer", None) is not None:  # (ipywidgets closes a table whose making failed, too)
            self._cancel_timer()
        super().close()

    # ------------------------------------------------------------------------------------- behaviour
    @validate("lang")
    def _valid_lang(self, proposal):
        return normalize_language(proposal["value"])

    @observe("lang", "deck")
    def _look_changed(self, change) -> None:
        if hasattr(self, "_setup"):
            self._captures.lang, self._captures.deck = self.lang, self.deck
            self.session.lang = self.lang
            self._redraw()

    @guarded
    def _guard(self, action, *args) -> None:
        """Run a click's action; an unexpected error is logged and told to the learner, never silent."""
        action(*args)

    def _play_clicked(self, button) -> None:
        self._guard(self._play_chosen)

    def _play_chosen(self, row_id: str | None = None) -> None:
        """Play the capture chosen in the list or the one built from cards.

        Every check is made on the kernel's state when the click arrives, so a second click of a double click, or
        a message that arrives twice, finds the capture gone (the card was played) or the computer to move, and
        plays nothing: it only says why.
        """
        s, _ = self.session, Translator(self.lang)
        if s.computer_to_move:
            self._refuse(_("Wait: the computer is playing."))
            return
        if s.phase != "play" or s.game.turn != s.viewer:
            self._refuse(_("Wait: it is not your turn yet."))
            return
        row_id = self._position.selected if row_id is None else row_id
        chosen = next((row for row in self._position.rows if row["id"] == row_id), None)
        if chosen:
            move = Move(chosen["card"], chosen["taken"])
        elif self._position.built_card:
            move = Move(self._position.built_card, self._position.built_taken)
        else:
            self._refuse(_("Choose a capture in the list, or a card from your hand (and the cards it takes), then "
                           "press “Play”."))
            return
        s.play(move)

    def _refuse(self, reason: str) -> None:
        """Say why a click did nothing, before what the status line said (so the last plays stay readable)."""
        news = self._news(Translator(self.lang))
        self._announce.message = f"{reason} {news}".strip()
        self._refused = True

    def _chose_again(self) -> None:
        """After a refusal (a click that did nothing, a play the rules refuse), a new choice of the learner's
        clears it: the status line says the game's news again, not a complaint about a choice no longer made."""
        s = self.session
        if not (self._refused or s.problem is not None) or s.phase != "play" or s.game.turn != s.viewer:
            return
        self._refused = False
        s.problem = None
        self._announce.message = self._news(Translator(self.lang))

    def _undo_clicked(self, button) -> None:
        """Take back one move of the learner's. The second click of a double click arrives at once after the first
        was done: it is the same action, and takes back nothing more."""
        if time.monotonic() - self._undone_at < UNDO_REPEAT:
            return
        self._cancel_timer()
        self._guard(self.session.undo)
        self._undone_at = time.monotonic()

    @guarded
    def _session_changed(self, change) -> None:
        self._recorded = record_game_progress(self.session, self._recorded)  # the class board (never raises)
        self._redraw()
        self._schedule_computer()

    # ----------------------------------------------------------------------------------- computer pacing
    def _schedule_computer(self) -> None:
        if not self.session.computer_to_move or self._timer is not None:
            return
        if self.delay <= 0:
            self._guard(self.session.finish_computer_turns)
            return
        try:
            loop = asyncio.get_event_loop()
        except RuntimeError:
            self._guard(self.session.finish_computer_turns)
            return
        self._timer = loop.call_later(self.delay, self._computer_turn)

    def _computer_turn(self) -> None:
        self._timer = None
        self._guard(self.session.computer_step)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    # ------------------------------------------------------------------------------------------ drawing
    def _redraw(self) -> None:
        # Kept in the browser before anything shows the new position: the kernel's messages reach the page in the
        # order they are sent, so a reload right after a play never brings back the game from before it.
        self._remember()
        s, _ = self.session, Translator(self.lang)
        # first: a control hidden by the updates below finds the focus's new place already set
        self._place.targets = self._focus_targets()
        game = s.game
        view = game.view(s.viewer)
        names = side_names(_, s)
        title = _("A game of Escoba") if game.rules.capture == "fifteen" else _("A game of Scopa")
        self._title.value = f"<h3 class='escoba-title'>{html.escape(title)}</h3>" + self._players_note(_)
        ended = self._ended_deal()
        self._scores.value = self._scoreboard(_, names, view, ended)
        self._draw_others(_, view, ended)
        playing = s.phase == "play"
        # At a deal's end the board shows the finished deal as it ended (its last table, empty hands) until the
        # learner moves on: the next deal, already dealt by the engine, waits behind "Next deal".
        table = ended.tables()[-1] if ended else view.table
        self._position.place(" ".join(c.code for c in view.hand) if playing else "",
                             " ".join(c.code for c in table), game.rules)
        if ended:
            self.add_class("escoba-deal-over")
        else:
            self.remove_class("escoba-deal-over")
        self._board.layout.display = "none" if s.phase == "handover" else "flex"
        self._play.description = _("Play")
        # Enabled during the computer's turn too: a click then says why it does nothing (a disabled button can't)
        self._play.disabled = not playing
        self._undo.description = _("Undo")
        self._undo.disabled = not human_plays_in_deal(s)
        self._handover.description = _("I'm {name:the}: show me my cards", name=player_name(_, s, game.turn or 0))
        self._handover.layout.display = "inline-flex" if s.phase == "handover" else "none"
        self._draw_sheet(_, names)
        self._seen_toggle.description = _("Cards still unseen")
        unseen = [c for c in view.unseen]
        with self._unseen.hold_sync():
            self._unseen.cards = [c.code for c in unseen]
            self._unseen.labels = [_.card_name(c) for c in unseen]
            self._unseen.group_label = _("Cards you have not seen in this deal")
            self._unseen.deck = self.deck
            self._unseen.figure_words = [_.rank_name(rank) for rank in (10, 11, 12)]
        self._unseen.layout.display = "flex" if self._seen_toggle.value else "none"
        self._review.redraw(_)
        self._hint.redraw(_)
        self._expert_review.redraw(_)
        self._setup.redraw(_)
        self._saving.redraw(_)
        self._offer.redraw(_)
        self._announce.message = self._news(_)
        self._refused = False

    def _focus_targets(self) -> list[str]:
        """Where the focus goes when the control the student used goes away, by phase: the hand-over button, Next
        deal, New game at the game's end; while playing, the hand (its tab stop), then Play."""
        phase = self.session.phase
        if phase == "handover":
            return [".escoba-handover"]
        if phase == "deal_over":
            return [".escoba-next-deal"]
        if phase == "game_over":
            return [".escoba-new-game"]
        return [".escoba-ct-hand.et-row, .escoba-ct-hand .et-row", ".escoba-play"]

    def _players_note(self, _: Translator) -> str:
        """Say it when the house rules seated another number of players than was asked for."""
        note = self.session.players_note
        if not note:
            return ""
        if note["option"] == "three_player_ties":
            text = _("The three-player ties rule needs 3 players, so this game has 3 players instead of {asked}.",
                     asked=note["asked"])
        else:
            text = _("The Chilean house rule (escoba en mano) needs 3 or 4 players, so this game has {players} "
                     "players instead of {asked}.",
                     players=note["players"], asked=note["asked"])
        return f"<p class='escoba-players-note' role='note'>{html.escape(text)}</p>"

    def _remember(self) -> None:
        """Keep the latest resume code in the browser once the learner has played: a reload can then offer it.
        A game nobody has played in yet keeps nothing (it must not replace the game a reload would offer)."""
        s = self.session
        if any(isinstance(e, Play) and e.player in s.humans for e in s.game.history):
            self._memory.entry = {"code": self._saving.saved()[1], "level": s.level, "mode": s.mode}

    def _ended_deal(self):
        """The deal whose end is on screen (its score sheet waits to be read), or None while playing."""
        s = self.session
        if s.phase in ("deal_over", "game_over") and s.game.deals:
            return s.game.deals[min(s.deals_seen, len(s.game.deals) - 1)]
        return None

    # -- what the deal's reviews read (ReviewSource)
    def deal_to_review(self):
        deals = self.session.game.deals
        return deals[-1] if deals else None

    def deal_to_judge(self) -> tuple[Game, int, int] | None:
        s = self.session
        if s.phase not in ("deal_over", "game_over") or not s.game.deals or s.mode != "computer":
            return None
        return s.game, s.humans[0], min(s.deals_seen, len(s.game.deals) - 1)

    def play_words(self, _: Translator, player: int, card, captured, escoba: bool) -> str:
        return describe_play(_, self.session, player, card, captured, escoba)

    def leftover_words(self, _: Translator, record) -> str:
        return leftover_words(_, self.session, record)

    def _scoreboard(self, _: Translator, names: Sequence[str], view, ended=None) -> str:
        s = self.session
        rows = []
        totals = ended.totals if ended else view.totals
        piles = [len(pile) for pile in ended.piles] if ended else view.pile_sizes
        all_escobas = ended.escobas if ended else view.escobas
        for side, name in enumerate(names):
            escobas = all_escobas[side]
            marks = " ".join("▮" for _i in range(escobas))
            rows.append(f"<tr><th scope='row'>{html.escape(name)}</th><td>{totals[side]}</td>"
                        f"<td>{piles[side]}</td><td>{escobas} <span aria-hidden='true'>{marks}</span>"
                        f"</td></tr>")
        left = 0 if ended else view.deck_left
        # three counts, each with its own plural form ("Game to 1 point" with a teacher's target of 1)
        target = _.plural("Game to {target} point", "Game to {target} points", s.rules.target, target=s.rules.target)
        to_deal = _.plural("{n} card left to deal", "{n} cards left to deal", left)
        caption = _("{target} · deal {deal} · {to_deal}", target=target, deal=(ended.deal if ended else view.deal) + 1,
                    to_deal=to_deal)
        head = "".join(f"<th scope='col'>{html.escape(h)}</th>" for h in
                       (_("Side"), _("Points"), _("Cards taken"), _(SWEEPS_HEADING[s.rules.sweep])))
        return (f"<table class='escoba-scores'><caption>{html.escape(caption)}</caption><thead><tr>{head}</tr>"
                f"</thead><tbody>{''.join(rows)}</tbody></table>")

    def _draw_others(self, _: Translator, view, ended=None) -> None:
        """The other hands, face down. Their widgets are made once and then only updated: a redraw per play must
        not leave a trail of dead widgets in the kernel and the page."""
        s = self.session
        others = [p for p in range(s.players) if p != s.viewer]
        while len(self._other_rows) < len(others):
            self._other_rows.append(CardRow(size="small"))
            self._other_labels.append(w.HTML(layout=self._look.layout, style=self._look.html))
            self._other_boxes.append(w.HBox([self._other_labels[-1], self._other_rows[-1]],
                                            layout=w.Layout(align_items="center", flex_flow="row wrap")))
        for row, label, player in zip(self._other_rows, self._other_labels, others):
            name = player_name(_, s, player)
            turn = _(" (to play)") if view.turn == player and not ended else ""
            in_hand = 0 if ended else view.hand_sizes[player]
            with row.hold_sync():
                row.cards = []
                row.face_down = in_hand
                row.back_label = _("a face-down card")
                row.group_label = _.plural("{name}: {n} card in hand", "{name}: {n} cards in hand",
                                           in_hand, name=name) + turn
                row.deck = self.deck
            label.value = f"<b>{html.escape(name)}</b>{html.escape(turn)}"
        shown = tuple(self._other_boxes[:len(others)])
        if self._others.children != shown:
            self._others.children = shown

    def _draw_sheet(self, _: Translator, names: Sequence[str]) -> None:
        s = self.session
        self._next_deal.description = _("Next deal")
        self._next_deal.layout.display = "inline-flex" if s.phase == "deal_over" else "none"
        record = self._ended_deal()
        if record is None:
            self._sheet_box.children = []
            self._sheet_key = None
            return
        key = (id(s.game), record.deal, s.phase, self.lang, tuple(names))
        if getattr(self, "_sheet_key", None) == key:
            return  # the same sheet: not made again at every redraw
        self._sheet_key = key
        from .score_sheet import ScoreSheet  # only needed at a deal's end

        sheet = ScoreSheet(score=record.score, names=names, rules=s.rules, lang=self.lang, totals=list(record.totals),
                           you=you_side(s))
        winner = ""
        if s.phase == "game_over" and s.game.winner is not None:
            score = "–".join(map(str, s.game.totals))
            if s.game.winner == you_side(s):
                winner = _("You win the game, {score}!", score=score)
            else:
                winner = _("{name:The} wins the game, {score}!", name=names[s.game.winner], score=score)
        heading = _("End of deal {n}", n=record.deal + 1)
        look = self._look
        # "Next deal" right under the heading: on a phone it is in reach without scrolling past the sheet.
        said = [w.HTML(f"<h4>{html.escape(heading)}</h4>", layout=look.layout, style=look.html)]
        if winner:  # (an empty line would only push «Next deal» down)
            said.append(w.HTML(f"<p class='escoba-winner'>{html.escape(winner)}</p>", layout=look.layout,
                               style=look.html))
        self._sheet_box.children = [*said, self._next_deal, sheet]

    def _news(self, _: Translator) -> str:
        s = self.session
        if s.problem is not None:
            return _problem_text(_, s.problem)
        turn = s.game.turn
        if s.phase == "handover" and turn is not None:  # a hand-over always waits for a player
            return _("Pass the screen {name:to}.", name=player_name(_, s, turn))
        if s.phase == "game_over":
            return _("The game is over.") + " " + _("Press «New game» to play another.")
        if s.phase == "deal_over" and s.game.deals:
            record = s.game.deals[min(s.deals_seen, len(s.game.deals) - 1)]
            score = _("Here is the score.")
            return f"{leftover_words(_, s, record)} {score} " + _("Press «Next deal» to go on.")
        said = [describe_play(_, s, e.player, e.card, e.captured, e.escoba) for e in s.events]
        if s.computer_to_move and turn is not None:  # the computer to move: never None
            said.append(_("{name:The} is thinking…", name=player_name(_, s, turn)))
        elif s.game.turn == s.viewer:
            said.append(_("Your turn."))
        return " ".join(said)


def _problem_text(_: Translator, problem: EscobaError) -> str:
    """A refused action in a sentence (the words of its code); a refused play asks the student to choose again."""
    said = sentence_start(error_words(_, {"code": problem.code, **problem.params})) + "."
    again = _("Choose again.")  # (not inside the f-string: the catalog extractor would not see it)
    return f"{said} {again}" if isinstance(problem, IllegalMoveError) else said


class _ContinueOffer(w.VBox):
    """After a reload (or a kernel the server culled): the game this browser kept, offered with one click."""

    def __init__(self, table: GameTable) -> None:
        super().__init__()
        self._table = table
        self.add_class("escoba-continue")
        look = table._look
        self._text = w.HTML(layout=look.layout, style=look.html)
        self._yes = w.Button(button_style="primary", icon="play-circle", layout=look.layout, style=look.button)
        self._no = w.Button(layout=look.layout, style=look.button)
        self.children = [self._text, w.HBox([self._yes, self._no], layout=w.Layout(flex_flow="row wrap"))]
        self._answered = False
        self._checked: tuple | None = None  # (code, whether it can be continued)
        self._yes.on_click(lambda _b: table._guard(self._continue))
        self._no.on_click(lambda _b: table._guard(self._decline))
        table._memory.observe(lambda _c: table._guard(self.redraw, Translator(table.lang)), "found")

    def _kept(self) -> dict | None:
        """The kept entry, when it is a game that can go on and is not the one on screen."""
        found = self._table._memory.found
        code = found.get("code", "")
        if not code or code == self._table._saving.saved()[1]:
            return None
        if self._checked is None or self._checked[0] != code:
            try:
                ok = not read_save(code, Game).game.is_over
            except EscobaError:
                ok = False  # a code spoiled in the browser's storage: nothing to offer
            self._checked = (code, ok)
        return found if self._checked[1] else None

    def _continue(self) -> None:
        found = self._kept()
        self._answered = True
        if found is None:
            self.redraw(Translator(self._table.lang))
            return
        table, session = self._table, self._table.session
        table._cancel_timer()
        with session.hold_trait_notifications():
            if found.get("mode") in MODES:
                session.mode = found["mode"]
            if found.get("level") in GAME_LEVELS:
                session.level = found["level"]
        session.load(found["code"])

    def _decline(self) -> None:
        self._answered = True
        self.redraw(Translator(self._table.lang))

    def redraw(self, _: Translator) -> None:
        s = self._table.session
        fresh = not any(isinstance(e, Play) and e.player in s.humans for e in s.game.history)
        shown = not self._answered and fresh and self._kept() is not None
        self.layout.display = "flex" if shown else "none"
        if not shown:
            return
        question = _("Continue your game?")
        why = _("This browser kept the game you were playing on this page.")
        self._text.value = f"<p><strong>{html.escape(question)}</strong> {html.escape(why)}</p>"
        self._yes.description = _("Yes, continue")
        self._no.description = _("No, thanks")


class _Setup(w.VBox):
    """New game: players, rules, mode, and the computer's level (which applies at once). A new game asks first
    when a game is under way."""

    def __init__(self, table: GameTable) -> None:
        super().__init__()
        self._table = table
        look = table._look
        self._players = w.Dropdown(options=[2, 3, 4], value=table.session.players, layout=look.layout,
                                   style=look.description)
        current = table.session.rules.name  # the server's house rules come first
        self._rules = w.Dropdown(options=list(dict.fromkeys([current, *PROFILES])), value=current,
                                 layout=look.layout, style=look.description)
        self._mode = w.ToggleButtons(options=[("computer", "computer")], value="computer")
        self._level = w.Dropdown(options=[("random", "random")], value="random", layout=look.layout,
                                 style=look.description)
        self._drawing = False
        # «New game» and its «yes» start the game the page's choices show (ActionButton)
        self._new = ActionButton(icon="refresh", layout=look.layout)
        self._new.add_class("escoba-new-game")
        self._note = w.HTML(style=look.html)  # when the choices apply (its own layout: shown and hidden)
        self._ask = w.HTML(layout=look.layout, style=look.html)
        self._yes = ActionButton(button_style="danger", layout=look.layout)
        self._no = w.Button(layout=look.layout, style=look.button)
        self._confirm = w.VBox([self._ask, w.HBox([self._yes, self._no], layout=w.Layout(flex_flow="row wrap"))])
        self._confirm.add_class("escoba-confirm")
        self._confirm.layout.display = "none"
        self.children = [w.HBox([self._players, self._rules, self._level, self._mode, self._new],
                                layout=w.Layout(flex_flow="row wrap", align_items="center")), self._note,
                         self._confirm]
        self._new.inputs = self._yes.inputs = [self._players, self._rules, self._level, self._mode]
        self._new.on_click(lambda _b: table._guard(self._new_clicked))
        self._yes.on_click(lambda _b: table._guard(self._start))
        self._no.on_click(lambda _b: table._guard(self._keep_playing))
        self._level.observe(lambda change: table._guard(self._level_chosen, change), "value")
        for choice in (self._players, self._rules, self._mode):
            choice.observe(lambda _c: table._guard(self._draw_note, Translator(table.lang)), "value")

    def _new_clicked(self) -> None:
        """A game under way is not replaced by one click (a double click did it): ask first. A second click while
        asking asks again, nothing more."""
        if game_under_way(self._table.session):
            self._confirm.layout.display = "flex"
            self.redraw(Translator(self._table.lang))
        else:
            self._start()

    def _keep_playing(self) -> None:
        self._confirm.layout.display = "none"

    def _level_chosen(self, change) -> None:
        session = self._table.session
        if self._drawing or change["new"] == session.level or change["new"] not in GAME_LEVELS:
            return
        session.level = change["new"]  # applies at once (the session makes new computer players)
        _ = Translator(self._table.lang)
        label = dict((value, text) for text, value in self._level.options)[change["new"]]
        said = _("From now on the computer plays at the level «{level}».", level=label)
        turn = _("It is still your turn.") if session.phase == "play" and session.game.turn == session.viewer \
            and not session.computer_to_move else ""
        self._table._announce.message = f"{said} {turn}".strip()  # whose turn it is stays said

    def _start(self) -> None:
        session = self._table.session
        self._confirm.layout.display = "none"
        self._table._cancel_timer()
        session.mode = self._mode.value if self._players.value == 2 else "computer"
        session.level = self._level.value
        session.new_game(self._players.value, self._rules.value, None)

    def _draw_note(self, _: Translator) -> None:
        """Players, rules and mode apply to the next game: say so while a choice differs from the game played."""
        s = self._table.session
        mode = self._mode.value if self._players.value == 2 else "computer"
        pending = (self._players.value, self._rules.value, mode) != (s.players, s.rules.name, s.mode)
        text = _("Players, rules and mode change when you press «New game».") if pending else ""
        self._note.value = f"<p class='escoba-note'>{html.escape(text)}</p>" if text else ""
        self._note.layout.display = "flex" if text else "none"

    def redraw(self, _: Translator) -> None:
        self._drawing = True  # new option labels may pass the chooser through other values: not a learner's choice
        try:
            self._draw(_)
        finally:
            self._drawing = False

    def _draw(self, _: Translator) -> None:
        self._players.description = _("Players")
        self._rules.description = _("Rules")
        self._mode.options = [(_("Against the computer"), "computer"), (_("Two students, one screen"), "pass_and_play")]
        self._mode.value = self._table.session.mode
        self._level.description = _("Computer")
        self._level.options = [(_("easy"), "random"), (_("medium"), "greedy"), (_("hard"), "expert")]
        self._level.value = self._table.session.level
        self._new.description = _("New game")
        self._ask.value = "<p><strong>{}</strong> {}</p>".format(
            html.escape(_("Start a new game?")),
            html.escape(_("The game under way will be lost (copy its resume code first to keep it).")))
        self._yes.description = _("Yes, a new game")
        self._no.description = _("No, keep playing")
        self._draw_note(_)


class _Hint(w.VBox):
    """The hint button and, while it is on, the expert's ranking of the moves in front of the student (their own
    view only). It turns itself off once the position changes: a hint is for one decision."""

    def __init__(self, table: GameTable) -> None:
        super().__init__()
        self._table = table
        self.button = w.ToggleButton(icon="lightbulb-o")
        self._panel: HintPanel | None = None  # made on the first hint: most games never ask for one
        self._position: tuple[int, int, int] | None = None
        self.button.observe(lambda _c: table._guard(self.redraw, Translator(table.lang)), "value")

    def redraw(self, _: Translator) -> None:
        s = self._table.session
        game = s.game
        position = (id(game), len(game.moves), game.deal)
        if position != self._position and self.button.value:
            self._position = position
            self.button.value = False  # the redraw this causes finds the button off
            return
        self._position = position
        mine = s.phase == "play" and game.turn == s.viewer and not s.computer_to_move
        self.button.description = _("Hint")
        self.button.tooltip = _("The expert ranks your plays and says why")
        self.button.layout.display = "inline-flex" if mine else "none"
        if not (mine and self.button.value):
            self.layout.display = "none"
            return
        from .hint_panel import HintPanel  # only needed when a hint is asked for

        view = game.view(s.viewer)
        if self._panel is None:
            self._panel = HintPanel(view=view, limit=3, lang=self._table.lang)
            self.children = [self._panel]
        else:
            self._panel.lang = self._table.lang
            self._panel.model.view = view
        self.layout.display = "flex"


class _Saving(w.VBox):
    """Download the save file, upload one, or use the resume code."""

    def __init__(self, table: GameTable) -> None:
        super().__init__()
        self._table = table
        look = table._look
        self._download = w.HTML(layout=look.layout, style=look.html)
        # Not ipywidgets' FileUpload: it sends any file the student picks, and the server closes the page's
        # connection on one too big to be a save. FilePicker checks the size in the page and sends none over it.
        self._upload = FilePicker(accept=".json", max_bytes=MAX_UPLOAD_BYTES, layout=look.layout)
        self._code = w.Text(layout=w.Layout(width="auto", flex="1 1 20em"))
        # the code as the page shows it, even its last keys still on their way (ActionButton)
        self._resume = ActionButton(icon="folder-open", layout=look.layout, inputs=[self._code])
        self._current = w.HTML(layout=look.layout, style=look.html)
        self.children = [self._download, self._upload, self._current,
                         w.HBox([self._code, self._resume], layout=w.Layout(flex_flow="row wrap"))]
        self._upload.on_file(lambda _name, data: table._guard(self._uploaded, data))
        self._resume.on_click(lambda _b: table._guard(self._resume_clicked))

    def _uploaded(self, data: bytes) -> None:
        self._table._cancel_timer()
        session = self._table.session
        if len(data) > MAX_UPLOAD_BYTES:  # the page sends none this big; a page without its script might
            session.problem = SaveFormatError("this file is too large to be a game save", code="save_too_large")
            session.revision += 1
            return
        session.load(data)

    def _resume_clicked(self) -> None:
        self._table._cancel_timer()
        if self._table.session.load(self._code.value):
            self._code.value = ""

    def saved(self) -> tuple[str, str]:
        """The save file (base64) and the resume code, made again only when the game has changed: the code
        replays the whole game, which a redraw per click should not pay for."""
        session = self._table.session
        game = session.game
        key = (id(game), game.seed, game.players, game.rules, len(game.moves), game.moves[-1] if game.moves else None,
               session.level, session.mode, tuple(session.names))
        if getattr(self, "_saved_key", None) != key:
            self._saved_key = key
            self._saved_value = (base64.b64encode(session.save_json().encode()).decode(), session.resume_code())
        return self._saved_value

    def redraw(self, _: Translator) -> None:
        data, code = self.saved()
        label = html.escape(_("Download this game"))
        self._download.value = (f"<a class='escoba-download' download='escoba-game.json' "
                                f"href='data:application/json;base64,{data}'>⬇ {label}</a>")
        self._upload.description = _("Load a game")
        limit = _("A saved game is a file of {kb} kB at most.", kb=MAX_UPLOAD_BYTES // 1024)
        self._upload.too_large = f"{_problem_text(_, SaveFormatError('', code='save_too_large'))} {limit}"
        code = html.escape(code)
        intro = _("Resume code (copy it to go on later):")
        self._current.value = f"<p>{html.escape(intro)} <code class='escoba-code'>{code}</code></p>"
        self._code.description = _("Code")
        self._code.placeholder = _("paste a resume code")
        self._resume.description = _("Resume")


class ReviewSource(Protocol):
    """What a deal's reviews read: the game against the computer (:class:`GameTable`) and the tables page where
    students play each other (class_tables.py, which replays a finished deal from its public plays) are two."""

    lang: str
    deck: str

    def deal_to_review(self):
        """The finished deal to step through (a :class:`DealRecord`), or None."""

    def deal_to_judge(self) -> tuple[Game, int, int] | None:
        """The game, the player and the index in ``game.deals`` of the deal whose costliest play the expert may
        judge now (:func:`costliest_move` replays it from :meth:`Game.restarted`), or None."""

    def play_words(self, _: Translator, player: int, card, captured, escoba: bool) -> str:
        """One play of the deal in words, its player named as the screen names them."""

    def leftover_words(self, _: Translator, record) -> str:
        """The deal's end in words: the cards left on the table and who takes them."""


class DealReview(w.VBox):
    """Step through the last finished deal: the table before each play, and the play."""

    def __init__(self, source: ReviewSource, look: SharedLook) -> None:
        super().__init__()
        self._source = source
        self._step = 0
        self._open = w.ToggleButton(icon="history")
        self._back = w.Button(icon="step-backward", layout=look.layout, style=look.button)
        self._forward = w.Button(icon="step-forward", layout=look.layout, style=look.button)
        self._text = w.HTML(layout=look.layout, style=look.html)
        self._cards = CardRow(size="small", layout=look.layout)
        self._body = w.VBox([w.HBox([self._back, self._forward], layout=look.layout), self._text, self._cards])
        self.children = [self._open, self._body]
        self._open.observe(lambda _c: self.redraw(Translator(source.lang)), "value")
        self._back.on_click(lambda _b: self._move(-1))
        self._forward.on_click(lambda _b: self._move(1))

    @property
    def text(self) -> str:
        """What the review says of the step shown (a play, or the deal's end); empty while it is closed."""
        return self._text.value if self._body.layout.display == "flex" else ""

    def _move(self, delta: int) -> None:
        self._step += delta
        self.redraw(Translator(self._source.lang))

    def redraw(self, _: Translator) -> None:
        record = self._source.deal_to_review()
        self._open.description = _("Review the last deal")
        self._open.layout.display = "inline-flex" if record else "none"
        self._body.layout.display = "flex" if record and self._open.value else "none"
        if not record or not self._open.value:
            return
        tables = record.tables()
        self._step = max(0, min(self._step, len(record.plays)))
        self._back.description, self._forward.description = _("Back"), _("Forward")
        self._back.disabled, self._forward.disabled = self._step == 0, self._step == len(record.plays)
        table = tables[self._step]
        self._cards.cards = [c.code for c in table]
        self._cards.labels = [_.card_name(c) for c in table]
        self._cards.deck = self._source.deck
        self._cards.figure_words = [_.rank_name(rank) for rank in (10, 11, 12)]
        self._cards.group_label = _("The table")
        if self._step == len(record.plays):
            text = self._source.leftover_words(_, record)
        else:
            play = record.plays[self._step]
            said = self._source.play_words(_, play.player, play.move.card, play.move.captured, play.escoba)
            text = _("Play {n} of {total}: {play}", n=self._step + 1, total=len(record.plays), play=said)
        self._text.value = f"<p>{html.escape(text)}</p>"


class ExpertReview(w.VBox):
    """After a deal: the student's play that cost the most against the expert's choice, and the expert's play."""

    def __init__(self, source: ReviewSource, look: SharedLook, guard: Callable) -> None:
        super().__init__()
        self._source = source
        self._ask = w.Button(icon="graduation-cap", layout=look.layout, style=look.button)
        self._text = w.HTML(layout=look.layout, style=look.html)
        self._answer: tuple | None = None  # (deal key, the costly move or None)
        self.children = [self._ask, self._text]
        self._ask.on_click(lambda _b: guard(self._asked))

    @property
    def text(self) -> str:
        """The expert's answer, once asked for (empty before)."""
        return self._text.value

    def _key(self, judged: tuple[Game, int, int]) -> tuple:
        game, player, deal = judged
        return (id(game), player, deal)

    def _asked(self) -> None:
        from ..players.hints import costliest_move

        judged = self._source.deal_to_judge()
        if judged is None:
            return
        game, player, deal = judged
        self._answer = (self._key(judged), costliest_move(game, player, deal=deal))
        self.redraw(Translator(self._source.lang))

    def redraw(self, _: Translator) -> None:
        judged = self._source.deal_to_judge()
        self.layout.display = "none" if judged is None else "flex"
        self._ask.description = _("What would the expert have played?")
        if judged is None or self._answer is None or self._answer[0] != self._key(judged):
            self._text.value = ""
            return
        from .hint_panel import move_words, points_words, reason_words

        costly = self._answer[1]
        game = judged[0]
        sides = len(game.sides)
        if costly is None:
            text = _("Every play of yours in this deal was as good as the expert's.")
        else:
            text = _("Your costliest play in this deal was play {n}: {played}. After it, you could expect to end the "
                     "deal with {value}, on average. The expert would have played {best}, which leads to "
                     "{best_value} instead: {reason}.", n=costly.play + 1,
                     played=move_words(_, costly.played.move), value=points_words(_, costly.played.value, sides),
                     best=move_words(_, costly.best.move), best_value=points_words(_, costly.best.value, sides),
                     reason=reason_words(_, costly.best.reason, game.rules))
        self._text.value = f"<p class='escoba-expert-review'>{html.escape(text)}</p>"
