"""Offline play's speed in the browser (docs/web.md, "Offline"): cold start (the first visit,
online: Pyodide and the engine fetched and started), warm start (the network off, the page
reloaded: everything from the service worker's copy) to the first move, and each bot level's
move time in the browser's engine (Pyodide in a Web Worker) next to the same code natively.

    python benchmarks/offline_browser.py               # every game and level, 10 moves each
    python benchmarks/offline_browser.py --quick       # 3 moves per level
    python benchmarks/offline_browser.py --games mammuz --levels expert --moves 20

Needs `make offline` (Pyodide in src/tiergarten/web/offline/pyodide/) and Debian's chromium.
Writes benchmarks/results/offline-browser.json and prints a Markdown report (the one in
benchmarks/offline_browser.md was made so). Not a test: nothing here is timed against a limit.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from tiergarten.bots.levels import LEVELS, NAMES
from tiergarten.offline.bench import bot_times

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "offline-browser.json"
ARGS = ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]
READY = "() => import('./js/offline/mode.js').then((m) => m.ensureEngine())"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(folder: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "tiergarten.server", "--port", str(port),
                             "--db", os.path.join(folder, "bench.db")],
                            env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return proc, url
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


def starts(url: str, profile: str, warm: int) -> dict[str, Any]:
    """Seconds from navigation to the engine ready (a move can be made): the first visit,
    then `warm` reloads with the network off."""
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile, executable_path="/usr/bin/chromium", headless=True, args=ARGS)
        page = context.pages[0]
        page.add_init_script("localStorage.setItem('tiergarten.local', '1')")
        began = time.perf_counter()
        page.goto(url + "/")
        page.wait_for_selector(".game-choice", timeout=300_000)
        boot = page.evaluate(READY)
        cold = time.perf_counter() - began
        page.wait_for_function("() => navigator.serviceWorker.controller !== null",
                               timeout=300_000)
        context.set_offline(True)
        page.wait_for_function("() => !navigator.onLine")
        warms, boots = [], []
        for _ in range(warm):
            began = time.perf_counter()
            page.reload()
            page.wait_for_selector(".game-choice", timeout=300_000)
            boots.append(page.evaluate(READY))
            warms.append(time.perf_counter() - began)
        context.close()
    return {"cold_s": cold, "cold_boot": boot, "warm_s": warms, "warm_boot": boots}


def browser_bots(url: str, profile: str, games: list[str], levels: list[str], moves: int,
                 budget: float) -> list[dict[str, Any]]:
    rows = []
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile, executable_path="/usr/bin/chromium", headless=True, args=ARGS)
        page = context.pages[0]
        page.goto(url + "/")
        page.wait_for_selector(".game-choice", timeout=300_000)
        page.evaluate(READY)
        for game in games:
            for level in levels:
                row = page.evaluate(
                    "([g, l, n, b]) => import('./js/offline/local.js')"
                    ".then((m) => m.benchBots(g, l, n, b))", [game, level, moves, budget])
                print("browser", json.dumps(row), flush=True)
                rows.append(row)
        context.close()
    return rows


def fmt(row: dict[str, Any] | None, key: str) -> str:
    if not row or key not in row:
        return "–"
    return f"{row[key] * 1000:.1f}"


def report(data: dict[str, Any]) -> str:
    s = data["starts"]
    lines = [
        "# Offline play in the browser: start and bot move times",
        "",
        f"Measured {data['date']} on {data['machine']} (load average {data['load']}), "
        f"chromium headless, Pyodide 314.0.8, `{data['command']}`.",
        "",
        "| start | seconds | of which Pyodide's start (worker) |",
        "|---|---|---|",
        f"| cold: first visit, online, to the engine ready | {s['cold_s']:.1f} | "
        f"{s['cold_boot']['pyodide_ms'] / 1000:.1f} of {s['cold_boot']['ms'] / 1000:.1f} |",
    ]
    for i, (w, b) in enumerate(zip(s["warm_s"], s["warm_boot"], strict=True), 1):
        lines.append(f"| warm {i}: offline reload, to the lobby and the engine ready | {w:.1f} | "
                     f"{b['pyodide_ms'] / 1000:.1f} of {b['ms'] / 1000:.1f} |")
    lines += ["", "Milliseconds per bot move (p50 / p90 / max over the moves timed, each level "
              "against `normal` bots); browser = Pyodide in the worker (its clock is coarse: "
              "0.1 ms), native = this interpreter (MammuZ with its C kernel where it is "
              "built).", "",
              "| game | level | moves | browser p50 | p90 | max | native p50 | p90 | ×|",
              "|---|---|---|---|---|---|---|---|---|"]
    native = {(r["game"], r["level"]): r for r in data["native"]}
    for r in data["browser"]:
        n = native.get((r["game"], r["level"]))
        ratio = (f"{r['p50_s'] / n['p50_s']:.1f}"
                 if n and r.get("p50_s", 0) > 1e-3 and n.get("p50_s") else "–")
        lines.append(f"| {r['game']} | {r['level']} | {r['moves']} | {fmt(r, 'p50_s')} | "
                     f"{fmt(r, 'p90_s')} | {fmt(r, 'max_s')} | {fmt(n, 'p50_s')} | "
                     f"{fmt(n, 'p90_s')} | {ratio} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=sorted(LEVELS))
    parser.add_argument("--levels", nargs="*", default=list(NAMES))
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--budget", type=float, default=15.0,
                        help="seconds at most per level (MammuZ's expert is slow)")
    parser.add_argument("--warm", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--report", help="only print the report of this JSON (a run's)")
    args = parser.parse_args()
    if args.report:
        print(report(json.loads(Path(args.report).read_text())))
        return
    moves = 3 if args.quick else args.moves
    with tempfile.TemporaryDirectory() as folder:
        proc, url = serve(folder)
        try:
            started = starts(url, os.path.join(folder, "profile"), args.warm)
            print("starts", json.dumps(started), flush=True)
            browser = browser_bots(url, os.path.join(folder, "profile2"), args.games,
                                   args.levels, moves, args.budget)
        finally:
            proc.terminate()
            proc.wait(10)
    native = [bot_times(g, lv, moves=moves, budget=args.budget)
              for g in args.games for lv in args.levels]
    data = {"date": datetime.date.today().isoformat(),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores",
            "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
            "command": "python benchmarks/offline_browser.py " + " ".join(sys.argv[1:]),
            "starts": started, "browser": browser, "native": native}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(data, indent=2))
    print(report(data))


if __name__ == "__main__":
    main()
