"""A lesson or a teachers' guide that quotes the screen quotes its current words.

Where a lesson (lessons/source/*.md, per language) or a guide (docs/teachers.md, docs/teachers.es.md,
docs/classroom.md, docs/class-board.md, docs/class-board.es.md) tells the reader what a widget or a page says,
it quotes it: «…» quotes a Spanish screen (in any text: an English guide may show the Spanish page), "…" and “…”
an English one (in English text). Such a quote must be a catalog's words: the Spanish msgstrs of
escoba_tutor/text/locale/es/LC_MESSAGES/*.po (server.po too) for «…», the English msgids and msgstrs for "…".

The rule, after normalising both sides (whitespace collapsed, markup dropped: HTML tags, ``**``, backticks; a
final full stop or colon dropped): the quote equals a catalog text or is a part of one made of whole words, a
catalog text's placeholders (``{side:of}``, ``%(n)s``) standing for any words. A part must hold enough of the
catalog's own words, not only a placeholder's (a third of its characters, and four), unless it is the whole text
with every placeholder filled, its own words in two places at least and a quarter of the quote («El ordenador
juega el rey de bastos y se lleva…» for «{who:The} juega {card} y se lleva {taken}.»). A quote of several
sentences may also match sentence by sentence (a status line saying two messages one after the other). Case is
free (a sentence may quote a label mid-sentence, «Mano» as «mano»). A quote that matches nothing is either in
:data:`NOT_THE_SCREEN` (a term, a sentence someone says, an example nickname, a section of a guide; each with its
reason), or stale: the failure names the file, the line, the quote and the nearest catalog text.

*Italics* are not checked: the course sets its terms in them (*baza*, *the mano*), not the screen's words.
Code cells, code spans and fenced blocks are not read.
"""

from __future__ import annotations

import difflib
import functools
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from babel.messages.pofile import read_po

from tools.lessons_build import parse_source

ROOT = Path(__file__).resolve().parent.parent
LOCALE = Path("escoba_tutor/text/locale")
GUIDES = {"docs/teachers.md": "en", "docs/teachers.es.md": "es", "docs/classroom.md": "en",
          "docs/class-board.md": "en", "docs/class-board.es.md": "es"}

#: Quotes that are not the screen's words, by language, with the reason. Keep it short: a quote of the screen that
#: no longer matches belongs in the text's fix, never here.
_NICKNAME = "an example nickname on the class board"
NOT_THE_SCREEN: dict[str, dict[str, str]] = {
    "es": {
        "caballo (9)": "a card as the Sum column writes it: «{figure} ({value})» filled, no words of its own",
        "ℹ": "the mark of a row with no capture: a sign, not a text",
        "escribid 14 en la casilla “Ejercicio”": "what a teacher says to the class",
        **dict.fromkeys(["Ana", "ana"], _NICKNAME),
    },
    "en": {
        "knight (9)": "a card as the Sum column writes it: \"{figure} ({value})\" filled, no words of its own",
        "ℹ": "the mark of a row with no capture: a sign, not a text",
        "lame": "what players call a setenta missing a suit (coja): a word of the table, not of the screen",
        "type 14 in the Exercise box": "what a teacher says to the class",
        "cards of the same value make different captures": "lesson 2's rule in the guide's words, not a screen's",
        **dict.fromkeys(["Ana", "ana"], _NICKNAME),
        "Limits": "a section of docs/classroom.md",
        "Resource limits": "a section of docs/hostile-input.md",
        "What students see": "a section of docs/class-board.md",
        "Usable": "a column of the classroom load benchmark's table",
        "memory back": "a column of the classroom load benchmark's table",
    },
}

_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%(?:\(\w+\))?[sd]")
_MARKUP = re.compile(r"<[^>]+>|\*\*|`")
#: «» and “” pair up; a "…" quote may run over one line's end, not further (a stray " must not pair with the next).
_QUOTES = {"es": [re.compile(r"«([^«»]+)»")],
           "en": [re.compile(r"«([^«»]+)»"), re.compile(r'"([^"\n]+(?:\n[^"\n]+)?)"'), re.compile(r"“([^“”]+)”")]}


def normal(text: str) -> str:
    """A text as the rule compares it: markup dropped, whitespace collapsed, no final full stop or colon."""
    text = " ".join(_MARKUP.sub("", text).split())
    return text[:-1].rstrip() if text.endswith((".", ":")) and not text.endswith("...") else text


@dataclass(frozen=True)
class Quote:
    where: str  # file:line
    lang: str  # the catalog language it quotes
    text: str  # as written, normalised


