"""One versioned save format, as a JSON file and as a short resume code (docs/save-format.md describes both).

Both hold the same thing: the rules, the number of players, the seed, the first dealer and the moves, and since
version 2 how the game was being played (the computer's level, the mode, the players' names). Loading replays the
moves through the public game API, so a save can only produce a game the rules allow; anything malformed, cut
short, altered or from a newer version raises a :class:`SaveError` and no game at all.

A resume code names each move by its place among the moves the rules allow at that point. That order is defined
here, by the save format, never by the order the capture search happens to find moves in: version 2 sorts the
moves by the card played (deck order), then by the cards taken (deck order, a card laid down first); version 1
codes are read in the order escoba-tutor 0.1 offered moves, written out below as :func:`_v1_order`.

>>> from escoba_tutor import Game
>>> game = Game(players=2, seed=42)
>>> for _ in range(10):
...     _ = game.play(game.legal_moves()[-1])
>>> Game.from_json(game.to_json()).state_key() == game.state_key()
True
>>> code = game.resume_code()
>>> Game.from_resume_code(code).state_key() == game.state_key()
True
>>> read_save(dump_code(game, level="greedy"), Game).level
'greedy'
>>> Game.from_resume_code(code[:-1] + ("0" if code[-1] != "0" else "1"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
escoba_tutor.engine.errors.ChecksumError: this resume code does not check out: a character was mistyped, left out...
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from .errors import ChecksumError, EscobaError, SaveError, SaveFormatError, SaveVersionError
from .moves import MAX_SEED, Move
from .rules import Rules, rules_from_numbers

__all__ = ["FORMAT", "VERSION", "LEVELS", "MODES", "SavedGame", "dump_json", "load_json", "dump_code", "load_code",
           "read_json", "read_code", "read_save", "canonical_order", "MAX_UPLOAD_BYTES"]

FORMAT = "escoba-tutor-game"
VERSION = 2
MAX_MOVES = 10_000        # far beyond any real game; bounds the work a hostile save can ask for
MAX_SAVE_BYTES = 1_000_000
#: The largest save file a page sends its kernel: a whole long game saves in about 5 kB. The page checks a chosen
#: file's size before it sends it, so the message stays under the class server's cap on one websocket message
#: (server/limits.py holds its default above what a file of this size weighs as a message).
MAX_UPLOAD_BYTES = 32 * 1024

#: The computer's levels and the modes a save can name. Their places are numbers in the resume code (1, 2, …;
#: 0: not said): only append.
LEVELS = ("random", "greedy", "expert")
MODES = ("computer", "pass_and_play")
MAX_NAME = 24             # characters in a player's name

# The deck order the save format sorts by: oros, copas, espadas, bastos; 1-7, sota, caballo, rey in each suit.
# Written out here (not taken from the cards module) so that the format stays what this file says.
_RANKS = ("1", "2", "3", "4", "5", "6", "7", "10", "11", "12")
_SUITS = "oceb"
_PLACE = {rank + suit: 10 * s + r for s, suit in enumerate(_SUITS) for r, rank in enumerate(_RANKS)}
_CAPTURE_VALUE = dict(zip(_RANKS, (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)))


class Replayable(Protocol):
    """What a save reads of a game, and replays on a new one: :class:`escoba_tutor.engine.game.Game` (the game
    imports this module for its ``to_json`` and ``from_json``, so this module names the game only by what it
    uses of it, and is handed the class to build)."""

    players: int
    rules: Rules
    seed: int
    first_dealer: int

    def __init__(self, *, players: int, rules: Rules, seed: int, dealer: int) -> None: ...
    @property
    def deal(self) -> int: ...
    @property
    def totals(self) -> tuple[int, ...]: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def moves(self) -> tuple[Move, ...]: ...
    def legal_moves(self) -> tuple[Move, ...]: ...
    def renuncio_moves(self) -> tuple[Move, ...]: ...
    def play(self, move: Move | str) -> object: ...


G = TypeVar("G", bound=Replayable)


@dataclass(frozen=True)
class SavedGame(Generic[G]):
    """A loaded save: the game, and how it was being played (None or empty: the save does not say)."""

    game: G
    level: str | None = None
    mode: str | None = None
    names: tuple[str, ...] = ()


def _canonical_key(move: Move) -> tuple[int, tuple[int, ...]]:
    return _PLACE[move.card.code], tuple(sorted(_PLACE[card.code] for card in move.captured))


def canonical_order(moves: Iterable[Move]) -> list[Move]:
    """Moves in the save format's order (version 2): by the card played, in deck order; then by the cards taken,
    compared as lists in deck order, a card laid down (nothing taken) first.

    >>> [m.text for m in canonical_order([Move.from_text("5o+12c"), Move.from_text("5o+2c+10b"),
    ...                                   Move.from_text("1o"), Move.from_text("5o")])]
    ['1o', '5o', '5o+2c+10b', '5o+12c']
    """
    return sorted(moves, key=_canonical_key)


def _v1_key(move: Move, renuncio: bool) -> tuple[bool, int, bool, tuple[tuple[int, int], ...], tuple[int, ...]]:
    """The order escoba-tutor 0.1 offered moves in, which version 1 codes count in. The moves the rules allow, by
    the card played in deck order, then the renuncio lay-downs (that variant). For one card: its captures, then
    the card laid down. Captures are ordered by their values: the highest value first, fewer cards of it first,
    then the next value the same way; captures of the same values by which suits they take of each value in
    turn (the suits of a value as a number: oros 1, copas 2, espadas 4, bastos 8, added up; smaller first)."""
    suits: dict[int, int] = {}
    for card in move.captured:
        rank, suit = card.code[:-1], card.code[-1]
        value = _CAPTURE_VALUE[rank]
        suits[value] = suits.get(value, 0) | 1 << _SUITS.index(suit)
    values = sorted(suits, reverse=True)
    shape = tuple((-value, suits[value].bit_count()) for value in values)
    return renuncio, _PLACE[move.card.code], not move.captured, shape, tuple(suits[value] for value in values)


def _v1_order(legal: Sequence[Move], renuncio: Sequence[Move]) -> list[Move]:
    return sorted([*legal, *renuncio], key=lambda move: _v1_key(move, move in renuncio))


def _offered(game: Replayable, version: int) -> list[Move]:
    """Every move the rules let the player to move make (the renuncio lay-downs too), in the version's order."""
    legal, renuncio = game.legal_moves(), game.renuncio_moves()
    if version == 1:
        return _v1_order(legal, renuncio)
    return canonical_order([*legal, *renuncio])


