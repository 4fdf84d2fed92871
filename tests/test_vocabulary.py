"""One word per concept, in everything a student or a teacher reads.

The words come from the course's vocabulary (escoba_tutor/text/vocabulary.toml, the source of docs/glossary.md):

- the synonyms it forbids, each in its own language (*move* for a play, *partnership* for a team, «equipo» for
  a «pareja»), except inside the few phrases it allows (*house rules*, *a house variant*);
- in English text, a Spanish term the English column translates (*rey*, *baza*, *fácil*), unless the English
  keeps it (*escoba*, *setenta*, *the mano*); a Spanish word may still follow its English one in brackets, where
  the learner meets it at the table (*Coins (oros)*), and a «» quotation of a Spanish screen is not English text;
- in Spanish text, the English card words (*king*, *coins*).

What is read, each in its language: every catalog (the msgids are English, each msgstr in its catalog's
language), every lesson source (markdown and the string literals of code cells, per language: the notebooks are
written from them and tests/test_lessons.py fails when they differ), the worksheet as it renders, the teachers'
guides (docs/teachers.md, docs/teachers.es.md, docs/classroom.md, docs/class-board.md, docs/class-board.es.md), the
rule book they cite (docs/rules.md, docs/reglas.md, docs/variants.md) and the README up to its developers' part
("## Benchmarks").
A finding names the file, the line or the msgid, and the word.
"""

from __future__ import annotations

import functools
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from tools import glossary_build
from tools.lessons_build import LANG_TOKEN, LANGS, language_words, parse_source

ROOT = Path(__file__).resolve().parent.parent
LOCALE = Path("escoba_tutor/text/locale")
GUIDES = {"docs/teachers.md": "en", "docs/teachers.es.md": "es", "docs/classroom.md": "en",
          "docs/class-board.md": "en", "docs/class-board.es.md": "es", "docs/rules.md": "en", "docs/reglas.md": "es",
          "docs/variants.md": "en"}
README_END = "## Benchmarks"  # the README's developers' part starts here


@dataclass(frozen=True)
class Text:
    where: str  # the file, or the file and msgid
    lang: str
    text: str
    line: int | None = None  # the file's line where the text starts (a paragraph may span several)

    def at(self, offset: int) -> str:
        """Where the text's character ``offset`` is: the file and its line, or the msgid."""
        if self.line is None:
            return self.where
        return f"{self.where}:{self.line + self.text.count(chr(10), 0, offset)}"


@dataclass(frozen=True)
class Rule:
    lang: str  # the language of the texts it applies to
    word: str  # as the glossary lists it
    pattern: re.Pattern[str]
    allow: tuple[re.Pattern[str], ...]
    instead: str
    foreign: bool  # a word of the other language: brackets and «» quotations are spared


def _words(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-])(?:{pattern})(?![\w-])", re.I)


def rules(vocabulary: dict | None = None) -> list[Rule]:
    vocabulary = vocabulary or glossary_build.load()
    found = []
    english_terms = " | ".join(f"{c['en']['term']} | {c['en'].get('plural', '')} | {c['en'].get('shown', '')}".lower()
                               for c in vocabulary["concepts"])
    for concept in vocabulary["concepts"]:
        for rule in concept.get("forbid", []):
            found.append(Rule(rule["lang"], rule["word"], _words(rule["pattern"]),
                              tuple(_words(a) for a in rule.get("allow", [])), rule["instead"], False))
        es, en = concept["es"], concept["en"]
        spanish = [es["term"], es.get("plural", ""), *es.get("also", [])]
        for term in filter(None, spanish):
            if not es.get("homograph") and not re.search(rf"(?<!\w){re.escape(term.lower())}(?!\w)", english_terms):
                found.append(Rule("en", term, _words(re.escape(term).replace(r"\ ", r"\s+")), (), en["term"], True))
        if en.get("in_spanish"):
            for term in filter(None, [en["term"], en.get("plural", "")]):
                found.append(Rule("es", term, _words(re.escape(term).replace(r"\ ", r"\s+")), (), es["term"], True))
    unique = {(r.lang, r.pattern.pattern): r for r in reversed(found)}  # "oros": the suit and the point
    return [r for r in found if unique[(r.lang, r.pattern.pattern)] is r]


