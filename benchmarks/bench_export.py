"""What the class board's download costs: a class's records written as the machine-readable file and as the file
in words (escoba_tutor/server/board_export.py), from a SQLite file.

    python benchmarks/bench_export.py [--students 30] [--records 200]

Fills a fresh database with STUDENTS × RECORDS records (drill answers, a wrong one in three, and a lesson opened
now and then), then times each export (best of 3, after one warm-up): the codes file, the file in Spanish and in
English (times in Europe/Madrid), and the first look-up of a time zone (the system's zone list, read once per
server). The load average is printed beside: on a shared machine the times count the waits for a core.
"""

from __future__ import annotations

import argparse
import io
import os
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from escoba_tutor.records import ClassStore, DrillAnswer, LessonOpened
from escoba_tutor.server.board_export import lesson_titles, teacher_zone, words_layout

ROOT = Path(__file__).resolve().parents[1]


def best(run, times: int = 3) -> float:
    run()
    spent = []
    for _ in range(times):
        began = time.perf_counter()
        run()
        spent.append(time.perf_counter() - began)
    return min(spent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--records", type=int, default=200, help="records per student")
    args = parser.parse_args()
    began = time.perf_counter()
    zone = teacher_zone("Europe/Madrid")
    first_zone = time.perf_counter() - began
    with tempfile.TemporaryDirectory() as folder, ClassStore.open(Path(folder) / "class.sqlite3") as store:
        start = store.current_class().started_at
        for student in range(args.students):
            for n in range(args.records):
                at = start + timedelta(seconds=student + 10 * n)
                event = (LessonOpened(f"Alumno {student}", "02-captures", "es", at=at) if n % 20 == 0 else
                         DrillAnswer(f"Alumno {student}", "captures", n, n % 3 != 0,
                                     None if n % 3 else "wrong_sum", lesson="02-captures", at=at))
                assert store.record(event)
        layouts = {"codes": None, **{lang: words_layout(lang, zone, lesson_titles(ROOT / "lessons", lang))
                                     for lang in ("es", "en")}}
        sizes = {}
        for name, layout in layouts.items():
            def export(layout=layout, name=name) -> None:
                out = io.StringIO()
                if layout is None:
                    store.export_csv(out)
                else:
                    store.export_csv(out, layout=layout)
                sizes[name] = len(out.getvalue().encode("utf-8"))

            seconds = best(export)
            print(f"{name:>5}: {args.students * args.records} records in {seconds * 1000:.0f} ms "
                  f"({sizes[name] / 1024:.0f} KiB)")
    print(f"first time zone look-up: {first_zone * 1000:.1f} ms")
    print("load average: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
