"""Build the upgrade test data: databases written by old releases and what those served.

For each release below: extract its src/ from git, run THAT server (its own code, the main
venv's packages) on a fresh SQLite file, play its tables over its own HTTP and websocket API,
capture what it answers, stop it and keep the VACUUMed database; then record seeded random
games of its engine (old_engine.py, run inside the release). README.md says what comes out.

    .venv/bin/python tests/data/upgrade/build.py [--release X] [--check]

`--check` writes nothing: it opens a copy of each committed database with its old server again
and compares what that serves with the committed served.json.gz.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
RULES = HERE.parent / "rules"
GAMES = ("lecker_mammut", "mammuz", "maumau", "mucca_pazza")


@dataclass
class Table:
    """One table to leave in an old database; `bots` per seat (None: a person's seat)."""

    name: str
    game: str
    bots: tuple[str | None, ...]
    seed: int
    kind: str  # finished (bots only), unfinished (a person left mid-game), open, rated
    note: str
    options: dict[str, Any] = field(default_factory=dict)
    moves: int = 0  # acts the person makes before leaving (unfinished)
    policy: str = "random"  # how the person chooses (see `choose`)
    pause: float = 0.0  # seconds the person thinks before each act (real time: bots hit meanwhile)
    must: str | None = None  # what old_engine.py's marks must find in the record
    clock: dict[str, float] | None = None  # 4cf5905: a time bank per person
    chat: tuple[str, ...] = ()  # 4cf5905: lines each person says at the table


@dataclass
class Release:
    commit: str
    flags: tuple[str, ...]  # the server's own command line (see its server/main.py)
    tables: list[Table]
    accounts: tuple[str, ...] = ()  # signed up before play; the rated table's people


# Bots play at pace 0 (instantly); a disconnected person keeps the seat, so an unfinished
# table waits for them rather than a stand-in finishing it; the rate limit would slow the
# scripted people down. Both releases share these flags.
COMMON = ("--allow-seeds", "--bot-pace", "0", "--away-after", "100000000", "--rate", "1000",
          "--burst", "1000")
H = "heuristic"


def tables_of_every_game(seed: dict[str, int], unseed: dict[str, int]) -> list[Table]:
    """A finished and an unfinished table of each game (Mucca Pazza: of both variants)."""
    std, jun = {"variant": "standard"}, {"variant": "junior"}
    return [
        Table("maumau-finished", "maumau", (H, H, H), seed["maumau"], "finished",
              "maumau finished, 3 bots, one round", {"rounds": 1}, must="misfit draw"),
        Table("mammuz-finished", "mammuz", (H, H, H), seed["mammuz"], "finished",
              "mammuz finished, 3 bots", must="remove doubt"),
        Table("mucca-standard-finished", "mucca_pazza", (H, H), seed["mucca_pazza"],
              "finished", "mucca_pazza standard finished, 2 bots", std),
        Table("mucca-junior-finished", "mucca_pazza", (H, H), seed["mucca_junior"],
              "finished", "mucca_pazza junior finished, 2 bots", jun),
        Table("lecker-finished", "lecker_mammut", ("normal", "normal", "normal"),
              seed["lecker_mammut"], "finished", "lecker_mammut finished, 3 bots, one round",
              {"rounds": 1}),
        Table("maumau-unfinished", "maumau", (None, H, H), unseed["maumau"], "unfinished",
              "maumau in play: seat 0's person drew whenever they could, then left",
              {"rounds": 1}, moves=3, policy="draw", must="misfit draw"),
        Table("mammuz-unfinished", "mammuz", (None, H, H), unseed["mammuz"], "unfinished",
              "mammuz in play: seat 0's person made random moves, then left", moves=3),
        Table("mucca-standard-unfinished", "mucca_pazza", (None, H), unseed["mucca_pazza"],
              "unfinished", "mucca_pazza standard in play: seat 0's person left", std, moves=5),
        Table("mucca-junior-unfinished", "mucca_pazza", (None, H), unseed["mucca_junior"],
              "unfinished", "mucca_pazza junior in play: seat 0's person left", jun, moves=4),
        Table("lecker-unfinished", "lecker_mammut", (None, "normal", "normal"),
              unseed["lecker_mammut"], "unfinished",
              "lecker_mammut in play: seat 0's person flipped their pile (bots hit), then left "
              "without passing: every pile is flipped, the round waits for their pass",
              {"rounds": 1}, moves=1, policy="flip", pause=0.5),
        Table("maumau-open", "maumau", (H, None, None), 11, "open",
              "maumau open: one bot seated, two seats nobody joined", {"rounds": 1}),
    ]


RELEASES = {
    # the last release before Alembic migrations: tables, seats and actions only
    "d3755b4": Release("d3755b4", COMMON, tables_of_every_game(
        {"maumau": 1, "mammuz": 4, "mucca_pazza": 1, "mucca_junior": 1, "lecker_mammut": 1},
        {"maumau": 2, "mammuz": 2, "mucca_pazza": 2, "mucca_junior": 2, "lecker_mammut": 2})),
    # the last release before versioned rules: accounts, ratings, chat, the clock (0001-0004)
    "4cf5905": Release("4cf5905", (*COMMON, "--tables-burst", "100"), [
        *tables_of_every_game(
            {"maumau": 1, "mammuz": 1, "mucca_pazza": 1, "mucca_junior": 1, "lecker_mammut": 1},
            {"maumau": 2, "mammuz": 2, "mucca_pazza": 2, "mucca_junior": 2,
             "lecker_mammut": 2}),
        Table("maumau-rated", "maumau", (None, None), 5, "rated",
              "maumau rated: two accounts played it out, with a clock and chat",
              {"rounds": 1}, clock={"bank": 900.0, "increment": 5.0},
              chat=("good luck!", "have fun")),
    ], accounts=("Anna Alt", "Bruno Bär")),
}
for _table in RELEASES["4cf5905"].tables:
    _table.must = None  # the d3755b4 data is the one that must bite
    if _table.name == "maumau-unfinished":  # a clock that resumes from the log
        _table.clock = {"bank": 900.0, "increment": 5.0}
        _table.note += ", with a clock"
PASSWORD = "correct horse battery"


# -- the old server ----------------------------------------------------------------------------

def extract(commit: str, into: Path) -> Path:
    """The release's src/ as it was, from git (needs the full history)."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", commit, "src"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "src"


def old_env(src: Path) -> dict[str, str]:
    """The environment of anything run from an old release's sources. TIERGARTEN_PURE=1: the
    venv holds MammuZ's C kernel `_tiergarten_mammuz` built from today's sources, and 4cf5905
    would load it (its kernel.py imports it from anywhere on the path when its VERSION
    matches): the old rules must run as the old Python alone."""
    env = {**os.environ, "PYTHONPATH": str(src), "TIERGARTEN_PURE": "1"}
    env.pop("TIERGARTEN_DB", None)  # 4cf5905's server reads it; the --db flag must decide
    return env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class OldServer:
    """`python -m tiergarten.server` of an extracted release, on loopback."""

    def __init__(self, src: Path, db: Path, flags: tuple[str, ...]) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(db.with_suffix(".log"), "w")  # noqa: SIM115 (closed in stop)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tiergarten.server", "--db", str(db), "--port",
             str(self.port), *flags], env=old_env(src), cwd=src, stdout=self.log, stderr=self.log)
        self._wait_up()

    def _wait_up(self) -> None:
        for _ in range(300):
            if self.proc.poll() is not None:
                raise RuntimeError("the old server exited:\n" + self.tail())
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base + "/api/health", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError("the old server did not start")

    def tail(self) -> str:
        self.log.flush()
        return "".join(Path(self.log.name).read_text().splitlines(True)[-40:])

    def stop(self) -> None:
        """SIGTERM: the server finishes its writes and closes the database."""
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=30)
        self.log.close()


# -- playing over the old API ------------------------------------------------------------------

def choose(policy: str, legal: list[str], rng: random.Random) -> str | None:
    """The person's act, or None to wait: `random` any legal act, `draw` a plain draw whenever
    it is there (Mau Mau: drawn cards that do not fit), `flip` only flips (Lecker Mammut!:
    hits are left to the bots, and the person never passes, so the round waits for them)."""
    if policy == "draw" and "draw" in legal:
        return "draw"
    if policy == "flip":
        return "flip" if "flip" in legal else None
    return rng.choice(legal) if legal else None


def awaited(state: dict[str, Any], act: str | None) -> bool:
    """Whether the table now waits for this seat and nobody else can act. Turn-based games:
    the seat has a move. Lecker Mammut!: every pile is flipped and the round waits for the
    seat's pass (bots try false hits only while cards are flipped), and no feature shows on
    three visible cards (no good hit is left). Else a bot could act after a restart where it
    did not live: what it had thought is not in the log."""
    observation = state["observation"]
    if observation.get("game") != "lecker_mammut":
        return act is not None
    tops = [pile["top"] for piles in observation["prize_piles"] for pile in piles]
    features: dict[str, int] = {}
    for card in [*observation["middle"], *tops]:
        for feature in card.split("-"):
            features[feature] = features.get(feature, 0) + 1
    return "pass" in state["legal"] and max(features.values(), default=0) < 3


async def play_seat(base: str, table: str, token: str, rng: random.Random, policy: str,
                    moves: int | None, chat: tuple[str, ...] = (), pause: float = 0.0) -> None:
    """Play one seat over the websocket: act on each new state the policy has a move for,
    once the table has been quiet for `pause` seconds; after `moves` acts leave at the next
    such state (the table then waits for this seat); with `moves` None play until the game
    is over. The chat lines are said first."""
    url = base.replace("http", "ws", 1) + f"/ws/{table}?token={token}"
    done, acted, latest = 0, -1, None
    async with websockets.connect(url, max_size=None) as ws:
        for line in chat:
            await ws.send(json.dumps({"chat": line}))
        while True:
            try:
                waiting = pause if latest is not None and pause else None
                text = await asyncio.wait_for(ws.recv(), waiting)
            except TimeoutError:
                text = None
            if text is not None:
                message = json.loads(text)
                if message.get("type") == "table" and message.get("status") == "over":
                    return
                if message.get("type") == "state" and message["version"] > acted:
                    latest = message
                if pause:
                    continue  # act only once nothing has come for `pause` seconds
            if latest is None:
                continue
            state, latest = latest, None
            act = choose(policy, state["legal"], rng)
            if moves is not None and done >= moves and awaited(state, act):
                return  # leave: the table waits for this seat
            if act is None:
                continue
            acted = state["version"]
            await ws.send(json.dumps({"act": act, "version": acted}))
            done += 1


def create(client: httpx.Client, spec: Table) -> dict[str, Any]:
    body: dict[str, Any] = {"game": spec.game, "players": len(spec.bots),
                            "options": spec.options, "seed": spec.seed,
                            "seats": [None if b is None else {"bot": b} for b in spec.bots]}
    if spec.clock is not None:
        body["clock"] = spec.clock
    answer = client.post("/api/tables", json=body)
    answer.raise_for_status()
    return dict(answer.json())


def join(client: httpx.Client, table: str, name: str) -> str:
    answer = client.post(f"/api/tables/{table}/join", json={"name": name})
    answer.raise_for_status()
    return str(answer.json()["token"])


def wait_settled(client: httpx.Client, table: str, status: str | None = None,
                 quiet: float = 2.0, limit: float = 300.0) -> dict[str, Any]:
    """Wait until the table is in `status` (if given) and its version has not moved for
    `quiet` seconds: its bots have done all they can."""
    start = time.monotonic()
    last, since = None, time.monotonic()
    while time.monotonic() - start < limit:
        info = client.get(f"/api/tables/{table}").json()
        key = (info["status"], info["version"])
        if status is not None and info["status"] == "over" != status:
            raise RuntimeError(f"table {table} ended (version {info['version']}); give its "
                               "person fewer moves")
        if key != last:
            last, since = key, time.monotonic()
        elif time.monotonic() - since >= quiet and status in (None, info["status"]):
            return dict(info)
        time.sleep(0.2)
    raise RuntimeError(f"table {table} did not settle (last seen {last})")


def sign_up(base: str, name: str) -> httpx.Client:
    """A client holding the session cookie of a new account."""
    client = httpx.Client(base_url=base, timeout=30)
    client.post("/api/account/signup", json={"name": name, "password": PASSWORD}
                ).raise_for_status()
    return client


def play_table(server: OldServer, client: httpx.Client, spec: Table,
               people: list[httpx.Client]) -> str:
    """Create the table and bring it where `spec.kind` says; returns its id."""
    table = create(client, spec)["id"]
    rng = random.Random(spec.seed)
    if spec.kind == "unfinished":
        token = join(client, table, "Gast")
        asyncio.run(play_seat(server.base, table, token, rng, spec.policy, spec.moves,
                              pause=spec.pause))
        wait_settled(client, table, "playing")
    elif spec.kind == "rated":
        tokens = [join(person, table, "-") for person in people]  # an account's own name
        asyncio.run(_play_all(server.base, table, tokens, rng, spec.chat))
        wait_settled(client, table, "over")
    elif spec.kind == "finished":
        wait_settled(client, table, "over")
    return str(table)


async def _play_all(base: str, table: str, tokens: list[str], rng: random.Random,
                    chat: tuple[str, ...]) -> None:
    seats = [play_seat(base, table, token, random.Random(rng.random()), "random", None, chat)
             for token in tokens]
    await asyncio.gather(*seats)


# -- what the old server served ----------------------------------------------------------------

def paths_of(release: Release, tables: dict[str, str]) -> list[str]:
    """Every GET the upgrade test repeats: per table its info, record and replay; the lobby;
    with accounts, each profile and each game's leaderboard."""
    paths = ["/api/tables"]
    for table in tables.values():
        paths += [f"/api/tables/{table}", f"/api/tables/{table}/record",
                  f"/api/tables/{table}/replay"]
    if release.accounts:
        paths += [f"/api/players/{name}" for name in release.accounts]
        paths += [f"/api/leaderboard/{game}" for game in GAMES]
    return paths


def capture(base: str, paths: list[str]) -> dict[str, Any]:
    with httpx.Client(base_url=base, timeout=60) as client:
        answers = {}
        for path in paths:
            answer = client.get(path)
            answers[path] = {"status": answer.status_code, "body": answer.json()}
        return answers


# -- the database ------------------------------------------------------------------------------

def stored_records(db: Path) -> dict[str, dict[str, Any]]:
    """Every table's record, read from the file (an unfinished one's is served to nobody)."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        records = {}
        for tid, game, players, options, seed in conn.execute(
                "SELECT id, game, players, options, seed FROM tables"):
            actions = conn.execute('SELECT seat, notation FROM actions WHERE table_id = ? '
                                   'ORDER BY "index"', (tid,)).fetchall()
            records[tid] = {"format": 1, "game": game, "players": players,
                            "options": json.loads(options), "seed": seed,
                            "actions": [list(a) for a in actions]}
        return records


def compact(db: Path) -> None:
    """VACUUM, and leave one self-contained file (no -wal beside it): the old server opens it
    in WAL mode again by itself."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("VACUUM")
        conn.execute("PRAGMA journal_mode=DELETE")


def marks(src: Path, records: list[dict[str, Any]]) -> list[list[str]]:
    """What old_engine.py finds in each record, by the release's own engine."""
    out = subprocess.run([sys.executable, str(HERE / "old_engine.py"), "marks"],
                         input=json.dumps(records), capture_output=True, text=True,
                         check=True, env=old_env(src))
    return list(json.loads(out.stdout))


# -- one release -------------------------------------------------------------------------------

def build(release: Release, work: Path) -> None:
    src = extract(release.commit, work)
    db = work / "tiergarten.db"
    server = OldServer(src, db, release.flags)
    try:
        client = httpx.Client(base_url=server.base, timeout=30)
        people = [sign_up(server.base, name) for name in release.accounts]
        ids = {spec.name: play_table(server, client, spec, people) for spec in release.tables}
        served = capture(server.base, paths_of(release, ids))
    except Exception:
        print(server.tail(), file=sys.stderr)
        raise
    finally:
        server.stop()
    compact(db)
    records = stored_records(db)
    restarted = serve_again(src, db, release, list(served))
    moved = [name for name, table in ids.items()
             if stored_records(work / "again" / db.name)[table] != records[table]]
    if moved:
        raise RuntimeError(f"{release.commit}: {', '.join(moved)} moved on when the server "
                           "restarted; choose other seeds or moves")
    found = marks(src, [records[ids[spec.name]] for spec in release.tables])
    manifest = []
    for spec, marked in zip(release.tables, found, strict=True):
        if spec.must is not None and not any(spec.must in m for m in marked):
            raise RuntimeError(f"{release.commit} {spec.name}: no {spec.must} in the record "
                               f"of seed {spec.seed}; choose another seed")
        manifest.append(manifest_entry(spec, ids[spec.name], served, records, marked))
    out = HERE / release.commit
    out.mkdir(exist_ok=True)
    shutil.copyfile(db, out / "tiergarten.db")
    changed = {path: answer for path, answer in restarted.items() if answer != served[path]}
    write_served(out / "served.json.gz", release.commit, served, changed)
    write_json(out / "manifest.json", {"release": release.commit, "server_flags":
                                       list(release.flags), "accounts": list(release.accounts),
                                       "tables": manifest})
    RULES.mkdir(exist_ok=True)
    subprocess.run([sys.executable, str(HERE / "old_engine.py"), "traces",
                    str(RULES / f"{release.commit}.json.gz")], check=True,
                   env=old_env(src))


def serve_again(src: Path, db: Path, release: Release, paths: list[str]) -> dict[str, Any]:
    """What the old server answers after a restart, on a copy of the file (left in
    `again/` beside it): the file as committed, read back from the database alone."""
    again = db.parent / "again"
    again.mkdir(exist_ok=True)
    shutil.copyfile(db, again / db.name)
    server = OldServer(src, again / db.name, release.flags)
    try:
        time.sleep(3)  # let a table's bots move, if any could (none should)
        return capture(server.base, paths)
    finally:
        server.stop()


def manifest_entry(spec: Table, table: str, served: dict[str, Any],
                   records: dict[str, dict[str, Any]], marked: list[str]) -> dict[str, Any]:
    info = served[f"/api/tables/{table}"]["body"]
    note = spec.note + (f"; {', '.join(marked)}" if marked else "")
    return {"id": table, "name": spec.name, "game": spec.game, "players": len(spec.bots),
            "options": info["options"], "seed": spec.seed, "status": info["status"],
            "version": info["version"], "actions": len(records[table]["actions"]),
            "seats": [{"kind": s["kind"], "bot": s["bot"], "name": s["name"]}
                      for s in info["seats"]],
            "clock": spec.clock, "chat": list(spec.chat),
            "person": ({"seat": 0, "policy": spec.policy, "moves_at_least": spec.moves}
                       if spec.kind == "unfinished" else None),
            "note": note}


def write_served(path: Path, release: str, answers: dict[str, Any],
                 after_restart: dict[str, Any]) -> None:
    """served.json.gz: one answer to a line, gzipped (the replays make it large)."""
    def lines(answers: dict[str, Any]) -> str:
        return ",\n".join(f"  {json.dumps(p)}: {json.dumps(a, ensure_ascii=False, sort_keys=True)}"
                           for p, a in sorted(answers.items()))

    text = (f'{{"release": {json.dumps(release)},\n "answers": {{\n{lines(answers)}}},\n'
            f' "after_restart": {{\n{lines(after_restart)}}}}}\n')
    path.write_bytes(gzip.compress(text.encode(), mtime=0))


def write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n")


def check(release: Release, work: Path) -> list[str]:
    """Open a copy of the committed database with the old server; list what it serves
    differently from served.json (its answers after a restart)."""
    src = extract(release.commit, work)
    db = work / "tiergarten.db"
    shutil.copyfile(HERE / release.commit / "tiergarten.db", db)
    served = json.loads(gzip.decompress((HERE / release.commit / "served.json.gz").read_bytes()))
    expected = {**served["answers"], **served["after_restart"]}
    got = serve_again(src, db, release, list(expected))
    return [path for path in expected if got[path] != expected[path]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", choices=list(RELEASES), action="append")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    failed = False
    for name in args.release or list(RELEASES):
        with tempfile.TemporaryDirectory(prefix=f"tg-{name}-") as tmp:
            if args.check:
                differ = check(RELEASES[name], Path(tmp))
                failed |= bool(differ)
                print(f"{name}: {'served the same' if not differ else 'differs: '}"
                      + ", ".join(differ))
            else:
                build(RELEASES[name], Path(tmp))
                print(f"{name}: written to {HERE / name}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
