"""A seat's view at a table where students play each other, as JSON and back: the engine's view for that seat.

The course server tells a student's kernel its own seat's view only (escoba_tutor/server/tables.py,
``view_json``). Two things on the page need the engine's own objects from it: a hint, which the expert works out
from the player's view (:func:`player_view`), and the review of a finished deal, which replays that deal
(:func:`finished_deal`). Both are built here from what the view holds, and from nothing else: the seat's own hand,
the table, the piles, and the public events of the deal under way and of the last deal finished (``history``:
each play, seen by every player as it was made, and the table dealt). Once a deal is over, its plays say every
hand it dealt (each card is played in the round it was dealt), so replaying it shows nobody anything they did not
see; the deal under way is never replayed.

Standard library and the engine only: a student's kernel loads this.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..engine.cards import Card, parse_card
from ..engine.errors import EscobaError
from ..engine.game import SIDES, DealStarted, EscobaDeMano, Event, Game, Play, PlayerView, deal_deck
from ..engine.moves import Move
from ..engine.rules import rules_by_name

__all__ = ["events_json", "events_from_json", "player_view", "finished_deal"]


def _codes(cards: Iterable[Card]) -> list[str]:
    return [card.code for card in cards]


def events_json(history: tuple[Event, ...], since_deal: int) -> list[dict[str, Any]]:
    """The public events of deals ``since_deal`` and after that a review or a hint needs: each deal's table as
    dealt, the dealer's escoba de mano, and every play (all seen by every player)."""
    said: list[dict[str, Any]] = []
    for event in history:
        if getattr(event, "deal", -1) < since_deal:
            continue
        if type(event) is DealStarted:
            said.append({"kind": "deal_started", "deal": event.deal, "dealer": event.dealer, "mano": event.mano,
                         "table": _codes(event.table)})
        elif type(event) is EscobaDeMano:
            said.append({"kind": "escoba_de_mano", "deal": event.deal, "player": event.player, "side": event.side,
                         "cards": _codes(event.cards), "escobas": event.escobas, "pairs": event.pairs})
        elif type(event) is Play:
            said.append({"kind": "play", "deal": event.deal, "player": event.player, "side": event.side,
                         "card": event.card.code, "captured": _codes(event.captured), "escoba": event.escoba,
                         "renuncio": event.renuncio, "sweep_not_scored": event.sweep_not_scored})
    return said


def _cards(codes: Any) -> tuple[Card, ...]:
    return tuple(parse_card(code) for code in codes)


def events_from_json(data: Any) -> tuple[Event, ...]:
    """The engine's events from :func:`events_json`'s list (EscobaError when it is not one)."""
    events: list[Event] = []
    try:
        for item in data or ():
            kind = item["kind"]
            if kind == "deal_started":
                events.append(DealStarted(int(item["deal"]), int(item["dealer"]), int(item["mano"]),
                                          _cards(item["table"])))
            elif kind == "escoba_de_mano":
                events.append(EscobaDeMano(int(item["deal"]), int(item["player"]), int(item["side"]),
                                           _cards(item["cards"]), int(item["escobas"]), bool(item["pairs"])))
            elif kind == "play":
                events.append(Play(int(item["deal"]), int(item["player"]), int(item["side"]),
                                   parse_card(item["card"]), _cards(item["captured"]), bool(item["escoba"]),
                                   bool(item["renuncio"]), bool(item["sweep_not_scored"])))
    except (KeyError, TypeError, ValueError) as error:
        raise EscobaError(f"a table's events could not be read: {error}"[:120], code="bad_view") from None
    return tuple(events)


def player_view(view: dict[str, Any]) -> PlayerView:
    """The engine's view of the seat, from the server's ``view`` (JSON): what the expert's hint is worked out
    from. Its history holds the public events of the deal under way (all the expert reads of it)."""
    try:
        players = int(view["players"])
        deal = int(view["deal"])
        return PlayerView(
            player=int(view["seat"]), side=int(view["side"]), sides=SIDES[players],
            rules=rules_by_name(view.get("rules") or "escoba"), deal=deal, dealer=int(view["dealer"]),
            turn=None if view.get("turn") is None or view.get("game_over") else int(view["turn"]),
            hand=_cards(view["hand"]), table=_cards(view["table"]), hand_sizes=tuple(view["hand_sizes"]),
            piles=tuple(_cards(pile) for pile in view["piles"]), escobas=tuple(view["escobas"]),
            deck_left=int(view["deck_left"]), totals=tuple(view["totals"]),
            legal_moves=tuple(Move.from_text(text) for text in view.get("legal", [])),
            history=tuple(e for e in events_from_json(view.get("history")) if getattr(e, "deal", -1) == deal),
            winner=None if not view.get("game_over") else int(view["game_over"]["winner"]))
    except (KeyError, TypeError, ValueError) as error:
        raise EscobaError(f"a table's view could not be read: {error}"[:120], code="bad_view") from None


def finished_deal(view: dict[str, Any]) -> Game | None:
    """The last finished deal of the view's table, replayed from its public events: a game dealt from that deal's
    deck (:meth:`Game.dealt_from`) with the deal's plays made, whose ``deals[-1]`` is the deal and whose
    :meth:`Game.restarted` replays it (the expert's review). None when no deal is finished, or when the replay does
    not end with the points the server scored (then the page offers no review rather than a wrong one)."""
    last = view.get("last_deal")
    if not last:
        return None
    players, number = int(view["players"]), int(last["deal"])
    events = events_from_json(view.get("history"))
    deck = deal_deck(players, events, number)
    started = next(e for e in events if type(e) is DealStarted and e.deal == number)
    before = [total - points for total, points in zip(last["totals"], last["points"])]
    game = Game.dealt_from(players, rules_by_name(view.get("rules") or "escoba"), deck=deck, dealer=started.dealer,
                           deal=number, totals=before)
    for event in events:
        if type(event) is Play and event.deal == number:
            game.play(Move(event.card, event.captured))
    if not game.deals or list(game.deals[-1].score.points) != list(last["points"]):
        return None
    return game
