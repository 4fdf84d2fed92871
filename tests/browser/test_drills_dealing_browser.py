"""The drills of dealing and turn order and of house rules, in real headless Chromium under a real Voilà server:
answered by mouse and by keyboard alone, checked through the status line as a student reads it (each mistake
named), the exercise number taken from the page's ``?seed=``, and no serious accessibility problem.
"""

from __future__ import annotations

import re

import pytest
from test_drills_browser import choose_by_keyboard, drill, drill_lesson, press_check, status, type_in
from test_widgets_browser import assert_no_errors, serious_violations, tab_into, tab_until

from escoba_tutor.exercises import dealing_drill, house_rules_drill

# the rounds question, as its box is labelled
ROUNDS_EN = "How many more rounds will be dealt from the stock? (Count a round that is about to be dealt now.)"
ROUNDS_ES = ("¿Cuántas rondas quedan en el mazo ahora mismo? (Si ahora toca repartir, cuenta también esa ronda; "
             "las cartas que los jugadores ya tienen en la mano no cuentan.)")

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser

KINDS = ("dealing", "house_rules")


NOTEBOOKS = {"turns_es": drill_lesson("es", KINDS), "turns_en": drill_lesson("en", KINDS)}


@pytest.fixture(scope="module")
def open_drills(open_page):
    """``open_drills(url)``: a page of its own (so a kernel of its own), waited for until its last drill is drawn."""

    def opener(url: str):
        page = open_page(url)
        expect(drill(page, "house_rules").get_by_role("status")).to_be_attached(timeout=60_000)
        return page

    return opener


@pytest.fixture(scope="module")
def es_page(open_drills, app_url):
    return open_drills(app_url("turns_es"))


@pytest.fixture(scope="module")
def en_page(open_drills, app_url):
    return open_drills(app_url("turns_en") + "?seed=0")


# ============================================================================================== dealing
def test_dealing_answered_by_mouse(es_page):
    page, box = es_page, drill(es_page, "dealing")
    position = dealing_drill(0)  # 2 players, Jugador 1 deals, Jugador 2 has just played, 6 cards in the deck
    assert (position.players, position.dealer, position.last, position.deck_left) == (2, 0, 1, 6)
    expect(box).to_contain_text("En esta mano reparte el jugador 1.")
    expect(box).to_contain_text("El jugador 2 acaba de jugar una carta.")
    expect(box).to_contain_text("Quedan 6 cartas en el mazo.")
    box.get_by_label("¿A quién le toca jugar?").select_option(label="Jugador 2")
    box.get_by_label("¿Qué pasa ahora?").select_option(label="Se reparten otras tres cartas a cada uno")
    rounds = box.get_by_label(ROUNDS_ES)
    type_in(rounds, "2")
    press_check(box)
    said = status(page, "dealing")
    expect(said).to_contain_text("Aciertos: 0 de 3.")
    expect(said).to_contain_text("A quién le toca: no al jugador 2, que acaba de jugar. El turno pasa al de su "
                                 "derecha: el jugador 1.")
    expect(said).to_contain_text("Qué pasa ahora: no se reparte nada y se sigue jugando.")
    expect(said).to_contain_text("Rondas: 2, no. En cada ronda se dan tres cartas a cada uno de los 2 jugadores, "
                                 "6 cartas en total: 6 ÷ 6 = 1.")
    box.get_by_label("¿A quién le toca jugar?").select_option(label="Jugador 1")
    box.get_by_label("¿Qué pasa ahora?").select_option(label="No se reparte: ahora se juega")
    type_in(rounds, "1")
    press_check(box)
    expect(said).to_contain_text("Aciertos: 3 de 3.")
    box.get_by_role("button", name="Ver la solución").click()
    expect(box.locator(".escoba-worked")).to_contain_text("Se juega hacia la derecha: después del jugador 2 juega "
                                                          "el jugador 1.")
    assert_no_errors(page)


def test_dealing_answered_by_keyboard_alone(en_page):
    page, box = en_page, drill(en_page, "dealing")
    tab_into(page, box)
    choose_by_keyboard(page, box.get_by_label("Who plays next?"), "Player 1")
    choose_by_keyboard(page, box.get_by_label("What happens now?"), "Nothing is dealt: play goes on")
    tab_until(page, box.get_by_label(ROUNDS_EN), "Tab")
    page.keyboard.type("one")
    tab_until(page, box.get_by_role("button", name="Check"), "Tab")
    page.keyboard.press("Enter")
    said = status(page, "dealing")
    expect(said).to_contain_text("2 of 3 right.")
    expect(said).to_contain_text("Rounds: write a whole number, for example 2.")
    tab_until(page, box.get_by_label(ROUNDS_EN), "Shift+Tab")
    page.keyboard.press("Control+a")
    page.keyboard.type("1")
    tab_until(page, box.get_by_role("button", name="Check"), "Tab")
    page.keyboard.press("Enter")
    expect(said).to_contain_text("3 of 3 right.")
    expect(said).to_contain_text("Who plays next: right, Player 1.")
    assert_no_errors(page)


