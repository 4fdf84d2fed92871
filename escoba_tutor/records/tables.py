"""Tables where students play each other: two players, or four in partnerships, in the class database.

A table's state lives in the class database (``game_tables`` and ``game_table_seats``, schema version 5), not in
a student's kernel nor in one server's memory: on one computer the course server reads and writes it, on a
JupyterHub every student's own server does, and the database is what they share (docs/tables.md). A table holds:

- its **code**, five characters of Crockford's base 32 (no I, L, O or U: ``K7M2Q``), which classmates type to
  join; read back with the usual slips forgiven (lower case, spaces and dashes, O for 0, I and L for 1);
- its **game** in the engine's save format (docs/save-format.md): the rules, the seed, the first dealer and the
  moves. Every play is replayed and checked by the engine; the save never leaves the database, since its seed
  and moves would give every hand away;
- its **version**, one more at every change of the game or the seats. A play names the version it was made
  against: a play against an older version (another play came first) is refused with :class:`StaleVersionError`
  and nothing is written, so two players racing for one moment cannot both change it;
- its **seats**: each empty, held by a student (by a token of the student's own, kept only as its SHA-256, and a
  nickname), or played by the computer at a level. A seat whose student left (not seen for ``left_after``
  seconds) or an empty one may be given to the computer; its student, or anyone for a seat nobody held, takes it
  back. The computer's plays are made by the computer players of :mod:`escoba_tutor.players.bots`, seeded by
  the table and the move, so that whichever server makes one makes the same;
- whether its players may ask for a **hint** on their own turn (``hints``: the opener's choice, allowed unless
  they said no; a hint is worked out by the player's own kernel from that seat's view, docs/tables.md);
- its **state**: ``waiting`` while a seat is empty, ``playing`` once every seat is taken, ``finished`` once
  the game has a winner.

A seat's view (:class:`SeatView`) holds the engine's view for that seat alone (its own hand, never another's) and
the table's public facts (:class:`TableInfo`: seats, turn, totals). A finished deal and a finished game are
recorded for every student seated at the table, as the games against the computer are (``records``, level
:data:`TABLE_LEVEL`), in the table's class.

Every function here takes a connection inside the store's transaction (:class:`escoba_tutor.records.ClassStore`
calls them), and reads the table's row first with a lock on it (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite's
writers take the whole database's lock): the changes to one table follow each other. A refused change raises a
:class:`TableError` naming the problem, and the transaction is rolled back: nothing half-written. On PostgreSQL
every change also sends ``NOTIFY escoba_tables, 'CODE VERSION'`` in its transaction, for the servers that show
the table to learn of it.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import Connection, Row, func, select, update

from ..engine.cards import Card
from ..engine.errors import EscobaError, IllegalMoveError
from ..engine.game import SIDES, DealScored, Game, Move, Play, PlayerView
from ..engine.moves import MAX_SEED
from ..engine.rules import Rules, as_rules
from ..engine.save import LEVELS, dump_json, load_json
from ..players.bots import LEVELS as LEVEL_WORDS
from ..players.bots import make_bot
from .events import (
    TABLE_LEVEL,
    DealFinished,
    Event,
    GameFinished,
    PlayedAt,
    Player,
    RecordsError,
    nickname_key,
    valid_nickname,
)
from .rows import MAX_RULES, dump_played_at, event_row, played_at_from_text, to_db_time
from .schema import from_db_time, game_table_seats, game_tables, records

__all__ = [
    "TableError", "TableNotFoundError", "TableSettingsError", "BadTokenError", "TableFullError", "NotSeatedError",
    "SeatTakenError", "TableNotReadyError", "TableOverError", "NotYourTurnError", "StaleVersionError",
    "IllegalPlayError", "SeatInfo", "TableInfo", "SeatView", "TableTop", "PLAYERS", "STATES", "LEVELS", "TABLE_LEVEL",
    "LEFT_AFTER", "CODE_LENGTH", "CHANNEL", "table_code", "open_table", "join", "give_to_computer", "take_back",
    "leave", "seen", "play", "seat_view", "info", "table_top", "class_tables", "ComputerTurn", "computer_turn",
    "choose", "play_computer", "forget_class", "forget_student",
    "Player", "PlayedAt", "played_at_tables",
]

PLAYERS = (2, 4)                 # two players, or four in two partnerships (0 and 2 against 1 and 3)
STATES = ("waiting", "playing", "finished")
LEFT_AFTER = 120.0               # seconds without a sign of its student after which a seat counts as left
CODE_LENGTH = 5
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32, as the resume code's
_CODE_SLIPS = str.maketrans({"O": "0", "I": "1", "L": "1", "-": None, " ": None})
CHANNEL = "escoba_tables"        # PostgreSQL's notification channel of every table change
MIN_TOKEN, MAX_TOKEN = 16, 200   # a student's token: the server's secret for that student, printable ASCII
LISTED = 200                     # the most tables :func:`class_tables` lists (the newest)
MAX_MOVE_TEXT = 80               # a play's text: a card and what it takes (8 cards at most), twice over
GAMES_KEPT = 64                  # games kept replayed in memory (a read of one of them skips its replay)


# -------------------------------------------------------------------------------------------------- errors
class TableError(RecordsError):
    """A change of a table that is refused; nothing is written. ``code`` says which problem."""

    code = "table"


class TableNotFoundError(TableError):
    """No table has this code (or the text is not a table code)."""

    code = "table_not_found"


class TableSettingsError(TableError):
    """A table cannot be opened, or a seat given, with these settings (players, rules, level)."""

    code = "table_bad_settings"


class BadTokenError(TableError):
    """What should be a student's token is not one (the server's own mistake, or a forged request)."""

    code = "table_bad_token"


class TableFullError(TableError):
    """Every seat of the table is taken."""

    code = "table_full"


class NotSeatedError(TableError):
    """The student holds no seat at the table, or not the seat they name."""

    code = "table_not_seated"


class SeatTakenError(TableError):
    """The seat is held by someone else (a student still there, or the computer for another student)."""

    code = "table_seat_taken"


class TableNotReadyError(TableError):
    """The game has not started: a seat is still empty."""

    code = "table_not_ready"


class TableOverError(TableError):
    """The table's game is over."""

    code = "table_over"