def said(text: str, *, foreign: bool, lang: str) -> str:
    """Text as a reader reads it for words: without code spans, link targets, HTML tags and a message's
    placeholders (names, not words); for a foreign word also without brackets (where a Spanish word may follow
    its English one) and, in English, «» quotations of Spanish screens."""
    unsaid = [r"`[^`]*`", r"\]\([^)]*\)", r"<[^>]+>", r"\{\w*\}"]
    if foreign:
        unsaid.append(r"\([^()]*\)")
        if lang == "en":
            unsaid.append(r"«[^»]*»")
    for pattern in unsaid:  # blanked, not removed: a finding's offset still gives its line
        text = re.sub(pattern, lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    return text


def findings(texts: list[Text], every_rule: list[Rule]) -> list[str]:
    found = []
    for item in texts:
        plains = {foreign: said(item.text, foreign=foreign, lang=item.lang) for foreign in (False, True)}
        for rule in every_rule:
            if rule.lang != item.lang:
                continue
            plain = plains[rule.foreign]
            spared = [m.span() for a in rule.allow for m in a.finditer(plain)]
            for hit in rule.pattern.finditer(plain):
                if not any(start <= hit.start() and hit.end() <= end for start, end in spared):
                    context = " ".join(item.text[max(0, hit.start() - 60):hit.end() + 60].split())
                    found.append(f"{item.at(hit.start())}: {hit.group(0)!r} (say {rule.instead!r}) in: …{context}…")
    return found


# --- the texts ------------------------------------------------------------------------------------------------


def catalog_texts(root: Path = ROOT) -> list[Text]:
    texts = []
    for path in sorted((root / LOCALE).glob("*/LC_MESSAGES/*.po")):
        lang = path.parent.parent.name
        name = path.relative_to(root)
        with path.open("rb") as handle:
            for message in read_po(handle, locale=lang):
                if not message.id:
                    continue
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                where = f"{name}: msgid {ids[0]!r}"
                if lang == "en":  # the ids are English: read once, with the English catalogs
                    texts += [Text(f"{where} (id)", "en", i) for i in ids]
                texts += [Text(where, lang, s) for s in strings if s]
    return texts


_STRING = re.compile(r"(?P<q>['\"])(?P<s>(?:\\.|(?!(?P=q)).)*)(?P=q)")


def lesson_texts(root: Path = ROOT) -> list[Text]:
    """Each line of every lesson source, in its language: a markdown block's lines in theirs, a code cell's string
    literals in every language, as each notebook has them."""
    texts = []
    for path in sorted((root / "lessons" / "source").glob("*.md")):
        name = str(path.relative_to(root))
        for cell in parse_source(path.read_text(encoding="utf-8"), name):
            if cell.kind == "markdown":
                for lang, lines in cell.lines.items():
                    texts += paragraphs(name, lang, lines)
                continue
            for number, line in cell.lines[""]:
                for each in LANGS:
                    code = language_words(line.replace(LANG_TOKEN, each), each)
                    texts += [Text(f"{name} (code, {each})", each, m.group("s"), number)
                              for m in _STRING.finditer(code)]
    return texts


def paragraphs(where: str, lang: str, lines: list[tuple[int, str]]) -> list[Text]:
    """Numbered lines as paragraphs (a quotation or a code span may run over a line's end)."""
    found: list[Text] = []
    block: list[tuple[int, str]] = []
    for number, line in [*lines, (0, "")]:
        if line.strip():
            block.append((number, line))
        elif block:
            found.append(Text(where, lang, "\n".join(text for _, text in block), block[0][0]))
            block = []
    return found


def markdown_texts(path: Path, lang: str, root: Path = ROOT, stop: str | None = None) -> list[Text]:
    """The lines of a markdown file outside code blocks, up to a line starting with ``stop``."""
    lines, fenced = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if stop and line.startswith(stop):
            break
        if line.lstrip().startswith("```"):
            fenced = not fenced
            lines.append((number, ""))
        elif not fenced:
            lines.append((number, line))
    return paragraphs(str(path.relative_to(root)), lang, lines)


@functools.cache  # rendered once for the two tests that read it
def worksheet_texts() -> list[Text]:
    """The worksheet as it renders (its template holds no words of its own: every word comes from the catalogs),
    in each language, under both rule profiles."""
    from escoba_tutor.exercises.worksheet import worksheet_html

    texts = []
    for lang in LANGS:
        for rules_name, seed in (("escoba", 60), ("scopa", 4)):
            page = worksheet_html(seed, lang, count=6, rules=rules_name)
            page = re.sub(r"<(style|script)\b.*?</\1>", " ", page, flags=re.S)
            pieces = {p.strip() for p in re.split(r"<[^>]+>", page) if p.strip()}
            texts += [Text(f"worksheet ({lang}, {rules_name}, seed {seed})", lang, p) for p in sorted(pieces)]
    return texts


def guide_texts(root: Path = ROOT) -> list[Text]:
    texts = []
    for name, lang in GUIDES.items():
        texts += markdown_texts(root / name, lang, root)
    return texts + markdown_texts(root / "README.md", "en", root, stop=README_END)


SOURCES = {"catalogs": catalog_texts, "lessons": lesson_texts, "worksheet": worksheet_texts, "guides": guide_texts}


# --- the tests ------------------------------------------------------------------------------------------------


def test_the_vocabulary_gives_the_rules():
    every = rules()
    foreign_in_english = {r.word for r in every if r.lang == "en" and r.foreign}
    assert {"rey", "sota", "caballo", "oros", "copas", "espadas", "bastos", "figuras", "siete de oros", "palo",
            "baza", "bando", "pareja", "compañero", "fácil", "medio", "difícil"} <= foreign_in_english
    # kept in English, or English words too
    assert not {"escoba", "setenta", "primera", "renuncio", "mano", "as", "pie"} & foreign_in_english
    assert {"move", "partnership", "house (a group of players)"} <= {r.word for r in every if r.lang == "en"}
    assert {"equipo", "movimiento"} <= {r.word for r in every if r.lang == "es"}
    assert {"king", "coins"} <= {r.word for r in every if r.lang == "es" and r.foreign}


def test_the_check_finds_what_it_looks_for():
    # a check that finds nothing would pass every text: it finds the words, and spares brackets, codes, quotes
    every = rules()

    def words(text: str, lang: str = "en") -> list[str]:
        return sorted(re.match(r"x: ('.*?') \(say", f).group(1) for f in findings([Text("x", lang, text)], every))

    assert words("The computer plays the rey de oros.") == ["'oros'", "'rey'"]
    assert words("Careful with the figures: as = 16.") == ["'as'", "'figures'"]
    assert words("Coins (oros) and the jack (*sota*); type `10o`; the button «Tu mano».") == []
    assert words("Your move, then the partnership's.") == ["'move'", "'partnership'"]
    assert words("Ask which house rules apply; take pairs of cards (each pair is an escoba).") == []
    assert words("Each side, one player or a pair of partners, plays in pairs.") == ["'in pairs'", "'pair of partners'"]
    assert words("Some houses play it.") == ["'houses'"]
    assert words("Juega tu equipo (el equipo del ordenador).", "es") == ["'equipo'", "'equipo'"]
    assert words("El rey de bastos y the jack", "es") == ["'jack'"]
    assert words(['show_game(', 'en', ', level=', 'difícil', ')'][3]) == ["'difícil'"]


@pytest.mark.parametrize("source", sorted(SOURCES))
def test_no_forbidden_word(source):
    texts = SOURCES[source]()
    assert {t.lang for t in texts} == set(LANGS)  # read in both languages, or the check would prove nothing
    found = findings(texts, rules())
    assert not found, "A word the course does not use (escoba_tutor/text/vocabulary.toml, docs/glossary.md):\n" + \
        "\n".join(f"  {f}" for f in found)


# "a card of coins", "two coins cards": a calque; the catalogs and the worksheet say "a coin", "two coins" and,
# beside a count of cards, "coin cards" (so that "1 coin" beside "3 cards" is not read as money).
_CARD_OF_COINS = Rule("en", "a card of coins", _words(r"cards?\s+of\s+coins|coins\s+cards?"), (),
                      "a coin, two coins, coin cards", False)


@pytest.mark.parametrize("source", ["catalogs", "worksheet"])
def test_the_screens_and_the_sheet_say_a_coin_not_a_card_of_coins(source):
    texts = [t for t in SOURCES[source]() if not t.where.endswith("(id)")]  # (an id is no text a student reads)
    assert any(t.lang == "en" and re.search(r"\bcoin cards?\b|\ba coin\b", t.text) for t in texts)
    found = findings(texts, [_CARD_OF_COINS])
    assert not found, "\n".join(found)
    assert findings([Text("x", "en", "it adds 2 cards of coins to your pile")], [_CARD_OF_COINS])  # it finds one


def test_every_allowed_phrase_is_needed():
    # an exception nobody uses any more is taken out, so the list stays the few phrases that need it
    texts = [t for source in SOURCES.values() for t in source()]
    for rule in rules():
        for phrase in rule.allow:
            assert any(phrase.search(said(t.text, foreign=False, lang=t.lang)) for t in texts if t.lang == rule.lang), \
                f"no text needs the exception {phrase.pattern!r} to {rule.word!r}: take it out of the vocabulary"


def test_a_planted_word_is_found_and_named(tmp_path):
    # Copies of a catalog, a lesson and a guide, each with one forbidden word planted: the failure names the file,
    # the line or msgid, and the word.
    for part in (LOCALE / "en" / "LC_MESSAGES" / "labels.po", LOCALE / "es" / "LC_MESSAGES" / "labels.po",
                 Path("lessons/source/02-captures.md"), *map(Path, GUIDES), Path("README.md")):
        (tmp_path / part).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / part, tmp_path / part)
    every = rules()
    assert not findings(catalog_texts(tmp_path) + lesson_texts(tmp_path) + guide_texts(tmp_path), every)

    po = tmp_path / LOCALE / "es" / "LC_MESSAGES" / "labels.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Tu compañero o compañera"', 'msgstr "Tu equipo"'),
                  encoding="utf-8")
    lesson = tmp_path / "lessons/source/02-captures.md"
    lines = lesson.read_text(encoding="utf-8").splitlines()
    at = lines.index("--- en", lines.index("=== markdown", 5)) + 1
    lines.insert(at, "Each move takes cards from the table.")
    lesson.write_text("\n".join(lines) + "\n", encoding="utf-8")
    guide = tmp_path / "docs/teachers.md"
    guide.write_text(guide.read_text(encoding="utf-8") + "\nStudents play in partnerships.\n", encoding="utf-8")

    found = findings(catalog_texts(tmp_path) + lesson_texts(tmp_path) + guide_texts(tmp_path), every)
    assert len(found) == 3, found
    assert any(f.startswith("escoba_tutor/text/locale/es/LC_MESSAGES/labels.po: msgid 'Your partner': 'equipo'")
               for f in found), found
    assert any(f.startswith(f"lessons/source/02-captures.md:{at + 1}: 'move'") for f in found), found
    last = len(guide.read_text(encoding="utf-8").splitlines())
    assert any(f.startswith(f"docs/teachers.md:{last}: 'partnerships'") for f in found), found