def _move_text(move: Move) -> str:
    """A move as the save file writes it: the card played, then the cards taken in deck order."""
    return "+".join([move.card.code, *sorted((card.code for card in move.captured), key=_PLACE.__getitem__)])


def _check_setup(game: Replayable, level: str | None, mode: str | None, names: Sequence[str]) -> tuple[str, ...]:
    if level is not None and level not in LEVELS:
        raise SaveFormatError(f"a save names the level as one of {', '.join(LEVELS)}, not {str(level)[:40]!r}",
                              field="level")
    if mode is not None and mode not in MODES:
        raise SaveFormatError(f"a save names the mode as one of {', '.join(MODES)}, not {str(mode)[:40]!r}",
                              field="mode")
    names = tuple(names)
    if names and len(names) != game.players:
        raise SaveFormatError(f"a save names every player or none: {game.players} names, not {len(names)}",
                              field="names")
    for name in names:
        if not isinstance(name, str) or len(name) > MAX_NAME or any(
                unicodedata.category(ch)[0] == "C" for ch in name):
            raise SaveFormatError(f"a player's name is text of at most {MAX_NAME} characters without control "
                                  "characters", field="names")
    return names


# ---------------------------------------------------------------------------------------------------- JSON
def _checksum(body: dict[str, Any]) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def _summary(game: Replayable) -> dict[str, Any]:
    return {"deal": game.deal, "totals": list(game.totals), "winner": game.winner}


