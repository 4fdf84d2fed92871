"""The message catalogs: every message a widget module uses is translated in every language, and nothing
is left over. One catalog per module and language, so a change shows where it belongs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from escoba_tutor.widgets.i18n import (
    LANGUAGES,
    LOCALE_DIR,
    LanguageError,
    Translator,
    catalog_sources,
    extract,
    normalize_language,
)

# One catalog per widget module, widget package or page: (its name as a Path's stem, its source files).
SOURCES = catalog_sources()
MODULES = sorted(Path(name) for name, files in SOURCES.items() if extract(files))
PLACEHOLDER = re.compile(r"\{(\w*)\}")


def catalog(lang: str, module: Path) -> dict:
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{module.stem}.po"
    assert path.exists(), f"{path} is missing: run python -m escoba_tutor.widgets.i18n and translate"
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
    # The catalogs are merged at run time, so one id must not mean two things.
    for lang in LANGUAGES:
        seen: dict = {}
        for module in MODULES:
            for key, message in catalog(lang, module).items():
                if key in seen:
                    first_module, first = seen[key]
                    assert first == message.string, (
                        f"{lang}: {key!r} is {first!r} in {first_module} but {message.string!r} in {module.stem}")
                seen[key] = (module.stem, message.string)
