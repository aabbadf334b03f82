"""What each connection is sent: the ``state`` message, built from a
:class:`~feltro.server.snapshot.TableSnapshot` as the protocol's own models.

This is the one place where cards become JSON, so the secrecy rule is kept here:

* ``table`` (:func:`table_view`) is the **public** part, the same for every receiver (players,
  the host page, the ``/table`` screen, spectators, busted players). Its cards are the board and
  the cards shown at the showdown, nothing else: it is built from the engine's public view
  (:meth:`Hand.public_view`) and the public log, which never hold private cards.
* ``you`` (:func:`you_view`) is the receiver's own part: its seat's own part of the snapshot
  (:class:`~feltro.server.snapshot.OwnHand`: its hole cards, its legal actions when it is to act,
  its salts) and nobody else's.

Views read the snapshot and nothing else: it is plain data, computed when the table changed
(no view can call back into the live hand or the fair dealer). The legal actions are the
engine's, sent as they are, with what the phone needs to label its buttons (a call that puts
the player all in, a first bet, the quick sizes), so that the phone never works out a rule.

Each section of the state has its own small function. Cards are always JSON arrays of
two-character strings (``"As"``, ``"Td"``), never inside text.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from feltro.bots import BOT_KINDS
from feltro.cards import Card
from feltro.evaluator import evaluate
from feltro.legal import LegalActions
from feltro.names import describe_class
from feltro.pots import collected_pots
from feltro.series import End
from feltro.server.clock import epoch_ms
from feltro.server.hand_log import cards_json
from feltro.server.lobby import Identity
from feltro.server.outgoing import (
    EliminationOut,
    FairOut,
    FairOwnOut,
    HandOut,
    LegalOut,
    OutcomeOut,
    PotOut,
    RefusalOut,
    RequestOut,
    SeatOut,
    SeriesEnd,
    ShowOut,
    StandingOut,
    StopOut,
    TableOut,
    TimerOut,
    YouOut,
)
from feltro.server.problems import problem_text
from feltro.server.refusals import seat_refusal
from feltro.server.snapshot import HandSnapshot, OwnHand, SeriesSnapshot, TableSnapshot
from feltro.session import raise_sizes
from feltro.view import SeatView

__all__ = ["chips_view", "hand_name", "state_text", "summary_view", "table_view", "you_view"]


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


def _to_ms(snap: TableSnapshot, moment: float) -> int:
    """A monotonic *moment* as epoch milliseconds."""
    return epoch_ms(snap.wall_now) + int((moment - snap.mono_now) * 1000)


# --- the public part ----------------------------------------------------------------------------


def table_view(snap: TableSnapshot, lang: str) -> TableOut:
    """The public part of the state (see the module docstring)."""
    series = snap.series
    outcome = _outcome(series, ended_on_request=snap.stop_logged)
    return TableOut(
        id=snap.table_id, name=snap.settings.name, status=snap.status,
        settings=snap.settings.to_dict(),
        seats=[_seat(snap, number) for number in range(1, snap.settings.seats + 1)],
        hand=_hand(snap, lang), timer=_timer(snap), standings=_standings(snap),
        eliminations=_eliminations(series), stop=_stop(snap), outcome=outcome,
        paused=snap.paused, pause_pending=snap.paused and snap.in_hand,
        next_hand_at=_next_hand_at(snap, outcome is not None),
        hands_played=len(series.finished) if series is not None else 0,
        problem=_problem(snap, lang), **_fair(snap),
        level=dict(series.level) if series is not None and series.level is not None else None,
        entries=dict(series.entries) if series is not None and series.entries else None)


def _problem(snap: TableSnapshot, lang: str) -> str | None:
    """Why the table cannot play, in plain words (never a path: those go to the log)."""
    if snap.problem is not None:
        return problem_text(snap.problem, lang)
    if snap.status == "stalled":
        return problem_text("stalled", lang)
    return None


def _fair(snap: TableSnapshot) -> dict[str, Any]:
    """The verifiable shuffle's public part (commitments, board salts, revealed secrets)."""
    return {} if snap.fair is None else {"fair": FairOut.model_validate(snap.fair)}