class NotYourTurnError(TableError):
    """A play from a seat whose turn it is not."""

    code = "table_not_your_turn"


class StaleVersionError(TableError):
    """A change made against a version of the table that is no longer the latest (``expected``, ``current``)."""

    code = "table_stale_version"


class IllegalPlayError(TableError):
    """A play the rules do not allow. ``reason`` is the engine's code for why (``wrong_sum``, ``must_capture``…),
    and ``engine_error`` the engine's own error, whose data explains it (the legal captures…)."""

    code = "table_illegal_play"

    @property
    def reason(self) -> str:
        return str(self.params.get("reason", "illegal_move"))

    @property
    def engine_error(self) -> EscobaError | None:
        error = self.params.get("engine_error")
        return error if isinstance(error, EscobaError) else None


# ---------------------------------------------------------------------------------------------- read models
@dataclass(frozen=True)
class SeatInfo:
    """One seat as everybody at the table may know it."""

    seat: int
    side: int
    #: The student sitting there (or who sat there, while the computer keeps the seat), None when nobody did.
    nickname: str | None
    #: The computer's level while it plays the seat.
    computer: str | None
    #: The seat's student has not been seen for the time a seat counts as left (or nobody holds it).
    left: bool

    @property
    def empty(self) -> bool:
        return self.nickname is None and self.computer is None


@dataclass(frozen=True)
class TableInfo:
    """A table's public facts: for the class's list, the teacher's board and the projector. No hand is here."""

    code: str
    class_id: int
    players: int
    rules: str
    state: str
    version: int
    seats: tuple[SeatInfo, ...]
    #: The seat to play, or None (the game is over).
    turn: int | None
    deal: int
    totals: tuple[int, ...]
    #: The winning side, once the game is over.
    winner: int | None
    opened_at: datetime
    updated_at: datetime
    #: Whether a player may ask for a hint on their own turn (the opener's choice).
    hints: bool = True


@dataclass(frozen=True)
class SeatView:
    """What one seat's student may see: the table's public facts and the engine's view for that seat alone."""

    table: TableInfo
    seat: int
    game: PlayerView

    @property
    def version(self) -> int:
        return self.table.version

    @property
    def my_turn(self) -> bool:
        return self.table.state == "playing" and self.table.turn == self.seat


@dataclass(frozen=True)
class TableTop:
    """A table as the class may watch it on the projector: the table's public facts and what lies in the open,
    never a card of any hand (an observer's view, with no seat of its own). Each field is chosen from the engine's
    state one by one: nothing here is copied from a seat's view, which holds that seat's hand."""

    table: TableInfo
    deal: int
    dealer: int
    #: The cards face up on the table.
    cards: tuple[Card, ...]
    #: How many cards each seat holds (never which).
    hand_sizes: tuple[int, ...]
    #: How many cards each side has captured in this deal, and its escobas in this deal.
    captured: tuple[int, ...]
    escobas: tuple[int, ...]
    deck_left: int
    #: The last play of the deal under way (its card and what it took were seen by everybody), or None.
    last_play: Play | None
    #: Each side's points in the last deal scored, once one has been (its lines are left out: the setenta's name
    #: cards, which the next deal deals again).
    last_deal_points: tuple[int, ...] | None


