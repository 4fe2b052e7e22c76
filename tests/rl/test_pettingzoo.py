"""The AEC env of every game: PettingZoo's own tests, masks, seeds, no leak (Lecker Mammut!'s is
its Parallel env through `parallel_to_aec`)."""

from __future__ import annotations

import random
import warnings
from types import SimpleNamespace

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, render_test, seed_test

import tiergarten
from tiergarten.encoders import encoder
from tiergarten.rl import parallel_env, pettingzoo_env
from tiergarten.rl.aec import TiergartenAEC
from tiergarten.rl.parallel import RealTimeParallel

from .cases import CASES, case_id, every_case, turn_based


def test_every_game_has_small_cases() -> None:
    assert set(tiergarten.games()) <= set(CASES)


@pytest.mark.parametrize(("game", "options"), every_case(list(tiergarten.games())), ids=case_id)
def test_pettingzoo_api_and_seed(game: str, options: dict) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Dict observations: two advisory warnings
        api_test(pettingzoo_env(game, **options), num_cycles=200)
        seed_test(lambda: pettingzoo_env(game, **options), num_cycles=200)


@pytest.mark.parametrize(("game", "options"), every_case(list(tiergarten.games())), ids=case_id)
def test_pettingzoo_max_cycles_test(game: str, options: dict) -> None:
    """PettingZoo's meaning: the Parallel env ends after `max_cycles` steps, and in the AEC env
    every agent is asked `max_cycles` times (then once more, dead). The test samples ids without
    masks: the cyclic AEC form and the Parallel env ignore an id outside the mask."""
    mod = SimpleNamespace(
        parallel_env=lambda max_cycles: parallel_env(game, max_cycles=max_cycles, **options),
        env=lambda max_cycles: pettingzoo_env(game, cyclic=True, max_cycles=max_cycles,
                                              **options))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        max_cycles_test(mod)


@pytest.mark.parametrize(("game", "options"), every_case(list(tiergarten.games())), ids=case_id)
def test_pettingzoo_render_test(game: str, options: dict, capsys) -> None:
    """Every declared mode: `human` (text printed, render() None), `ansi`, `rgb_array`."""
    render_test(lambda render_mode=None: pettingzoo_env(game, render_mode=render_mode,
                                                        **options))
    assert "╭─" in capsys.readouterr().out  # human mode printed the table


@pytest.mark.parametrize(("game", "options"), every_case(turn_based()), ids=case_id)
def test_the_cyclic_form_passes_the_api_and_seed_tests(game: str, options: dict) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the masks of the agents not asked are all 0
        api_test(pettingzoo_env(game, cyclic=True, **options), num_cycles=100)
        seed_test(lambda: pettingzoo_env(game, cyclic=True, **options), num_cycles=100)


def _play(game: str, options: dict, seed: int, check) -> list:
    """A whole random game through the env; `check(env)` before every step."""
    env = pettingzoo_env(game, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = []
    for agent in env.agent_iter(max_iter=20_000):
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        check(env)
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, action, obs["observation"].tobytes()))
        env.step(action)
    assert env.state.is_over()
    return trace


def _mask_matches_engine(env) -> None:
    seat = int(env.agent_selection.split("_")[1])
    mask = env.observe(env.agent_selection)["action_mask"]
    legal = {a.id for a in env.state.legal_actions(seat)}
    assert legal, "the env asked a seat that may not act"
    ids = set(np.flatnonzero(mask).tolist())
    assert ids - {env.wait_id} == legal
    in_turn = seat == env.state.to_move()[0]
    assert (env.wait_id in ids) == (not in_turn)
    for other in env.possible_agents:
        if other != env.agent_selection:
            assert not env.observe(other)["action_mask"].any()


@pytest.mark.parametrize(("game", "options"), every_case(turn_based()), ids=case_id)
def test_masks_are_the_legal_actions(game: str, options: dict) -> None:
    _play(game, options, 5, _mask_matches_engine)


@pytest.mark.parametrize(("game", "options"), every_case(turn_based()), ids=case_id)
def test_same_seed_same_game(game: str, options: dict) -> None:
    first = _play(game, options, 11, lambda env: None)
    assert first == _play(game, options, 11, lambda env: None)
    assert first != _play(game, options, 12, lambda env: None)


@pytest.mark.parametrize(("game", "options"), every_case(turn_based()), ids=case_id)
def test_no_leak_encoded_observation_survives_resampling(game: str, options: dict) -> None:
    rng = random.Random(3)
    enc = encoder(tiergarten.load(game, **options))
    seen = [0]

    def check(env) -> None:
        seen[0] += 1
        if seen[0] % 3:
            return
        for seat in range(env.game.players):
            real = enc.encode(env.state.observe(seat))
            twin = env.state.resample(seat, rng)
            assert np.array_equal(real, enc.encode(twin.observe(seat)))

    _play(game, options, 8, check)


def test_out_of_turn_catch_is_offered_as_a_window() -> None:
    """Mau Mau: after a play without Mau, the seats that may catch are asked in turn order
    before the player whose turn it is; each may wait."""
    env = pettingzoo_env("maumau", players=3, rounds=1)
    for seed in range(40):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.state.is_over():
            if env.state.observe(0)["catchable"] is not None:
                turn = env.state.to_move()[0]
                asked = int(env.agent_selection.split("_")[1])
                assert asked != turn
                mask = env.observe(env.agent_selection)["action_mask"]
                catch = env.game.parse_action("catch").id
                assert set(np.flatnonzero(mask).tolist()) == {catch, env.wait_id}
                env.step(env.wait_id)
                nxt = int(env.agent_selection.split("_")[1])
                assert nxt != asked
                return
            obs = env.observe(env.agent_selection)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    pytest.fail("no catch window in 40 random games")


