"""Words for codes: every error code the engine and the widgets raise, and every reason code they report, has its
own sentence in both languages, from one table per place; no code reaches the screen through a fallback.

The codes are read from the source (every ``code="…"`` and ``code = "…"``, the card hints, the capture verdicts,
the score lines' reasons), so a code added tomorrow without words fails here, not in front of a class.
"""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import pytest

from escoba_tutor import score_deal
from escoba_tutor.engine.captures import check_capture
from escoba_tutor.engine.rules import OPTIONS, PROFILES, rules_by_name
from escoba_tutor.engine.scoring import DealFacts
from escoba_tutor.players.hints import REASON_CODES, Reason
from escoba_tutor.text.error_words import CARD_HINT_WORDS, ERROR_WORDS, MissingWordsWarning, error_words
from escoba_tutor.text.translator import LANGUAGES, Translator
from escoba_tutor.widgets.capture_table import VERDICT_WORDS, _verdict_text, verdict_code
from escoba_tutor.widgets.hint_panel import REASON_WORDS as HINT_WORDS
from escoba_tutor.widgets.hint_panel import reason_words
from escoba_tutor.widgets.score_sheet import REASON_WORDS as SCORE_WORDS
from escoba_tutor.widgets.score_sheet import reason_text

PACKAGE = Path(__file__).resolve().parent.parent / "escoba_tutor"
# The layers below the widgets: every code they raise can reach a student's screen.
ENGINE = sorted(path for layer in ("engine", "players", "exercises") for path in (PACKAGE / layer).rglob("*.py"))
# The widgets' own checks (the drills' widgets and the pages have their own catalogs and words).
WIDGETS = [PACKAGE / "widgets" / f"{name}.py" for name in ("capture_table", "score_sheet", "hint_panel",
                                                           "setenta_explainer", "game_table", "session")]
WIDGETS.append(PACKAGE / "text" / "translator.py")
# Codes of the command line and the server, said on a terminal in English, never on a student's screen; and the
# message catalogs' own tooling (a catalog not compiled, Babel missing), which a developer meets, never a page.
NOT_ON_SCREEN = {"no_lessons", "bad_ip", "port_in_use", "port_refused", "catalogs_not_compiled", "babel_missing"}


def tree(path: Path) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"))


def raised_codes(path: Path) -> set[str]:
    """Every ``code="…"`` keyword and every ``code = "…"`` class attribute of a module."""
    codes = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.keyword) and node.arg == "code" and isinstance(node.value, ast.Constant):
            codes.add(node.value.value)
        if (isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["code"]
                and isinstance(node.value, ast.Constant)):
            codes.add(node.value.value)
    return {c for c in codes if isinstance(c, str)}


def engine_codes() -> set[str]:
    codes = set().union(*(raised_codes(path) for path in ENGINE))
    codes |= set().union(*(raised_codes(path) for path in WIDGETS))
    return codes - NOT_ON_SCREEN


def card_hint_codes() -> set[str]:
    """The first item of every tuple ``cards._hint`` returns."""
    function = next(n for n in ast.walk(tree(PACKAGE / "engine" / "cards.py")) if isinstance(n, ast.FunctionDef)
                    and n.name == "_hint")
    return {n.value.elts[0].value for n in ast.walk(function) if isinstance(n, ast.Return)
            and isinstance(n.value, ast.Tuple) and isinstance(n.value.elts[0], ast.Constant)}


def verdict_reasons() -> set[str]:
    """The reasons ``check_capture`` gives: the string given to ``verdict(ok, reason)`` or ``CaptureCheck``."""
    reasons = set()
    for node in ast.walk(tree(PACKAGE / "engine" / "captures.py")):
        if (isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("verdict", "CaptureCheck")
                and len(node.args) > 1):
            reasons |= {c.value for c in ast.walk(node.args[1]) if isinstance(c, ast.Constant)
                        and isinstance(c.value, str)}
    return reasons


def score_reasons() -> set[str]:
    """The reasons a score line can give: the reason argument of ``ScoreLine`` and ``_line``, a ``reason = "…"``,
    and the reason half of what ``_top`` and ``_third_side`` return."""
    reasons = set()
    where = {"ScoreLine": 4, "_line": 3}
    for node in ast.walk(tree(PACKAGE / "engine" / "scoring.py")):
        found = None
        position = where.get(getattr(getattr(node, "func", None), "id", ""), 99)
        if isinstance(node, ast.Call) and len(node.args) > position:
            found = node.args[position]
        elif isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["reason"]:
            found = node.value
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and len(node.value.elts) == 2:
            found = node.value.elts[1]
        if found is not None:
            reasons |= {c.value for c in ast.walk(found) if isinstance(c, ast.Constant) and isinstance(c.value, str)}
    return reasons


def test_the_source_is_read_for_codes():
    # a scan that finds nothing would pass every test below: check it finds what is known to be there
    assert {"bad_card", "duplicate_card", "must_capture", "checksum", "rules_conflict", "bad_seed",
            "card_in_both", "too_many_piles"} <= engine_codes()
    assert {"spanish_no_8_9", "french_jack", "add_suit"} <= card_hint_codes()
    assert {"no_card", "must_capture", "figure_face_value", "equal_card_first", "wrong_sum", "ok"} <= verdict_reasons()
    assert {"count", "most", "tie", "tie_both_score", "third_side", "holds", "nobody_holds", "all_invalid", "chile",
            "renuncio", "more_suits", "others_below_10", "all_four", "all_oros", "not_scored_last_play"} \
        <= score_reasons()


def test_every_error_code_has_words():
    missing = engine_codes() - set(ERROR_WORDS)
    assert not missing, f"error codes with no words in ERROR_WORDS: {sorted(missing)}"


