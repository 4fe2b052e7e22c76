"""Three workers behind Caddy, on one PostgreSQL and one redis-server, all real, on loopback.

- The proxy (Caddy, and nginx, each with its deploy/ config) sends everything about a table to
  one worker, which comes to own it: people who all connect through the proxy are never
  relayed, whole games are played so, and the tables spread over the workers.
- Two people at one table, each connected to a different worker (so at least one of them is
  relayed to the table's owner), play whole games of every game; every state each receives
  is exactly its seat's observation and legal actions at that version of the stored log.
- No hidden card crosses workers: the leak scan of test_leak.py over a game played so.
- A worker is killed (SIGKILL) in the middle of games: its tables are taken over from the log
  within seconds, the people (through the proxy) reconnect and finish, bots carry on, and
  every message anyone was told is what the stored log says.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from benchmarks.pgtemp import Postgres
from websockets.exceptions import ConnectionClosed

import tiergarten
from tiergarten.core.registry import game_class

from .cluster import Deployment, Endpoint
from .harness import Client, Message, is_state, play_until_over, run, until_over
from .test_leak import Timeline, leaks


@pytest.fixture(scope="module")
def deployment(postgres: Postgres) -> Iterator[Deployment]:
    dep = Deployment(postgres.new_database()).start()
    try:
        yield dep
    finally:
        dep.stop()
    for printed in dep.printed:
        assert "Traceback" not in printed, printed


def views_of(record: dict[str, Any], seats: list[int | None]
             ) -> list[dict[int | None, tuple[dict[str, Any], list[str]]]]:
    """Each seat's observation and legal actions at every version of a stored log."""
    state = tiergarten.load(record["game"], record["players"],
                            **record["options"]).new_state(record["seed"])

    def view() -> dict[int | None, tuple[dict[str, Any], list[str]]]:
        return {s: (state.observe(s), [a.text for a in state.legal_actions(s)]
                    if s is not None and not state.is_over() else []) for s in seats}

    views = [view()]
    for seat, action in record["actions"]:
        state.apply(seat, action)
        views.append(view())
    assert state.is_over()
    return views


def told_the_truth(received: list[Message], seat: int | None,
                   views: list[dict[int | None, tuple[dict[str, Any], list[str]]]]) -> int:
    states = [m for m in received if is_state(m)]
    for message in states:
        assert message["seat"] == seat
        assert (message["observation"], message["legal"]) == views[message["version"]][seat]
    return len(states)


def test_every_worker_is_ready_and_the_lobby_is_one(deployment: Deployment) -> None:
    for worker in deployment.workers:
        ready = worker.get("/readyz")
        assert ready.status_code == 200
        assert ready.json()["checks"] == {"database": {"ok": True}, "redis": {"ok": True},
                                          "accepting": {"ok": True}}
    tables = [deployment.create(game="maumau", players=2, seed=n) for n in range(12)]
    assert {deployment.owner(t) for t in tables} == {None}  # waiting: nobody runs them yet
    for table in tables:  # asked for through the proxy: run where the proxy sends them
        assert deployment.http is not None
        assert deployment.http.get(f"/api/tables/{table}").status_code == 200
    owners = {id(deployment.owner(t)) for t in tables}
    assert None not in owners and len(owners) > 1  # spread over workers (12 random ids)
    for worker in deployment.workers:  # every worker lists all of them, and shows each
        listed = {t["id"] for t in worker.get("/api/tables").json()}
        assert set(tables) <= listed
        for table in tables:
            shown = worker.get(f"/api/tables/{table}")
            assert shown.status_code == 200 and shown.json()["id"] == table


@pytest.mark.parametrize("game", tiergarten.games())
def test_two_people_on_different_workers_play_every_game(deployment: Deployment,
                                                         game: str) -> None:
    info = game_class(game).info
    players = info.min_players
    seats = [None, None] + [{"bot": "random"}] * (players - 2)
    table = deployment.create(game=game, players=players, seats=seats, seed=3)
    tokens = [deployment.join(table, f"P{n}")[1] for n in range(2)]
    owner = deployment.owner(table)
    assert owner is not None
    others = [w for w in deployment.workers if w is not owner]
    places = [others[0], others[1] if players % 2 else owner]  # one relayed at least

    async def play() -> list[Client]:
        people = [await Client.open(Endpoint(w.ws_url), table, t)  # type: ignore[arg-type]
                  for w, t in zip(places, tokens, strict=True)]
        rngs = [random.Random(seat) for seat in range(2)]
        await asyncio.gather(*(play_until_over(p, lambda m, r=r: r.choice(m["legal"]), 90)
                               for p, r in zip(people, rngs, strict=True)))
        for p in people:
            await p.close()
        return people

    people = run(play())
    record = deployment.record(table)["record"]
    views = views_of(record, [0, 1])
    for seat, person in enumerate(people):
        assert told_the_truth(person.received, seat, views) > 3
        assert [m for m in person.received if is_state(m)][-1]["version"] == len(
            record["actions"])


