"""Printable worksheets: the drills of the course on paper, with a separate answer key.

``escoba-tutor worksheet --seed S --lang es`` writes one self-contained HTML page (no file, font or script
from elsewhere): ``count`` exercises of each kind of drill (find every capture, work out the setenta, who gets
each point, the leftover, the escoba de mano, which card to play, the escobas line, who wins the game) from the
same generators as the ``Drill`` widget (:mod:`escoba_tutor.exercises.drills`), so exercise N on paper is exercise N in
the course, where a learner can check it. Then, after a page break when printed, the answer key, worked out by
the engine.

A page, not a widget: this module imports no widget library (the command starts fast, and prints without a
kernel). Its words come from its own message catalogs (``locale/<lang>/LC_MESSAGES/worksheet.po``).

>>> page = worksheet_html(7, "en", count=1)
>>> page == worksheet_html(7, "en", count=1)               # the same seed, the same page
True
>>> page.index("Exercise no. 7") < page.index("class='answers'") < page.index("Answer key")
True
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from ..engine.cards import SUITS, Card
from ..engine.errors import EscobaError
from ..engine.game import Move
from ..engine.rules import ESCOBA, Rules, as_rules
from ..engine.scoring import ScoreLine, Setenta
from ..players.hints import Reason
from ..text.phrases import and_list, one_decimal
from ..text.translator import N_, Translator
from .drills import (
    MAX_SEED,
    CaptureDrill,
    EscobaDeManoDrill,
    EscobasDrill,
    GameEndDrill,
    LeftoverDrill,
    PointsDrill,
    SetentaDrill,
    StrategyDrill,
    kinds_for,
    make_drill,
)

__all__ = ["worksheet_html", "MAX_COUNT"]

MAX_COUNT = 20  # exercises of each kind

# Fixed colours and sizes, readable on screen and on paper; the answer key starts on a new page when printed.
_STYLE = """
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; color: #111; background: #fff; line-height: 1.45;
       max-width: 52em; margin: 1.5em auto; padding: 0 1em; }
