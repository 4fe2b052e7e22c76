"""Gymnasium ids for every game: `gymnasium.make`, `make_vec`, the importing form, and the
entry point pyproject.toml declares for Gymnasium before 1.0."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import tiergarten
import tiergarten.rl
from tiergarten.rl.registration import gym_id, register_envs
from tiergarten.rl.single import TiergartenGym
from tiergarten.rl.single_realtime import RealTimeGym

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_one_id_per_game_registered_on_import() -> None:
    assert register_envs() == tuple(gym_id(g) for g in tiergarten.games())
    assert sorted(gym_id(g) for g in tiergarten.games()) == [
        "tiergarten/LeckerMammut-v0", "tiergarten/MammuZ-v0", "tiergarten/MauMau-v0",
        "tiergarten/MuccaPazza-v0"]
    assert set(register_envs()) <= set(gymnasium.registry)


@pytest.mark.parametrize("game", tiergarten.games())
def test_make_takes_the_gym_env_arguments_and_the_game_options(game: str) -> None:
    options = {"maumau": {"rounds": 1}, "lecker_mammut": {"rounds": 1}}.get(game, {})
    env = gymnasium.make(gym_id(game), players=2 if game != "mammuz" else 3, seat=1, **options)
    base = env.unwrapped
    assert isinstance(base, RealTimeGym if game == "lecker_mammut" else TiergartenGym)
    assert (base.game.id, base.seat) == (game, 1)
    assert base.game.options.items() >= options.items()
    obs, _ = env.reset(seed=0)
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_the_importing_form_finds_the_ids_too() -> None:
    env = gymnasium.make("tiergarten.rl:tiergarten/MuccaPazza-v0", players=2)
    assert env.unwrapped.game.id == "mucca_pazza"


@pytest.mark.parametrize("env_id", ["tiergarten/MauMau-v0", "tiergarten/LeckerMammut-v0"])
def test_make_vec_steps_several_games_at_once(env_id: str) -> None:
    envs = gymnasium.make_vec(env_id, num_envs=3, players=2, rounds=1)
    obs, _ = envs.reset(seed=7)
    assert obs["observation"].shape[0] == 3 and obs["action_mask"].shape[0] == 3
    rng = np.random.default_rng(7)
    ended = np.zeros(3, dtype=bool)
    for _ in range(3000):
        actions = np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0
                            for m in obs["action_mask"]])  # an ended game's next step resets
        obs, rewards, terminated, truncated, _ = envs.step(actions)
        ended |= terminated
        if ended.all():
            break
    envs.close()
    assert ended.all()


def test_pyproject_declares_the_gymnasium_entry_point() -> None:
    group = tomllib.loads(PYPROJECT.read_text())["project"]["entry-points"]["gymnasium.envs"]
    module, _, attr = group["tiergarten"].partition(":")
    assert getattr(importlib.import_module(module), attr)() == register_envs()
