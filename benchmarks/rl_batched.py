"""`make bench`'s `rl` part: agent steps per second of the batched envs (tiergarten.rl.vector)
next to the unbatched adapters and PettingZoo's classic envs, in interleaved rounds.

Every environment is stepped with uniformly random legal ids from its masks; an agent step is
one decision of one agent in one game (a batched call over N games is N agent steps). Rows:

- PettingZoo classic `tictactoe_v3`, `connect_four_v3`, `leduc_holdem_v4` (run by the peers'
  Python, `benchmarks/rl_peers.py`: needs `pettingzoo[classic]` there; else unavailable);
- ours unbatched: the AEC env of Mau Mau (`pettingzoo_env`), and Gymnasium's
  `make_vec("tiergarten/MauMau-v0", 16)` (sync: one learner seat each, random bots);
- ours batched: `BatchedGames("maumau", N, workers=1|2)` (every seat an agent) and
  `VectorSeatEnv("maumau", N, workers=2)` (one learner seat against random bots).

Mau Mau is played at 3 players, one round per episode. Rates are by wall-clock (what a learner
gets on the machine as loaded) and by CPU seconds of every process taking part (workers
included): on a shared 2-core machine the wall figure moves with the other load.

    python benchmarks/rl_batched.py --rounds 3 --seconds 2    # alone; bench.py runs it as `rl`
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from random_play import aec_episode, timed

HERE = Path(__file__).resolve().parent
MAUMAU = {"players": 3, "rounds": 1}
PEER_ENVS = ("tictactoe_v3", "connect_four_v3", "leduc_holdem_v4")
TARGET = 50_000  # agent steps a second, Mau Mau, batched


def _cpu_of(pids: list[int]) -> float:
    """CPU seconds so far of processes `pids` (from /proc; 0 where unreadable)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            pass
    return total


Measure = Callable[[float, int], dict[str, float]]


def aec(seconds: float, seed: int) -> dict[str, float]:
    from tiergarten.rl import pettingzoo_env

    steps, wall, cpu = timed(lambda: pettingzoo_env("maumau", **MAUMAU), aec_episode)(
        seconds, seed)
    return {"steps": steps, "wall_s": wall, "cpu_s": cpu}


def make_vec(seconds: float, seed: int, num: int = 16) -> dict[str, float]:
    import gymnasium

    import tiergarten.rl  # noqa: F401  (registers the ids)

    envs = gymnasium.make_vec("tiergarten/MauMau-v0", num_envs=num, vectorization_mode="sync",
                              **MAUMAU)
    obs, _ = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall0 < seconds:
        mask = obs["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(1)  # an ended game's row resets
        obs, *_ = envs.step(actions)
        steps += num
    result = {"steps": steps, "wall_s": time.perf_counter() - wall0,
              "cpu_s": time.process_time() - cpu0}
    envs.close()
    return result


def batched(seconds: float, seed: int, num: int, workers: int, seat_env: bool = False,
            ) -> dict[str, float]:
    from tiergarten.rl.vector import BatchedGames, VectorSeatEnv

    env: Any
    if seat_env:
        env = VectorSeatEnv("maumau", num, opponents="random", workers=workers, **MAUMAU)
        obs, _ = env.reset(seed=seed)
        mask = obs["action_mask"]
        procs = env._batch.procs
    else:
        env = BatchedGames("maumau", num, workers=workers, **MAUMAU)
        _, mask, _ = env.reset(seed=seed)
        procs = env._batch.procs
    pids = [os.getpid()] + [p.pid for p in procs]
    rng = np.random.default_rng(seed)
    steps = 0
    wall0, cpu0 = time.perf_counter(), _cpu_of(pids)
    while time.perf_counter() - wall0 < seconds:
        actions = (rng.random(mask.shape) * mask).argmax(1)
        if seat_env:
            obs, *_ = env.step(actions)
            mask = obs["action_mask"]
        else:
            _, mask, *_ = env.step(actions)
        steps += num
    result = {"steps": steps, "wall_s": time.perf_counter() - wall0,
              "cpu_s": _cpu_of(pids) - cpu0}
    env.close()
    return result


def peer(python: Path, name: str) -> Measure | None:
    if not python.exists():
        return None
    probe = subprocess.run([str(python), "-c", f"import pettingzoo.classic.{name}"],
                           capture_output=True, timeout=120)
    if probe.returncode != 0:
        return None

    def run(seconds: float, seed: int) -> dict[str, float]:
        out = subprocess.run([str(python), str(HERE / "rl_peers.py"), "--env", name,
                              "--seconds", str(seconds), "--seed", str(seed)],
                             capture_output=True, text=True, check=True, timeout=300)
        row: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
        return row

    return run


def rows(peers_python: Path) -> dict[str, tuple[str, Measure | None]]:
    """label -> (kind, measure)."""
    table: dict[str, tuple[str, Measure | None]] = {}
    for name in PEER_ENVS:
        table[f"PettingZoo {name} (AEC, classic)"] = ("peer", peer(peers_python, name))
    table["tiergarten Mau Mau, AEC env (pettingzoo_env)"] = ("unbatched", aec)
    table["tiergarten Mau Mau, Gymnasium make_vec, 16 sync envs"] = ("unbatched", make_vec)
    for workers in (1, 2):
        table[f"tiergarten Mau Mau, BatchedGames, 256 games, {workers} worker"
              + ("s" if workers > 1 else "")] = (
            "batched", lambda s, seed, w=workers: batched(s, seed, 256, w))
    table["tiergarten Mau Mau, VectorSeatEnv (vs random bots), 256 games, 2 workers"] = (
        "batched", lambda s, seed: batched(s, seed, 256, 2, seat_env=True))
    return table


def measure(rounds: int, seconds: float, peers_python: Path, log: Any = print) -> dict[str, Any]:
    """Interleaved rounds: every row once a round, so the machine's load touches all alike."""
    table = rows(peers_python)
    runs: dict[str, list[dict[str, float]]] = {label: [] for label in table}
    for r in range(rounds):
        for label, (_, run) in table.items():
            if run is not None:
                runs[label].append(run(seconds, 1000 * r))
        log(f"rl round {r + 1}/{rounds}")
    out: list[dict[str, Any]] = []
    for label, (kind, run) in table.items():
        got = runs[label]
        if run is None or not got:
            out.append({"label": label, "kind": kind, "available": False})
            continue
        wall = [g["steps"] / g["wall_s"] for g in got]
        cpu = [g["steps"] / g["cpu_s"] for g in got if g["cpu_s"] > 0]
        out.append({"label": label, "kind": kind, "available": True,
                    "wall": {"min": min(wall), "median": statistics.median(wall),
                             "max": max(wall)},
                    "cpu": statistics.median(cpu) if cpu else None,
                    "pettingzoo": got[0].get("pettingzoo")})
    return {"rows": out, "rounds": rounds, "seconds": seconds, "target": TARGET,
            "options": MAUMAU}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--peers-python", type=Path, default=HERE / ".peers" / "bin" / "python")
    args = parser.parse_args()
    result = measure(args.rounds, args.seconds, args.peers_python)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
