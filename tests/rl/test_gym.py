"""One seat as a Gymnasium env against tiergarten bots."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from tiergarten.rl import gym_env

from .cases import case_id, every_case, turn_based


@pytest.mark.parametrize(("game", "options"), every_case(turn_based()), ids=case_id)
def test_check_env(game: str, options: dict) -> None:
    check_env(gym_env(game, opponents="hard", **options), skip_render_check=True)


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
