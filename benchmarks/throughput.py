"""Random-play throughput of every registered game, through the public API only.

For each game and each player count, uniformly random complete games (default options) are
played with `is_over`, `to_move`, `legal_actions` and the checked `apply`; when several seats may
act, one of them is picked at random. Each measurement runs for a fixed time and is repeated;
the table shows the median with (min–max) of the repeats, by wall-clock time and by this
process's CPU time (steadier on a machine shared with other work). With `--match` the same is
measured through `play_match` with random bots (the path `tiergarten simulate` takes).

    python benchmarks/throughput.py            # about a second per repeat (`make bench` runs
                                               # bench.py, which uses this loop)
    python benchmarks/throughput.py --quick    # a fast smoke run
    python benchmarks/throughput.py --games maumau --players 3 --seconds 3

Results go to benchmarks/results/latest-throughput.json (git-ignored).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

import tiergarten
from tiergarten.bots import RandomBot
from tiergarten.core import Game, game_class
from tiergarten.core.match import play_match
from tiergarten.core.options import parse_assignments

RESULTS = Path(__file__).resolve().parent / "results" / "latest-throughput.json"
Player = Callable[[Game, int, random.Random], int]  # plays one game, returns its decisions


def play_random(game: Game, seed: int, rng: random.Random) -> int:
    """One uniformly random game through the public, checked API; returns its decisions."""
    state = game.new_state(seed)
    decisions = 0
    while not state.is_over():
        movers = state.to_move()
        seat = movers[0] if len(movers) == 1 else rng.choice(movers)
        legal = state.legal_actions(seat)
        if not legal:
            raise RuntimeError(f"{game.id}: seat {seat} is to move but has no legal action "
                               f"(decision {decisions}, seed {seed})")
        state.apply(seat, rng.choice(legal))
        decisions += 1
    return decisions


def play_with_bots(game: Game, seed: int, rng: random.Random) -> int:
    """One game of random bots through `play_match`, as the simulator plays it."""
    agents = [RandomBot(game, seat, random.Random(rng.random())) for seat in range(game.players)]
    return len(play_match(game, agents, seed).history)


def measure(game: Game, play: Player, seconds: float) -> dict[str, float]:
    """Play games for about `seconds` (at least one); return counts and rates."""
    rng = random.Random(0)
    games = decisions = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    elapsed = 0.0
    while games == 0 or elapsed < seconds:
        decisions += play(game, games, rng)
        games += 1
        elapsed = time.perf_counter() - start
    cpu = max(time.process_time() - start_cpu, 1e-9)
    return {"games": games, "decisions": decisions, "seconds": elapsed, "cpu_seconds": cpu,
            "games_per_s": games / elapsed, "decisions_per_s": decisions / elapsed,
            "cpu_games_per_s": games / cpu, "cpu_decisions_per_s": decisions / cpu}


def spread(values: list[float]) -> dict[str, float]:
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def bench(game_id: str, players: int, options: dict[str, str], loop: str, seconds: float,
          repeats: int) -> dict[str, Any]:
    game = tiergarten.load(game_id, players, **options)
    play = play_random if loop == "api" else play_with_bots
    play(game, 10**6, random.Random(1))  # warm up: imports, caches
    runs = [measure(game, play, seconds) for _ in range(repeats)]
    games = sum(r["games"] for r in runs)
    return {"game": game_id, "players": players, "loop": loop, "options": dict(game.options),
            "repeats": runs,
            "games_per_s": spread([r["games_per_s"] for r in runs]),
            "decisions_per_s": spread([r["decisions_per_s"] for r in runs]),
            "cpu_games_per_s": spread([r["cpu_games_per_s"] for r in runs]),
            "cpu_decisions_per_s": spread([r["cpu_decisions_per_s"] for r in runs]),
            "decisions_per_game": sum(r["decisions"] for r in runs) / games}


def machine() -> dict[str, Any]:
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=5, cwd=Path(__file__).parent).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return {
        "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or _cpu_model(),
        "cpus": os.cpu_count(),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "tiergarten": tiergarten.__version__,
        "commit": commit or None,
    }


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def _rate(s: dict[str, float]) -> str:
    return f"{_num(s['median'])} ({_num(s['min'])}–{_num(s['max'])})"


def _num(x: float) -> str:
    return f"{x / 1000:.1f}k" if x >= 10_000 else f"{x:.0f}"


def table(rows: list[dict[str, Any]], info: dict[str, Any], repeats: int) -> Table:
    t = Table(title=f"Random-play throughput, median (min–max) of {repeats} repeats\n"
                    f"{info['python']} · {info['processor']} · {info['cpus']} cpus · "
                    f"tiergarten {info['tiergarten']} ({info['commit']})",
              title_justify="left")
    for name, justify in (("Game", "left"), ("Players", "right"), ("Loop", "left"),
                          ("Games/s", "right"), ("Decisions/s", "right"),
                          ("Games/s (cpu)", "right"), ("Decisions/s (cpu)", "right"),
                          ("Decisions/game", "right")):
        t.add_column(name, justify=justify)  # type: ignore[arg-type]
    for r in rows:
        t.add_row(r["game"], str(r["players"]), r["loop"], _rate(r["games_per_s"]),
                  _rate(r["decisions_per_s"]), _rate(r["cpu_games_per_s"]),
                  _rate(r["cpu_decisions_per_s"]), f"{r['decisions_per_game']:.0f}")
    return t


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="0.2 s per repeat")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per repeat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", default="", help="comma-separated ids (default: all)")
    parser.add_argument("--players", type=int, default=None, help="only this player count")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--match", action="store_true",
                        help="also measure play_match with random bots")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    seconds = 0.2 if args.quick else args.seconds
    ids = [g for g in args.games.split(",") if g] or list(tiergarten.games())
    options = parse_assignments(args.option)
    loops = ["api", "match"] if args.match else ["api"]
    console = Console(width=None if sys.stdout.isatty() else 150)
    rows: list[dict[str, Any]] = []
    for game_id in ids:
        info = game_class(game_id).info
        counts = [args.players] if args.players else range(info.min_players,
                                                           info.max_players + 1)
        for players in counts:
            for loop in loops:
                with console.status(f"{game_id}, {players} players, {loop} …"):
                    rows.append(bench(game_id, players, options, loop, seconds, args.repeats))
    about = machine()
    console.print(table(rows, about, args.repeats))
    for r in rows:
        if r["game"] == "maumau" and r["loop"] == "api" and r["players"] == 3:
            console.print(f"Mau Mau, 3 players, random play: {r['games_per_s']['median']:,.0f} "
                          f"games/s, {r['decisions_per_s']['median']:,.0f} decisions/s "
                          f"(median of {args.repeats} × {seconds:g} s; by CPU time "
                          f"{r['cpu_games_per_s']['median']:,.0f} games/s, "
                          f"{r['cpu_decisions_per_s']['median']:,.0f} decisions/s)",
                          highlight=False)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"machine": about, "seconds": seconds,
                                    "repeats": args.repeats, "results": rows}, indent=2) + "\n")
    console.print(f"written to {args.out}", highlight=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
