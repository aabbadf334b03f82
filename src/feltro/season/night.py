"""One finished series as a season counts it: :func:`night_of`.

Pure: it reads a :class:`~feltro.series.Series` (replayed from its log by whoever holds it)
through its public API (standings, hand summaries, outcome) and returns a
:class:`~feltro.season.model.Night`. Definitions (``docs/seasons.md``):

* **place**: the series' own standings (G4; G6 when it stopped: equal stacks share a place).
* **hands**: the hands a player was dealt into.
* **biggest pot**: the most chips a player collected from the pots of one hand (their share of
  every pot they won in it, their own chips included; chips returned uncalled, B7, are not won).
* **knock-out**: a player who busts is knocked out by the winner of the last pot they could
  win (the pot holding their last chip, P1); when that pot is split (P7), each of its winners
  is credited.
"""

from __future__ import annotations

from collections.abc import Collection

from feltro.season.model import Night, NightPlayer, SeasonError
from feltro.series import HandSummary, Series

__all__ = ["collected_of", "knockouts_of", "night_of"]


def night_of(series: Series, *, key: str, label: str, date: str,
             bots: Collection[int] = ()) -> Night:
    """The night *series* makes (*key*, *label* and *date* as :class:`Night` says; *bots*:
    the seats bots played).

    :raises SeasonError: ``not-over`` while the series is still being played.
    """
    if series.outcome is None:
        raise SeasonError("not-over", f"{label}: the series is not over yet", series=label)
    names = series.players  # the late seats too (G9)
    hands = dict.fromkeys(names, 0)
    biggest = dict.fromkeys(names, 0)
    knockouts: dict[int, list[str]] = {seat: [] for seat in names}
    for summary in series.summaries:
        for seat in summary.seating.order:
            hands[seat] += 1
        for seat, chips in collected_of(summary).items():
            biggest[seat] = max(biggest[seat], chips)
        for winner, busted in knockouts_of(summary):
            knockouts[winner].append(names[busted])
    players = tuple(
        NightPlayer(standing.name, standing.seat, standing.seat in bots, standing.place,
                    hands[standing.seat], biggest[standing.seat],
                    tuple(knockouts[standing.seat]),
                    standing.reentries if series.config.reentry is not None else None)
        for standing in series.standings())
    return Night(key, label, date, series.outcome.hands, series.outcome.end.value, players)


def collected_of(summary: HandSummary) -> dict[int, int]:
    """Seat -> chips collected from the pots of one hand."""
    order = summary.seating.order
    collected: dict[int, int] = {}
    for pot in summary.result.pots:
        for position, share in zip(pot.winners, pot.shares, strict=True):
            collected[order[position]] = collected.get(order[position], 0) + share
    return collected


def knockouts_of(summary: HandSummary) -> list[tuple[int, int]]:
    """``(winner seat, busted seat)`` for every player busted in one hand."""
    order = summary.seating.order
    found: list[tuple[int, int]] = []
    for busted in summary.eliminated:
        position = order.index(busted)
        contested = [pot for pot in summary.result.pots if position in pot.eligible]
        if contested:  # the last one holds the busted player's last chip
            found.extend((order[winner], busted) for winner in contested[-1].winners)
    return found

