"""What each connection is sent: the ``state`` message, built from a :class:`TableGame`.

This is the one place where cards become JSON, so the secrecy rule is kept here:

* ``table`` (:func:`table_view`) is the **public** part, the same for every receiver (players,
  the host page, the ``/table`` screen, spectators, busted players). Its cards are the board and
  the cards shown at the showdown, nothing else: it is built from the engine's public view
  (:meth:`Hand.public_view`), which never holds private cards.
* ``you`` (:func:`you_view`) is the receiver's own part: its seat's hole cards come from
  :meth:`Hand.view` for *that* seat's position only, and its legal actions when it is to act.

Cards are always JSON arrays of two-character strings (``"As"``, ``"Td"``), never inside text.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from feltro.bots import BOT_KINDS
from feltro.cards import Card
from feltro.evaluator import evaluate
from feltro.events import (
    ActionTaken,
    AntePosted,
    BlindPosted,
    BoardDealt,
    CardsMucked,
    CardsShown,
    Event,
    HandEnded,
    PotAwarded,
    Street,
    UncalledReturned,
)
from feltro.names import describe_class
from feltro.pots import collected_pots
from feltro.server.clock import epoch_ms
from feltro.server.game import TableGame
from feltro.server.model import Identity, positions_to_seats
from feltro.view import SeatView

__all__ = ["hand_name", "state_frame", "table_view", "you_view"]

_ACTION_WORDS = {0: "fold", 1: "check", 2: "call", 3: "raise"}


def _cards(cards: Sequence[Card | None]) -> list[str]:
    return [str(card) for card in cards if card is not None]


def hand_name(hole: Sequence[Card], board: Sequence[Card], lang: str) -> str | None:
    """The name of the best hand with *hole* and *board* ("Pair of aces"); before the flop,
    the pair or the high card of the hole cards."""
    if len(hole) != 2:
        return None
    if len(board) >= 3:
        return evaluate(tuple(hole) + tuple(board)).describe(lang)
    high, low = sorted((hole[0].rank, hole[1].rank), reverse=True)
    if high == low:
        return describe_class(1, (int(high),), lang)
    return describe_class(0, (int(high),), lang)


def _to_ms(game: TableGame, moment: float, mono_now: float, wall_now: datetime) -> int:
    return epoch_ms(wall_now) + int((moment - mono_now) * 1000)


def table_view(game: TableGame, lang: str, mono_now: float, wall_now: datetime) -> dict[str, Any]:
    """The public part of the state (see the module docstring)."""
    store = game.store
    series = store.series if store is not None else None
    hand = series.hand if series is not None else None
    seating = series.seating if series is not None else None
    public: SeatView | None = hand.public_view() if hand is not None else None
    order: tuple[int, ...] = seating.order if seating is not None else ()
    position = {seat: pos for pos, seat in enumerate(order)}
    standings = series.standings() if series is not None else ()
    places = {row.seat: row for row in standings}

    last_actions: dict[int, dict[str, Any]] = {}
    log: list[dict[str, Any]] = []
    showdown: list[dict[str, Any]] = []
    if public is not None:
        log, last_actions, showdown = _hand_log(public, order, lang)

    seats: list[dict[str, Any]] = []
    for number in range(1, game.settings.seats + 1):
        state = game.seats.get(number)
        if state is None:
            seats.append({"seat": number, "occupied": False})
            continue
        row: dict[str, Any] = {
            "seat": number, "occupied": True, "name": state.name, "bot": state.bot,
            "away": state.away, "removed": state.removed,
            "connected": state.bot is not None or game.connected[number] > 0,
            "host": number == game.host_seat,
        }
        if series is None:
            row["stack"] = game.settings.stack
        else:
            row["stack"] = series.stacks.get(number, 0)
            standing = places.get(number)
            row["out"] = standing is not None and standing.out_in_hand is not None
            row["place"] = standing.place if standing is not None and row["out"] else None
        pos = position.get(number)
        if public is not None and pos is not None and seating is not None:
            over = public.is_over
            row.update({
                "in_hand": True,
                "stack": public.stacks[pos],
                "bet": public.bets[pos],
                "committed": public.committed[pos],
                "folded": public.folded[pos],
                "all_in": public.all_in[pos],
                "has_cards": not over and not public.folded[pos],
                "button": number == seating.button,
                "small_blind": number == seating.small_blind,
                "big_blind": number == seating.big_blind,
                "shown": _cards(public.shown[pos]) if pos in public.shown else None,
                "mucked": pos in public.mucked,
                "last_action": last_actions.get(number),
            })
        seats.append(row)

    hand_json: dict[str, Any] | None = None
    if public is not None and seating is not None and series is not None:
        hand_json = _hand_json(game, public, seating.order, showdown, log, wall_now)
        hand_json.update({"button": seating.button, "button_is_dead": seating.button_is_dead,
                          "small_blind": seating.small_blind, "big_blind": seating.big_blind,
                          "number": series.hand_number})

    timer = None
    limits = game.deadlines()
    if limits is not None and game.turn_key is not None and series is not None:
        seat_no = series.to_act
        assert seat_no is not None
        started = _to_ms(game, game.turn_started, mono_now, wall_now)
        timer = {
            "seat": seat_no, "hand": game.turn_key[0], "turn": game.turn_key[1],
            "started_at": started,
            "action_ends_at": started + round((limits[0] - game.turn_started) * 1000),
            "ends_at": started + round((limits[1] - game.turn_started) * 1000),
            "bank_ms": game.bank_ms(seat_no), "grace": game.turn_grace,
            "server_time": epoch_ms(wall_now),
        }

    stop_at = game.settings.stop_at
    requested = game.stop_logged or (series is not None and series.stop_requested)
    outcome = None
    if series is not None and series.outcome is not None:
        result = series.outcome
        outcome = {"end": result.end.value, "winners": list(result.winners),
                   "names": [series.config.players[s] for s in result.winners],
                   "stacks": {str(s): c for s, c in sorted(result.stacks.items())},
                   "hands": result.hands}
    return {
        "id": game.table_id,
        "name": game.settings.name,
        "status": game.status,
        "settings": game.settings.to_dict(),
        "seats": seats,
        "hand": hand_json,
        "timer": timer,
        "standings": [{"place": r.place, "seat": r.seat, "name": r.name,
                       "bot": game.seats[r.seat].bot if r.seat in game.seats else None,
                       "stack": r.stack, "out_in_hand": r.out_in_hand} for r in standings],
        "eliminations": [{"seat": r.seat, "name": r.name, "place": r.place,
                          "hand": r.out_in_hand}
                         for r in sorted(standings, key=lambda r: (r.out_in_hand or 0, r.place))
                         if r.out_in_hand is not None],
        "stop": {
            "at": stop_at.isoformat() if stop_at else None,
            "remaining_s": (max(0, int((stop_at - wall_now).total_seconds()))
                            if stop_at else None),
            "requested": requested,
            "last_hand": bool(game.in_hand and series is not None
                              and (requested or series.should_stop(wall_now))),
        },
        "outcome": outcome,
        "paused": game.paused,
        "pause_pending": game.paused and game.in_hand,
        "next_hand_at": (_to_ms(game, game.next_deal_at, mono_now, wall_now)
                         if game.next_deal_at is not None and not game.paused
                         and not game.in_hand and outcome is None else None),
        "hands_played": len(series.summaries) if series is not None else 0,
        "problem": game.problem,
    }


def _hand_json(game: TableGame, public: SeatView, order: tuple[int, ...],
               showdown: list[dict[str, Any]], log: list[dict[str, Any]],
               wall_now: datetime) -> dict[str, Any]:
    result = public.result
    if result is not None:
        pots = [{"amount": p.amount, "eligible": [order[i] for i in p.eligible],
                 "winners": [order[i] for i in p.winners], "shares": list(p.shares)}
                for p in result.pots]
        returned: dict[str, int] | None = {str(order[i]): a for i, a in
                                           enumerate(result.returned) if a}
        net: dict[str, int] | None = {str(order[i]): n for i, n in enumerate(result.net)}
    else:
        # Collected pots (earlier streets); this street's bets are shown in front of the seats.
        pots = [{"amount": p.amount, "eligible": [order[i] for i in p.eligible]}
                for p in collected_pots(public.committed, public.bets, public.folded)]
        returned = net = None
    to_act = public.to_act
    return {
        "street": public.street.value,
        "board": _cards(public.board),
        "pots": pots,
        "pot_total": public.pot,
        "current_bet": public.current_bet,
        "to_act": order[to_act] if to_act is not None else None,
        "turn": game.turn_key[1] if game.turn_key is not None else
        sum(1 for e in public.events if type(e) is ActionTaken),
        "log": log,
        "showdown": showdown,
        "over": result is not None,
        "returned": returned,
        "net": net,
    }


def _hand_log(public: SeatView, order: tuple[int, ...], lang: str,
              ) -> tuple[list[dict[str, Any]], dict[int, dict[str, Any]], list[dict[str, Any]]]:
    """The public hand log, each seat's last action, and the showdown in show order (P8)."""
    log: list[dict[str, Any]] = []
    last: dict[int, dict[str, Any]] = {}
    showdown: list[dict[str, Any]] = []
    raised_this_street = False
    street = Street.PREFLOP
    board = public.board
    for event in public.events:
        entry = _log_entry(event, order)
        if entry is None:
            continue
        if type(event) is ActionTaken:
            if event.street != street:
                street, raised_this_street = event.street, False
            if entry["action"] == "raise":
                entry["bet"] = street != Street.PREFLOP and not raised_this_street
                raised_this_street = True
            last[entry["seat"]] = {k: v for k, v in entry.items() if k not in ("kind", "seat")}
        elif type(event) is CardsShown:
            showdown.append({"seat": entry["seat"], "cards": entry["cards"], "mucked": False,
                             "hand_name": hand_name(event.cards, board, lang)})
        elif type(event) is CardsMucked:
            showdown.append({"seat": entry["seat"], "cards": None, "mucked": True,
                             "hand_name": None})
        log.append(entry)
    return log, last, showdown


