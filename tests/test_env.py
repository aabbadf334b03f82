"""The learning environments (feltro.env): API checks, then many hands checked against the rules.

PettingZoo's and Gymnasium's checkers play about one hand; the multi-hand tests below drive the
environments with a seeded random masked policy and check every hand: chips conserved (G3),
side pots (P1) and odd chips (P7) paid as the engine's replay of the hand's PHH pays them.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env
from pettingzoo import AECEnv
from pettingzoo.test import api_test, parallel_api_test

from feltro.actions import Raise
from feltro.env import EnvConfig, PokerGame, env, parallel_env, single_agent_env, vector_env
from feltro.env.actions import ExactActions
from feltro.env.aec import PokerAEC
from feltro.errors import ConfigError, IllegalActionError
from feltro.hand import LegalActions
from feltro.history import loads, replay


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


# ---------------------------------------------------------------- API checks

@pytest.mark.parametrize("settings", [
    {"players": 6},
    {"players": 2},
    {"players": 10, "stacks": 50},
    {"players": 4, "actions": "discrete"},
    {"players": 3, "episode": "series", "stacks": 20, "max_hands": 30},
    {"players": 3, "structure": "fixed-limit", "ante": 1},
    {"players": 5, "structure": "pot-limit"},
])
def test_pettingzoo_api_test(settings: dict[str, Any]) -> None:
    api_test(env(seed=1, **settings), num_cycles=300)


@pytest.mark.parametrize("settings", [
    {"players": 6}, {"players": 2, "actions": "discrete"},
    {"players": 3, "episode": "series", "stacks": 20, "max_hands": 30},
])
def test_pettingzoo_parallel_api_test(settings: dict[str, Any]) -> None:
    parallel_api_test(parallel_env(seed=1, **settings), num_cycles=300)


@pytest.mark.parametrize("settings", [{"players": 6}, {"players": 2, "actions": "discrete"}])
def test_gymnasium_check_env(settings: dict[str, Any]) -> None:
    check_env(single_agent_env(opponents="rules", seed=3, **settings), skip_render_check=True)


# ---------------------------------------------------------------- playing many hands

def play_aec(seed: int, hands: int, **settings: Any) -> list[dict[str, Any]]:
    """Play *hands* episodes with a random masked policy; one record per finished hand."""
    rng = np.random.default_rng(seed)
    table = env(seed=seed, **settings)
    records: list[dict[str, Any]] = []
    for episode in range(hands):
        table.reset(seed=seed * 1000 + episode)
        start = dict.fromkeys(table.possible_agents, 0.0)
        while table.agents:
            agent = table.agent_selection
            observation, _, terminated, truncated, info = table.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                assert info["legal"]["to_act"]
                action = int(rng.choice(legal))
            game = table.game
            before_hands = game.hands
            table.step(action)
            if "phh" in table.infos.get(agent, {}) and action is not None:
                hand = game.hand if game.hands == before_hands else None
                records.append({"phh": table.infos[agent]["phh"],
                                "hands": table.infos[agent]["hands"],
                                "rewards": {a: table.rewards[a] for a in table.possible_agents},
                                "hand": hand})
        del start
    return records


def check_records(records: list[dict[str, Any]]) -> tuple[int, int]:
    """Every hand's PHH replays to the env's result; returns (side-pot hands, odd splits)."""
    side_pots = odd_splits = 0
    for record in records:
        assert record["hands"][-1] == record["phh"]
        rewards = record["rewards"]
        assert sum(rewards.values()) == 0  # G3: chips only move between players
        won = dict.fromkeys(rewards, 0)  # over every hand that ended in the step
        for text in record["hands"]:
            outcome = replay(loads(text))
            assert outcome.complete
            phh = loads(text)
            seats = phh.seats or tuple(range(1, len(outcome.finishing_stacks) + 1))
            for position, seat in enumerate(seats):
                net = outcome.finishing_stacks[position] - phh.starting_stacks[position]
                won[f"player_{seat - 1}"] += net
        assert rewards == won
        if record["hand"] is not None:
            assert record["hand"].result().stacks == outcome.finishing_stacks
        side_pots += len(outcome.pots) > 1
        odd_splits += any(len(pot.winners) > 1 and pot.amount % len(pot.winners)
                          for pot in outcome.pots)
    return side_pots, odd_splits


def test_many_hands_conserve_chips_and_replay__G3() -> None:
    records = play_aec(11, 150, players=6)
    assert len(records) == 150
    check_records(records)


def test_unequal_stacks_make_side_pots_paid_as_replayed__P1() -> None:
    records = play_aec(12, 200, players=6, stacks=[30, 70, 200, 120, 50, 200])
    side_pots, _ = check_records(records)
    assert side_pots >= 10  # the sample really has side pots


def test_odd_chips_of_split_pots_paid_as_replayed__P7() -> None:
    # Antes of 1 with three players make odd pots; a calling-heavy policy reaches showdowns.
    records = play_aec(13, 1500, players=3, stacks=40, ante=1, small_blind=1, big_blind=2)
    _, odd_splits = check_records(records)
    assert odd_splits >= 1


def test_fixed_limit_hands_replay__B10() -> None:
    records = play_aec(14, 100, players=4, structure="fixed-limit")
    check_records(records)


def test_heads_up_hands_replay__D6() -> None:
    records = play_aec(15, 150, players=2, stacks=[40, 300])
    check_records(records)


def test_series_episode_eliminates_and_conserves__G4__D8() -> None:
    records = play_aec(16, 3, players=5, episode="series", stacks=30, max_hands=400)
    assert sum(len(record["hands"]) for record in records) > 15
    check_records(records)
    table = env(players=5, episode="series", stacks=30, seed=3)
    table.reset(seed=3)
    total = dict.fromkeys(table.possible_agents, 0.0)
    rng = np.random.default_rng(3)
    while table.agents:
        observation, _, terminated, _, _ = table.last()
        mask = observation["action_mask"]
        table.step(None if terminated else int(rng.choice(np.flatnonzero(mask))))
        for agent, reward in table.rewards.items():
            total[agent] += reward
    series = table.game.series
    assert series is not None
    assert series.is_over
    assert sum(total.values()) == 0
    for seat, chips in series.outcome.stacks.items():  # type: ignore[union-attr]
        assert total[f"player_{seat - 1}"] == chips - 30


# ---------------------------------------------------------------- actions and masks

def test_exact_mask_is_exactly_the_legal_actions__B6__B7() -> None:
    game = PokerGame(EnvConfig(players=4, stacks=[25, 60, 200, 90]), 5)
    codec = game.codec
    assert isinstance(codec, ExactActions)
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(30):
        game.reset()
        while game.to_act is not None:
            legal = game.legal
            mask = game.action_mask(game.to_act)
            for number in range(codec.size):
                action = codec.decode(number, legal, game.hand.pot, game.hand.current_bet)
                assert bool(mask[number]) == (action in legal), number
            checked += 1
            game.step(int(rng.choice(np.flatnonzero(mask))))
    assert checked > 50


def test_discrete_actions_map_only_to_legal_amounts__B6() -> None:
    game = PokerGame(EnvConfig(players=6, actions="discrete"), 6)
    rng = np.random.default_rng(6)
    for _ in range(60):
        game.reset()
        while game.to_act is not None:
            legal = game.legal
            mask = game.action_mask(game.to_act)
            for number in np.flatnonzero(mask):
                action = game.codec.decode(int(number), legal, game.hand.pot,
                                           game.hand.current_bet)
                assert action in legal
            if legal.can_raise:
                assert mask.all()
            else:
                assert not mask[2:].any()
            game.step(int(rng.choice(np.flatnonzero(mask))))


def test_illegal_action_is_refused_and_changes_nothing__B6() -> None:
    table = env(players=3, seed=2)
    table.reset(seed=2)
    before = table.observe(table.agent_selection)["observation"].copy()
    with pytest.raises(IllegalActionError) as refused:
        table.step(ExactActions.raise_to(3))  # below the minimum raise to 4
    assert refused.value.rule == "B6"
    assert np.array_equal(table.observe(table.agent_selection)["observation"], before)
    table.step(ExactActions.raise_to(4))
    assert table.game.hand.current_bet == 4


def test_action_numbers_outside_the_space_are_refused__B3() -> None:
    for settings in ({"players": 3}, {"players": 3, "actions": "discrete"}):
        game = PokerGame(EnvConfig(**settings), 1)
        game.reset(1)
        for bad in (-1, game.codec.size, 2.5):
            with pytest.raises(IllegalActionError) as refused:
                game.step(bad)  # type: ignore[arg-type]
            assert refused.value.rule == "B3"
        assert game.hand.current_bet == 2


def test_raise_numbers_are_raise_to_amounts() -> None:
    game = PokerGame(EnvConfig(players=3), 1)
    game.reset(1)
    game.step(ExactActions.raise_to(10))
    assert game.hand.current_bet == 10
    assert game.codec.decode(11, game.legal, 0, 0) == Raise(10)


# ---------------------------------------------------------------- observations

def reference_observation(game: PokerGame, agent: int) -> np.ndarray:
    """The documented layout, built from scratch from the public state and own cards."""
    hand = game.hand
    n = game.n
    k = len(game.order)
    p = game.position_of[agent]
    out = np.zeros(109 + 10 * n + 7, dtype=np.float32)
    if p >= 0:
        for card in hand.hole(p):
            out[int(card)] = 1  # type: ignore[arg-type]
        out[109 + p] = 1
    for card in hand.board:
        out[52 + int(card)] = 1
    out[104 + list(type(hand.street)).index(hand.street)] = 1
    base = 109 + n
    out[base:base + k] = hand.stacks
    out[base + n:base + n + k] = hand.bets
    out[base + 2 * n:base + 2 * n + k] = hand.committed
    out[base + 3 * n:base + 3 * n + k] = hand.folded
    out[base + 4 * n:base + 4 * n + k] = 1
    put_in = [[0] * n for _ in range(4)]
    streets = ["preflop", "flop", "turn", "river"]
    for event in hand.events:
        chips = getattr(event, "chips", 0)
        if type(event).__name__ == "ActionTaken" and chips:
            put_in[streets.index(event.street.value)][event.position] += chips  # type: ignore[attr-defined]
    for s in range(4):
        out[base + (5 + s) * n:base + (6 + s) * n] = put_in[s]
    out[-7] = hand.pot
    out[-6] = hand.current_bet
    out[-2] = game.config.big_blind
    if p >= 0:
        if hand.to_act == p and not game.over:
            legal = hand.legal
            out[-5] = legal.call_amount
            out[-4] = legal.min_raise_to or 0
            out[-3] = legal.max_raise_to or 0
            out[-1] = 1
        else:
            owe = hand.current_bet - hand.bets[p]
            out[-5] = max(0, min(owe, hand.stacks[p]))
    return out


@pytest.mark.parametrize("settings", [
    {"players": 6, "stacks": [30, 70, 200, 120, 50, 200]},
    {"players": 4, "episode": "series", "stacks": 25, "max_hands": 60},
])
def test_observation_matches_the_documented_layout(settings: dict[str, Any]) -> None:
    game = PokerGame(EnvConfig(**settings), 8)
    rng = np.random.default_rng(8)
    for _ in range(8):
        game.reset()
        while game.to_act is not None:
            for agent in range(game.n):
                assert np.array_equal(game.observation(agent),
                                      reference_observation(game, agent)), agent
            game.step(int(rng.choice(np.flatnonzero(game.action_mask(game.to_act)))))


def test_observation_never_shows_other_players_cards__D4() -> None:
    game = PokerGame(EnvConfig(players=6), 9)
    game.reset(9)
    for agent in range(6):
        cards = np.flatnonzero(game.observation(agent)[:52])
        p = game.position_of[agent]
        assert sorted(cards) == sorted(int(c) for c in game.hand.hole(p))  # type: ignore[arg-type]
    view = game.observation_dict(0)
    assert view["phh"].count("????") == 5
    assert view["legal"]["to_act"] is False


def test_same_seed_same_episode() -> None:
    first = play_aec(21, 20, players=5)
    second = play_aec(21, 20, players=5)
    assert [r["phh"] for r in first] == [r["phh"] for r in second]


def test_render_shows_the_table() -> None:
    table = env(players=3, seed=1, render_mode="ansi")
    table.reset(seed=1)
    text = table.render()
    assert text is not None
    assert "pot 3" in text
    assert "to act" in text


def test_bad_settings_are_refused__G1() -> None:
    with pytest.raises(ConfigError, match="G1"):
        env(players=11)
    with pytest.raises(ConfigError, match="one entry per player"):
        env(players=3, stacks=[100, 100])
    with pytest.raises(ConfigError, match="same stack"):
        env(players=3, stacks=[10, 20, 30], episode="series")


# ---------------------------------------------------------------- batched and single-agent

def test_vector_env_series_tables_replay__G3() -> None:
    # One-hand episodes are checked in tests/test_env_batch.py; series use PokerGame tables.
    tables = vector_env(3, players=3, episode="series", max_hands=30, seed=4, keep_phh=True)
    obs, mask, _ = tables.reset()
    assert obs.shape == (3, tables.obs_size)
    rng = np.random.default_rng(4)
    finished = 0
    for _ in range(300):
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        obs, mask, rewards, _, _to_act, infos = tables.step(actions)
        for info in infos:
            for text in info.get("phh", []):
                replay(loads(text))
                finished += 1
        assert (rewards.sum(axis=1) == 0).all()  # G3
    assert finished > 20


def test_single_agent_env_plays_against_bots() -> None:
    game = single_agent_env(players=3, opponents=["station", "tight"], seed=2)
    observation, info = game.reset(seed=2)
    total = 0.0
    episodes = 0
    rng = np.random.default_rng(2)
    while episodes < 20:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, _, info = game.step(action)
        total += float(reward)
        if terminated:
            replay(loads(info["phh"]))
            episodes += 1
            observation, info = game.reset()
    assert info["legal"]["to_act"]


@pytest.mark.parametrize("settings", [
    {"players": 6, "stacks": [30, 70, 200, 120, 50, 200]},
    {"players": 2, "structure": "fixed-limit"},
    {"players": 3, "ante": 1},
    {"players": 4, "episode": "series", "stacks": 25, "max_hands": 80},
])
def test_fast_phh_is_the_general_writer_text(settings: dict[str, Any]) -> None:
    from feltro.history import dumps, record_of

    game = PokerGame(EnvConfig(**settings), 10)
    rng = np.random.default_rng(10)
    compared = 0
    for _ in range(40):
        game.reset()
        while game.to_act is not None:
            hand, seats = game.hand, tuple(a + 1 for a in game.order)
            written = len(game.phh)
            if game.step(int(rng.choice(np.flatnonzero(game.action_mask(game.to_act))))):
                # (A series may deal on through hands nobody has to decide: they come after.)
                assert game.phh[written] == dumps(record_of(hand, seats=seats))
                compared += 1
    assert compared >= 40


# ---------------------------------------------------------------- the AEC env's short paths

class _PettingZooPaths(PokerAEC):
    """The AEC environment with PettingZoo's own ``last`` and dead step (the reference)."""

    last = AECEnv.last
    _was_dead_step = AECEnv._was_dead_step


