"""Every message that names a side, a team or a player, rendered in both languages with every label the course
can produce (and every count where the message has plural forms), and read back: no bare label pasted into a
Spanish sentence («repartió Bando 2»), no «de el» or «a el», no «Tú · Tiene», no hand-made plural «carta(s)»,
and the labels in the course's words (bando, pareja for the team, compañero for the partner).

The checks are :func:`label_problems`; a planted bare label shows they catch one."""

from __future__ import annotations

import re
import string
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from escoba_tutor.text import labels
from escoba_tutor.text.labels import FORMS, Label
from escoba_tutor.text.phrases import WordList
from escoba_tutor.text.translator import LANGUAGES, LOCALE_DIR, Translator

#: The placeholders that take a label, in the messages of these catalogs (the code passes them a
#: :class:`Label`). Other placeholders with these names hold something else: listed in :data:`NOT_LABELS`.
LABEL_NAMES = {"side", "who", "winner", "dealer", "first", "second", "last", "name"}
#: Messages whose placeholder of one of those names is not a label: cards, an address's parameter, a class.
NOT_LABELS = {
    "{first} and {last}",  # cards
    "{first}, or {last}",  # alternatives
    "What each card is worth, from {first} to {last}: {values}.",  # cards
    "The cards for “{name}” in the address were not used: {problem}",  # an address parameter
    "The setting “{name}” appears more than once in the address, so it was ignored.",
    "The setting “{name}” in the address is too long, so it was ignored.",
    "of {name}", "to {name}",  # the label's own forms
    # a name a lesson gives a pile ("Ana"), or "this pile": a sentence's start, never a side
    "{whose:The}'s setenta is not valid: it is missing {suits}.", "{whose:The}'s setenta: {terms} = {total}.",
}
COUNTS = (0, 1, 2, 3, 5, 21, 100)


def every_label(_: Translator) -> dict[str, tuple[Label, str]]:
    """Every label the course makes, with its group: the sides of games of 2 and 3 and a name a lesson gives
    them (drills, worksheet, explainers, score sheet), the teams of the drills' games of 4, the game table's
    players (the computers, the partner, the two teams, the players sharing a screen), and tied sides together
    (a point's winners)."""
    found = {f"side {n}": (labels.side(_, n), "side") for n in (1, 2, 3)}
    found |= {f"team {n}": (labels.team(_, n), "side") for n in (1, 2)}
    found["named"] = (labels.named(_, "Ana"), "side")
    found |= {f"player {n}": (labels.player(_, n), "game") for n in (1, 2, 3, 4)}
    found |= {"computer": (labels.computer(_), "game"), "computer 1": (labels.computer(_, 1), "game"),
              "computer 2": (labels.computer(_, 2), "game"), "partner": (labels.partner(_), "game"),
              "your team": (labels.your_team(_), "game"), "computer's team": (labels.computer_team(_), "game")}
    found["you"] = (labels.you(_), "you")
    found["sides 1 and 2"] = (labels.joined(_, [labels.side(_, 1), labels.side(_, 2)]), "joined")
    found["sides 1 and 3"] = (labels.joined(_, [labels.side(_, 1), labels.side(_, 3)]), "joined")
    return found


def groups_for(catalog: str, message: str) -> set[str]:
    """The labels the code puts into one catalog's messages: the game table names its players; the score sheet
    shows the game table's sides as well as a lesson's; the winners of a point after a tie may be two sides.

    The student's own label ("you", «tú») reaches the score sheet (the game table's sides, ``you`` set) and the
    setenta explainer (whose ``names`` may hold it): there every message is said with it too, except a message
    whose code says the student's own form instead (:func:`said_for_you_elsewhere`). The game table's sentences
    about the student are chosen in its code, by who plays, and are read as it says them
    (test_the_game_tables_sentences_name_every_player_well)."""
    groups = {"game"} if catalog == "game_table" else {"side", "game"} if catalog == "score_sheet" else {"side"}
    if catalog in ("score_sheet", "setenta_explainer") and message not in said_for_you_elsewhere():
        groups.add("you")
    return groups | ({"joined"} if "{winner" in message and "tie" in message else set())


def said_for_you_elsewhere() -> set[str]:
    """The messages about a side that the code never says of the student: it says their form for "you" instead
    (the score sheet's pairs of reasons, the setenta explainer's :data:`YOU_FORMS`)."""
    from escoba_tutor.widgets.score_sheet import REASON_WORDS
    from escoba_tutor.widgets.setenta_explainer import YOU_FORMS, YOU_PLURAL_FORMS

    return (set(YOU_FORMS) | {forms[0] for forms in YOU_PLURAL_FORMS}
            | {pair[0] for pair in REASON_WORDS.values() if isinstance(pair, tuple)})


