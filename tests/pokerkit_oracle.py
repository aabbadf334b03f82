"""PokerKit 0.7.7 as an oracle for the rules: every hand feltro plays, replayed line by line in
PokerKit, must end with the same stacks.

Used by ``tests/test_pokerkit_oracle.py`` (a few thousand hands in CI) and runnable for a bigger
run (``python tests/pokerkit_oracle.py --hands 20000``). The hands come from both engines: the
hand engine (:class:`~feltro.hand.Hand`, directly and through the learning environment's
:class:`~feltro.env.game.PokerGame`) and the array engine (``vector_env``), with 2-10 players,
unequal stacks, antes, no-limit, fixed-limit and pot-limit, under three policies (random,
raise-heavy, all-in). Each hand is written as PHH by feltro's own writer and that text is what
PokerKit replays: every deal, fold, call and raise line, in order, must be accepted by PokerKit
as the move of the player PokerKit has to act. Nothing is normalised: a line PokerKit refuses
(as it refuses a raise nobody can call) is a failure. Pot-limit hold'em has no PHH variant, so
those hands replay from the engine's events instead (the same lines, not written out).

Where RULES.md and PokerKit differ the oracle does not guess:

* **Settlement is the house's** (P1, P7): PokerKit plays the hand up to its showdown; the pots
  are then formed and paid as RULES.md says from what PokerKit has each player put in and from
  PokerKit's hand ranking: pots with the same contenders are one pot, and odd chips go one at
  a time to the winners from the button's left. (PokerKit merges pots once losing hands are
  discarded and gives a split pot's whole remainder to one winner.)
* **Fixed-limit caps** (B10): a short all-in bet or raise does not count toward the four bets
  (feltro's reading, docs/design.md); PokerKit counts it, so after such a line the oracle
  takes one off PokerKit's count.
* **Short all-ins that add up** (B8, X3): when several short all-ins add up to a full raise,
  the players who acted before them may raise again; PokerKit counts them as a full raise but
  keeps those players closed, so the oracle reopens them as PokerKit does after a full raise.
* **D10 is left out by construction**: PokerKit lets the others call only what a short big
  blind posted, where D10 makes them face the full big blind; the configurations give the big
  blind at least its blind and ante (every other stack may be as short as one chip).
* **Checks B5 does not ask for**: PokerKit sometimes asks a player who owes nothing and has
  nobody to bet against for a check (three-handed, the big blind after the button folds and
  the small blind calls all-in; heads-up it asks nobody, as B5). The oracle answers it (no chip
  moves) and counts it in ``pokerkit_checks``.

Everything else must agree: who acts, what is legal, the pots and who wins them.
"""

from __future__ import annotations

import argparse
import random
import time
import warnings
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from pokerkit import (
    Automation,
    FixedLimitTexasHoldem,
    Folding,
    NoLimitTexasHoldem,
    State,
)
from pokerkit.games import PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem

from feltro.actions import CALL, FOLD, Action, Raise
from feltro.cards import Deck
from feltro.config import HandConfig, Structure
from feltro.events import ActionTaken, BoardDealt
from feltro.hand import Hand
from feltro.history import HandRecord, loads, record_of
from feltro.history.phh import Verb

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
)
"""PokerKit posts, burns, collects and shows by itself; it stops before killing hands and
pushing chips, and the house pays the pots (see the module docstring)."""

POLICIES = ("random", "raise-heavy", "all-in")


class PotLimitTexasHoldem(PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem):
    """Pot-limit hold'em, which PokerKit can play but does not name."""


# ---------------------------------------------------------------------- the hand, as PokerKit lines


@dataclass(frozen=True)
class Line:
    """One line of a history: ``verb`` is ``"dh"``, ``"db"``, ``"f"``, ``"cc"`` or ``"cbr"``."""

    verb: str
    player: int | None = None
    cards: str = ""
    amount: int = 0