# ========================================================================================== house rules
def test_house_rules_answered_by_mouse(es_page):
    page, box = es_page, drill(es_page, "house_rules")
    position = house_rules_drill(0)  # sevens instead of the setenta, three players: 0 – 2 – 2, then 0 – 1 – 2
    assert (position.house_rule, position.players, position.standard.points, position.points) == (
        "sevens", 3, (0, 2, 2), (0, 1, 2))
    expect(box).to_contain_text("Regla de la casa: los sietes en lugar de la setenta")
    expect(box).to_contain_text("Tres jugadores, cada uno por su cuenta: el jugador 1 es el bando 1; el jugador 2, "
                                "el bando 2; y el jugador 3, el bando 3.")
    expect(box).to_contain_text("Total: Bando 1: 0; Bando 2: 2; Bando 3: 2.")
    for side, name in enumerate(("bando 1", "bando 2", "bando 3")):
        expect(box.get_by_role("group", name=f"Montón del {name}").locator("[data-code]")).to_have_count(
            len(position.piles[side]))
    boxes = [box.get_by_label(f"Puntos del bando {n} con la regla de la casa") for n in (1, 2, 3)]
    for field, typed in zip(boxes, ("0", "2", "2")):  # the setenta point kept beside the sevens
        type_in(field, typed)
    press_check(box)
    said = status(page, "house_rules")
    expect(said).to_contain_text("Aciertos: 2 de 3.")
    expect(said).to_contain_text("Bando 2: 2, no. El punto de la regla de la casa sustituye al de la setenta, así "
                                 "que la setenta ya no se cuenta. La puntuación con la regla de la casa es 1.")
    type_in(boxes[1], "1")
    press_check(box)
    expect(said).to_contain_text("Aciertos: 3 de 3.")
    assert_no_errors(page)


def test_house_rules_with_two_teams_by_mouse(es_page):
    page, box = es_page, drill(es_page, "house_rules")
    position = house_rules_drill(19)  # all ten coins, four players: Pareja 1 holds every coin
    assert (position.house_rule, position.players, position.all_oros_side, position.points) == (
        "all_oros_bonus", 4, 0, (5, 0))
    number = box.get_by_label("Ejercicio", exact=True)
    number.click()
    type_in(number, "19")
    expect(box).to_contain_text("Regla de la casa: todos los oros")
    expect(box).to_contain_text("Partida de cuatro, por parejas: la pareja 1 (jugadores 1 y 3) contra la pareja 2 "
                                "(jugadores 2 y 4); los compañeros se sientan uno enfrente del otro.")
    expect(box.get_by_role("group", name="Montón de la pareja 1").locator("[data-code]")).to_have_count(
        len(position.piles[0]))
    first, second = (box.get_by_label(f"Puntos de la pareja {n} con la regla de la casa") for n in (1, 2))
    type_in(first, "4")
    type_in(second, "0")
    press_check(box)
    said = status(page, "house_rules")
    expect(said).to_contain_text("Aciertos: 1 de 2.")
    expect(said).to_contain_text("Pareja 1: 4, no. En este montón están los diez oros, y con esta regla de la "
                                 "casa el punto de los oros vale entonces 2 en lugar de 1. La puntuación con la "
                                 "regla de la casa es 5.")
    type_in(first, "5")
    press_check(box)
    expect(said).to_contain_text("Aciertos: 2 de 2.")
    box.get_by_role("button", name="Ver la solución").click()
    expect(box.locator(".escoba-worked")).to_contain_text("Con la regla de la casa: Pareja 1: 5; Pareja 2: 0.")
    assert_no_errors(page)


