"""Printable worksheets: the drills of the course on paper, with a separate answer key.

``escoba-tutor worksheet --seed S --lang es`` writes one self-contained HTML page (no file, font or script
from elsewhere): ``count`` exercises of each kind of drill (find every capture, work out the setenta, who gets
each point, the leftover, the escoba de mano, which card to play, the escobas line, who wins the game) from the
same generators as the ``Drill`` widget (:mod:`escoba_tutor.exercises`), so exercise N on paper is exercise N in
the course, where a learner can check it. Then, after a page break when printed, the answer key, worked out by
the engine. Each kind writes its own part (its :class:`escoba_tutor.exercises.WorksheetPart`: its words, and
its markup as Jinja macros); this page puts them together (``templates/worksheet.html.j2``, rendered by
:mod:`escoba_tutor.exercises.paper`, every value escaped).

A page, not a widget: this module imports no widget library (the command starts fast, and prints without a
kernel). Its words are in the exercises' message catalog (``text/locale/<lang>/LC_MESSAGES/exercises.po``).

>>> page = worksheet_html(7, "en", count=1)
>>> page == worksheet_html(7, "en", count=1)               # the same seed, the same page
True
>>> page.index("Exercise no. 7") < page.index("class='answers'") < page.index("Answer key")
True
"""

from __future__ import annotations

from typing import Any

from ..engine.errors import EscobaError
from ..engine.rules import ESCOBA, VARIANTS, Rules, as_rules
from ..text.phrases import and_list
from ..text.translator import N_, N_plural, Translator
from . import paper
from .common import MAX_SEED
from .kinds.house_rules import house_rule_name
from .registry import kind, kinds_for, make_drill

__all__ = ["worksheet_html", "choose_seeds", "printed_task", "exercise_markup", "MAX_COUNT"]

MAX_COUNT = 20  # exercises of each kind
# How far past its first number a part looks for exercises whose answers differ (per exercise wanted).
_LOOK_AHEAD = 20


def _check(seed: object, lang: object, count: object) -> tuple[int, Translator, int]:
    if type(count) is not int or not 1 <= count <= MAX_COUNT:
        raise EscobaError(f"a worksheet has 1 to {MAX_COUNT} exercises of each kind, not {count!r}"[:100],
                          code="bad_count")
    if type(seed) is not int or not 0 <= seed <= MAX_SEED - count + 1:
        raise EscobaError(f"the seed must be from 0 to {MAX_SEED - count + 1} for {count} exercises, not {seed!r}"
                          [:120], code="bad_seed")
    return seed, Translator(str(lang)), count


def worksheet_html(seed: int, lang: str = "es", count: int = 3, rules: Rules | str = ESCOBA,
                   kinds: tuple[str, ...] | None = None) -> str:
    """The worksheet for ``seed`` (the first exercise number; each kind's numbers: :func:`choose_seeds`) in
    ``lang`` under ``rules``, as one HTML page: by default every kind of drill these rules have, in the order of
    the lessons that teach them (``kinds`` chooses some, in the order given). A part whose numbers skip says so.
    The same arguments always give the same page."""
    seed, _, count = _check(seed, lang, count)
    rules = as_rules(rules)
    available = kinds_for(rules)
    kinds = available if kinds is None else tuple(kinds)
    unknown = [k for k in kinds if k not in available]
    if unknown or not kinds:
        raise EscobaError(f"no worksheet part {str(unknown[:1])[:30]}: choose from {', '.join(available)}",
                          code="bad_kind")
    if len(kinds) > 1 and tuple(kinds) == available:  # every part: in the order of the lessons that teach them
        kinds = tuple(sorted(kinds, key=lambda name: kind(name).lesson))
    seeds = {name: choose_seeds(name, seed, count, rules) for name in kinds}
    drills = {name: [make_drill(name, s, rules) for s in seeds[name]] for name in kinds}

    title = _("Escoba: worksheet no. {seed}", seed=seed)
    parts = []
    for number, name in enumerate(kinds, 1):
        part = kind(name).worksheet
        macros = paper.part(part.template, _)
        profile = rules.name.split("+")[0]  # "scopa+sevens": Scopa with a house rule
        lesson, section = _PRACTICE.get((name, profile), _PRACTICE.get((name, ""), (0, "")))
        where = _("Check on screen: lesson {lesson}, “{section}”.", lesson=lesson,
                  section=paper.word(_, section)) if lesson else ""
        parts.append({"name": name, "heading": f"{number}. {paper.word(_, part.heading)}",
                      "intro": part.intro(_, rules), "where": where,
                      "tasks": [macros.task(drill, **part.task(_, drill)) for drill in drills[name]],
                      "answers": [macros.answer(drill, **part.answer(_, drill)) for drill in drills[name]]})
    # cards are shown with their codes ("11b"): where they are, the sheet says how to read them (in English, "c" is
    # cups and "b" clubs, not what an English speaker would guess)
    shows_codes = any('class="card"' in task for part in parts for task in part["tasks"])
    # numbers that skip would look like a missing page to a teacher: the key says why, once at its start, naming
    # the parts (not the pupil's sheet)
    skipping = [str(number) for number, name in enumerate(kinds, 1) if seeds[name] != list(range(seed, seed + count))]
    if len(kinds) == 1:
        skips = _("Some exercise numbers are skipped: those exercises were too similar to the ones shown.")
    else:
        skips = _.plural("In part {parts}, some exercise numbers are skipped: those exercises were too similar to "
                         "the ones shown.", "In parts {parts}, some exercise numbers are skipped: those exercises "
                         "were too similar to the ones shown.", len(skipping), parts=and_list(_, skipping))
    skips = skips if skipping else ""
    return paper.page("worksheet.html.j2", {
        "lang": _.lang, "title": title, "rules_line": _rules_line(_, rules, "house_rules" in kinds),
        "codes": _("Card codes: the number, then the first letter of the suit's Spanish name (o oros, coins; c copas, "
                   "cups; e espadas, swords; b bastos, clubs), so c is cups, not clubs. 10 is the jack, 11 the knight "
                   "and 12 the king.") if shows_codes else "",
        "name_label": _("Name:"), "date_label": _("Date:"),
        # (the sheet's own number is its first exercise's: the note says what an exercise's number is)
        "note": _("Exercise numbers are those of the on-screen practice, not the order on this sheet. Each part says "
                  "which practice it comes from: open it and type the number into its “Exercise” box to see the "
                  "same exercise and check your answer."),
        # every part starts at the sheet's number, so "no. 1777" is in each part; and a pupil who sees 1777, 1779,
        # 1788 would look for the missing ones
        "numbers": _("Each part has its own practice, so the same number can come up in several parts: when you "
                     "go through the answers aloud, say the part too (“part 3, no. {seed}”). Where numbers are "
                     "skipped, the exercises in between were too like the ones shown.", seed=seed)
        if len(parts) > 1 else "",
        "parts": parts, "key_title": _("Answer key"), "skips": skips,
        "key_note": _("Worked out by the escoba-tutor program, for worksheet no. {seed}.", seed=seed)})


