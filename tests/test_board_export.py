"""The class board's download as a teacher's spreadsheet reads it (escoba_tutor/server/board_export.py,
records/export.py): the file is read back here as a spreadsheet program does, from the bytes. csv.Sniffer finds
the separator; each cell is then taken as Excel set to Spanish (Spain) or to English takes a cell of a CSV file it
opens (:func:`as_excel_reads`): a number with that language's decimal sign, a date and time in that language's
form, else text. The Spanish file must give numbers and dates where they belong and never a code; the same for
English; the times are in the zone the board's link names (or the server's, named in the header); a nickname, a
class name or a code that a spreadsheet would run as a formula stays text.

Then the same through a real server: ``class/board.csv`` in each language, the zone from ``tz`` or the server's,
``format=codes``, a class name no HTTP header can carry as it is.
"""

from __future__ import annotations

import csv
import io
import re
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from escoba_tutor.exercises.registry import kind_names, mistake_codes
from escoba_tutor.records import ClassInfo, ClassStore, DealFinished, DrillAnswer, GameFinished, LessonOpened
from escoba_tutor.records.export import ExportRecord
from escoba_tutor.server.board_export import (
    attachment,
    lesson_titles,
    server_zone,
    teacher_zone,
    words_layout,
)

ROOT = Path(__file__).resolve().parents[1]
MADRID = ZoneInfo("Europe/Madrid")
SPANISH_HEADER = ["Clase", "Inicio de la clase (Europe/Madrid)", "Fecha y hora (Europe/Madrid)",
                  "Minutos desde el inicio de la clase", "Apodo", "Actividad", "Tipo de ejercicio", "Nivel",
                  "Lección", "Idioma", "Número de ejercicio o de partida", "Respuesta correcta", "Error",
                  "Puntos del estudiante", "Puntos del ordenador", "Escobas del estudiante", "Escobas del ordenador",
                  "Resultado", "Reglas", "Código de la mesa", "Compañero o compañera", "Otro bando"]
ENGLISH_HEADER = ["Class", "Class started (America/New_York)", "Date and time (America/New_York)",
                  "Minutes since the class started", "Nickname", "Activity", "Kind of exercise", "Level", "Lesson",
                  "Language", "Exercise or game number", "Right answer", "Mistake", "Student's points",
                  "Computer's points", "Student's escobas", "Computer's escobas", "Result", "Rules", "Table code",
                  "Partner", "Other side"]
# The records' codes that must never reach a teacher's file in words: the kinds, their mistakes, the levels, the
# activities, the results, the languages and the lessons' page names.
CODES = ({*kind_names(), *(code for name in kind_names() for code in mistake_codes(name)), "random", "greedy",
          "expert", "drill", "deal", "game", "lesson", "won", "lost", "True", "False", "es", "en",
          "01-cards", "02-captures", "index", "play"})


def as_excel_reads(cell: str, lang: str) -> object:
    """A CSV cell as Excel set to ``lang`` takes it when it opens the file: a whole or decimal number (Spanish:
    decimal comma, no thousands sign; English: decimal point), a date and time in the language's form
    (dd/mm/yyyy hh:mm:ss; yyyy-mm-dd hh:mm:ss), else text. (Excel would take 1.5 in a Spanish file for a date, and
    12,5 in an English one for text.)"""
    mark = "," if lang == "es" else "."
    if re.fullmatch(r"\d+", cell):
        return int(cell)
    if re.fullmatch(rf"\d+{re.escape(mark)}\d+", cell):
        return float(cell.replace(mark, "."))
    form = "%d/%m/%Y %H:%M:%S" if lang == "es" else "%Y-%m-%d %H:%M:%S"
    try:
        return datetime.strptime(cell, form)
    except ValueError:
        return cell


