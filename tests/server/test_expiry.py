"""Open tables nobody came to are closed (server/table/expiry.py), and what a closed table is.

In-process, on a loop whose clock skips idle time (harness.SkippingLoop): the stores stamp
their times, and the check compares them, with one clock that moves as the loop's does
(`LoopClock`), so half an hour passes in no wall time. Nothing is waited for in wall time.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tiergarten.server.app import create_app
from tiergarten.server.config import ConfigError, ServerConfig
from tiergarten.server.edge.protocol import SeatSpec
from tiergarten.server.edge.settings import Settings, TableError
from tiergarten.server.storage.memory_store import MemoryStore
from tiergarten.server.storage.sql_store import SqlStore
from tiergarten.server.storage.store import SeatRow
from tiergarten.server.table.closing import CLOSE_CODE
from tiergarten.server.table.connection import Connection
from tiergarten.server.table.expiry import Expiry, listed
from tiergarten.server.table.manager import TableManager
from tiergarten.server.table.spec import TableSpec

from .harness import later, run
from .test_tables import drain

TTL = 1800.0  # the default: half an hour
EVERY = 60.0  # the tests check once a minute (the server: every 5 s)
OPEN = TableSpec(game="maumau", players=2, options={"rounds": 1}, seats=[None, None])


class LoopClock:
    """The wall clock moving as the running loop's clock does (a SkippingLoop's skips too)."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.base, self.start = dt.datetime.now(dt.UTC), self.loop.time()

    def __call__(self) -> dt.datetime:
        return self.base + dt.timedelta(seconds=self.loop.time() - self.start)


def fixed(at: dt.datetime) -> Callable[[], dt.datetime]:
    return lambda: at


async def checked(store: SqlStore | MemoryStore, ttl: float = TTL, **settings: Any
                  ) -> tuple[TableManager, Expiry, asyncio.Task[None]]:
    """A manager on `store` and its check running every `EVERY` seconds, on one clock."""
    clock = LoopClock()
    store.clock = clock
    manager = TableManager(store, Settings(allow_seeds=True, seating_every=0, **settings))
    expiry = Expiry(manager, ttl, now=clock)
    expiry.every = EVERY
    return manager, expiry, asyncio.create_task(expiry.run())


def status(store: SqlStore | MemoryStore, table_id: str) -> str:
    row = store.load_table(table_id)
    assert row is not None
    return row.status