# ------------------------------------------------------------------------------------------------ checks
def table_code(text: object) -> str:
    """``text`` as a table code (upper case; spaces and dashes dropped; O read as 0, I and L as 1), or
    TableNotFoundError saying it is not one."""
    if isinstance(text, str) and len(text) <= 40:
        code = text.strip().upper().translate(_CODE_SLIPS)
        if len(code) == CODE_LENGTH and all(char in CODE_ALPHABET for char in code):
            return code
    raise TableNotFoundError(f"{str(text)[:40]!r} is not a table code: a table code has {CODE_LENGTH} letters and "
                             "digits, like K7M2Q", code="table_not_found")


def _new_code() -> str:
    # never digits alone: a spreadsheet opening the class's file would read «01234» as the number 1234
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not code.isdigit():
            return code


def _holder(token: object) -> str:
    """The stored form of a student's token: its SHA-256 (a database read by someone else gives no seat away)."""
    if not isinstance(token, str) or not MIN_TOKEN <= len(token) <= MAX_TOKEN or not token.isascii() \
            or not token.isprintable():
        raise BadTokenError(f"a seat is held with the student's token, printable ASCII text of {MIN_TOKEN} to "
                            f"{MAX_TOKEN} characters", code="table_bad_token")
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def _level(level: object) -> str:
    """A computer level by its name (``greedy``) or its word (``medio``, ``medium``)."""
    key = level.strip().lower() if isinstance(level, str) else ""
    key = LEVEL_WORDS.get(key, key)
    if key not in LEVELS:
        raise TableSettingsError(f"the computer plays at a level among {', '.join(LEVELS)}, not {str(level)[:40]!r}",
                                 code="table_bad_settings", level=str(level)[:40])
    return key


def _rules(players: object, rules: Rules | str) -> Rules:
    if type(players) is not int or players not in PLAYERS:
        raise TableSettingsError(f"a table seats 2 players, or 4 in partnerships, not {str(players)[:20]}",
                                 code="table_bad_settings", players=str(players)[:20])
    try:
        chosen = as_rules(rules)
        chosen.check_players(players)
    except EscobaError as error:
        raise TableSettingsError(f"a table cannot be played by these rules: {error}", code="table_bad_settings",
                                 reason=error.code) from None
    if len(chosen.name) > MAX_RULES:
        raise TableSettingsError(f"these rules change too much to be named in {MAX_RULES} characters",
                                 code="table_bad_settings")
    return chosen


def _now(now: datetime | None) -> datetime:
    return now if now is not None else datetime.now(timezone.utc)


# ------------------------------------------------------------------------------------------ reading a table
@dataclass
class _Table:
    """A table's row and its seats' rows, read in the caller's transaction, with its game replayed."""

    row: Row[Any]
    seats: list[Row[Any]]
    game: Game

    @property
    def id(self) -> int:
        return int(self.row.id)

    @property
    def version(self) -> int:
        return int(self.row.version)

    def seat_of(self, holder: str) -> Row[Any] | None:
        return next((seat for seat in self.seats if seat.holder == holder), None)


class _Games:
    """The games last read, by their save's text: a read that finds its text here skips the replay. Keyed by the
    whole text, an entry is right whatever wrote it (a rolled-back change's entry is just never found). The
    games here are only read (views); a change replays its own copy, which it may play on."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.games: OrderedDict[str, Game] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, text: str) -> Game:
        with self.lock:
            game = self.games.get(text)
            if game is not None:
                self.games.move_to_end(text)
                return game
        game = load_json(text, Game)
        self.put(text, game)
        return game

    def put(self, text: str, game: Game) -> None:
        with self.lock:
            self.games[text] = game
            while len(self.games) > self.size:
                self.games.popitem(last=False)


_GAMES = _Games(GAMES_KEPT)


def _read(connection: Connection, code: object, *, lock: bool) -> _Table:
    """The table ``code`` and its seats; ``lock``: for a change (the row locked, and a game of its own to play on)."""
    code = table_code(code)
    query = select(game_tables).where(game_tables.c.code == code)
    row = connection.execute(query.with_for_update() if lock else query).first()
    if row is None:
        raise TableNotFoundError(f"there is no table {code}", code="table_not_found", table=code)
    seats = list(connection.execute(select(game_table_seats).where(game_table_seats.c.table_id == row.id)
                                    .order_by(game_table_seats.c.seat)))
    return _Table(row, seats, load_json(row.game, Game) if lock else _GAMES.get(row.game))


def _left(seat: Row[Any], now: datetime, left_after: float) -> bool:
    return seat.holder is None or seat.seen_at is None or \
        from_db_time(seat.seen_at) <= now - timedelta(seconds=left_after)


def _info(table: _Table, now: datetime | None = None, left_after: float = LEFT_AFTER) -> TableInfo:
    game, row, moment = table.game, table.row, _now(now)
    seats = tuple(SeatInfo(seat.seat, game.side_of[seat.seat], seat.nickname, seat.computer,
                           _left(seat, moment, left_after)) for seat in table.seats)
    return TableInfo(row.code, int(row.class_id), int(row.players), row.rules, row.state, int(row.version), seats,
                     game.turn, game.deal, game.totals, game.winner, from_db_time(row.opened_at),
                     from_db_time(row.updated_at), row.hints is not False)


def _view(table: _Table, seat: int, now: datetime | None = None) -> SeatView:
    return SeatView(_info(table, now), seat, table.game.view(seat))


# ------------------------------------------------------------------------------------------ writing a table
def _bump(connection: Connection, table: _Table, now: datetime, **values: Any) -> None:
    """Write the table's new version (and ``values``); only over the version read (the lock makes that certain;
    the condition says it again), and tell PostgreSQL's listeners."""
    version = table.version + 1
    done = connection.execute(update(game_tables).where(game_tables.c.id == table.id,
                                                        game_tables.c.version == table.version)
                              .values(version=version, updated_at=to_db_time(now), **values))
    if done.rowcount != 1:
        raise StaleVersionError(f"table {table.row.code} is no longer at version {table.version}: another change "
                                "came first; look at the table again", code="table_stale_version",
                                expected=table.version)
    if connection.dialect.name == "postgresql":
        connection.execute(select(func.pg_notify(CHANNEL, f"{table.row.code} {version}")))