def read_as_spreadsheet(data: bytes, lang: str) -> tuple[list[str], list[dict[str, object]], str]:
    """The file's bytes as a spreadsheet opens them: the mark that says UTF-8, the separator as csv.Sniffer finds
    it, then each row's cells as Excel in ``lang`` takes them. Returns the header, the rows and the separator."""
    assert data.startswith(b"\xef\xbb\xbf") and not data.startswith(b"\xef\xbb\xbf" * 2)
    text = data.decode("utf-8-sig")
    assert "\r\n" in text and "\n" not in text.replace("\r\n", "")  # CRLF rows, as Excel writes them itself
    separator = csv.Sniffer().sniff(text, delimiters=";,").delimiter
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=separator))  # quotes doubled, as Excel's
    header, body = rows[0], rows[1:]
    assert all(len(row) == len(header) for row in body)
    return header, [{h: as_excel_reads(c, lang) for h, c in zip(header, row)} for row in body], separator


@pytest.fixture
def store(tmp_path):
    with ClassStore.open(tmp_path / "class.sqlite3") as opened:
        yield opened


def a_class(store: ClassStore, name: str = "3.º B") -> tuple[ClassInfo, datetime]:
    """A class with a lesson opened, a drill answered right and wrong, a deal and a game, 90 s to 12 min in."""
    info = store.start_new_class(name)
    start = info.started_at
    for event in [LessonOpened("Íñigo", "02-captures", "es", at=start + timedelta(seconds=90)),
                  DrillAnswer("Íñigo", "captures", 4, True, None, lesson="02-captures", rules="escoba",
                              at=start + timedelta(minutes=3)),
                  DrillAnswer("Zoë", "captures", 4, False, "wrong_sum", lesson="02-captures", rules="escoba",
                              at=start + timedelta(minutes=4, seconds=30)),
                  DrillAnswer("Zoë", "setenta", 7, False, "unanswered", lesson="05-scoring", rules="scopa",
                              at=start + timedelta(minutes=5)),
                  LessonOpened("Zoë", "index", "en", at=start + timedelta(minutes=6)),
                  DealFinished("Íñigo", "greedy", 31, 7, 4, 2, 1, at=start + timedelta(minutes=10)),
                  GameFinished("Íñigo", "greedy", 31, 21, 15, True, at=start + timedelta(minutes=12, seconds=15))]:
        assert store.record(event)
    return info, start


def export(store: ClassStore, info: ClassInfo, lang: str, zone: str) -> bytes:
    out = io.StringIO()
    store.export_csv(out, info.id, layout=words_layout(lang, teacher_zone(zone), lesson_titles(ROOT / "lessons",
                                                                                               lang)))
    return out.getvalue().encode("utf-8")


# ------------------------------------------------------------------------------------------- without a server
def test_the_spanish_file_opens_as_a_spanish_spreadsheet(store):
    info, start = a_class(store)
    header, rows, separator = read_as_spreadsheet(export(store, info, "es", "Europe/Madrid"), "es")
    assert separator == ";" and header == SPANISH_HEADER
    local = start.astimezone(MADRID)
    assert all(r["Inicio de la clase (Europe/Madrid)"] == local.replace(tzinfo=None, microsecond=0) for r in rows)
    assert [r["Fecha y hora (Europe/Madrid)"] for r in rows] == [
        (local + timedelta(seconds=s)).replace(tzinfo=None, microsecond=0)
        for s in (90, 180, 270, 300, 360, 600, 735)]
    assert [r["Minutos desde el inicio de la clase"] for r in rows] == [1.5, 3, 4.5, 5, 6, 10, 12.2]  # 12,2 (12¼)
    assert [(r["Apodo"], r["Actividad"], r["Lección"], r["Idioma"]) for r in rows][:2] == [
        ("Íñigo", "página abierta", "2. Bazas de 15", "español"),
        ("Íñigo", "ejercicio comprobado", "2. Bazas de 15", "")]
    right, wrong, unanswered, landing, deal, game = rows[1:]
    assert (right["Tipo de ejercicio"], right["Número de ejercicio o de partida"], right["Respuesta correcta"],
            right["Error"], right["Reglas"]) == ("Bazas", 4, "sí", "", "escoba")
    assert (wrong["Respuesta correcta"], wrong["Error"]) == (
        "no", "Llevarse cartas que no suman 15 con la carta jugada")
    assert (unanswered["Tipo de ejercicio"], unanswered["Lección"], unanswered["Error"], unanswered["Reglas"]) == (
        "Setenta", "5. Los puntos y la setenta", "Comprobar sin haber contestado todo", "scopa")
    assert (landing["Lección"], landing["Idioma"]) == ("inicio", "inglés")
    assert (deal["Actividad"], deal["Nivel"], deal["Puntos del estudiante"], deal["Puntos del ordenador"],
            deal["Escobas del estudiante"], deal["Escobas del ordenador"]) == (
        "mano contra el ordenador", "medio", 7, 4, 2, 1)
    assert (game["Actividad"], game["Nivel"], game["Resultado"], game["Lección"]) == (
        "partida contra el ordenador", "medio", "ganada", "")
    cells = {c for r in rows for c in r.values() if isinstance(c, str)}
    assert not cells & CODES, cells & CODES