h1 { font-size: 1.6em; margin: 0 0 .2em; }
h2 { font-size: 1.25em; border-bottom: 2px solid #333; padding-bottom: .15em; margin-top: 1.6em; }
.meta { margin: .2em 0; }
.fill { display: inline-block; min-width: 12em; border-bottom: 1px solid #333; }
.note { font-size: .92em; color: #333; }
ol.exercises > li { margin: 0 0 1.2em; break-inside: avoid; page-break-inside: avoid; }
.card { display: inline-block; border: 1px solid #444; border-radius: .3em; padding: 0 .35em; margin: .1em .15em;
        white-space: nowrap; background: #fffdf7; }
.card small { color: #444; }
.line { border-bottom: 1px solid #555; height: 1.7em; margin: .2em 0; }
table { border-collapse: collapse; margin: .4em 0; }
th, td { border: 1px solid #777; padding: .2em .5em; text-align: left; vertical-align: top; }
td.box { text-align: center; font-size: 1.1em; min-width: 4.5em; }
.answers h2:first-of-type { margin-top: .5em; }
.answers ol > li { margin-bottom: .8em; break-inside: avoid; page-break-inside: avoid; }
@media screen { .answers { margin-top: 3em; border-top: 4px double #333; padding-top: .5em; } }
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 11pt; }
  .answers { break-before: page; page-break-before: always; }
  h2 { break-after: avoid; page-break-after: avoid; }
}
"""


def _check(seed: object, lang: object, count: object) -> tuple[int, Translator, int]:
    if type(count) is not int or not 1 <= count <= MAX_COUNT:
        raise EscobaError(f"a worksheet has 1 to {MAX_COUNT} exercises of each kind, not {count!r}"[:100],
                          code="bad_count")
    if type(seed) is not int or not 0 <= seed <= MAX_SEED - count + 1:
        raise EscobaError(f"the seed must be from 0 to {MAX_SEED - count + 1} for {count} exercises, not {seed!r}"
                          [:120], code="bad_seed")
    return seed, Translator(str(lang)), count


# ----------------------------------------------------------------------------------- words of this page
# The scoring items and the reasons of a score line, in this page's own words (a page has its own catalog).
_ITEMS = {
    "escobas": N_("Escobas"), "cards": N_("Most cards"), "cards_bonus": N_("Cards bonus"), "oros": N_("Most coins"),
    "siete_de_oros": N_("The seven of coins"), "setenta": N_("Setenta"), "primera": N_("Primera (by suits)"),
    "sevens": N_("Most sevens"), "all_sevens": N_("All four sevens"), "figuras": N_("Most face cards"),
}
_MOST = {"cards": N_("{winner} has more cards ({values})"), "oros": N_("{winner} has more coins ({values})"),
         "setenta": N_("{winner} has the better setenta ({values})"),
         "primera": N_("{winner} has the better primera ({values})"),
         "sevens": N_("{winner} has more sevens ({values})"),
         "figuras": N_("{winner} has more face cards ({values})")}
_REASONS = {
    "count": N_("one point for each escoba"), "more_suits": N_("{winner} holds more suits ({values})"),
    "tie": N_("nobody: a tie ({values})"), "tie_both_score": N_("a tie ({values}): one point each for {winner}"),
    "third_side": N_("a tie on top ({values}): the point goes to {winner}"),
    "holds": N_("{winner} holds the seven of coins"), "nobody_holds": N_("nobody holds it"),
    "all_invalid": N_("nobody: no side has a card of every suit"),
    "all_oros": N_("{winner} has all ten coins: 2 points"),
    "others_below_10": N_("{winner} has the most cards and the other side fewer than 10: one more point"),
    "all_four": N_("{winner} has all four sevens"),
}
# Why the expert plays a move (escoba_tutor.players.hints' reason codes), for the strategy key.
_MOVE_REASONS = {
    "escoba": N_("it sweeps the table: an escoba"),
    "takes_siete_de_oros": N_("it takes the seven of coins"),
    "leaves_sweepable": N_("it leaves {total} on the table, which a card still unseen can sweep"),
    "lays_siete_de_oros": N_("it leaves the seven of coins on the table, for the other side to take"),
    "takes_sevens": N_("it takes sevens, good for the setenta"),
    "takes_oros": N_("it takes coins"),
    "takes_cards": N_("it adds cards to your pile"),
    "leaves_unsweepable": N_("it leaves {total} on the table, which no card can sweep"),
    "lays_card": N_("it lays a card down without risk"),
}


# The reasons that tell what is wrong with a move (the others say what it does, good or not).
_RISKS = ("leaves_sweepable", "lays_siete_de_oros")


def _word(_: Translator, message: str, **params: object) -> str:
    """A message chosen at run time from ids marked with ``N_`` (the extractor only reads literal ids)."""
    return _(message, **params)


def _names(_: Translator, sides: int) -> list[str]:
    return [_("Side {n}", n=i + 1) for i in range(sides)]


def _join(_: Translator, words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    first, last = ", ".join(words[:-1]), words[-1]
    return _("{first} and {last}", first=first, last=last)


def _sum(_: Translator, card: Card, taken, rules: Rules) -> str:
    """``3 + 1 + 4 + 7 = 15``, a face card with its value: ``jack (8)``; Scopa adds the taken cards only."""
    def term(c: Card) -> str:
        return _("{figure} ({value})", figure=_.rank_name(c.rank), value=c.value) if c.is_figure else str(c.value)

    shown = (card, *taken) if rules.capture == "fifteen" else tuple(taken)
    return " + ".join(term(c) for c in shown) + f" = {sum(c.value for c in shown)}"


def _setenta(_: Translator, value: Setenta) -> str:
    if value.total is not None:
        return _("setenta {total}", total=value.total)
    return _("invalid: no {suits}", suits=_join(_, [_.suit_name(s) for s in value.missing]))


def _line_value(_: Translator, line: ScoreLine, side: int) -> str:
    value = line.values[side]
    if line.item == "siete_de_oros":
        return _("yes") if value else _("no")
    if isinstance(value, Setenta):
        if line.item == "primera":
            return _.plural("{n} suit, {total}", "{n} suits, {total}", value.suit_count, total=value.sum)
        return str(value.total) if value.total is not None else _("invalid")
    return str(value)


def _reason(_: Translator, line: ScoreLine, names: list[str]) -> str:
    winner = _join(_, [names[i] for i in line.winners])
    values = " – ".join(_line_value(_, line, i) for i in range(len(line.values)))
    if line.reason == "most" and line.item in _MOST:
        return _word(_, _MOST[line.item], winner=winner, values=values)
    if line.reason in _REASONS:
        return _word(_, _REASONS[line.reason], winner=winner, values=values)
    return line.reason


def _item(_: Translator, item: str) -> str:
    return _word(_, _ITEMS[item]) if item in _ITEMS else item.replace("_", " ")


def _card(_: Translator, card: Card) -> str:
    return f'<span class="card">{escape(_.card_name(card))} <small>{escape(card.code)}</small></span>'


def _names_of(_: Translator, cards) -> str:
    """Cards by name, as a list in the language: «siete de oros, as de copas y rey de bastos» (no codes)."""
    return and_list(_, [_.card_name(c) for c in cards])


def _cards(_: Translator, cards) -> str:
    return " ".join(_card(_, c) for c in cards) or escape(_("nothing"))


def _rank(_: Translator, card: Card) -> str:
    return _.rank_name(card.rank) if card.is_figure else str(card.rank)


def _by_suit(_: Translator, piles, names: list[str], escobas=None) -> str:
    """The piles as a table: one row per suit (the ranks held), then the number of cards (and escobas)."""
    head = "".join(f'<th scope="col">{escape(n)}</th>' for n in names)
    rows = [f'<tr><th scope="col"></th>{head}</tr>']
    for suit in SUITS:
        cells = []
        for pile in piles:
            ranks = [_rank(_, c) for c in pile if c.suit is suit]
            cells.append(f"<td>{escape(', '.join(ranks)) if ranks else '—'}</td>")
        rows.append(f'<tr><th scope="row">{escape(_.suit_name(suit))}</th>{"".join(cells)}</tr>')
    # Text first, then markup: a _() call inside an f-string is not seen by the catalog extractor.
    counts, cards_label = "".join(f"<td>{len(p)}</td>" for p in piles), _("Cards in the pile")
    rows.append(f'<tr><th scope="row">{escape(cards_label)}</th>{counts}</tr>')
    if escobas is not None:
        marks, escobas_label = "".join(f"<td>{n}</td>" for n in escobas), _("Escobas made")
        rows.append(f'<tr><th scope="row">{escape(escobas_label)}</th>{marks}</tr>')
    return f"<table>{''.join(rows)}</table>"


def _the(_: Translator, card: Card) -> str:
    """A card's name with its article: «el rey de bastos», «la sota de espadas» (the sota is the one feminine
    name), "the king of clubs"."""
    if card.rank == 10:
        return _("the {jack}", jack=_.card_name(card))
    return _("the {card}", card=_.card_name(card))


def _the_cards(_: Translator, cards) -> str:
    return _join(_, [_the(_, c) for c in cards])


def _play_text(_: Translator, names: list[str], side: int, card: Card, taken) -> str:
    if taken:
        return _("{side} plays {card} and takes {taken}.", side=names[side], card=_the(_, card),
                 taken=_the_cards(_, taken))
    return _("{side} plays {card}: it stays on the table.", side=names[side], card=_the(_, card))


def _boxes(_: Translator, rows: list[str], columns: list[str]) -> str:
    """A table to tick: one row per question, one box per choice."""
    head = "".join(f'<th scope="col">{escape(c)}</th>' for c in columns)
    body = "".join(f'<tr><th scope="row">{escape(r)}</th>' + "<td class='box'>☐</td>" * len(columns) + "</tr>"
                   for r in rows)
    return f"<table><tr><th scope='col'></th>{head}</tr>{body}</table>"


def _blank(label: str) -> str:
    return f"<p>{escape(label)} <span class='fill'></span></p>"


def _number(_: Translator, drill) -> str:
    number = _("Exercise no. {seed}.", seed=drill.seed)
    return f"<b>{escape(number)}</b>"


def _key_number(_: Translator, drill) -> str:
    number = _("Exercise no. {seed}:", seed=drill.seed)
    return f"<b>{escape(number)}</b>"


def _move_text(_: Translator, move: Move) -> str:
    card, taken = move
    if taken:
        return _("{card}, taking {taken}", card=_the(_, card), taken=_the_cards(_, sorted(taken)))
    return _("{card}, laid down on the table", card=_the(_, card))


def _move_reason(_: Translator, reason: Reason) -> str:
    return _word(_, _MOVE_REASONS[reason.code], total=reason.total)


# ------------------------------------------------------------------------------------------------ exercises
def _capture_task(_: Translator, drill: CaptureDrill) -> str:
    you_play, table = _("You play:"), _("On the table:")
    return (f"<li><p>{_number(_, drill)} {escape(you_play)} {_card(_, drill.card)}</p>"
            f"<p>{escape(table)} {_cards(_, drill.table)}</p><div class='line'></div><div class='line'></div></li>")


def _setenta_task(_: Translator, drill: SetentaDrill) -> str:
    names = _names(_, len(drill.piles))
    blanks = "".join(_blank(_("Setenta of {side}:", side=name)) for name in names)
    return f"<li><p>{_number(_, drill)}</p>{_by_suit(_, drill.piles, names)}{blanks}</li>"


def _points_task(_: Translator, drill: PointsDrill) -> str:
    names = _names(_, len(drill.piles))
    choose, nobody = _("Tick who gets each point:"), _("Nobody")
    return (f"<li><p>{_number(_, drill)}</p>{_by_suit(_, drill.piles, names, drill.escobas)}"
            f"<p>{escape(choose)}</p>{_boxes(_, [_item(_, i) for i in drill.items], [*names, nobody])}</li>")


def _leftover_task(_: Translator, drill: LeftoverDrill) -> str:
    names = _names(_, 2)
    plays = "".join(f"<li>{escape(_play_text(_, names, *play))}</li>" for play in drill.plays)
    last, left = _("The last plays of the deal:"), _("Left on the table at the end:")
    parts = [f"<li><p>{_number(_, drill)} {escape(last)}</p><ol>{plays}</ol>",
             f"<p>{escape(left)} {_cards(_, drill.table)}</p>",
             _boxes(_, [_("Who takes the cards left?")], [*names, _("Nobody")])]
    if "total" in drill.items:
        parts.append(_blank(_("What they add up to:")))
        parts.append(_boxes(_, [_("Does the deal check out?")], [_("Yes"), _("No")]))
    return "".join(parts) + "</li>"


def _mano_sides(_: Translator, drill: EscobaDeManoDrill) -> list[str]:
    """The sides: "Side 1" and "Side 2", or in a game of four "Team 1" and "Team 2"."""
    return [_("Team {n}", n=n) for n in (1, 2)] if drill.players == 4 else _names(_, 2)


def _escoba_de_mano_task(_: Translator, drill: EscobaDeManoDrill) -> str:
    names = _mano_sides(_, drill)
    if drill.players == 4:
        teams = _("A game of four, in teams of two: {first} (players 1 and 3) against {second} (players 2 and 4).",
                  first=names[0], second=names[1])
        dealt = teams + " " + _("Player {player} deals. The four cards face up on the table:", player=drill.dealer + 1)
    else:
        dealt = _("{dealer} deals. The four cards face up on the table:", dealer=names[drill.dealer])
    how_many, who, nobody = _("Escobas de mano (0, 1 or 2):"), _("Who scores them?"), _("Nobody")
    return (f"<li><p>{_number(_, drill)} {escape(dealt)} {_cards(_, drill.table)}</p>"
            f"{_blank(how_many)}{_boxes(_, [who], [*names, nobody])}</li>")


def _strategy_task(_: Translator, drill: StrategyDrill) -> str:
    hand, table, mine = _("Your hand:"), _("On the table:"), _("The card I would play, and why:")
    return (f"<li><p>{_number(_, drill)} {escape(hand)} {_cards(_, drill.hand)}</p>"
            f"<p>{escape(table)} {_cards(_, drill.table)}</p>{_blank(mine)}<div class='line'></div></li>")


def _escobas_task(_: Translator, drill: EscobasDrill) -> str:
    names = _names(_, 2)
    head = "".join(f'<th scope="col">{escape(h)}</th>' for h in (_("Who"), _("Table before"), _("Plays"),
                                                                _("Takes")))
    rows = []
    for what, side, before, card, taken in drill.captures:
        played = (_.card_name(card) if card is not None else _("the cards dealt") if what == "escoba_de_mano"
                  else _("the cards left, at the end"))
        rows.append(f"<tr><td>{escape(names[side])}</td><td>{escape(_names_of(_, before))}</td>"
                    f"<td>{escape(played)}</td><td>{escape(_names_of(_, taken))}</td></tr>")
    dealt = _("{dealer} deals. Every capture of the deal, in order:", dealer=names[drill.record.dealer % 2])
    blanks = "".join(_blank(_("Escobas of {side}:", side=name)) for name in names)
    return (f"<li><p>{_number(_, drill)} {escape(dealt)}</p><table><tr>{head}</tr>{''.join(rows)}</table>"
            f"{blanks}</li>")


def _game_end_task(_: Translator, drill: GameEndDrill) -> str:
    names = _names(_, 2)
    head = "".join(f'<th scope="col">{escape(n)}</th>' for n in names)
    before, points = _("Points before the last deal"), _("Points of the last deal")
    rows = (f"<tr><th scope='row'>{escape(before)}</th>" + "".join(f"<td>{n}</td>" for n in drill.before) + "</tr>"
            f"<tr><th scope='row'>{escape(points)}</th>" + "".join(f"<td>{n}</td>" for n in drill.points) + "</tr>")
    goal = _("The game is played to {target} points.", target=drill.target)
    question, another = _("Who has won?"), _("Nobody yet: another deal")
    return (f"<li><p>{_number(_, drill)} {escape(goal)}</p><table><tr><th scope='col'></th>{head}</tr>{rows}</table>"
            f"{_boxes(_, [question], [*names, another])}</li>")


# -------------------------------------------------------------------------------------------------- answers
def _capture_answer(_: Translator, drill: CaptureDrill) -> str:
    if not drill.answer:
        said = _("{card} takes nothing: it stays on the table.", card=_the(_, drill.card))
        return f"<li>{_key_number(_, drill)} {escape(said)}</li>"
    lines = []
    for capture in drill.answer:
        taken = tuple(sorted(capture))
        said = _("{card} takes {taken}", card=_the(_, drill.card), taken=and_list(_, [_the(_, c) for c in taken]))
        text = f"{said[:1].upper() + said[1:]}: {_sum(_, drill.card, taken, drill.rules)}"
        if len(taken) == len(drill.table):
            text += " — " + _("escoba!")
        lines.append(f"<li>{escape(text)}</li>")
    found = _.plural("{n} capture:", "{n} captures:", len(drill.answer))
    return f"<li>{_key_number(_, drill)} {escape(found)}<ul>{''.join(lines)}</ul></li>"


def _setenta_answer(_: Translator, drill: SetentaDrill) -> str:
    lines = []
    for name, value in zip(_names(_, len(drill.piles)), drill.answers):
        best = [_("{suit}: {card} ({value})", suit=_.suit_name(b.suit), card=_.card_name(b.card), value=b.value)
                for b in value.best if b.card is not None]
        lines.append(f"<li>{escape(name)}: {escape('; '.join(best))} → <b>{escape(_setenta(_, value))}</b></li>")
    return f"<li>{_key_number(_, drill)}<ul>{''.join(lines)}</ul></li>"


def _points_answer(_: Translator, drill: PointsDrill) -> str:
    names = _names(_, len(drill.piles))
    lines = []
    for item in drill.items:
        winners = drill.expected(item)
        who = _join(_, [names[i] for i in winners]) if winners else _("Nobody")
        try:
            why = _reason(_, drill.answer.line(item), names)
        except KeyError:  # a bonus line is reported only when someone earns it
            why = _("nobody earns it this time")
        lines.append(f"<li><b>{escape(_item(_, item))}</b>: {escape(who)} — {escape(why)}</li>")
    totals = "; ".join(f"{name}: {points}" for name, points in zip(names, drill.answer.points))
    total = _("Points of the deal, escobas included: {totals}.", totals=totals)
    return f"<li>{_key_number(_, drill)}<ul>{''.join(lines)}</ul><p>{escape(total)}</p></li>"


def _leftover_answer(_: Translator, drill: LeftoverDrill) -> str:
    names = _names(_, 2)
    if drill.taker is None:
        who = _("Nobody: nobody captured in the whole deal.")
    else:
        who = _("{side}, the last side to capture.", side=names[drill.taker])
    lines = [who]
    if drill.total is not None:
        rest = drill.total % 15
        lines.append(_("They add up to {total} = 15 × {times} + {rest}.", total=drill.total, times=drill.total // 15,
                       rest=rest))
        lines.append(_("It checks out: 15 × something + 10.") if drill.checks_out else
                     _("It does not check out (it should be 15 × something + 10): a mistake was made in the deal."))
    return f"<li>{_key_number(_, drill)} {escape(' '.join(lines))}</li>"


def _escoba_de_mano_answer(_: Translator, drill: EscobaDeManoDrill) -> str:
    names = _mano_sides(_, drill)
    total = " + ".join(str(c.value) for c in drill.table) + f" = {drill.total}"
    if drill.escobas and drill.players == 4:
        said = _.plural("{total}: {n} escoba de mano for {side}, the team of player {player}, who dealt.",
                        "{total}: {n} escobas de mano for {side}, the team of player {player}, who dealt.",
                        drill.escobas, total=total, side=names[drill.dealer_side], player=drill.dealer + 1)
    elif drill.escobas:
        said = _.plural("{total}: {n} escoba de mano for {side}, who dealt.",
                        "{total}: {n} escobas de mano for {side}, who dealt.", drill.escobas, total=total,
                        side=names[drill.dealer])
    else:
        said = _("{total}: no escoba de mano; the cards stay on the table.", total=total)
    return f"<li>{_key_number(_, drill)} {escape(said)}</li>"


def _strategy_answer(_: Translator, drill: StrategyDrill) -> str:
    lines = []
    for hint in drill.good:
        move = _move_text(_, hint.move)
        lines.append(f"<li>{escape(move[:1].upper() + move[1:])}: {escape(_move_reason(_, hint.reason))}</li>")
    worst = drill.ranking[-1]
    loss = one_decimal(_, worst.loss)
    if worst.reason.code in _RISKS:  # the reason says what is wrong with the move
        avoid = _("Avoid {move}: {why} (about {loss} points worse).", move=_move_text(_, worst.move),
                  why=_move_reason(_, worst.reason), loss=loss)
    else:
        avoid = _("Avoid {move}: about {loss} points worse.", move=_move_text(_, worst.move), loss=loss)
    good = _("Good moves:")
    return f"<li>{_key_number(_, drill)} {escape(good)}<ul>{''.join(lines)}</ul><p>{escape(avoid)}</p></li>"


def _escobas_answer(_: Translator, drill: EscobasDrill) -> str:
    names = _names(_, 2)
    said = "; ".join(f"{name}: {n}" for name, n in zip(names, drill.escobas))
    note = _("The cards left, taken at the end, are never an escoba.")
    return f"<li>{_key_number(_, drill)} {escape(said)}. {escape(note)}</li>"


def _game_end_answer(_: Translator, drill: GameEndDrill) -> str:
    names = _names(_, 2)
    totals = " – ".join(str(t) for t in drill.totals)
    if drill.winner is not None:
        said = _("{totals}: {side} wins.", totals=totals, side=names[drill.winner])
    elif max(drill.totals) >= drill.target:
        said = _("{totals}: a tie on top, so another deal is played.", totals=totals)
    else:
        said = _("{totals}: nobody has reached {target} yet: another deal.", totals=totals, target=drill.target)
    return f"<li>{_key_number(_, drill)} {escape(said)}</li>"


# ------------------------------------------------------------------------------------------------------ page
# kind -> (heading, what to do, exercise, answer); the headings are numbered on the page. "What to do" is None
# where it depends on the rules (see _captures_text).
_PARTS: dict[str, tuple[str, str | None, Callable[[Translator, Any], str], Callable[[Translator, Any], str]]] = {
    "captures": (N_("Find every capture"), None, _capture_task, _capture_answer),
    "setenta": (N_("Work out the setenta"),
                N_("For each side: the best card of each suit (7 = 21, 6 = 18, ace = 16, 5 = 15, 4 = 14, 3 = 13, "
                   "2 = 12, jack, knight and king = 10), then the sum of the four. Write “invalid” if a suit is "
                   "missing."), _setenta_task, _setenta_answer),
    "points": (N_("Who gets each point?"),
               N_("The piles of a real deal, by suit. For each point, tick the side that gets it, or “Nobody” for "
                  "a tie."), _points_task, _points_answer),
    "leftover": (N_("The cards left at the end"),
                 N_("The cards left on the table at the end of the deal go to the last side that captured. Under "
                    "the Escoba rule they always add up to 10, 25, 40, 55…: if not, somebody made a mistake."),
                 _leftover_task, _leftover_answer),
    "escoba_de_mano": (N_("The escoba de mano"),
                       N_("If the four cards dealt face up add up to 15, the dealer takes them: one escoba; if "
                          "they add up to 30, two."), _escoba_de_mano_task, _escoba_de_mano_answer),
    "strategy": (N_("Which card would you play?"),
                 N_("Choose the card you would play (and what it takes), and say why."),
                 _strategy_task, _strategy_answer),
    "escobas": (N_("The escobas line"),
                N_("A whole deal, play by play: count each side's escobas for the score sheet."),
                _escobas_task, _escobas_answer),
    "game_end": (N_("Who wins the game?"),
                 N_("Add the last deal's points first, then look at the target."), _game_end_task, _game_end_answer),
}


def _captures_text(_: Translator, rules: Rules) -> str:
    if rules.capture == "fifteen":
        return _("Write every capture the card you play can make: the table cards that add up to 15 with it. If it "
                 "can make none, write “nothing”.")
    return _("Write every capture the card you play can make: the table cards that add up to its own value (an "
             "equal card must be taken alone). If it can make none, write “nothing”.")


def _escoba_de_mano_text(_: Translator, rules: Rules) -> str:
    if rules.escoba_de_mano == "15/20":
        said = _("If the four cards dealt face up add up to 15, the dealer takes them: one escoba; if they add up "
                 "to 20, two.")
    else:
        said = _word(_, _PARTS["escoba_de_mano"][1] or "")
    return said + " " + _("In a game of four, the escobas go to the dealer's team.")


def worksheet_html(seed: int, lang: str = "es", count: int = 3, rules: Rules | str = ESCOBA,
                   kinds: tuple[str, ...] | None = None) -> str:
    """The worksheet for ``seed`` (the first exercise number; each kind uses ``seed`` to ``seed + count - 1``)
    in ``lang`` under ``rules``, as one HTML page: by default every kind of drill these rules have (``kinds``
    chooses some). The same arguments always give the same page."""
    seed, _, count = _check(seed, lang, count)
    rules = as_rules(rules)
    available = kinds_for(rules)
    kinds = available if kinds is None else tuple(kinds)
    unknown = [k for k in kinds if k not in available]
    if unknown or not kinds:
        raise EscobaError(f"no worksheet part {str(unknown[:1])[:30]}: choose from {', '.join(available)}",
                          code="bad_kind")
    drills = {kind: [make_drill(kind, s, rules) for s in range(seed, seed + count)] for kind in kinds}

    title = _("Escoba: worksheet no. {seed}", seed=seed)
    rules_line = _("Rules: {rules}", rules=rules.name)
    name_label, date_label = _("Name:"), _("Date:")
    note = _("Each exercise has a number: the practice exercises of the course show the same exercise with that "
             "number, and check your answer.")
    html = [f'<!DOCTYPE html>\n<html lang="{_.lang}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n<header>"
            f"<h1>{escape(title)}</h1><p class='meta'>{escape(rules_line)}</p>"
            f"<p class='meta'>{escape(name_label)} <span class='fill'></span> {escape(date_label)} "
            f"<span class='fill'></span></p><p class='note'>{escape(note)}</p></header>\n<main>"]
    headings = {}
    for number, kind in enumerate(kinds, 1):
        heading, text, task, _answer = _PARTS[kind]
        headings[kind] = f"{number}. {_word(_, heading)}"
        said = (_captures_text(_, rules) if kind == "captures" else _escoba_de_mano_text(_, rules)
                if kind == "escoba_de_mano" else _word(_, text or ""))
        tasks = "".join(task(_, d) for d in drills[kind])
        html.append(f"<section class='part' id='{kind}'><h2>{escape(headings[kind])}</h2><p>{escape(said)}</p>"
                    f"<ol class='exercises'>{tasks}</ol></section>\n")
    html.append("</main>\n")
    key_title = _("Answer key")
    key_note = _("Worked out by the escoba-tutor engine, for worksheet no. {seed}.", seed=seed)
    html.append(f"<section class='answers'><h1>{escape(key_title)}</h1><p class='note'>{escape(key_note)}</p>")
    for kind in kinds:
        answers = "".join(_PARTS[kind][3](_, d) for d in drills[kind])
        html.append(f"<h2>{escape(headings[kind])}</h2><ol>{answers}</ol>")
    html.append("</section>\n</body>\n</html>\n")
    return "".join(html)