class Catalog:
    """Every text of one language's catalogs, and whether a quote is one of them or a part of one."""

    def __init__(self, texts: set[str]) -> None:
        self.texts = sorted(texts)
        self.exact = {t.casefold() for t in self.texts}
        self.joined = "\n".join(t.casefold() for t in self.texts if not _PLACEHOLDER.search(t))
        self.patterns = [(self._whole(t), self._fragments(t)) for t in self.texts if _PLACEHOLDER.search(t)]

    @staticmethod
    def _whole(text: str) -> re.Pattern[str] | None:
        """A pattern matching ``text`` with each placeholder filled, if its own words stand in two places around
        a placeholder: «{n} baza» alone would take «Comprobar la baza», «{figure} ({value})» anything in brackets."""
        pieces = _PLACEHOLDER.split(text.casefold())
        if sum(any(c.isalpha() for c in piece) for piece in pieces) < 2:
            return None
        return re.compile("^" + "(.+?)".join(re.escape(p) for p in pieces) + "$", re.S)

    @staticmethod
    def _fragments(text: str) -> re.Pattern[str]:
        """A pattern matching any part of ``text`` with its placeholders standing for any words: a suffix of one
        literal piece, the pieces between (each after a placeholder's words), a prefix of a later piece. The
        placeholders' words are captured, so that a match made mostly of them can be refused."""
        pieces = [re.escape(p.casefold()) for p in _PLACEHOLDER.split(text)]
        raw = [p.casefold() for p in _PLACEHOLDER.split(text)]

        def cut(piece: str, k: int) -> bool:  # a part starts and ends between words, never inside one
            return k in (0, len(piece)) or not (piece[k - 1].isalnum() and piece[k].isalnum())

        def suffixes(piece: str) -> str:
            return "(?:" + "|".join(re.escape(piece[k:]) for k in range(len(piece) + 1) if cut(piece, k)) + ")"

        def prefixes(piece: str) -> str:
            return "(?:" + "|".join(re.escape(piece[:k]) for k in range(len(piece), -1, -1) if cut(piece, k)) + ")"

        alternatives = []
        for i in range(len(pieces)):
            for j in range(i + 1, len(pieces)):
                middle = "".join(f"(.*?){pieces[k]}" for k in range(i + 1, j))
                alternatives.append(f"{suffixes(raw[i])}{middle}(.*?){prefixes(raw[j])}")
        return re.compile("^(?:" + "|".join(alternatives) + ")$", re.S)

    def has(self, quote: str) -> bool:
        """Whether ``quote`` is a catalog text or a part of one, or else each of its sentences is (a status line
        that says two sentences of the catalog, one after the other)."""
        if self._has(quote):
            return True
        sentences = re.split(r"(?<=[.!?])\s+", quote)
        return len(sentences) > 1 and all(self._has(normal(s)) for s in sentences)

    def _has(self, quote: str) -> bool:
        folded = quote.casefold()
        if folded in self.exact or re.search(rf"(?<!\w){re.escape(folded)}(?!\w)", self.joined):
            return True
        for whole, pattern in self.patterns:
            filled_whole = whole and whole.match(folded)
            if filled_whole and len(folded) - sum(map(len, filled_whole.groups())) >= len(folded) / 4:
                return True
            match = pattern.match(folded)
            if match:
                filled = sum(len(g) for g in match.groups() if g)
                if len(folded) - filled >= max(4, len(folded) / 3):
                    return True
        return False

    def nearest(self, quote: str) -> str:
        best = difflib.get_close_matches(quote, self.texts, n=1, cutoff=0.0)
        if best and difflib.SequenceMatcher(None, quote, best[0]).ratio() >= 0.5:
            return best[0]
        # a quote of a part: the text holding the longest run of its words
        def shared(text: str) -> int:
            return difflib.SequenceMatcher(None, quote.casefold(), text.casefold()).find_longest_match().size
        return max(self.texts, key=shared)