def _seat(snap: TableSnapshot, number: int) -> SeatOut:
    state = snap.seats.get(number)
    if state is None:
        return SeatOut(seat=number, occupied=False)
    fields: dict[str, Any] = {
        "seat": number, "occupied": True, "name": state.name, "bot": state.bot,
        "away": state.away, "removed": state.removed,
        "restorable": (state.removed and snap.series is not None
                       and snap.series.outcome is None
                       and state.removed_hand == snap.series.hand_number),
        "connected": state.bot is not None or snap.connected.get(number, 0) > 0,
        "host": number == snap.host_seat,
    }
    series = snap.series
    if series is None:
        fields["stack"] = snap.settings.stack
    else:
        fields.update(_standing_fields(series, number))
    if snap.hand is not None and number in snap.hand.seating.order:
        fields.update(_in_hand_fields(snap.hand, number))
    return SeatOut(**fields)


def _standing_fields(series: SeriesSnapshot, seat: int) -> dict[str, Any]:
    standing = series.places.get(seat)
    out = standing is not None and standing.out_in_hand is not None
    return {"stack": series.stacks.get(seat, 0), "out": out,
            "place": standing.place if standing is not None and out else None}


def _in_hand_fields(hand: HandSnapshot, seat: int) -> dict[str, Any]:
    public, seating = hand.public, hand.seating
    pos = seating.position_of(seat)
    return {
        "in_hand": True, "stack": public.stacks[pos], "bet": public.bets[pos],
        "committed": public.committed[pos], "folded": public.folded[pos],
        "all_in": public.all_in[pos],
        "has_cards": not public.is_over and not public.folded[pos],
        "button": seat == seating.button, "small_blind": seat == seating.small_blind,
        "big_blind": seat == seating.big_blind,
        "shown": cards_json(public.shown[pos]) if pos in public.shown else None,
        "mucked": pos in public.mucked, "last_action": hand.last_actions.get(seat),
    }


def _hand(snap: TableSnapshot, lang: str) -> HandOut | None:
    hand = snap.hand
    if hand is None or snap.series is None:
        return None
    public, seating = hand.public, hand.seating
    order = seating.order
    result = public.result
    to_act = public.to_act
    return HandOut(
        number=hand.number, street=public.street.value, board=cards_json(public.board),
        pots=_pots(hand), pot_total=public.pot, current_bet=public.current_bet,
        to_act=order[to_act] if to_act is not None else None, turn=hand.turn,
        button=seating.button, button_is_dead=seating.button_is_dead,
        small_blind=seating.small_blind, big_blind=seating.big_blind, log=list(hand.log),
        showdown=[_show(seat, cards, public.board, lang) for seat, cards in hand.shows],
        over=result is not None,
        returned=({str(order[i]): a for i, a in enumerate(result.returned) if a}
                  if result is not None else None),
        net=({str(order[i]): n for i, n in enumerate(result.net)}
             if result is not None else None),
        **({} if hand.level is None else {"level": dict(hand.level)}))


def _pots(hand: HandSnapshot) -> list[PotOut]:
    public, order = hand.public, hand.seating.order
    if public.result is not None:
        return [PotOut(amount=p.amount, eligible=[order[i] for i in p.eligible],
                       winners=[order[i] for i in p.winners], shares=list(p.shares))
                for p in public.result.pots]
    # Collected pots (earlier streets); this street's bets are shown in front of the seats.
    return [PotOut(amount=p.amount, eligible=[order[i] for i in p.eligible])
            for p in collected_pots(public.committed, public.bets, public.folded)]


def _show(seat: int, cards: tuple[Card, ...] | None, board: Sequence[Card],
          lang: str) -> ShowOut:
    if cards is None:
        return ShowOut(seat=seat, cards=None, mucked=True, hand_name=None)
    return ShowOut(seat=seat, cards=cards_json(cards), mucked=False,
                   hand_name=hand_name(cards, board, lang))