# ------------------------------------------------------------------------------------------------- the checks
_LOWER = "a-záéíóúñü"
_ARTICLE_NOUNS = "bando|pareja|jugador|ordenador|compañero|equipo"
_THIRD_PERSON_AFTER_TU = "tiene|juega|gana|deja|está|ha|hace|reparte|se lleva|lleva|se apunta|apunta"
_THIRD_PERSON_AFTER_YOU = "gets|has|is|takes|plays|lays|wins|makes|deals|holds|was|scores"


def label_problems(text: str, lang: str, shown: list[Label] = ()) -> list[str]:
    """What is wrong with one rendered text: ``shown`` are the labels put into it."""
    problems = []
    if _NO_OF_FORM in text:
        problems.append("the student after “of” («de ti», “of you”: the student has no such form)")
    if re.search(r"\w\((s|es)\)", text):
        problems.append("a hand-made plural “(s)”")
    for label in shown:
        for part in re.split(f" {re.escape(_and(lang))} |, ", str(label)):
            # A heading form after a lowercase word (or a comma) is a bare label inside a sentence: «repartió
            # Bando 2». (Not a name, the same in a sentence: «Ana»; in English, "Side 2" is a name too, but not
            # "The computer".)
            if lang == "en" and not re.match(r"(The|Your) ", part) or part in label.the:
                continue
            if re.search(f"[{_LOWER},] {re.escape(part)}", text):
                problems.append(f"the bare label {part!r} inside a sentence")
    if lang == "es":
        if re.search(r"\b[dD]e el\b|\b[aA] el\b", text):
            problems.append("«de el» or «a el» (del, al)")
        if re.search(rf"\b[Tt]ú( · | )({_THIRD_PERSON_AFTER_TU})\b", text, re.IGNORECASE):
            problems.append("«tú» with a verb of the third person")
        # the student's label where a possessive or a pronoun is needed: «Montón de ti» (Tu montón), «Tú: su
        # setenta» (Tu setenta), «el punto es para el tercero, tú» (para ti)
        if re.search(r"\bde ti\b", text):
            problems.append("«de ti» (tu, tus)")
        if re.search(r"\b[Tt]ú: su\b|, tú\b", text):
            problems.append("«tú» where «tu» or «ti» is needed")
        if re.search(r"\b[Tt]ú\b.*\ble faltan?\b", text):
            problems.append("«tú» with «le falta» (te falta)")
        if re.search(rf"[{_LOWER},] (El|La|Tu) ({_ARTICLE_NOUNS})\b", text):
            problems.append("a capital article inside a sentence")
        # (a reason in a score sheet's cell is a fragment, in lowercase: «tienes el siete de oros»)
        if re.search(rf"([.!?] |[¡¿«])(el|la|tu) ({_ARTICLE_NOUNS})\b", text):
            problems.append("a sentence starting in lowercase")
    else:
        if re.search(rf"[{_LOWER},] (The|Your) (computer|partner|team)", text):
            problems.append("a capital article inside a sentence")
        if re.search(r"[.!?] (the|your) (computer|partner|team)", text):
            problems.append("a sentence starting in lowercase")
        # the student's label with a verb for someone else, or where a possessive is needed
        if re.search(rf"\b[Yy]ou ({_THIRD_PERSON_AFTER_YOU})\b", text):
            problems.append('"you" with a verb of the third person')
        if re.search(r"\b[Yy]ou's\b|\bof you\b|, you\b", text):
            problems.append('"you" where "your" is needed')
    return problems


def _and(lang: str) -> str:
    return {"es": "y", "en": "and"}[lang]


# ------------------------------------------------------------------------------------------------- the messages
def label_messages(lang: str) -> list[tuple[str, object, object]]:
    """(catalog, id, text) of every message with a label placeholder, in one language."""
    found = []
    for path in sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po")):
        if path.stem == "server":  # the server's pages name a class, never a side
            continue
        with path.open("rb") as handle:
            for message in read_po(handle, locale=lang):
                first = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
                if message.id and first not in NOT_LABELS and (
                        _placeholders(first) & LABEL_NAMES or _with_a_form(first) or _texts_with_a_form(message)):
                    found.append((path.stem, message.id, message.string))
    return found


def _texts_with_a_form(message) -> bool:
    texts = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
    return any(_with_a_form(text or "") for text in texts)


def _placeholders(text: str) -> set[str]:
    return {name for _text, name, _spec, _conv in string.Formatter().parse(text) if name}


def _with_a_form(text: str) -> set[str]:
    """The placeholders a text gives a label's form (``{player:to}``): a label there, whatever its name (the
    dealing drill's players, ``{right}`` and ``{before}``, are labels only in its own messages)."""
    return {name for _text, name, spec, _conv in string.Formatter().parse(text) if name and spec in FORMS[1:]}


def _label_names(message_id: object, text: object) -> set[str]:
    """The placeholders of a message that take a label: by name, or by a form its id or its text gives them."""
    ids = message_id if isinstance(message_id, (list, tuple)) else (message_id,)
    texts = text if isinstance(text, (list, tuple)) else (text,)
    return (_placeholders(ids[0]) & LABEL_NAMES).union(*(_with_a_form(t or "") for t in (*ids, *texts)))


