"""Tables of students playing each other, at the protocol level: how soon a play reaches the other player's page,
and what the server's memory does meanwhile.

    python benchmarks/tables_play.py [--tables 15] [--seconds 60] [--think 2 4] [--db URL]

The server's real table handlers (escoba_tutor/server/tables.py) run in a Tornado server of a process of their
own (this script, started again with ``--serve``), over a fresh SQLite file (or the database ``--db`` names),
with the register's records tokens made as the kernel manager makes them. ``--tables`` tables of two are opened
and joined; each student is a thread of this process doing what a student's kernel does through its client
(escoba_tutor/records/table_client.py): on its turn it thinks for ``--think`` seconds (2 to 4) and plays a random
legal play; off its turn it keeps one long poll open (``class/tables/wait``).

Printed: the plays made; play -> seen (from a play's POST sent to the other player's long poll answered with the
version it made) and the play's own round trip, as p50 / p95 / max; any error; the server process's resident
memory before the tables, at the end and at its peak; and ``uptime``'s load averages (the machine may be
shared). Target: play -> seen p95 <= 500 ms. A full course server adds Voilà and the kernels to this
(benchmarks/load_class.py measures those).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _loopback import LoopbackServer, percentiles  # noqa: E402

from escoba_tutor.records.table_client import TableClient, TableRequestError  # noqa: E402


def serve(students: int, db: str | None) -> None:
    """The server's side: its port and the students' tokens on the first line of output, then serve until
    stdin closes."""
    from escoba_tutor.server.tables import table_handlers

    path = db or str(Path(tempfile.mkdtemp(prefix="escoba-tables-play-")) / "class.sqlite3")
    server = LoopbackServer(path, table_handlers("/"), xsrf_cookies=False)  # type: ignore[arg-type]
    tokens = [server.token(number) for number in range(students)]
    print(json.dumps({"port": server.port, "tokens": tokens}), flush=True)
    sys.stdin.read()


def memory(pid: int) -> tuple[int, int]:
    """The process's resident memory now and at its peak, in MiB (Linux's /proc)."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) // 1024, int(fields["VmHWM"].split()[0]) // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=15)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--think", type=float, nargs=2, default=(2.0, 4.0))
    parser.add_argument("--db", default=None, help="a class database's URL (default: a fresh SQLite file)")
    parser.add_argument("--serve", type=int, default=0, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.serve:
        serve(options.serve, options.db)
        return
    students = 2 * options.tables
    command = [sys.executable, __file__, "--serve", str(students)] + (["--db", options.db] if options.db else [])
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        started = json.loads(server.stdout.readline())
        url = f"http://127.0.0.1:{started['port']}/class/record"
        clients = [TableClient(url, token, "es") for token in started["tokens"]]
        before, _peak = memory(server.pid)
        seats = []
        for number in range(options.tables):
            code = clients[2 * number].open(2)["code"]
            clients[2 * number + 1].join(code)
            seats += [(clients[2 * number], code), (clients[2 * number + 1], code)]
        run(seats, options, before, server.pid)
    finally:
        server.kill()
        server.wait()


def run(seats, options, before: int, pid: int) -> None:
    sent: dict[tuple[str, int], float] = {}  # (table, version a play made) -> when its POST was sent
    seen: list[float] = []
    round_trips: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    stop = time.monotonic() + options.seconds

    def student(client: TableClient, code: str, seed: int) -> None:
        rng = random.Random(seed)
        view = client.view(code)
        while time.monotonic() < stop and view["state"] == "playing":
            try:
                if view["my_turn"]:
                    time.sleep(rng.uniform(*options.think))
                    began = time.monotonic()
                    with lock:
                        sent[code, view["version"] + 1] = began
                    view = client.play(view, rng.choice(view["legal"]))
                    with lock:
                        round_trips.append(time.monotonic() - began)
                else:
                    version = view["version"]
                    view = client.wait(code, version)
                    now = time.monotonic()
                    if view["version"] != version:
                        with lock:
                            at = sent.get((code, view["version"]))
                            if at is not None:
                                seen.append(now - at)
            except TableRequestError as error:
                with lock:
                    errors.append(error.code)
                view = client.view(code)

    threads = [threading.Thread(target=student, args=(client, code, number), daemon=True)
               for number, (client, code) in enumerate(seats)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(options.seconds + 60)
    now, peak = memory(pid)
    uptime = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"{options.tables} tables of two ({2 * options.tables} students), {options.seconds:g} s, a play every "
          f"{options.think[0]:g}-{options.think[1]:g} s on one's turn, {options.db or 'SQLite file'}")
    print(f"plays made:      {len(round_trips)}; errors: {len(errors)} {sorted(set(errors))}")
    if seen:
        print(f"play -> seen:    {percentiles(seen)}")
    if round_trips:
        print(f"play round trip: {percentiles(round_trips)}")
    print(f"server memory:   {before} MiB before the tables, {now} MiB at the end, peak {peak} MiB")
    print(f"uptime:          {uptime}  ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
