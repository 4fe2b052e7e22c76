"""The server under load: simulated people at many Mau Mau tables against one server process.

One server process (`python -m tiergarten.server`, uvicorn, one worker, a fresh database per
step) and one client process (asyncio, `websockets`, real connections on loopback). Each table
has four seats taken by four simulated people, one websocket each. A person whose `state` offers
moves waits a think time (uniform, 0.5–1.5 s by default: quicker than most people) and
sends a random legal action as `{"act", "version"}`; nobody else at the table acts meanwhile.

Measured per step (a number of tables, for `--seconds`):
- sustained actions/s (versions applied over the window), and the load offered by the thinkers;
- latency from an intent's send to the arrival of its `state` at *every* seat of the table
  (p50, p99, max; one clock, since all clients live in one process);
- server memory per table (RSS growth from the fresh server to the end of the step, per table)
  and the server's CPU share; the client process's CPU share (is the generator the limit?);
- errors: any `error` message (but `stale` after two seats acted on one version, a race the
  game allows), a refused or failed connection, a connection whose versions do not go up by
  exactly one (lost or reordered), or one that ends behind its table.

    python benchmarks/load.py                               # SQLite, 25, 50, 100, 200 tables
    python benchmarks/load.py --db postgresql --tables 200 --seconds 10
    python benchmarks/load.py --quick                       # 2 tables, 2 s, SQLite
    python benchmarks/load.py --workers 1,2,3 --tables 100,200  # behind Caddy, PG + Redis

`bench.py` calls `run_steps` for both databases; `--clients` is the client process's own entry.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
SEATS = 4
GAME = "maumau"
P99_TARGET_S = 0.050
# In Mau Mau several seats may act at once (anyone may catch a missing "Mau Mau"); when two
# act on one version the later is refused as `stale` and changes nothing: a race, not an error
# (a lost or reordered message is caught by the version check of every connection instead).
RACES = {"stale", "void"}


# -- the client process -------------------------------------------------------------------------


@dataclass
class Table:
    id: str
    tokens: list[str]
    sent: dict[int, float] = field(default_factory=dict)  # version it makes -> send time
    seen: dict[int, int] = field(default_factory=dict)  # version -> seats that received it
    first: int | None = None  # version when measuring started
    last_sent: int = 0  # highest version an intent was sent for


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    examples: list[str] = field(default_factory=list)
    intents: int = 0
    races: int = 0
    over: int = 0

    def error(self, kind: str, detail: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1
        if len(self.examples) < 10:
            self.examples.append(f"{kind}: {detail}"[:300])


class Seat:
    """One simulated person: one websocket, acting on its turn after a think time."""

    def __init__(self, table: Table, seat: int, ws: Any, rng: random.Random, think: tuple[float,
                 float], totals: Totals, run: Run) -> None:
        self.table, self.seat, self.ws, self.rng = table, seat, ws, rng
        self.think, self.totals, self.run = think, totals, run
        self.version: int | None = None  # last state version received
        self.legal: list[str] = []
        self.acting = False

    async def greet(self) -> None:
        """Read hello, table, state: the seat is ready when its first state arrived."""
        while self.version is None:
            self.handle(json.loads(await asyncio.wait_for(self.ws.recv(), 30)))

    def handle(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        now = time.perf_counter()
        if kind == "state":
            version = int(message["version"])
            if self.version is not None and version != self.version + 1:
                self.totals.error("order", f"table {self.table.id} seat {self.seat}: version "
                                           f"{version} after {self.version}")
            self.version = version
            self.legal = list(message["legal"])
            sent = self.table.sent.get(version)
            if sent is not None:
                if self.run.measuring:
                    self.totals.latencies.append(now - sent)
                count = self.table.seen.get(version, 0) + 1
                if count == SEATS:
                    self.table.seen.pop(version, None)
                    self.table.sent.pop(version, None)
                else:
                    self.table.seen[version] = count
            self.maybe_act()
        elif kind == "error" and message.get("code") in RACES:
            self.totals.races += 1  # two seats acted on one version (a catch): one came first
        elif kind == "error":
            self.totals.error("server:" + str(message.get("code")), str(message.get("message")))
        elif kind == "table" and message.get("status") == "over" and self.seat == 0:
            self.totals.over += 1

    def maybe_act(self) -> None:
        if self.legal and not self.acting and self.run.acting:
            self.acting = True
            asyncio.get_running_loop().create_task(self.act(self.version))

    async def act(self, version: int | None) -> None:
        try:
            await asyncio.sleep(self.rng.uniform(*self.think))
            if not self.run.acting or version != self.version or not self.legal:
                return
            action = self.rng.choice(self.legal)
            assert version is not None
            self.table.sent[version + 1] = time.perf_counter()
            self.table.last_sent = max(self.table.last_sent, version + 1)
            self.totals.intents += 1
            await self.ws.send(json.dumps({"act": action, "version": version}))
        except Exception as e:  # noqa: BLE001 - counted, the run goes on
            self.totals.error("send", f"{type(e).__name__}: {e}")
        finally:
            self.acting = False

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                self.handle(json.loads(raw))
        except Exception as e:  # noqa: BLE001
            if not self.run.closing:
                self.totals.error("connection", f"{type(e).__name__}: {e}")
        else:
            if not self.run.closing:
                self.totals.error("connection", f"table {self.table.id} seat {self.seat}: "
                                                f"closed by the server")


@dataclass
class Run:
    acting: bool = False
    measuring: bool = False
    closing: bool = False


async def _setup(http: Any, base: str, count: int, totals: Totals) -> list[Table]:
    gate = asyncio.Semaphore(8)

    async def one(i: int) -> Table | None:
        async with gate:
            try:
                r = await http.post(f"{base}/api/tables",
                                    json={"game": GAME, "players": SEATS, "seats": [None] * SEATS})
                r.raise_for_status()
                table_id = r.json()["id"]
                tokens = [""] * SEATS
                for n in range(SEATS):
                    r = await http.post(f"{base}/api/tables/{table_id}/join",
                                        json={"name": f"p{i}-{n}"})
                    r.raise_for_status()
                    tokens[int(r.json()["seat"])] = r.json()["token"]
                return Table(table_id, tokens)
            except Exception as e:  # noqa: BLE001
                totals.error("setup", f"{type(e).__name__}: {e}")
                return None

    made = await asyncio.gather(*(one(i) for i in range(count)))
    return [t for t in made if t is not None]


async def clients(base: str, tables: int, seconds: float, think: tuple[float, float],
                  seed: int, ready: Any = None) -> dict[str, Any]:
    """Set up `tables` tables, connect four people to each, play for `seconds`; the figures."""
    import httpx
    from websockets.asyncio.client import connect

    totals = Totals()
    run = Run()
    rng = random.Random(seed)
    started = time.perf_counter()
    async with httpx.AsyncClient(timeout=30, trust_env=False) as http:
        made = await _setup(http, base, tables, totals)
    setup_s = time.perf_counter() - started
    ws_base = base.replace("http://", "ws://")
    seats: list[Seat] = []
    gate = asyncio.Semaphore(32)

    async def join(table: Table, n: int) -> None:
        async with gate:
            try:
                ws = await connect(f"{ws_base}/ws/{table.id}?token={table.tokens[n]}",
                                   max_size=2**22, open_timeout=30)
                seat = Seat(table, n, ws, random.Random(rng.getrandbits(64)), think, totals,
                            run)
                await seat.greet()
                seats.append(seat)
            except Exception as e:  # noqa: BLE001
                totals.error("connect", f"{type(e).__name__}: {e}")

    await asyncio.gather(*(join(t, n) for t in made for n in range(SEATS)))
    connect_s = time.perf_counter() - started - setup_s
    readers = [asyncio.get_running_loop().create_task(s.read()) for s in seats]
    if ready is not None:
        ready()
    cpu0, t0 = time.process_time(), time.perf_counter()
    for t in made:
        versions = [s.version for s in seats if s.table is t and s.version is not None]
        t.first = max(versions) if versions else 0
    run.acting = run.measuring = True
    for s in seats:
        s.maybe_act()
    lags: list[float] = []

    async def probe() -> None:
        """How late a 10 ms sleep wakes in this process: the machine's own scheduling noise,
        which every latency here includes."""
        while run.acting:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - before - 0.01)

    prober = asyncio.get_running_loop().create_task(probe())
    await asyncio.sleep(seconds)
    run.acting = False
    await prober
    window = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    # drain: every intent sent must reach every seat of its table
    by_table: dict[str, list[Seat]] = {}
    for s in seats:
        by_table.setdefault(s.table.id, []).append(s)
    deadline = time.perf_counter() + 10
    while time.perf_counter() < deadline and any(
            (s.version or 0) < s.table.last_sent for s in seats):
        await asyncio.sleep(0.05)
    run.measuring = False
    applied = 0
    for t in made:
        group = by_table.get(t.id, [])
        ends = {s.version for s in group}
        if len(group) != SEATS or len(ends) != 1 or (ends and max(ends) < t.last_sent):
            totals.error("behind", f"table {t.id}: seats end at {sorted(ends)}, "
                                   f"last intent made version {t.last_sent}")
        if group:
            applied += max(s.version or 0 for s in group) - (t.first or 0)
    run.closing = True
    await asyncio.gather(*(s.ws.close() for s in seats), return_exceptions=True)
    for r in readers:
        r.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    lat = sorted(totals.latencies)
    mean_think = (think[0] + think[1]) / 2
    return {
        "tables": tables, "tables_made": len(made), "connections": len(seats),
        "seconds": window, "setup_s": setup_s, "connect_s": connect_s,
        "think_s": list(think), "offered_actions_per_s": len(made) / mean_think if mean_think
        else None,
        "actions": applied, "actions_per_s": applied / window, "intents": totals.intents,
        "races": totals.races,
        "updates": len(lat), "updates_per_s": len(lat) / window,
        "latency_s": _summary(lat), "games_over": totals.over,
        "errors": sum(totals.errors.values()), "error_kinds": totals.errors,
        "error_examples": totals.examples, "client_cpu_share": cpu / window,
        "client_loop_lag_s": _summary(sorted(lags)),
    }


def _summary(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p90": None, "p99": None, "max": None, "mean": None}
    return {"p50": statistics.median(values), "p90": _q(values, 0.90),
            "p99": _q(values, 0.99), "max": values[-1], "mean": statistics.fmean(values)}


def _q(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _client_main(args: argparse.Namespace) -> int:
    _raise_fd_limit()
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()  # type: ignore[attr-defined,unused-ignore]
    think = (args.think_min, args.think_max)
    result = asyncio.run(clients(args.url, args.tables, args.seconds, think, args.seed,
                                 ready=lambda: print("READY", flush=True)))
    print(json.dumps(result), flush=True)
    return 0


# -- the orchestrator side: server process, client process, sampling ----------------------------


def _raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, 65536) if hard != resource.RLIM_INFINITY else 65536
    if soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


_SERVER_SRC: Path | None = None


def use_server_rev(rev: str | None) -> str | None:
    """Run the server from the `src/` of commit `rev` (exported to a temp dir) instead of the
    working tree, so that uncommitted work in progress is not what gets measured. Returns the
    full commit id."""
    global _SERVER_SRC
    if not rev:
        _SERVER_SRC = None
        return None
    commit = subprocess.run(["git", "rev-parse", rev], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.strip()
    target = Path(tempfile.gettempdir()) / f"tg-bench-src-{commit[:12]}"
    if not (target / "src").exists():
        target.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", commit, "src"], cwd=ROOT,
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    _SERVER_SRC = target / "src"
    return commit


def server_src() -> Path:
    return _SERVER_SRC or SRC


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# Every simulated person connects from 127.0.0.1: the per-address limits that guard a real
# server (docs/security.md) would refuse them, so the load steps lift them.
UNLIMITED = ("--address-connections", "1000000", "--tables-burst", "1000000",
             "--tables-per-minute", "1000000")


class ServerProcess:
    """`python -m tiergarten.server` on loopback with a database; quiet; stopped by SIGTERM."""

    def __init__(self, db: str, *extra: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.command = [sys.executable, "-m", "tiergarten.server", "--port", str(self.port),
                        "--db", db, "--bot-pace", "0", "--away-after", "600",
                        "--log-level", "warning", *UNLIMITED, *extra]
        handle, name = tempfile.mkstemp(prefix="tg-load-server-", suffix=".log")
        os.close(handle)
        self.log_path = Path(name)
        env = dict(os.environ, PYTHONPATH=str(server_src()))
        with open(self.log_path, "ab") as out:  # the server keeps its own copy of the file
            self.proc = subprocess.Popen(self.command, env=env, stdout=out,
                                         stderr=subprocess.STDOUT)
        import httpx

        deadline = time.monotonic() + 30
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited {self.proc.returncode}: {self.output()}")
            try:
                if httpx.get(self.url + "/api/health", timeout=1, trust_env=False).is_success:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the server did not answer within 30 s")
            time.sleep(0.05)

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> str:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        printed = self.output()
        with contextlib.suppress(OSError):
            self.log_path.unlink()
        return printed


def run_step(db: str, tables: int, seconds: float, think: tuple[float, float] = (0.5, 1.5),
             seed: int = 1) -> dict[str, Any]:
    """One step: a fresh server on `db`, `tables` tables of four people for `seconds`."""
    _raise_fd_limit()
    server = ServerProcess(db)
    pid = server.proc.pid
    try:
        rss0 = rss_bytes(pid)
        command = [sys.executable, str(Path(__file__).resolve()), "--clients", "--url",
                   server.url, "--tables", str(tables), "--seconds", str(seconds),
                   "--think-min", str(think[0]), "--think-max", str(think[1]), "--seed",
                   str(seed)]
        client = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, env=dict(os.environ, PYTHONPATH=str(SRC)))
        assert client.stdout is not None
        rss_ready = cpu_ready = t_ready = None
        result: dict[str, Any] | None = None
        for line in client.stdout:
            if line.strip() == "READY":
                rss_ready, cpu_ready, t_ready = rss_bytes(pid), cpu_seconds(pid), time.monotonic()
            elif line.startswith("{"):
                result = json.loads(line)
        stderr = client.stderr.read() if client.stderr else ""
        client.wait()
        rss_end, cpu_end = rss_bytes(pid), cpu_seconds(pid)
        if result is None:
            raise RuntimeError(f"the client process failed ({client.returncode}): {stderr}")
        if t_ready is not None and cpu_ready is not None:
            span = time.monotonic() - t_ready
            result["server_cpu_share"] = (cpu_end - cpu_ready) / span if span > 0 else None
        result["load_average"] = list(os.getloadavg())  # the machine is shared: how busy
        result["server_rss_start_mb"] = rss0 / 2**20
        result["server_rss_ready_mb"] = (rss_ready or 0) / 2**20
        result["server_rss_end_mb"] = rss_end / 2**20
        result["memory_per_table_kb"] = (rss_end - rss0) / 1024 / max(1, result["tables_made"])
    finally:
        printed = server.stop()
    if "Traceback" in printed:
        result["errors"] += 1
        result["error_kinds"]["server_traceback"] = 1
        result["error_examples"].append(printed[-1500:])
    result["db"] = "postgresql" if db.startswith("postgresql") else "sqlite"
    result["server_src"] = str(server_src())
    result["server_command"] = " ".join(server.command[1:]).replace(str(server.port), "PORT")
    result["passes"] = holds(result)
    return result


def run_cluster_step(db: str, workers: int, tables: int, seconds: float,
                     think: tuple[float, float] = (0.5, 1.5), seed: int = 1,
                     worker_cpu: float | None = None) -> dict[str, Any]:
    """One step against `workers` server processes behind Caddy (deploy/Caddyfile: a table's
    connections to the worker its id hashes to, which comes to own it), sharing a fresh
    redis-server and the PostgreSQL database `db`; the clients connect through the proxy
    only. `worker_cpu`: each worker held to that many cores (`services.CpuCap`). Reports each
    worker's CPU share and those of Redis and Caddy (the shared parts)."""
    from services import Caddy, CpuCap, Redis

    _raise_fd_limit()
    redis = Redis().start()
    servers: list[ServerProcess] = []
    caps: list[CpuCap] = []
    caddy = None
    try:
        servers = [ServerProcess(db, "--redis", redis.url) for _ in range(workers)]
        if worker_cpu is not None:
            caps = [CpuCap(s.proc.pid, worker_cpu) for s in servers]
        caddy = Caddy([s.port for s in servers]).start()
        pids = {f"worker{n}": s.proc.pid for n, s in enumerate(servers)}
        assert redis.proc is not None and caddy.proc is not None
        pids.update(redis=redis.proc.pid, caddy=caddy.proc.pid)
        command = [sys.executable, str(Path(__file__).resolve()), "--clients", "--url",
                   caddy.url, "--tables", str(tables), "--seconds", str(seconds),
                   "--think-min", str(think[0]), "--think-max", str(think[1]), "--seed",
                   str(seed)]
        client = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, env=dict(os.environ, PYTHONPATH=str(SRC)))
        assert client.stdout is not None
        cpu0: dict[str, float] = {}
        t_ready = None
        result: dict[str, Any] | None = None
        for line in client.stdout:
            if line.strip() == "READY":
                cpu0, t_ready = {k: cpu_seconds(p) for k, p in pids.items()}, time.monotonic()
            elif line.startswith("{"):
                result = json.loads(line)
        stderr = client.stderr.read() if client.stderr else ""
        client.wait()
        if result is None:
            raise RuntimeError(f"the client process failed ({client.returncode}): {stderr}")
        span = time.monotonic() - t_ready if t_ready is not None else 0.0
        shares = {k: (cpu_seconds(p) - cpu0.get(k, 0.0)) / span if span > 0 else None
                  for k, p in pids.items()}
        result["cpu_share"] = shares
        result["server_cpu_share"] = sum(v or 0.0 for k, v in shares.items()
                                         if k.startswith("worker"))
        acts = result["actions_per_s"] or 1e-9
        result["cpu_ms_per_act"] = {k: 1000 * (v or 0.0) / acts for k, v in shares.items()}
        result["load_average"] = list(os.getloadavg())
        result["memory_per_table_kb"] = sum(rss_bytes(s.proc.pid) for s in servers
                                            ) / 1024 / max(1, result["tables_made"])
    finally:
        printed = [s.stop() for s in servers]
        for cap in caps:
            cap.remove()
        if caddy is not None:
            caddy.stop()
        redis.stop()
    if any("Traceback" in p for p in printed):
        result["errors"] += 1
        result["error_kinds"]["server_traceback"] = 1
        result["error_examples"].append(next(p for p in printed if "Traceback" in p)[-1500:])
    result.update(db="postgresql", workers=workers, proxy="caddy", redis=True,
                  worker_cpu=worker_cpu)
    result["passes"] = holds(result)
    return result


