"""PettingZoo's classic envs under the loop our envs get (benchmarks/rl_batched.py): run by a
Python that has `pettingzoo[classic]` (the peers' venv, `make peers`), prints one JSON line.

    benchmarks/.peers/bin/python benchmarks/rl_peers.py --env tictactoe_v3 --seconds 1

Each step is one decision: `agent_iter`, `last()`, a uniformly random id from the action mask,
`step` (the steps that retire finished agents are not counted), whole episodes, for about
`--seconds`; the rate by wall-clock and by this process's CPU time.
"""

from __future__ import annotations

import argparse
import importlib
import json
import time

import numpy as np


def run(name: str, seconds: float, seed: int) -> dict[str, float | str]:
    module = importlib.import_module(f"pettingzoo.classic.{name}")
    env = module.env()
    rng = np.random.default_rng(seed)
    decisions = episodes = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall0 < seconds:
        env.reset(seed=seed + episodes)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            decisions += 1
        episodes += 1
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    from importlib import metadata

    return {"env": name, "steps": decisions, "wall_s": wall, "cpu_s": cpu,
            "pettingzoo": metadata.version("pettingzoo")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", required=True)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(json.dumps(run(args.env, args.seconds, args.seed)))


if __name__ == "__main__":
    main()