def test_the_english_file_opens_as_an_english_spreadsheet(store):
    info, start = a_class(store, "Tuesday, 3B")
    data = export(store, info, "en", "America/New_York")
    header, rows, separator = read_as_spreadsheet(data, "en")
    assert separator == "," and header == ENGLISH_HEADER
    assert '"Tuesday, 3B"' in data.decode("utf-8")  # a comma in a cell is quoted, so the columns stay in place
    local = start.astimezone(ZoneInfo("America/New_York"))
    assert [r["Date and time (America/New_York)"] for r in rows][-1] == (
        local + timedelta(minutes=12, seconds=15)).replace(tzinfo=None, microsecond=0)
    assert [r["Minutes since the class started"] for r in rows] == [1.5, 3, 4.5, 5, 6, 10, 12.2]
    assert [(r["Activity"], r["Kind of exercise"], r["Level"], r["Lesson"], r["Right answer"], r["Result"])
            for r in rows] == [
        ("page opened", "", "", "2. Making 15", "", ""),
        ("exercise checked", "Captures", "", "2. Making 15", "yes", ""),
        ("exercise checked", "Captures", "", "2. Making 15", "no", ""),
        ("exercise checked", "Setenta", "", "5. Scoring and the setenta", "no", ""),
        ("page opened", "", "", "start page", "", ""),
        ("deal against the computer", "", "medium", "", "", ""),
        ("game against the computer", "", "medium", "", "", "won")]
    assert rows[2]["Mistake"] == "Taking cards that do not make 15 with the card played"
    assert rows[0]["Language"] == "Spanish" and rows[4]["Language"] == "English"
    cells = {c for r in rows for c in r.values() if isinstance(c, str)}
    assert not cells & (CODES - {"won", "lost"}), cells & CODES  # those two are English words too


def test_each_time_is_in_the_zone_s_own_offset_that_day():
    """Summer and winter time: each record's own offset, not the one the zone has when the file is made."""
    started = datetime(2026, 3, 28, 23, 30, tzinfo=timezone.utc)  # Madrid goes from +1 to +2 at 01:00 UTC
    info = ClassInfo(1, "weekend", started)
    layout = words_layout("es", teacher_zone("Europe/Madrid"))
    cells = [layout.cells(info, ExportRecord(started + timedelta(hours=h), "Ana", "lesson", None, None, "index", "es",
                                             None, None, None, None, None, None, None, None, None))
             for h in (0, 2)]
    assert [c[2] for c in cells] == ["29/03/2026 00:30:00", "29/03/2026 03:30:00"]
    assert [c[3] for c in cells] == ["0,0", "120,0"]


