"""One table of a learning environment, free of any RL library: :class:`PokerGame`.

It drives the hand engine (:class:`~feltro.hand.Hand`) for one hand per episode, or a whole
freezeout through :class:`~feltro.series.Series`, and builds what learners see. The PettingZoo,
Gymnasium and batched environments of :mod:`feltro.env` are thin layers over it.

Agents are numbered ``0..players-1`` (``player_0``...). In a hand episode the *k*-th hand seats
agent ``order[p]`` at hand position *p* (position 0 is the first left of the button, the last
position is the button); in a series the agents are seats ``1..n`` of the series.

The observation array (``float32``, length :func:`observation_size`; ``n`` = players, blocks
indexed by **hand position**, padded with zeros when fewer play, as in a series)::

    [0, 52)      own hole cards, one-hot by card id (rank * 4 + suit, deuce of clubs = 0)
    [52, 104)    board cards, one-hot
    [104, 109)   street one-hot: preflop, flop, turn, river, showdown
    5 blocks of n: own position (one-hot), stacks (chips behind), bets this street,
                 chips committed this hand, folded (1/0)
    1 block of n: dealt in (1 for each position that plays this hand)
    4 blocks of n: chips put in on the preflop, flop, turn and river (the betting so far;
                 uncalled chips returned are not subtracted)
    7 scalars:   pot (all chips in the middle), current bet, chips to call, min raise-to,
                 max raise-to (0 when raising is closed or it is not the agent's turn),
                 big blind, 1 if it is the agent's turn

Chips are raw chip counts (divide by the big blind yourself if you want). Everything comes from
the agent's own view: other players' cards never appear. Once an episode is over the array
shows how its last hand ended (final stacks, the pot paid out).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt

from feltro.actions import CALL, Action
from feltro.cards import Deck, format_cards
from feltro.env.actions import ActionCodec, ExactActions, PotActions, legal_info
from feltro.env.env_config import EnvConfig
from feltro.errors import HistoryError
from feltro.events import ActionTaken, BoardDealt
from feltro.hand import Hand, HandConfig, LegalActions
from feltro.handstate import OVER, HandReading
from feltro.history import dumps, record_of
from feltro.history.record import HandTextWriter
from feltro.series import Series, SeriesConfig

__all__ = ["PokerGame", "observation_size"]

Obs = npt.NDArray[np.float32]

_DECK: tuple[int, ...] = tuple(range(52))
_NOBODY: dict[str, object] = legal_info(LegalActions.none())


def observation_size(players: int) -> int:
    """The length of the observation array for *players* agents."""
    return 109 + 10 * players + 7


class PokerGame:
    """One table: reset, step with action numbers, observe (see the module docstring)."""

    def __init__(self, config: EnvConfig, seed: int | None = None, *,
                 keep_phh: bool = True) -> None:
        self.config = config
        self.keep_phh = keep_phh
        """Whether finished hands are written as PHH (:attr:`phh`); off saves time."""
        self.n = n = config.players
        self.codec: ActionCodec = (ExactActions(config.total_chips) if config.actions == "exact"
                                   else PotActions(config.fractions))
        self.obs_size = observation_size(n)
        self._rng = random.Random(seed if seed is not None else random.SystemRandom().random())
        self.hand: Hand = Hand.start(config.hand_config(tuple(range(n))), Deck.standard())
        self.state: HandReading = self.hand.state
        """The live state of the hand in play, read-only (no copy per read)."""
        self.series: Series | None = None
        self.order: tuple[int, ...] = tuple(range(n))
        self.position_of: list[int] = list(range(n))
        self.hands = 0
        self.over = False
        self.street_in: list[list[int]] = [[0] * n for _ in range(4)]
        self.rewards: list[int] = [0] * n
        """Chips won (or lost, negative) by each agent in hands that ended since
        :meth:`take_rewards`."""
        self.phh: list[str] = []
        """PHH texts of the hands that ended since :meth:`take_rewards`."""
        self.hand_start: list[int] = [0] * n
        self._dealt = 0  # hands dealt since creation: the button rotation
        self._legal: LegalActions | None = None
        # By button shift: the hand configuration, the order and the positions of the agents.
        self._configs: dict[int, tuple[HandConfig, tuple[int, ...], list[int]]] = {}
        self._phh_writer = HandTextWriter()
        self._public: Obs = np.zeros(self.obs_size, dtype=np.float32)
        self._templates: dict[int, Obs] = {}  # the start of a hand's public part, by players
        self._no_mask = np.zeros(self.codec.size, dtype=np.int8)  # copied, never handed out
        self._base = 109 + n  # where the stacks block starts

    # ------------------------------------------------------------------ driving

    def reset(self, seed: int | None = None) -> None:
        """Start a new episode (the first hand is dealt); *seed* restarts the random stream and
        the button rotation, so the same seed gives the same episode."""
        if seed is not None:
            self._rng = random.Random(seed)
            self._dealt = 0
        config = self.config
        self.over = False
        self.rewards = [0] * self.n
        self.phh = []
        self.hands = 0
        if config.episode == "series":
            series_config = SeriesConfig.with_players(
                self.n, starting_stack=config.agent_stacks[0], small_blind=config.small_blind,
                big_blind=config.big_blind, ante=config.ante, structure=config.structure,
                max_hands=config.max_hands)
            self.series = Series(series_config, self._rng.getrandbits(64))
        self._deal()

    def _deal(self) -> None:
        """Deal hands until one needs a decision or the episode is over."""
        n = self.n
        while True:
            if self.series is not None:
                hand = self.series.next_hand()
                if hand is None:
                    self._build_public()  # how the last hand ended
                    self.over = True
                    return
                seating = self.series.seating
                assert seating is not None
                order = tuple(seat - 1 for seat in seating.order)
                self.position_of = self._positions(order)
            else:
                shift = self._dealt % n if self.config.rotate else 0
                seated = self._configs.get(shift)
                if seated is None:
                    order = tuple((p + shift) % n for p in range(n))
                    seated = self._configs[shift] = (self.config.hand_config(order), order,
                                                     self._positions(order))
                hand_config, order, self.position_of = seated
                # Only the cards a hand can use are drawn (2 each, 3 burns, 5 on the board).
                hand = Hand.start(hand_config, self._rng.sample(_DECK, 2 * n + 8))
            self.hands += 1
            self._dealt += 1
            self.hand = hand
            self.state = hand.state
            self.order = order
            self.street_in = [[0] * n for _ in range(4)]
            self.hand_start = list(hand.config.stacks)
            self._legal = None
            self._start_public()
            if not hand.is_over:
                return
            self._finish_hand()
            if self.series is None:
                self.over = True
                return

    def _positions(self, order: tuple[int, ...]) -> list[int]:
        """Each agent's hand position when ``order[p]`` sits at *p* (-1: not dealt in)."""
        position_of = [-1] * self.n
        for p, agent in enumerate(order):
            position_of[agent] = p
        return position_of

    @property
    def to_act(self) -> int | None:
        """The agent to act, or ``None`` when the episode is over."""
        p = self.state.to_act
        return None if p is None or self.over else self.order[p]

    @property
    def legal(self) -> LegalActions:
        """The legal actions of the agent to act (computed once per decision)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self.hand.legal
        return legal

    def step(self, action: int) -> bool:
        """Play action number *action* for the agent to act; True when a hand ended.

        :raises IllegalActionError: for an action the rules refuse (nothing changes), or when
            the episode is over.
        """
        s = self.state
        if action == 1:  # check or call (the engine checks when nothing is owed): no decoding
            return self.play(CALL)
        return self.play(self.codec.decode(action, self.legal, sum(s.committed),
                                           s.to_match))

    def play(self, engine_action: Action) -> bool:
        """:meth:`step` with an engine action (``Raise(25)``, ``CALL``...), as bots answer."""
        hand = self.hand
        s = self.state
        p = s.to_act
        if p is None or self.over:
            from feltro.errors import IllegalActionError, Refusal
            raise IllegalActionError(Refusal("B5", "hand-over", {}),
                                     "the episode is over: call reset()")
        street = s.street
        series = self.series
        events = (series.act(engine_action) if series is not None
                  else hand.apply(engine_action))
        self._legal = None
        first = events[0]
        chips = first.chips if type(first) is ActionTaken else 0
        if chips:
            self.street_in[street][p] += chips
        if s.phase != OVER:
            if len(events) == 1 and s.street == street:
                self._update_public(p, street, chips)
            elif (len(events) == 2 and s.street == street + 1
                  and type(events[1]) is BoardDealt):
                self._next_street(p, street, chips, events[1].cards)
            else:
                self._build_public()
            return False
        self._finish_hand()
        if series is not None:
            self._deal()
        else:
            self._build_public()  # how the hand ended, for the agents' last observations
            self.over = True
        return True

    def _finish_hand(self) -> None:
        hand = self.hand
        result = hand.result()
        rewards = self.rewards
        start = self.hand_start
        for p, agent in enumerate(self.order):
            rewards[agent] += result.stacks[p] - start[p]
        if self.keep_phh:
            self.phh.append(self.hand_phh())

    def take_rewards(self) -> tuple[list[int], list[str]]:
        """The chip changes and PHH texts gathered since the last call, and clear them."""
        rewards, phh = self.rewards, self.phh
        self.rewards = [0] * self.n
        self.phh = []
        return rewards, phh

    # ------------------------------------------------------------------ seeing

    def hand_phh(self) -> str:
        """The finished hand as PHH text, every card included (for audits and replays);
        ``seats`` are the agents' numbers plus one.

        Pot-limit has no PHH variant: the text is then a comment saying so.
        """
        return self._phh_writer.text(self.hand, tuple(a + 1 for a in self.order))

    def _start_public(self) -> None:
        """:meth:`_build_public` for a hand just dealt, from a kept template of what does not
        change (the street, who is dealt in, the big blind)."""
        s = self.state
        k = len(self.order)
        if s.board or s.street or True in s.folded:  # not a plain start
            self._build_public()
            return
        template = self._templates.get(k)
        if template is None:
            template = np.zeros(self.obs_size, dtype=np.float32)
            template[104] = 1
            start = self._base + 4 * self.n
            template[start:start + k] = 1
            template[-2] = self.config.big_blind
            self._templates[k] = template
        public = self._public = template.copy()
        pad = [0] * (self.n - k)
        base = self._base
        public[base:base + 3 * self.n] = [*s.stacks, *pad, *s.bets, *pad,
                                          *s.committed, *pad]
        public[-7] = sum(s.committed)
        public[-6] = s.to_match

    def _build_public(self) -> None:
        """The part of the observation every agent shares, built in full."""
        s = self.state
        n = self.n
        public = np.zeros(self.obs_size, dtype=np.float32)
        for card in s.board:
            public[52 + card] = 1
        public[104 + s.street] = 1
        k = len(self.order)
        pad = [0] * (n - k)  # positions nobody holds (a series with players out)
        first, second, third, fourth = self.street_in
        base = self._base
        # The nine blocks of n at once (one conversion is cheaper than nine).
        public[base:base + 9 * n] = [*s.stacks, *pad, *s.bets, *pad, *s.committed,
                                     *pad, *s.folded, *pad, *[1] * k, *pad,
                                     *first, *second, *third, *fourth]
        public[-7] = sum(s.committed)
        public[-6] = s.to_match
        public[-2] = self.config.big_blind
        self._public = public

    def _update_public(self, p: int, street: int, chips: int) -> None:
        """After one action inside a street only the actor's numbers and the bet change: none
        but the folded flag for a fold or a check, the chips for a bet, call or raise."""
        s = self.state
        public = self._public
        n = self.n
        base = self._base + p
        if chips:
            committed = s.committed
            public[base] = s.stacks[p]
            public[base + n] = s.bets[p]
            public[base + 2 * n] = committed[p]
            public[base + (5 + street) * n] = self.street_in[street][p]
            public[-7] = sum(committed)
            public[-6] = s.to_match
        elif s.folded[p]:
            public[base + 3 * n] = 1

    def _next_street(self, p: int, street: int, chips: int, cards: tuple[int, ...]) -> None:
        """After the action of *p* that closed *street* and the next street's *cards*: the
        actor's numbers, no bets, the board and the street change."""
        self._update_public(p, street, chips)
        public = self._public
        start = self._base + self.n
        public[start:start + len(self.order)] = 0
        for card in cards:
            public[52 + card] = 1
        public[104 + street] = 0
        public[105 + street] = 1
        public[-6] = self.state.to_match

    def observation(self, agent: int) -> Obs:
        """The observation array of *agent* (see the module docstring)."""
        obs = self._public.copy()
        p = self.position_of[agent]
        if p < 0:
            return obs
        hand = self.hand
        s = self.state
        first, second = s.holes[p]  # hold'em: two cards, always dealt here
        obs[first] = 1
        obs[second] = 1
        obs[109 + p] = 1
        if s.to_act == p and not self.over:
            legal = self._legal
            if legal is None:
                legal = self._legal = hand.legal
            obs[-5] = legal.call_amount
            low = legal.min_raise_to
            if low is not None:
                obs[-4] = low
                obs[-3] = legal.max_raise_to
            obs[-1] = 1
        else:
            owe = s.to_match - s.bets[p]
            stack = s.stacks[p]
            obs[-5] = owe if 0 < owe < stack else stack if owe > 0 else 0
        return obs

    def action_mask(self, agent: int) -> npt.NDArray[np.int8]:
        """The exact mask of *agent* (all zeros when it is not the agent's turn)."""
        p = self.position_of[agent]
        if self.over or p < 0 or self.state.to_act != p:
            return self._no_mask.copy()
        legal = self._legal
        if legal is None:
            legal = self._legal = self.hand.legal
        return self.codec.mask(legal)

    def legal_info(self, agent: int) -> dict[str, object]:
        """``infos[agent]["legal"]``: exact legal actions, empty-handed when not its turn."""
        p = self.position_of[agent]
        if self.over or p < 0 or self.state.to_act != p:
            return dict(_NOBODY)
        legal = self._legal
        if legal is None:
            legal = self._legal = self.hand.legal
        return legal_info(legal)

    def observation_dict(self, agent: int) -> dict[str, Any]:
        """The observation of *agent* as a readable dict, with the PHH of the hand so far.

        Other players' unshown cards are ``??`` in the PHH text.
        """
        hand = self.hand
        p = self.position_of[agent]
        hole = hand.hole(p) if p >= 0 else ()
        try:
            mine = () if p < 0 else (p,)  # an agent not dealt in sees nobody's cards
            phh = dumps(record_of(hand, visible_to=None if hand.is_over else mine))
        except HistoryError as exc:
            phh = f"# no PHH: {exc}\n"
        return {
            "agent": agent,
            "position": None if p < 0 else p,
            "seats": list(self.order),
            "button": len(self.order) - 1,
            "street": hand.street.value,
            "hole": format_cards(c for c in hole if c is not None),
            "board": format_cards(hand.board),
            "stacks": list(hand.stacks),
            "bets": list(hand.bets),
            "committed": list(hand.committed),
            "folded": list(hand.folded),
            "pot": hand.pot,
            "pots": [{"amount": pot.amount, "eligible": [self.order[q] for q in pot.eligible]}
                     for pot in hand.pots()] if not hand.is_over else [],
            "current_bet": hand.current_bet,
            "street_in": [list(row) for row in self.street_in],
            "legal": self.legal_info(agent),
            "phh": phh,
        }

    def render(self, mode: str | None) -> str | None:
        """Every env's ``render()``: the text for ``"ansi"``, printed for ``"human"``."""
        text = self.render_text()
        if mode == "ansi":
            return text
        print(text)
        return None

    def render_text(self) -> str:
        """The table as a few lines of text (what ``render()`` prints)."""
        hand = self.hand
        lines = [f"hand {self.hands} · {hand.street.value} · board "
                 f"{format_cards(hand.board) or '-'} · pot {hand.pot}"]
        for p, agent in enumerate(self.order):
            marks = []
            if p == len(self.order) - 1:
                marks.append("button")
            if hand.folded[p]:
                marks.append("folded")
            if hand.to_act == p:
                marks.append("to act")
            hole = format_cards(c for c in hand.hole(p) if c is not None)
            lines.append(f"  player_{agent} (p{p + 1}) {hole} "
                         f"stack {hand.stacks[p]} bet {hand.bets[p]} "
                         f"{' '.join(marks)}".rstrip())
        if hand.is_over:
            lines.append(f"  result: stacks {list(hand.result().stacks)}")
        return "\n".join(lines)

