"""Bot speed: seconds per move at every level of every game (p50, p99, max) and, for the
search levels, ISMCTS iterations (playouts) per second and rollout steps per second.

Each level plays at its game's usual table against `normal` bots (Mau Mau one round a game,
so a measurement never waits on a 150-point match) until `--moves` of its own moves are timed;
only the level's own `propose` calls are timed, and only those that had a choice to make.

    python benchmarks/bots.py                 # every game and level, 60 moves each
    python benchmarks/bots.py --quick         # a fast smoke run (10 moves each)
    python benchmarks/bots.py --games mammuz --levels expert --moves 200

Results go to benchmarks/results/latest-bots.json (git-ignored).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import statistics
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

import tiergarten
from tiergarten import bots
from tiergarten.bots.ismcts import ISMCTSBot
from tiergarten.bots.levels import LEVELS, NAMES
from tiergarten.core.match import Proposal, SeatView, play_match
from tiergarten.core.realtime import play_virtual

RESULTS = Path(__file__).resolve().parent / "results" / "latest-bots.json"
OPTIONS: dict[str, dict[str, Any]] = {"maumau": {"rounds": 1}, "lecker_mammut": {"rounds": 1}}


class Timed:
    """Wraps a bot and times its proposals that had more than one legal action."""

    def __init__(self, bot: bots.Bot) -> None:
        self.bot = bot
        self.interactive = False
        self.times: list[float] = []
        self.iterations = 0
        self.steps = 0
        self.search_seconds = 0.0

    def propose(self, view: SeatView) -> Proposal | None:
        started = time.perf_counter()
        proposal = self.bot.propose(view)
        elapsed = time.perf_counter() - started
        if len(view.legal) > 1:
            self.times.append(elapsed)
        if isinstance(self.bot, ISMCTSBot):
            stats = self.bot.stats
            self.iterations += stats.iterations
            self.steps += stats.rollout_steps
            self.search_seconds += stats.seconds
            stats.iterations = stats.rollout_steps = 0
            stats.seconds = 0.0
        return proposal


def measure(game_id: str, level: str, moves: int, seed: int) -> dict[str, Any]:
    """Play games until `moves` choices of `level` are timed; return its figures."""
    game = tiergarten.load(game_id, **OPTIONS.get(game_id, {}))
    timed: list[Timed] = []
    index = 0
    while sum(len(t.times) for t in timed) < moves:
        seat = index % game.players
        rng = random.Random(seed * 1000 + index)
        agents: list[Any] = [bots.make("normal", game, s, random.Random(rng.getrandbits(64)))
                             for s in range(game.players)]
        probe = Timed(bots.make(level, game, seat, random.Random(rng.getrandbits(64))))
        agents[seat] = probe
        timed.append(probe)
        if game.info.real_time:
            play_virtual(game, agents, seed + index)
        else:
            play_match(game, agents, seed + index)
        index += 1
    times = sorted(x for t in timed for x in t.times)
    iterations = sum(t.iterations for t in timed)
    search = sum(t.search_seconds for t in timed)
    steps = sum(t.steps for t in timed)
    return {"game": game_id, "level": level, "moves": len(times), "games": index,
            "p50_s": statistics.median(times), "p99_s": _quantile(times, 0.99),
            "max_s": times[-1],
            "playouts_per_s": iterations / search if search else None,
            "rollout_steps_per_s": steps / search if search else None}


def _quantile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=sorted(LEVELS))
    parser.add_argument("--levels", nargs="*", default=list(NAMES))
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="10 moves per level")
    args = parser.parse_args()
    moves = 10 if args.quick else args.moves
    rows = [measure(g, level, moves, args.seed) for g in args.games for level in args.levels]
    table = Table(title=f"Seconds per move ({moves} moves per level, against normal bots)",
                  title_justify="left")
    for column in ("Game", "Level", "p50", "p99", "max", "playouts/s", "rollout steps/s"):
        table.add_column(column, justify="left" if column in ("Game", "Level") else "right")
    for r in rows:
        table.add_row(r["game"], r["level"], f"{r['p50_s']:.4f}", f"{r['p99_s']:.4f}",
                      f"{r['max_s']:.4f}",
                      "–" if r["playouts_per_s"] is None else f"{r['playouts_per_s']:,.0f}",
                      "–" if r["rollout_steps_per_s"] is None
                      else f"{r['rollout_steps_per_s']:,.0f}")
    Console().print(table)
    RESULTS.parent.mkdir(exist_ok=True)
    machine = {"when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
               "python": platform.python_version(), "cpus": os.cpu_count(),
               "load_average": list(os.getloadavg())}
    RESULTS.write_text(json.dumps({"machine": machine, "moves": moves, "results": rows},
                                  indent=1), encoding="utf-8")
    print(f"results: {RESULTS}")


if __name__ == "__main__":
    main()
