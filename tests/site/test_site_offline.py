"""The site keeps working offline after one visit (escoba_tutor/site/offline.py): one lesson opened once, then the
web server stopped, and the lesson reloads, opens in a new tab, and another lesson opens, each with a widget that
answers; a server that hangs instead is taken as offline; a new build's worker replaces the old copy; a browser
without room for the copy still gets the site. No request routing here: Playwright's routing would turn the
browser's caches off, and the host resolver already keeps every other origin away (conftest.py).
"""

from __future__ import annotations

import json
import re
import shutil
import time

import pytest
from playwright.sync_api import expect

from escoba_tutor.site.offline import CACHE_PREFIX, read_worker, write_worker

LESSON = "voici/render/es/02-captures.html"
START = 600_000  # ms: a cold page on a crowded machine
TAKES = re.compile(r"se lleva|takes")

#: What the page's browser has stored for the site: each cache of the site's worker with its files and bytes.
STORED = """async () => {
  const found = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    const files = {};
    for (const request of await cache.keys()) {
      files[request.url] = (await (await cache.match(request)).blob()).size;
    }
    found[name] = files;
  }
  return found;
}"""


@pytest.fixture
def browsing(site_browser):
    """A browser context with nothing stored, every page error collected."""
    context = site_browser.new_context(viewport={"width": 1280, "height": 900})
    context.errors = []
    # Anything that unregisters a service worker is counted (JupyterLite's page would, see offline.py)
    context.add_init_script("""(() => {
        const unregister = ServiceWorkerRegistration.prototype.unregister;
        ServiceWorkerRegistration.prototype.unregister = function () {
            localStorage.setItem("unregistered", Number(localStorage.getItem("unregistered") || 0) + 1);
            return unregister.call(this);
        };
    })()""")
    yield context
    context.close()


def open_page(context, url: str):
    page = context.new_page()
    page.set_default_timeout(START)
    page.on("pageerror", lambda error: context.errors.append(str(error)))
    page.goto(url)
    return page


def capture_answers(page) -> None:
    """The page's first capture table is drawn, and choosing a capture gets Python's answer."""
    table = page.locator(".escoba-capture-table").first
    row = table.locator("[role=grid] tbody tr[data-id]").first
    expect(row).to_be_visible(timeout=START)
    row.click()
    expect(row).to_have_attribute("aria-selected", "true")
    expect(table.get_by_role("status")).to_contain_text(TAKES)