def test_rewards_are_zero_sum_and_follow_the_result() -> None:
    env = pettingzoo_env("maumau", players=3, rounds=1)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    total = {a: 0.0 for a in env.possible_agents}
    winners: list[int] = []
    for agent in env.agent_iter(max_iter=20_000):
        obs, reward, terminated, truncated, info = env.last()
        total[agent] += reward
        if terminated or truncated:
            winners = info["result"]["winners"]
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert winners and abs(sum(total.values())) < 1e-9
    assert all(total[f"player_{w}"] > 0 for w in winners)


def test_real_time_game_is_its_parallel_env_one_agent_at_a_time() -> None:
    """Lecker Mammut!: every agent chooses in turn (player_0, player_1, ...); the choices of one
    cycle are one time slice of the Parallel env, applied when the last agent has chosen."""
    env = pettingzoo_env("lecker_mammut", players=2, rounds=1)
    env.reset(seed=0)
    base = env.unwrapped
    assert isinstance(base, RealTimeParallel) and env.agent_selection == "player_0"
    flip, wait = base.game.parse_action("flip").id, base.wait_id
    env.step(flip)  # seat 0 flips first
    assert env.agent_selection == "player_1" and not base.state.history  # not yet applied
    env.step(wait)
    assert [str(a) for _, a in base.state.history] == ["flip"] and base.cycles == 1
    assert env.agent_selection == "player_0"


def test_a_turn_based_aec_env_refuses_a_real_time_game() -> None:
    with pytest.raises(ValueError, match="real time"):
        TiergartenAEC("lecker_mammut", players=2)


def test_extinction_window_changes_no_other_seats_view() -> None:
    """MammuZ: a seat holding a whole species is asked out of turn (extinct … or wait); the
    other seats' observations neither name that right nor change when it waits."""
    env = pettingzoo_env("mammuz", players=3)
    for seed in range(20):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.state.is_over():
            seat = int(env.agent_selection.split("_")[1])
            if seat != env.state.to_move()[0]:
                mask = env.observe(env.agent_selection)["action_mask"]
                texts = {str(env.game.action_from_id(int(i))) for i in np.flatnonzero(mask)
                         if i != env.wait_id}
                assert texts and all(t.startswith("extinct ") for t in texts)
                assert mask[env.wait_id] == 1
                others = [a for a in env.possible_agents if a != env.agent_selection]
                for a in others:
                    assert seat not in env.state.observe(int(a.split("_")[1]))["to_move"]
                before = {a: env.observe(a)["observation"] for a in others}
                env.step(env.wait_id)
                for a in others:
                    assert np.array_equal(env.observe(a)["observation"], before[a])
                return
            obs = env.observe(env.agent_selection)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    pytest.fail("no extinction window in 20 random games")


def test_ignoring_illegal_actions_changes_nothing_and_asks_the_same_seat_again() -> None:
    env = TiergartenAEC("maumau", players=3, rounds=1, illegal="ignore")
    env.reset(seed=2)
    asked, before = env.agent_selection, env.state.observe(None)
    mask = env.observe(asked)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.agent_selection == asked and env.state.observe(None) == before
    assert env.infos[asked] == {"illegal": True}
    env.step(int(np.flatnonzero(mask)[0]))
    assert not env.infos[asked]["illegal"] and len(env.state.history) == 1
    with pytest.raises(ValueError, match="'raise', 'terminate' or 'ignore'"):
        TiergartenAEC("maumau", players=2, illegal="skip")


def test_terminate_illegal_ends_the_game_as_pettingzoos_classic_wrapper_does() -> None:
    """`illegal="terminate"` is `TerminateIllegalWrapper`: the seat that chose an id outside
    its mask gets -1, every other seat 0, and every agent then takes its dead step."""
    env = TiergartenAEC("maumau", players=3, rounds=1, illegal="terminate")
    env.reset(seed=2)
    asked = env.agent_selection
    mask = env.observe(asked)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values()) and env.infos[asked] == {"illegal": True}
    total = dict.fromkeys(env.possible_agents, 0.0)
    dead = []
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        total[agent] += reward
        assert terminated
        dead.append(agent)
        env.step(None)
    assert sorted(dead) == env.possible_agents and not env.state.history
    assert total == {a: (-1.0 if a == asked else 0.0) for a in env.possible_agents}


def test_after_max_cycles_every_agent_is_truncated() -> None:
    """A cycle is a step of every agent (PettingZoo's meaning): 4 cycles are 12 steps."""
    env = TiergartenAEC("mammuz", players=3, max_cycles=4)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    steps = 0
    for _ in env.agent_iter(max_iter=100):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps == 12 and not env.agents and not env.state.is_over()


def test_an_env_plays_the_rules_version_it_is_given() -> None:
    from tiergarten.rl import pettingzoo_env

    env = pettingzoo_env("maumau", players=2, rules=2)
    env.reset(seed=1)
    assert env.unwrapped.game.rules == 2
