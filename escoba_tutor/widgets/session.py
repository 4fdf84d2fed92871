"""The state of a game at the screen: who is human, whose hand is shown, the computer's turns, pauses at the
end of each deal, and saving. No rule is computed here: the engine's Game decides everything.

>>> session = GameSession(players=2, seed=3)
>>> session.phase, session.viewer
('play', 0)
>>> session.finish_computer_turns()   # let the computer play until it is the learner's turn
>>> session.game.turn == 0 or session.phase != "play"
True
"""

from __future__ import annotations

import random

from traitlets import Any, HasTraits, Instance, Int, List, Unicode, observe, validate

from ..engine.errors import EscobaError, IllegalMoveError, NothingToUndoError
from ..engine.game import Game, Move, Play
from ..engine.rules import ESCOBA, Rules, rules_by_name
from ..engine.save import dump_code, dump_json, read_save
from ..players.bots import BOTS, LEVELS, Bot, make_bot
from ..text.translator import DEFAULT_LANGUAGE, normalize_language

__all__ = ["GameSession", "MODES"]


def _fits(rules: Rules, players: int) -> bool:
    try:
        rules.check_players(players)
    except EscobaError:
        return False
    return True

MODES = ("computer", "pass_and_play")


class GameSession(HasTraits):
    """A game between the learner (seat 0) and the computer, or two learners at one screen.

    ``phase``: ``play``; ``handover`` (pass and play: the screen waits for the next student before showing a
    hand); ``deal_over`` (the deal's score sheet waits to be read); ``game_over``.
    ``revision`` changes whenever anything on the screen should be redrawn. ``events`` lists what happened
    since the last human move, as data (for announcements).

    ``level`` is the computer's (a bot name: random, greedy, expert; the level names fácil, medio, difícil and easy,
    medium, hard are taken too); ``names`` are the players' own names, in seat order, or none (the screen's words
    then). A save holds the level, the mode and the names, and loading one brings them back with the game.
    """

    players = Int(2)
    rules = Instance(Rules, args=())  # Rules() is the default profile, ESCOBA
    seed = Int(0)
    mode = Unicode("computer")
    level = Unicode("random")
    names = List(Unicode())
    lang = Unicode(DEFAULT_LANGUAGE)
    phase = Unicode("play")
    viewer = Int(0)
    revision = Int(0)
    deals_seen = Int(0)
    events: List[Play] = List()  # the plays since the last human move
    problem = Any(None)  # the last refused action: an EscobaError (its code and params say why)
    #: When the house rules seated another number of players than asked (Chile: 3 or 4; the three-player tie
    #: rule: 3): ``{"asked": 2, "players": 3, "option": "chile"}``; None otherwise.
    players_note = Any(None)
    game = Instance(Game)

    def __init__(self, players: int = 2, rules: Rules | str = ESCOBA, seed: int | None = None,
                 mode: str = "computer", level: str = "random", lang: str = DEFAULT_LANGUAGE,
                 names: list[str] | tuple[str, ...] = ()) -> None:
        super().__init__(lang=lang, mode=mode, level=level, names=list(names))
        self.new_game(players, rules, seed)

    @validate("lang")
    def _valid_lang(self, proposal):
        return normalize_language(proposal["value"])

    @validate("level")
    def _valid_level(self, proposal):
        level = proposal["value"].strip().lower() if isinstance(proposal["value"], str) else proposal["value"]
        level = LEVELS.get(level, level)
        if level not in BOTS:
            make_bot(proposal["value"])  # raises the error that names the known levels
        return level

    @validate("mode")
    def _valid_mode(self, proposal):
        if proposal["value"] not in MODES:
            raise EscobaError(f"mode must be one of {', '.join(MODES)}", code="bad_mode")
        return proposal["value"]

    @observe("lang")
    def _lang_changed(self, change) -> None:
        self.revision += 1

    @observe("level")
    def _level_changed(self, change) -> None:
        """A new level applies at once: the computer's next move is the new level's."""
        if self.trait_has_value("game") and change["old"] != change["new"]:
            self._bots = self._make_bots(self.game)
            self.revision += 1

    # ------------------------------------------------------------------------------------------- setup
    @property
    def bots(self) -> dict[int, Bot]:
        """The computer's players, by seat (a new copy of the mapping: changing it changes nothing)."""
        return dict(self._bots)

    @property
    def humans(self) -> tuple[int, ...]:
        return (0, 1) if self.mode == "pass_and_play" and self.players == 2 else (0,)

    def new_game(self, players: int | None = None, rules: Rules | str | None = None, seed: int | None = None) -> None:
        """Start a new game; the current one is kept until the new one is valid."""
        players = self.players if players is None else players
        rules = self.rules if rules is None else rules
        rules = rules if isinstance(rules, Rules) else rules_by_name(rules)
        note = None
        try:
            rules.check_players(players)
        except EscobaError:  # house rules for 3 or 4 players (Chile, the three-player tie rule): seat enough players
            seated = next(n for n in (3, 4) if _fits(rules, n))
            note = {"asked": players, "players": seated,
                    "option": "three_player_ties" if rules.three_player_ties else "chile"}
            players = seated
        game = Game(players=players, rules=rules, seed=seed)
        self.players_note = note  # before the redraw that adopting the game causes
        self._adopt(game)

    def _adopt(self, game: Game) -> None:
        self.game = game
        self.players, self.rules, self.seed = game.players, game.rules, game.seed
        self._bots = self._make_bots(game)
        self.deals_seen = len(game.deals)
        self.viewer = game.turn if game.turn in self.humans else self.humans[0]
        self.events = []
        self.problem = None
        self._settle()

    def _make_bots(self, game: Game) -> dict[int, Bot]:
        rng = random.Random(game.seed)
        return {seat: make_bot(self.level, seed=rng.randrange(1 << 30)) for seat in range(game.players)
                if seat not in self.humans}

    # ------------------------------------------------------------------------------------------ playing
    @property
    def computer_to_move(self) -> bool:
        return self.phase == "play" and self.game.turn is not None and self.game.turn not in self.humans

    def play(self, move: Move | str) -> bool:
        """The learner's move. A refused move sets ``problem`` and changes nothing; returns whether it played."""
        self.problem = None
        if self.phase != "play" or self.game.turn not in self.humans or self.game.turn != self.viewer:
            self.problem = EscobaError("it is not your turn", code="not_your_turn")
            self.revision += 1
            return False
        try:
            event = self.game.play(move)
        except IllegalMoveError as error:
            self.problem = error
            self.revision += 1
            return False
        self.events = [event]
        self._settle()
        return True

    def computer_step(self) -> bool:
        """The computer plays one move, if it is its turn; returns whether it played."""
        if not self.computer_to_move:
            return False
        seat = self.game.turn
        assert seat is not None  # computer_to_move: someone is to play
        move = self._bots[seat].choose(self.game.view(seat))
        self.events = [*self.events, self.game.play(move)]
        self._settle()
        return True

    def finish_computer_turns(self) -> None:
        """Let the computer play until a learner or a pause is next (no pacing: for tests and fast play)."""
        while self.computer_step():
            pass

    def _settle(self) -> None:
        """Work out the phase after any change."""
        game = self.game
        if len(game.deals) > self.deals_seen:
            self.phase = "game_over" if game.is_over and len(game.deals) == self.deals_seen + 1 else "deal_over"
        elif game.is_over:
            self.phase = "game_over"
        elif game.turn in self.humans and game.turn != self.viewer:
            self.phase = "handover"
        else:
            self.phase = "play"
        self.revision += 1

    def next_deal(self) -> None:
        """Close the score sheet of the deal just finished and go on."""
        if self.phase == "deal_over":
            self.deals_seen += 1
            self.events = []
            self._settle()

    def take_over(self) -> None:
        """Pass and play: the next student has the screen; show their hand."""
        turn = self.game.turn
        if self.phase == "handover" and turn is not None:  # a hand-over waits for a player: never None there
            self.viewer = turn
            self._settle()

    def undo(self) -> bool:
        """Take back the learner's last move, and the computer's moves after it, inside the deal under way: a
        finished deal has been scored and shown, and stays as it ended."""
        self.problem = None
        game = self.game
        plays = [e for e in game.history if isinstance(e, Play) and e.deal == game.deal]
        if self.phase not in ("play", "handover") or not any(e.player in self.humans for e in plays):
            self.problem = NothingToUndoError("there is no play of yours to undo", code="nothing_to_undo")
            self.revision += 1
            return False
        while True:
            last = plays.pop()
            game.undo()
            if last.player in self.humans:
                break
        self.deals_seen = min(self.deals_seen, len(game.deals))
        self.viewer = last.player  # the learner whose move was taken back is to play again
        self.events = []
        self._settle()
        return True

    # ------------------------------------------------------------------------------------------- saving
    def _setup(self) -> dict:
        """How the game is played, as the save format holds it."""
        names = tuple(self.names) if len(self.names) == self.players else ()
        return {"level": self.level, "mode": self.mode, "names": names}

    def save_json(self) -> str:
        """The save file: the game, the computer's level, the mode and the names."""
        return dump_json(self.game, **self._setup())

    def resume_code(self) -> str:
        """The resume code: the game, the computer's level, the mode and the names."""
        return dump_code(self.game, **self._setup())

    def load(self, text: str | bytes) -> bool:
        """Resume from a save file's text or a resume code, with the level, mode and names it holds (an old save
        that holds none keeps this session's). A bad one sets ``problem`` and changes nothing."""
        self.problem = None
        try:
            saved = read_save(text, Game)
        except EscobaError as error:
            self.problem = error
            self.revision += 1
            return False
        with self.hold_trait_notifications():
            if saved.level is not None:
                self.level = saved.level
            if saved.mode is not None:
                self.mode = saved.mode
            self.names = list(saved.names)
        self.players_note = None
        self._adopt(saved.game)
        return True