def _set_seat(connection: Connection, table: _Table, seat: int, **values: Any) -> None:
    connection.execute(update(game_table_seats).where(game_table_seats.c.table_id == table.id,
                                                      game_table_seats.c.seat == seat).values(**values))


def _reread(connection: Connection, table: _Table) -> _Table:
    seats = list(connection.execute(select(game_table_seats).where(game_table_seats.c.table_id == table.id)
                                    .order_by(game_table_seats.c.seat)))
    row = connection.execute(select(game_tables).where(game_tables.c.id == table.id)).one()
    return _Table(row, seats, table.game)


def _seat_number(table: _Table, seat: object) -> int:
    if type(seat) is not int or not 0 <= seat < int(table.row.players):
        raise NotSeatedError(f"table {table.row.code} has seats 0 to {int(table.row.players) - 1}, not "
                             f"{str(seat)[:20]}", code="table_not_seated", seat=str(seat)[:20])
    return seat


def _state_after_seating(table: _Table, seats: list[tuple[str | None, str | None]]) -> str:
    """waiting while a seat is empty (no student, no computer), else playing (a finished game stays finished)."""
    if table.row.state == "finished":
        return "finished"
    return "waiting" if any(holder is None and computer is None for holder, computer in seats) else "playing"


def _seating(table: _Table, changed: int, holder: str | None, computer: str | None) -> list[tuple[str | None,
                                                                                                  str | None]]:
    return [(holder, computer) if seat.seat == changed else (seat.holder, seat.computer) for seat in table.seats]


# -------------------------------------------------------------------------------------------------- changes
def open_table(connection: Connection, class_id: int, token: str, nickname: str, players: int = 2,
               rules: Rules | str = "escoba", *, seed: int | None = None, hints: bool = True,
               now: datetime | None = None) -> SeatView:
    """Open a table in the class ``class_id`` for ``players`` (2, or 4 in partnerships) by ``rules`` (the server's
    rules or a named house rule: ``escoba+figuras``), with its opener in seat 0. ``seed`` fixes the deals (by
    default a random one); ``hints``: whether a player may ask for a hint on their own turn."""
    chosen = _rules(players, rules)
    if type(hints) is not bool:
        raise TableSettingsError("whether hints are allowed is yes or no (True or False)", code="table_bad_settings")
    holder, name = _holder(token), valid_nickname(nickname)
    if seed is not None and (type(seed) is not int or not 0 <= seed <= MAX_SEED):
        raise TableSettingsError(f"a table's seed is a whole number from 0 to {MAX_SEED}", code="table_bad_settings")
    game = Game(players=players, rules=chosen, seed=seed if seed is not None else random.SystemRandom().randrange(
        MAX_SEED))
    moment = to_db_time(_now(now))
    code = _new_code()  # a code taken already fails the unique index: the store tries again, with a new code
    table_id = connection.execute(game_tables.insert().values(
        class_id=class_id, code=code, players=players, rules=chosen.name, state="waiting", version=1,
        game=dump_json(game), opened_at=moment, updated_at=moment, hints=hints)).inserted_primary_key
    assert table_id is not None
    connection.execute(game_table_seats.insert(), [
        {"table_id": table_id[0], "seat": seat, "holder": holder if seat == 0 else None,
         "nickname": name if seat == 0 else None, "nickname_key": nickname_key(name) if seat == 0 else None,
         "computer": None, "seen_at": moment if seat == 0 else None} for seat in range(players)])
    if connection.dialect.name == "postgresql":  # a new table shows on the teacher's board (another server's)
        connection.execute(select(func.pg_notify(CHANNEL, f"{code} 1")))
    return _view(_read(connection, code, lock=False), 0, now)


