"""Offline play's speed in the browser (docs/web.md, "Offline"): cold start (the first visit,
online: Pyodide and the engine fetched and started afresh), warm start (installed: the network
off, the page reloaded, everything from the service worker's copy and the engine restored from
its memory snapshot) to the first move, and each bot level's move time in the browser's engine
(Pyodide in a Web Worker) next to the same code natively. One more offline reload with the
snapshot taken away shows what a start costs without it.

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
SNAPSHOTS = """async () => {  // the engine's snapshots kept in the service worker's caches
  const found = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const r of await cache.keys()) {
      if (/[.]snapshot-[0-9]+$/.test(r.url)) found.push([name, r.url]);
    }
  }
  return found;
}"""
DROP = f"""async () => {{
  for (const [name, url] of await ({SNAPSHOTS})()) await (await caches.open(name)).delete(url);
}}"""


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


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def starts(url: str, profile: str, warm: int) -> dict[str, Any]:
    """Seconds from navigation to the engine ready (a move can be made): the first visit,
    then, once installed (the snapshot kept), `warm` reloads with the network off, and one
    more with the snapshot taken away."""
    load_before = load()
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
        while not page.evaluate(SNAPSHOTS):  # made once the page is idle (js/offline/mode.js)
            if time.perf_counter() - began > 300:
                raise RuntimeError("the engine's snapshot was not kept")
            time.sleep(0.2)
        installed = time.perf_counter() - began
        context.set_offline(True)
        page.wait_for_function("() => !navigator.onLine")

        def reload() -> tuple[float, dict[str, Any]]:
            began = time.perf_counter()
            page.reload()
            page.wait_for_selector(".game-choice", timeout=300_000)
            booted = page.evaluate(READY)
            return time.perf_counter() - began, booted

        warms, boots = [], []
        for _ in range(warm):
            seconds, booted = reload()
            warms.append(seconds)
            boots.append(booted)
        page.evaluate(DROP)
        bare = reload()
        context.close()
    return {"cold_s": cold, "cold_boot": boot, "installed_s": installed, "warm_s": warms,
            "warm_boot": boots, "bare_s": bare[0], "bare_boot": bare[1],
            "load": f"{load_before} before, {load()} after"}


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


def start_row(name: str, seconds: float, boot: dict[str, Any]) -> str:
    snapshot = boot.get("snapshot", "–")
    if boot.get("snapshot_mb"):
        snapshot += f" ({boot['snapshot_mb']} MB)"
    return (f"| {name} | {seconds:.2f} | {boot['ms'] / 1000:.2f} | "
            f"{boot['pyodide_ms'] / 1000:.2f} | {snapshot} |")


def report(data: dict[str, Any]) -> str:
    s = data["starts"]
    lines = [
        "# Offline play in the browser: start and bot move times",
        "",
        f"Measured {data['date']} on {data['machine']}, chromium headless, Pyodide 314.0.8, "
        f"`{data['command']}`; load average during the starts {s.get('load', '?')}, "
        f"at the end {data['load']}.",
        "",
        "Seconds from navigation to the lobby shown and the engine ready (a move can be made); "
        "the engine's start in the worker (Pyodide, the engine imported or restored, the local "
        "tables), and of it Pyodide with the engine.",
        "",
        "| start | seconds | engine (worker) | of which Pyodide | snapshot |",
        "|---|---|---|---|---|",
        start_row("cold: first visit, online", s["cold_s"], s["cold_boot"]),
    ]
    if "installed_s" in s:
        lines.append(f"| installed: the service worker's files and the engine's snapshot kept "
                     f"| {s['installed_s']:.2f} after navigation | | | |")
    for i, (w, b) in enumerate(zip(s["warm_s"], s["warm_boot"], strict=True), 1):
        lines.append(start_row(f"warm {i}: offline reload", w, b))
    if "bare_s" in s:
        lines.append(start_row("offline reload, the snapshot taken away", s["bare_s"],
                               s["bare_boot"]))
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
            "load": load(),
            "command": "python benchmarks/offline_browser.py " + " ".join(sys.argv[1:]),
            "starts": started, "browser": browser, "native": native}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(data, indent=2))
    print(report(data))


if __name__ == "__main__":
    main()