@pytest.fixture(params=["sql", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    made = SqlStore(tmp_path / "t.db") if request.param == "sql" else MemoryStore()
    yield made
    made.close()


# -- the store -----------------------------------------------------------------------------------

def test_the_store_keeps_an_open_tables_last_activity_and_closes_it_once(store: Any) -> None:
    t0 = dt.datetime(2026, 12, 1, 20, 0, tzinfo=dt.UTC)
    minute = dt.timedelta(minutes=1)
    store.clock = fixed(t0)
    store.create_table("t1", "maumau", 2, {}, 1, [SeatRow(0, "human"), SeatRow(1, "human")])
    store.create_table("t2", "maumau", 2, {}, 1, [SeatRow(0, "human"), SeatRow(1, "human")])
    assert store.load_table("t1").last_active == t0
    assert store.idle_open(t0) == [] and store.idle_open(t0 + minute) == [("t1", t0), ("t2", t0)]
    store.clock = fixed(t0 + 5 * minute)
    assert store.claim_seat("t1", 0, "Ann", "a" * 64)  # a seat taken: activity
    assert store.idle_open(t0 + 2 * minute) == [("t2", t0)]
    store.clock = fixed(t0 + 7 * minute)
    store.set_seat("t1", SeatRow(0, "human"))  # given up again: activity too
    assert store.load_table("t1").last_active == t0 + 7 * minute
    store.clock = fixed(t0 + 8 * minute)
    store.touch("t2")
    assert store.idle_open(t0 + 8 * minute) == [("t1", t0 + 7 * minute)]

    # only while still idle since before then: a touch in between wins
    assert not store.close_table("t1", "expired", ("open",), idle_before=t0 + 6 * minute)
    store.clock = fixed(t0 + 40 * minute)
    assert store.close_table("t1", "expired", ("open",), idle_before=t0 + 10 * minute)
    assert not store.close_table("t1", "expired", ("open",), idle_before=t0 + 10 * minute)
    row = store.load_table("t1")
    assert (row.status, row.close_reason, row.closed) == ("closed", "expired", t0 + 40 * minute)
    assert [s.kind for s in row.seats] == ["human", "human"]  # the row stays, seats and all
    store.set_status("t1", "playing")  # closed is final
    assert store.load_table("t1").status == "closed"
    assert not store.claim_seat("t1", 0, "Bob", "b" * 64)  # no seat at a closed table
    store.touch("t1")
    assert store.load_table("t1").last_active == t0 + 7 * minute
    assert store.closed_among(["t2", "t1", "nope"]) == ["t1"]
    assert store.idle_open(t0 + 60 * minute) == [("t2", t0 + 8 * minute)]
    assert store.table_ids() == ["t2"] and store.table_ids(("closed",)) == ["t1"]

    store.set_status("t2", "playing")  # a game under way closes only on purpose
    assert not store.close_table("t2", "expired", ("open",), idle_before=t0 + 60 * minute)
    assert store.close_table("t2", "operator")
    assert not store.close_table("t2", "operator")
    assert not store.close_table("nope", "operator")


# -- the check -----------------------------------------------------------------------------------

def test_a_table_nobody_joined_closes_after_half_an_hour_and_stays_as_a_record(
        tmp_path: Path) -> None:
    async def go() -> None:
        store = SqlStore(tmp_path / "t.db")
        manager, _expiry, task = await checked(store)
        table = manager.create(OPEN)
        await later(TTL - 2 * EVERY)
        assert status(store, table.id) == "open"
        assert manager.open_tables() == []  # nobody there for long: no longer listed
        await later(3 * EVERY)
        row = store.load_table(table.id)
        assert row is not None and (row.status, row.close_reason) == ("closed", "expired")
        assert row.seats and row.created  # nothing deleted
        assert manager.open_tables() == [] and table.id not in manager.tables
        shown = manager.get(table.id)  # shown as stored, never run again
        assert shown is not None and shown.info().status == "closed"
        assert table.id not in manager.tables
        with pytest.raises(TableError, match="this table is closed") as refused:
            manager.join(table.id, "Ann")
        assert refused.value.status == 409
        task.cancel()
        store.close()

    run(go(), skip_idle=True)


def test_the_time_counts_from_the_last_seat_taken_or_given_up(store: Any) -> None:
    async def go() -> None:
        manager, _expiry, task = await checked(store)
        table = manager.create(OPEN)
        await later(0.75 * TTL)
        _seat, token = manager.join(table.id, "Ann")
        await later(0.75 * TTL)
        assert status(store, table.id) == "open"  # Ann sat down 0.75 TTL ago
        table.leave(token)
        await later(TTL - 2 * EVERY)
        assert status(store, table.id) == "open"
        await later(3 * EVERY)
        assert status(store, table.id) == "closed"
        task.cancel()

    run(go(), skip_idle=True)


def test_a_table_someone_is_connected_to_never_expires(store: Any) -> None:
    async def go() -> None:
        manager, _expiry, task = await checked(store)
        table = manager.create(OPEN)
        _seat, token = manager.join(table.id, "Ann")
        ann, watcher = Connection(table.seat_of(token)), Connection(None)
        table.connect(ann)
        table.connect(watcher)
        await later(5 * TTL)
        assert status(store, table.id) == "open"
        table.disconnect(ann)  # a spectator is someone too
        await later(2 * TTL)
        assert status(store, table.id) == "open"
        table.disconnect(watcher)  # the last one: the table idles from now
        await later(TTL - 2 * EVERY)
        assert status(store, table.id) == "open"
        await later(3 * EVERY)
        assert status(store, table.id) == "closed"
        task.cancel()

    run(go(), skip_idle=True)


def test_a_table_its_creator_left_leaves_the_lobby_soon_and_then_expires(store: Any) -> None:
    """Ann makes a table and waits at it (listed all along); she closes the tab: for
    `unlisted_after` (2 min) the table stays listed (time to come back), then leaves the list,
    though its link still works; back, it is listed again; gone for good, it expires."""
    async def go() -> None:
        manager, _expiry, task = await checked(store, unlisted_after=2 * EVERY)
        table = manager.create(OPEN)
        ann = Connection(manager.join(table.id, "Ann")[0])
        table.connect(ann)
        lobby = lambda: [t.id for t in manager.open_tables()]  # noqa: E731
        stored = lambda: [t.id for t in listed(manager, [], [store.load_table(table.id)])]  # noqa: E731
        await later(10 * EVERY)
        assert lobby() == [table.id] and stored() == [table.id]  # a worker elsewhere sees it
        table.disconnect(ann)  # the tab closed
        await later(EVERY)
        assert lobby() == [table.id] and stored() == [table.id]
        await later(1.5 * EVERY)
        assert lobby() == [] and stored() == []
        assert status(store, table.id) == "open" and manager.get(table.id) is table
        table.connect(ann)  # back through the link
        assert lobby() == [table.id]
        table.disconnect(ann)
        await later(TTL - 2 * EVERY)
        assert lobby() == [] and status(store, table.id) == "open"
        await later(3 * EVERY)
        assert status(store, table.id) == "closed"
        task.cancel()

    run(go(), skip_idle=True)


def test_a_table_that_started_never_expires(store: Any) -> None:
    async def go() -> None:
        manager, _expiry, task = await checked(store, away_after=10 * TTL)
        table = manager.create(OPEN.model_copy(update={"seats": [None, SeatSpec(bot="random")]}))
        manager.join(table.id, "Ann")  # the last seat: the game starts, Ann to move or soon
        assert table.status == "playing"
        await later(3 * TTL)
        assert status(store, table.id) == "playing"
        task.cancel()
        await manager.stop()

    run(go(), skip_idle=True)


def test_the_time_holds_across_a_restart(tmp_path: Path) -> None:
    """Stored times, not a process's memory: a second process (a fresh manager on the same
    database) closes the table nobody came to and keeps the one Ann sat down at lately."""
    t0 = dt.datetime(2026, 12, 1, 20, 0, tzinfo=dt.UTC)
    at = {"now": t0}

    async def first() -> tuple[str, str]:
        store = SqlStore(tmp_path / "t.db")
        store.clock = lambda: at["now"]
        manager = TableManager(store, Settings())
        empty, joined = manager.create(OPEN), manager.create(OPEN)
        at["now"] = t0 + dt.timedelta(seconds=0.8 * TTL)
        manager.join(joined.id, "Ann")
        await manager.stop()
        store.close()
        return empty.id, joined.id

    async def second() -> int:
        store = SqlStore(tmp_path / "t.db")
        manager = TableManager(store, Settings())
        assert await manager.recover() == 2
        closed = await Expiry(manager, TTL, now=lambda: t0 + dt.timedelta(seconds=1.2 * TTL)
                              ).check()
        await manager.stop()
        store.close()
        return closed

    empty, joined = run(first())
    assert run(second()) == 1
    store = SqlStore(tmp_path / "t.db")
    assert (status(store, empty), status(store, joined)) == ("closed", "open")
    store.close()


def test_no_expiry_with_a_ttl_of_0(store: Any) -> None:
    async def go() -> None:
        manager, _expiry, task = await checked(store, ttl=0)
        table = manager.create(OPEN)
        await later(10 * TTL)
        assert status(store, table.id) == "open"
        task.cancel()

    run(go(), skip_idle=True)


# -- closing a table with people at it --------------------------------------------------------

def test_a_table_closed_on_purpose_tells_its_people_and_closes_their_connections(
        store: Any) -> None:
    async def go() -> None:
        manager = TableManager(store, Settings(seating_every=0, bot_pace=0))
        table = manager.create(OPEN.model_copy(update={"seats": [None, SeatSpec(bot="random")]}))
        _seat, token = manager.join(table.id, "Ann")
        ann = Connection(table.seat_of(token))
        table.connect(ann)
        drain(ann)
        assert await manager.close(table.id, "operator")
        said = drain(ann)
        assert said[-1]["type"] == "table" and said[-1]["status"] == "closed"
        assert ann.close_code == CLOSE_CODE
        assert ann.close_reason == "this table is closed: the server's operator closed it"
        assert table.id not in manager.tables
        row = store.load_table(table.id)
        assert (row.status, row.close_reason) == ("closed", "operator")
        assert not await manager.close(table.id, "operator")  # once

    run(go(), skip_idle=True)


def test_a_table_closed_in_the_database_from_outside_stops_at_the_next_check(
        store: Any) -> None:
    """`tiergarten admin close` with a server running alone: it writes the database; the
    server's check finds the table closed and stops it."""
    async def go() -> None:
        manager = TableManager(store, Settings(seating_every=0))
        table = manager.create(OPEN)
        watcher = Connection(None)
        table.connect(watcher)
        drain(watcher)
        assert store.close_table(table.id, "operator")  # as the command does
        await Expiry(manager, TTL).check()
        assert drain(watcher)[-1]["status"] == "closed"
        assert watcher.close_code == CLOSE_CODE and table.id not in manager.tables

    run(go(), skip_idle=True)


def test_a_closed_table_over_http_and_websocket(tmp_path: Path) -> None:
    app = create_app(tmp_path / "t.db", Settings(), web=None)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        made = client.post("/api/tables", json={"game": "maumau", "players": 2}).json()
        joined = client.post(f"/api/tables/{made['id']}/join", json={"name": "Ann"}).json()
        assert [t["id"] for t in client.get("/api/tables").json()] == [made["id"]]
        manager = app.state.manager
        assert client.portal.call(manager.close, made["id"], "expired")  # type: ignore[union-attr]
        assert client.get("/api/tables").json() == []  # out of the lobby
        shown = client.get(f"/api/tables/{made['id']}")
        assert shown.status_code == 200 and shown.json()["status"] == "closed"
        assert client.get(f"/api/tables/{made['id']}/record").json()["status"] == "closed"
        for path, body in (("join", {"name": "Bob"}), ("leave", {"token": joined["token"]})):
            refused = client.post(f"/api/tables/{made['id']}/{path}", json=body)
            assert refused.status_code == 409, refused.text
            assert refused.json()["detail"] == ("this table is closed: nobody played at it "
                                                "for a long while")
        for protocols in (["tiergarten", f"token.{joined['token']}"], ["tiergarten"]):
            url = f"ws://127.0.0.1/ws/{made['id']}"
            with client.websocket_connect(url, subprotocols=protocols) as ws:
                error = json.loads(ws.receive_text())
                assert (error["type"], error["code"]) == ("error", "closed")
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_text()
                assert closed.value.code == CLOSE_CODE
        assert made["id"] not in manager.tables


# -- the setting ---------------------------------------------------------------------------------

def test_the_setting_takes_seconds_or_a_duration_and_0_for_never() -> None:
    def ttl(value: str) -> float:
        return ServerConfig.load(env={"TIERGARTEN_OPEN_TABLE_TTL": value}).open_table_ttl

    assert ServerConfig.load(env={}).open_table_ttl == TTL
    assert ServerConfig.load(env={}).table_settings().open_table_ttl == TTL
    assert (ttl("30m"), ttl("2h"), ttl("1h30m"), ttl("90"), ttl("0")) == (1800, 7200, 5400,
                                                                          90, 0)
    assert ServerConfig.load({"open_table_ttl": "1d"}, env={}).open_table_ttl == 86400
    for wrong, says in (("30", "is too short"), ("abc", "is not allowed"),
                        ("8d", "is not allowed")):
        with pytest.raises(ConfigError, match=says):
            ttl(wrong)