def _timer(snap: TableSnapshot) -> TimerOut | None:
    clock = snap.clock
    if clock is None:
        return None
    started = _to_ms(snap, clock.started)
    return TimerOut(seat=clock.seat, hand=clock.hand, turn=clock.turn, started_at=started,
                    action_ends_at=started + round((clock.action_ends - clock.started) * 1000),
                    ends_at=started + round((clock.ends - clock.started) * 1000),
                    bank_ms=clock.bank_ms, grace=clock.grace,
                    server_time=epoch_ms(snap.wall_now))


def _standings(snap: TableSnapshot) -> list[StandingOut]:
    if snap.series is None:
        return []
    return [StandingOut(place=r.place, seat=r.seat, name=r.name,
                        bot=snap.seats[r.seat].bot if r.seat in snap.seats else None,
                        stack=r.stack, out_in_hand=r.out_in_hand, reentries=r.reentries)
            for r in snap.series.standings]


def _eliminations(series: SeriesSnapshot | None) -> list[EliminationOut]:
    if series is None:
        return []
    out = [r for r in series.standings if r.out_in_hand is not None]
    out.sort(key=lambda r: (r.out_in_hand or 0, r.place))
    return [EliminationOut(seat=r.seat, name=r.name, place=r.place, hand=r.out_in_hand or 0)
            for r in out]


def _stop(snap: TableSnapshot) -> StopOut:
    stop_at = snap.settings.stop_at
    series = snap.series
    return StopOut(
        at=stop_at.isoformat() if stop_at else None,
        remaining_s=(max(0, int((stop_at - snap.wall_now).total_seconds()))
                     if stop_at else None),
        requested=snap.stop_logged or (series is not None and series.stop_requested),
        last_hand=snap.in_hand and series is not None and series.should_stop)


def _outcome(series: SeriesSnapshot | None, *, ended_on_request: bool) -> OutcomeOut | None:
    """How the series ended: ``last_player`` (G4), ``stopped`` at the agreed time or hand
    count, or ``ended`` when the host ended it (both G6)."""
    if series is None or series.outcome is None:
        return None
    result = series.outcome
    end: SeriesEnd = "last_player" if result.end is End.LAST_PLAYER else "stopped"
    if end == "stopped" and ended_on_request:
        end = "ended"
    return OutcomeOut(end=end, winners=list(result.winners),
                      names=[series.players[s] for s in result.winners],
                      stacks={str(s): c for s, c in sorted(result.stacks.items())},
                      hands=result.hands)


def _next_hand_at(snap: TableSnapshot, over: bool) -> int | None:
    if snap.next_deal_at is None or snap.paused or snap.in_hand or over:
        return None
    return _to_ms(snap, snap.next_deal_at)


# --- the receiver's own part --------------------------------------------------------------------


def you_view(snap: TableSnapshot, identity: Identity | None, lang: str) -> YouOut:
    """The receiver's own part of the state."""
    host = identity is not None and (identity.role == "host" or (
        identity.role == "player" and identity.seat is not None
        and identity.seat == snap.host_seat))
    seat = identity.seat if identity is not None else None
    fields: dict[str, Any] = {
        "role": identity.role if identity is not None else "spectator", "seat": seat,
        "name": None, "host": host, "lang": lang, "hole": None, "hand_name": None,
        "legal": None, "away": False, "bank_ms": None, "timeouts": 0, "request": None,
        "requests": None, "bots": None}
    if identity is not None and identity.role == "pending" and identity.request_id:
        request = snap.requests[identity.request_id]
        fields["name"] = request.name
        fields["request"] = {"request_id": request.request_id, "status": request.status,
                             "seat": request.seat}
    if seat is not None and seat in snap.seats:
        state = snap.seats[seat]
        fields.update(name=state.name, away=state.away, timeouts=state.timeouts,
                      bank_ms=snap.banks[seat] if snap.settings.timed else None)
        own = snap.own.get(seat)  # this seat's own part only
        if own is not None and snap.hand is not None:
            fields.update(_own_cards(own, snap.hand, lang))
    if host:
        fields["requests"] = [RequestOut(request_id=r.request_id, name=r.name, seat=r.seat)
                              for r in snap.pending_requests()]
        fields["bots"] = list(BOT_KINDS)
    return YouOut(**fields)