def _log_entry(event: Event, order: tuple[int, ...]) -> dict[str, Any] | None:
    kind = type(event)
    if kind is ActionTaken:
        assert isinstance(event, ActionTaken)
        entry: dict[str, Any] = {"kind": "action", "seat": order[event.position],
                                 "street": event.street.value,
                                 "action": _ACTION_WORDS[event.action.kind],
                                 "chips": event.chips, "all_in": event.all_in}
        to = getattr(event.action, "to", None)
        if to is not None:
            entry["to"] = to
        return entry
    if kind is BlindPosted or kind is AntePosted:
        assert isinstance(event, BlindPosted | AntePosted)
        return {"kind": "blind" if kind is BlindPosted else "ante",
                "seat": order[event.position], "amount": event.amount}
    if kind is BoardDealt:
        assert isinstance(event, BoardDealt)
        return {"kind": "board", "street": event.street.value, "cards": _cards(event.cards)}
    if kind is CardsShown:
        assert isinstance(event, CardsShown)
        return {"kind": "show", "seat": order[event.position], "cards": _cards(event.cards)}
    if kind is CardsMucked:
        assert isinstance(event, CardsMucked)
        return {"kind": "muck", "seat": order[event.position]}
    if kind is UncalledReturned:
        assert isinstance(event, UncalledReturned)
        return {"kind": "returned", "seat": order[event.position], "amount": event.amount}
    if kind is PotAwarded:
        assert isinstance(event, PotAwarded)
        return {"kind": "pot", "index": event.index, "amount": event.amount,
                "winners": [order[p] for p in event.winners], "shares": list(event.shares)}
    if kind is HandEnded:
        return {"kind": "end"}
    return None  # HoleCardDealt: private, never in the public log


