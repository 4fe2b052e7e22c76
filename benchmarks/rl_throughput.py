"""Decisions per second through the PettingZoo environments, next to PettingZoo's own
`leduc_holdem_v4` (rlcard) in the same run.

Every environment is driven by the same loop: `agent_iter`, `last()`, a uniformly random id
from the action mask, `step`. A decision is one `step` with an action (the steps that retire
finished agents are not counted). Lecker Mammut! runs as a Parallel env: one decision per live
agent per time slice. Each measurement runs for `--seconds` and is repeated; the median (and
min–max) is shown, by wall-clock time and by this process's CPU time (steadier on a shared
machine).

    python benchmarks/rl_throughput.py             # about 2 s per measurement, 3 repeats
    python benchmarks/rl_throughput.py --quick     # a smoke run

Needs the `[rl]` extra; the Leduc row needs `pip install rlcard pygame` (PettingZoo's classic
extra) and is reported as unavailable otherwise. Results go to
benchmarks/results/latest-rl-throughput.json.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import statistics
from pathlib import Path
from typing import Any

import numpy as np
from random_play import Runner, aec_episode, timed

import tiergarten
from tiergarten.core import game_class
from tiergarten.rl import parallel_env, pettingzoo_env

RESULTS = Path(__file__).resolve().parent / "results" / "latest-rl-throughput.json"


def parallel_episode(env: Any, rng: Any, seed: int) -> int:
    """One Parallel episode: every live agent acts at each step."""
    obs, _ = env.reset(seed=seed)
    decisions = 0
    while env.agents:
        acts = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        decisions += len(acts)
        obs, *_ = env.step(acts)
    return decisions


def leduc() -> Runner | None:
    try:
        from pettingzoo.classic import leduc_holdem_v4
    except ImportError:
        return None
    return timed(leduc_holdem_v4.env, aec_episode)


def environments() -> dict[str, Runner | None]:
    envs: dict[str, Runner | None] = {"leduc_holdem_v4 (PettingZoo, rlcard)": leduc()}
    for game_id in tiergarten.games():
        info = game_class(game_id).info
        label = f"tiergarten {game_id}, {info.default_players} players"
        if info.real_time:
            envs[label + " (Parallel)"] = timed(lambda g=game_id: parallel_env(g), parallel_episode)
        else:
            envs[label] = timed(lambda g=game_id: pettingzoo_env(g), aec_episode)
    return envs


def measure(run: Runner, seconds: float, repeats: int) -> dict[str, Any]:
    rates, cpu_rates = [], []
    for r in range(repeats):
        decisions, wall, cpu = run(seconds, 1000 * r)
        rates.append(decisions / wall)
        cpu_rates.append(decisions / cpu if cpu > 0 else float("nan"))
    return {"median": statistics.median(rates), "min": min(rates), "max": max(rates),
            "cpu_median": statistics.median(cpu_rates)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="0.3 s, one repeat")
    args = parser.parse_args()
    seconds, repeats = (0.3, 1) if args.quick else (args.seconds, args.repeats)
    rows: dict[str, Any] = {}
    print(f"{'environment':52} {'decisions/s (wall)':>26} {'per CPU s':>10}")
    for label, run in environments().items():
        if run is None:
            rows[label] = None
            print(f"{label:52} {'unavailable: pip install rlcard pygame':>26}")
            continue
        row = rows[label] = measure(run, seconds, repeats)
        spread = f"{row['median']:,.0f} ({row['min']:,.0f}-{row['max']:,.0f})"
        print(f"{label:52} {spread:>26} {row['cpu_median']:>10,.0f}")
    base = rows.get("leduc_holdem_v4 (PettingZoo, rlcard)")
    if base:
        print("\nratio to leduc_holdem_v4 (CPU time):")
        for label, row in rows.items():
            if row and not label.startswith("leduc"):
                print(f"  {label:50} {row['cpu_median'] / base['cpu_median']:5.2f}x")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({
        "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(), "machine": platform.machine(),
        "seconds": seconds, "repeats": repeats, "results": rows}, indent=2))


if __name__ == "__main__":
    main()