def _renderings(_: Translator, catalog: str, message_id: object, text: object = ""):
    """The message said with every label in each of its label placeholders (the same label in all of them:
    the code never puts two different kinds into one message) and, with plural forms, every count."""
    singular = message_id[0] if isinstance(message_id, (list, tuple)) else message_id
    names = _placeholders(singular)
    label_names = _label_names(message_id, text)
    others = {name: "12" for name in names - label_names - {"n"}}
    if "card" in names:
        others["card"] = _.the_card("7o")
    if "taken" in names:
        others["taken"] = _.the_card("1c")
    groups = groups_for(catalog, singular)
    for key, (label, group) in every_label(_).items():
        if group not in groups:
            continue
        params = {**others, **{name: label for name in label_names}}
        if isinstance(message_id, (list, tuple)):
            for n in COUNTS:
                yield key, label, _said(_.plural, *message_id, n, **params)
        elif "n" in names:
            for n in COUNTS:
                yield key, label, _said(_, message_id, n=n, **params)
        else:
            yield key, label, _said(_, message_id, **params)


_NO_OF_FORM = "no 'of' form"


def _said(say, *args, **params) -> str:
    """The message said, or, where it puts the student after "of", the label's refusal in its place (a problem
    :func:`label_problems` names): the student has no «de ti», "of you"."""
    try:
        return say(*args, **params)
    except ValueError as error:
        if _NO_OF_FORM not in str(error):
            raise
        return f"[{error}]"


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_message_with_a_label_reads_well_with_every_label(lang):
    _ = Translator(lang)
    messages = label_messages(lang)
    assert len(messages) > 60, "the test found the messages that take a label"
    problems = []
    rendered = 0
    for catalog, message_id, said in messages:
        for key, label, text in _renderings(_, catalog, message_id, said):
            rendered += 1
            problems += [f"{catalog}: {message_id!r} with {key}: {text!r}: {p}"
                         for p in label_problems(text, lang, [label])]
    assert rendered > 1000
    assert not problems, "\n".join(problems[:40])


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_label_has_its_forms_in_the_course_words(lang):
    _ = Translator(lang)
    found = {key: label for key, (label, _group) in every_label(_).items()}
    for key, label in found.items():
        for form in FORMS:
            if label.is_you and form == "of":  # («de ti», "of you": the student has no such form)
                with pytest.raises(ValueError, match="no 'of' form"):
                    format(label, form)
                continue
            assert format(label, form), (key, form)
        assert format(label, "The")[:1].isupper(), key
    if lang == "es":
        assert [f"{found['side 2']:{form}}" for form in FORMS] == [
            "Bando 2", "el bando 2", "El bando 2", "del bando 2", "al bando 2"]
        assert [f"{found['team 1']:{form}}" for form in FORMS] == [
            "Pareja 1", "la pareja 1", "La pareja 1", "de la pareja 1", "a la pareja 1"]
        # pareja is the team, compañero the partner (the course's vocabulary)
        assert f"{found['partner']:the}" == "tu compañero o compañera" and f"{found['computer']:to}" == "al ordenador"
        assert f"{labels.your_team(_):of}" == "de vuestra pareja"
        assert f"{found['player 3']:to}" == "al jugador 3" and f"{found['named']:of}" == "de Ana"
        assert f"{found['sides 1 and 3']:of}" == "del bando 1 y del bando 3"
        assert f"{labels.you(_):the}" == "tú"
    else:
        assert [f"{found['side 2']:{form}}" for form in FORMS] == [
            "Side 2", "Side 2", "Side 2", "of Side 2", "to Side 2"]
        assert f"{found['partner']:the}" == "your partner" and f"{found['computer']:The}" == "The computer"
    with pytest.raises(ValueError, match="form"):
        f"{found['side 1']:del}"
    import copy
    import pickle

    for again in (copy.deepcopy(found["side 2"]), pickle.loads(pickle.dumps(found["side 2"]))):
        assert (again, f"{again:of}", repr(again)) == (found["side 2"], f"{found['side 2']:of}", repr(found["side 2"]))