@dataclass(frozen=True)
class Game:
    """What PokerKit needs to set a hand up, in PHH's terms (blinds and antes reversed heads-up),
    its lines, and the stacks feltro ended with."""

    structure: Structure
    antes: tuple[int, ...]
    blinds: tuple[int, ...]
    min_bet: int
    big_bet: int
    stacks: tuple[int, ...]
    ante_trimming: bool
    lines: tuple[Line, ...]
    finishing: tuple[int, ...]


def game_of_record(record: HandRecord) -> Game:
    """A PHH record (as feltro writes it) as a :class:`Game`."""
    lines: list[Line] = []
    for action in record.parsed_actions():
        verb = action.verb
        cards = "".join(str(c) for c in action.cards if c is not None)
        if verb is Verb.DEAL_HOLE:
            lines.append(Line("dh", action.player, cards))
        elif verb is Verb.DEAL_BOARD:
            lines.append(Line("db", None, cards))
        elif verb is Verb.FOLD:
            lines.append(Line("f", action.player))
        elif verb is Verb.CHECK_OR_CALL:
            lines.append(Line("cc", action.player))
        elif verb is Verb.BET_OR_RAISE_TO:
            assert isinstance(action.amount, int)
            lines.append(Line("cbr", action.player, amount=action.amount))
        # shows and mucks: PokerKit shows (or mucks a hand that cannot win) by itself
    fixed = record.variant == "FT"
    assert record.finishing_stacks is not None
    return Game(
        Structure.FIXED_LIMIT if fixed else Structure.NO_LIMIT,
        tuple(int(a) for a in record.antes),
        tuple(int(b) for b in record.blinds_or_straddles),
        int(record.small_bet if fixed else record.min_bet),  # type: ignore[arg-type]
        int(record.big_bet) if fixed else 0,  # type: ignore[arg-type]
        tuple(int(s) for s in record.starting_stacks),
        bool(record.ante_trimming_status),
        tuple(lines),
        tuple(int(s) for s in record.finishing_stacks),
    )


