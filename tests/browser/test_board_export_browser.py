"""The class board's download in real headless Chromium: the board's page fills its link with the browser's time
zone, and the file the browser downloads has its times in that zone, in the board's language, with the
separator a spreadsheet of that language expects. The browser here is in Tokyo (UTC+9, no summer time), the
server in UTC: a time an hour or more off would show the zone was lost on the way.
"""

from __future__ import annotations

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from test_board_export import read_as_spreadsheet

from escoba_tutor.records import ClassStore, DrillAnswer

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def tutor(board_tutor):
    return board_tutor


@pytest.mark.parametrize("lang, link_words, separator", [("es", "Descargar en CSV (hoja de cálculo)", ";"),
                                                         ("en", "Download as CSV (spreadsheet)", ",")])
def test_the_download_is_in_the_browser_s_zone_and_the_board_s_language(tutor, browser, tmp_path, lang,
                                                                        link_words, separator):
    with ClassStore.open(tutor.database) as store:
        info = store.start_new_class(f"Tokyo {lang}")
        answered = info.started_at + timedelta(minutes=2)
        assert store.record(DrillAnswer("Ana", "captures", 4, False, "wrong_sum", lesson="02-captures",
                                        at=answered))
    context = browser.new_context(timezone_id="Asia/Tokyo", accept_downloads=True)
    try:
        page = context.new_page()
        page.goto(f"{tutor.teacher_link}&lang={lang}&class={info.id}")
        link = page.get_by_role("link", name=link_words)
        expect(link).to_have_attribute("href", re.compile(r"[?&]tz=Asia%2FTokyo(&|$)"))
        with page.expect_download() as waiting:
            link.click()
        download = waiting.value
        saved = tmp_path / download.suggested_filename
        download.save_as(saved)
    finally:
        context.close()
    assert saved.name == ("escoba-clase-Tokyo-es.csv" if lang == "es" else "escoba-class-Tokyo-en.csv")
    header, rows, found = read_as_spreadsheet(saved.read_bytes(), lang)
    assert found == separator
    assert header[2] == ("Fecha y hora (Asia/Tokyo)" if lang == "es" else "Date and time (Asia/Tokyo)")
    (row,) = rows
    assert row[header[2]] == answered.astimezone(ZoneInfo("Asia/Tokyo")).replace(tzinfo=None, microsecond=0)
    assert row[header[12]] == ("Llevarse cartas que no suman 15 con la carta jugada" if lang == "es"
                               else "Taking cards that do not make 15 with the card played")