def test_no_message_makes_a_plural_by_hand():
    """Counts agree through the catalogs' plural forms, never "carta(s)"."""
    for path in sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po")):
        with path.open("rb") as handle:
            for message in read_po(handle, locale=path.parent.parent.name):
                texts = message.string if isinstance(message.string, tuple) else (message.string,)
                for text in (*texts, *(message.id if isinstance(message.id, tuple) else (message.id,))):
                    assert not re.search(r"\w\((s|es)\)", text or ""), (path.name, message.id)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_count_agrees(lang):
    """Every message with plural forms, said for 0, 1, 2 and many: one form for 1, another for the rest (a
    message whose forms were the same would not agree with its count)."""
    _ = Translator(lang)
    plurals = 0
    for path in sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as handle:
            for message in read_po(handle, locale=lang):
                if not isinstance(message.id, (list, tuple)):
                    continue
                plurals += 1
                params = {name: WordList(f"<{name}>", f"<{name}>") if f"{{{name}:or}}" in message.id[1] else
                          Label(f"<{name}>", f"<{name}>", f"<{name}>", f"<{name}>")
                          for name in _placeholders(message.id[1]) - {"n"}}  # (a list: "and" or "or")
                said = {n: _.plural(*message.id, n, **params) for n in COUNTS}
                one = said[1]
                assert all(text != one.replace("1", str(n), 1) for n, text in said.items() if n != 1), (
                    path.name, message.id, said)
    assert plurals > 10


# ----------------------------------------------------------------------------- a planted bare label is caught
def test_the_checks_catch_a_planted_bare_label():
    es = Translator("es")
    side, team = labels.side(es, 2), labels.team(es, 1)
    planted = [
        (es("Para quién: la escoba de mano es siempre de quien reparte: repartió {side}.", side=side), side),
        (es("Para quién: así que es para {side}.", side=team), team),
        (es("Setenta de {side}:", side=labels.side(es, 1)), labels.side(es, 1)),
        (es("Escobas de {side:the}", side=side), side),  # «de el bando»
        (es("{who} juega", who=labels.partner(es)), labels.partner(es)),  # fine at the start: not caught…
    ]
    caught = [bool(label_problems(text, "es", [label])) for text, label in planted]
    assert caught == [True, True, True, True, False]
    assert label_problems("Tú · Tiene: 0", "es")
    assert label_problems("quedan 3 carta(s)", "es")
    assert label_problems("pass the screen to The computer", "en")
    # and the real messages, rendered, are not caught
    assert not label_problems(es("{side} plays {card}: it stays on the table.", side=side, card=es.the_card("7o")),
                              "es", [side])


def test_a_planted_bare_label_in_a_catalog_fails_the_render_check(tmp_path, monkeypatch):
    """The whole check, over a catalog holding one message whose Spanish pastes the label bare: it fails."""
    import escoba_tutor.text.translator as translator

    folder = tmp_path / "es" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    for po in (LOCALE_DIR / "es" / "LC_MESSAGES").glob("*.po"):
        text = po.read_text("utf-8")
        if po.stem == "drills":
            wrong = 'msgstr "Para quién: hay escoba de mano, y repartió {side}."'
            planted = (r'msgstr "Para quién: hay escoba de mano, y se la apunta el bando del que reparte: '
                       r'\{side:the\}\."')
            text = re.sub(planted, wrong, text)
            assert wrong in text
        (folder / po.name).write_text(text, "utf-8")
    from escoba_tutor.text.catalogs import compile_catalog

    for po in folder.glob("*.po"):
        po.with_suffix(".mo").write_bytes(compile_catalog(po, "es"))
    monkeypatch.setattr(translator, "LOCALE_DIR", tmp_path)
    translator._translations.cache_clear()
    try:
        with pytest.raises(AssertionError, match="repartió (Bando|Jugador|Pareja) "):
            _check_catalogs_at(tmp_path, "es")
    finally:
        translator._translations.cache_clear()


def _check_catalogs_at(root: Path, lang: str) -> None:
    global LOCALE_DIR
    saved, LOCALE_DIR = LOCALE_DIR, root
    try:
        test_every_message_with_a_label_reads_well_with_every_label(lang)
    finally:
        LOCALE_DIR = saved


# ------------------------------------------------------------------------ the texts the course really shows
def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.replace("&#x27;", "'").replace("&quot;", '"')))


_BLOCK = re.compile(r"</?(?:p|li|ul|ol|td|th|tr|table|caption|h\d|div|label|section|header|footer)\b[^>]*>")


def _blocks(html: str) -> list[str]:
    """A page's text, one block (paragraph, list item, cell) at a time: a table's cells are not one sentence."""
    return [text for text in (_text(part).strip() for part in _BLOCK.split(html)) if text]