def game_of_hand(hand: Hand) -> Game:
    """A finished hand as a :class:`Game`: through its PHH text when PHH has the variant (the
    text is what is replayed), else (pot-limit) from its events."""
    if hand.config.structure is not Structure.POT_LIMIT:
        from feltro.history import dumps

        return game_of_record(loads(dumps(record_of(hand))))
    config = hand.config
    n = config.players
    lines = [Line("dh", p, "".join(str(c) for c in hand.hole(p))) for p in range(n)]
    for event in hand.events:
        if isinstance(event, BoardDealt):
            lines.append(Line("db", None, "".join(map(str, event.cards))))
        elif isinstance(event, ActionTaken):
            kind = event.action
            if isinstance(kind, Raise):
                lines.append(Line("cbr", event.position, amount=kind.to))
            else:
                lines.append(Line("f" if kind == FOLD else "cc", event.position))
    antes = config.antes or (0,) * n

    def order(values: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(reversed(values)) if n == 2 else values  # PHH's heads-up order

    return Game(Structure.POT_LIMIT, order(antes), order(config.blinds),
                config.min_bet or config.big_blind, 0, config.stacks, config.ante_trimming,
                tuple(lines), hand.result().stacks)


# ---------------------------------------------------------------------- PokerKit's replay


def pokerkit_state(game: Game) -> State:
    n = len(game.stacks)
    if game.structure is Structure.FIXED_LIMIT:
        return FixedLimitTexasHoldem.create_state(
            AUTOMATIONS, game.ante_trimming, game.antes, game.blinds, game.min_bet,
            game.big_bet, game.stacks, n)
    if game.structure is Structure.POT_LIMIT:
        return PotLimitTexasHoldem(AUTOMATIONS, game.ante_trimming, game.antes, game.blinds,
                                   game.min_bet)(game.stacks, n)
    return NoLimitTexasHoldem.create_state(AUTOMATIONS, game.ante_trimming, game.antes,
                                           game.blinds, game.min_bet, game.stacks, n)


class PokerKitDisagreesError(Exception):
    """PokerKit refused a line, asked for another player, or ended with other stacks."""


def replay_in_pokerkit(game: Game, report: Report) -> tuple[int, ...]:
    """Play every line of *game* in PokerKit and pay the pots the house's way; the final stacks.

    :raises PokerKitDisagreesError: naming the first line PokerKit does not take as written.
    """
    state = pokerkit_state(game)
    holes = [line.cards for line in game.lines if line.verb == "dh"]
    for k in range(2):  # D4: first cards round the table, then the second cards
        for cards in holes:
            state.deal_hole(cards[2 * k:2 * k + 2])
    for index, line in enumerate(game.lines):
        if line.verb == "dh":
            continue
        try:
            if line.verb == "db":
                _answer_pokerkit_checks(state, None, report)
                state.deal_board(line.cards)
                continue
            _answer_pokerkit_checks(state, line.player, report)
            if state.actor_index != line.player:
                raise PokerKitDisagreesError(f"line {index} ({line}): PokerKit has "
                                             f"{_who(state.actor_index)} to act")
            if line.verb == "f":
                state.fold()
            elif line.verb == "cc":
                state.check_or_call()
            else:
                _bet_or_raise(state, game, line.amount)
        except ValueError as exc:
            raise PokerKitDisagreesError(
                f"line {index} ({line}): PokerKit refuses it: {exc}") from None
    _answer_pokerkit_checks(state, None, report)
    if state.actor_index is not None or state.can_deal_board():
        raise PokerKitDisagreesError(f"the history ends while PokerKit still has "
                                     f"{_who(state.actor_index)} to act or cards to deal")
    return _house_settlement(state, game)


def _answer_pokerkit_checks(state: State, player: int | None, report: Report) -> None:
    """Check for a player PokerKit asks and the history does not, when that player owes nothing
    and every other player still in is all-in: B5 asks nobody there (PokerKit asks the big
    blind three-handed after a fold, not heads-up). No chips move; each is counted."""
    while True:
        actor = state.actor_index
        if actor is None or actor == player or state.checking_or_calling_amount:
            return
        if any(state.stacks[q] for q in range(state.player_count)
               if q != actor and state.statuses[q]):
            return
        state.check_or_call()
        report.pokerkit_checks += 1


def _who(index: int | None) -> str:
    return "nobody" if index is None else f"p{index + 1}"


def _bet_or_raise(state: State, game: Game, to: int) -> None:
    """``cbr to``, with two readings of RULES.md told to PokerKit (see the module docstring):
    in fixed-limit a short all-in does not count toward the cap of four (B10), and short
    all-ins that add up to a full raise reopen the betting for the players who acted before
    them (B8, X3), where PokerKit keeps those players closed."""
    street = state.street_index
    full = max(state.bets) + (game.min_bet if street is not None and street < 2
                              else game.big_bet)
    actor = state.actor_index
    shorts = bool(state.consecutive_short_all_in_amounts)
    state.complete_bet_or_raise_to(to)
    if game.structure is Structure.FIXED_LIMIT and to < full:
        state.completion_betting_or_raising_count -= 1
    if shorts and not state.consecutive_short_all_in_amounts and actor is not None:
        state.acted_player_indices.clear()  # as PokerKit does after any full raise
        state.acted_player_indices.add(actor)


def _house_settlement(state: State, game: Game) -> tuple[int, ...]:
    """The stacks once the pots are paid by RULES.md: pots formed by P1 from what each player
    put in (as PokerKit has it), a new pot only where the live contenders change (a mucked hand
    still counts there, it just cannot win), each to the best hands PokerKit ranks among those
    shown, odd chips one each from the button's left (P7; PokerKit's player 0)."""
    n = state.player_count
    folded = {op.player_index for op in state.operations if isinstance(op, Folding)}
    live = [p for p in range(n) if p not in folded]
    # Everything that left a stack: the pots, and bets PokerKit leaves in front of the players
    # when all but one folded (the last player takes them all, whatever was uncalled).
    put_in = [game.stacks[p] - state.stacks[p] for p in range(n)]
    dead = 0
    if not game.ante_trimming:  # antes are dead money in the main pot (PHH's default)
        dead = sum(game.antes)
        put_in = [c - a for c, a in zip(put_in, game.antes, strict=True)]
    stacks = list(state.stacks)
    hands = list(state.get_up_hands(0, 0)) if len(live) > 1 else [None] * n
    for amount, contenders in house_pots(put_in, live, dead):
        shown = [p for p in contenders if hands[p] is not None]
        if shown:
            best = max(hands[p] for p in shown)  # type: ignore[type-var]
            winners = [p for p in shown if hands[p] == best]
        else:
            winners = contenders[:1]  # everybody else folded
        share, odd = divmod(amount, len(winners))
        for k, p in enumerate(winners):
            stacks[p] += share + (1 if k < odd else 0)
    return tuple(stacks)


def house_pots(put_in: Sequence[int], live: Sequence[int], dead: int = 0,
               ) -> list[tuple[int, list[int]]]:
    """P1, written here apart from feltro's own: ``(amount, contenders)`` by level of the live
    players' contributions, folded chips included, consecutive levels with the same contenders
    one pot; chips above the top live level join the top pot; *dead* chips the main pot.

    >>> house_pots([1, 2, 5, 8, 8], [3, 4])   # blinds, a raiser who folded: one pot
    [(24, [3, 4])]
    >>> house_pots([20, 50, 50], [0, 1, 2])
    [(60, [0, 1, 2]), (60, [1, 2])]
    """
    pots: list[tuple[int, list[int]]] = []
    below = 0
    for level in sorted({put_in[p] for p in live if put_in[p] > 0}):
        amount = sum(min(c, level) - below for c in put_in if c > below)
        contenders = [p for p in live if put_in[p] >= level]
        if pots and pots[-1][1] == contenders:
            pots[-1] = (pots[-1][0] + amount, contenders)
        else:
            pots.append((amount, contenders))
        below = level
    above = sum(c - below for c in put_in if c > below)
    if above and pots:
        pots[-1] = (pots[-1][0] + above, pots[-1][1])
    elif above or not pots:
        pots.append((above, list(live)))
    if dead:
        if pots[0][1] == list(live):
            pots[0] = (pots[0][0] + dead, pots[0][1])
        else:
            pots.insert(0, (dead, list(live)))
    return pots


# ---------------------------------------------------------------------- hands to check


def random_config(rng: random.Random) -> HandConfig:
    """2-10 players, unequal stacks (as short as one chip, D10 aside), maybe antes, any
    structure."""
    n = rng.randint(2, 10)
    structure = rng.choice([Structure.NO_LIMIT] * 3 + [Structure.FIXED_LIMIT,
                                                          Structure.POT_LIMIT])
    ante = rng.choice([0, 0, 0, 1, 2])
    stacks = [rng.randint(1, 14) if rng.random() < 0.35 else rng.randint(15, 400)
              for _ in range(n)]
    config = HandConfig.standard(stacks, ante=ante, structure=structure)
    bb = config.big_blind_position
    stacks[bb] = max(stacks[bb], 2 + ante)  # the big blind covers its blind (D10, see above)
    return config.replace(stacks=tuple(stacks))


def choose(legal: Any, policy: str, rng: random.Random) -> Action:
    """A policy's pick among what is legal; it folds only facing a bet (PokerKit refuses a fold
    when checking is free: "no reason to fold", which feltro allows, B3)."""
    low, high = legal.min_raise_to, legal.max_raise_to
    raises: list[Action] = [] if low is None else [Raise(low), Raise(high), Raise(
        rng.randint(low, high))]
    if policy == "all-in" and raises and rng.random() < 0.5:
        return raises[1]
    weights = {"random": (1, 3, 2), "raise-heavy": (1, 2, 5), "all-in": (1, 3, 1)}[policy]
    options: list[tuple[Action, int]] = [(CALL, weights[1])]
    if not legal.can_check:
        options.append((FOLD, weights[0]))
    options += [(r, weights[2]) for r in raises]
    actions, odds = zip(*options, strict=True)
    pick: Action = rng.choices(actions, odds)[0]
    return pick


def engine_hands(count: int, seed: int) -> Iterator[tuple[str, Hand]]:
    """*count* hands of the hand engine from random configurations and policies."""
    rng = random.Random(seed)
    for k in range(count):
        policy = POLICIES[k % 3]
        hand = Hand.start(random_config(rng), Deck.shuffled(rng))
        while hand.to_act is not None:
            hand.apply(choose(hand.legal, policy, rng))
        yield f"engine {policy} #{k}", hand


def env_settings(rng: random.Random) -> dict[str, Any]:
    """An environment's settings: 2-10 players, unequal stacks, antes, any structure."""
    n = rng.randint(2, 10)
    ante = rng.choice([0, 0, 1, 2])
    floor = 2 + ante  # every agent is the big blind in turn: it covers its blind (D10)
    return {"players": n, "ante": ante,
            "structure": rng.choice(["no-limit", "no-limit", "fixed-limit", "pot-limit"]),
            "stacks": [rng.randint(floor, 14) if rng.random() < 0.35 else
                       rng.randint(15, 400) for _ in range(n)]}


def aec_hands(count: int, seed: int) -> Iterator[tuple[str, Game]]:
    """Hands of the environment's :class:`PokerGame` (the hand engine), masked random actions
    weighted by policy; each as the PHH the environment reports (pot-limit: its events)."""
    from feltro.env.env_config import EnvConfig
    from feltro.env.game import PokerGame

    rng = random.Random(seed)
    done = 0
    while done < count:
        settings = env_settings(rng)
        game = PokerGame(EnvConfig(**settings), rng.getrandbits(32), keep_phh=True)
        policy = POLICIES[done % 3]
        for _ in range(min(50, count - done)):
            game.reset()
            hand = game.hand
            while game.to_act is not None:
                game.play(choose(game.legal, policy, rng))
            _, texts = game.take_rewards()
            if settings["structure"] == "pot-limit":
                yield f"aec {settings} {policy}", game_of_hand(hand)
            else:
                yield f"aec {settings} {policy}", game_of_record(loads(texts[-1]))
            done += 1


def batch_hands(count: int, seed: int) -> Iterator[tuple[str, Game]]:
    """Hands of the array engine (``vector_env``), each as the PHH it reports (written by the
    hand engine's replay, which checks the array engine's final stacks); pot-limit from the
    replayed hand's events."""
    import numpy as np

    from feltro.env.env_config import EnvConfig
    from feltro.env.vector import VectorEnv

    rng = random.Random(seed)
    gen = np.random.default_rng(seed)
    done = 0
    while done < count:
        settings = env_settings(rng)
        tables = VectorEnv(64, EnvConfig(**settings), rng.getrandbits(32))
        obs, mask, _ = tables.reset()
        policy = POLICIES[done % 3]
        while done < count:
            actions = _masked_choice(obs, mask, policy, gen)
            obs, mask, _, dones, _, infos = tables.step(actions)
            for row in np.flatnonzero(dones).tolist():
                finished = infos[row]
                hand = finished.hand()  # type: ignore[attr-defined]
                final = tuple(int(x) for x in tables.tables.final_stacks[row])
                if hand.result().stacks != final:
                    raise PokerKitDisagreesError(
                        f"batch: the hand engine ends {hand.result().stacks}, the array engine "
                        f"{final}")
                yield f"batch {settings} {policy}", game_of_hand(hand)
                done += 1
            if int(tables.tables.dealt.min()) > 12:
                break


def _masked_choice(obs: Any, mask: Any, policy: str, gen: Any) -> Any:
    """A policy's action numbers from the masks (no fold when checking is free: obs[-5] is
    the amount to call, see :func:`choose`)."""
    import numpy as np

    weights = mask.astype(np.float64)
    weights[obs[:, -5] == 0, 0] = 0
    if policy == "raise-heavy":
        weights[:, 2:] *= 4.0 / np.maximum(weights[:, 2:].sum(axis=1, keepdims=True), 1)
    elif policy == "all-in":
        last = mask.shape[1] - 1 - np.argmax(mask[:, ::-1], axis=1)
        weights[:, 2:] *= 0.2 / np.maximum(weights[:, 2:].sum(axis=1, keepdims=True), 1)
        weights[np.arange(len(mask)), last] += np.where(last >= 2, 2.0, 0.0)
    else:
        weights[:, 2:] *= 1.0 / np.maximum(weights[:, 2:].sum(axis=1, keepdims=True), 1)
    weights[:, 1] *= 3
    cumulative = np.cumsum(weights, axis=1)
    draw = gen.random(len(mask)) * cumulative[:, -1]
    return (cumulative < draw[:, None]).sum(axis=1)


# ---------------------------------------------------------------------- the check


@dataclass
class Report:
    """How many hands were compared, by source, what they covered, and the ones that
    disagreed."""

    compared: Counter[str] = field(default_factory=Counter)
    covered: Counter[str] = field(default_factory=Counter)
    """Hands by structure, by player count (``"2 players"``), with antes, with a bust."""
    failures: list[str] = field(default_factory=list)
    raise_as_call: int = 0
    """Lines changed so that PokerKit takes them (always 0: nothing is normalised)."""
    pokerkit_checks: int = 0
    """Checks PokerKit asked for that B5 does not (answered; no chips move)."""

    @property
    def total(self) -> int:
        return sum(self.compared.values())


def check(games: Iterator[tuple[str, Game]], source: str, report: Report) -> None:
    """Replay every game in PokerKit and compare the final stacks."""
    with warnings.catch_warnings():
        # PokerKit warns when told which card to deal instead of dealing from its own deck.
        warnings.simplefilter("ignore", UserWarning)
        for label, game in games:
            report.compared[source] += 1
            _cover(game, report.covered)
            try:
                theirs = replay_in_pokerkit(game, report)
            except PokerKitDisagreesError as exc:
                report.failures.append(f"{label}: {exc}")
                continue
            if theirs != game.finishing:
                report.failures.append(f"{label}: feltro ends {game.finishing}, PokerKit "
                                       f"{theirs}")


def _cover(game: Game, covered: Counter[str]) -> None:
    covered[game.structure.value] += 1
    covered[f"{len(game.stacks)} players"] += 1
    covered["antes"] += any(game.antes)
    covered["someone lost every chip"] += 0 in game.finishing


def run(hands: int, seed: int) -> Report:
    """*hands* hands in all: a third from each of the engine, the AEC env and the batch env."""
    report = Report()
    third = hands // 3
    check(((label, game_of_hand(hand)) for label, hand in engine_hands(third, seed)),
          "engine", report)
    check(aec_hands(third, seed + 1), "aec", report)
    check(batch_hands(hands - 2 * third, seed + 2), "batch", report)
    return report


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Replay feltro's hands in PokerKit.")
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    report = run(args.hands, args.seed)
    print(f"hands compared: {report.total} ({dict(report.compared)}); disagreements: "
          f"{len(report.failures)}; raise-as-call: {report.raise_as_call}; checks PokerKit "
          f"asked for and B5 does not: {report.pokerkit_checks}; "
          f"{time.perf_counter() - began:.0f} s")
    print(f"covered: {dict(sorted(report.covered.items()))}")
    for failure in report.failures[:20]:
        print(f"  {failure}")
    raise SystemExit(1 if report.failures else 0)


if __name__ == "__main__":
    main()
