"""The escoba-tutor command, run as a real process: output, exit codes, one-line errors, Ctrl-C."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest

from escoba_tutor.cli import main
from escoba_tutor.engine.trace import check_trace

COMMAND = [sys.executable, "-m", "escoba_tutor.cli"]


def run(*args, timeout=60):
    return subprocess.run([*COMMAND, *args], capture_output=True, text=True, timeout=timeout)


def test_simulate_prints_a_row_per_side():
    done = run("simulate", "--players", "2", "--games", "20", "--seed", "1", "--no-progress")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no progress bar asked for
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"escoba, 2 players, 20 games, seed 1: \d+ deals played", lines[0])
    assert lines[1].split()[:7] == ["side", "players", "bot", "games", "won", "points/deal", "escobas/deal"]
    assert "wins 95% interval" in lines[1] and "ms/move p50" in lines[1]
    rows = [line.split() for line in lines[2:]]
    assert [row[:3] for row in rows] == [["0", "0", "random"], ["1", "1", "random"]]
    assert sum(int(row[3]) for row in rows) == 20
    assert all(re.fullmatch(r"\(\d+\.\d%\)", row[4]) and float(row[5]) > 0 for row in rows)


def test_the_same_seed_prints_the_same_result(capsys):
    done = run("simulate", "--players", "4", "--games", "5", "--seed", "8", "--bots", "random,random",
               "--no-progress")
    assert done.returncode == 0
    assert "0+2" in done.stdout and "1+3" in done.stdout
    assert main(["simulate", "--players", "4", "--games", "5", "--seed", "8", "--bots", "random,random",
                 "--no-progress"]) == 0
    assert capsys.readouterr().out == done.stdout


def test_progress_bar_goes_to_stderr_and_the_table_to_stdout():
    done = run("simulate", "--games", "5", "--seed", "2", "--players", "3", "--rules", "scopa")
    assert done.returncode == 0
    assert "game" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout.startswith("scopa, 3 players, 5 games, seed 2:")


def test_a_random_seed_is_shown_so_the_run_can_be_repeated():
    done = run("simulate", "--games", "2", "--no-progress")
    seed = re.match(r"escoba, 2 players, 2 games, seed (\d+):", done.stdout).group(1)
    again = run("simulate", "--games", "2", "--no-progress", "--seed", seed)
    assert again.stdout == done.stdout


def test_trace_then_check_trace(tmp_path):
    path = tmp_path / "trace.jsonl"
    done = run("simulate", "--players", "3", "--games", "3", "--seed", "4", "--trace", str(path), "--no-progress")
    assert done.returncode == 0, done.stderr
    deals = int(re.search(r"(\d+) deals played", done.stdout).group(1))
    assert len(path.read_text(encoding="utf-8").splitlines()) == deals
    checked = run("check-trace", str(path))
    assert checked.returncode == 0
    assert checked.stdout.startswith("OK")
    assert checked.stderr == ""

    # Tamper with one point: exit 1, the problem on stdout, located.
    lines = path.read_text(encoding="utf-8").splitlines()
    deal = json.loads(lines[1])
    deal["points"][0] += 1
    lines[1] = json.dumps(deal)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    checked = run("check-trace", str(path))
    assert checked.returncode == 1
    assert checked.stdout.startswith("line 2, game 0, deal 1: the points should be")
    assert f"problems found in {path}: 1" in checked.stderr and "Traceback" not in checked.stderr


def test_no_subcommand_serves_the_course(monkeypatch):
    calls = []
    def serve(settings):  # the server's settings, as the command line made them
        calls.append({field.name: getattr(settings, field.name) for field in dataclasses.fields(settings)})
        return 0

    monkeypatch.setattr("escoba_tutor.server.app.serve", serve)
    assert main([]) == 0
    assert calls[-1]["port"] == 8866 and calls[-1]["ip"] == "127.0.0.1" and calls[-1]["lang"] == "es"
    assert calls[-1]["open_browser"] and calls[-1]["cull_idle"] == 600
    assert main(["serve", "--port", "9001", "--lang", "en", "--rules", "scopa", "--no-browser",
                 "--cull-idle", "5", "--base-url", "tutor"]) == 0
    last = calls[-1]
    assert (last["port"], last["lang"], last["rules"].profile, last["open_browser"], last["cull_idle"],
            last["base_url"]) == (9001, "en", "scopa", False, 300, "/tutor/")
    assert last["class_board"] and last["class_db"] is None  # the class board on, in the records' default place
    assert main(["--class-db", "postgresql://tutor@db.school/escoba", "--no-class-board"]) == 0
    assert calls[-1]["class_db"] == "postgresql://tutor@db.school/escoba" and not calls[-1]["class_board"]
    assert calls[-1]["class_size"] is None  # the server's default pool
    assert main(["serve", "--class-size", "30"]) == 0 and calls[-1]["class_size"] == 30


@pytest.mark.parametrize("args, expected", [(["--port", "0"], "port"), (["serve", "--lang", "fr"], "es or en"),
                                            (["serve", "--rules", "poker"], "no rules profile"),
                                            (["serve", "--cull-idle", "-3"], "idle time"),
                                            (["serve", "--class-size", "-1"], "class size must be from 0"),
                                            (["serve", "--class-size", "many"], "not a number of students")])
def test_bad_serve_arguments_print_one_line_and_exit_2(capsys, args, expected):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err


def test_help_and_version(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "simulate" in out and "check-trace" in out and "serve" in out
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("escoba-tutor ")
    assert main(["simulate", "--help"]) == 0
    assert "--no-progress" in capsys.readouterr().out


# The cases the brief names run as real processes (started at once: each is mostly interpreter start-up);
# the rest run in-process through main(), which takes the same path and returns the exit code.
BAD_ARGUMENTS = [
    (["simulate", "--players", "5"], "not 5"),
    (["simulate", "--games", "-1"], "at least 1"),
    (["simulate", "--rules", "poker"], "no rules profile is called 'poker'"),
    (["simulate", "--bots", "genius"], "no bot is called 'genius'"),
    (["simulate", "--bots", "random,random,random"], "2 players need 1 or 2 bots"),
    (["simulate", "--trace", "/nonexistent-dir/trace.jsonl"], "cannot write the trace"),
    (["check-trace", "/nonexistent-dir/trace.jsonl"], "cannot read"),
]
MORE_BAD_ARGUMENTS = [
    (["simulate", "--players", "two"], "whole number"),
    (["simulate", "--games", "0"], "at least 1"),
    (["simulate", "--seed", "-3"], "the seed must be from 0"),
    (["simulate", "--rules", "escoba+target=zero"], "whole number"),
    (["simulate", "--rules", "escoba+chile"], "3 or 4 players"),
    (["simulate", "--players", "3", "--bots", "random,random"], "3 players need 1 or 3 bots"),
    (["simulate", "--players", "4", "--bots", "random,random,random"], "4 players need 1 or 2 bots"),
    (["simulate", "--bogus"], "unrecognized arguments: --bogus"),
    (["check-trace"], "required: FILE"),
    (["deal-cards"], "invalid choice: 'deal-cards'"),
]


@pytest.fixture(scope="module")
def bad_runs():
    """Every bad-argument process, started at once: args -> (exit code, stdout, stderr)."""
    processes = {tuple(args): subprocess.Popen([*COMMAND, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                               text=True)
                 for args, _ in BAD_ARGUMENTS}
    results = {}
    for args, process in processes.items():
        out, err = process.communicate(timeout=60)
        results[args] = (process.returncode, out, err)
    return results


def assert_one_line_error(returncode, out, err, expected):
    assert returncode == 2
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert expected in err
    assert out == ""


@pytest.mark.parametrize("args, expected", BAD_ARGUMENTS)
def test_bad_arguments_print_one_line_and_exit_2(bad_runs, args, expected):
    assert_one_line_error(*bad_runs[tuple(args)], expected)


@pytest.mark.parametrize("args, expected", MORE_BAD_ARGUMENTS)
def test_more_bad_arguments_print_one_line_and_exit_2(capsys, args, expected):
    returncode = main(args)
    assert_one_line_error(returncode, *capsys.readouterr(), expected)


def test_check_trace_of_a_directory_or_a_binary_file(tmp_path):
    done = run("check-trace", str(tmp_path))
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    binary = tmp_path / "trace.bin"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    done = run("check-trace", str(binary))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_console_script_is_installed():
    script = shutil.which("escoba-tutor")
    if script is None:
        pytest.skip("the escoba-tutor console script is not on PATH")
    done = subprocess.run([script, "simulate", "--games", "2", "--seed", "3", "--no-progress"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stdout.startswith("escoba, 2 players, 2 games, seed 3:")


@pytest.mark.skipif(os.name != "posix", reason="sends SIGINT")
def test_ctrl_c_stops_cleanly_and_leaves_whole_games(tmp_path):
    path = tmp_path / "trace.jsonl"
    # Ctrl-C as a terminal delivers it: the command starts with SIGINT's default action, whatever the test run
    # inherited (a run started in the background of a shell ignores SIGINT, and its children would too).
    process = subprocess.Popen([*COMMAND, "simulate", "--games", "100000", "--seed", "1", "--trace", str(path)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    # Wait until the progress bar shows at least one finished game, so the run is really under way.
    seen = b""
    deadline = time.monotonic() + 30
    while not re.search(rb"\b[1-9]\d*/100000\b", seen) and time.monotonic() < deadline:
        seen += os.read(process.stderr.fileno(), 4096)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    err = (seen + err).decode()
    assert process.returncode == 130
    assert "interrupted" in err and "Traceback" not in err
    assert out == b""
    assert check_trace(path) == []  # whole games only, each one valid


def test_variants_on_the_command_line_reach_the_trace(tmp_path, capsys):
    trace = tmp_path / "chile.jsonl"
    code = main(["simulate", "--players", "3", "--games", "3", "--seed", "4", "--no-progress",
                 "--variant", "chile", "--variant", "target=11", "--trace", str(trace)])
    assert code == 0
    assert "escoba+target=11+chile" in capsys.readouterr().out
    first = json.loads(trace.read_text().splitlines()[0])
    assert first["rules"] == "escoba" and first["variants"] == {"target": 11, "chile": True}
    assert check_trace(trace) == []


@pytest.mark.parametrize("variant, expected", [("bogus", "neither a variant nor an option"),
                                               ("target=zero", "whole number"),
                                               ("chile", "3 or 4 players")])
def test_bad_variants_are_refused(capsys, variant, expected):
    assert main(["simulate", "--players", "2", "--games", "1", "--no-progress", "--variant", variant]) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err