def wait_until(page, condition: str) -> None:
    """Wait for an asynchronous condition in the page (wait_for_function takes a promise for true)."""
    for _ in range(START // 500):
        if page.evaluate(condition):
            return
        page.wait_for_timeout(500)
    raise AssertionError(f"never true: {condition}")


def stored_when_ready(page, build: str, files: int) -> dict[str, int]:
    """Wait until the site's worker controls the page with its cache filled; return that cache's files."""
    wait_until(page, f"""async () => navigator.serviceWorker.controller !== null
        && (await caches.has("{CACHE_PREFIX}{build}"))
        && (await (await caches.open("{CACHE_PREFIX}{build}")).keys()).length >= {files}""")
    stored = page.evaluate(STORED)
    assert list(stored) == [CACHE_PREFIX + build], list(stored)  # no other cache: JupyterLite's stores nothing
    return stored[CACHE_PREFIX + build]


def drive(page) -> list[str]:
    """The kernel's view of the site's files (JupyterLite's drive, carried by the service worker to the page)."""
    for worker in page.workers:
        found = worker.evaluate("""() => self.escobaPython && self.escobaPython.pyodide.runPython(
            "import os, json; json.dumps(sorted(os.listdir('/drive')) if os.path.isdir('/drive') else None)")""")
        if found:
            return json.loads(found)
    raise AssertionError(f"no worker of the page ran the site's Python: {[w.url for w in page.workers]}")


def test_one_visit_and_the_course_works_offline(site_host, browsing, site_dir):
    offline = read_worker(site_dir)
    page = open_page(browsing, site_host.url(LESSON))
    capture_answers(page)
    stored = stored_when_ready(page, offline["build"], len(offline["files"]))
    expected = {site_host.url(path): size for path, size, _ in offline["files"]}
    assert stored == expected  # every file any page needs, whole, after one visit to one page
    # Chromium's own count of the storage (it keeps more beside the files, such as the scripts' compiled code)
    counted = page.evaluate("async () => (await navigator.storage.estimate()).usage")
    print(f"\nthe offline copy: {len(stored)} files, {sum(stored.values())} bytes; Chromium counts {counted} bytes")

    site_host.stop()  # the network is gone
    page.reload()
    capture_answers(page)
    assert drive(page) == ["en", "es"]  # JupyterLite's file system still reaches the page through the worker
    part = page.evaluate("""async () => {
        const response = await fetch("../../../static/pyodide/pyodide-lock.json", {headers: {Range: "bytes=10-29"}});
        return [response.status, response.headers.get("Content-Range"), await response.text()];
    }""")
    lock = (site_dir / "static" / "pyodide" / "pyodide-lock.json").read_bytes()
    assert part == [206, f"bytes 10-29/{len(lock)}", lock[10:30].decode()]

    assert page.evaluate("localStorage.getItem('unregistered')") is None  # the site's worker stays registered
    again = open_page(browsing, site_host.url(LESSON + "?seed=4"))  # a new tab, with an address setting
    capture_answers(again)
    other = open_page(browsing, site_host.url("voici/render/es/03-escoba.html"))  # another lesson, never visited
    capture_answers(other)
    expect(other.locator(".escoba-drill .et-card").first).to_be_visible(timeout=START)  # its last cell ran too
    landing = open_page(browsing, site_host.url("?lang=en"))  # the site's root, to the English landing page
    expect(landing).to_have_url(re.compile(r"voici/render/en/index\.html\?lang=en$"), timeout=60_000)
    capture_answers(landing)
    assert browsing.errors == []


def test_a_network_that_hangs_is_taken_as_offline(site_host, browsing, site_dir):
    """A page the server has not begun to answer within a few seconds comes from the copy, and so do its files
    (no wait on each one), each file whole."""
    offline = read_worker(site_dir)
    page = open_page(browsing, site_host.url(LESSON))
    capture_answers(page)
    stored_when_ready(page, offline["build"], len(offline["files"]))
    site_host.hanging = True
    started = time.monotonic()
    page.reload()
    capture_answers(page)
    assert time.monotonic() - started < 120  # not one wait per file
    assert browsing.errors == []


def test_a_new_build_replaces_the_old_copy(site_host, browsing, site_dir, tmp_path):
    old = read_worker(site_dir)
    newer = tmp_path / "site"
    shutil.copytree(site_dir, newer)
    lesson = newer / LESSON
    lesson.write_text(lesson.read_text(encoding="utf-8").replace(
        "<head>", '<head><meta name="escoba-build" content="newer">', 1), encoding="utf-8")
    new = write_worker(newer)
    assert new["build"] != old["build"]
    marked = 'meta[name="escoba-build"]'

    page = open_page(browsing, site_host.url(LESSON))
    capture_answers(page)
    stored_when_ready(page, old["build"], len(old["files"]))
    expect(page.locator(marked)).to_have_count(0)

    site_host.folder = newer  # the new build is uploaded
    page.reload()
    expect(page.locator(marked)).to_have_count(1)  # online, the new build's page at once
    capture_answers(page)
    # the new worker stores the new build, then deletes the old copy
    only_new = CACHE_PREFIX + new["build"]
    wait_until(page, f"async () => (await caches.keys()).join() === '{only_new}'")
    stored = page.evaluate(STORED)
    assert stored == {CACHE_PREFIX + new["build"]: {site_host.url(path): size for path, size, _ in new["files"]}}

    site_host.stop()
    page.reload()
    expect(page.locator(marked)).to_have_count(1)  # offline, the new build's page too
    capture_answers(page)
    assert browsing.errors == []


def test_a_browser_without_room_for_the_copy_still_gets_the_site(site_host, browsing):
    """Too little storage for the offline copy (Chromium's quota made 20 MB): the worker goes on without one, and the
    page works online as it would without it, JupyterLite's file system included."""
    page = browsing.new_page()
    page.set_default_timeout(START)
    page.on("pageerror", lambda error: browsing.errors.append(str(error)))
    browsing.new_cdp_session(page).send("Storage.overrideQuotaForOrigin",
                                        {"origin": site_host.origin, "quotaSize": 20_000_000})
    page.goto(site_host.url(LESSON))
    capture_answers(page)
    wait_until(page, "async () => navigator.serviceWorker.controller !== null")
    assert page.evaluate("caches.keys()") == []  # what it began to store was let go
    assert drive(page) == ["en", "es"]
    assert browsing.errors == []