def join(connection: Connection, code: str, token: str, nickname: str, seat: int | None = None, *,
         now: datetime | None = None) -> SeatView:
    """Sit at the table ``code``: the student's own seat when they have one already (a reload, another tab), else
    the seat ``seat`` or the first empty one. Refused: a full table (TableFullError), a seat taken
    (SeatTakenError), a finished game (TableOverError)."""
    holder, name = _holder(token), valid_nickname(nickname)
    table = _read(connection, code, lock=True)
    moment = _now(now)
    mine = table.seat_of(holder)
    if mine is not None:
        _set_seat(connection, table, mine.seat, seen_at=to_db_time(moment))
        return _view(_reread(connection, table), mine.seat, now)
    if table.row.state == "finished":
        raise TableOverError(f"the game at table {table.row.code} is over", code="table_over")
    empty = [row.seat for row in table.seats if row.holder is None and row.computer is None]
    if seat is not None:
        chosen = _seat_number(table, seat)
        if chosen not in empty:
            raise SeatTakenError(f"seat {chosen} of table {table.row.code} is taken", code="table_seat_taken",
                                 seat=chosen)
    elif not empty:
        raise TableFullError(f"every seat of table {table.row.code} is taken (a seat the computer keeps can be "
                             "taken back by its student)", code="table_full")
    else:
        chosen = empty[0]
    _set_seat(connection, table, chosen, holder=holder, nickname=name, nickname_key=nickname_key(name),
              seen_at=to_db_time(moment))
    _bump(connection, table, moment, state=_state_after_seating(table, _seating(table, chosen, holder, None)))
    return _view(_reread(connection, table), chosen, now)


def give_to_computer(connection: Connection, code: str, seat: int, level: str, token: str, *,
                     now: datetime | None = None, left_after: float = LEFT_AFTER) -> SeatView:
    """The computer plays ``seat`` at ``level`` from now on, at the request of a student seated at the table: an
    empty seat, the student's own, or one whose student left (not seen for ``left_after`` seconds); the seat's
    student can take it back. The view returned is the requester's."""
    holder, chosen_level = _holder(token), _level(level)
    table = _read(connection, code, lock=True)
    moment = _now(now)
    mine = table.seat_of(holder)
    if mine is None:
        raise NotSeatedError(f"only a student seated at table {table.row.code} can give a seat to the computer",
                             code="table_not_seated")
    number = _seat_number(table, seat)
    target = table.seats[number]
    if table.row.state == "finished":
        raise TableOverError(f"the game at table {table.row.code} is over", code="table_over")
    if target.holder is not None and target.holder != holder and target.computer is None \
            and not _left(target, moment, left_after):
        raise SeatTakenError(f"{target.nickname} is at seat {number}: only an empty seat, your own, or one whose "
                             f"student left more than {left_after:.0f} s ago goes to the computer",
                             code="table_seat_taken", seat=number)
    _set_seat(connection, table, number, computer=chosen_level)
    _bump(connection, table, moment,
          state=_state_after_seating(table, _seating(table, number, target.holder, chosen_level)))
    return _view(_reread(connection, table), mine.seat, now)


def take_back(connection: Connection, code: str, seat: int, token: str, nickname: str, *,
              now: datetime | None = None) -> SeatView:
    """A student takes ``seat`` back from the computer: their own seat, or one nobody held (when they hold no
    other seat at the table)."""
    holder, name = _holder(token), valid_nickname(nickname)
    table = _read(connection, code, lock=True)
    moment = _now(now)
    number = _seat_number(table, seat)
    target = table.seats[number]
    if table.row.state == "finished":
        raise TableOverError(f"the game at table {table.row.code} is over", code="table_over")
    if target.computer is None:
        if target.holder == holder:
            return join(connection, code, token, nickname, now=now)
        raise SeatTakenError(f"the computer does not play seat {number} of table {table.row.code}",
                             code="table_seat_taken", seat=number)
    mine = table.seat_of(holder)
    if target.holder is not None and target.holder != holder:
        raise SeatTakenError(f"the computer keeps seat {number} of table {table.row.code} for another student",
                             code="table_seat_taken", seat=number)
    if target.holder is None and mine is not None:
        raise SeatTakenError(f"you hold seat {mine.seat} of table {table.row.code} already: one seat each",
                             code="table_seat_taken", seat=number)
    _set_seat(connection, table, number, computer=None, holder=holder, nickname=name,
              nickname_key=nickname_key(name), seen_at=to_db_time(moment))
    _bump(connection, table, moment,
          state=_state_after_seating(table, _seating(table, number, holder, None)))
    return _view(_reread(connection, table), number, now)


