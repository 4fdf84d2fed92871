"""A rules name means one set of rules or is refused: parts that set one option two ways, and an escoba de mano
with Scopa's capture, are refused with a RulesError that names both parts (in Python and on the command line)."""

from __future__ import annotations

import pytest

from escoba_tutor import RulesError, rules_by_name
from escoba_tutor.cli import main


@pytest.mark.parametrize("name, parts, option", [
    ("escoba+sevens+primera_by_suit_count", ("sevens", "primera_by_suit_count"), "primera"),
    ("escoba+target=5+target=31", ("target=5", "target=31"), "target"),
    ("escoba+must_capture=true+capture_optional", ("must_capture=true", "capture_optional"), "must_capture"),
    ("scopa+capture_optional+must_capture=yes", ("capture_optional", "must_capture=yes"), "must_capture"),
    ("escoba+escoba_de_mano_15_20+escoba_de_mano=15/30", ("escoba_de_mano_15_20", "escoba_de_mano=15/30"),
     "escoba_de_mano"),
    ("escoba + figuras + figuras=false", ("figuras", "figuras=false"), "figuras"),
])
def test_parts_that_set_one_option_two_ways_are_refused(name, parts, option):
    with pytest.raises(RulesError) as info:
        rules_by_name(name)
    message = str(info.value)
    assert all(repr(part) in message for part in parts) and repr(option) in message
    assert info.value.code == "rules_conflict" and info.value.params["parts"] == parts


@pytest.mark.parametrize("name, same", [
    ("escoba+figuras+figuras", "escoba+figuras"),                   # the same thing twice says it once
    ("escoba+target=31+target=31", "escoba+target=31"),
    ("escoba+capture_optional+must_capture=false", "escoba+capture_optional"),
    ("scopa+primera_by_suit_count", "scopa"),                       # what the profile already says
    ("escoba+capture=match+escoba_de_mano=none", "escoba+capture=match+escoba_de_mano=none"),
])
def test_parts_that_agree_are_taken(name, same):
    assert rules_by_name(name) == rules_by_name(same)
    assert rules_by_name(rules_by_name(name).name) == rules_by_name(name)


@pytest.mark.parametrize("name, part", [("scopa+escoba_de_mano_15_20", "escoba_de_mano_15_20"),
                                        ("scopa+escoba_de_mano_pairs", "escoba_de_mano_pairs"),
                                        ("scopa+escoba_de_mano=15/30", "escoba_de_mano=15/30")])
def test_scopa_refuses_every_escoba_de_mano_alike(name, part):
    with pytest.raises(RulesError) as info:
        rules_by_name(name)
    assert str(info.value) == (f"'scopa' and {part!r} cannot go together: the escoba de mano belongs to the Escoba "
                               "capture rule (the four table cards add up to 15), and Scopa's capture (the taken "
                               "cards add up to the played card) has none")


def test_the_same_refusal_for_rules_built_from_options():
    from escoba_tutor import SCOPA

    for changes in ({"escoba_de_mano": "15/20"}, {"escoba_de_mano_pairs": True}):
        with pytest.raises(RulesError, match="Scopa's capture"):
            SCOPA.replace(**changes)


@pytest.mark.parametrize("argv, parts", [
    (["--rules", "escoba+sevens", "--variant", "primera_by_suit_count"], ("sevens", "primera_by_suit_count")),
    (["--variant", "target=5", "--variant", "target=31"], ("target=5", "target=31")),
    (["--rules", "scopa", "--variant", "escoba_de_mano_15_20"], ("scopa", "escoba_de_mano_15_20")),
])
def test_simulate_variant_refuses_them_by_name(argv, parts, capsys):
    assert main(["simulate", "--games", "1", "--seed", "1", "--no-progress", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "argument --variant" in err and "Traceback" not in err
    assert all(repr(part) in err for part in parts)


def test_simulate_rules_refuses_them_by_name(capsys):
    assert main(["simulate", "--games", "1", "--rules", "escoba+target=5+target=31", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "argument --rules" in err and "'target=5' and 'target=31'" in err


# --------------------------------------------------------------------- a game table that seats other players
def shown_text(widget) -> str:
    """Every text the widget tree shows (HTML values and descriptions), for a test that reads the page."""
    parts = [str(getattr(widget, "value", "")) if type(widget).__name__ == "HTML" else ""]
    for child in getattr(widget, "children", ()):
        parts.append(shown_text(child))
    return " ".join(part for part in parts if part)


@pytest.mark.parametrize("players, rules, seated, lang, words", [
    (4, "escoba+three_player_ties", 3, "es",
     "La regla de empates entre tres necesita 3 jugadores: por eso esta partida es de 3 jugadores y no de 4."),
    (4, "escoba+three_player_ties", 3, "en",
     "The three-player ties rule needs 3 players, so this game has 3 players instead of 4."),
    (2, "escoba+chile", 3, "es",
     "La regla de Chile (escoba en mano) es para 3 o 4 jugadores: por eso esta partida es de 3 jugadores y no "
     "de 2."),
    (2, "escoba+chile", 3, "en",
     "The Chilean house rule (escoba en mano) needs 3 or 4 players, so this game has 3 players instead of 2."),
])
def test_the_game_table_says_when_the_rules_change_the_player_count(players, rules, seated, lang, words):
    from escoba_tutor.widgets import GameTable

    table = GameTable(players=players, rules=rules, seed=3, lang=lang, delay=0)
    assert table.session.players == seated
    assert table.session.players_note == {"asked": players, "players": seated, "option": rules.split("+")[1]}
    assert words in shown_text(table)
    table.lang = "en" if lang == "es" else "es"            # the note follows the language
    assert words not in shown_text(table) and ("3 players" in shown_text(table) or "3 jugadores" in shown_text(table))


def test_no_note_when_the_player_count_is_kept():
    from escoba_tutor.widgets import GameTable

    table = GameTable(players=3, rules="escoba+chile", seed=3, lang="en", delay=0)
    assert table.session.players == 3 and table.session.players_note is None
    assert "players, not" not in shown_text(table)
    noted = GameTable(players=2, rules="escoba+chile", seed=3, lang="en", delay=0)
    noted.session.load(table.session.resume_code())      # a loaded game has the players its save says
    assert noted.session.players_note is None and "players, not" not in shown_text(noted)