def test_every_card_hint_has_words():
    assert not card_hint_codes() - set(CARD_HINT_WORDS)


def test_every_capture_verdict_has_words():
    covered = {key for key in VERDICT_WORDS}
    assert not verdict_reasons() - covered - {"ok"}
    assert {"ok", "nothing", "wrong_sum_no_capture"} <= covered


def test_every_score_reason_has_words():
    keys = {key if isinstance(key, str) else key[0] for key in SCORE_WORDS}
    assert not score_reasons() - keys


def test_every_hint_reason_has_words():
    assert set(REASON_CODES) == set(HINT_WORDS)


def _all_messages(table: dict) -> list[str]:
    found = []
    for value in table.values():
        found += list(value) if isinstance(value, tuple) else [value]
    return found


@pytest.mark.parametrize("table", [ERROR_WORDS, CARD_HINT_WORDS, VERDICT_WORDS, SCORE_WORDS],
                         ids=["errors", "card hints", "verdicts", "score reasons"])
def test_the_words_are_spanish_in_spanish(table):
    es = Translator("es")
    for message in _all_messages(table):
        assert es(message) != message, f"{message!r} has no Spanish words"


def test_every_error_code_is_said_in_both_languages_without_a_fallback():
    for lang in LANGUAGES:
        _ = Translator(lang)
        said = {}
        for code in sorted(engine_codes()):
            with warnings.catch_warnings():
                warnings.simplefilter("error", MissingWordsWarning)
                text = error_words(_, {"code": code, "card": "10c", "token": "8o", "sum": "20", "goal": "15",
                                       "legal_captures": (frozenset(), )})
            assert text and "{" not in text and code not in text, (code, text)
            said[code] = text
        generic = _(ERROR_WORDS["error"])
        assert [code for code, text in said.items() if text == generic] == ["error"]


def test_a_code_with_no_words_warns():
    with pytest.warns(MissingWordsWarning, match="no_such_code"):
        text = error_words(Translator("es"), {"code": "no_such_code"})
    assert text == "algo de lo escrito no es válido"


@pytest.mark.parametrize("table, hand, built", [
    ("2c 3e 10b 12c", "5o", ("5o", "10b")), ("2c 3e 10b 12c", "5o", ("5o", "2c 3e")), ("2c 3e 12c", "5o", ("5o", "")),
    ("2c 3e 10b 12c", "5o", ("", "12c")), ("2c 3e 10b 12c", "5o", ("5o", "12c")), ("2c 3e", "4o", ("4o", "")),
    ("2c 3e 1b", "4o", ("4o", "2c 3e")), ("2c 3e 10b 12c", "5o", ("5o", "1o")), ("2c 3e", "5o", ("4o", "2c")),
])
def test_each_capture_verdict_is_said_without_a_fallback(table, hand, built):
    card, taken = built
    verdict = check_capture(card or None, taken, table, hand=hand)
    with warnings.catch_warnings():
        warnings.simplefilter("error", MissingWordsWarning)
        for lang in LANGUAGES:
            text = _verdict_text(Translator(lang), verdict)
            assert text[0].isupper() or text[0] in "¡¿", text
    assert verdict_code(verdict) in VERDICT_WORDS


def _variant_scores():
    """A deal scored under every profile and every option: the score lines the sheet must put in words."""
    piles = ["1o 2o 3o 4o 5o 6o 7o 10o 11o 12o 1c 2c 3c 4c", "5c 6c 7c 10c 11c 12c 7e 7b", "1e 2e 3e 4e 5e 6e"]
    names = list(PROFILES) + [f"escoba+{o.name}" for o in OPTIONS]
    for name in names:
        for sides in (2, 3):
            try:
                rules = rules_by_name(name)
                facts = DealFacts(escobas_de_mano=(1,) + (0,) * (sides - 1), hand_escobas=(0, 1) + (0,) * (sides - 2),
                                  renuncios=(0,) * (sides - 1) + (1,), last_play_sweeps=(1,) + (0,) * (sides - 1))
                yield score_deal(piles[:sides], [1] + [0] * (sides - 1), rules, facts=facts)
            except Exception:  # noqa: BLE001 - an option that needs other players or values: not this deal
                continue


def test_every_score_line_of_every_variant_is_said_without_a_fallback():
    seen = set()
    with warnings.catch_warnings():
        warnings.simplefilter("error", MissingWordsWarning)
        for deal in _variant_scores():
            names = [f"Side {i + 1}" for i in range(len(deal.points))]
            for line in deal.lines:
                seen.add(line.reason)
                for lang in LANGUAGES:
                    for you in (None, 0, 1):
                        text = reason_text(Translator(lang), line, names, you)
                        assert text and "{" not in text, (line, text)
    assert {"count", "most", "holds", "chile", "renuncio"} <= seen


def test_every_hint_reason_is_said_without_a_fallback():
    from escoba_tutor.engine.cards import parse_cards

    with warnings.catch_warnings():
        warnings.simplefilter("error", MissingWordsWarning)
        for code in REASON_CODES:
            for count in (1, 2):
                reason = Reason(code, parse_cards("7o 7c")[:count], count=count, total=11, sweeper_value=4,
                                unseen=count)
                for lang in LANGUAGES:
                    assert "{" not in reason_words(Translator(lang), reason)


def test_the_hint_reasons_are_spanish_in_spanish():
    es = Translator("es")
    for code, message in HINT_WORDS.items():
        if isinstance(message, tuple):  # a message with plural forms
            params = {"cards": "", "total": 1, "value": 1}
            assert es.plural(*message, 2, **params) != message[1].format(n=2, **params), f"{code}: no Spanish forms"
        else:
            assert es(message) != message, f"{code}: {message!r} has no Spanish words"