@pytest.mark.parametrize("given", ["", "Nowhere/Atlantis", "../../etc/passwd", "/usr/share/zoneinfo/UTC",
                                   "Europe/Madrid\x00", "Europe/" + "x" * 200, "localtime", "Factory "])
def test_a_zone_the_server_does_not_know_gives_the_server_s_named_in_the_header(given):
    zone = teacher_zone(given)
    assert zone.name == server_zone().name
    assert words_layout("en", zone).header[2] == f"Date and time ({server_zone().name})"


def test_a_record_a_moment_before_its_class_is_at_minute_zero():
    started = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
    cells = words_layout("es", teacher_zone("UTC")).cells(
        ClassInfo(1, "x", started), ExportRecord(started - timedelta(seconds=2), "Ana", "lesson", None, None, "index",
                                                 "es", None, None, None, None, None, None, None, None, None))
    assert cells[3] == "0,0"  # not "-0,0", which a spreadsheet would take for a formula's start


def test_formulas_stay_text_in_the_file_in_words(store):
    """A nickname cannot start with = (the form refuses it), but it can start with -; a class name can be
    anything; a newer kernel's unknown kind and mistake are written as they came."""
    info = store.start_new_class("=cmd|' /C calc'!A0")
    assert store.record(DrillAnswer("-Cmd", "@SUM(A1)", 4, False, "=HYPERLINK(\"http://x\")"))
    assert store.record(DrillAnswer("Ana", "captures", 4, False, "+1"))
    for lang in ("es", "en"):
        _header, rows, _sep = read_as_spreadsheet(export(store, info, lang, "UTC"), lang)
        first, second = (list(r.values()) for r in rows)
        assert first[0] == "'=cmd|' /C calc'!A0" and first[4] == "'-Cmd"
        assert first[6] == "'@SUM(A1)" and first[12] == "'=HYPERLINK(\"http://x\")" and second[12] == "'+1"
        for row in rows:
            assert not any(isinstance(c, str) and c.startswith(("=", "+", "-", "@", "\t", "\r")) for c in row.values())


def test_the_codes_file_is_unchanged(store):
    """The machine-readable file (``format=codes``) keeps its columns, codes, UTC times and commas."""
    info, start = a_class(store)
    out = io.StringIO()
    store.export_csv(out, info.id)
    rows = list(csv.DictReader(io.StringIO(out.getvalue().removeprefix("\ufeff"))))
    assert (rows[1]["event"], rows[1]["drill_kind"], rows[1]["correct"], rows[2]["mistake"], rows[5]["level"]) == (
        "drill", "captures", "yes", "wrong_sum", "greedy")
    assert rows[0]["at_utc"] == (start + timedelta(seconds=90)).isoformat(timespec="milliseconds")


def test_a_download_s_name_reaches_any_browser():
    header = attachment("escoba-clase-Саша 3.º B", ".csv")
    header.encode("latin-1")  # an HTTP header is Latin-1
    assert header == ("attachment; filename=\"escoba-clase------3---B.csv\"; "
                      "filename*=UTF-8''escoba-clase-%D0%A1%D0%B0%D1%88%D0%B0-3-%C2%BA-B.csv")
    assert urllib.parse.unquote(header.split("UTF-8''")[1]) == "escoba-clase-Саша-3-º-B.csv"


# ------------------------------------------------------------------------------------------- through a server
SERVER_ZONE = "America/Argentina/Buenos_Aires"  # the server's own (its TZ), without summer time


@pytest.fixture(scope="module")
def server(class_tutor_factory):
    return class_tutor_factory(env={"TZ": SERVER_ZONE})


def download(server, **query) -> tuple[int, dict, bytes]:
    address = f"{server.url}class/board.csv?{urllib.parse.urlencode({'key': server.key, **query})}"
    try:
        answer = urllib.request.urlopen(address, timeout=120)
    except urllib.error.HTTPError as error:
        answer = error
    return answer.status, dict(answer.headers), answer.read()