def leave(connection: Connection, code: str, token: str, *, now: datetime | None = None) -> TableInfo:
    """The student leaves the table. While it waits for players their seat is emptied (another classmate may take
    it); once the game is under way the seat is kept for them but counts as left at once, so that the others may
    give it to the computer (a join brings them back to it); a finished table is left as it is. The table's public
    facts afterwards."""
    holder = _holder(token)
    table = _read(connection, code, lock=True)
    moment = _now(now)
    mine = table.seat_of(holder)
    if mine is None:
        raise NotSeatedError(f"you hold no seat at table {table.row.code}", code="table_not_seated")
    if table.row.state == "finished":
        return _info(table, now)
    if table.row.state == "waiting" and mine.computer is None:
        _set_seat(connection, table, mine.seat, holder=None, nickname=None, nickname_key=None, seen_at=None)
        _bump(connection, table, moment, state=_state_after_seating(table, _seating(table, mine.seat, None, None)))
    else:
        _set_seat(connection, table, mine.seat, seen_at=None)
        _bump(connection, table, moment)
    return _info(_reread(connection, table), now)


def seen(connection: Connection, code: str, token: str, *, now: datetime | None = None) -> int:
    """A sign of life from the student's page: their seat is not left. Their seat's number (NotSeatedError when
    they hold none). Changes no version: nothing any page shows changes."""
    holder = _holder(token)
    table = _read(connection, code, lock=False)
    mine = table.seat_of(holder)
    if mine is None:
        raise NotSeatedError(f"you hold no seat at table {table.row.code}", code="table_not_seated")
    _set_seat(connection, table, mine.seat, seen_at=to_db_time(_now(now)))
    return int(mine.seat)


def play(connection: Connection, code: str, seat: int, token: str, move: object, expected_version: int, *,
         now: datetime | None = None) -> SeatView:
    """The student at ``seat`` plays ``move`` (a Move or its text, ``3c+1o+4b+7o``), against the table's version
    ``expected_version``. Refused, each with nothing written: a seat not theirs or played by the computer, a game
    not started or over, another version than the latest, another seat's turn, a play the rules do not allow."""
    holder = _holder(token)
    table = _read(connection, code, lock=True)
    moment = _now(now)
    number = _seat_number(table, seat)
    target = table.seats[number]
    if target.holder != holder:
        raise NotSeatedError(f"seat {number} of table {table.row.code} is not yours", code="table_not_seated",
                             seat=number)
    if target.computer is not None:
        raise SeatTakenError(f"the computer plays seat {number} now: take it back to play",
                             code="table_seat_taken", seat=number)
    _check_version(table, expected_version)
    _check_playing(table)
    if table.game.turn != number:
        raise NotYourTurnError(f"it is seat {table.game.turn}'s turn at table {table.row.code}, not seat {number}'s",
                               code="table_not_your_turn", seat=number, turn=table.game.turn)
    _apply(connection, table, move, moment)
    _set_seat(connection, table, number, seen_at=to_db_time(moment))
    return _view(_reread(connection, table), number, now)


def _check_version(table: _Table, expected: object) -> None:
    if type(expected) is not int or expected != table.version:
        raise StaleVersionError(f"table {table.row.code} is at version {table.version}, not {str(expected)[:20]}: "
                                "another change came first; look at the table again",
                                code="table_stale_version", expected=str(expected)[:20], current=table.version)


def _check_playing(table: _Table) -> None:
    if table.row.state == "waiting":
        raise TableNotReadyError(f"table {table.row.code} waits for its players: a seat is empty",
                                 code="table_not_ready")
    if table.row.state == "finished":
        raise TableOverError(f"the game at table {table.row.code} is over", code="table_over")


def _apply(connection: Connection, table: _Table, move: object, moment: datetime) -> None:
    """Play ``move`` through the engine and write the game, its new version and, for a deal or the game just
    finished, the records of every student seated at the table."""
    game = table.game
    if not isinstance(move, (Move, str)) or isinstance(move, str) and len(move) > MAX_MOVE_TEXT:
        shown = type(move).__name__ if not isinstance(move, str) else f"text of {len(move)} characters"
        raise IllegalPlayError(f"a play is a move or its text like '3c+1o+4b+7o', not {shown}",
                               code="table_illegal_play", reason="bad_move_text")
    deals = len(game.deals)
    try:
        game.play(move)
    except IllegalMoveError as error:
        raise IllegalPlayError(f"that play is not allowed: {error}", code="table_illegal_play", reason=error.code,
                               engine_error=error, **{k: v for k, v in error.params.items()
                                                      if k in ("card", "taken")}) from None
    except EscobaError as error:  # a card's text that names no card
        raise IllegalPlayError(f"that play is not allowed: {error}", code="table_illegal_play", reason=error.code,
                               engine_error=error) from None
    text = dump_json(game)
    _bump(connection, table, moment, game=text, state="finished" if game.is_over else "playing")
    _GAMES.put(text, game)  # read from now on, never played on again
    for event in _finished(table, deals, moment):
        connection.execute(records.insert().values(class_id=table.row.class_id), event_row(event))


