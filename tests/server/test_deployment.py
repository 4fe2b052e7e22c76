"""Issue 29's "done when": the deployment as docs/deploy.md gives it — three workers, each the
command line of deploy/systemd/tiergarten@.service with deploy/tiergarten.env (in JSON logging
mode), behind deploy/Caddyfile, on PostgreSQL and Redis (tests/server/deployment.py) — plays
games through four outages, one after the other: a worker killed (kill -9), a worker stopped
(SIGTERM), Redis down `OUTAGE` seconds, PostgreSQL down `OUTAGE` seconds. A worker that ends
is started again at once, as the unit's `Restart=always` does. Throughout:

- nothing is lost: every state anyone was told (people at their seats, a spectator at a table
  of bots) is what the stored log says at that version, so every acknowledged act is stored;
  every table goes on after each outage, and every stored game replays;
- the lobby (`GET /api/tables`) and the static page (`GET /`) answer 200 through the proxy,
  polled the whole time;
- every line every worker wrote is one JSON object with its worker id (the table and request
  id where the line is about one);
- `tiergarten_server_errors_total`, summed over the workers (each scraped before it ends),
  is the number of errors the test caused: the 5xx answers it was given on purpose (a table
  created while the database is away, one joined while Redis is) and nothing else;
- after Redis comes back the tables in play are spread evenly over the three workers
  (docs/deploy.md, "Outages").
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import random
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from benchmarks.pgtemp import Postgres
from benchmarks.services import Caddy, Redis
from websockets.exceptions import ConnectionClosed, InvalidStatus

import tiergarten
from tiergarten.server.storage.sql_store import SqlStore

from .cluster import Endpoint
from .deployment import UnitWorker, unit_environment
from .harness import Client, Message, eventually, free_port, is_state, run

OUTAGE = 20.0  # seconds Redis, then PostgreSQL, is down (as in the operator's trial)
PEOPLE_TABLES = 2  # two people and a bot each: they reconnect to the worker the proxy picks
BOT_TABLES = 7  # bots only, nobody connected: taken over by the workers' scans
THINK = (0.2, 0.5)  # seconds a person takes to act


@dataclass
class Site:
    pg: Postgres
    redis: Redis
    caddy: Caddy
    workers: list[UnitWorker]
    http: httpx.Client
    db: str
    errors: float = 0.0  # tiergarten_server_errors_total of workers' lives that ended
    caused: int = 0  # 5xx answers the test asked for on purpose
    timings: dict[str, float] = field(default_factory=dict)

    def owners(self, tables: list[str]) -> list[str | None]:
        import redis

        with redis.Redis(port=self.redis.port) as client:
            found = [client.get(f"tg:lease:{t}") for t in tables]
        return [None if f is None else f.decode() for f in found]

    def version(self, table: str) -> int | None:
        with contextlib.suppress(httpx.HTTPError):
            answer = self.http.get(f"/api/tables/{table}")
            if answer.status_code == 200:
                return int(answer.json()["version"])
        return None

    def count_5xx(self, answer: httpx.Response) -> None:
        """An httpx response hook: a 5xx a worker gave (it carries the worker's request id;
        the proxy's own carry none) is an error the test caused."""
        if answer.status_code >= 500 and "x-request-id" in answer.headers:
            self.caused += 1

    def end(self, worker: UnitWorker, how: str) -> None:
        """kill -9 or SIGTERM `worker` (its errors counted first), then start it again."""
        self.errors += worker.metric("tiergarten_server_errors_total")
        if how == "kill":
            worker.kill()
        else:
            assert worker.terminate() in (0, 143)  # the unit's SuccessExitStatus
        worker.start()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    pg, redis_server = Postgres().start(), Redis().start()
    ports = [free_port() for _ in range(3)]
    caddy = Caddy(ports)  # its port is known before it starts: the workers' public address
    db = pg.new_database()
    workers = [UnitWorker(port, unit_environment(
        port, TIERGARTEN_DB=db, TIERGARTEN_REDIS_URL=redis_server.url,
        TIERGARTEN_PUBLIC_URL=caddy.url, TIERGARTEN_LOG_LEVEL="info"), tmp_path)
        for port in ports]
    built = None
    try:
        begun = time.monotonic()
        threads = [threading.Thread(target=w.start) for w in workers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert all(w.alive and w.started for w in workers), [w.output()[-2000:] for w in workers]
        caddy.start()
        built = Site(pg, redis_server, caddy, workers, httpx.Client(
            base_url=caddy.url, timeout=10, trust_env=False), db)
        built.http.event_hooks["response"] = [built.count_5xx]
        built.timings["start"] = time.monotonic() - begun
        yield built
    finally:
        if built is not None:
            built.http.close()
        for worker in workers:
            worker.stop()
        caddy.stop()
        redis_server.stop()
        pg.stop()


class Poller:
    """Asks the lobby and the static page through the proxy, one after the other, until
    stopped; keeps every answer that was not a 200 (or not an answer)."""

    def __init__(self, url: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=10, trust_env=False)
        self.failures: list[tuple[str, str, str]] = []
        self.answers = 0
        self.caused = 0  # of them, 5xx
        self.stopped = threading.Event()
        self.event = "start"
        self.thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self) -> None:
        while not self.stopped.wait(0.1):
            for path in ("/api/tables", "/"):
                try:
                    answer = self.http.get(path)
                    ok = answer.status_code == 200 and (path == "/" or isinstance(
                        answer.json(), list))
                    said = f"{answer.status_code} {answer.text[:200]}"
                    if answer.status_code >= 500 and "x-request-id" in answer.headers:
                        self.caused += 1  # a worker's (the proxy's own carry no id)
                except (httpx.HTTPError, ValueError) as exc:
                    ok, said = False, repr(exc)
                self.answers += 1
                if not ok:
                    self.failures.append((self.event, path, said))

    def __enter__(self) -> Poller:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stopped.set()
        self.thread.join(15)
        self.http.close()


class Person:
    """One seat (or a spectator: no token) through the proxy, as the web client plays: acts on
    each state it may act in after a think, acts again on `unavailable`, reconnects whenever
    the connection ends or is refused; keeps every state it was told."""

    def __init__(self, proxy: Endpoint, table: str, token: str | None, seed: int) -> None:
        self.proxy, self.table, self.token = proxy, table, token
        self.rng = random.Random(seed)
        self.states: list[Message] = []
        self.connections = 0
        self.over = False

    @property
    def version(self) -> int:
        return self.states[-1]["version"] if self.states else -1

    async def play(self, stop: asyncio.Event) -> None:
        protocols = ["tiergarten"] + ([f"token.{self.token}"] if self.token else [])
        while not (self.over or stop.is_set()):
            try:
                client = await Client.open(self.proxy, self.table,  # type: ignore[arg-type]
                                           subprotocols=protocols)
            except (OSError, ConnectionClosed, InvalidStatus, TimeoutError):
                await asyncio.sleep(0.5)  # the web client's pause before it tries again
                continue
            self.connections += 1
            try:
                await self._play(client, stop)
            except (ConnectionClosed, TimeoutError, OSError):
                await asyncio.sleep(0.2)
            finally:
                with contextlib.suppress(Exception):  # (gone already)
                    await client.close()

    async def _play(self, client: Client, stop: asyncio.Event) -> None:
        state: Message | None = None
        while not (self.over or stop.is_set()):
            try:
                message = await client.recv(1.0 if state is None else self.rng.uniform(*THINK))
            except TimeoutError:  # thought it over (or nothing came): act on what is in hand
                if state is not None and state["legal"] and self.token:
                    await client.act(self.rng.choice(state["legal"]), state["version"])
                    state = None
                continue
            if message["type"] == "table" and message["status"] == "over":
                self.over = True
            elif is_state(message):
                assert message["version"] >= self.version, "back in time"
                self.states.append(message)
                state = message
            elif message["type"] == "error" and message["code"] == "unavailable":
                state = client.state  # not stored; nothing changed: act again after a think
            elif message["type"] == "error":
                state = None  # (a stale version: the next state comes)


def is_json(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False


def views(record: dict[str, Any], seats: set[int | None]) -> list[dict[int | None, Any]]:
    """What each seat may see and do at every version of a stored log."""
    state = tiergarten.load(record["game"], record["players"],
                            **record["options"]).new_state(record["seed"])

    def view() -> dict[int | None, Any]:
        return {s: (state.observe(s), [a.text for a in state.legal_actions(s)]
                    if s is not None and not state.is_over() else []) for s in seats}

    seen = [view()]
    for seat, action in record["actions"]:
        state.apply(seat, action)
        seen.append(view())
    return seen


def test_the_deployment_as_documented_plays_through_four_outages(site: Site) -> None:
    bots = [{"bot": "random"}, {"bot": "heuristic"}, {"bot": "random"}]
    create = site.http.post
    long = {"rounds": 1000}  # no game ends during the test: each table is in play throughout
    people_tables = [create("/api/tables", json={"game": "maumau", "players": 3, "options": long,
                                                 "seats": [None, None, {"bot": "heuristic"}]}
                            ).json()["id"] for _ in range(PEOPLE_TABLES)]
    bot_tables = [create("/api/tables", json={"game": "maumau", "players": 3, "options": long,
                                              "seats": bots}).json()["id"]
                  for _ in range(BOT_TABLES)]
    everyone = [*people_tables, *bot_tables]
    waiting = create("/api/tables", json={"game": "maumau", "players": 2}).json()["id"]
    proxy = Endpoint(site.caddy.ws_url)
    people = [Person(proxy, t, site.http.post(f"/api/tables/{t}/join", json={
        "name": f"P{n}"}).json()["token"], seed=n * 7 + i)
        for i, t in enumerate(people_tables) for n in range(2)]
    eye = Person(proxy, bot_tables[0], None, seed=1)  # a spectator at a table of bots
    spread: dict[str, list[int]] = {}

    def counts() -> list[int]:
        owned = collections.Counter(site.owners(everyone))
        return sorted((owned.get(w.id, 0) for w in site.workers), reverse=True)

    def all_owned() -> bool:
        return all(o in {w.id for w in site.workers} for o in site.owners(everyone))

    def moved_on(since: dict[str, int]) -> bool:
        return all((site.version(t) or -1) > since[t] for t in everyone)

    async def event(name: str, what: Any) -> None:
        """Run `what` (blocking: in a thread, the people playing meanwhile), then wait until
        every table is owned by a living worker and has moved on."""
        poller.event = name
        begun = time.monotonic()
        await asyncio.to_thread(what)
        try:
            await asyncio.to_thread(eventually, all_owned, 60, f"after {name}: tables owned")
        except AssertionError as exc:
            owners = dict(zip(everyone, site.owners(everyone), strict=True))
            raise AssertionError(f"{exc}: {owners}; "
                                 f"{[(w.id, w.alive) for w in site.workers]}") from None
        before = {t: site.version(t) or -1 for t in everyone}
        await asyncio.to_thread(eventually, lambda: moved_on(before), 60,
                                f"after {name}: every table moving on", 0.2)
        site.timings[name] = time.monotonic() - begun

    def redis_away() -> None:
        site.redis.halt()
        down = time.monotonic()
        joined = site.http.post(f"/api/tables/{waiting}/join", json={"name": "Late"})
        assert joined.status_code == 503, joined.text  # who runs the table? not known now
        time.sleep(max(0.0, OUTAGE - (time.monotonic() - down)))  # the outage itself
        site.redis.resume()

    def database_away() -> None:
        site.pg.halt()
        down = time.monotonic()
        made = site.http.post("/api/tables", json={"game": "maumau", "players": 2})
        assert made.status_code == 503, made.text  # nowhere to store it
        time.sleep(max(0.0, OUTAGE - (time.monotonic() - down)))  # the outage itself
        site.pg.resume()

    async def scenario() -> None:
        stop = asyncio.Event()
        playing = [asyncio.create_task(p.play(stop)) for p in [*people, eye]]
        try:
            await asyncio.to_thread(eventually, lambda: all(p.version > 2 for p in people), 60,
                                    "everyone playing")
            spread["start"] = await asyncio.to_thread(counts)
            victim = next(w for w in site.workers if w.id == site.owners(people_tables)[0])
            await event("kill -9", lambda: site.end(victim, "kill"))
            spread["after kill -9"] = await asyncio.to_thread(counts)
            stopped = next(w for w in site.workers if w is not victim)
            await event("SIGTERM", lambda: site.end(stopped, "term"))
            spread["after SIGTERM"] = await asyncio.to_thread(counts)
            await event("Redis away", redis_away)
            spread["after Redis"] = await asyncio.to_thread(counts)
            await event("PostgreSQL away", database_away)
            spread["after PostgreSQL"] = await asyncio.to_thread(counts)
        finally:
            stop.set()
            await asyncio.gather(*playing)

    begun = time.monotonic()
    with Poller(site.caddy.url) as poller:
        run(scenario())
    site.timings["scenario"] = time.monotonic() - begun
    site.caused += poller.caused
    errors = site.errors + sum(w.metric("tiergarten_server_errors_total") for w in site.workers)
    lines = [line for w in site.workers for line in w.output().splitlines()]
    print(f"\ndeployment: {site.timings}; starts {[w.started for w in site.workers]}; "
          f"spread {spread}; {poller.answers} polls; "
          f"{len(lines)} log lines; errors counted {errors:g}, caused {site.caused}; "
          f"connections {[p.connections for p in people]}; "
          f"states told {sum(len(p.states) for p in [*people, eye])}")

    assert poller.failures == [], poller.failures[:10]
    # nothing lost: what anyone was told is what the log holds
    store = SqlStore(site.db)
    try:
        records = {t: store.load_table(t).record() for t in everyone}  # type: ignore[union-attr]
    finally:
        store.close()
    for table in [*people_tables, bot_tables[0]]:
        record = records[table]
        watchers = [p for p in [*people, eye] if p.table == table]
        seats = {s["seat"] for p in watchers for s in p.states[:1]}
        seen = views(record, seats)
        for person in watchers:
            assert len(person.states) > 10
            for message in person.states:
                assert message["version"] < len(seen), "told an act the log does not hold"
                assert (message["observation"], message["legal"]) == \
                    seen[message["version"]][message["seat"]]
    for table in bot_tables:  # every stored game replays, the bots' too (each went on after
        tiergarten.replay(records[table])  # every event: `moved_on`)
    assert all(p.connections >= 2 for p in people)  # each of them really reconnected
    # every line JSON, with its worker (and its table where it names one)
    assert [line for line in lines if not is_json(line)] == []
    for worker in site.workers:
        for line in worker.output().splitlines():
            said = json.loads(line)
            assert said["worker"] == worker.id and {"time", "level", "logger",
                                                    "message"} <= said.keys(), line
            if said["message"].startswith("table ") and said["logger"] == "tiergarten.server":
                assert said["message"].split()[1].rstrip(":") == said["table"], line
            if said["logger"] == "uvicorn.access":  # a request's line names the request
                assert len(said["request_id"]) == 16, line
            if "WebSocket /ws/" in said["message"]:  # a websocket's, its table too
                assert said["message"].split("/ws/")[1].split('"')[0] == said["table"], line
                assert "request_id" in said, line
    assert errors == site.caused
    # after Redis came back every worker took its part of the tables in play
    after = spread["after Redis"]
    assert max(after) - min(after) <= 1, spread


def test_the_hostname_is_the_workers_id_as_the_unit_says() -> None:
    env = unit_environment(8002)
    assert env["TIERGARTEN_WORKER_ID"] == f"{socket.gethostname()}-8002"
    assert env["TIERGARTEN_LOG_FORMAT"] == "json"