@pytest.fixture(scope="module")
def recorded(server):
    with ClassStore.open(server.database) as store:
        return a_class(store, "Martes 3.º B")


def test_the_board_s_download_is_in_spanish_and_the_teacher_s_zone(server, recorded):
    info, start = recorded
    status, headers, data = download(server, **{"class": info.id, "tz": "Europe/Madrid"})
    assert status == 200 and headers["Content-Type"] == "text/csv; charset=utf-8"
    assert headers["Content-Disposition"] == ('attachment; filename="escoba-clase-Martes-3---B.csv"; '
                                              "filename*=UTF-8''escoba-clase-Martes-3-%C2%BA-B.csv")
    header, rows, separator = read_as_spreadsheet(data, "es")
    assert separator == ";" and header == SPANISH_HEADER
    assert rows[0]["Fecha y hora (Europe/Madrid)"] == (start + timedelta(seconds=90)).astimezone(MADRID).replace(
        tzinfo=None, microsecond=0)
    assert rows[0]["Lección"] == "2. Bazas de 15"  # the title of the lesson the server serves
    assert rows[2]["Error"] == "Llevarse cartas que no suman 15 con la carta jugada"


def test_the_english_board_s_download_is_in_english(server, recorded):
    info, start = recorded
    status, _headers, data = download(server, **{"class": info.id, "tz": "Asia/Tokyo", "lang": "en"})
    header, rows, separator = read_as_spreadsheet(data, "en")
    assert status == 200 and separator == "," and header[2] == "Date and time (Asia/Tokyo)"
    assert rows[-1]["Date and time (Asia/Tokyo)"] == (start + timedelta(minutes=12, seconds=15)).astimezone(
        ZoneInfo("Asia/Tokyo")).replace(tzinfo=None, microsecond=0)
    assert (rows[-1]["Result"], rows[-1]["Level"], rows[0]["Lesson"]) == ("won", "medium", "2. Making 15")


@pytest.mark.parametrize("tz", [None, "Mars/Olympus", "../../../etc/passwd", "%00", "Europe/Madrid" * 20])
def test_a_missing_or_unknown_zone_gives_the_server_s_named_in_the_file(server, recorded, tz):
    info, start = recorded
    status, _headers, data = download(server, **{"class": info.id, **({"tz": tz} if tz is not None else {})})
    header, rows, _separator = read_as_spreadsheet(data, "es")
    assert status == 200 and header[2] == f"Fecha y hora ({SERVER_ZONE})"
    assert rows[0][header[2]] == (start + timedelta(seconds=90)).astimezone(ZoneInfo(SERVER_ZONE)).replace(
        tzinfo=None, microsecond=0)


def test_format_codes_is_the_machine_readable_file(server, recorded):
    info, _start = recorded
    status, headers, data = download(server, **{"class": info.id, "format": "codes", "tz": "Europe/Madrid"})
    assert status == 200 and 'filename="escoba-class-Martes-3---B.csv"' in headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert [r["event"] for r in rows] == ["lesson", "drill", "drill", "drill", "lesson", "deal", "game"]
    assert rows[0]["at_utc"].endswith("+00:00")


def test_a_class_named_in_another_alphabet_downloads(server):
    """A header is Latin-1: the class's name went into the file name as it was, and the download failed (500)."""
    with ClassStore.open(server.database) as store:
        info = store.start_new_class("Саша и Петя")
        assert store.record(LessonOpened("Ana", "01-cards", "es"))
    for query in ({}, {"format": "codes"}):
        status, headers, data = download(server, **{"class": info.id, **query})
        assert status == 200, data[:300]
        assert "%D0%A1%D0%B0%D1%88%D0%B0" in headers["Content-Disposition"]