def relayed(worker: Any) -> float:
    """The worker's websockets whose table another worker owns (its /metrics)."""
    for line in worker.get("/metrics").text.splitlines():
        if line.startswith("tiergarten_relayed_connections "):
            return float(line.split()[1])
    raise AssertionError("no tiergarten_relayed_connections in /metrics")


@pytest.mark.parametrize("proxy", ["caddy", "nginx"])
def test_the_proxy_sends_each_table_to_the_worker_that_owns_it(postgres: Postgres,
                                                              proxy: str) -> None:
    dep = Deployment(postgres.new_database(), workers=2, proxy=proxy).start()
    try:
        tables = [dep.create(game="maumau", players=2, seed=n) for n in range(16)]
        tokens = {t: [dep.join(t, f"P{n}")[1] for n in range(2)] for t in tables}
        owners = {t: dep.owner(t) for t in tables}
        assert None not in owners.values() and len(set(map(id, owners.values()))) == 2

        async def play() -> list[Client]:
            people = [await Client.open(dep.proxy, t, token)  # type: ignore[arg-type]
                      for t in tables for token in tokens[t]]
            for person in people:
                await person.until(is_state)
            assert [relayed(w) for w in dep.workers] == [0, 0]  # all at their tables' owners
            rngs = [random.Random(n) for n in range(len(people))]
            await asyncio.gather(*(play_until_over(p, lambda m, r=r: r.choice(m["legal"]), 90)
                                   for p, r in zip(people[:4], rngs, strict=False)))
            for person in people:
                await person.close()
            return people[:4]

        people = run(play())
        for n, person in enumerate(people):  # two whole games, through the proxy only
            record = dep.record(tables[n // 2])["record"]
            assert told_the_truth(person.received, n % 2, views_of(record, [0, 1])) > 3
    finally:
        dep.stop()
    for printed in dep.printed:
        assert "Traceback" not in printed, printed


def test_no_hidden_card_crosses_workers(deployment: Deployment) -> None:
    table = deployment.create(game="maumau", players=3, options={"rounds": 2},
                              seats=[None, {"bot": "heuristic"}, None], seed=5)
    (_, t0), (_, t2) = deployment.join(table, "Ann"), deployment.join(table, "Bob")
    a, b, c = (Endpoint(w.ws_url) for w in deployment.workers)
    rng = random.Random(5)

    async def play() -> dict[int | None, Client]:
        eye = await Client.open(c, table)  # type: ignore[arg-type]
        ann = await Client.open(a, table, t0)  # type: ignore[arg-type]
        bob = await Client.open(b, table, t2)  # type: ignore[arg-type]
        await asyncio.gather(play_until_over(ann, lambda m: rng.choice(m["legal"]), 90),
                             play_until_over(bob, lambda m: rng.choice(m["legal"]), 90))
        await eye.until(lambda m: m["type"] == "table" and m["status"] == "over")
        for client in (ann, bob, eye):
            await client.close()
        return {0: ann, 2: bob, None: eye}

    clients = run(play())
    record = deployment.record(table)["record"]
    timeline = Timeline(record, [0, 2, None])
    for seat, client in clients.items():
        assert len([m for m in client.received if is_state(m)]) > 20
        assert not leaks(client.received, seat, timeline)
        for message in client.received:
            if is_state(message):
                assert (message["observation"], message["legal"]) == \
                    timeline.views[message["version"]][seat]


class Person:
    """Plays one seat through the proxy, thinking a little; reconnects whenever the server
    closes the connection (a killed worker, a 1012), until the game is over."""

    def __init__(self, proxy: Endpoint, table: str, token: str, seat: int, seed: int) -> None:
        self.proxy, self.table, self.token, self.seat = proxy, table, token, seat
        self.rng = random.Random(seed)
        self.received: list[Message] = []
        self.connections = 0
        self.version = -1
        self.over = False
        self.progress: list[tuple[float, int]] = []  # (when, version) of each state
        self.moved = asyncio.Event()  # set at each state (whoever waits clears it)

    async def play(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not self.over:
            assert time.monotonic() < deadline, f"seat {self.seat} of {self.table} stuck"
            try:
                client = await Client.open(self.proxy, self.table, self.token)  # type: ignore
            except (OSError, ConnectionClosed, TimeoutError):
                await asyncio.sleep(0.2)
                continue
            self.connections += 1
            try:
                await self._play(client, deadline)
            except (ConnectionClosed, TimeoutError, OSError):
                await asyncio.sleep(0.1)
            finally:
                self.received.extend(client.received)
                await client.close()

    async def _play(self, client: Client, deadline: float) -> None:
        while not self.over:
            message = await client.recv(max(0.1, deadline - time.monotonic()))
            if message["type"] == "table" and message["status"] == "over":
                self.over = True
            elif is_state(message):
                assert message["version"] >= self.version  # never back in time
                self.version = message["version"]
                self.progress.append((time.monotonic(), self.version))
                self.moved.set()
                if message["legal"]:
                    await asyncio.sleep(self.rng.uniform(0.02, 0.08))
                    await client.act(self.rng.choice(message["legal"]), message["version"])


def test_a_worker_killed_mid_game_loses_nothing(postgres: Postgres) -> None:
    dep = Deployment(postgres.new_database()).start()
    try:
        people_tables = [dep.create(game="maumau", players=3, options={"rounds": 2},
                                    seats=[None, None, {"bot": "heuristic"}], seed=10 + n)
                         for n in range(4)]
        bots_table = dep.create(game="maumau", players=3, options={"rounds": 3}, seed=7,
                                seats=[{"bot": "heuristic"}, {"bot": "random"},
                                       {"bot": "heuristic"}])
        people = [Person(dep.proxy, t, dep.join(t, f"P{n}")[1], n, seed=len(t) + n)
                  for t in people_tables for n in range(2)]
        victim = dep.owner(people_tables[0])
        assert victim is not None
        victim_id = dep.worker_id(victim)
        victims = [t for t in people_tables if dep.owner(t) is victim]
        killed: dict[str, float] = {}

        async def play() -> None:
            async def kill_mid_game() -> None:
                first = [p for p in people if p.table == people_tables[0]]
                while min(p.version for p in first) < 8:  # wait for a move, then look again
                    waits = [asyncio.create_task(p.moved.wait()) for p in first]
                    await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                    for p, waiting in zip(first, waits, strict=True):
                        waiting.cancel()
                        p.moved.clear()
                victim.kill()
                killed["at"] = time.monotonic()

            await asyncio.gather(kill_mid_game(), *(p.play(90) for p in people))

        run(play())
        # another worker took the killed worker's tables over within seconds
        assert dep.client is not None
        for table in victims:
            lease = dep.client.get(f"tg:lease:{table}")
            assert lease is None or lease.decode() != victim_id  # over: released, or moved
            resumed = [when for p in people if p.table == table
                       for when, _ in p.progress if when > killed["at"]]
            assert resumed and min(resumed) - killed["at"] < 10.0
        assert any(p.connections > 1 for p in people)  # someone really reconnected
        # ... once: the living worker that took the reconnect waited out the dead one's lease
        # and served it, rather than closing it (1012) to be tried again
        moved = [p.connections for p in people if p.table in victims]
        assert moved and max(moved) <= 2, moved
        # every record is whole, and everything anyone was told is what it says
        for table in people_tables:
            record = dep.record(table)
            assert record["status"] == "over"
            views = views_of(record["record"], [0, 1])
            for person in (p for p in people if p.table == table):
                assert told_the_truth(person.received, person.seat, views) > 10
        run(until_over(dep.proxy, bots_table, 60))  # the bots carried on
        assert tiergarten.replay(dep.record(bots_table)["record"]).is_over()
    finally:
        dep.stop()
    for worker, printed in zip(dep.workers, dep.printed, strict=True):
        if worker is not victim:
            assert "Traceback" not in printed, printed
