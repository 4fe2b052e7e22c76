"""The training example runs a few iterations (the full run is documented in docs/research.md)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_maumau_reinforce.py"


def _load():
    spec = importlib.util.spec_from_file_location("train_maumau_reinforce", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_training_smoke_run() -> None:
    example = _load()
    policy, returns = example.train(episodes=12, seed=1)
    assert len(returns) == 12 and set(returns) <= {1.0, -1.0, 0.0}
    assert np.abs(policy.W).sum() > 0  # the gradient reached the weights
    again, returns_again = example.train(episodes=12, seed=1)
    assert returns == returns_again and np.array_equal(policy.W, again.W)  # seeded
    rate = example.win_rate(policy, games=4)
    assert 0.0 <= rate <= 1.0