def run_cluster_steps(workers: list[int], steps: list[int], seconds: float,
                      think: tuple[float, float] = (0.5, 1.5), log: Any = print,
                      worker_cpu: float | None = None, per_worker: bool = False,
                      repeats: int = 1) -> dict[str, Any]:
    """For each worker count, steps of growing table counts (each on a fresh database and
    Redis) until two in a row miss the target; the largest held per worker count.
    `per_worker`: the steps are per worker (times the worker count); `worker_cpu`: each
    worker held to that many cores; `repeats`: runs per step, a step holding when the median
    run's p99 is under the target and no run had an error (one run's p99 on a shared
    machine is noisy)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from pgtemp import Postgres
    from services import Caddy, Redis

    pg = Postgres().start()
    out: dict[str, Any] = {"postgresql": pg.version(), "redis": Redis().version(),
                           "caddy": Caddy([]).version(), "worker_cpu": worker_cpu,
                           "routed": True,
                           "by_workers": {}}
    try:
        for n in workers:
            results, missed = [], 0
            for tables in (s * n if per_worker else s for s in steps):
                runs = [run_cluster_step(pg.new_database(), n, tables, seconds, think,
                                         seed=n * 1000 + tables + k, worker_cpu=worker_cpu)
                        for k in range(repeats)]
                r = _median_run(runs)
                lat = r["latency_s"]
                ms = r["cpu_ms_per_act"]
                log(f"  {n} worker(s) {tables:4} tables: {r['actions_per_s']:6.1f} actions/s, "
                    f"p50 {_ms(lat['p50'])}, p99 {_ms(lat['p99'])}, errors {r['errors']}, "
                    f"cpu ms/act workers {sum(v for k, v in ms.items() if 'worker' in k):.2f}"
                    f" redis {ms['redis']:.2f} caddy {ms['caddy']:.2f}, clients cpu "
                    f"{r['client_cpu_share']:.0%}" + (
                        "; p99 of the runs " + ", ".join(_ms(p) for p in r["p99_runs"])
                        if repeats > 1 else ""))
                results.append(r)
                missed = 0 if r["passes"] else missed + 1
                if missed >= 2:
                    break
            held = [r["tables"] for r in results if r["passes"]]
            out["by_workers"][str(n)] = {"steps": results,
                                         "largest_passing": max(held) if held else None}
    finally:
        pg.stop()
    return out


def holds(result: dict[str, Any]) -> bool:
    """Whether a step's result is within the target: p99 under 50 ms and no error."""
    p99 = result["latency_s"]["p99"]
    return bool(result["errors"] == 0 and p99 is not None and p99 < P99_TARGET_S)


