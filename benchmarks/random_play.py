"""The one loop every RL benchmark times an environment with (rl_throughput.py, rl_batched.py
and, under the peers' Python, rl_peers.py): whole episodes, each agent picking uniformly among
the ids its action mask allows, for about `seconds`. Needs only numpy, so the peers' venv
imports it too.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

Episode = Callable[[Any, Any, int], int]  # env, rng, seed -> decisions in one episode
Runner = Callable[[float, int], tuple[int, float, float]]  # seconds, seed -> decisions, wall, cpu


def timed(make: Callable[[], Any], episode: Episode) -> Runner:
    """Whole episodes of `episode` on one env for about `seconds`: decisions, wall, CPU time."""
    def run(seconds: float, seed: int) -> tuple[int, float, float]:
        env = make()
        rng = np.random.default_rng(seed)
        decisions, count = 0, 0
        wall0, cpu0 = time.perf_counter(), time.process_time()
        while time.perf_counter() - wall0 < seconds:
            decisions += episode(env, rng, seed + count)
            count += 1
        return decisions, time.perf_counter() - wall0, time.process_time() - cpu0
    return run


def aec_episode(env: Any, rng: Any, seed: int) -> int:
    """One AEC episode, each agent picking uniformly among its masked actions (the steps that
    retire finished agents are not decisions)."""
    env.reset(seed=seed)
    decisions = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        decisions += 1
    return decisions
