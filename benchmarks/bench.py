"""`make bench`: engine throughput next to the peers, bot move times, the server under load.

Writes benchmarks/results/latest.json (every figure, the machine, the versions, the commands)
and benchmarks/results/latest.md (a short report) with PNG plots beside it.

1. Engine: uniformly random complete games through the public API (`benchmarks/throughput.py`'s
   loop) for every game and player count, next to OpenSpiel's `crazy_eights` and RLCard's `uno`
   run by the peers' own interpreter (`benchmarks/peers.py` under `benchmarks/.peers/`, made by
   `make peers`). Rounds interleave: in every round each of ours and each peer plays one timed
   batch, one after the other in this process tree, so machine load touches all alike; the
   ratios are taken within each round by each process's CPU time (steadier than wall time on
   a shared machine; both rates are reported), then summarised (min/median/max over rounds).
2. Bots: seconds per move at every level of every game (p50, p99, max) and ISMCTS playouts/s
   (`benchmarks/bots.py`'s measurement), repeated.
3. Server: `benchmarks/load.py` steps of growing table counts, on SQLite and on PostgreSQL,
   then the 600-table target step repeated.
4. Cluster: 1, 2 and 3 workers behind Caddy with PostgreSQL and Redis (`load.py --workers`),
   steps of growing table counts; CPU per act of the workers, Redis and Caddy. Then the same
   with each worker held to a share of a core (`cluster_capped`, `load.py --worker-cpu`):
   how the workers scale when each has CPU of its own, which two cores shared with the
   clients and the proxy cannot show otherwise.
5. Failover: kill -9 of the busiest of three workers mid-game, repeated
   (`benchmarks/failover.py`): time until each of its tables plays on.
6. RL: agent steps per second of the batched envs (`tiergarten.rl.vector`) next to the
   unbatched adapters and PettingZoo's classic envs (the peers' Python), interleaved rounds
   (`benchmarks/rl_batched.py`).
7. Quick match: 1,000 simulated people queueing over a simulated minute, through the memory
   queue and the Redis one, on an injected clock (`benchmarks/quickmatch.py`): time to a
   match, the rating gap of the matches, the pairing rounds' CPU per match.

    python benchmarks/bench.py                 # the full run, about 12 minutes
    python benchmarks/bench.py --quick         # a smoke run of every part, seconds
    python benchmarks/bench.py --only engine   # one part (engine, bots, load, cluster,
                                               # cluster_capped, failover, rl,
                                               # quickmatch)
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import platform
import random
import shlex
import statistics
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import load  # noqa: E402
import report  # noqa: E402

import tiergarten  # noqa: E402
from tiergarten.core import game_class  # noqa: E402

RESULTS = HERE / "results"
PEERS_PYTHON = HERE / ".peers" / "bin" / "python"
PARTS = ["engine", "bots", "load", "cluster", "cluster_capped", "failover", "rl", "quickmatch"]
PEER_GAMES = {"openspiel": "crazy_eights", "rlcard": "uno"}
PEER_PLAYERS = {"openspiel": [2, 3, 4], "rlcard": [2]}
TARGET_TABLES = 600  # one worker: 600 tables, 2,400 clients, p99 < 50 ms, no errors


def spread(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


# -- engine ---------------------------------------------------------------------------------------


class Peer:
    """A peers' worker (`peers.py` run by the peers' python), alive for the whole run."""

    def __init__(self, python: Path) -> None:
        self.command = [str(python), str(HERE / "peers.py")]
        self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, env={"PATH": os.environ.get("PATH", ""),
                                                     "HOME": os.environ.get("HOME", "/")})
        self.versions = self._read()

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the peers' worker stopped ({' '.join(self.command)})")
        return dict(json.loads(line))

    def measure(self, peer: str, players: int, seconds: float) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"peer": peer, "players": players,
                                          "seconds": seconds}) + "\n")
        self.proc.stdin.flush()
        answer = self._read()
        if "error" in answer:
            raise RuntimeError(f"{peer}: {answer['error']}")
        return answer

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(10)


def _ours(game: Any, seconds: float, rng: random.Random) -> dict[str, Any]:
    from throughput import play_random

    games = decisions = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    elapsed = 0.0
    while games == 0 or elapsed < seconds:
        decisions += play_random(game, rng.getrandbits(32), rng)
        games += 1
        elapsed = time.perf_counter() - start
    return {"games": games, "decisions": decisions, "seconds": elapsed,
            "cpu_seconds": max(time.process_time() - start_cpu, 1e-9)}


def engine(rounds: int, seconds: float, games: list[str], peers_python: Path | None,
           log: Any) -> dict[str, Any]:
    from throughput import play_random

    ours = [(g, p) for g in games for p in range(game_class(g).info.min_players,
                                                 game_class(g).info.max_players + 1)]
    loaded = {key: tiergarten.load(key[0], key[1]) for key in ours}
    for game in loaded.values():
        play_random(game, 10**6, random.Random(1))  # warm up
    worker = None
    peers: list[tuple[str, int]] = []
    peer_note = None
    if peers_python is not None and peers_python.exists():
        try:
            worker = Peer(peers_python)
            peers = [(p, n) for p in PEER_PLAYERS for n in PEER_PLAYERS[p]]
            for peer, n in peers:
                worker.measure(peer, n, 0.0)  # warm up: imports, first game
        except Exception as e:  # noqa: BLE001 - the report says so
            peer_note = f"peers unavailable: {e}"
            worker, peers = None, []
    else:
        peer_note = (f"peers not measured: {peers_python} does not exist (run `make peers`)"
                     if peers_python else "peers not measured (--no-peers)")
    if peer_note:
        log(f"  {peer_note}")
    batches: dict[str, list[dict[str, Any]]] = {}

    def name(kind: str, n: int) -> str:
        return f"{kind}/{n}"

    # a round: Mau Mau and the peers alternate per player count, then the other games
    maumau = [k for k in ours if k[0] == "maumau"]
    others = [k for k in ours if k[0] != "maumau"]
    for r in range(rounds):
        rng = random.Random(r)
        order: list[tuple[str, Any]] = []
        for key in maumau:
            order.append(("ours", key))
            order.extend(("peer", p) for p in peers if p[1] == key[1])
        order.extend(("peer", p) for p in peers if p[1] not in {k[1] for k in maumau})
        order.extend(("ours", k) for k in others)
        for kind, key in order:
            if kind == "ours":
                batch = _ours(loaded[key], seconds, rng)
            else:
                assert worker is not None
                batch = worker.measure(key[0], key[1], seconds)
            batch["round"] = r
            batches.setdefault(name(*key), []).append(batch)
        mm = [b for k, v in batches.items() if k.startswith("maumau/") for b in v
              if b["round"] == r]
        rate = sum(b["decisions"] for b in mm) / max(1e-9, sum(b["seconds"] for b in mm))
        log(f"  engine round {r + 1}/{rounds}: Mau Mau {rate:,.0f} decisions/s")
    if worker is not None:
        worker.close()
    rows = []
    for key in ours + peers:
        runs = batches[name(*key)]
        is_ours = key in ours
        rows.append({
            "system": "tiergarten" if is_ours else key[0],
            "game": key[0] if is_ours else PEER_GAMES[key[0]],
            "players": key[1], "batches": runs,
            "decisions_per_s": spread([b["decisions"] / b["seconds"] for b in runs]),
            "games_per_s": spread([b["games"] / b["seconds"] for b in runs]),
            "cpu_decisions_per_s": spread([b["decisions"] / b["cpu_seconds"] for b in runs]),
            "decisions_per_game": sum(b["decisions"] for b in runs) / sum(b["games"]
                                                                          for b in runs)})
    ratios = _ratios(batches, rounds, ours, peers)
    return {"rounds": rounds, "seconds_per_batch": seconds, "rows": rows, "ratios": ratios,
            "targets": _engine_targets(rows, ratios), "peer_note": peer_note,
            "peer_versions": worker.versions if worker else None,
            "peer_command": " ".join(worker.command) if worker else None}


def _per_round(batches: dict[str, list[dict[str, Any]]], key: str) -> dict[int, float]:
    """Decisions per CPU second of the measuring process, per round: on a machine shared with
    other work the CPU time a batch got is steadier than the wall time it took (wall-clock
    rates are reported beside)."""
    return {b["round"]: b["decisions"] / b["cpu_seconds"] for b in batches.get(key, [])}


def _ratios(batches: dict[str, list[dict[str, Any]]], rounds: int, ours: list[tuple[str, int]],
            peers: list[tuple[str, int]]) -> list[dict[str, Any]]:
    """Within-round ratios of decisions/s: Mau Mau over each peer, every game over Mau Mau."""
    out = []

    def ratio(a: str, b: str, what: str, **about: Any) -> None:
        x, y = _per_round(batches, a), _per_round(batches, b)
        values = [x[r] / y[r] for r in range(rounds) if r in x and r in y and y[r] > 0]
        if values:
            out.append({"what": what, "numerator": a, "denominator": b, **about,
                        "ratio": spread(values)})

    for peer, n in peers:
        for mm in (g for g in ours if g[0] == "maumau"):
            if peer == "rlcard" or mm[1] == n:
                ratio(f"maumau/{mm[1]}", f"{peer}/{n}", f"maumau/{peer}", players=mm[1],
                      peer_players=n)
    default = game_class("maumau").info.default_players
    for g, n in ours:
        if g != "maumau":
            ratio(f"{g}/{n}", f"maumau/{default}", "game/maumau", game=g, players=n)
    return out


def _engine_targets(rows: list[dict[str, Any]], ratios: list[dict[str, Any]]
                    ) -> list[dict[str, Any]]:
    targets = []
    os_r = [r for r in ratios if r["what"] == "maumau/openspiel"]
    if os_r:
        worst = min(os_r, key=lambda r: r["ratio"]["median"])
        targets.append({
            "target": "Mau Mau decisions/s >= 1.0x OpenSpiel crazy_eights (Python API), "
                      "same player count",
            "measured": {f"{r['players']}p": r["ratio"] for r in os_r},
            "worst_median": worst["ratio"]["median"], "threshold": 1.0,
            "passed": worst["ratio"]["median"] >= 1.0})
    rl_r = [r for r in ratios if r["what"] == "maumau/rlcard"]
    if rl_r:
        same = [r for r in rl_r if r["players"] == r["peer_players"]] or rl_r
        worst = min(same, key=lambda r: r["ratio"]["median"])
        targets.append({
            "target": "Mau Mau decisions/s >= 7x RLCard UNO (random agents, 2 players)",
            "measured": {f"{r['players']}p": r["ratio"] for r in rl_r},
            "worst_median": worst["ratio"]["median"], "threshold": 7.0,
            "passed": worst["ratio"]["median"] >= 7.0})
    per_game: dict[str, list[dict[str, Any]]] = {}
    for r in ratios:
        if r["what"] == "game/maumau":
            per_game.setdefault(r["game"], []).append(r)
    for g, rs in sorted(per_game.items()):
        worst = min(rs, key=lambda r: r["ratio"]["median"])
        targets.append({
            "target": f"{g} decisions/s >= 0.5x Mau Mau's (3 players), every player count",
            "measured": {f"{r['players']}p": r["ratio"] for r in rs},
            "worst_median": worst["ratio"]["median"], "threshold": 0.5,
            "passed": worst["ratio"]["median"] >= 0.5})
    return targets


# -- bots -----------------------------------------------------------------------------------------


def bot_times(moves: int, repeats: int, games: list[str], log: Any) -> dict[str, Any]:
    import bots as bots_bench
    from tiergarten.bots.levels import LEVELS, NAMES

    rows = []
    for g in games:
        for level in NAMES:
            if level not in LEVELS.get(g, ()):
                continue
            runs = [bots_bench.measure(g, level, moves, seed) for seed in range(1, repeats + 1)]
            log(f"  bots {g} {level}: p50 {runs[0]['p50_s'] * 1000:.2f} ms")
            rows.append({"game": g, "level": level, "runs": runs,
                         "moves": sum(r["moves"] for r in runs),
                         "p50_s": spread([r["p50_s"] for r in runs]),
                         "p99_s": spread([r["p99_s"] for r in runs]),
                         "max_s": max(r["max_s"] for r in runs),
                         "playouts_per_s": spread([r["playouts_per_s"] for r in runs
                                                   if r["playouts_per_s"]])})
    return {"moves_per_run": moves, "repeats": repeats, "rows": rows}


# -- load -----------------------------------------------------------------------------------------


def server_load(steps: list[int], seconds: float, repeats: int, backends: list[str],
                think: tuple[float, float], log: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"think_s": list(think), "seconds_per_step": seconds,
                           "target": {"tables": TARGET_TABLES, "connections": 4 * TARGET_TABLES,
                                      "p99_s": load.P99_TARGET_S, "errors": 0},
                           "backends": {}}
    for backend in backends:
        try:
            sweep = load.run_steps(backend, steps, seconds, think, log=log,
                                   must_reach=TARGET_TABLES,
                                   repeat_at=TARGET_TABLES if TARGET_TABLES in steps else None,
                                   repeats=repeats)
        except Exception as e:  # noqa: BLE001 - e.g. no PostgreSQL here: reported, not fatal
            log(f"  load on {backend} failed: {type(e).__name__}: {e}")
            out["backends"][backend] = {"error": f"{type(e).__name__}: {e}"}
            continue
        out["backends"][backend] = sweep
    return out


# -- the machine ------------------------------------------------------------------------------


def machine(argv: list[str]) -> dict[str, Any]:
    def version(name: str) -> str | None:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return None

    def run(*cmd: str) -> str:
        try:
            return subprocess.run(cmd, capture_output=True, text=True, timeout=10,
                                  cwd=HERE).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    cpu = ""
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in
                   Path("/proc/cpuinfo").read_text().splitlines()
                   if line.startswith("model name"))
    except (OSError, StopIteration):
        cpu = platform.processor()
    mem = ""
    with contextlib.suppress(OSError, StopIteration):
        mem = next(line.split(":", 1)[1].strip() for line in
                   Path("/proc/meminfo").read_text().splitlines() if line.startswith("MemTotal"))
    from tiergarten.games.mammuz.kernel import uses_kernel

    return {
        "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "mammuz_kernel": uses_kernel(),
        "cpu": cpu, "cores": os.cpu_count(), "memory": mem,
        "platform": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "load_average_at_start": list(os.getloadavg()),
        "commit": run("git", "rev-parse", "--short", "HEAD") or None,
        "dirty": bool(run("git", "status", "--porcelain", "--", "src")),
        "packages": {p: version(p) for p in ("tiergarten", "fastapi", "uvicorn", "websockets",
                                             "sqlalchemy", "psycopg", "httpx", "uvloop",
                                             "matplotlib")},
        "command": "python " + shlex.join(["benchmarks/bench.py", *argv]),
    }


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of every part")
    parser.add_argument("--only", action="append",
                        choices=PARTS,
                        help="run only this part (repeatable)")
    parser.add_argument("--rounds", type=int, default=8, help="engine rounds")
    parser.add_argument("--seconds", type=float, default=0.5, help="engine batch seconds")
    parser.add_argument("--games", default="", help="comma-separated ids (default: all)")
    parser.add_argument("--peers-python", type=Path, default=PEERS_PYTHON)
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--bot-moves", type=int, default=40, help="timed moves per run")
    parser.add_argument("--bot-repeats", type=int, default=3)
    parser.add_argument("--load-steps", default="200,400,500,600,700,800")
    parser.add_argument("--load-seconds", type=float, default=15.0)
    parser.add_argument("--load-repeats", type=int, default=3,
                        help=f"runs of the {TARGET_TABLES}-table step")
    parser.add_argument("--cluster-workers", default="1,2")
    parser.add_argument("--cluster-steps", default="400,500,600,700,800,900,1000")
    parser.add_argument("--cluster-repeats", type=int, default=1,
                        help="runs per cluster step (both cluster parts)")
    parser.add_argument("--capped-workers", default="1,2,3")
    parser.add_argument("--capped-steps", default="150,200,250,300,350,400",
                        help="tables per worker, for the cluster_capped part")
    parser.add_argument("--capped-cpu", type=float, default=0.4,
                        help="cores each worker is held to in the cluster_capped part")
    parser.add_argument("--failover-runs", type=int, default=5)
    parser.add_argument("--rl-rounds", type=int, default=3, help="rl part: rounds")
    parser.add_argument("--rl-seconds", type=float, default=2.0, help="rl part: seconds a run")
    parser.add_argument("--qm-people", type=int, default=1000, help="quickmatch: people")
    parser.add_argument("--think", default="0.5,1.5", help="a person's think time, min,max s")
    parser.add_argument("--db", default="sqlite,postgresql", help="load backends")
    parser.add_argument("--server-rev", default=None, metavar="REV",
                        help="run the server from this commit's src/ (default: working tree)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--merge", action="store_true",
                        help="with --only: keep the other parts of results/latest.json")
    parser.add_argument("--report-only", type=Path, metavar="JSON",
                        help="only render the report again from a results file")
    args = parser.parse_args(argv)
    if args.report_only:
        results = json.loads(args.report_only.read_text())
        for path in report.write(results, args.out):
            print(f"written {path}")
        return 0
    if args.quick:
        args.rounds, args.seconds = 2, 0.1
        args.bot_moves, args.bot_repeats = 3, 1
        args.load_steps, args.load_seconds, args.load_repeats = "2", 2.0, 1
        args.cluster_workers, args.cluster_steps, args.failover_runs = "2", "2", 1
        args.capped_workers, args.capped_steps = "1", "2"
        args.rl_rounds, args.rl_seconds = 1, 0.2
        args.qm_people = 50
    parts = args.only or PARTS
    games = [g for g in args.games.split(",") if g] or list(tiergarten.games())
    started = time.perf_counter()
    results: dict[str, Any] = {"machine": machine(argv), "quick": args.quick}
    results["commands"] = {
        "engine": f"python benchmarks/bench.py --only engine --rounds {args.rounds} "
                  f"--seconds {args.seconds:g}",
        "bots": f"python benchmarks/bench.py --only bots --bot-moves {args.bot_moves} "
                f"--bot-repeats {args.bot_repeats}",
        "load": f"python benchmarks/bench.py --only load --load-steps {args.load_steps} "
                f"--load-seconds {args.load_seconds:g} --load-repeats {args.load_repeats} "
                f"--think {args.think} --db {args.db}"
                + (f" --server-rev {args.server_rev}" if args.server_rev else ""),
        "peers": f"{args.peers_python} benchmarks/peers.py (started by bench.py)",
        "cluster": f"python benchmarks/bench.py --only cluster --cluster-workers "
                   f"{args.cluster_workers} --cluster-steps {args.cluster_steps} "
                   f"--cluster-repeats {args.cluster_repeats} --load-seconds "
                   f"{args.load_seconds:g}",
        "cluster_capped": f"python benchmarks/bench.py --only cluster_capped --capped-workers "
                          f"{args.capped_workers} --capped-steps {args.capped_steps} "
                          f"--capped-cpu {args.capped_cpu:g} --cluster-repeats "
                          f"{args.cluster_repeats} --load-seconds {args.load_seconds:g}",
        "failover": f"python benchmarks/bench.py --only failover --failover-runs "
                    f"{args.failover_runs}",
        "rl": f"python benchmarks/bench.py --only rl --rl-rounds {args.rl_rounds} "
              f"--rl-seconds {args.rl_seconds:g}",
        "quickmatch": f"python benchmarks/bench.py --only quickmatch --qm-people "
                      f"{args.qm_people}",
    }
    load._raise_fd_limit()

    def log(text: str) -> None:
        print(f"[{time.perf_counter() - started:6.0f} s] {text}", flush=True)

    def ran(part: str, run: Any) -> None:
        """Run one part; note when, how busy the machine was, and the commit it measured."""
        t0, load0 = time.perf_counter(), list(os.getloadavg())
        results[part] = run()
        results[part]["ran"] = {
            "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
            "commit": results["machine"]["commit"], "seconds": time.perf_counter() - t0,
            "load_average_at_start": load0, "load_average_at_end": list(os.getloadavg()),
            "command": results["commands"][part]}

    if "engine" in parts:
        log("engine: random play, ours and the peers' interleaved")
        ran("engine", lambda: engine(args.rounds, args.seconds, games,
                                     None if args.no_peers else args.peers_python, log))
    if "bots" in parts:
        log("bots: seconds per move")
        ran("bots", lambda: bot_times(args.bot_moves, args.bot_repeats, games, log))
    if "load" in parts:
        log("server under load")
        server_commit = load.use_server_rev(args.server_rev)
        think = tuple(float(x) for x in args.think.split(","))
        assert len(think) == 2
        ran("load", lambda: server_load([int(x) for x in args.load_steps.split(",")],
                                        args.load_seconds, args.load_repeats,
                                        [b for b in args.db.split(",") if b],
                                        (think[0], think[1]), log))
        results["load"]["server_commit"] = server_commit or "working tree"
    if "cluster" in parts:
        log("several workers behind Caddy, PostgreSQL and Redis")
        think = tuple(float(x) for x in args.think.split(","))
        ran("cluster", lambda: load.run_cluster_steps(
            [int(x) for x in args.cluster_workers.split(",")],
            [int(x) for x in args.cluster_steps.split(",")], args.load_seconds,
            (think[0], think[1]), log=log, repeats=args.cluster_repeats))
    if "cluster_capped" in parts:
        log(f"several workers, each held to {args.capped_cpu:g} of a core")
        think = tuple(float(x) for x in args.think.split(","))
        ran("cluster_capped", lambda: load.run_cluster_steps(
            [int(x) for x in args.capped_workers.split(",")],
            [int(x) for x in args.capped_steps.split(",")], args.load_seconds,
            (think[0], think[1]), log=log, worker_cpu=args.capped_cpu, per_worker=True,
            repeats=args.cluster_repeats))
    if "failover" in parts:
        import failover

        log("failover: kill -9 a worker mid-game")
        ran("failover", lambda: failover.measure(args.failover_runs, 3, 12, 0.1, 3.0, log=log))
    if "rl" in parts:
        import rl_batched

        log("rl: batched envs next to the unbatched ones and PettingZoo's classic envs")
        ran("rl", lambda: rl_batched.measure(args.rl_rounds, args.rl_seconds,
                                             args.peers_python, log))
    if "quickmatch" in parts:
        import quickmatch

        log("quick match: simulated people queueing over a simulated minute")
        ran("quickmatch", lambda: quickmatch.with_redis(args.qm_people, 60.0, 1))
    previous = args.out / "latest.json"
    if args.only and args.merge and not args.quick and previous.exists():
        # keep the parts not run now from the last report; each part says when it ran
        kept = json.loads(previous.read_text())
        for part in PARTS:
            if part not in parts and part in kept:
                results[part] = kept[part]
                results["commands"][part] = kept.get("commands", {}).get(part, "")
    results["machine"]["seconds_total"] = time.perf_counter() - started
    results["machine"]["load_average_at_end"] = list(os.getloadavg())
    written = report.write(results, args.out)
    for path in written:
        log(f"written {path}")
    print(report.summary(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
