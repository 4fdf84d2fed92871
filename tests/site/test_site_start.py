"""How a site page's Python starts (escoba_tutor/site/snapshot.py): from the snapshot the build made, with the
page's own settings and its own random seed, and without a snapshot the ordinary way, the same page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from escoba_tutor.site.snapshot import SNAPSHOT_FILE

CAPTURES = "voici/render/es/02-captures.html"
FIRST_CARD = ".escoba-capture-table [data-code]"
START = 600_000  # ms: a cold page on a crowded machine


def open_watched(visit, path: str):
    """The page, every console line it and its workers wrote, and its workers."""
    page = visit.context.new_page()
    page.set_default_timeout(START)
    lines: list[str] = []
    workers = []
    page.on("console", lambda message: lines.append(message.text))
    page.on("pageerror", lambda error: visit.page_errors.append(str(error)))
    page.on("worker", lambda worker: workers.append(worker))
    page.goto(visit.server.url(path))
    expect(page.locator(FIRST_CARD).first).to_be_visible(timeout=START)
    return page, lines, workers


def kernel_python(workers) -> dict:
    """Ask the kernel's worker how its Python started, and what that Python holds."""
    for worker in workers:
        found = worker.evaluate("""() => self.escobaPython && {
            from: self.escobaPython.from,
            query: self.escobaPython.pyodide.runPython("import os; os.environ.get('QUERY_STRING', '')"),
            random: self.escobaPython.pyodide.runPython("import random; random.random()"),
            widgets: self.escobaPython.pyodide.runPython(
                "import comm; ' '.join(sorted(comm.get_comm_manager().targets))"),
        }""")
        if found:
            return found
    raise AssertionError(f"no worker of the page ran the site's Python: {[w.url for w in workers]}")


def test_python_starts_from_the_snapshot_with_the_page_settings_and_its_own_seed(new_visit):
    seen = []
    for seed in (3, 4):
        visit = new_visit()
        try:
            page, lines, workers = open_watched(visit, f"{CAPTURES}?seed={seed}")
            python = kernel_python(workers)
            page.wait_for_timeout(1000)  # a late error from Python would be written by now
            assert visit.page_errors == []
            # Python's own complaints reach the console through its stderr (e.g. a file left open in the snapshot)
            assert not [line for line in lines if "Traceback" in line or "Exception ignored" in line], lines
        finally:
            visit.close()
        assert python["from"] == "snapshot"
        assert python["query"] == f"seed={seed}"  # the address's settings, not the build's (empty) ones
        assert python["widgets"] == "jupyter.widget jupyter.widget.control"  # as when imported under a kernel
        seen.append(python["random"])
    assert seen[0] != seen[1]  # each page seeds random afresh: not every student gets the build's sequence


def test_without_the_snapshot_python_starts_the_ordinary_way(visit):
    missing = []

    def not_found(route) -> None:
        missing.append(route.request.url)
        route.fulfill(status=404, body="")

    visit.context.route(f"**/{SNAPSHOT_FILE}", not_found)  # registered last: tried before the visit's own route
    page, lines, workers = open_watched(visit, f"{CAPTURES}?seed=5")
    python = kernel_python(workers)
    assert missing, "the page never asked for the snapshot"
    assert python["from"] == "ordinary"
    assert python["query"] == "seed=5"
    assert any("Python starts the ordinary way" in line for line in lines), lines
    assert visit.page_errors == []


@pytest.fixture(autouse=True)
def _snapshot_built(site_dir):
    if not (site_dir / "static" / "pyodide" / SNAPSHOT_FILE).is_file():
        pytest.fail(f"the built site has no {SNAPSHOT_FILE}: build-site makes one")