def test_a_read_tried_again_writes_the_file_once(store):
    """The store reads again when the database is busy or the connection was lost (ClassStore._retry): the file
    must hold one try's rows, not the first try's half and then the whole of the second."""
    from sqlalchemy.exc import OperationalError

    from escoba_tutor.records.export import CODES, CsvLayout

    info, _start = a_class(store)
    calls = []

    def cells(class_info, record):
        calls.append(record)
        if len(calls) == 3:  # the third row of the first try: the database is gone for a moment
            raise OperationalError("SELECT", {}, Exception("database is locked"))
        return CODES.cells(class_info, record)

    out = io.StringIO()
    store.export_csv(out, info.id, layout=CsvLayout(CODES.header, cells))
    text = out.getvalue()
    assert len(calls) == 3 + 7 and text.count("\ufeff") == 1 and text.count("class,") == 1
    assert len(text.splitlines()) == 1 + 7


# ------------------------------------------------------------------------------------- games at a table of classmates
def test_a_finished_table_game_is_in_both_files_with_its_table_and_who_played_whom(store_url):
    """A real game of four at a table (Ana and Bea against Leo and the computer), played out in the class database
    (SQLite, then PostgreSQL), beside a game against the computer: the files tell them apart, name the table,
    each student's partner and the other side, and give each side's score; the earlier columns stay where they
    were."""
    from test_tables import play_out, token

    from escoba_tutor.records.export import COLUMNS

    with ClassStore.open(store_url) as store:
        info = store.start_new_class("4.º A")
        assert store.record(GameFinished("Ana", "greedy", 31, 21, 15, True))
        tokens = {seat: token() for seat in range(3)}
        code = store.open_table(tokens[0], "Ana", 4, "escoba+target=3", seed=9).table.code
        store.join_table(code, tokens[1], "Leo", seat=1)
        store.join_table(code, tokens[2], "Bea", seat=2)
        store.give_seat_to_computer(code, 3, "greedy", tokens[0])
        game = play_out(store, code, tokens)
        totals = {"Ana": game.totals[0], "Bea": game.totals[0], "Leo": game.totals[1]}
        codes_out = io.StringIO()
        store.export_csv(codes_out, info.id)
        words = {lang: export(store, info, lang, "UTC") for lang in ("es", "en")}
    # the machine-readable file: its columns as before, then the table's three
    rows = list(csv.DictReader(io.StringIO(codes_out.getvalue().removeprefix("\ufeff"))))
    assert list(rows[0]) == [*COLUMNS] and COLUMNS[-3:] == ("table", "partner", "other_side")
    against_computer, *at_table = rows
    assert (against_computer["level"], against_computer["table"], against_computer["partner"],
            against_computer["other_side"]) == ("greedy", "", "", "")
    assert {r["nickname"] for r in at_table} == {"Ana", "Leo", "Bea"} and {r["level"] for r in at_table} == {"table"}
    assert {r["table"] for r in at_table} == {code}
    seen = {(r["nickname"], r["partner"], r["other_side"]) for r in at_table}
    assert seen == {("Ana", "Bea", "Leo;computer:greedy"), ("Bea", "Ana", "Leo;computer:greedy"),
                    ("Leo", "computer:greedy", "Ana;Bea")}
    finished = {r["nickname"]: r for r in at_table if r["event"] == "game"}
    for name, row in finished.items():
        other = game.totals[1] if name != "Leo" else game.totals[0]
        assert (int(row["points_player"]), int(row["points_computer"])) == (totals[name], other)
        assert row["outcome"] == ("won" if (game.winner == 0) == (name != "Leo") else "lost")
    assert len([r for r in at_table if r["event"] == "deal"]) == 3 * len(game.deals)
    # the files in words: another activity, the table's code, the partner and the other side in words
    for lang, (activity, level, computer, table_word, partner, other, leo_other) in {
            "es": ("Actividad", "Nivel", "partida contra el ordenador", "Código de la mesa", "Compañero o compañera",
                   "Otro bando", "Ana y Bea"),
            "en": ("Activity", "Level", "game against the computer", "Table code", "Partner", "Other side",
                   "Ana and Bea")}.items():
        header, shown, _separator = read_as_spreadsheet(words[lang], lang)
        assert header[-3:] == [table_word, partner, other] and len(header) == len(COLUMNS) + 1  # (+ the minutes)
        first, *tables = shown
        assert (first[activity], first[table_word], first[partner], first[other]) == (computer, "", "", "")
        assert {r[activity] for r in tables} == ({"mano contra compañeros de clase",
                                                  "partida contra compañeros de clase"} if lang == "es" else
                                                 {"deal against classmates", "game against classmates"})
        assert {r[level] for r in tables} == {"contra compañeros de clase" if lang == "es" else "against classmates"}
        assert {r[table_word] for r in tables} == {code}
        by_name = {r["Apodo" if lang == "es" else "Nickname"]: r for r in tables}
        machine = "el ordenador (medio)" if lang == "es" else "the computer (medium)"
        joiner = " y " if lang == "es" else " and "
        assert (by_name["Ana"][partner], by_name["Ana"][other]) == ("Bea", f"Leo{joiner}{machine}")
        assert (by_name["Leo"][partner], by_name["Leo"][other]) == (machine, leo_other)
        cells = {c for r in shown for c in r.values() if isinstance(c, str)}
        assert not cells & (CODES - {"won", "lost"}) and "computer:greedy" not in cells and "table" not in cells


