"""A policy at a seat, the league and its env; the export from MaskablePPO (when the `train`
extra is installed) gives the same choices with numpy as the torch actor."""

from __future__ import annotations

import random

import numpy as np
import pytest

import tiergarten
from tiergarten import bots
from tiergarten.bots.policy import NumpyPolicy, PolicyBot, policy_factory
from tiergarten.core.match import play_match
from tiergarten.rl.league import League, LeagueEnv, from_maskable_ppo


def _random_policy(game, seed: int = 0, hidden: int = 16) -> NumpyPolicy:
    rng = np.random.default_rng(seed)
    size = tiergarten.rl.encoder(game).size
    n = game.num_actions + 1
    return NumpyPolicy([(rng.normal(size=(hidden, n + size)), rng.normal(size=hidden)),
                        (rng.normal(size=(n, hidden)), rng.normal(size=n))],
                       inputs=("action_mask", "observation"))


def test_a_policy_plays_whole_games_from_its_seat_view(tmp_path) -> None:
    game = tiergarten.load("maumau", players=3, rounds=1)
    policy = _random_policy(game)
    path = tmp_path / "p.npz"
    policy.save(path)
    loaded = NumpyPolicy.load(path)
    assert loaded.inputs == ("action_mask", "observation") and loaded.size == policy.size
    agents = [PolicyBot(game, 0, random.Random(1), loaded, "mine"),
              bots.make("hard", game, 1, random.Random(2)),
              bots.make("random", game, 2, random.Random(3))]
    state = play_match(game, agents, seed=4)
    assert state.is_over() and any(s == 0 for s, _ in state.history)
    again = play_match(game, [PolicyBot(game, 0, random.Random(1), loaded, "mine"),
                              bots.make("hard", game, 1, random.Random(2)),
                              bots.make("random", game, 2, random.Random(3))], seed=4)
    assert again.record() == state.record()  # greedy: the same game


def test_registered_policy_is_a_bot_name_and_the_league_draws_copies() -> None:
    game = tiergarten.load("mucca_pazza", players=2)
    league = League("mucca_pazza", bots=("random",), self_play=1.0, seed=3)
    try:
        name = league.add(_random_policy(game))
        assert name == "self-1" and name in bots.names("mucca_pazza")
        assert league.opponents(3) == ["self-1"] * 3
        env = LeagueEnv(league, players=2)
        obs, info = env.reset(seed=1)
        assert info["opponents"] == ["self-1"] and env.unwrapped.seat in (0, 1)
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            obs, reward, done, truncated, info = env.step(int(legal[0]))
            done = done or truncated
        assert "result" in info
    finally:
        league.close()
    assert "self-1" not in bots.names("mucca_pazza")
    bots.register("mucca_pazza", "lowest", policy_factory(lambda o, m: int(np.flatnonzero(m)[0])))
    try:
        assert repr(bots.make("lowest", game, 1, random.Random(0))) == "<lambda>@1"
    finally:
        bots.unregister("mucca_pazza", "lowest")


def test_export_from_maskable_ppo_chooses_as_the_torch_actor() -> None:
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    from tiergarten.rl import gym_env

    env = gym_env("maumau", opponents="random", players=2, rounds=1)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=64, batch_size=64,
                        policy_kwargs={"net_arch": [32, 32]}, seed=0, device="cpu")
    model.learn(64)
    policy = from_maskable_ppo(model)
    obs, _ = env.reset(seed=3)
    for _ in range(20):
        mask = obs["action_mask"]
        tensors = {k: torch.as_tensor(v[None]).float() for k, v in obs.items()}
        with torch.no_grad():
            torch_logits = model.policy.get_distribution(tensors).distribution.logits.numpy()[0]
        ours = policy.logits(obs["observation"], mask)
        normalised = ours - np.log(np.exp(ours - ours.max()).sum()) - ours.max()
        assert np.allclose(normalised, torch_logits, atol=1e-4)  # torch's are log-softmax
        action = int(np.flatnonzero(mask)[np.argmax(ours[mask > 0])])
        obs, _, done, _, _ = env.step(action)
        if done:
            obs, _ = env.reset()
