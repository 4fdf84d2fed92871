"""The starting page's parts (escoba_tutor/server/starting.py, templates/starting*.html.j2, index.html.j2): what the
handler sends first, and the lesson page that follows it in the same document. tests/browser/
test_starting_page_browser.py shows the whole in Chromium."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest

from escoba_tutor.server import starting
from escoba_tutor.server.handlers import PageTurns, StartTurns
from escoba_tutor.text.translator import Translator

ROOT = Path(__file__).resolve().parents[1]
LESSON = ROOT / "lessons" / "es" / "02-captures.ipynb"


class Tags(HTMLParser):
    """The start tags of a document, in order, with their attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def named(self, tag: str) -> list[dict]:
        return [attrs for name, attrs in self.tags if name == tag]


def tags(html: str) -> Tags:
    parser = Tags()
    parser.feed(html)
    return parser


def voila_page(start_sent: bool) -> str:
    """The course's page template rendered by Voilà's exporter for a lesson, with a stand-in kernel (the cells as
    they are), as a server renders it after the handler did (``start_sent``) or did not send the page's start."""
    from voila.exporter import VoilaExporter

    from escoba_tutor.server.framework import page_template_paths

    notebook = nbformat.read(LESSON, as_version=4)
    handler = SimpleNamespace(start_sent=start_sent)
    notebook = starting.start_sent_hook()(handler, notebook=notebook, cwd=str(LESSON.parent))
    exporter = VoilaExporter(template_paths=[str(ROOT / "escoba_tutor" / "server" / "templates"),
                                             *page_template_paths()], template_name="lab", base_url="/", theme="light")

    async def kernel_start(nb):
        return "kernel-1"

    async def cells(nb, kernel_id):
        for cell in nb.cells:
            yield cell

    async def render() -> str:
        context = {"frontend": "voila", "main_js": "voila.js", "kernel_start": kernel_start,
                   "cell_generator": cells, "progressive_rendering": False}
        resources = {"base_url": "/", "theme": "light", "template": "lab", "metadata": {"name": LESSON.stem},
                     "page_config": {}}
        return "".join([html async for html, _ in exporter.generate_from_notebook_node(
            notebook, resources=resources, extra_context=context, page_config={"fullStaticUrl": "/static"})])

    with ThreadPoolExecutor(1) as thread:  # a loop of its own, whatever runs in this thread
        return thread.submit(asyncio.run, render()).result()


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("step", ["wait", "prepare"])
def test_the_first_part_says_the_step_in_the_pages_language_and_opens_the_document(lang, step):
    _ = Translator(lang)
    html = starting.first_part(lang, step, "/voila/render/es/02-captures.ipynb?seed=<3>")
    found = tags(html)
    assert html.startswith("<!DOCTYPE html>") and found.named("html") == [{"lang": lang}]
    assert found.named("body") == [{}]  # no attribute of its own: Voilà's body tag brings them
    status = found.named("div")[2]
    assert status == {"role": "status", "aria-live": "polite", "aria-atomic": "true"}
    assert f'<h1 id="escoba-start-title">{_(starting.STEPS[step][0])}</h1>' in html
    assert f"<title>{_(starting.TITLE)}</title>" in html
    current = [attrs["data-step"] for attrs in found.named("li") if attrs.get("aria-current") == "step"]
    assert current == [step]
    listed = [attrs["data-step"] for attrs in found.named("li")]
    assert listed == (["wait", "prepare", "ready"] if step == "wait" else ["prepare", "ready"])  # no turn to wait for
    assert not [attrs for attrs in found.named("li") if attrs.get("class")]  # none done yet
    # the reload link's address is escaped, and nothing is loaded from anywhere
    assert found.named("a") == [{"href": "/voila/render/es/02-captures.ipynb?seed=<3>"}]
    assert "seed=&lt;3&gt;" in html and "seed=<3>" not in html
    assert not found.named("img") and all(not attrs.get("src") for _tag, attrs in found.tags)
    assert [attrs["href"] for attrs in found.named("link")] == ["data:,"]
    assert "prefers-reduced-motion:no-preference" in html  # the only animation, with no preference only


def test_a_later_step_is_a_script_and_an_unknown_step_is_refused():
    assert starting.step_part("ready") == '<script>window.escobaStart && window.escobaStart.show("ready");</script>'
    assert 'show("failed")' in starting.failed_part()
    with pytest.raises(ValueError, match="no such step"):
        starting.step_part("</script>")


def test_only_the_handler_marks_a_page_whose_start_it_sent():
    hook = starting.start_sent_hook()
    notebook = nbformat.v4.new_notebook(metadata={starting.START_SENT: True})  # a notebook that came marked
    assert starting.START_SENT not in hook(SimpleNamespace(), notebook=notebook, cwd=".").metadata
    assert hook(SimpleNamespace(start_sent=True), notebook=notebook, cwd=".").metadata[starting.START_SENT] is True
    calls = []
    chained = starting.start_sent_hook(lambda handler, notebook, cwd: calls.append(cwd) or notebook)
    chained(SimpleNamespace(start_sent=False), notebook=notebook, cwd="es")
    assert calls == ["es"] and starting.START_SENT not in notebook.metadata


def test_after_the_first_part_the_lesson_page_leaves_out_the_documents_start_and_voilas_spinner():
    page = voila_page(start_sent=True)
    assert not re.search(r"<!DOCTYPE|<html|<head>|</head>", page)
    assert 'id="loading"' not in page  # Voilà's spinner, which says "Running ..." in English
    found = tags(page)
    assert found.named("body") == [{"class": "jp-Notebook theme-light", "data-base-url": "/voila/",
                                    "data-jp-theme-light": "true", "data-jp-theme-name": "JupyterLab Light",
                                    "data-voila": "voila"}]
    assert 'document.documentElement.lang = "es";\ndocument.title = "2. Bazas de 15";' in page  # its heading
    follow, cells = page.index("window.escobaStart.follow()"), page.index('id="rendered_cells"')
    assert page.index("window.voila_finish = window.display_cells") < follow < cells
    assert page.count("voila_process(") > 3 and page.rstrip().endswith("</html>")
    whole = starting.first_part("es", "wait", "/") + page
    assert len(tags(whole).named("body")) == 2  # the browser adds the second's attributes to the first


def test_without_the_first_part_the_lesson_page_is_voilas_own():
    page = voila_page(start_sent=False)
    assert page.startswith("<!DOCTYPE html>") and '<html lang="es">' in page
    assert 'id="loading"' in page and "escobaStart" not in page


def test_the_turns_say_whether_a_page_would_wait():
    async def turns():
        pages, starts, said = PageTurns(), StartTurns(1), []
        said.append((pages.free("ana"), starts.free("10.0.0.5")))
        await pages.take("ana")
        await starts.take("10.0.0.5")
        # ana's next page, and another page of her address, would wait; another address's would not (yet)
        said.append((pages.free("ana"), pages.free("eva"), starts.free("10.0.0.5"), starts.free("10.0.0.6")))
        pages.give_back("ana")
        starts.give_back("10.0.0.5")
        said.append((pages.free("ana"), starts.free("10.0.0.5")))
        return said

    with ThreadPoolExecutor(1) as thread:
        assert thread.submit(asyncio.run, turns()).result() == [
            (True, True), (False, True, False, True), (True, True)]