def test_a_table_game_names_who_sat_where_when_each_deal_finished_and_never_a_deleted_nickname(store_url):
    """Ana plays the computer at a table; after the first deal Leo takes the computer's seat. Her first deal's
    record names the computer, her later ones Leo, whatever the seats say when the file is made; once Leo's
    records are deleted, her records keep the seat as a deleted nickname's (SQLite, then PostgreSQL)."""
    from test_tables import game_of, play_out, token

    with ClassStore.open(store_url) as store:
        info = store.start_new_class("4.º B")
        tokens = {0: token(), 1: token()}
        code = store.open_table(tokens[0], "Ana", 2, "escoba+target=9", seed=12).table.code
        store.give_seat_to_computer(code, 1, "greedy", tokens[0])  # the computer plays at once: the table is full
        while not game_of(store, code).deals:  # Ana plays; the computer answers each play
            view = store.table_view(code, tokens[0])
            store.play_at_table(code, view.seat, tokens[0], view.game.legal_moves[0], view.version)
        store.take_seat_back(code, 1, tokens[1], "Leo")
        game = play_out(store, code, tokens)
        assert len(game.deals) >= 2
        codes_out = io.StringIO()
        store.export_csv(codes_out, info.id)
        store.remove_student(info.id, "leo")  # another spelling of the same nickname
        after_out = io.StringIO()
        store.export_csv(after_out, info.id)
        words = {lang: export(store, info, lang, "UTC") for lang in ("es", "en")}

    def ana(text: str) -> list[str]:
        rows = csv.DictReader(io.StringIO(text.removeprefix("\ufeff")))
        return [r["other_side"] for r in rows if r["nickname"] == "Ana"]

    deals = len(game.deals)
    assert ana(codes_out.getvalue()) == ["computer:greedy", *["Leo"] * (deals - 1), "Leo"]  # the deals, the game
    assert ana(after_out.getvalue()) == ["computer:greedy", *["deleted"] * deals]
    assert "Leo" not in after_out.getvalue()
    for lang, (nickname, other, machine, gone) in {
            "es": ("Apodo", "Otro bando", "el ordenador (medio)", "un apodo borrado"),
            "en": ("Nickname", "Other side", "the computer (medium)", "a deleted nickname")}.items():
        _header, shown, _separator = read_as_spreadsheet(words[lang], lang)
        assert [r[other] for r in shown if r[nickname] == "Ana"] == [machine, *[gone] * deals]