def _finished(table: _Table, deals_before: int, moment: datetime) -> list[Event]:
    """The records of the deals (and the game) that the last play finished, one per student seated: their side's
    points and escobas against the best other side's, as a game against the computer is recorded."""
    game = table.game
    events: list[Event] = []
    players = [_seat_player(seat) for seat in table.seats]
    sides = SIDES[len(table.seats)]
    for seat in table.seats:
        if seat.holder is None or seat.computer is not None or seat.nickname is None:
            continue
        side = game.side_of[seat.seat]
        played_at = _played_at(table.row.code, seat.seat, players, sides)
        for deal in game.deals[deals_before:]:
            points, escobas = deal.score.points, deal.escobas
            events.append(DealFinished(seat.nickname, TABLE_LEVEL, game.seed, points[side],
                                       max(p for s, p in enumerate(points) if s != side), escobas[side],
                                       max(e for s, e in enumerate(escobas) if s != side), at=moment,
                                       table=played_at))
        if game.is_over:
            totals = game.totals
            events.append(GameFinished(seat.nickname, TABLE_LEVEL, game.seed, totals[side],
                                       max(t for s, t in enumerate(totals) if s != side), game.winner == side,
                                       at=moment, table=played_at))
    return events


# ------------------------------------------------------------------------------------------------ the computer
@dataclass(frozen=True)
class ComputerTurn:
    """The computer's turn at a table, as read: what to choose from, and the version to play it against."""

    code: str
    version: int
    seat: int
    level: str
    view: PlayerView
    bot_seed: int


def computer_turn(connection: Connection, code: str) -> ComputerTurn | None:
    """The computer's turn to play at the table, or None: the game is not being played, the seat to play is a
    student's, or no student plays at the table (a table the computer would play alone waits for one)."""
    table = _read(connection, code, lock=False)
    if table.row.state != "playing" or table.game.turn is None:
        return None
    seat = table.seats[table.game.turn]
    if seat.computer is None or all(row.computer is not None or row.holder is None for row in table.seats):
        return None
    # The same table and move give the same bot, on whichever server makes the play.
    digest = hashlib.sha256(f"escoba-tutor-table:{table.row.code}:{len(table.game.moves)}".encode()).digest()
    return ComputerTurn(table.row.code, table.version, seat.seat, seat.computer, table.game.view(seat.seat),
                        int.from_bytes(digest[:8], "big") & MAX_SEED)


def choose(turn: ComputerTurn) -> Move:
    """The computer's play for ``turn`` (outside any transaction: the expert's search takes a moment)."""
    return make_bot(turn.level, seed=turn.bot_seed).choose(turn.view)


def play_computer(connection: Connection, turn: ComputerTurn, move: Move, *, now: datetime | None = None) -> bool:
    """Play the computer's ``move`` chosen for ``turn``: True once written, False when the table changed
    meanwhile (another server played it, or a student took the seat back): nothing is written then."""
    table = _read(connection, turn.code, lock=True)
    if table.version != turn.version or table.row.state != "playing" or table.game.turn != turn.seat \
            or table.seats[turn.seat].computer is None:
        return False
    _apply(connection, table, move, _now(now))
    return True


# ------------------------------------------------------------------------------------------------- reading
def seat_view(connection: Connection, code: str, token: str, *, now: datetime | None = None,
              left_after: float = LEFT_AFTER) -> SeatView:
    """The view of the student's own seat at the table (NotSeatedError when they hold none)."""
    holder = _holder(token)
    table = _read(connection, code, lock=False)
    mine = table.seat_of(holder)
    if mine is None:
        raise NotSeatedError(f"you hold no seat at table {table.row.code}", code="table_not_seated")
    return SeatView(_info(table, now, left_after), int(mine.seat), table.game.view(int(mine.seat)))


def info(connection: Connection, code: str, *, now: datetime | None = None,
         left_after: float = LEFT_AFTER) -> TableInfo:
    """The table's public facts (no hand)."""
    return _info(_read(connection, code, lock=False), now, left_after)


def table_top(connection: Connection, code: str, *, now: datetime | None = None,
              left_after: float = LEFT_AFTER) -> TableTop:
    """The table as the projector shows it (:class:`TableTop`): no hand."""
    table = _read(connection, code, lock=False)
    game = table.game
    history = game.history
    last_play = next((e for e in reversed(history) if isinstance(e, Play)), None)
    if last_play is not None and last_play.deal != game.deal:
        last_play = None  # a deal's last play is shown with its deal only
    last_deal = next((e for e in reversed(history) if isinstance(e, DealScored)), None)
    return TableTop(_info(table, now, left_after), game.deal, game.dealer, game.table,
                    tuple(len(hand) for hand in game.hands), tuple(len(pile) for pile in game.piles), game.escobas,
                    game.deck_left, last_play, None if last_deal is None else tuple(last_deal.score.points))