def dump_json(game: Replayable, *, level: str | None = None, mode: str | None = None, names: Sequence[str] = ()) -> str:
    """The game as a JSON document a student can download and load again; ``level``, ``mode`` and ``names`` say
    how it is being played (None and empty: not said)."""
    names = _check_setup(game, level, mode, names)
    body = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "players": game.players,
        "seed": game.seed,
        "first_dealer": game.first_dealer,
        "level": level,
        "mode": mode,
        "names": list(names),
        "moves": [_move_text(move) for move in game.moves],
        "summary": _summary(game),
    }
    return json.dumps({**body, "checksum": _checksum(body)}, ensure_ascii=False, indent=1)


def _require(data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data:
        raise SaveFormatError(f"this save has no {key!r}: the file is cut short or is not a game save",
                              field=key)
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise SaveFormatError(f"this save's {key!r} has the wrong type ({type(value).__name__})", field=key)
    return value


def load_json(text: str | bytes, game_class: type[G]) -> G:
    """The game saved in ``text`` by :func:`dump_json` (any version), as a ``game_class``."""
    return read_json(text, game_class).game


def read_json(text: str | bytes, game_class: type[G]) -> SavedGame[G]:
    """The game saved in ``text`` by :func:`dump_json` (any version), as a ``game_class``, and how it was being
    played."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_SAVE_BYTES:
            raise SaveFormatError("this file is too large to be a game save", code="save_too_large")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise SaveFormatError("this file is not a game save: it is not UTF-8 text") from None
    if not isinstance(text, str):
        raise SaveFormatError(f"a save is JSON text, not {type(text).__name__}")
    if len(text) > MAX_SAVE_BYTES:
        raise SaveFormatError("this file is too large to be a game save", code="save_too_large")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise SaveFormatError(f"this file is not a game save: it is not valid JSON ({str(error)[:80]})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveFormatError("this file is not an escoba-tutor game save")
    version = _require(data, "version", int)
    if version > VERSION:
        raise SaveVersionError(f"this save was written by a newer escoba-tutor (format version {version}; this "
                               f"one reads versions 1 to {VERSION}): update escoba-tutor to load it",
                               version=version)
    if version < 1:
        raise SaveFormatError(f"this save has an unknown format version {version}", version=version)
    checksum = _require(data, "checksum", str)
    body = {k: v for k, v in data.items() if k != "checksum"}
    if _checksum(body) != checksum:
        raise ChecksumError("this save was changed after it was written (its checksum does not match), so it "
                            "cannot be trusted")
    rules_data = _require(data, "rules", dict)
    players = _require(data, "players", int)
    seed = _require(data, "seed", int)
    first_dealer = _require(data, "first_dealer", int)
    moves = _require(data, "moves", list)
    summary = _require(data, "summary", dict)
    level = mode = None
    raw_names: list[Any] = []
    if version >= 2:
        level = _require(data, "level", (str, type(None)))
        mode = _require(data, "mode", (str, type(None)))
        raw_names = _require(data, "names", list)
    if len(moves) > MAX_MOVES or not all(isinstance(m, str) for m in moves):
        raise SaveFormatError("this save's moves are not a list of moves like '3c+1o+4b+7o'", field="moves")
    try:
        rules = Rules.from_dict(rules_data)
    except EscobaError as error:
        raise SaveFormatError(f"this save's rules cannot be used: {error}", field="rules") from None
    game = _new_game(game_class, players, rules, seed, first_dealer)
    names = _check_setup(game, level, mode, raw_names)
    for number, text_move in enumerate(moves, 1):
        _replay(game, number, text_move)
    if summary != _summary(game):
        raise ChecksumError("this save's summary does not match its moves, so it cannot be trusted")
    return SavedGame(game, level, mode, names)


def _new_game(game_class: type[G], players: int, rules: Rules, seed: int, first_dealer: int) -> G:
    try:
        return game_class(players=players, rules=rules, seed=seed, dealer=first_dealer)
    except EscobaError as error:
        raise SaveFormatError(f"this save's game cannot be set up: {error}") from None


def _replay(game: Replayable, number: int, move: Move | str) -> None:
    try:
        game.play(move)
    except EscobaError as error:
        raise SaveFormatError(f"move {number} ({str(move)[:40]}) cannot be played: {error}", move=number) from None


# ------------------------------------------------------------------------------------------- resume code
# Crockford's base 32: no I, L, O or U, so a code read aloud or copied by hand survives.
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_DIGIT = {ch: i for i, ch in enumerate(_ALPHABET)}
_DIGIT.update({"O": 0, "I": 1, "L": 1})
_CHECK_CHARS = 4
_GROUP = 5


def _encode(numbers: list[int]) -> str:
    """Each number as base-32 digits of 4 bits, low bits first; the fifth bit says 'more digits follow'."""
    out = []
    for number in numbers:
        while True:
            low, number = number & 15, number >> 4
            out.append(_ALPHABET[low | (16 if number else 0)])
            if not number:
                break
    return "".join(out)


def _decode(body: str) -> list[int]:
    numbers, number, shift = [], 0, 0
    for ch in body:
        digit = _DIGIT[ch]
        number |= (digit & 15) << shift
        shift += 4
        if shift > 64:
            raise SaveFormatError("this resume code holds a number too large to be part of a game")
        if not digit & 16:
            numbers.append(number)
            number, shift = 0, 0
    if shift:
        raise SaveFormatError("this resume code is cut short")
    return numbers


def _check(body: str) -> str:
    crc = zlib.crc32(body.encode()) & ((1 << 5 * _CHECK_CHARS) - 1)
    return "".join(_ALPHABET[(crc >> 5 * i) & 31] for i in range(_CHECK_CHARS))


def dump_code(game: Replayable, *, level: str | None = None, mode: str | None = None, names: Sequence[str] = ()) -> str:
    """A short code that resumes the game: version, setup, how it is played, and each move as its place among the
    moves offered (:func:`canonical_order`).

    Moves that were the only one offered are left out (loading replays them), so most deals take about 25
    characters.
    """
    names = _check_setup(game, level, mode, names)
    replay = type(game)(players=game.players, rules=game.rules, seed=game.seed, dealer=game.first_dealer)
    numbers = [VERSION, game.players, game.first_dealer, game.seed, *game.rules.to_numbers(),
               0 if level is None else LEVELS.index(level) + 1, 0 if mode is None else MODES.index(mode) + 1,
               len(names)]
    for name in names:
        numbers += [len(name), *map(ord, name)]
    numbers.append(len(game.moves))
    for move in game.moves:
        offered = _offered(replay, VERSION)
        if len(offered) > 1:
            numbers.append(offered.index(move))
        replay.play(move)
    body = _encode(numbers)
    code = body + _check(body)
    return "-".join(code[i:i + _GROUP] for i in range(0, len(code), _GROUP))


def load_code(code: str, game_class: type[G]) -> G:
    """The game a resume code from :func:`dump_code` stands for (any version), as a ``game_class``."""
    return read_code(code, game_class).game


def _read_setup(numbers: list[int], position: int) -> tuple[str | None, str | None, list[str], int]:
    """Version 2's level, mode and names, from ``position``; returns them and the position after them."""
    if len(numbers) < position + 3:
        raise IndexError
    level_number, mode_number, count = numbers[position:position + 3]
    if level_number > len(LEVELS) or mode_number > len(MODES):
        raise SaveFormatError("this resume code names a level or a mode this escoba-tutor does not know")
    if count > 4:
        raise SaveFormatError("this resume code names more players than a game has", field="names")
    position += 3
    names = []
    for _ in range(count):
        length = numbers[position]
        if length > MAX_NAME:
            raise SaveFormatError(f"a player's name in this resume code is longer than {MAX_NAME} characters",
                                  field="names")
        points = numbers[position + 1:position + 1 + length]
        if len(points) < length:
            raise IndexError
        if any(point > 0x10FFFF for point in points):
            raise SaveFormatError("a player's name in this resume code is not text", field="names")
        names.append("".join(map(chr, points)))
        position += 1 + length
    level = LEVELS[level_number - 1] if level_number else None
    mode = MODES[mode_number - 1] if mode_number else None
    return level, mode, names, position


def read_code(code: str, game_class: type[G]) -> SavedGame[G]:
    """The game a resume code from :func:`dump_code` stands for (any version), as a ``game_class``, and how it
    was being played."""
    if not isinstance(code, str):
        raise SaveFormatError(f"a resume code is text, not {type(code).__name__}")
    if len(code) > 20_000:
        raise SaveFormatError("this text is too long to be a resume code", code="save_too_large")
    cleaned = "".join(code.split()).replace("-", "").upper()
    if not cleaned:
        raise SaveFormatError("the resume code is empty", code="empty_code")
    for position, ch in enumerate(cleaned, 1):
        if ch not in _DIGIT:
            raise SaveFormatError(f"a resume code has only digits and the letters A-Z without U; character "
                                  f"{position} is {ch!r}", code="bad_code_char", position=position)
    if len(cleaned) <= _CHECK_CHARS:
        raise SaveFormatError("this resume code is cut short", code="code_too_short")
    body, check = cleaned[:-_CHECK_CHARS], cleaned[-_CHECK_CHARS:]
    body = "".join(_ALPHABET[_DIGIT[ch]] for ch in body)
    check = "".join(_ALPHABET[_DIGIT[ch]] for ch in check)
    if _check(body) != check:
        raise ChecksumError("this resume code does not check out: a character was mistyped, left out or added")
    numbers = _decode(body)
    if not numbers:
        raise SaveFormatError("this resume code is cut short")
    version = numbers[0]
    if version > VERSION:
        raise SaveVersionError(f"this resume code comes from a newer escoba-tutor (format version {version}; "
                               f"this one reads versions 1 to {VERSION}): update escoba-tutor to load it",
                               version=version)
    if version < 1:
        raise SaveFormatError(f"this resume code has an unknown format version {version}", version=version)
    level = mode = None
    raw_names: list[str] = []
    try:
        if len(numbers) < 4:
            raise IndexError
        players, first_dealer, seed = numbers[1:4]
        if seed > MAX_SEED:
            raise SaveFormatError("this resume code's seed is out of range")
        rules, position = rules_from_numbers(numbers, 4)
        if version >= 2:
            level, mode, raw_names, position = _read_setup(numbers, position)
        count = numbers[position]
    except (IndexError, ValueError) as error:
        if isinstance(error, SaveError):
            raise
        if isinstance(error, IndexError):
            raise SaveFormatError("this resume code is cut short") from None
        raise SaveFormatError(f"this resume code's setup cannot be read: {error}") from None
    choices = numbers[position + 1:]
    if count > MAX_MOVES:
        raise SaveFormatError("this resume code holds more moves than any game has")
    game = _new_game(game_class, players, rules, seed, first_dealer)
    names = _check_setup(game, level, mode, raw_names)
    read = 0
    for number in range(1, count + 1):
        offered = _offered(game, version)
        if not offered:
            raise SaveFormatError(f"this resume code goes on after the game is over (move {number})")
        if len(offered) == 1:
            move = offered[0]
        else:
            if read == len(choices):
                raise SaveFormatError("this resume code is cut short: some moves are missing")
            choice = choices[read]
            read += 1
            if choice >= len(offered):
                raise SaveFormatError(f"move {number} of this resume code is not one of the {len(offered)} moves "
                                      "the rules allow", move=number)
            move = offered[choice]
        _replay(game, number, move)
    if read != len(choices):
        raise SaveFormatError("this resume code has extra moves at its end")
    return SavedGame(game, level, mode, names)


def read_save(text: str | bytes, game_class: type[G]) -> SavedGame[G]:
    """A save file's text (JSON) or a resume code, whichever ``text`` is, its game as a ``game_class``."""
    if isinstance(text, str) and not text.strip().startswith("{"):
        return read_code(text, game_class)
    return read_json(text, game_class)  # file contents (text or bytes); anything else is refused there
