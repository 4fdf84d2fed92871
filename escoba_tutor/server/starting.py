"""The starting page: what a student sees from the first byte of a lesson page until the lesson is on screen.

A page's start can wait: for its turn among the pages the server starts at once (handlers.StartTurns, while a
class arrives), then for its kernel and its lesson's run. Voilà sends nothing until the page's kernel has started,
and then its own spinner, in English. So the lesson page's handler (handlers.TutorRenderHandler) sends the start of
the page itself, before it waits for anything: the document's head and a panel that says, in the page's language,
what is happening. Three steps, each said in plain words:

- ``wait``: the page waits for its turn (only when it has to);
- ``prepare``: its kernel starts (the server sends a small script that moves the panel on);
- ``ready``: the lesson runs, cell after cell (Voilà's ``voila_process`` hook, which the page template points at
  the panel), until Voilà shows the lesson (``voila_finish``: the panel goes).

Voilà's page then follows the panel in the same document (index.html.j2 leaves out the document's start it would
write again, told so by :func:`start_sent_hook` through the notebook's metadata). Should the page fail once its
start has been sent (no error page can be sent then), the panel says so, with a link to load the page again
(:func:`failed_part`). framework.check_page_templates checks, when the server starts, that Voilà's templates still
have what this leans on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..text.translator import N_, Translator
from .pages import render

__all__ = ["STEPS", "START_SENT", "first_part", "step_part", "failed_part", "start_sent_hook"]

#: The steps a page's start goes through, in order, each with its heading and what it says.
STEPS: dict[str, tuple[str, str]] = {
    "wait": (N_("Waiting for your turn"),
             N_("The whole class is arriving at once, so the server opens the pages one after another. Yours will "
                "open in a moment. Do not reload the page: it would lose its turn.")),
    "prepare": (N_("Preparing your page"),
                N_("The server is getting this page ready for you. It takes a few seconds.")),
    "ready": (N_("Almost ready"),
              N_("The page is being put together and will appear in a moment.")),
}
FAILED = (N_("This page could not be opened"),
          N_("Something went wrong on the server while getting the page ready. Reload the page; if it still does "
             "not open, tell your teacher."))
STEPS_LABEL = N_("Steps")
RELOAD = N_("Reload the page")
NO_SCRIPT = N_("This page needs JavaScript. Turn it on in the browser's settings, then reload the page.")
TITLE = N_("Opening the page…")

#: The notebook metadata key by which the page template knows that the handler sent the page's start itself.
START_SENT = "escoba_start_sent"


def words(lang: str) -> dict[str, Any]:
    """Everything the starting panel says, in ``lang``."""
    _ = Translator(lang)
    return {"steps": {step: {"title": _(title), "text": _(text)} for step, (title, text) in STEPS.items()},
            "failed": {"title": _(FAILED[0]), "text": _(FAILED[1])}, "steps_label": _(STEPS_LABEL),
            "reload": _(RELOAD), "no_script": _(NO_SCRIPT), "page_title": _(TITLE)}


def first_part(lang: str, step: str, reload_url: str) -> str:
    """The page's start, as the handler sends it before anything else: the document's head and the panel at
    ``step`` (``wait`` or ``prepare``: a page that does not wait lists no turn to wait for), listing the steps from
    there on; ``reload_url`` is this page's address, for the link a failure shows."""
    order = list(STEPS)[list(STEPS).index(step):]
    return render("starting.html.j2", lang=lang, step=step, order=order, reload_url=reload_url, **words(lang))


def step_part(step: str) -> str:
    """What moves the panel on to ``step`` (``prepare``, ``ready`` or ``failed``), sent later in the same page."""
    if step not in STEPS and step != "failed":
        raise ValueError(f"no such step of a page's start: {step!r}")
    return render("starting_step.html.j2", step=step)


def failed_part() -> str:
    """The end of a page whose start failed after its first part was sent: the panel says so."""
    return step_part("failed")


def start_sent_hook(previous: Callable[..., Any] | None = None) -> Callable[..., Any]:
    """Voilà's ``prelaunch_hook``: marks the notebook of a page whose start the handler sent (its ``start_sent``),
    so that the page template leaves out what was sent; a mark the notebook came with is dropped."""

    def hook(handler, notebook, cwd):
        if previous is not None:
            notebook = previous(handler, notebook=notebook, cwd=cwd) or notebook
        notebook.metadata.pop(START_SENT, None)
        if getattr(handler, "start_sent", False):
            notebook.metadata[START_SENT] = True
        return notebook

    return hook