SESSIONS = [(2, "computer"), (3, "computer"), (4, "computer"), (2, "pass_and_play"), (4, "pass_and_play")]


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize(("players", "mode"), SESSIONS)
def test_the_game_tables_sentences_name_every_player_well(lang, players, mode):
    from types import SimpleNamespace

    from escoba_tutor.widgets.game_table import describe_play, leftover_words, player_name, side_names, you_side
    from escoba_tutor.widgets.session import GameSession

    _ = Translator(lang)
    session = GameSession(players=players, mode=mode, seed=3)
    names = side_names(_, session)
    said = []
    for player in range(players):
        said += [describe_play(_, session, player, "7o", [], False),
                 describe_play(_, session, player, "7o", ["1c"], False),
                 describe_play(_, session, player, "5o", ["10c"], True)]
        said.append(_("Pass the screen {name:to}.", name=player_name(_, session, player)))
        if player not in session.humans:  # (said only while a computer is to move)
            said.append(_("{name:The} is thinking…", name=player_name(_, session, player)))
    for side in range(len(names)):
        for left in (["1c"], ["1c", "2e"]):
            said.append(leftover_words(_, session, SimpleNamespace(leftover=left, leftover_to=side)))
        if side != you_side(session):
            said.append(_("{name:The} wins the game, {score}!", name=names[side], score="21–15"))
    shown = [player_name(_, session, p) for p in range(players)] + names
    problems = [f"{text!r}: {p}" for text in said for p in label_problems(text, lang, shown)]
    assert not problems, "\n".join(problems)
    if lang == "es" and players == 4 and mode == "computer":
        assert "Tu compañero o compañera juega el siete de oros y se lleva el as de copas." in said
    if lang == "es" and mode == "pass_and_play" and players == 2:
        assert "Pásale la pantalla al jugador 2." in said


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize(("players", "mode"), SESSIONS)
def test_the_score_sheet_agrees_with_each_side(lang, players, mode):
    from escoba_tutor.widgets.game_table import side_names, you_side
    from escoba_tutor.widgets.score_sheet import ScoreSheet
    from escoba_tutor.widgets.session import GameSession

    _ = Translator(lang)
    session = GameSession(players=players, mode=mode, seed=3)
    names = side_names(_, session)
    piles = ["7o 7c 7e 6o 1o 2o", "6c 5e 4b 3c", "1b 2b 3b"][:len(names)]
    sheet = ScoreSheet(piles=piles, names=names, you=you_side(session), lang=lang)
    table = sheet.children[1].value  # the sheet's table (its first child is the heading)
    cells = [_text(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", table)]
    labels_in_cells = re.findall(r'data-label="([^"]*)"', table)
    assert len(cells) > 20 and labels_in_cells
    problems = [f"{x!r}: {p}" for x in [*cells, *labels_in_cells] for p in label_problems(x, lang, names)]
    assert not problems, "\n".join(problems)
    if you_side(session) == 0 and lang == "es":
        assert "Tú · Tienes" in labels_in_cells and "Tú · Tiene" not in labels_in_cells
        assert "Ordenador 1 · Tiene" in labels_in_cells or "El ordenador · Tiene" in labels_in_cells


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_worksheet_names_every_side_well(lang):
    from escoba_tutor.exercises.worksheet import worksheet_html

    _ = Translator(lang)
    shown = [label for label, group in every_label(_).values() if group == "side"]
    problems = []
    for seed in (1, 40, 200):
        blocks = _blocks(worksheet_html(seed, lang, count=4))
        assert len(blocks) > 100
        problems += [f"seed {seed}: {text!r}: {p}" for text in blocks for p in label_problems(text, lang, shown)]
    assert not problems, "\n".join(problems)


def test_a_message_said_of_the_student_without_its_own_form_fails_the_render_check(monkeypatch):
    """The setenta explainer's sentences about the point, said of the student without their form for "you": the
    whole check fails with the broken sentences ("You gets", «Tú se lleva», «Montón de ti»)."""
    import escoba_tutor.widgets.setenta_explainer as explainer

    monkeypatch.setattr(explainer, "YOU_FORMS", {})
    for lang, broken in (("en", "You gets the setenta point"), ("es", "Tú se lleva el punto de la setenta")):
        with pytest.raises(AssertionError, match=broken):
            test_every_message_with_a_label_reads_well_with_every_label(lang)
    assert label_problems("Montón de ti", "es") and label_problems("Tú: su setenta no vale (le faltan copas)", "es")
    assert label_problems("You's pile", "en") and label_problems("the point goes to the third, you.", "en")


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_setenta_explainer_speaks_to_the_student(lang):
    """The explainer with the student's own pile (``names`` holding their label), in every position it explains:
    each step, the point and the captions read well, in the student's own forms."""
    from escoba_tutor.widgets.setenta_explainer import SetentaExplainer

    _ = Translator(lang)
    you, computer = labels.you(_), labels.side(_, 2)  # (the explainer's other sides are a lesson's or "Side N")
    said = []
    positions = [  # (piles, rules, names)
        (["7o 6c 1e 5b", "7c 7e 6o"], "escoba", [you, computer]),              # the only valid setenta: yours
        (["7o 6c 1e 5b", "6o 5c 4e 1b"], "escoba", [you, computer]),           # the highest valid setenta: 70
        (["7c 7e 6o", "7o 6c 1e 5b"], "escoba", [you, computer]),              # yours invalid (no clubs)
        (["7o 6c 1e 12b", "7c 6o 1b 11e"], "escoba+low_primera", [you, computer]),  # clubs only in the king
        (["7o 7c 7e", "6o 6c 6e 6b"], "escoba+primera_by_suit_count", [you, computer]),  # you have 3 suits
        (["7o 7c 7e 6b", "6o 6c 6e"], "escoba+primera_by_suit_count", [you, computer]),
        (["7o 7c 7e 6b", "6o 6c 6e"], "scopa", [you, computer]),                # Scopa's word: the primera
        (["7o 7c 6e 6b", "7e 7b 6o 6c", "1o 2c 3e 4b"], "escoba+three_player_ties",
         [labels.side(_, 1), computer, you]),                                  # two tie on 78: the third, you
        (["7o 7c 7e 7b", "6o 6c 6e 6b"], "escoba+sevens", [you, computer]),
    ]
    for piles, rules, names in positions:
        widget = SetentaExplainer(piles=piles, names=names, rules=rules, lang=lang)
        widget.show_all()
        said += [row["label"] for table in _explainer_tables(widget) for row in table.rows]
        said += [table.caption for table in _explainer_tables(widget)]
        said.append(widget.model.steps and widget._point.value)
    problems = [f"{text!r}: {p}" for text in said for p in label_problems(_text(text), lang, [you, computer])]
    assert not problems, "\n".join(problems)
    joined = " ".join(_text(text) for text in said)
    if lang == "es":
        for sentence in ("Te llevas el punto de la setenta: 70 es la única setenta válida",
                         "Tu setenta no vale (te faltan bastos), así que no puede ganar el punto.",
                         "Tu setenta no vale (no tienes ninguna carta del 1 al 7 de bastos), así que no puede ganar el "
                         "punto.",
                         "el punto es para ti, que eres el tercero.", "Tu setenta", "Tú: 3 palos (te faltan bastos)",
                         "Te llevas el punto de la setenta: más palos", "Te llevas el punto de la primera: más palos"):
            assert sentence in joined, sentence
    else:
        for sentence in ("You get the setenta point: 70 is the only valid setenta",
                         "You get the setenta point: 70 is the highest valid setenta",
                         "Your setenta is invalid (you have no clubs), so it cannot win the point.",
                         "the point goes to you, the third.", "You get the setenta point: more suits",
                         "You get the primera point: more suits",
                         "Your setenta", "you have the most sevens"):
            assert sentence in joined, sentence


def _explainer_tables(widget):
    from escoba_tutor.widgets.primitives import RowPicker

    found, todo = [], [widget]
    while todo:
        part = todo.pop(0)
        if isinstance(part, RowPicker):
            found.append(part)
        todo += list(getattr(part, "children", ()))
    return found


def test_a_play_that_takes_cards_is_said_with_que_se_lleva():
    """«El tres de oros, llevándose la sota de oros…» is a calque of the English "-ing": a play is «el tres de
    oros, que se lleva la sota de oros y el cuatro de copas», for every card and every capture."""
    from escoba_tutor.engine.cards import DECK
    from escoba_tutor.engine.moves import Move
    from escoba_tutor.exercises.kinds.strategy import _move_text
    from escoba_tutor.widgets.hint_panel import move_words

    es = Translator("es")
    played = re.compile(r"^(el|la) (as|dos|tres|cuatro|cinco|seis|siete|sota|caballo|rey) de (oros|copas|espadas|"
                        r"bastos), que se lleva (el|la) .+ de (oros|copas|espadas|bastos)$")
    for i, card in enumerate(DECK):
        for taken in ((DECK[i - 1],), (DECK[i - 1], DECK[i - 2])):
            for said in (_move_text(es, Move(card, taken)), move_words(es, Move(card, taken))):
                assert played.match(said), said
    for path in sorted((LOCALE_DIR / "es" / "LC_MESSAGES").glob("*.po")):
        assert "llevándose" not in path.read_text(encoding="utf-8"), path.name


# The placeholders whose text starts with a lowercase word (a card with its article, «el siete de oros»; cards,
# captures, a play): at a sentence's start such a message is a sentence part, filled into another sentence or
# given its capital by the code (phrases.sentence_start), as its English id says; where the English id starts the
# sentence with ``{card:The}``, the Spanish text does too.
_LOWERCASE = {"card", "cards", "taken", "legal", "captures", "move"}
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+|[¿¡])\{(\w+)(:\w+)?\}")


def _starts(text: str) -> dict[str, str]:
    """Each lowercase placeholder that starts a sentence of ``text``, with its form ("" when bare)."""
    return {m.group(1): (m.group(2) or "")[1:] for m in _SENTENCE_START.finditer(text) if m.group(1) in _LOWERCASE}


def _sentence_start_problems(catalog: str) -> list[str]:
    found = []
    for path in sorted((LOCALE_DIR / "es" / "LC_MESSAGES").glob(f"{catalog}.po")):
        with path.open("rb") as handle:
            for message in read_po(handle, locale="es"):
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                texts = message.string if isinstance(message.string, tuple) else (message.string,)
                if not ids[0]:
                    continue
                english = _starts(ids[0])
                for text in filter(None, texts):
                    for name, form in _starts(text).items():
                        # bare at a sentence start only where the English id has it bare too (a sentence part)
                        if form != "The" and english.get(name, "") == "The":
                            found.append(f"{path.name}: {text!r}")
                        if form != "The" and name not in english and not text.startswith("{"):
                            found.append(f"{path.name}: {text!r}")
    return found


def test_a_sentence_that_starts_with_a_card_starts_with_its_capital():
    """A reader: «{card} puede hacer baza…» — if a sentence opens with a bare card, it reads «siete de oros puede»
    or «el siete de oros puede». Every Spanish message whose sentence starts with a card (or cards, a capture, a
    play) gives it the capital form ``{card:The}`` wherever the English id does; the bare form is left only to the
    sentence parts, which another sentence or the code capitalises."""
    problems = _sentence_start_problems("*")
    assert not problems, "\n".join(problems)
    # the check finds one: a Spanish text that drops the English id's capital
    es = Translator("es")
    assert _starts("Bien. {card} no hace baza.") == {"card": ""}
    assert _starts("{card:The} no hace baza.") == {"card": "The"}
    assert es("{card:The} no puede hacer ninguna baza: se queda en la mesa.",
              card=es.the_card("7o")) == "El siete de oros no puede hacer ninguna baza: se queda en la mesa."


def test_a_planted_bare_card_at_a_sentence_start_is_found(tmp_path, monkeypatch):
    """A copy of a catalog where «{card:The} puede hacer una baza» lost its capital: the check names it."""
    import escoba_tutor.text.translator as translator_module

    source = LOCALE_DIR / "es" / "LC_MESSAGES" / "engine_facts.po"
    planted = tmp_path / "es" / "LC_MESSAGES"
    planted.mkdir(parents=True)
    text = source.read_text(encoding="utf-8")
    assert 'msgstr[0] "{card:The} puede hacer una baza: {captures}."' in text
    (planted / "engine_facts.po").write_text(
        text.replace('msgstr[0] "{card:The} puede hacer una baza: {captures}."',
                     'msgstr[0] "{card} puede hacer una baza: {captures}."'), encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "LOCALE_DIR", tmp_path)
    assert tmp_path != translator_module.LOCALE_DIR  # (only this module's copy is moved)
    problems = _sentence_start_problems("engine_facts")
    assert len(problems) == 1 and "{card} puede hacer una baza" in problems[0]


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_house_rule_drill_s_feedback_reads_well_when_the_side_is_you(lang):
    """A page may name a side "you" in the house-rule drill (its labels have forms for the student): each
    feedback line on a side's points is said with that label, and never gives "You scores 4", "You's total",
    «de ti» or «Tú se apunta»: after the heading the side is never the subject."""
    from escoba_tutor.widgets.drills.house_rules import _POINTS_MISTAKES

    _ = Translator(lang)
    you = labels.you(_)
    problems = []
    for mistake, message in _POINTS_MISTAKES.items():
        text = _(message, side=you, given=5, right=4, n=3)
        assert text.startswith(f"{you}: ") and "{" not in text, text
        problems += [f"{mistake}: {text!r}: {p}" for p in label_problems(text, lang, [you])]
    assert not problems, "\n".join(problems)
    # the check finds what these lines said before
    assert label_problems("You: not 5. You scores 4.", "en") and label_problems("does not change You's total", "en")
    assert label_problems("Tú: 5, no. Tú se apunta 4.", "es") and label_problems("el total de ti", "es")


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_house_rule_key_s_kept_points_read_well_when_a_side_is_you(lang):
    """A point whose values a house rule changes without moving it («la setenta del bando 1 pasa de 67 a 70, pero
    el punto sigue siendo del bando 2»), said with the student as each side: never «la setenta de ti», "the setenta
    of you". Every house-rule exercise of the first 200 that has such a point."""
    from escoba_tutor.engine.rules import rules_by_name
    from escoba_tutor.exercises.kinds import points as points_kind
    from escoba_tutor.exercises.kinds.house_rules import kept_points
    from escoba_tutor.exercises.registry import make_drill

    _ = Translator(lang)
    said, problems = [], []
    for seed in range(200):
        drill = make_drill("house_rules", seed, rules_by_name("escoba"))
        if drill.standard is None or drill.house is None:
            continue
        for place in range(len(drill.house.lines[0].values)):
            names = [labels.side(_, n + 1) for n in range(len(drill.house.lines[0].values))]
            names[place] = labels.you(_)
            for text in kept_points(_, drill, names, points_kind.item_in_sentence):
                said.append(text)
                problems += [f"{seed}: {text!r}: {p}" for p in label_problems(text, lang, names)]
    assert said, "no exercise kept a point whose values changed"
    assert any(("tu setenta" if lang == "es" else "your setenta") in text for text in said)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_dealing_drill_never_names_the_student(lang):
    """The dealing drill's sentences put a player where a Spanish sentence needs the third person («no al jugador 2,
    que acaba de jugar», «a la derecha del jugador 3», «el jugador 1 reparte otras tres cartas»): said of the
    student they would read «no a ti, que acaba de jugar», «a la derecha de ti», «Tú reparte». They never are: the
    drill numbers its players itself, whatever names a page gives, so its pages are the same with and without
    them."""
    from escoba_tutor.widgets.drills import Drill

    _ = Translator(lang)
    for seed in range(0, 40, 3):
        plain = Drill("dealing", seed=seed, lang=lang)
        named = Drill("dealing", seed=seed, lang=lang, names=[labels.you(_), labels.computer(_)])
        for widget in (plain, named):
            widget.check()
            widget.toggle_answer()
        assert _drill_text(named) == _drill_text(plain), seed
        assert str(labels.you(_)) not in _drill_text(named).split(), seed


def _drill_text(widget) -> str:
    from escoba_test_helpers import shown_text

    return shown_text(widget)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_the_escobas_key_says_the_student_s_escobas_with_possessives(lang):
    """The escobas key's list of escobas («la escoba de mano del jugador 2, que repartió…», "Player 1 plays … and
    takes …, leaving the table empty"), said with the student as each player: «tu escoba de mano (repartiste tú…)»,
    "your two escobas de mano", «juegas…», never «la escoba de mano de ti, que repartió», "of you", "you plays".
    Exercises 0 to 39, which hold one and two escobas de mano and sweeps by either player."""
    from escoba_tutor.engine.rules import rules_by_name
    from escoba_tutor.exercises.kinds.escobas import sweeps
    from escoba_tutor.exercises.registry import make_drill

    _ = Translator(lang)
    said, problems = [], []
    for seed in range(40):
        drill = make_drill("escobas", seed, rules_by_name("escoba"))
        for place in (0, 1):
            names = [labels.player(_, 1), labels.player(_, 2)]
            names[place] = labels.you(_)
            for text in sweeps(_, drill, names):
                said.append(text)
                problems += [f"{seed}: {text!r}: {p}" for p in label_problems(text, lang, names)]
    joined = " | ".join(said)
    mine = {"es": ("tu escoba de mano (repartiste tú", "tus dos escobas de mano (repartiste tú", "juegas "),
            "en": ("your escoba de mano (you dealt", "your two escobas de mano (you dealt", "you play ")}[lang]
    assert all(form in joined for form in mine), mine
    assert not problems, "\n".join(problems)


def test_every_message_that_says_of_a_label_has_a_form_for_the_student():
    """A message that gives a label its "of" form («la setenta del bando 2», "the escoba de mano of Player 2")
    reads «de ti», "of you" when the label is the student. Each such message is rendered with the student's label
    by the test of every message (its catalog's labels include "you"), or has its own form for the student, or is
    listed here as said only of numbered sides and players, with where."""
    from escoba_tutor.exercises.kinds import escobas
    from escoba_tutor.widgets import engine_facts
    from escoba_tutor.widgets.drills.base import YOU_FORMS as DRILL_YOU_FORMS

    # said on paper (the worksheet and its key), which names "Side 1", "Player 2", "Team 1", never the student;
    # and the dealing drill, which numbers its players whatever names a page gives
    # (test_the_dealing_drill_never_names_the_student)
    numbered_only = {
        "Points for {side} with the house rule:",
        "{side}'s escobas:", "{side}'s points for the deal, escobas included:", "{side}'s setenta:",
        "Play goes to the right: after {last} comes {player}.",
        "The next deal is dealt by the player to the right of {dealer}: {new_dealer}; the player to the right of "
        "{new_dealer}, {player}, plays first.",
        "Who plays next: not {player}. Play goes to the right (anticlockwise), so after {before} comes {right}.",
    }
    # said with the student in their own tests (test_the_house_rule_key_s_kept_points_read_well_when_a_side_is_you)
    tested_with_you = {"{item} {side:of} goes from {old} to {new}",
                       "With the house rule, {changes}, but the point still goes {winner:to}."}
    own_form = (set(DRILL_YOU_FORMS) | set(escobas.YOU_FORMS) | set(engine_facts.YOU_FORMS)
                | said_for_you_elsewhere() | tested_with_you)
    unsaid = []
    for lang in sorted(LANGUAGES):
        for catalog, message_id, text in label_messages(lang):
            first = message_id[0] if isinstance(message_id, (list, tuple)) else message_id
            texts = text if isinstance(text, (list, tuple)) else (text,)
            if not any(spec == "of" for t in (first, *texts) for _t, _n, spec, _c in string.Formatter().parse(t or "")):
                continue
            if "you" in groups_for(catalog, first) or first in own_form or first in numbered_only:
                continue
            unsaid.append(f"{lang} {catalog}: {first!r}")
    assert not unsaid, "\n".join(sorted(set(unsaid)))