def test_house_rules_answered_by_keyboard_alone(en_page):
    page, box = en_page, drill(en_page, "house_rules")
    position = house_rules_drill(0)
    tab_into(page, box)
    tab_until(page, box.get_by_label("Points for Side 1 with the house rule"), "Tab", limit=80)
    page.keyboard.type(str(position.points[0]))
    for side in (1, 2):
        page.keyboard.press("Tab")
        page.keyboard.type(str(position.points[side]))
    tab_until(page, box.get_by_role("button", name="Check"), "Tab")
    page.keyboard.press("Enter")
    expect(status(page, "house_rules")).to_contain_text("3 of 3 right.")
    tab_until(page, box.get_by_role("button", name="Show the answer"), "Tab")
    page.keyboard.press("Enter")
    expect(box.locator(".escoba-worked")).to_contain_text("With the house rule: Side 1: 0; Side 2: 1; Side 3: 2.")
    assert_no_errors(page)


# ==================================================================================== ?seed= and a11y
def test_the_end_of_a_deal_from_the_address_by_keyboard(open_drills, app_url):
    page = open_drills(app_url("turns_en") + "?seed=19")
    for kind in KINDS:
        expect(drill(page, kind).locator(".escoba-title")).to_contain_text("no. 19")
    position = dealing_drill(19)  # 4 players, Player 4 deals and plays the deal's last card; Player 1 captured last
    assert (position.players, position.dealer, position.moment, position.last_capturer) == (4, 3, "deal_over", 0)
    box = drill(page, "dealing")
    expect(box).to_contain_text("Four players in two teams: Team 1 (Players 1 and 3) against Team 2 (Players 2 "
                                "and 4); partners sit opposite each other.")
    expect(box.locator("ol li")).to_have_count(len(position.plays))
    tab_into(page, box)
    choose_by_keyboard(page, box.get_by_label("Who plays first in the next deal?"), "Player 2")
    choose_by_keyboard(page, box.get_by_label("What happens now?"), "The deal is over")
    # the deck is empty once the deal is over: no rounds to count, and no box for them
    expect(box.get_by_label(ROUNDS_EN)).to_have_count(0)
    choose_by_keyboard(page, box.get_by_label("Who takes the cards left on the table?"), "Team 2")
    tab_until(page, box.get_by_role("button", name="Check"), "Tab")
    page.keyboard.press("Enter")
    said = status(page, "dealing")
    expect(said).to_contain_text("2 of 3 right.")
    expect(said).to_contain_text("Cards left: not Team 2. Player 4 played the last card but laid it down, so the "
                                 "cards left go to the last side that captured. The last capture was made by Player "
                                 "1, so the cards left go to Player 1's team, Team 1.")
    taker = box.get_by_label("Who takes the cards left on the table?")
    tab_until(page, taker, "Shift+Tab")
    page.keyboard.press("ArrowUp")  # Team 1 is the option above Team 2
    expect(taker.locator("option:checked")).to_have_text("Team 1")
    tab_until(page, box.get_by_role("button", name="Check"), "Tab")
    page.keyboard.press("Enter")
    expect(said).to_contain_text("3 of 3 right.")
    # the house rule of exercise 19: all ten coins, in a game of four (two teams), answered by keyboard alone
    box = drill(page, "house_rules")
    expect(box).to_contain_text("Four players in two teams: Team 1 (Players 1 and 3) against Team 2 (Players 2 and "
                                "4); partners sit opposite each other.")
    tab_into(page, box)
    tab_until(page, box.get_by_label("Points for Team 1 with the house rule"), "Tab", limit=80)
    page.keyboard.type("4")
    page.keyboard.press("Tab")
    page.keyboard.type("0")
    tab_until(page, box.get_by_role("button", name="Check"), "Tab")
    page.keyboard.press("Enter")
    said = status(page, "house_rules")
    expect(said).to_contain_text("1 of 2 right.")
    expect(said).to_contain_text("Team 1: not 4. This pile holds all ten coins, and with this house rule the coins "
                                 "point is then worth 2 instead of 1. The score is 5.")
    tab_until(page, box.get_by_label("Points for Team 1 with the house rule"), "Shift+Tab")
    page.keyboard.press("Control+a")
    page.keyboard.type("5")
    tab_until(page, box.get_by_role("button", name="Check"), "Tab")
    page.keyboard.press("Enter")
    expect(said).to_contain_text("2 of 2 right.")
    assert_no_errors(page)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_no_serious_accessibility_violations(es_page, en_page, lang):
    page = es_page if lang == "es" else en_page
    for kind in KINDS:
        button = drill(page, kind).get_by_role("button", name=re.compile("^(Ver la solución|Show the answer)$"))
        if button.count():
            button.click()
    page.wait_for_timeout(500)
    bad = serious_violations(page)
    assert not bad, bad
