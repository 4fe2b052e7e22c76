"""Lecker Mammut! as a PettingZoo Parallel env: the API test, seeds, masks, simultaneous hits."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test
from pettingzoo.test.seed_test import parallel_seed_test

from tiergarten.rl import parallel_env
from tiergarten.rl.encoders import encoder

from .cases import CASES, case_id


@pytest.mark.parametrize("options", CASES["lecker_mammut"], ids=case_id)
def test_parallel_api_and_seed(options: dict) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(parallel_env(**options), num_cycles=1000)
        parallel_seed_test(lambda: parallel_env(**options), num_cycles=300)


def _play(seed: int, check=None) -> list:
    env = parallel_env(players=3, rounds=1)
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
        env = parallel_env(players=2, rounds=1)
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
    env = parallel_env(players=2, rounds=1)
    env.reset(seed=5)
    before = env.state.observe(None)
    top = env.game.parse_action("top red-bear").id
    _, _, _, _, infos = env.step({"player_0": top, "player_1": env.wait_id})
    assert infos["player_0"]["illegal"] and not infos["player_1"]["illegal"]
    assert env.state.observe(None)["version"] == before["version"]
    assert not env.state.history
