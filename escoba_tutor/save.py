"""One versioned save format, as a JSON file and as a short resume code.

Both hold the same thing: the rules, the number of players, the seed, the first dealer and the moves. Loading
replays the moves through the public game API, so a save can only produce a game the rules allow; anything
malformed, cut short, altered or from a newer version raises a :class:`SaveError` and no game at all.

>>> from escoba_tutor import Game
>>> game = Game(players=2, seed=42)
>>> for _ in range(10):
...     _ = game.play(game.legal_moves()[-1])
>>> Game.from_json(game.to_json()).state_key() == game.state_key()
True
>>> code = game.resume_code()
>>> Game.from_resume_code(code).state_key() == game.state_key()
True
>>> Game.from_resume_code(code[:-1] + ("0" if code[-1] != "0" else "1"))
Traceback (most recent call last):
...
escoba_tutor.errors.ChecksumError: this resume code does not check out: a character was mistyped, left out or added
"""

from __future__ import annotations

import hashlib
import json
import zlib
from typing import Any

from .errors import ChecksumError, EscobaError, SaveError, SaveFormatError, SaveVersionError
from .game import MAX_SEED, Game, Move
from .rules import Rules, rules_from_numbers

__all__ = ["FORMAT", "VERSION", "dump_json", "load_json", "dump_code", "load_code"]

FORMAT = "escoba-tutor-game"
VERSION = 1
MAX_MOVES = 10_000        # far beyond any real game; bounds the work a hostile save can ask for
MAX_SAVE_BYTES = 1_000_000


# ---------------------------------------------------------------------------------------------------- JSON
def _checksum(body: dict[str, Any]) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def _summary(game: Game) -> dict[str, Any]:
    return {"deal": game.deal, "totals": list(game.totals), "winner": game.winner}


def dump_json(game: Game) -> str:
    """The game as a JSON document a student can download and load again."""
    body = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "players": game.players,
        "seed": game.seed,
        "first_dealer": game.first_dealer,
        "moves": [move.text for move in game.moves],
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


def load_json(text: str | bytes) -> Game:
    """The game saved in ``text`` by :func:`dump_json`."""
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
                               f"one reads up to {VERSION}): update escoba-tutor to load it", version=version)
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
    if len(moves) > MAX_MOVES or not all(isinstance(m, str) for m in moves):
        raise SaveFormatError("this save's moves are not a list of moves like '3c+1o+4b+7o'", field="moves")
    try:
        rules = Rules.from_dict(rules_data)
    except EscobaError as error:
        raise SaveFormatError(f"this save's rules cannot be used: {error}", field="rules") from None
    game = _new_game(players, rules, seed, first_dealer)
    for number, text_move in enumerate(moves, 1):
        _replay(game, number, text_move)
    if summary != _summary(game):
        raise ChecksumError("this save's summary does not match its moves, so it cannot be trusted")
    return game


def _new_game(players: int, rules: Rules, seed: int, first_dealer: int) -> Game:
    try:
        return Game(players=players, rules=rules, seed=seed, dealer=first_dealer)
    except EscobaError as error:
        raise SaveFormatError(f"this save's game cannot be set up: {error}") from None


def _replay(game: Game, number: int, move: Move | str) -> None:
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


def dump_code(game: Game) -> str:
    """A short code that resumes the game: version, setup, and each move as its place among the legal moves
    (then the renuncio lay-downs, with that variant).

    Moves that were the only legal choice are left out (loading replays them), so most deals take
    about 25 characters.
    """
    replay = Game(players=game.players, rules=game.rules, seed=game.seed, dealer=game.first_dealer)
    numbers = [VERSION, game.players, game.first_dealer, game.seed, *game.rules.to_numbers(), len(game.moves)]
    for move in game.moves:
        legal = replay.legal_moves() + replay.renuncio_moves()
        if len(legal) > 1:
            numbers.append(legal.index(move))
        replay.play(move)
    body = _encode(numbers)
    code = body + _check(body)
    return "-".join(code[i:i + _GROUP] for i in range(0, len(code), _GROUP))


def load_code(code: str) -> Game:
    """The game a resume code from :func:`dump_code` stands for."""
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
    if numbers[0] > VERSION:
        raise SaveVersionError(f"this resume code comes from a newer escoba-tutor (version {numbers[0]}): "
                               "update escoba-tutor to load it", version=numbers[0])
    if numbers[0] != VERSION:
        raise SaveFormatError(f"this resume code has an unknown version {numbers[0]}")
    try:
        players, first_dealer, seed = numbers[1:4]
        if seed > MAX_SEED:
            raise SaveFormatError("this resume code's seed is out of range")
        rules, position = rules_from_numbers(numbers, 4)
        count = numbers[position]
    except IndexError:
        raise SaveFormatError("this resume code is cut short") from None
    except ValueError as error:
        if isinstance(error, SaveError):
            raise
        raise SaveFormatError(f"this resume code's setup cannot be read: {error}") from None
    choices = numbers[position + 1:]
    if count > MAX_MOVES:
        raise SaveFormatError("this resume code holds more moves than any game has")
    game = _new_game(players, rules, seed, first_dealer)
    read = 0
    for number in range(1, count + 1):
        legal = game.legal_moves() + game.renuncio_moves()
        if not legal:
            raise SaveFormatError(f"this resume code goes on after the game is over (move {number})")
        if len(legal) == 1:
            move = legal[0]
        else:
            if read == len(choices):
                raise SaveFormatError("this resume code is cut short: some moves are missing")
            choice = choices[read]
            read += 1
            if choice >= len(legal):
                raise SaveFormatError(f"move {number} of this resume code is not one of the {len(legal)} legal "
                                      "moves", move=number)
            move = legal[choice]
        _replay(game, number, move)
    if read != len(choices):
        raise SaveFormatError("this resume code has extra moves at its end")
    return game