def class_tables(connection: Connection, class_id: int, *, now: datetime | None = None,
                 left_after: float = LEFT_AFTER) -> list[TableInfo]:
    """The class's tables, the newest first (at most :data:`LISTED`)."""
    codes = connection.execute(select(game_tables.c.code).where(game_tables.c.class_id == class_id)
                               .order_by(game_tables.c.id.desc()).limit(LISTED)).scalars().all()
    return [_info(_read(connection, code, lock=False), now, left_after) for code in codes]


# ------------------------------------------------------------------------------------------ for the download
def _seat_player(seat: Row[Any]) -> Player:
    """Who plays a seat row: its student (kept while the computer plays for them), else the computer."""
    return Player(seat.nickname, None if seat.nickname else seat.computer)


def _played_at(code: str, seat: int, players: list[Player], sides: tuple[tuple[int, ...], ...]) -> PlayedAt:
    """The table as the student at ``seat`` played it: their partner and the other side, from ``players``."""
    mine = next(side for side in sides if seat in side)
    partner = next((players[s] for s in mine if s != seat), None)
    return PlayedAt(code, partner, tuple(players[s] for side in sides if side is not mine for s in side))


def played_at_tables(connection: Connection, class_id: int) -> dict[tuple[int, str], PlayedAt]:
    """The class's tables by the keys of their games' records: (the game's seed, the nickname key of a student
    seated there), as the tables are seated now. Only for the records of a database older than version 8, which
    do not say who sat where when they were played (a table's records carry its game's seed, a random number
    below 2⁵³: two tables of a class never share one in practice)."""
    rows = connection.execute(select(game_tables.c.id, game_tables.c.code, game_tables.c.players,
                                     game_tables.c.game).where(game_tables.c.class_id == class_id)).all()
    if not rows:
        return {}
    seats: dict[int, list[Row[Any]]] = {}
    for seat in connection.execute(select(game_table_seats).where(game_table_seats.c.table_id.in_(
            [row.id for row in rows])).order_by(game_table_seats.c.table_id, game_table_seats.c.seat)):
        seats.setdefault(seat.table_id, []).append(seat)
    found: dict[tuple[int, str], PlayedAt] = {}
    for row in rows:
        seed = json.loads(row.game).get("seed")  # (the save's own field: the game need not be replayed)
        table_seats = seats.get(row.id, [])
        players = [_seat_player(seat) for seat in table_seats]
        sides = SIDES[int(row.players)]
        for seat in table_seats:
            if seat.nickname_key is None or not isinstance(seed, int):
                continue
            found[seed, seat.nickname_key] = _played_at(row.code, seat.seat, players, sides)
    return found


# ------------------------------------------------------------------------------------------------ forgetting
def _forget_in_played_at(connection: Connection, class_id: int, key: str) -> None:
    """The student's nickname out of the classmates' records of the games they played together."""
    def without(player: Player) -> Player:
        if player.nickname is not None and nickname_key(player.nickname) == key:
            return Player(None, None, deleted=True)
        return player

    rows = connection.execute(select(records.c.id, records.c.played_at).where(
        records.c.class_id == class_id, records.c.played_at.is_not(None))).all()
    for row in rows:
        table = played_at_from_text(row.played_at)
        if table is None:
            continue
        kept = PlayedAt(table.code, None if table.partner is None else without(table.partner),
                        tuple(without(p) for p in table.other_side))
        if kept != table:
            connection.execute(records.update().where(records.c.id == row.id)
                               .values(played_at=dump_played_at(kept)))


def forget_class(connection: Connection, class_id: int) -> None:
    """Delete the class's tables and seats (before the class itself)."""
    ids = select(game_tables.c.id).where(game_tables.c.class_id == class_id).scalar_subquery()
    connection.execute(game_table_seats.delete().where(game_table_seats.c.table_id.in_(ids)))
    connection.execute(game_tables.delete().where(game_tables.c.class_id == class_id))


def forget_student(connection: Connection, class_id: int, key: str, *, now: datetime | None = None) -> None:
    """A student's records removed: their name and token leave the class's tables too. A game under way goes on
    with the computer (level ``greedy``) in their seat; a table still waiting gets the seat empty. The classmates'
    records of the games they played together keep the seat, as a deleted student's."""
    moment = _now(now)
    _forget_in_played_at(connection, class_id, key)
    codes = connection.execute(
        select(game_tables.c.code).join(game_table_seats, game_table_seats.c.table_id == game_tables.c.id)
        .where(game_tables.c.class_id == class_id, game_table_seats.c.nickname_key == key)).scalars().all()
    for code in sorted(set(codes)):
        table = _read(connection, code, lock=True)
        seating = [(row.holder, row.computer) for row in table.seats]
        for row in table.seats:
            if row.nickname_key == key:
                computer = row.computer or ("greedy" if table.row.state == "playing" else None)
                _set_seat(connection, table, row.seat, holder=None, nickname=None, nickname_key=None, seen_at=None,
                          computer=computer)
                seating[row.seat] = (None, computer)
        _bump(connection, table, moment, state=_state_after_seating(table, seating))
