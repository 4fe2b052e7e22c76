"""One seat as a Gymnasium env against tiergarten bots: every game through `gymnasium.make`
(Gymnasium's env checker, render modes included), whole episodes, invalid actions; Lecker
Mammut! in time slices."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tiergarten
from tiergarten.rl import gym_env
from tiergarten.rl.registration import gym_id
from tiergarten.rl.single_realtime import RealTimeGym

from .cases import case_id, every_case


@pytest.mark.parametrize(("game", "options"), every_case(list(tiergarten.games())), ids=case_id)
def test_check_env(game: str, options: dict) -> None:
    env = gymnasium.make(gym_id(game), opponents="hard", render_mode="ansi", **options)
    check_env(env.unwrapped)  # with its spec: every declared render mode is checked too


def _episode(env, seed: int) -> tuple[list[bytes], float]:
    obs, _ = env.reset(seed=seed)
    seen, reward, done = [obs["observation"].tobytes()], 0.0, False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        assert set(legal.tolist()) == set(env.turns.legal_ids())
        obs, reward, done, _, info = env.step(int(legal[-1]))
        assert not info["illegal"]
        seen.append(obs["observation"].tobytes())
    assert info["result"]["scores"]
    return seen, float(reward)


@pytest.mark.parametrize("opponents", ["random", "hard"])
def test_episode_to_the_end_and_seeded(opponents: str) -> None:
    env = gym_env("maumau", opponents=opponents, players=3, rounds=1)
    first = _episode(env, 4)
    assert first == _episode(env, 4)
    assert first[1] in (1.0, 0.5, -0.5, -1.0, 0.0)


def test_illegal_action_is_replaced_and_flagged() -> None:
    env = gym_env("mammuz", opponents="random", players=3, illegal_penalty=-0.1)
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, done, _, info = env.step(illegal)
    assert info["illegal"] and reward <= -0.1 + (1.0 if done else 0.0)
    assert len(env.state.history) >= 1


def test_learner_may_sit_anywhere_and_opponents_are_checked() -> None:
    env = gym_env("mucca_pazza", opponents=["greedy"], seat=1, players=2)
    obs, _ = env.reset(seed=3)
    assert env.turns.current() == 1
    with pytest.raises(ValueError, match="no bot"):
        gym_env("maumau", opponents="grandmaster", players=2)


def _wait_until(env: RealTimeGym, seen, limit: int = 400) -> dict:
    """Let slices pass (the learner waits) until `seen(observation)` holds; that observation."""
    for _ in range(limit):
        obs = env.state.observe(env.seat)
        if seen(obs):
            return obs
        env.step(env.wait_id)
    pytest.fail("it never happened")


def test_real_time_bots_play_through_the_slices_on_their_own_clocks() -> None:
    env = gym_env("lecker_mammut", opponents="normal", seat=1, players=2, rounds=1)
    env.reset(seed=3)
    assert isinstance(env, RealTimeGym) and env.legal_ids()[-1] == env.wait_id
    _wait_until(env, lambda obs: len(obs["middle"]) >= 4)  # seat 0's bot flips its pile
    flips = sum(1 for seat, a in env.state.history if str(a) == "flip")
    assert flips >= 4 and env.now == pytest.approx(0.25 * env.slices)
    assert env.now >= 4 * 0.7 * 1.2  # a normal bot flips about every 1.2 s (0.7-1.3 of it)


def test_a_learner_hit_that_a_quicker_bot_made_stale_is_void() -> None:
    """The learner sees a triple and hits it, but in a long slice the bot's hand lands first:
    the learner's hit is judged on the table it saw, so it is void (no penalty), not applied."""
    env = gym_env("lecker_mammut", opponents="hard", seat=1, players=2, rounds=1)
    env.reset(seed=5)
    obs = _wait_until(env, lambda obs: any(env.state.count(f) >= 3 for f in range(14)))
    feature = next(f for f in range(14) if env.state.count(f) >= 3)
    applied = len(env.state.history)
    env.slice_seconds = 5.0  # far beyond the hard bot's reaction
    _, reward, _, _, info = env.step(1 + feature)  # ids 1..14 are the hits
    table = env.state.observe(None)
    assert info["void"] and not info["illegal"] and reward == 0.0
    assert table["penalties"] == obs["penalties"]
    assert all(seat == 0 for seat, _ in env.state.history[applied:])  # only the bot acted
    assert any(e["act"] == "hit" and e["seat"] == 0 for e in table["log"])  # the bot's


def test_a_learner_hit_in_time_takes_the_cards_and_then_it_chooses_the_top() -> None:
    env = gym_env("lecker_mammut", opponents="slow", seat=1, players=2, rounds=1)
    env.reset(seed=5)
    _wait_until(env, lambda obs: any(env.state.count(f) >= 3 for f in range(14)))
    feature = next(f for f in range(14) if env.state.count(f) >= 3)
    _, _, _, _, info = env.step(1 + feature)
    assert not info["void"] and env.state.observe(1)["choosing"][0]["seat"] == 1
    *ids, wait = env.legal_ids()
    assert wait == env.wait_id and ids  # the hitter may only choose (or let a slice pass)
    assert all(str(env.game.action_from_id(i)).startswith("top ") for i in ids)


def test_real_time_episodes_are_seeded_and_truncated_after_max_slices() -> None:
    def run(seed: int) -> list:
        env = gym_env("lecker_mammut", opponents="random", players=2, rounds=1)
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        done = truncated = False
        while not (done or truncated):
            obs, _, done, truncated, _ = env.step(int(rng.choice(np.flatnonzero(
                obs["action_mask"]))))
        assert done and "result" in env.state.observe(0)
        return env.state.record()["actions"]

    assert run(2) == run(2) and run(2) != run(3)
    env = gym_env("lecker_mammut", opponents="hard", players=2, max_slices=5)
    env.reset(seed=0)  # the learner is seat 0, the first flipper: waiting stalls the game
    results = [env.step(env.wait_id) for _ in range(5)]
    assert [r[3] for r in results] == [False] * 4 + [True] and not env.state.is_over()
    with pytest.raises(ValueError, match="slice_seconds"):
        gym_env("lecker_mammut", players=2, slice_seconds=0)
    with pytest.raises(tiergarten.OptionError, match="slice_seconds"):
        gym_env("maumau", players=2, slice_seconds=1.0)  # a turn-based game has no slices
