"""Load a game on the static site (no server; the kernel runs in the browser): a save file loads, and a file too
big to be a save is refused in the page, as on the served app (tests/browser/test_game_upload_browser.py)."""

from __future__ import annotations

from playwright.sync_api import expect
from test_site_browser import assert_clean, open_game

from escoba_tutor import Game
from escoba_tutor.widgets.session import GameSession


def test_a_save_loads_and_a_file_too_big_is_refused_in_the_page(visit):
    page, root = open_game(visit)
    load = root.get_by_role("button", name="Cargar una partida")
    code = root.locator("code.escoba-code")
    position = code.inner_text()

    with page.expect_file_chooser() as chooser:
        load.click()
    chooser.value.set_files(files=[{"name": "photo.json", "mimeType": "application/json",
                                    "buffer": b"{" + b" " * 200_000 + b"}"}])
    expect(root.locator(".et-file-refused")).to_have_text(
        "Es demasiado largo para ser una partida guardada de escoba-tutor. "
        "Una partida guardada ocupa como mucho 32 kB.")
    assert code.inner_text() == position

    session = GameSession(players=2, seed=5)  # a real save: one play of each side, the learner to play
    session.finish_computer_turns()
    session.play(session.game.legal_moves()[0])
    session.finish_computer_turns()
    with page.expect_file_chooser() as chooser:
        load.click()
    chooser.value.set_files(files=[{"name": "escoba-game.json", "mimeType": "application/json",
                                    "buffer": session.save_json().encode()}])
    expect(root.locator(".et-file-refused")).to_be_hidden()
    for _ in range(200):
        if Game.from_resume_code(code.inner_text()).state_key() == session.game.state_key():
            break
        page.wait_for_timeout(100)
    assert Game.from_resume_code(code.inner_text()).state_key() == session.game.state_key()
    assert_clean(page, visit)
