"""Load a game on the served app in Chromium: a real save file loads; a file too big to be a save is refused in the
page, in the page's language, and never sent, so the class server (which closes a page's connection on a message
over its cap) keeps the page connected and the game stays as it was.

The kernel's websocket is watched: every frame the page sends is weighed, and a closed socket fails the test.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from escoba_tutor import Game
from escoba_tutor.engine.save import MAX_UPLOAD_BYTES
from escoba_tutor.server.limits import Limits, upload_message_bytes
from escoba_tutor.widgets.session import GameSession

pytestmark = pytest.mark.browser

WORDS = {
    "es": {"load": "Cargar una partida", "code": "Código", "resume": "Continuar",
           "too_big": "Es demasiado largo para ser una partida guardada de escoba-tutor. "
                      "Una partida guardada ocupa como mucho 32 kB.",
           "cut": "El código para continuar está cortado: quizá falta un trozo.",
           "not_a_save": "Eso no es una partida guardada de escoba-tutor."},
    "en": {"load": "Load a game", "code": "Code", "resume": "Resume",
           "too_big": "That is too long to be a saved game of escoba-tutor. A saved game is a file of 32 kB at most.",
           "cut": "The resume code is cut short: a part may be missing.",
           "not_a_save": "That is not a saved game of escoba-tutor."},
}


def a_save_file() -> tuple[bytes, Game]:
    """A real save: a few plays into a game, the learner to play (so the computer does not move on after it loads)."""
    session = GameSession(players=2, seed=5)
    for _ in range(3):
        session.finish_computer_turns()
        session.play(session.game.legal_moves()[0])
    session.finish_computer_turns()
    assert session.phase == "play" and not session.computer_to_move
    return session.save_json().encode(), session.game


class KernelSocket:
    """The page's websocket to its kernel: the frames it sends (their sizes) and whether it closed."""

    def __init__(self, page) -> None:
        self.sockets, self.sent, self.closed = [], [], []
        page.on("websocket", self._opened)

    def _opened(self, socket) -> None:
        if "/channels" not in socket.url:
            return
        self.sockets.append(socket.url)
        socket.on("framesent", lambda payload: self.sent.append(len(payload)))
        socket.on("close", lambda _socket: self.closed.append(socket.url))


def choose_file(page, button, name: str, data: bytes) -> None:
    with page.expect_file_chooser() as chooser:
        button.click()
    chooser.value.set_files(files=[{"name": name, "mimeType": "application/json", "buffer": data}])


def resume_code(root) -> str:
    return root.locator("code.escoba-code").inner_text()


def wait_for_game(page, root, game: Game, seconds: float = 20) -> bool:
    """Whether the page's resume code comes to hold ``game`` within ``seconds``."""
    for _ in range(int(seconds * 10)):
        if Game.from_resume_code(resume_code(root)).state_key() == game.state_key():
            return True
        page.wait_for_timeout(100)
    return False


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_save_loads_and_a_file_too_big_is_refused_in_the_page(tutor, page, lang):
    words = WORDS[lang]
    socket = KernelSocket(page)
    page.goto(f"{tutor.url}voila/render/{lang}/play.ipynb")
    root = page.locator(".escoba-game-table")
    expect(root.locator(".et-table")).to_be_visible(timeout=60_000)
    load = root.get_by_role("button", name=words["load"])
    refused = root.locator(".et-file-refused")
    expect(refused).to_be_hidden()

    # a real save file: the game it holds
    data, game = a_save_file()
    sent_before = len(socket.sent)
    choose_file(page, load, "escoba-game.json", data)
    assert wait_for_game(page, root, game)
    # the message that carried it weighs about the file and no more than the server's limits allow for it
    carried = max(socket.sent[sent_before:])
    assert len(data) < carried <= upload_message_bytes(len(data))
    print(f"a save of {len(data)} bytes went as a frame of {carried} bytes")

    # a 200 kB file: said in the page, not sent, and the game and the connection are as they were
    position = resume_code(root)
    sent_before = len(socket.sent)
    choose_file(page, load, "photo.json", b"{" + b" " * 200_000 + b"}")
    expect(refused).to_be_visible()
    expect(refused).to_have_text(words["too_big"])
    expect(refused).to_have_attribute("role", "alert")
    page.wait_for_timeout(1000)  # time for a frame the page should not send
    assert max(socket.sent[sent_before:], default=0) < 4096
    assert resume_code(root) == position
    # the kernel still answers this page, on the same connection
    root.get_by_role("textbox", name=words["code"]).fill("hola")
    root.get_by_role("button", name=words["resume"]).click()
    expect(root.locator(".escoba-game-status")).to_contain_text(words["cut"])
    assert resume_code(root) == position
    assert socket.closed == [] and len(socket.sockets) == 1

    # a file just at the limit is sent (the kernel judges it: not a save) on a connection that stays open
    sent_before = len(socket.sent)
    choose_file(page, load, "escoba-game.json", b"{" + b" " * (MAX_UPLOAD_BYTES - 2) + b"}")
    expect(refused).to_be_hidden()
    expect(root.locator(".escoba-game-status")).to_contain_text(words["not_a_save"])  # the kernel has it
    carried = max(socket.sent[sent_before:])
    assert MAX_UPLOAD_BYTES < carried <= upload_message_bytes(MAX_UPLOAD_BYTES) < Limits.message_bytes
    print(f"a file of {MAX_UPLOAD_BYTES} bytes went as a frame of {carried} bytes")
    assert resume_code(root) == position
    assert socket.closed == [] and len(socket.sockets) == 1