def test_the_glossary_is_written_from_the_vocabulary(tmp_path):
    assert glossary_build.check() == [], "run python -m tools.glossary_build"
    # and the check sees either edition edited by hand, and names it
    for edition, name in ((glossary_build.GLOSSARY, "glossary"), (glossary_build.GLOSARIO, "glosario")):
        edited = tmp_path / edition.name
        text = edition.read_text(encoding="utf-8")
        assert "| bando | side |" in text
        edited.write_text(text.replace("| bando | side |", "| bando | team |"), encoding="utf-8")
        found = glossary_build.check(**{name: edited})
        assert len(found) == 1 and found[0].startswith(str(edited)), found


def test_a_spanish_reader_finds_spanish_first_in_the_glosario():
    glossary = glossary_build.GLOSSARY.read_text(encoding="utf-8")
    glosario = glossary_build.GLOSARIO.read_text(encoding="utf-8")
    title, _, intro = glosario.partition("\n\n")
    assert title == "# Glosario · Glossary" and intro.startswith("Las palabras de la escoba")
    assert glossary.startswith("# Glossary · Glosario\n\nThe words of Escoba")
    # the English paragraphs (notes for writing in English) stay in the English edition, which the Spanish one names
    assert "On the English screens" in glossary and "On the English screens" not in glosario
    assert "[glossary.md](glossary.md)" in glosario
    # the same tables, each heading and meaning in the reader's language first
    assert "## Las cartas · The cards" in glosario and "## The cards · Las cartas" in glossary
    assert "| Español | English | Significado · Meaning |" in glosario
    side = next(line for line in glosario.splitlines() if line.startswith("| bando | side |"))
    assert side.index("El jugador o la pareja") < side.index("The player or the team")
    forbidden = [line.split(" | ")[0] for line in glosario.partition("## Palabras que el curso no usa")[2].splitlines()
                 if line.startswith(("| español", "| English"))]
    assert forbidden[0] == "| español" and forbidden[-1] == "| English" and sorted(forbidden) == sorted(
        line.split(" | ")[0] for line in glossary.partition("## Words the course does not use")[2].splitlines()
        if line.startswith(("| español", "| English")))
    # every concept's row is in both editions, in the same order

    def terms(text: str, forbidden_title: str) -> list[list[str]]:
        return [line.split(" | ")[:2] for line in text.partition(forbidden_title)[0].splitlines()
                if line.startswith("| ") and not line.startswith("| Español")]

    assert len(terms(glossary, "## Words")) > 40
    assert terms(glossary, "## Words") == terms(glosario, "## Palabras")