def exercise_markup(name: str, seed: int, lang: str, rules: Rules | str = ESCOBA) -> dict[str, object]:
    """One exercise as its worksheet part shows it, for a page of its own (the class exercise on the projector):
    the part's heading and what to do (``heading``, ``intro``), the exercise (``task``) and its worked answer
    (``answer``), each an HTML list item (``<li>``, escaped markup).

    >>> shown = exercise_markup("captures", 3, "en")
    >>> str(shown["task"]).startswith("<li") and str(shown["answer"]).startswith("<li")
    True
    """
    _ = Translator(lang)
    rules = as_rules(rules)
    part = kind(name).worksheet
    drill = make_drill(name, seed, rules)
    macros = paper.part(part.template, _)
    return {"heading": paper.word(_, part.heading), "intro": part.intro(_, rules),
            "task": macros.task(drill, **part.task(_, drill)), "answer": macros.answer(drill, **part.answer(_, drill))}


def choose_seeds(name: str, seed: int, count: int, rules: Rules) -> list[int]:
    """The exercise numbers of a part: from ``seed`` on, each next exercise that keeps the part varied, so that
    its exercises cannot be answered by copying the first one:

    - never one that prints the same as one chosen before it (only its number differs);
    - for a kind whose answers take a few shapes (its part's ``variety``: "nothing", one capture, several), none
      of a shape it leaves out (not even at ``seed``, where the search starts), no more of a shape than its share
      (:meth:`escoba_tutor.exercises.kind.Variety.caps`), and a shape twice only when the places left still allow
      every shape once: a rare shape, like a card that takes nothing, at most once a part;
    - for a kind whose exercises often share one answer (its part's ``answers``), each exercise gives some
      question an answer not given yet (a side not named yet, another sum).

    Numbers are tried in order, a bounded number of them (below ``seed`` too when the numbers run out above
    it); if too few fit, the rules are eased, the rare shapes' last: the same arguments, the same numbers.

    >>> choose_seeds("captures", 41, 1, ESCOBA)
    [41]
    >>> seeds = choose_seeds("leftover", 41, 3, ESCOBA)
    >>> seeds[0], len(set(make_drill("leftover", s, ESCOBA).total for s in seeds)) > 1
    (41, True)
    """
    part = kind(name).worksheet
    answers, variety = part.answers, part.variety
    caps = variety.caps(count, rules) if variety is not None else {}
    chosen: list[int] = []
    printed: set[str] = set()
    given: list[set[object]] = []
    used: dict[str, int] = {}
    looked: list[tuple[int, str, str, tuple[object, ...]]] = []

    def fits(candidate: int, text: str, shape: str, said: tuple[object, ...], ease: int) -> bool:
        """Whether an exercise may join the part; ``ease`` 0: every rule, 1: its answers may repeat, 2: only
        the rare shapes keep their cap, 3: anything not chosen yet."""
        if candidate in chosen:
            return False
        if ease >= 3:
            return True
        if text in printed:  # the same exercise again under another number
            return False
        # a shape left out, even at the sheet's own number (the part then starts further on, as other parts'
        # numbers skip): a first exercise that teaches nothing is no better than a third
        if variety is not None and shape not in caps:
            return ease >= 2
        # (a left-out shape let in when too few fit takes the place of the rare shapes)
        left_out = sum(n for s, n in used.items() if s not in caps)
        once = variety.once if variety is not None else frozenset()
        rare = left_out if shape in once else 0
        if variety is not None and (ease < 2 or shape in once) and used.get(shape, 0) + rare >= caps[shape]:
            return False
        # a shape's second exercise only while the places left can still give every shape its first
        missing = sum(1 for s in caps if s != shape and not used.get(s) and not (left_out and s in once))
        if ease < 2 and used.get(shape) and count - len(chosen) - 1 < missing:
            return False
        return not (ease < 1 and said and chosen and all(value in seen for value, seen in zip(said, given)))

    def take(candidate: int, text: str, shape: str, said: tuple[object, ...]) -> None:
        chosen.append(candidate)
        printed.add(text)
        used[shape] = used.get(shape, 0) + 1
        given.extend(set() for _value in said[len(given):])
        for value, seen in zip(said, given):
            seen.add(value)

    for candidate in _candidates(seed, count):
        drill = make_drill(name, candidate, rules)
        entry = (candidate, printed_task(name, drill), variety.shape(drill) if variety is not None else "",
                 answers(drill) if answers is not None else ())
        looked.append(entry)
        if fits(*entry, ease=0):
            take(*entry)
            if len(chosen) == count:
                return sorted(chosen)
    # too few different exercises within reach: ease the rules one by one, in the same order
    for ease in (1, 2, 3):
        for entry in looked:
            if len(chosen) < count and fits(*entry, ease=ease):
                take(*entry)
    return sorted(chosen)


