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

from random_play import aec_episode, timed  # beside this file: the same loop as ours


def run(name: str, seconds: float, seed: int) -> dict[str, float | str]:
    module = importlib.import_module(f"pettingzoo.classic.{name}")
    decisions, wall, cpu = timed(module.env, aec_episode)(seconds, seed)
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
