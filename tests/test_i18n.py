"""The message catalogs: every message a widget module uses is translated in every language, and nothing
is left over. One catalog per module and language, so a change shows where it belongs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from escoba_test_helpers import fresh_python_prints

from escoba_tutor.text.catalogs import catalog_sources, extract
from escoba_tutor.text.labels import Label
from escoba_tutor.text.phrases import WordList
from escoba_tutor.text.translator import LANGUAGES, LOCALE_DIR, LanguageError, Translator, normalize_language

# One catalog per widget module, widget package or page: (its name as a Path's stem, its source files).
SOURCES = catalog_sources()
MODULES = sorted(Path(name) for name, files in SOURCES.items() if extract(files))
# A placeholder's name; a label's form after it ({side:of}) is the language's choice (escoba_tutor.text.labels).
PLACEHOLDER = re.compile(r"\{(\w*)(?::\w+)?\}")


def catalog(lang: str, module: Path) -> dict:
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{module.stem}.po"
    assert path.exists(), f"{path} is missing: run python -m escoba_tutor.text.catalogs and translate"
    with path.open("rb") as handle:
        return {m.id: m for m in read_po(handle, locale=lang) if m.id}


def test_there_are_catalogs_to_check():
    assert MODULES, "no widget module uses a message"


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.stem)
def test_every_message_is_translated_and_none_is_unused(lang, module):
    used = {message for message, _line in extract(SOURCES[module.stem])}
    messages = catalog(lang, module)
    missing = used - set(messages)
    unused = set(messages) - used
    assert not missing, f"{lang}/{module.stem}.po lacks {sorted(map(str, missing))}"
    assert not unused, f"{lang}/{module.stem}.po has unused {sorted(map(str, unused))}"
    for key, message in messages.items():
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(forms), f"{lang}/{module.stem}.po: {key!r} is not translated"
        assert not message.fuzzy, f"{lang}/{module.stem}.po: {key!r} is marked fuzzy"
        ids = key if isinstance(key, tuple) else (key,)
        wanted = set().union(*(PLACEHOLDER.findall(i) for i in ids))
        for form in forms:
            assert set(PLACEHOLDER.findall(form)) <= wanted | {"n"}, f"{key!r}: {form!r} has other placeholders"
            assert wanted - {"n"} <= set(PLACEHOLDER.findall(form)), f"{key!r}: {form!r} drops a placeholder"


def test_every_card_has_a_name_in_both_languages():
    from escoba_tutor import DECK

    for lang in LANGUAGES:
        names = {Translator(lang).card_name(card) for card in DECK}
        assert len(names) == 40
    assert Translator("es").card_name("1c") == "as de copas"
    assert Translator("en").card_name("12b") == "king of clubs"


@pytest.mark.parametrize("text, lang", [("es", "es"), ("EN", "en"), ("en-GB", "en"), ("es_ES", "es")])
def test_language_names_are_normalized(text, lang):
    assert normalize_language(text) == lang


@pytest.mark.parametrize("text", ["xx", "", None, 5, "english"])
def test_unknown_languages_are_refused(text):
    with pytest.raises(LanguageError, match="choose es"):
        normalize_language(text)


def test_a_message_used_by_several_modules_is_translated_the_same_everywhere():
    # The catalogs are merged at run time, so one id must not mean two things (the server's pages' catalog too).
    every_catalog = sorted({*MODULES, Path("server")})
    for lang in LANGUAGES:
        seen: dict = {}
        for module in every_catalog:
            for key, message in catalog(lang, module).items():
                if key in seen:
                    first_module, first = seen[key]
                    assert first == message.string, (
                        f"{lang}: {key!r} is {first!r} in {first_module} but {message.string!r} in {module.stem}")
                seen[key] = (module.stem, message.string)


def test_plural_forms_follow_each_languages_rule_from_its_catalog():
    es, en = Translator("es"), Translator("en")
    assert [es.plural("{n} card", "{n} cards", n) for n in (0, 1, 2, 21)] == ["0 cartas", "1 carta", "2 cartas",
                                                                              "21 cartas"]
    assert [en.plural("{n} card", "{n} cards", n) for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    # the index comes from the catalog's Plural-Forms (Spanish has a third form, for whole millions), not n == 1
    assert es._plural_index(1) == 0 and es._plural_index(2) == 2 and es._plural_index(1_000_000) == 1
    assert es.plural("{n} card", "{n} cards", 1_000_000) == "1000000 cartas"


@pytest.mark.parametrize("code, es, en", [
    ("1o", "el as de oros", "the ace of coins"), ("2c", "el dos de copas", "the two of cups"),
    ("7e", "el siete de espadas", "the seven of swords"), ("10b", "la sota de bastos", "the jack of clubs"),
    ("11o", "el caballo de oros", "the knight of coins"), ("12c", "el rey de copas", "the king of cups"),
])
def test_a_card_in_a_sentence_has_the_article_its_rank_asks_for(code, es, en):
    assert Translator("es").the_card(code) == es and Translator("en").the_card(code) == en


def test_every_card_has_a_distinct_name_with_its_article():
    from escoba_tutor import DECK

    for lang in LANGUAGES:
        _ = Translator(lang)
        assert len({_.the_card(c) for c in DECK}) == 40
        assert all(_.the_card(c).endswith(_.card_name(c)) for c in DECK)
    # in Spanish only the sota is feminine
    assert {c.rank for c in DECK if Translator("es").the_card(c).startswith("la ")} == {10}


def test_lists_and_alternatives_read_as_language():
    from escoba_tutor.text.phrases import alternatives, and_list, or_list, the_cards

    es, en = Translator("es"), Translator("en")
    assert and_list(es, ["a"]) == "a" and and_list(es, []) == ""
    assert and_list(es, ["a", "b", "c"]) == "a, b y c" and and_list(en, ["a", "b", "c"]) == "a, b and c"
    assert or_list(es, ["a", "b"]) == "a o b" and or_list(en, ["a", "b", "c"]) == "a, b or c"
    assert the_cards(es, "1o 10c") == "el as de oros y la sota de copas"
    assert alternatives(es, [["12c"], ["2c", "10b"]]) == "el rey de copas, o el dos de copas y la sota de bastos"
    assert alternatives(en, [["12c"], ["2c", "10b"]]) == "the king of cups, or the two of cups and the jack of clubs"
    assert alternatives(es, [["12c"], ["5e"], ["1o"]]) == "el rey de copas, el cinco de espadas o el as de oros"
    assert alternatives(es, []) == ""


# ------------------------------------------------------------------------------------ the compiled catalogs
def _read_po_messages(lang: str) -> tuple[dict, object]:
    """What the catalogs say, read from the .po files by Babel: id -> text (or plural forms), and the plural
    rule (a count -> the index of its form)."""
    import gettext

    merged: dict = {}
    rule = None
    for path in sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        rule = rule or catalog.plural_expr
        for message in catalog:
            if message.id and message.string and not message.fuzzy:
                merged[message.id] = message.string
    return merged, gettext.c2py(rule)


def test_the_compiled_catalogs_are_their_po_files_compiled():
    from escoba_tutor.text.catalogs import compile_catalog, stale_catalogs
    from escoba_tutor.text.translator import COMPILE_COMMAND

    assert not stale_catalogs(), f"compile the catalogs again: {COMPILE_COMMAND}"
    for po in sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po")):
        assert po.with_suffix(".mo").read_bytes() == compile_catalog(po, po.parent.parent.name), (
            f"{po.with_suffix('.mo')} is not {po.name} compiled: {COMPILE_COMMAND}")


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_message_reads_the_same_compiled_as_from_its_po_file(lang):
    expected, rule = _read_po_messages(lang)
    _ = Translator(lang)
    plurals = 0
    for key, text in expected.items():
        if isinstance(key, str):
            assert _(key) == text, key
            continue
        plurals += 1
        singular, plural = key
        # every placeholder but {n} filled with its own name, so a wrong form shows
        params = {name: WordList(f"<{name}>", f"<or {name}>") if f"{{{name}:or}}" in singular + plural else
                  Label(f"<{name}>", f"<the {name}>", f"<of {name}>", f"<to {name}>")
                  for name in PLACEHOLDER.findall(singular + plural) if name != "n"}  # (a list: "and" or "or")
        for n in [*range(0, 30), 100, 101, 1_000_000, 2_000_000, 1_000_001]:
            wanted = text[min(rule(n), len(text) - 1)].format(n=n, **params)
            assert _.plural(singular, plural, n, **params) == wanted, (key, n)
    assert plurals > 10 and len(expected) > 300  # the check saw the catalogs
    # a message no catalog has stays as written, in English forms
    assert _("Not a message {x}", x=1) == "Not a message 1" and _("") == ""
    assert [_.plural("{n} apple", "{n} apples", n) for n in (1, 2)] == ["1 apple", "2 apples"]


def test_the_package_reads_its_catalogs_without_babel():
    code = ("import sys; sys.modules['babel'] = None\n"  # any import of Babel now fails
            "from escoba_tutor.text.translator import Translator\n"
            "from escoba_tutor.text.phrases import and_list, one_decimal\n"
            "from escoba_tutor.widgets.page import show_capture_table\n"
            "from escoba_tutor.exercises.worksheet import worksheet_html\n"
            "_ = Translator('es')\n"
            "print(and_list(_, [_.the_card('1o'), _.the_card('10c')]), one_decimal(_, 1.25), "
            "_.plural('{n} card', '{n} cards', 2))\n")
    assert fresh_python_prints(code) == "el as de oros y la sota de copas 1,2 2 cartas"


def test_a_missing_compiled_catalog_is_named_with_the_command_that_compiles_it(tmp_path, monkeypatch):
    from escoba_tutor.text import catalogs, translator

    (tmp_path / "es" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "es" / "LC_MESSAGES" / "page.po").write_text("")
    monkeypatch.setattr(translator, "LOCALE_DIR", tmp_path)
    translator._translations.cache_clear()
    try:
        with pytest.raises(translator.CatalogsNotCompiledError, match="--compile"):
            Translator("es")
        assert catalogs.stale_catalogs() == [tmp_path / "es" / "LC_MESSAGES" / "page.po"]
    finally:
        translator._translations.cache_clear()


def test_a_catalog_compiles_its_finished_translations_with_its_source_and_plural_rule(tmp_path):
    """What compile_catalog keeps of a .po file: the empty, fuzzy and half-translated messages stay English; the
    header names the .po file's digest and its plural rule, and neither the day nor the Babel that wrote it (the
    same .po, the same bytes)."""
    import gettext
    import hashlib
    import io

    from escoba_tutor.text.catalogs import compile_catalog

    po = tmp_path / "es" / "LC_MESSAGES" / "page.po"
    po.parent.mkdir(parents=True)
    po.write_text(  # no dates in its header
        'msgid ""\nmsgstr ""\n"Language: es\\n"\n"Content-Type: text/plain; charset=utf-8\\n"\n'
        '"Plural-Forms: nplurals=3; plural=(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2);\\n"\n\n'
        'msgid "Deal"\nmsgstr "Mano"\n\nmsgid "Undo"\nmsgstr ""\n\n#, fuzzy\nmsgid "Hint"\nmsgstr "Pista"\n\n'
        'msgid "{n} card"\nmsgid_plural "{n} cards"\n'
        'msgstr[0] "{n} carta"\nmsgstr[1] "{n} de cartas"\nmsgstr[2] "{n} cartas"\n\n'
        'msgid "{n} deal"\nmsgid_plural "{n} deals"\nmsgstr[0] "{n} mano"\nmsgstr[1] "{n} manos"\n',
        encoding="utf-8")
    data = compile_catalog(po, "es")
    assert compile_catalog(po, "es") == data
    compiled = gettext.GNUTranslations(io.BytesIO(data))
    assert [compiled.gettext(m) for m in ("Deal", "Undo", "Hint")] == ["Mano", "Undo", "Hint"]
    assert [compiled.ngettext("{n} card", "{n} cards", n) for n in (1, 1_000_000, 2)] == [
        "{n} carta", "{n} de cartas", "{n} cartas"]
    # two forms where Spanish has three: left out whole
    assert [compiled.ngettext("{n} deal", "{n} deals", n) for n in (1, 2)] == ["{n} deal", "{n} deals"]
    header = compiled.info()
    assert header["x-source-sha256"] == hashlib.sha256(po.read_bytes()).hexdigest()
    assert header["plural-forms"].startswith("nplurals=3;") and header["language"] == "es"
    assert not {"generated-by", "pot-creation-date", "po-revision-date"} & set(header)


@pytest.mark.parametrize("lang, one, four", [
    ("en", "This browser already has 1 page of the course open. Close it if you are not using it",
     "This browser already has 4 pages of the course open. Close the ones you are not using"),
    ("es", "Este navegador ya tiene abierta 1 página del curso. Ciérrala si no la estás usando",
     "Este navegador ya tiene abiertas 4 páginas del curso. Cierra las que no estés usando"),
])
def test_the_server_says_a_limit_of_one_page_in_the_singular(lang, one, four):
    """An operator may allow one page per browser: the server's notice says "1 page", never "1 pages"."""
    _ = Translator(lang)
    forms = ("This browser already has {count} page of the course open. Close it if you are not using it, then "
             "reload this page.",
             "This browser already has {count} pages of the course open. Close the ones you are not using, then "
             "reload this page.")
    assert _.plural(*forms, 1, count=1).startswith(one) and _.plural(*forms, 4, count=4).startswith(four)
