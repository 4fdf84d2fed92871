"""The ``escoba-tutor`` command.

``escoba-tutor simulate`` plays bots against each other and prints a summary per side; ``escoba-tutor
check-trace FILE`` re-checks a trace written by ``simulate --trace FILE``. Exit codes: 0 success, 1 a trace
with problems or a failed run, 2 bad arguments (one line on stderr, never a traceback), 130 interrupted
(Ctrl-C).

>>> main(["simulate", "--games", "2", "--seed", "1", "--no-progress"])  # doctest: +ELLIPSIS
escoba, 2 players, 2 games, seed 1: ... deals played
side  players  bot     games won  ...
0
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from . import __version__
from .engine.errors import EscobaError
from .engine.game import MAX_SEED
from .engine.rules import PROFILES, VARIANTS, rules_by_name
from .engine.trace import check_trace
from .exercises.registry import kind_names, kinds_for
from .players.bots import bot_names, make_bot
from .players.simulate import seat_bots, simulate
from .text.translator import LANGUAGES

__all__ = ["main", "build_parser"]

PROG = "escoba-tutor"
EXIT_OK, EXIT_PROBLEMS, EXIT_FAILED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 1, 2, 130


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One line instead of argparse's usage block: the message says what to fix, --help the rest.
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _whole(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} must be a whole number, not {text!r}") from None


def _whole_in(what: str, low: int, high: int | None = None, unit: str = "", *,
              or_zero: bool = False) -> Callable[[str], int]:
    """An argument's type: a whole number from ``low`` to ``high`` (None: no top), or 0 too with ``or_zero`` (no
    limit); anything else is refused in one line that names ``what`` and the numbers it may be."""

    def whole_in(text: str) -> int:
        number = _whole(text, what)
        if (or_zero and number == 0) or (low <= number and (high is None or number <= high)):
            return number
        span = f"at least {low}" if high is None else f"from {low} to {high}{unit}"
        raise argparse.ArgumentTypeError(f"{what} must be {'0 (no limit) or ' if or_zero else ''}{span}, "
                                         f"not {number}")

    return whole_in


_games = _whole_in("the number of games", 1)
_seed = _whole_in("the seed", 0, MAX_SEED)
_jobs = _whole_in("the number of jobs", 1, 64)
_parallel = _whole_in("the number of servers started at once", 1, 32)
_start_timeout = _whole_in("the start timeout", 10, 3600, " seconds")
_sheet_count = _whole_in("the number of exercises", 1, 20)
_port = _whole_in("the port", 1, 65535)
_minutes = _whole_in("the idle time", 1, 24 * 60, " minutes")
_kernels = _whole_in("the number of kernels", 1, 10_000)
_mebibytes = _whole_in("the memory", 128, 1 << 20, " MiB", or_zero=True)


def _players(text: str) -> int:
    players = _whole(text, "the number of players")
    if players not in (2, 3, 4):
        raise argparse.ArgumentTypeError(f"Escoba is played by 2 or 3 players, or 4 in partnerships, not {players}")
    return players


def _rules(text: str):
    try:
        return rules_by_name(text)
    except EscobaError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Learn the Spanish card game Escoba.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    sim = commands.add_parser(
        "simulate", help="play bots against each other and compare the sides",
        description="Play whole games between bots and print, per side, the games won, the points per deal and "
                    "the escobas per deal. The first dealer alternates from game to game.")
    sim.add_argument("--players", type=_players, default=2, metavar="N",
                     help="2 or 3 players, or 4 in partnerships: 0 and 2 against 1 and 3 (default 2)")
    sim.add_argument("--games", type=_games, default=100, metavar="G", help="games to play (default 100)")
    sim.add_argument("--seed", type=_seed, default=None, metavar="S",
                     help="fixes every shuffle and every bot choice (default: a random seed, shown in the output)")
    sim.add_argument("--rules", type=_rules, default=PROFILES["escoba"], metavar="NAME",
                     help="rules profile: " + ", ".join(PROFILES) + "; options with +, e.g. escoba+target=31")
    sim.add_argument("--variant", action="append", default=[], metavar="NAME|KEY=VALUE",
                     help="a house rule on top of --rules, by name (" + ", ".join(VARIANTS) + ") or as an option "
                          "setting such as target=31; repeat for several")
    sim.add_argument("--bots", default="random", metavar="NAMES",
                     help="one bot for every seat, or one per side separated by commas (4 players: the first "
                          "plays seats 0 and 2; 3 players: name three). Bots: " + ", ".join(bot_names())
                          + ", or the levels fácil, medio, difícil (easy, medium, hard; default random)")
    sim.add_argument("--stats", action=argparse.BooleanOptionalAction, default=True,
                     help="print, per side, the 95%% interval of the share of wins (Wilson), the mean margin "
                          "per deal (points minus the other side's) with its 95%% interval, and the bot's decision "
                          "time in milliseconds (median and 95th percentile); on by default (--no-stats: off)")
    sim.add_argument("--jobs", type=_jobs, default=1, metavar="J",
                     help="play the games in J processes; the results do not change (default 1)")
    sim.add_argument("--trace", metavar="FILE", help="write every deal to FILE as JSON Lines")
    sim.add_argument("--no-progress", dest="progress", action="store_false",
                     help="do not show the progress bar on stderr")

    serve = commands.add_parser(
        "serve", help="serve the course in the browser (the default command)",
        description="Serve the landing page and every lesson as a Voilà app. It listens on 127.0.0.1 (this "
                    "computer only) unless --ip says otherwise.")
    _serve_options(serve)
    _serve_options(parser, defaults_only=True)

    check = commands.add_parser(
        "check-trace", help="re-check every game of a trace file",
        description="Re-play every game of a trace written by 'simulate --trace' from the trace alone and list "
                    "any rule it breaks. Exit 0 when valid, 1 when there are problems.")
    check.add_argument("file", metavar="FILE", help="a trace (JSON Lines, one deal a line)")

    copy = commands.add_parser(
        "copy-lessons", help="write the lessons' notebooks to a folder, to edit them and serve the copy",
        description="Write every lesson's notebook (Spanish in DIR/es, English in DIR/en) to DIR, to edit them in "
                    "Jupyter; then 'escoba-tutor --lessons DIR' serves the edited copy. Nothing is overwritten: "
                    "name a new or empty folder.")
    copy.add_argument("folder", metavar="DIR", help="where to write the notebooks (created if needed)")

    sheet = commands.add_parser(
        "worksheet", help="write a printable worksheet of exercises, with its answer key",
        description="Write one self-contained HTML page of exercises (find every capture, work out the setenta, "
                    "who gets each point, the cards left, the escoba de mano, which card to play, the escobas line, "
                    "who wins the game, who plays next and when cards are dealt, what a house rule changes) "
                    "from the same seeded generators as the course's practice exercises, then "
                    "the answer key, which starts on a new page when printed. Exercise numbers start at the seed "
                    "for each kind: seed to seed + count - 1, except where a kind's next exercises would share one "
                    "answer (the cards left, who wins the game, the escoba de mano, what a house rule changes): there "
                    "the next exercises whose "
                    "answers differ.")
    sheet.add_argument("--seed", type=_seed, required=True, metavar="S",
                       help="the first exercise number: the same seed always gives the same worksheet")
    sheet.add_argument("--lang", type=_language, default="es", help="the worksheet's language: es or en (default es)")
    sheet.add_argument("--count", type=_sheet_count, default=3, metavar="N",
                       help="exercises of each kind, 1 to 20 (default 3)")
    sheet.add_argument("--output", metavar="FILE",
                       help="where to write the page (default worksheet-S-LANG.html here; - for standard output)")
    sheet.add_argument("--rules", type=_rules, default=PROFILES["escoba"], metavar="NAME",
                       help="rules profile and options, e.g. scopa or escoba+figuras (default escoba)")
    sheet.add_argument("--kinds", type=_sheet_kinds, default=None, metavar="K,K",
                       help="the kinds of exercise, comma-separated, from " + ", ".join(kind_names()) + " (default all "
                            "that the rules have)")
    site = commands.add_parser(
        "build-site", help="write the course as a static site that runs in the browser, with no server",
        description="Write every lesson, the landing pages and the play page, in Spanish and English, as static "
                    "pages that run the course in the student's browser (Voici and Pyodide); any static host serves "
                    "the folder, and the pages load nothing from any other site. Needs the site extra (pip install "
                    "\"escoba-tutor[site]\"), npm, and the npm and PyPI registries while it builds.")
    site.add_argument("directory", metavar="DIR", help="a new or empty folder to write the site into")
    site.add_argument("--cache", metavar="DIR",
                      help="keep the downloaded Pyodide, icons and wheels here, for the next build")
    site.add_argument("--lessons", metavar="DIR", help="the lessons folder (default: the project's lessons/)")

    ahead = commands.add_parser(
        "hub-start-class", help="start a class's course servers on the school's JupyterHub before the lesson",
        description="Start the course servers of a class on a JupyterHub before the lesson, a few at a time, so "
                    "that the students get in at once. The API token is read from the JUPYTERHUB_API_TOKEN "
                    "environment variable or from --token-file (never from the command line); make it at the "
                    "hub's /hub/token page, logged in as a teacher (the hub's teachers group) or an admin. Every "
                    "name is checked before anything starts. Exit 0 when every server is running, 1 when some "
                    "failed (the summary says why), 2 on a problem that starts nothing.")
    ahead.add_argument("--hub-url", required=True, metavar="URL", help="the hub's address, e.g. "
                       "https://escoba.ies-ejemplo.es")
    who = ahead.add_mutually_exclusive_group(required=True)
    who.add_argument("--users", type=_hub_users, metavar="A,B,C", help="the students' hub names, comma-separated")
    who.add_argument("--group", metavar="NAME", help="every member of this hub group, e.g. students")
    ahead.add_argument("--token-file", metavar="FILE",
                       help="a file holding the API token (default: the JUPYTERHUB_API_TOKEN environment variable)")
    ahead.add_argument("--until", type=_clock, metavar="HH:MM",
                       help="the lesson's start today: the hub keeps the servers until then (at most 2 hours "
                            "ahead, as shipped), and their idle time counts from then; without it, from now")
    ahead.add_argument("--parallel", type=_parallel, default=4, metavar="N",
                       help="servers started at once, 1 to 32 (default 4: a few at a time leave the hub's machine "
                            "room for the servers already starting)")
    ahead.add_argument("--timeout", type=_start_timeout, default=300, metavar="SECONDS",
                       help="how long one server may take to start (default 300)")
    return parser


def _hub_users(text: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(name.strip() for name in text.split(",") if name.strip()))
    if not names:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} names nobody: give the students' hub names, comma-separated")
    bad = [name for name in names if len(name) > 255 or any(ord(ch) < 32 for ch in name)]
    if bad:
        raise argparse.ArgumentTypeError(f"{bad[0][:40]!r} is not a hub user name")
    return names


def _clock(text: str):
    from datetime import datetime

    match = re.fullmatch(r"([01]?\d|2[0-3])[:.h]([0-5]\d)", text.strip())
    if not match:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a time of day: give the lesson's start as HH:MM, "
                                         "e.g. 09:30")
    now = datetime.now().astimezone()
    until = now.replace(hour=int(match.group(1)), minute=int(match.group(2)), second=0, microsecond=0)
    if until <= now:
        raise argparse.ArgumentTypeError(f"{text} is already past: give the start of today's lesson, still to come")
    return until


def _hub_token(args: argparse.Namespace) -> str:
    """The API token, from --token-file or the environment; never from the command line (others see it there)."""
    if args.token_file:
        try:
            with open(args.token_file, encoding="utf-8") as stream:
                token = stream.read().strip()
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or "not a text file"
            raise _UsageError("hub-start-class", f"argument --token-file: cannot read {args.token_file!r}: "
                                                 f"{reason}") from None
        if not token or any(ch.isspace() for ch in token):
            raise _UsageError("hub-start-class", f"argument --token-file: {args.token_file!r} holds no token (one "
                                                 "line, the token alone)")
        return token
    token = os.environ.get("JUPYTERHUB_API_TOKEN", "").strip()
    if not token:
        raise _UsageError("hub-start-class", "no API token: put it in the JUPYTERHUB_API_TOKEN environment variable "
                                             "or in a file given with --token-file (make one at the hub's /hub/token "
                                             "page)")
    return token


def _hub_start_class(args: argparse.Namespace) -> int:
    from .server.hub_class import FAILED, HubClient, hub_base_url, start_class, summary

    try:
        base = hub_base_url(args.hub_url)
    except EscobaError as error:
        raise _UsageError("hub-start-class", f"argument --hub-url: {error}") from None
    client = HubClient(base, _hub_token(args))
    who = f"the group {args.group}" if args.group else f"{len(args.users)} students"
    print(f"{PROG}: starting the servers of {who} on {base}, {args.parallel} at a time"
          + (f"; kept until {args.until:%H:%M}" if args.until else ""), flush=True)

    def progress(done: int, total: int, outcome) -> None:
        said = {"started": f"started in {outcome.seconds:.0f} s", "already running": "already running"}.get(
            outcome.status, f"FAILED: {outcome.reason}")
        print(f"[{done}/{total}] {outcome.name}: {said}", flush=True)

    try:
        outcomes = start_class(client, names=args.users, group=args.group, until=args.until,
                               parallel=args.parallel, timeout=args.timeout, progress=progress)
    except EscobaError as error:
        print(f"{PROG} hub-start-class: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    print(summary(outcomes))
    return EXIT_FAILED if any(outcome.status == FAILED for outcome in outcomes) else EXIT_OK


def _build_site(args: argparse.Namespace) -> int:
    from .site.build import build_site

    try:
        build_site(args.directory, cache=args.cache, lessons=args.lessons)
    except EscobaError as error:
        option = {"site_not_empty": "DIR", "no_lessons": "--lessons"}.get(error.code)
        if option is None:
            print(f"{PROG} build-site: error: {error}", file=sys.stderr)
            return EXIT_FAILED
        raise _UsageError("build-site", f"argument {option}: {error}") from None
    return EXIT_OK


def _sheet_kinds(text: str) -> tuple[str, ...]:
    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    unknown = [k for k in kinds if k not in kind_names()]
    if unknown or not kinds:
        raise argparse.ArgumentTypeError(f"no kind of exercise is called {(unknown or [text])[0][:20]!r}: choose "
                                         f"from {', '.join(kind_names())}")
    return tuple(dict.fromkeys(kinds))


def _worksheet(args: argparse.Namespace) -> int:
    from .exercises.worksheet import worksheet_html

    if args.seed + args.count - 1 > MAX_SEED:
        raise _UsageError("worksheet", f"argument --seed: the seed must be at most {MAX_SEED - args.count + 1} "
                                       f"for {args.count} exercises of each kind")
    try:  # the points exercises are 2-player deals
        args.rules.check_players(2)
    except EscobaError as error:
        raise _UsageError("worksheet", f"argument --rules: {error}") from None
    if args.kinds is not None:
        missing = [k for k in args.kinds if k not in kinds_for(args.rules)]
        if missing:
            raise _UsageError("worksheet", f"argument --kinds: these rules have no {missing[0]} exercise")
    page = worksheet_html(args.seed, args.lang, args.count, args.rules, args.kinds)
    if args.output == "-":
        sys.stdout.write(page)
        return EXIT_OK
    path = args.output or f"worksheet-{args.seed}-{args.lang}.html"
    try:
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(page)
    except OSError as error:
        raise _UsageError("worksheet", f"argument --output: cannot write {path!r}: "
                                       f"{error.strerror or error}") from None
    print(f"{PROG}: wrote {path} ({args.count} exercises of each kind, seed {args.seed}, {args.lang}; "
          "the answer key starts on a new page)")
    return EXIT_OK


def _copy_lessons(args: argparse.Namespace) -> int:
    from .server.app import LANGS, lessons_dir

    origin, target = lessons_dir(), Path(args.folder)
    names = sorted(path.relative_to(origin) for lang in LANGS for path in (origin / lang).glob("*.ipynb"))
    problem = None
    if target.exists() and not target.is_dir():
        problem = f"{target} is a file: name a new or empty folder"
    elif any((target / name).exists() for name in names):
        there = next(name for name in names if (target / name).exists())
        problem = f"{target / there} exists already: name a new folder, so that no edited lesson is overwritten"
    if problem:
        raise _UsageError("copy-lessons", f"argument DIR: {problem}")
    written: list[Path] = []
    try:
        for name in names:
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(origin / name, target / name)
            written.append(target / name)
    except OSError as error:
        for path in written:  # nothing half-written
            path.unlink(missing_ok=True)
        raise _UsageError("copy-lessons", f"argument DIR: cannot write to {target}: "
                                          f"{error.strerror or error}") from None
    print(f"{PROG}: wrote {len(written)} lesson notebooks to {target} ({', '.join(LANGS)}). Edit them in "
          f"Jupyter, then serve them with: {PROG} --lessons {target}")
    return EXIT_OK


def _language(text: str) -> str:
    if text not in LANGUAGES:
        raise argparse.ArgumentTypeError(f"the language must be {' or '.join(LANGUAGES)}, not {text!r}")
    return text


def _address(text: str) -> str:
    if not text or len(text) > 253 or any(ch.isspace() or ch in "/?#@;'\"\\" for ch in text):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not an address to listen on: give an IP address "
                                         "such as 127.0.0.1 or 0.0.0.0, or a machine name")
    return text


_URL_PREFIX = re.compile(r"/*(?:[A-Za-z0-9._~-]+/*)*")


def _url_prefix(text: str) -> str:
    if not _URL_PREFIX.fullmatch(text) or any(part in (".", "..") for part in text.split("/")):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a URL prefix: use letters, digits, '.', '_', '~' "
                                         "and '-' between slashes, e.g. /escoba/")
    return text


def _class_db(text: str) -> str:
    if not text.strip() or len(text) > 1000 or any(ord(ch) < 32 for ch in text):
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a database: give a file path, or a URL such as "
                                         "postgresql://user@host/escoba")
    return text


def _class_size(text: str) -> int:
    from .server.settings import MAX_CLASS_SIZE

    try:
        size = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of students: {text!r}") from None
    if not 0 <= size <= MAX_CLASS_SIZE:
        raise argparse.ArgumentTypeError(f"the class size must be from 0 to {MAX_CLASS_SIZE}, not {size}")
    return size


def _serve_options(parser: argparse.ArgumentParser, defaults_only: bool = False) -> None:
    """The serve options; on the bare command they are accepted too (``escoba-tutor --port 9000``)."""
    parser.add_argument("--port", type=_port, default=8866, help="the port (default 8866)")
    parser.add_argument("--ip", type=_address, default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1: this computer only; 0.0.0.0 opens it "
                             "to the classroom network)")
    parser.add_argument("--lang", type=_language, default="es", help="the landing page's language: es or en")
    parser.add_argument("--rules", type=_rules, default=PROFILES["escoba"], metavar="NAME",
                        help="house rules for every widget and game on this server, e.g. scopa or escoba+figuras")
    parser.add_argument("--no-browser", dest="browser", action="store_false", help="do not open a browser")
    parser.add_argument("--cull-idle", type=_minutes, default=10, metavar="MINUTES",
                        help="stop a student's kernel after this many idle minutes (default 10)")
    parser.add_argument("--lessons", metavar="DIR",
                        help="serve the lessons in this folder, e.g. a copy written by copy-lessons and edited "
                             "(default: the lessons installed with escoba-tutor)")
    parser.add_argument("--base-url", type=_url_prefix, default="/", metavar="PATH",
                        help="serve under this URL prefix (default /)")
    parser.add_argument("--max-kernels", type=_kernels, default=0, metavar="N",
                        help="students' pages open at once, at most (default: from this computer's memory, about "
                             "one per 130 MiB; see docs/classroom.md)")
    parser.add_argument("--class-size", type=_class_size, default=None, metavar="N",
                        help="students arriving together: that many kernels are made ready before they come, so "
                             "each arriving page costs half the CPU (default 2; 0: none; each waiting kernel holds "
                             "about 60 MiB; see docs/classroom.md)")
    parser.add_argument("--kernel-memory", type=_mebibytes, default=None, metavar="MIB",
                        help="memory one student's kernel may allocate, in MiB (default 512; 0: no limit)")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="another host name the students reach this server by (a proxy's, the school's name "
                             "for this computer); repeat for several")
    parser.add_argument("--class-db", type=_class_db, default=None, metavar="PATH|URL",
                        help="the class board's database: a SQLite file, or a postgresql:// URL (default: "
                             "class.sqlite3 in your user data folder; see docs/class-board.md)")
    parser.add_argument("--no-class-board", dest="class_board", action="store_false",
                        help="record nothing about the students and serve no class board")


def _serve(args: argparse.Namespace) -> int:
    from .server.app import serve  # Voilà is heavy: only the serve command loads it
    from .server.settings import Settings, previous_run

    base_url = "/" + args.base_url.strip("/") + "/" if args.base_url.strip("/") else "/"
    try:
        # the server's settings, once: the options, and what a previous run of this command left (starting afresh)
        settings = Settings(port=args.port, ip=args.ip, lang=args.lang, rules=args.rules, open_browser=args.browser,
                            cull_idle=args.cull_idle * 60, lessons=args.lessons, base_url=base_url,
                            start_afresh=True, max_kernels=args.max_kernels, kernel_memory=args.kernel_memory,
                            allow_hosts=tuple(args.allow_host), class_board=args.class_board,
                            class_db=args.class_db, class_size=args.class_size, **previous_run(os.environ))
        return serve(settings)
    except EscobaError as error:  # the address or the lessons folder: say which option to change
        option = {"bad_ip": "--ip", "port_in_use": "--port", "port_refused": "--port",
                  "no_lessons": "--lessons", "bad_class_db": "--class-db"}.get(error.code)
        if option is None:
            raise
        raise _UsageError("serve", f"argument {option}: {error}") from None


class _UsageError(Exception):
    """Arguments that parse but do not go together (e.g. three bots for two players)."""

    def __init__(self, command: str, message: str) -> None:
        super().__init__(f"{PROG} {command}: error: {message} (see {PROG} {command} --help)")


def _simulate(args: argparse.Namespace) -> int:
    try:
        if args.variant:
            args.rules = rules_by_name("+".join([args.rules.name, *args.variant]))
    except EscobaError as error:
        raise _UsageError("simulate", f"argument --variant: {error}") from None
    try:
        args.rules.check_players(args.players)
    except EscobaError as error:
        raise _UsageError("simulate", f"argument --rules: {error}") from None
    try:  # check the bot names against the player count before the run starts
        for name in set(seat_bots(args.players, args.bots)):
            if isinstance(name, str):  # always, from the command line (a bot factory comes only from Python)
                make_bot(name)
    except EscobaError as error:
        raise _UsageError("simulate", f"argument --bots: {error}") from None
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    try:
        result = simulate(args.players, args.games, seed, args.rules, args.bots, trace=args.trace,
                          progress=args.progress, jobs=args.jobs)
    except EscobaError as error:
        if error.code == "trace_unwritable":
            raise _UsageError("simulate", f"argument --trace: {error}") from None
        raise
    print(result.report(stats=args.stats))
    return EXIT_OK


def _check_trace(args: argparse.Namespace) -> int:
    try:
        with open(args.file, encoding="utf-8") as stream:
            lines = stream.readlines()
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "not a UTF-8 text file"
        print(f"{PROG} check-trace: error: cannot read {args.file!r}: {reason}", file=sys.stderr)
        return EXIT_USAGE
    problems = check_trace(lines)
    if not problems:
        deals = sum(1 for line in lines if line.strip())
        # (a count after a colon: no plural made by hand, "deal(s)")
        print(f"OK: {args.file}: no problem found; deals checked: {deals}")
        return EXIT_OK
    for problem in problems:
        print(problem)
    print(f"problems found in {args.file}: {len(problems)}", file=sys.stderr)
    return EXIT_PROBLEMS


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``) and return the exit code."""
    parser = build_parser()
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as done:  # --help, --version, or a usage error already printed: return its code
            return done.code if isinstance(done.code, int) else EXIT_OK
        if args.command == "simulate":
            return _simulate(args)
        if args.command == "check-trace":
            return _check_trace(args)
        if args.command == "worksheet":
            return _worksheet(args)
        if args.command == "build-site":
            return _build_site(args)
        if args.command == "copy-lessons":
            return _copy_lessons(args)
        if args.command == "hub-start-class":
            return _hub_start_class(args)
        if args.command in (None, "serve"):
            return _serve(args)
        parser.print_help()
        return EXIT_OK
    except _UsageError as error:
        print(error, file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except EscobaError as error:  # arguments are checked before the run: this is e.g. a bot breaking the rules
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_FAILED
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: stop quietly, and keep Python from complaining at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