def _expected_legal(table: PokerAEC, agent: str) -> dict[str, object]:
    """*agent*'s exact legal actions, from the hand engine (empty-handed off its turn)."""
    from feltro.env.actions import legal_info

    game = table.game
    p = game.position_of[table._index[agent]]
    acting = not game.over and p >= 0 and game.hand.to_act == p
    return legal_info(game.hand.legal if acting else LegalActions.none())


@pytest.mark.parametrize("settings", [
    {"players": 6},
    {"players": 2, "stacks": [40, 300]},
    {"players": 6, "stacks": [30, 70, 200, 120, 50, 200]},
    {"players": 3, "structure": "fixed-limit", "ante": 1},
    {"players": 4, "structure": "pot-limit"},
    {"players": 4, "actions": "discrete"},
    {"players": 4, "episode": "series", "stacks": 25, "max_hands": 40},
])
def test_aec_short_paths_match_pettingzoo_and_the_engine(settings: dict[str, Any]) -> None:
    """The AEC env's own ``last``, dead step and incremental observations give exactly what
    PettingZoo's generic code and observations built from scratch give; every info holds the
    exact legal actions, and at the end of a hand the hand's PHH as a plain ``str``."""
    from feltro.history import dumps, record_of

    fast, slow = env(seed=4, **settings), _PettingZooPaths(EnvConfig(**settings), 4)
    rng = np.random.default_rng(4)
    ends = 0
    for episode in range(12 if settings.get("episode") != "series" else 5):
        fast.reset(seed=episode if episode % 2 else None)
        slow.reset(seed=episode if episode % 2 else None)
        while fast.agents or slow.agents:
            assert (fast.agents, fast.agent_selection) == (slow.agents, slow.agent_selection)
            got, want = fast.last(), slow.last()
            assert np.array_equal(got[0]["observation"], want[0]["observation"])
            assert np.array_equal(got[0]["action_mask"], want[0]["action_mask"])
            assert got[1:] == want[1:]
            assert fast.infos == slow.infos
            for agent in fast.agents:
                assert fast.infos[agent]["legal"] == _expected_legal(fast, agent), agent
                i = fast._index[agent]
                observed = fast.observe(agent)
                assert np.array_equal(observed["observation"],
                                      reference_observation(fast.game, i)), agent
                expected_mask = (fast.game.codec.mask(fast.game.hand.legal)
                                 if fast.infos[agent]["legal"]["to_act"]
                                 else np.zeros(fast.game.codec.size, dtype=np.int8))
                assert np.array_equal(observed["action_mask"], expected_mask), agent
            assert (fast.rewards, fast._cumulative_rewards, fast.terminations) == (
                slow.rewards, slow._cumulative_rewards, slow.terminations)
            if got[2] or got[3]:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(got[0]["action_mask"])))
            game = fast.game
            hand, seats, hands = game.hand, tuple(a + 1 for a in game.order), game.hands
            fast.step(action)
            slow.step(action)
            if action is not None and (game.hands != hands or game.over):  # a hand ended
                texts = {fast.infos[agent].get("phh") for agent in fast.agents}
                assert len(texts) == 1  # one text for the hand, the same in every info
                phh = texts.pop()
                assert type(phh) is str
                if hand.config.structure.value == "pot-limit":
                    assert phh.startswith("# no PHH")
                elif game.hands == hands:  # the hand that ended is still the game's hand
                    assert phh == dumps(record_of(hand, seats=seats))
                ends += 1
    assert ends >= 10