def _own_cards(own: OwnHand, hand: HandSnapshot, lang: str) -> dict[str, Any]:
    fields: dict[str, Any] = {"hole": cards_json(own.hole),
                              "hand_name": hand_name(own.hole, hand.public.board, lang)}
    if own.legal:
        fields["legal"] = _legal(own.legal, hand)
    if own.fair is not None:
        fields["fair"] = FairOwnOut.model_validate(own.fair)
    if own.may_show:
        fields["may_show"] = True
    if own.show_losers:
        fields["show_losers"] = True
    return fields


def _legal(legal: LegalActions, hand: HandSnapshot) -> LegalOut:
    """The engine's legal actions as they are, seats as seats, with the labels' facts."""
    order, public = hand.seating.order, hand.public
    seated = {kind: seat_refusal(refusal, order)
              for kind, refusal in legal.refusal_details.items()}
    raise_range = ({"min": legal.min_raise_to, "max": legal.max_raise_to}
                   if legal.min_raise_to is not None and legal.max_raise_to is not None
                   else None)
    position = legal.position
    assert position is not None
    return LegalOut(
        hand=hand.number, turn=hand.turn, fold=legal.can_fold, check=legal.can_check,
        call=legal.call_amount, raise_=raise_range,
        refusal_details={kind: RefusalOut(rule=refusal.rule, reason=refusal.reason,
                                          params=dict(refusal.params))
                         for kind, refusal in seated.items()},
        call_all_in=0 < legal.call_amount == public.stacks[position],
        bet=public.current_bet == 0, sizes=_sizes(public, legal))


def _sizes(public: SeatView, legal: LegalActions) -> dict[str, int] | None:
    sizes = raise_sizes(public, legal)
    return dict(sizes) if sizes else None


# --- other ----------------------------------------------------------------------------------


def summary_view(snap: TableSnapshot, created_at: str) -> dict[str, Any]:
    """``GET /api/tables`` and ``/api/tables/{id}``: a table's public summary (no secrets)."""
    return {"table_id": snap.table_id, "name": snap.settings.name, "status": snap.status,
            "seats": snap.settings.seats, "occupied": len(snap.seats),
            "players": [{"seat": s.seat, "name": s.name, "bot": s.bot}
                        for s in sorted(snap.seats.values(), key=lambda s: s.seat)],
            "created_at": created_at}


def chips_view(snap: TableSnapshot) -> dict[str, Any]:
    """``GET /api/tables/{id}/chips``: every player's chips after each hand."""
    series = snap.series
    if series is None:
        return {"players": {}, "hands": []}
    return {
        "players": {str(s): n for s, n in series.players.items()},
        "start": {str(s): series.starting_stack for s in series.players},
        "hands": [{"hand": h.number,
                   "stacks": {str(s): c for s, c in sorted(h.stacks_after.items())},
                   "eliminated": list(h.eliminated)} for h in series.finished],
    }


def state_text(snap: TableSnapshot, identity: Identity | None, lang: str, *, version: int,
               boot: str, public: dict[str, str]) -> str:
    """The ``state`` message for one receiver: the public part, worded once per language
    (*public* caches its text by language), spliced with the receiver's own part."""
    if lang not in public:
        public[lang] = dump(table_view(snap, lang))
    return (f'{{"type":"state","version":{version},"boot":{json.dumps(boot)},'
            f'"server_time":{epoch_ms(snap.wall_now)},"table":{public[lang]},'
            f'"you":{dump(you_view(snap, identity, lang))}}}')


def dump(model: TableOut | YouOut) -> str:
    """A view as JSON text: only the fields the view set (the protocol's shape), aliases used."""
    return model.model_dump_json(by_alias=True, exclude_unset=True)
