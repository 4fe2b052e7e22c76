"""The batched envs: the same observations as the encoders' (Mau Mau's from its state), masks
that are the legal actions, terminal zero-sum rewards and auto-reset, the same games in one
process or two, and the Gymnasium vector form against bots."""

from __future__ import annotations

import random

import numpy as np
import pytest

import tiergarten
from tiergarten.encoders import encoder
from tiergarten.rl.turns import Turns
from tiergarten.rl.vector import BatchedGames, VectorSeatEnv

from .cases import CASES, case_id, every_case, turn_based


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mau_maus_sparse_rows_are_the_encoders_vectors(players: int) -> None:
    game = tiergarten.load("maumau", players=players, rounds=2)
    enc = encoder(game)
    checked = 0
    for seed in range(6):
        state = game.new_state(seed=seed)
        turns = Turns(state)
        rng = random.Random(seed)
        while True:
            for seat in range(players):
                row = np.zeros(enc.size, np.float32)
                idx, val = enc.sparse(state, seat)
                row[idx] = val
                assert np.array_equal(row, enc.encode(state.observe(seat)))
                checked += 1
            if state.is_over():
                break
            turns.step(rng.choice(turns.legal_ids()))
    assert checked > 1000


def _random(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(mask.shape) * mask).argmax(1)


@pytest.mark.parametrize(("game", "options"), every_case(turn_based()), ids=case_id)
def test_rows_are_each_games_asked_seat_and_games_restart(game: str, options: dict) -> None:
    envs = BatchedGames(game, 5, **options)
    obs, mask, agent = envs.reset(seed=3)
    enc = encoder(envs.game)
    rng = np.random.default_rng(0)
    ended = 0
    for step in range(6000):
        if ended and step >= 200:
            break
        for i, turns in enumerate(envs._batch.local.turns if step < 200 or ended == 0 and
                                  step % 100 == 0 else ()):
            seat = turns.current()
            assert agent[i] == seat
            assert set(np.flatnonzero(mask[i]).tolist()) == set(turns.legal_ids())
            assert np.array_equal(obs[i], enc.encode(turns.state.observe(seat)))
        obs, mask, agent, rewards, terminated, _ = envs.step(_random(mask, rng))
        for i in np.flatnonzero(terminated):
            assert abs(rewards[i].sum()) < 1e-6  # zero-sum (all 0 when every seat ties)
            ended += 1
        assert not rewards[~terminated].any()
        assert len(envs.results) == int(terminated.sum())
    assert ended > 0  # and the ended games were dealt anew (their rows were checked above)


def test_an_id_outside_the_mask_changes_nothing() -> None:
    envs = BatchedGames("maumau", 3, players=3, rounds=1)
    obs, mask, agent = envs.reset(seed=1)
    before = (obs.copy(), mask.copy(), agent.copy())
    actions = np.array([int(np.flatnonzero(m == 0)[0]) for m in mask])
    obs, mask, agent, rewards, terminated, _ = envs.step(actions)
    assert envs.illegal.all() and not terminated.any()
    assert all(np.array_equal(a, b) for a, b in zip((obs, mask, agent), before, strict=True))


def test_two_workers_play_the_same_games_as_one() -> None:
    def run(workers: int) -> list[np.ndarray]:
        envs = BatchedGames("maumau", 6, workers=workers, players=3, rounds=1)
        try:
            obs, mask, agent = envs.reset(seed=9)
            rng = np.random.default_rng(9)
            seen = []
            for _ in range(120):
                obs, mask, agent, rewards, *_ = envs.step(_random(mask, rng))
                seen.append(np.concatenate([obs.ravel(), mask.ravel(), agent, rewards.ravel()]))
            return seen
        finally:
            envs.close()

    one, two = run(1), run(2)
    assert all(np.array_equal(a, b) for a, b in zip(one, two, strict=True))


def test_the_gymnasium_vector_form_plays_one_seat_against_bots() -> None:
    envs = VectorSeatEnv("mucca_pazza", 4, opponents="hard", seat=1, workers=2,
                         **CASES["mucca_pazza"][0])
    try:
        obs, infos = envs.reset(seed=2)
        assert obs["observation"].shape == (4, 626) and obs["action_mask"].shape == (4, 24)
        assert envs.single_action_space.n == 24
        rng = np.random.default_rng(2)
        finished = 0
        for _ in range(400):
            obs, reward, terminated, truncated, infos = envs.step(
                _random(obs["action_mask"], rng))
            if terminated.any():
                finished += int(terminated.sum())
                assert set(np.flatnonzero(infos["_result"])) == set(np.flatnonzero(terminated))
                assert set(reward[terminated]) <= {1.0, -1.0, 0.0}
            assert not reward[~terminated].any()
        assert finished > 0
    finally:
        envs.close()
    with pytest.raises(ValueError, match="real time"):
        BatchedGames("lecker_mammut", 2, players=2)