def catalog_texts(root: Path, lang: str) -> set[str]:
    """The texts a screen shows in ``lang``: the Spanish msgstrs, or the English msgids and msgstrs."""
    texts = set()
    for path in sorted((root / LOCALE / lang / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as handle:
            for message in read_po(handle, locale=lang):
                if not message.id:
                    continue
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                for text in [*(ids if lang == "en" else ()), *strings]:
                    if text:
                        # a text of several lines or sentences is quoted line by line as often as whole
                        texts.add(normal(text))
                        texts.update(normal(line) for line in text.splitlines() if line.strip())
    return texts


@functools.cache
def catalogs(root: Path = ROOT) -> dict[str, Catalog]:
    return {lang: Catalog(catalog_texts(root, lang)) for lang in ("es", "en")}


def _unquoted_code(line: str) -> str:
    """A line without its code spans (a card's code, a setting's name): blanked, keeping offsets."""
    return re.sub(r"`[^`]*`", lambda m: " " * len(m.group(0)), line)


def quotes_in(name: str, lang: str, lines: list[tuple[int, str]]) -> list[Quote]:
    """The quotes in numbered lines of one language's text (a quote may run over a line's end)."""
    found = []
    text = "\n".join(_unquoted_code(line) for _, line in lines)
    starts = [number for number, _ in lines]
    for pattern in _QUOTES[lang]:
        for match in pattern.finditer(text):
            line = starts[text.count("\n", 0, match.start())]
            quoted = "es" if match.group(0).startswith("«") else "en"
            found.append(Quote(f"{name}:{line}", quoted, normal(match.group(1))))
    return found


def lesson_quotes(root: Path = ROOT) -> list[Quote]:
    """The quotes of every lesson source's markdown, each language's part read in its language."""
    found = []
    for path in sorted((root / "lessons" / "source").glob("*.md")):
        name = str(path.relative_to(root))
        for cell in parse_source(path.read_text(encoding="utf-8"), name):
            if cell.kind == "markdown":
                for lang, lines in cell.lines.items():
                    found += quotes_in(name, lang, lines)
    return found


def guide_quotes(root: Path = ROOT) -> list[Quote]:
    """The quotes of the teachers' guides, outside fenced code blocks."""
    found = []
    for name, lang in GUIDES.items():
        lines: list[tuple[int, str]] = []
        fenced = False
        for number, line in enumerate((root / name).read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                line = ""
            lines.append((number, "" if fenced else line))
        found += quotes_in(name, lang, lines)
    return found


def stale(quotes: list[Quote], root: Path = ROOT) -> list[str]:
    """A line per quote that is neither a catalog's words nor allowed, with the nearest catalog text."""
    found = []
    for quote in quotes:
        catalog = catalogs(root)[quote.lang]
        if quote.text in NOT_THE_SCREEN[quote.lang] or catalog.has(quote.text):
            continue
        found.append(f"{quote.where}: {quote.text!r} is no {quote.lang} catalog text; nearest: "
                     f"{catalog.nearest(quote.text)!r}")
    return found


# --- the tests ------------------------------------------------------------------------------------------------


def test_the_rule() -> None:
    es = Catalog({"Puntos {side:of}", "Comprobar mi baza", "Reparte {dealer:the}", "se queda en la mesa"})
    assert es.has("Comprobar mi baza")
    assert es.has("comprobar mi baza")  # a label quoted mid-sentence
    assert es.has("mi baza")  # a part
    assert es.has("Puntos del bando 1")  # a placeholder's words
    assert es.has("Reparte el jugador 2")
    assert es.has("Reparte el jugador 2. Comprobar mi baza")  # two sentences, each the catalog's
    assert not es.has("Reparte el jugador 2. Comprobar la baza")
    assert not es.has("Comprobar la baza")
    assert not es.has("mi baz") and not es.has("Comproba")  # a part is whole words
    assert not es.has("el jugador 2")  # only a placeholder's words: no quote of the catalog
    assert normal("Comprobar   mi\nbaza.") == "Comprobar mi baza"
    assert normal("<b>Borrar</b>:") == "Borrar"


def test_quotes_are_found() -> None:
    lines = [(3, "Pulsa «Comprobar mi baza» y `«no»`."), (4, 'An "Every legal capture" list, «Borrar»')]
    assert [(q.where, q.lang, q.text) for q in quotes_in("x.md", "es", lines)] == [
        ("x.md:3", "es", "Comprobar mi baza"), ("x.md:4", "es", "Borrar")]
    assert [(q.where, q.lang, q.text) for q in quotes_in("x.md", "en", lines)] == [
        ("x.md:3", "es", "Comprobar mi baza"), ("x.md:4", "es", "Borrar"), ("x.md:4", "en", "Every legal capture")]


def test_allow_list_entries_are_still_quoted_and_not_the_screen() -> None:
    """An allowed quote that the texts no longer hold, or that a catalog now says, leaves the list."""
    quoted = {(q.lang, q.text) for q in lesson_quotes() + guide_quotes()}
    for lang, allowed in NOT_THE_SCREEN.items():
        for text, reason in allowed.items():
            assert reason.strip(), f"{text!r} needs its reason"
            assert (lang, text) in quoted, f"{text!r} is quoted nowhere any more: take it out of NOT_THE_SCREEN"
            assert not catalogs()[lang].has(text), f"{text!r} is a catalog text: take it out of NOT_THE_SCREEN"


def test_lessons_quote_the_current_screen() -> None:
    found = stale(lesson_quotes())
    assert not found, "quotes of the screen that no catalog says:\n" + "\n".join(found)


def test_guides_quote_the_current_screen() -> None:
    found = stale(guide_quotes())
    assert not found, "quotes of the screen that no catalog says:\n" + "\n".join(found)


def test_a_planted_stale_quote_is_caught(tmp_path: Path) -> None:
    """A lesson copy quoting a button as it never was fails, naming the file, the line and the real words."""
    for part in ("lessons/source", str(LOCALE)):
        shutil.copytree(ROOT / part, tmp_path / part)
    source = tmp_path / "lessons/source/02-captures.md"
    text = source.read_text(encoding="utf-8")
    before = stale(lesson_quotes(tmp_path), tmp_path)
    assert "«Comprobar mi baza»" in text
    source.write_text(text.replace("«Comprobar mi baza»", "«Comprobar la baza»", 1), encoding="utf-8")
    line = 1 + text[:text.index("«Comprobar mi baza»")].count("\n")
    found = [f for f in stale(lesson_quotes(tmp_path), tmp_path) if f not in before]
    assert found == [f"lessons/source/02-captures.md:{line}: 'Comprobar la baza' is no es catalog text; "
                     f"nearest: 'Comprobar mi baza'"], found
