"""Thousands of hands at once in numpy: :class:`BatchTables`, the engine of the batched env.

Every table plays one-hand episodes of the same :class:`~feltro.env.env_config.EnvConfig`. The
state is a set of arrays with one row per table and one column per hand position (0 = first
left of the button, ``n - 1`` = the button, as in :class:`feltro.hand.Hand`), and one call of
:meth:`BatchTables.step` plays one decision at every table with array operations: the same
rules as :class:`~feltro.hand.Hand` (blinds and antes, B3-B11 betting with short all-ins that do
not reopen, nobody asked to act when nobody could bet against them and no raise nobody can
call (B5), pot-limit and fixed-limit, uncalled bets returned, pots as a dealer forms them and
odd chips from the button's left, P1 and P7). :mod:`feltro.env.crosscheck` plays the same deals
and actions through :class:`~feltro.hand.Hand` and compares every decision and result.

Decks are drawn in the order :meth:`Hand.start` reads them: first cards to positions
``0..n-1``, second cards, then burn, flop, burn, turn, burn, river.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from feltro.actions import Raise
from feltro.config import FIXED_LIMIT_CODE, POT_LIMIT_CODE, STRUCTURE_CODES, Structure
from feltro.env.actions import ActionCodec, ExactActions, PotActions
from feltro.env.env_config import EnvConfig
from feltro.errors import ConfigError, IllegalActionError
from feltro.evaluator_np import key_tables, strengths_from_keys
from feltro.legal import (
    RAISE_CAPPED,
    RAISE_NO_CHIPS,
    RAISE_NOT_REOPENED,
    RAISE_OPEN,
    RAISE_UNANSWERABLE,
    LegalActions,
    raise_refusal,
    raise_size_refusal,
)

__all__ = ["BOARD_FROM", "BatchTables"]

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

# The street from which each of the five board cards is seen (flop, flop, flop, turn, river).
BOARD_FROM: Final = np.array([1, 1, 1, 2, 3], dtype=np.int64)


class BatchTables:
    """*num_tables* tables of one configuration, stepped together (see the module docstring).

    After :meth:`reset` and after every :meth:`step` each table has a player to act: a table
    whose hand ended has dealt its next hand already (hands in which nobody has a decision,
    possible only with stacks no larger than the blinds, are dealt and skipped).
    """

    def __init__(self, num_tables: int, config: EnvConfig, seed: int | None = None) -> None:
        if type(num_tables) is not int or num_tables < 1:
            raise ValueError(f"num_tables must be a positive integer, not {num_tables!r}")
        if config.episode != "hand":
            raise ConfigError("the batched engine plays one-hand episodes (episode='hand')")
        self.config = config
        self.num_tables = t = num_tables
        self.n = n = config.players
        self.structure = STRUCTURE_CODES[Structure(config.structure)]
        self.big_blind = config.big_blind
        self.min_bet = config.big_blind
        self.big_bet = 2 * config.big_blind
        blinds = [config.big_blind, config.small_blind] if n == 2 else (
            [config.small_blind, config.big_blind] + [0] * (n - 2))
        self._blinds = np.array(blinds, dtype=np.int64)
        self._first_preflop = 1 if n == 2 else 2 % n
        self._agent_stacks = np.array(config.agent_stacks, dtype=np.int64)
        self.codec: ActionCodec = (ExactActions(config.total_chips) if config.actions == "exact"
                                   else PotActions(config.fractions))
        self._fractions = np.array(config.fractions, dtype=np.float64)
        self._positions = np.arange(n, dtype=np.int64)
        self._ones = np.ones(n, dtype=np.uint8)
        self._rows = np.arange(t, dtype=np.int64)
        self._deck_size = 2 * n + 8
        board = [2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 5, 2 * n + 7]
        self.board_columns = np.array(board, dtype=np.int64)
        """Where the five board cards are in a deck row (flop, turn, river)."""
        self.rng = np.random.default_rng(seed)
        z = np.zeros
        self.cards: Ints = z((t, self._deck_size), dtype=np.int64)
        """The deck of each table's hand (see the module docstring)."""
        self.agents: Ints = z((t, n), dtype=np.int64)
        """``agents[i, p]``: the agent at position *p* of table *i*."""
        self.start_stacks: Ints = z((t, n), dtype=np.int64)
        self.stacks: Ints = z((t, n), dtype=np.int64)
        self.bets: Ints = z((t, n), dtype=np.int64)
        self.committed: Ints = z((t, n), dtype=np.int64)
        self.acted_at: Ints = z((t, n), dtype=np.int64)
        self.folded: Bools = z((t, n), dtype=np.bool_)
        self.street_in: Ints = z((t, 4, n), dtype=np.int64)
        """Chips put in by each position on each street (returns not subtracted)."""
        self.street: Ints = z(t, dtype=np.int64)
        self.to_act: Ints = z(t, dtype=np.int64)
        """The position to act at each table."""
        self.to_match: Ints = z(t, dtype=np.int64)
        self.full_inc: Ints = z(t, dtype=np.int64)
        self.n_bets: Ints = z(t, dtype=np.int64)
        self.live: Ints = z(t, dtype=np.int64)
        self.active: Ints = z(t, dtype=np.int64)
        self.dealt: Ints = z(t, dtype=np.int64)
        """Hands dealt at each table since :meth:`reset` (the button rotation)."""
        # The legal actions of the player to act (kept up to date after every change).
        self.call_amount: Ints = z(t, dtype=np.int64)
        self.min_raise_to: Ints = z(t, dtype=np.int64)
        """0 when raising is closed."""
        self.max_raise_to: Ints = z(t, dtype=np.int64)
        self.raise_code: Ints = z(t, dtype=np.int64)
        self.final_stacks: Ints = z((t, n), dtype=np.int64)
        """The stacks at the end of each table's last finished hand, by position."""
        self.last_actions: Ints = z(t, dtype=np.int64)
        """The engine action of each table's last step: ``-1`` fold, ``0`` check or call,
        ``k > 0`` bet or raise to *k* (as :class:`~feltro.env.finished_hands.ActionLog` keeps)."""
        self.deck_log: list[tuple[Ints, Ints]] | None = None
        """When a list, every :meth:`deal` appends ``(rows, decks)`` to it (for checkers that
        deal the same cards to another engine)."""

    # ------------------------------------------------------------------ dealing

    def reset(self, seed: int | None = None) -> None:
        """Deal a new hand at every table (*seed* restarts the random stream and rotation)."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.dealt[:] = 0
        self.deal(self._rows)

    def deal(self, rows: Ints, decks: Ints | None = None) -> Bools:
        """Deal the next hand at *rows* (from *decks* when given, one row of
        ``2 * players + 8`` card ids each); returns, by row, whether that hand ended without a
        decision (all but one player all-in from the blinds): it is dealt again only by
        :meth:`step`'s caller.
        """
        n = self.n
        k = len(rows)
        if decks is None:
            decks = self.rng.random((k, 52)).argsort(axis=1)[:, :self._deck_size]
        self.cards[rows] = decks
        if self.deck_log is not None:
            self.deck_log.append((rows.copy(), np.array(decks)))
        shift = self.dealt[rows] % n if self.config.rotate else np.zeros(k, dtype=np.int64)
        self.dealt[rows] += 1
        agents = (self._positions + shift[:, None]) % n
        self.agents[rows] = agents
        stacks = self._agent_stacks[agents]
        self.start_stacks[rows] = stacks
        committed = np.zeros((k, n), dtype=np.int64)
        ante = self.config.ante
        if ante:
            antes = np.minimum(stacks, ante)
            holder, excess = _uncalled(antes)  # PHH ante trimming (B11, P1)
            antes[np.arange(k), holder] -= excess
            stacks = stacks - antes
            committed += antes
        bets = np.minimum(stacks, self._blinds)
        stacks = stacks - bets
        committed += bets
        self.stacks[rows] = stacks
        self.bets[rows] = bets
        self.committed[rows] = committed
        self.acted_at[rows] = -1
        self.folded[rows] = False
        self.street_in[rows] = 0
        self.street[rows] = 0
        self.to_match[rows] = self.big_blind
        self.full_inc[rows] = self.big_blind
        self.n_bets[rows] = 1
        self.live[rows] = n
        self.active[rows] = n - (stacks == 0).sum(axis=1)
        start = np.full(k, self._first_preflop, dtype=np.int64)
        actor = self._next_actor(rows, start)
        self.to_act[rows] = actor
        ended = np.zeros(k, dtype=np.bool_)
        idle = actor < 0
        if idle.any():
            ended[idle] = self._end_round(rows[idle])
        self._update_legal(rows[~ended])
        return ended

    # ------------------------------------------------------------------ acting

    def step(self, actions: npt.ArrayLike) -> Bools:
        """Play one action number per table (see :mod:`feltro.env.actions`); returns, by
        table, whether its hand ended (:attr:`final_stacks` then holds the result; the next
        hand is not dealt yet: :meth:`deal` it).

        :raises IllegalActionError: for an action the rules refuse at some table (the first
            one is named); then nothing changes at any table.
        """
        a = np.asarray(actions)
        t = self.num_tables
        if a.shape != (t,):
            raise ValueError(f"one action per table is needed ({t}), got shape {a.shape}")
        if a.dtype.kind not in "iu":
            whole = np.isfinite(a) & (a == np.floor(a)) if a.dtype.kind == "f" else (
                np.zeros(t, dtype=np.bool_))
            if not whole.all():
                first = int(np.flatnonzero(~whole)[0])
                self._refuse(first, a[first].item())
        a = a.astype(np.int64, copy=False)
        rows = self._rows
        p = self.to_act
        fold = a == 0
        passive = a == 1
        raising = a >= 2
        to = self._raise_targets(a)
        bad = (a < 0) | (a >= self.codec.size) | (raising & (
            (self.min_raise_to == 0) | (to < self.min_raise_to) | (to > self.max_raise_to)))
        if bad.any():
            first = int(np.flatnonzero(bad)[0])
            self._refuse(first, int(a[first]))
        self.last_actions = np.where(fold, -1, np.where(passive, 0, to))
        stack = self.stacks[rows, p]
        bet = self.bets[rows, p]
        owed = self.to_match - bet
        chips = np.where(raising, to - bet, np.where(passive, np.clip(owed, 0, stack), 0))
        left = stack - chips
        self.stacks[rows, p] = left
        self.bets[rows, p] = bet + chips
        self.committed[rows, p] += chips
        self.street_in[rows, self.street, p] += chips
        self.active -= fold | ((left == 0) & (chips > 0))
        self.live -= fold
        self.folded[rows[fold], p[fold]] = True
        increment = to - self.to_match
        full = raising & (increment >= self.full_inc)
        if self.structure != FIXED_LIMIT_CODE:
            np.copyto(self.full_inc, increment, where=full)
        self.n_bets += full
        np.copyto(self.to_match, to, where=raising)
        acted = self.acted_at[rows, p]
        self.acted_at[rows, p] = np.where(fold, acted, self.to_match)
        nxt = p + 1
        nxt[nxt == self.n] = 0
        actor = self._next_actor(rows, nxt)
        actor[self.live == 1] = -1
        self.to_act[:] = actor
        ended = np.zeros(t, dtype=np.bool_)
        idle = actor < 0
        if idle.any():
            ended[idle] = self._end_round(rows[idle])
            self._update_legal(rows[~ended])
        else:
            self._update_legal(rows)
        return ended

    def _raise_targets(self, a: Ints) -> Ints:
        """The raise-to amount of every table's action number (meaningless where the number
        is not a legal raise)."""
        if isinstance(self.codec, ExactActions):
            return a - 1
        size = self.codec.size
        pot = self.committed.sum(axis=1)
        index = np.clip(a - 2, 0, len(self._fractions) - 1)
        target = self.to_match + (self._fractions[index] * (pot + self.call_amount)).astype(
            np.int64)
        target = np.clip(target, self.min_raise_to, self.max_raise_to)
        return np.where(a == size - 1, self.max_raise_to, target)

    def _refuse(self, row: int, action: object) -> None:
        """Raise the engine's refusal of *action* at table *row* (its rule and numbers)."""
        legal = self.legal(row)
        p = int(self.to_act[row])
        current = int(self.to_match[row])
        # Numbers outside the space, and discrete raises while raising is closed, are
        # refused by the codec itself.
        engine_action = self.codec.decode(action, legal, int(self.committed[row].sum()),  # type: ignore[arg-type]
                                          current)
        if not isinstance(engine_action, Raise) or engine_action in legal:
            raise AssertionError(f"table {row}: {engine_action} is legal; the batch refused it")
        reach = int(self.bets[row, p] + self.stacks[row, p])
        low, high = legal.min_raise_to, legal.max_raise_to
        if low is None or high is None:
            refusal, message = raise_refusal(int(self.raise_code[row]), p, current,
                                             int(self.acted_at[row, p]),
                                             int(self.full_inc[row]), reach)
        else:
            refusal, message = raise_size_refusal(self.structure == FIXED_LIMIT_CODE, p,
                                                  engine_action.to, low, high, current, reach)
        raise IllegalActionError(refusal, f"table {row}: {message}", position=p)

    def legal(self, row: int) -> LegalActions:
        """The legal actions at table *row*, as :attr:`feltro.hand.Hand.legal` gives them."""
        p = int(self.to_act[row])
        if p < 0:
            return LegalActions.none()
        code = int(self.raise_code[row])
        low = int(self.min_raise_to[row]) if code == RAISE_OPEN else None
        high = int(self.max_raise_to[row]) if code == RAISE_OPEN else None
        info = None if code == RAISE_OPEN else (
            code, int(self.to_match[row]), int(self.acted_at[row, p]), int(self.full_inc[row]),
            int(self.bets[row, p] + self.stacks[row, p]))
        owed = int(self.to_match[row] - self.bets[row, p])
        return LegalActions(p, owed <= 0, int(self.call_amount[row]), low, high, info)

    def _next_actor(self, rows: Ints, start: Ints) -> Ints:
        """The first position from *start* clockwise who must still act (B5), or -1."""
        n = self.n
        at = self._at
        live = ~at(self.folded, rows)
        bets = at(self.bets, rows)
        need = live & (at(self.stacks, rows) > 0) & (
            (at(self.acted_at, rows) < 0) | (bets < at(self.to_match, rows)[:, None]))
        lone = at(self.active, rows) < 2
        if lone.any():
            # B5: the one player left with chips acts only to answer a bet it has not
            # matched; a short big blind (D10) counts for what it put in.
            top = np.where(live[lone], bets[lone], 0).max(axis=1)
            need[lone] &= bets[lone] < top[:, None]
        order = start[:, None] + self._positions
        order[order >= n] -= n
        need = np.take_along_axis(need, order, axis=1)
        first = need.argmax(axis=1)
        actor = order[np.arange(len(rows)), first]
        actor[~need.any(axis=1)] = -1
        result: Ints = actor
        return result

    def _at(self, array: Ints | Bools, rows: Ints) -> Any:
        """*array* at *rows*: the array itself when *rows* are all the tables (no copy)."""
        return array if rows is self._rows else array[rows]

    def _update_legal(self, rows: Ints) -> None:
        """The legal actions of the player to act at *rows* (as
        :func:`feltro.betting.raise_bounds`)."""
        if not len(rows):
            return
        p = self.to_act[rows]
        stack = self.stacks[rows, p]
        bet = self.bets[rows, p]
        to_match = self.to_match[rows]
        full_inc = self.full_inc[rows]
        reach = bet + stack
        owed = to_match - bet
        self.call_amount[rows] = np.clip(owed, 0, stack)
        acted = self.acted_at[rows, p]
        # B5: a raise only when someone else left could put in more than the bet, i.e. two
        # players left reach beyond it (the one to act does, or it has no chips to raise).
        beyond = (self.bets + self.stacks) > self.to_match[:, None]
        beyond &= ~self.folded
        answered = (beyond.view(np.uint8) @ self._ones)[rows] >= 2  # a count, as a product
        code = np.where(reach <= to_match, RAISE_NO_CHIPS, np.where(
            ~answered, RAISE_UNANSWERABLE, np.where(
                (acted >= 0) & (to_match - acted < full_inc), RAISE_NOT_REOPENED, RAISE_OPEN)))
        low = to_match + full_inc
        if self.structure == FIXED_LIMIT_CODE:
            code = np.where((code == RAISE_OPEN) & (self.n_bets[rows] >= 4), RAISE_CAPPED, code)
            low = np.minimum(low, reach)
            high = low
        else:
            high = reach
            if self.structure == POT_LIMIT_CODE:
                limit = np.maximum(to_match + self.committed[rows].sum(axis=1) + owed, low)
                high = np.minimum(high, limit)
            low = np.minimum(low, high)  # all-in for less than a full raise (B7)
        closed = code != RAISE_OPEN
        self.raise_code[rows] = code
        self.min_raise_to[rows] = np.where(closed, 0, low)
        self.max_raise_to[rows] = np.where(closed, 0, high)

    # ------------------------------------------------------------------ ending rounds and hands

    def _end_round(self, rows: Ints) -> Bools:
        """End the betting round at *rows* (nobody left to act); returns which hands ended."""
        bets = self.bets[rows]
        holder, excess = _uncalled(bets)  # B7: the part of a bet nobody matched goes back
        back = excess > 0
        if back.any():
            r, h, e = rows[back], holder[back], excess[back]
            self.active[r] += (self.stacks[r, h] == 0) & ~self.folded[r, h]
            self.stacks[r, h] += e
            self.committed[r, h] -= e
        self.bets[rows] = 0
        self.to_act[rows] = -1
        alone = self.live[rows] == 1
        showdown = ~alone & ((self.street[rows] == 3) | (self.active[rows] < 2))
        if alone.any():
            self._award_alone(rows[alone])
        if showdown.any():
            self._showdown(rows[showdown])
        going = rows[~alone & ~showdown]
        if len(going):
            street = self.street[going] + 1
            self.street[going] = street
            self.to_match[going] = 0
            self.full_inc[going] = np.where((self.structure == FIXED_LIMIT_CODE) & (street >= 2),
                                            self.big_bet, self.min_bet)
            self.n_bets[going] = 0
            self.acted_at[going] = -1
            # Two players can act whenever a street begins (active >= 2).
            self.to_act[going] = self._next_actor(going, np.zeros(len(going), dtype=np.int64))
        ended: Bools = alone | showdown
        return ended

    def _award_alone(self, rows: Ints) -> None:
        """Everybody else folded: the last player takes every pot (P1)."""
        winner = (~self.folded[rows]).argmax(axis=1)
        self.stacks[rows, winner] += self.committed[rows].sum(axis=1)
        self._finish(rows)

    def _showdown(self, rows: Ints) -> None:
        """Pay the pots by contribution level to the best hands, odd chips from the button's
        left (P1, P4-P7): one pot per level a live player reached, folded chips included."""
        n = self.n
        k = len(rows)
        committed = self.committed[rows]
        live = ~self.folded[rows]
        strength = np.where(live, self._strengths(rows), -1)
        levels = np.sort(np.where(live, committed, 0), axis=1)
        top = levels[:, -1]
        above = np.maximum(committed - top[:, None], 0).sum(axis=1)
        payout = np.zeros((k, n), dtype=np.int64)
        previous = np.zeros(k, dtype=np.int64)
        for column in range(n):
            level = levels[:, column]
            opens = level > previous
            if not opens.any():
                continue
            amount = (np.clip(committed, previous[:, None], level[:, None])
                      - previous[:, None]).sum(axis=1)
            amount[level == top] += above[level == top]
            amount[~opens] = 0
            eligible = live & (committed >= level[:, None])
            ranked = np.where(eligible, strength, -1)
            winners = eligible & (ranked == ranked.max(axis=1)[:, None])
            count = np.maximum(winners.sum(axis=1), 1)
            share, odd = np.divmod(amount, count)
            extra = np.cumsum(winners, axis=1) <= odd[:, None]  # P7: one each, from the left
            payout += np.where(winners, share[:, None] + extra, 0)
            previous = np.where(opens, level, previous)
        nothing = top == 0  # only folded chips went in: the live players share them
        if nothing.any():
            raise AssertionError("a showdown with no chips from a live player")
        self.stacks[rows] += payout
        self._finish(rows)

    def _strengths(self, rows: Ints) -> npt.NDArray[np.int32]:
        """Every position's seven-card strength at *rows* (:func:`feltro.evaluate`)."""
        key_a, key_b = key_tables()
        n = self.n
        cards = self.cards[rows]
        board = cards[:, self.board_columns]
        board_a = key_a[board].sum(axis=1)
        board_b = key_b[board].sum(axis=1)
        first, second = cards[:, :n], cards[:, n:2 * n]
        hand_a = key_a[first] + key_a[second] + board_a[:, None]
        hand_b = key_b[first] + key_b[second] + board_b[:, None]
        strengths = strengths_from_keys(hand_a.ravel(), hand_b.ravel(), 7)
        return strengths.reshape(len(rows), n)

    def _finish(self, rows: Ints) -> None:
        self.committed[rows] = 0
        self.to_act[rows] = -1
        self.final_stacks[rows] = self.stacks[rows]


def _uncalled(bets: Ints) -> tuple[Ints, Ints]:
    """``(holder, excess)`` by row: the part of the largest bet nobody matched (B7), the
    holder being the first position with it; excess 0 where the top is matched."""
    ordered = np.sort(bets, axis=1)
    top = ordered[:, -1]
    second = ordered[:, -2]
    return bets.argmax(axis=1), top - second