def test_the_vocabulary_is_checked_as_it_is_read(tmp_path):
    text = glossary_build.VOCABULARY.read_text(encoding="utf-8")
    wrong = tmp_path / "vocabulary.toml"
    wrong.write_text(text.replace('del = "del bando"', 'del = "de la bando"'), encoding="utf-8")
    with pytest.raises(glossary_build.VocabularyError, match="side: es.forms.del 'de la bando'"):
        glossary_build.load(wrong)
    wrong.write_text(text.replace("pattern = 'moves?'", "pattern = 'moves?('"), encoding="utf-8")
    with pytest.raises(glossary_build.VocabularyError, match="play: the pattern"):
        glossary_build.load(wrong)
    wrong.write_text(text.replace('title_es = "Glosario · Glossary"', ""), encoding="utf-8")
    with pytest.raises(glossary_build.VocabularyError, match=r"\[glossary\] needs title_es"):
        glossary_build.load(wrong)
    wrong.write_text(text.replace('lang = "es"\n', 'lang = "fr"\n', 1), encoding="utf-8")
    with pytest.raises(glossary_build.VocabularyError, match=r"\[\[glossary.intro\]\] no. 2 needs a lang"):
        glossary_build.load(wrong)


def test_the_spanish_forms_of_a_side_agree():
    vocabulary = glossary_build.load()
    for name in ("side", "team", "partner", "player", "computer"):
        es = glossary_build.concept(vocabulary, name)["es"]
        article = {"m": "el", "f": "la"}[es["gender"]]
        assert es["forms"]["el"] == f"{article} {es['term']}"
        assert es["forms"]["para"] == f"para {article} {es['term']}"


