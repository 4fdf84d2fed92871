"""FilePicker: a button that sends a chosen file to the kernel, unless the file is too big to send.

The class server closes a page's connection on a websocket message over its cap (``message_bytes`` in
server/limits.py): the page would reconnect and the student never learn why. ipywidgets' FileUpload reads and
sends a chosen file from a file input it keeps out of the document, where no listener of the page can stop it,
so this widget does the same in a few lines of its own (static/file_picker.js) and checks the size first: a file
over ``max_bytes`` is never read nor sent, and the page shows ``too_large`` beside the button.

>>> picker = FilePicker(description="Load a game", max_bytes=10, too_large="That file is too big.")
>>> got = []
>>> picker.on_file(lambda name, data: got.append((name, data)))
>>> picker._handle_custom_msg({"event": "file", "name": "a.json"}, [memoryview(b"{}")])  # as the page sends it
>>> got
[('a.json', b'{}')]
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import anywidget
import traitlets as t
from ipywidgets import CallbackDispatcher

from ..engine.save import MAX_UPLOAD_BYTES

__all__ = ["FilePicker"]


class FilePicker(anywidget.AnyWidget):
    _esm = (Path(__file__).with_name("static") / "file_picker.js").read_text(encoding="utf-8")

    description = t.Unicode("").tag(sync=True)  # the button's words
    icon = t.Unicode("upload").tag(sync=True)  # a Font Awesome icon's name
    accept = t.Unicode("").tag(sync=True)  # the file chooser's filter, as <input accept>
    max_bytes = t.Int(MAX_UPLOAD_BYTES, min=1).tag(sync=True)  # the largest file sent (under the server's cap)
    too_large = t.Unicode("").tag(sync=True)  # what the page says of a larger file

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        # The button's focus ring is drawn outside it (widgets.css): the widget's box must not clip it. Through the
        # layout, which the page applies last: a style the script set itself would be reset whenever it is applied.
        if self.layout.overflow is None:
            self.layout.overflow = "visible"
        self._file_handlers = CallbackDispatcher()
        self.on_msg(self._received)

    def on_file(self, callback: Callable[[str, bytes], None], remove: bool = False) -> None:
        """Call ``callback(name, data)`` with each file the page sends: its name and its bytes."""
        self._file_handlers.register_callback(callback, remove=remove)

    def _received(self, _widget, content, buffers) -> None:
        if isinstance(content, dict) and content.get("event") == "file" and len(buffers) == 1:
            self._file_handlers(str(content.get("name", "")), bytes(buffers[0]))