def _median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The run with the median p99 of a step's runs (of two, the worse), with every run's
    p99 and errors."""
    ordered = sorted(runs, key=lambda r: r["latency_s"]["p99"] or 1e9)
    r = dict(ordered[len(ordered) // 2])
    r["p99_runs"] = [x["latency_s"]["p99"] for x in runs]
    r["errors"] = sum(x["errors"] for x in runs)
    r["passes"] = holds(r)
    return r


def run_steps(backend: str, steps: list[int], seconds: float,
              think: tuple[float, float] = (0.5, 1.5), log: Any = print,
              must_reach: int = 0, repeat_at: int | None = None,
              repeats: int = 1) -> dict[str, Any]:
    """Steps of growing table counts, each on a fresh server and database. The sweep stops
    after two steps in a row missed the target, once `must_reach` tables were tried (one miss
    may be the shared machine's noise); then the `repeat_at` step is run again until it has
    `repeats` runs (min/median/max)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    pg = None
    results: list[dict[str, Any]] = []
    about: dict[str, Any] = {}
    seed = 0

    def step(tables: int) -> dict[str, Any]:
        nonlocal seed
        seed += 1
        with tempfile.TemporaryDirectory(prefix="tg-load-") as tmp:
            db = pg.new_database() if pg else str(Path(tmp) / "tiergarten.db")
            r = run_step(db, tables, seconds, think, seed=seed)
        lat = r["latency_s"]
        log(f"  {backend:10} {tables:4} tables: {r['actions_per_s']:6.1f} actions/s "
            f"(offered {r['offered_actions_per_s'] or 0:.0f}), p50 {_ms(lat['p50'])}, "
            f"p99 {_ms(lat['p99'])}, errors {r['errors']}, "
            f"{r['memory_per_table_kb']:.0f} KiB/table, server cpu "
            f"{r.get('server_cpu_share') or 0:.0%}, clients cpu {r['client_cpu_share']:.0%}")
        return r

    try:
        if backend == "postgresql":
            from pgtemp import Postgres

            pg = Postgres().start()
            about["postgresql"] = pg.version()
        else:
            import sqlite3

            about["sqlite"] = sqlite3.sqlite_version
        missed = 0
        for i, tables in enumerate(steps):
            r = step(tables)
            results.append(r)
            missed = 0 if r["passes"] else missed + 1
            if missed >= 2 and tables >= must_reach and i + 1 < len(steps):
                log(f"  {backend}: the sweep stops at {tables} tables (two steps missed)")
                break
        repeated = [r for r in results if r["tables"] == repeat_at]
        if repeat_at is not None:
            while len(repeated) < repeats:
                repeated.append(step(repeat_at))
    finally:
        if pg is not None:
            pg.stop()
    held = [r["tables"] for r in results if r["passes"]]
    return {"db": backend, **about, "steps": results,
            "largest_passing": max(held) if held else None,
            "first_failing": next((r["tables"] for r in results if not r["passes"]), None),
            "bends_at": _knee(results),
            "target_runs": repeated if repeat_at is not None else [],
            "target": summarise(repeated) if repeat_at is not None and repeated else None}


def _knee(steps: list[dict[str, Any]]) -> int | None:
    """The step count from which every larger step missed the target (None if the largest
    step held): where the server bends, not a single noisy miss below it."""
    knee = None
    for r in sorted(steps, key=lambda r: r["tables"]):
        if r["passes"]:
            knee = None
        elif knee is None:
            knee = r["tables"]
    return knee


def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Min/median/max over repeated runs of one step."""

    def spread(values: list[float]) -> dict[str, float] | None:
        values = [v for v in values if v is not None]
        return ({"min": min(values), "median": statistics.median(values), "max": max(values)}
                if values else None)

    return {"tables": runs[0]["tables"], "runs": len(runs),
            "actions_per_s": spread([r["actions_per_s"] for r in runs]),
            "p50_s": spread([r["latency_s"]["p50"] for r in runs]),
            "p99_s": spread([r["latency_s"]["p99"] for r in runs]),
            "memory_per_table_kb": spread([r["memory_per_table_kb"] for r in runs]),
            "errors": sum(r["errors"] for r in runs),
            "runs_within_target": sum(r["passes"] for r in runs),
            "passed": bool(sum(r["errors"] for r in runs) == 0 and runs
                           and statistics.median(r["latency_s"]["p99"] or 1e9 for r in runs)
                           < P99_TARGET_S)}


def _ms(x: float | None) -> str:
    return "–" if x is None else f"{x * 1000:.1f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--db", default="sqlite", choices=["sqlite", "postgresql"])
    parser.add_argument("--tables", default="25,50,100,200", help="comma-separated steps")
    parser.add_argument("--seconds", type=float, default=20.0, help="time per step")
    parser.add_argument("--think-min", type=float, default=0.5)
    parser.add_argument("--think-max", type=float, default=1.5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="2 tables for 2 s")
    parser.add_argument("--workers", default=None,
                        help="comma-separated worker counts: server processes behind Caddy "
                             "with PostgreSQL and Redis (instead of one process)")
    parser.add_argument("--worker-cpu", type=float, default=None,
                        help="with --workers: hold each worker to this many cores (a cgroup "
                             "quota; root): how the workers scale when each has its own share")
    parser.add_argument("--repeats", type=int, default=1,
                        help="with --workers: runs per step (the median run's p99 decides)")
    parser.add_argument("--per-worker", action="store_true",
                        help="with --workers: the --tables steps are per worker")
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON")
    args = parser.parse_args(argv)
    if args.clients:
        args.tables = int(args.tables)
        return _client_main(args)
    if args.quick:
        args.tables, args.seconds = "2", 2.0
    steps = [int(x) for x in args.tables.split(",") if x]
    if args.workers:
        sweep = run_cluster_steps([int(x) for x in args.workers.split(",")], steps,
                                  args.seconds, (args.think_min, args.think_max),
                                  worker_cpu=args.worker_cpu, per_worker=args.per_worker,
                                  repeats=args.repeats)
        if args.out:
            args.out.write_text(json.dumps(sweep, indent=1) + "\n")
        return 0
    result = run_steps(args.db, steps, args.seconds, (args.think_min, args.think_max),
                       must_reach=max(steps))
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    return 0 if all(r["errors"] == 0 for r in result["steps"]) else 1


if __name__ == "__main__":
    sys.exit(main())