def test_spanish_sentences_about_you_agree():
    # «Tú tiene», «tú se lleva»: a sentence built for a name and given «Tú»
    for item in catalog_texts():
        if item.lang == "es":
            assert not re.search(r"\b[Tt]ú (tiene|se lleva|juega|deja|gana|hace)\b", item.text), item


def lesson_titles(root: Path = ROOT) -> dict[tuple[str, str], str]:
    """(language, lesson) -> its title, as the lesson's first heading says it: "2. Making 15"."""
    from tools.lessons_build import parse_source

    titles = {}
    for path in sorted((root / "lessons" / "source").glob("0*.md")):
        first = parse_source(path.read_text(encoding="utf-8"), path.name)[0]
        for lang in LANGS:
            titles[(lang, path.stem)] = re.match(r"# (.+)", first.texts[lang]).group(1).strip()
    return titles


_LINK = re.compile(r"\[(?:Siguiente: |Next: |← )?(?P<text>\d\. [^\]]*?)(?: →)?\]\((?P<stem>0\d-[\w-]+)\.ipynb\)"
                   r"|^(?P<number>\d)\. \[(?P<title>[^\]]+)\]\((?P<listed>0\d-[\w-]+)\.ipynb\)", re.M)


def lesson_links(root: Path = ROOT) -> list[tuple[str, str, str, str]]:
    """Every link to a lesson that names it by number and title: (where, language, text, lesson)."""
    return [(t.at(m.start()), t.lang, m.group("text") or f"{m.group('number')}. {m.group('title')}",
             m.group("stem") or m.group("listed"))
            for t in lesson_texts(root) if "(code" not in t.where for m in _LINK.finditer(t.text)]


def misnamed(root: Path = ROOT) -> list[str]:
    """The links whose words are not their lesson's title: the contents page gives each lesson's whole title; a
    link elsewhere may shorten it ("3. The escoba"), but only to its start, never to other words."""
    titles = lesson_titles(root)
    wrong = []
    for where, lang, text, stem in lesson_links(root):
        title = titles[(lang, stem)]
        if where.startswith("lessons/source/index.md"):
            right = text == title
        else:
            right = title == text or title.startswith((text + " ", text + ":"))
        if not right:
            wrong.append(f"{where}: {text!r}, but the lesson's title is {title!r}")
    return wrong


def test_a_lesson_is_named_as_its_title_says(tmp_path):
    index = [(lang, stem) for where, lang, _text, stem in lesson_links() if where.startswith("lessons/source/index.md")]
    assert sorted(index) == sorted(lesson_titles()), "the contents page lists every lesson once in each language"
    assert misnamed() == []
    # the check sees a title the contents page words otherwise
    shutil.copytree(ROOT / "lessons" / "source", tmp_path / "lessons" / "source")
    index_md = tmp_path / "lessons" / "source" / "index.md"
    text = index_md.read_text(encoding="utf-8")
    line = text[:text.index("[Strategy: playing well]")].count("\n") + 1  # the line the changed title is on
    index_md.write_text(text.replace("[Strategy: playing well]", "[Strategy: playing with your head]"),
                        encoding="utf-8")
    assert [w.split(": ", 1)[0] for w in misnamed(tmp_path)] == [f"lessons/source/index.md:{line}"]