def _candidates(seed: int, count: int) -> list[int]:
    """The numbers a part may take, in the order tried: ``seed`` and the next ones, a bounded number; when the
    numbers end before that (near :data:`MAX_SEED`), the ones just below ``seed``, nearest first."""
    reach = _LOOK_AHEAD * count + 1
    above = list(range(seed, min(MAX_SEED, seed + reach - 1) + 1))
    return above + list(range(seed - 1, max(-1, seed - 1 - (reach - len(above))), -1))


def printed_task(name: str, drill: Any) -> str:
    """What a part prints for one exercise, in English, without its number: two exercises that print the same
    are the same exercise to the learner."""
    _ = Translator("en")
    part = kind(name).worksheet
    shown = str(paper.part(part.template, _).task(drill, **part.task(_, drill)))
    return shown.replace(_("Exercise no. {seed}.", seed=drill.seed), "")


# Where each kind is practised on screen: (kind, rules profile, or "" for any) -> (lesson, the section's heading).
# The numbers repeat from part to part, so each part says which practice its numbers belong to.
_PRACTICE = {
    ("captures", ""): (2, N_("Practice: find every capture")),
    ("captures", "scopa"): (7, N_("More practice: captures under Scopa rules")),
    ("escoba_de_mano", ""): (3, N_("Practice: the escoba de mano")),
    ("leftover", ""): (4, N_("Practice: the cards left")), ("dealing", ""): (4, N_("Practice: dealing and turns")),
    ("escobas", ""): (5, N_("Practice: the escobas line")), ("game_end", ""): (5, N_("Practice: who wins the game?")),
    ("setenta", ""): (5, N_("Practice: the setenta")), ("points", ""): (6, N_("Practice: who gets each point?")),
    ("house_rules", ""): (7, N_("Practice: what a house rule changes")),
    ("strategy", ""): (8, N_("Practice: which card would you play?")),
}


def _rules_line(_: Translator, rules: Rules, own_rules: bool = False) -> str:
    """The rules the sheet uses: the game by its name, and whether house rules apply, each named as lesson 7
    names it; an option that is no house rule (``target=31``) by its code, as the command line takes it."""
    changed = rules.name.split("+")[1:]
    if not changed:  # the house-rule part names a rule in each exercise: "no house rules" must not deny it
        return _(_STANDARD_BUT_ONE_PART[rules.profile] if own_rules else _STANDARD[rules.profile])
    named = [house_rule_name(_, part) if part in VARIANTS else part for part in changed]
    return _.plural(*_WITH_HOUSE_RULES[rules.profile], len(named), rules=and_list(_, named))


# The game's rules with none of the house rules, and with some, by profile.
_STANDARD = {"escoba": N_("Rules: standard Escoba, no house rules"),
             "scopa": N_("Rules: standard Scopa, no house rules")}
_STANDARD_BUT_ONE_PART = {
    "escoba": N_("Rules: standard Escoba, no house rules (except in the part on house rules, where each exercise "
                 "names its own)"),
    "scopa": N_("Rules: standard Scopa, no house rules (except in the part on house rules, where each exercise "
                "names its own)")}
_WITH_HOUSE_RULES = {"escoba": N_plural("Rules: Escoba with one house rule: {rules}",
                                        "Rules: Escoba with house rules: {rules}"),
                     "scopa": N_plural("Rules: Scopa with one house rule: {rules}",
                                       "Rules: Scopa with house rules: {rules}")}