def you_view(game: TableGame, identity: Identity | None, lang: str) -> dict[str, Any]:
    """The receiver's own part of the state."""
    host = game.is_host(identity)
    role = identity.role if identity is not None else "spectator"
    seat = identity.seat if identity is not None else None
    you: dict[str, Any] = {"role": role, "seat": seat, "name": None, "host": host, "lang": lang,
                           "hole": None, "hand_name": None, "legal": None, "away": False,
                           "bank_ms": None, "timeouts": 0, "request": None,
                           "requests": None, "bots": None}
    if identity is not None and identity.role == "pending" and identity.request_id:
        request = game.requests[identity.request_id]
        you["name"] = request.name
        you["request"] = {"request_id": request.request_id, "status": request.status,
                          "seat": request.seat}
    if seat is not None and seat in game.seats:
        state = game.seats[seat]
        you.update({"name": state.name, "away": state.away, "timeouts": state.timeouts,
                    "bank_ms": game.bank_ms(seat) if game.settings.timed else None})
        _own_cards(game, seat, lang, you)
    if host:
        you["requests"] = [{"request_id": r.request_id, "name": r.name, "seat": r.seat}
                           for r in game.pending_requests()]
        you["bots"] = list(BOT_KINDS)
    return you


def _own_cards(game: TableGame, seat: int, lang: str, you: dict[str, Any]) -> None:
    store = game.store
    if store is None:
        return
    series = store.series
    hand, seating = series.hand, series.seating
    if hand is None or seating is None or seat not in seating.order:
        return
    position = seating.position_of(seat)
    view = hand.view(position)  # this seat's cards only
    hole = [card for card in view.hole or () if card is not None]
    you["hole"] = _cards(hole)
    you["hand_name"] = hand_name(hole, view.board, lang)
    legal = view.legal
    if legal and game.turn_key is not None and series.in_hand:
        you["legal"] = {
            "hand": game.turn_key[0], "turn": game.turn_key[1],
            "fold": legal.can_fold, "check": legal.can_check, "call": legal.call_amount,
            "raise": ({"min": legal.min_raise_to, "max": legal.max_raise_to}
                      if legal.min_raise_to is not None and legal.max_raise_to is not None
                      else None),
            "refusals": {kind: positions_to_seats(reason, seating.order)
                         for kind, reason in legal.refusals.items()},
            "refusal_details": {kind: {"rule": d.rule, "reason": d.reason,
                                       "params": dict(d.params)}
                                for kind, d in legal.refusal_details.items()},
        }


def state_frame(version: int, boot: str, server_time: int, table_text: str,
                you: Mapping[str, Any]) -> str:
    """The ``state`` message: the shared public text spliced with the receiver's own part."""
    return (f'{{"type":"state","version":{version},"boot":{json.dumps(boot)},'
            f'"server_time":{server_time},"table":{table_text},'
            f'"you":{json.dumps(you, separators=(",", ":"))}}}')
