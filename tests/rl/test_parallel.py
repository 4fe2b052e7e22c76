"""The Parallel env of every game: the API and seed tests; Lecker Mammut!'s time slices (masks,
simultaneous hits); a turn-based game through `turn_based_aec_to_parallel`, the same game as its
AEC env; the call without a game id, deprecated."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test
from pettingzoo.test.seed_test import parallel_seed_test

import tiergarten
from tiergarten.encoders import encoder
from tiergarten.rl import parallel_env, pettingzoo_env
from tiergarten.rl.aec import TiergartenAEC
from tiergarten.rl.parallel import RealTimeParallel

from .cases import case_id, every_case, turn_based


@pytest.mark.parametrize(("game", "options"), every_case(list(tiergarten.games())), ids=case_id)
def test_parallel_api_and_seed(game: str, options: dict) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(parallel_env(game, **options), num_cycles=1000)
        parallel_seed_test(lambda: parallel_env(game, **options), num_cycles=300)


def _play(seed: int, check=None) -> list:
    env = parallel_env("lecker_mammut", players=3, rounds=1)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    while env.agents:
        if check is not None:
            check(env, obs)
        acts = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        trace.append((sorted(acts.items()), [obs[a]["observation"].tobytes() for a in acts]))
        obs, *_ = env.step(acts)
    return trace


def test_same_seed_same_game_and_masks() -> None:
    def masks(env, obs) -> None:
        for seat, agent in enumerate(env.possible_agents):
            ids = set(np.flatnonzero(obs[agent]["action_mask"]).tolist())
            assert ids == {a.id for a in env.state.legal_actions(seat)} | {env.wait_id}

    assert _play(1, masks) == _play(1)
    assert _play(1) != _play(2)


def test_no_leak_under_resampling() -> None:
    rng = random.Random(0)

    def check(env, obs) -> None:
        enc = encoder(env.game)
        for seat in range(env.game.players):
            twin = env.state.resample(seat, rng)
            assert np.array_equal(enc.encode(twin.observe(seat)),
                                  obs[env.possible_agents[seat]]["observation"])

    _play(4, check)


def test_two_hits_in_one_slice_only_the_first_counts() -> None:
    """Both seats hit a feature shown three times in the same slice: one takes the cards, the
    other's hit is void (no penalty, not applied, said in its info), whatever order the slice
    draws."""
    for seed in range(60):
        env = parallel_env("lecker_mammut", players=2, rounds=1)
        env.reset(seed=seed)
        while env.agents:
            state = env.state
            good = [f for f in range(14) if state.count(f) >= 3]
            if good and not state.observe(None)["choosing"]:
                hit = 1 + good[0]  # ids 1..14 are the hits
                penalties = list(state.observe(None)["penalties"])
                applied = len(state.history)
                *_, infos = env.step({"player_0": hit, "player_1": hit})
                table = env.state.observe(None)
                assert len(table["choosing"]) == 1
                assert table["penalties"] == penalties
                assert sorted(info["void"] for info in infos.values()) == [False, True]
                assert len(env.state.history) == applied + 1
                return
            flipper = state.observe(None)["flipper"]
            if flipper is None:
                break
            env.step({f"player_{flipper}": 0})  # flip
    pytest.fail("no good hit came up in 60 deals")


def test_an_action_outside_the_mask_is_a_wait() -> None:
    env = parallel_env("lecker_mammut", players=2, rounds=1)
    env.reset(seed=5)
    before = env.state.observe(None)
    top = env.game.parse_action("top red-bear").id
    _, _, _, _, infos = env.step({"player_0": top, "player_1": env.wait_id})
    assert infos["player_0"]["illegal"] and not infos["player_1"]["illegal"]
    assert env.state.observe(None)["version"] == before["version"]
    assert not env.state.history


def _random_turn_based(env, seed: int) -> tuple[list, dict]:
    """A whole game through the Parallel view: every agent sends an action, the one with a
    non-empty mask is asked (the others' actions are ignored)."""
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    chosen, infos = [], {}
    while env.agents:
        asked = [a for a in env.agents if obs[a]["action_mask"].any()]
        assert len(asked) == 1
        actions = {a: 0 for a in env.agents}
        actions[asked[0]] = int(rng.choice(np.flatnonzero(obs[asked[0]]["action_mask"])))
        chosen.append((asked[0], actions[asked[0]]))
        obs, rewards, terms, truncs, infos = env.step(actions)
        if env.agents:
            nxt = infos[env.agents[0]]["active_agent"]
            assert obs[nxt]["action_mask"].any()
    return chosen, infos


@pytest.mark.parametrize(("game", "options"), every_case(turn_based()), ids=case_id)
def test_a_turn_based_parallel_env_plays_the_same_game_as_its_aec_env(game: str,
                                                                       options: dict) -> None:
    env = parallel_env(game, **options)
    chosen, infos = _random_turn_based(env, 6)
    record = env.unwrapped.state.record()
    assert env.unwrapped.state.is_over()
    assert all("result" in info for info in infos.values())
    aec = pettingzoo_env(game, **options)
    aec.reset(seed=6)
    for agent, action in chosen:
        assert aec.agent_selection == agent
        aec.step(action)
    assert aec.state.record() == record  # same seed, same actions: the same game
    assert chosen == _random_turn_based(parallel_env(game, **options), 6)[0]  # seeded


def test_a_turn_based_parallel_env_ignores_an_illegal_id_and_truncates_at_max_cycles() -> None:
    env = parallel_env("maumau", players=2, rounds=1, max_cycles=3)
    obs, _ = env.reset(seed=1)
    asked = next(a for a in env.agents if obs[a]["action_mask"].any())
    illegal = int(np.flatnonzero(obs[asked]["action_mask"] == 0)[0])
    obs, _, _, truncs, infos = env.step({a: illegal for a in env.agents})
    assert infos[asked]["illegal"] and not env.unwrapped.state.history
    assert infos[asked]["active_agent"] == asked and not any(truncs.values())
    for _ in range(2):
        obs, _, _, truncs, _ = env.step({a: illegal for a in env.agents})
    assert all(truncs.values()) and not env.agents


def test_parallel_env_without_a_game_is_lecker_mammut_with_a_deprecation_warning() -> None:
    with pytest.warns(DeprecationWarning, match="parallel_env\\('lecker_mammut'"):
        env = parallel_env(players=3, rounds=1)
    assert isinstance(env, RealTimeParallel) and env.game.players == 3
    with pytest.warns(DeprecationWarning):
        assert parallel_env(2).game.players == 2  # the old positional players
    with pytest.raises(ValueError, match="turn-based"):
        RealTimeParallel("maumau", players=2)
    assert isinstance(parallel_env("maumau", players=2).unwrapped, TiergartenAEC)


def test_lecker_mammut_under_random_play_scores_nothing_and_shaping_gives_a_signal() -> None:
    """Random hits are mistakes: the penalty cards eat the piles, the game ends 0 to 0 and the
    result rewards nobody. `shaping=w` pays `w` × the change of each seat's tally at every
    slice: negative for random hitting, positive for the seat that takes a triple."""
    def run(seed: int, shaping: float) -> tuple[list[int], dict[str, float]]:
        env = parallel_env("lecker_mammut", players=2, rounds=1, shaping=shaping)
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        total = dict.fromkeys(env.possible_agents, 0.0)
        while env.agents:
            acts = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"])))
                    for a in env.agents}
            obs, rewards, *_ = env.step(acts)
            for agent, reward in rewards.items():
                total[agent] += reward
        return env.state.observe(None)["scores"], total

    scores, plain = run(1, 0.0)
    assert scores == [0, 0] and set(plain.values()) == {0.0}
    again, shaped = run(1, 0.02)
    assert again == scores and all(r < -0.2 for r in shaped.values())
    with pytest.raises(ValueError, match="shaping is Lecker Mammut"):
        parallel_env("maumau", players=2, shaping=0.1)


def test_shaping_pays_a_good_hit() -> None:
    from tiergarten.rl import gym_env

    env = gym_env("lecker_mammut", opponents="slow", seat=1, players=2, rounds=1, shaping=0.1)
    env.reset(seed=5)
    for _ in range(400):
        if any(env.state.count(f) >= 3 for f in range(14)):
            break
        env.step(env.wait_id)
    feature = next(f for f in range(14) if env.state.count(f) >= 3)
    shown = env.state.count(feature)
    _, reward, _, _, info = env.step(1 + feature)  # ids 1..14 are the hits
    assert not info["void"]
    top = env.legal_ids()[0]  # the hitter chooses the top of its new prize pile: then it holds
    _, chosen, _, _, _ = env.step(top)
    assert reward + chosen == pytest.approx(0.1 * shown)
