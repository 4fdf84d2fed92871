"""What the engine works out, said in sentences: the results a lesson shows under "Check it with the engine",
in the learner's language and with cards in words, never as raw Python output (a list, a tuple, a bare number).

Each fact is a function of a translator and the fact's data that returns its lines; :func:`fact_lines` picks one
by name (``widgets.page.show_engine`` puts the lines on the page).

>>> from escoba_tutor.text.translator import Translator
>>> fact_lines(Translator("es"), "setenta", pile="7o 3o 6c 12c 1e 10e 5b 12b", name="Ana")
['La setenta de Ana: 21 (el siete de oros) + 18 (el seis de copas) + 16 (el as de espadas) + 15 (el cinco de \
bastos) = 70.']
>>> fact_lines(Translator("en"), "captures", card="5o", table="2c 3e 10b 12c")
['The five of coins can make 2 captures: the king of cups, or the two of cups and the jack of clubs.']
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine.captures import legal_captures
from ..engine.cards import DECK, as_cards
from ..engine.errors import EscobaError
from ..engine.game import Game
from ..engine.rules import ESCOBA, Rules, as_rules
from ..engine.scoring import setenta
from ..text import labels
from ..text.phrases import alternatives, and_list, listed, sentence_start
from ..text.translator import N_, Translator
from .score_sheet import side_names

__all__ = ["FACTS", "fact_lines", "YOU_FORMS"]

_RULES_NAMES = {"escoba": N_("With the rules of Escoba"), "scopa": N_("With the rules of Scopa")}


def card_values(_: Translator, cards: str) -> list[str]:
    """The capture value of each card given, and the sum of the whole deck."""
    shown = as_cards(cards)
    values = and_list(_, [str(c.value) for c in shown])
    return [_("What each card is worth, from {first} to {last}: {values}.", first=_.the_card(shown[0]),
              last=_.the_card(shown[-1]), values=values),
            _("The {n} cards of the pack add up to {total}.", n=len(DECK), total=sum(c.value for c in DECK))]


def captures(_: Translator, card: str, table: str, profiles: tuple[str, ...] | str = "escoba") -> list[str]:
    """Every legal capture of ``card`` on ``table``, under one set of rules or several (one line each, named)."""
    names = (profiles,) if isinstance(profiles, str) else tuple(profiles)
    lines = []
    for name in names:
        found = legal_captures(card, table, as_rules(name))
        the_card = _.the_card(card)
        if len(names) > 1:  # the sentence goes on after "With the rules of Escoba, ": the card in lower case
            if found:
                said = _.plural("{card} can make {n} capture: {captures}.", "{card} can make {n} captures: {captures}.",
                                len(found), card=the_card, captures=alternatives(_, found))
            else:
                said = _("{card} can make no capture: it stays on the table.", card=the_card)
            said = _("{rules}, {said}", rules=_(_RULES_NAMES.get(name, name)), said=said)
        elif found:
            said = _.plural("{card:The} can make {n} capture: {captures}.",
                            "{card:The} can make {n} captures: {captures}.", len(found), card=the_card,
                            captures=alternatives(_, found))
        else:
            said = _("{card:The} can make no capture: it stays on the table.", card=the_card)
        lines.append(sentence_start(said))
    return lines


def dealt_escobas(_: Translator, game: int, players: int = 2) -> list[str]:
    """Each side's escobas right after the first deal of game ``game``: the dealer's escobas de mano."""
    dealt = Game(players=players, seed=game)
    names = side_names(_, None, len(dealt.escobas))
    dealer_side = dealt.side_of[dealt.dealer]
    lines = [_("Game no. {game}, right after the deal:", game=game)]
    for side, (name, escobas) in enumerate(zip(names, dealt.escobas)):
        count = _.plural("{n} escoba", "{n} escobas", escobas)
        lines.append(_("{side} (the dealer's side): {count}.", side=name, count=count) if side == dealer_side
                     else _("{side}: {count}.", side=name, count=count))
    return lines


def leftover_check(_: Translator, cards: str) -> list[str]:
    """The 15 check of the cards left at the end of a deal: how many times 15 goes into their sum, and the rest."""
    left = as_cards(cards)
    total = sum(c.value for c in left)
    times, rest = divmod(total, 15)
    lines = [_("Left on the table: {cards}.", cards=and_list(_, [_.the_card(c) for c in left])),
             _("They add up to {total} = 15 × {times} + {rest}.", total=total, times=times, rest=rest)]
    lines.append(_("10 is left over: the deal checks out.") if rest == 10 else
                 _("{n} is left over, not 10: something went wrong in the deal (a capture that did not make 15, "
                   "or a card missing or counted twice).", n=rest))
    return lines


_INVALID = N_("{whose:The}'s setenta is not valid: it is missing {suits}.")
_VALID = N_("{whose:The}'s setenta: {terms} = {total}.")
#: The sentences about a pile, each beside its form for the student's own pile ("You's setenta", «de ti» are wrong).
YOU_FORMS = {_INVALID: N_("Your setenta is not valid: you are missing {suits}."),
             _VALID: N_("Your setenta: {terms} = {total}.")}


def _said_of(message: str, you: bool) -> str:
    return YOU_FORMS[message] if you else message


def setenta_sum(_: Translator, pile: str, name: str = "", rules: Rules | str = ESCOBA) -> list[str]:
    """A pile's setenta: the best card of each suit with its value, and the sum (or why it is not valid)."""
    result = setenta(pile, as_rules(rules))
    # a label with its forms («la setenta de Ana», «del bando 2»); the student's own setenta is "your setenta"
    whose = name if isinstance(name, labels.Label) else labels.named(_, name or _("this pile"))
    you = whose.is_you
    if result.total is None:
        missing = listed(_, [_.suit_name(s) for s in result.missing])  # ("no cups or clubs": {suits:or})
        return [_(_said_of(_INVALID, you), whose=whose, suits=missing)]
    # a valid setenta has a card of every suit
    terms = " + ".join(_("{value} ({card})", value=b.value, card=_.the_card(b.card)) for b in result.best
                       if b.card is not None)
    return [_(_said_of(_VALID, you), whose=whose, terms=terms, total=result.total)]


#: fact name -> the function that says it.
FACTS: dict[str, Callable[..., list[str]]] = {
    "card_values": card_values, "captures": captures, "dealt_escobas": dealt_escobas,
    "leftover_check": leftover_check, "setenta": setenta_sum}


def fact_lines(_: Translator, fact: str, **details) -> list[str]:
    """The lines of one fact (see :data:`FACTS`); an unknown fact is refused with the list of known ones."""
    if fact not in FACTS:
        raise EscobaError(f"no engine fact is called {str(fact)[:20]!r}: choose one of {', '.join(FACTS)}",
                          code="bad_kind")
    return FACTS[fact](_, **details)
