"""The database goes away mid-game, and comes back (docs/protocol.md, "When the database goes
away"): tables stay in memory, acts are refused as `unavailable` and change nothing, `/readyz`
says so, and once the database is back every table carries on — nothing lost, nothing applied
twice. With a real PostgreSQL server stopped and started again, and with a SQLite file that
stops taking writes (read-only, full).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from benchmarks.pgtemp import Postgres
from sqlalchemy import event

import tiergarten
from tiergarten.server.edge.protocol import Act
from tiergarten.server.edge.readiness import readiness
from tiergarten.server.edge.settings import Settings
from tiergarten.server.routes.ops import checks_of
from tiergarten.server.storage.sql_store import SqlStore
from tiergarten.server.storage.store import SeatRow, StoreUnavailable
from tiergarten.server.table.connection import Connection
from tiergarten.server.table.manager import TableManager
from tiergarten.server.table.spec import TableSpec

from .harness import (
    Client,
    Message,
    Server,
    eventually,
    is_error,
    is_state,
    play_until_over,
    run,
    sensible,
    until_over,
)
from .test_tables import drain

BOTS = [{"bot": "heuristic"}, {"bot": "random"}, {"bot": "heuristic"}]


# -- SQLite: a file that takes no more writes ----------------------------------------------------

def constrain(store: SqlStore, pragma: str | None) -> None:
    """From now on every connection of `store` runs `pragma` first (None: none), as if the file
    had become read-only (`query_only`) or full (`max_page_count`): SQLite's own errors."""
    for listener in getattr(store, "_test_pragmas", []):
        event.remove(store.engine, "connect", listener)
    store._test_pragmas = []  # type: ignore[attr-defined]
    if pragma is not None:
        def run_pragma(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.execute(pragma)

        event.listen(store.engine, "connect", run_pragma)
        store._test_pragmas.append(run_pragma)  # type: ignore[attr-defined]
    store.writer.submit(store._drop_log_connection).result()  # the writer's own connection
    store.engine.dispose()


async def ready(manager: TableManager) -> tuple[bool, dict[str, Any]]:
    """What /readyz would say about a server running `manager`."""
    return await readiness(checks_of(SimpleNamespace(state=SimpleNamespace(manager=manager))))


def pages(store: SqlStore) -> int:
    with store.engine.connect() as conn:
        return int(conn.exec_driver_sql("PRAGMA page_count").scalar() or 0)


@pytest.mark.parametrize("how", ["read-only", "full"])
def test_a_sqlite_file_that_takes_no_writes_refuses_acts_until_it_does(tmp_path: Path,
                                                                       how: str) -> None:
    async def go() -> None:
        store = SqlStore(tmp_path / "t.db")
        manager = TableManager(store, Settings(allow_seeds=True, seating_every=0))
        table = manager.create(TableSpec(game="maumau", players=2, options={"rounds": 5},
                                         seats=[None, None], seed=3))
        for name in ("Ann", "Bob"):
            manager.join(table.id, name)
        conns = [Connection(0), Connection(1)]
        for conn in conns:
            table.connect(conn)
        heard = {0: drain(conns[0]), 1: drain(conns[1])}

        async def act() -> list[dict[str, Any]]:
            seat = table.state.to_move()[0]
            legal = table.state.legal_actions(seat)
            await table.handle(conns[seat], Act(act=legal[0].text, version=table.version))
            heard.update({s: drain(c) for s, c in enumerate(conns)})
            return [m for m in heard[seat] if m["type"] == "error"]

        assert await act() == [] and table.version == 1
        constrain(store, "PRAGMA query_only = 1" if how == "read-only" else
                  f"PRAGMA max_page_count = {pages(store)}")
        for _ in range(400):  # a full file still takes what fits in its last page
            before, mover = table.version, table.state.to_move()[0]
            errors = await act()
            if errors:
                break
        else:
            raise AssertionError("the file never refused a write")
        assert [e["code"] for e in errors] == ["unavailable"]
        assert "this act was not stored; nothing changed" in errors[0]["message"]
        assert table.version == before and table.status == "playing"
        assert heard[1 - mover] == []  # nobody heard of anything
        assert store.load_table(table.id).actions == table.row.actions  # type: ignore[union-attr]
        if how == "read-only":  # (a full file passes the probe, which needs no new page)
            ok, checks = await ready(manager)
            assert not ok and "readonly" in checks["database"]["error"], checks
        constrain(store, None)
        assert (await ready(manager))[0]
        assert await act() == [] and table.version == before + 1
        stored = store.load_table(table.id)
        assert stored is not None and stored.actions == table.row.actions
        assert len(stored.actions) == before + 1  # each act once
        await manager.stop()
        store.close()

    run(go())


# -- PostgreSQL: the server stopped and started again --------------------------------------------

@pytest.fixture(scope="module")
def own_postgres() -> Any:
    """A PostgreSQL of these tests' own (they stop it; the shared one is not)."""
    try:
        pg = Postgres().start()
    except RuntimeError as exc:
        pytest.fail(f"cannot start a throwaway PostgreSQL: {exc}")
    yield pg
    pg.stop()


def test_the_store_comes_back_with_a_restarted_postgresql(own_postgres: Postgres) -> None:
    """While it is stopped every method says `StoreUnavailable`; once it is back, the first
    write goes through, on a connection kept from before the restart too (found dead and
    replaced, not failed)."""
    store = SqlStore(own_postgres.new_database())
    try:
        store.create_table("t1", "maumau", 2, {}, 7, [SeatRow(0, "human"), SeatRow(1, "human")])
        store.append_action("t1", 0, 0, "draw")  # this thread keeps a connection from now on
        own_postgres.halt()
        for down in (store.ping, lambda: store.load_table("t1"),
                     lambda: store.append_action("t1", 1, 0, "pass")):
            with pytest.raises(StoreUnavailable, match="the database is unavailable"):
                down()
        own_postgres.resume()
        store.append_action("t1", 1, 0, "pass")
        store.ping()
        assert store.load_table("t1").actions == [(0, "draw"), (0, "pass")]  # type: ignore[union-attr]
        store.append_action("t1", 2, 1, "draw")  # after a failed write, kept connections too
        own_postgres.halt()
        own_postgres.resume()
        store.append_action("t1", 3, 1, "pass")
        assert len(store.load_table("t1").actions) == 4  # type: ignore[union-attr]
    finally:
        store.close()


async def next_state(client: Client, after: int) -> Message:
    return await client.until(lambda m: is_state(m) and m["version"] > after)


def wait_ready(server: Server, ready: bool, seconds: float = 30.0) -> dict[str, Any]:
    """What /readyz says once it says `ready` (the database's state: only a poll sees it)."""
    def answer() -> dict[str, Any] | None:
        said = server.get("/readyz")
        return dict(said.json()) if (said.status_code == 200) == ready else None

    return eventually(answer, seconds, f"/readyz saying ready={ready}", every=0.05)


def test_postgresql_stopped_mid_game_and_started_again(own_postgres: Postgres) -> None:
    database = own_postgres.new_database()
    server = Server(database, "--bot-pace", "0.01", "--allow-seeds", "--db-retry", "0.2").start()
    try:
        bots = server.create(game="maumau", players=3, options={"rounds": 1}, seats=BOTS,
                             seed=41)["id"]
        people = server.create(game="maumau", players=2, options={"rounds": 1},
                               seats=[None, None], seed=8)["id"]
        tokens = [server.join(people, name)[1] for name in ("Ann", "Bob")]
        assert wait_ready(server, True)["checks"]["database"]["ok"]

        async def go() -> list[Client]:
            clients = [await Client.open(server, people, token) for token in tokens]
            for client in clients:
                await client.until(is_state)
            for _ in range(3):
                await play_one(clients)
            version = clients[0].state["version"]  # type: ignore[index]
            own_postgres.halt()  # mid-game, with the bots' table playing too
            mover = next(c for c in clients if c.state and c.state["legal"])
            await mover.act(mover.state["legal"][0])  # type: ignore[index]
            error = await mover.until(is_error)
            assert error["code"] == "unavailable" and "once it is back" in error["message"]
            await mover.send({"sync": True})
            assert (await mover.until(is_state))["version"] == version  # nothing changed
            down = await asyncio.to_thread(wait_ready, server, False)
            assert not down["checks"]["database"]["ok"]
            assert server.get("/api/health").status_code == 200
            assert server.get(f"/api/tables/{people}").json()["version"] == version
            refused = server.post("/api/tables", {"game": "maumau"})
            assert refused.status_code == 503 and "unavailable" in refused.json()["detail"]
            for path, body in (("/api/account/signup", {"name": "Carla", "password": "x" * 12}),
                               ("/api/leaderboard/maumau", None)):  # past the store: 503 too
                answer = (server.post(path, body) if body is not None else server.get(path))
                assert answer.status_code == 503, (path, answer.text)
            own_postgres.resume()
            await asyncio.to_thread(wait_ready, server, True)
            back = await next_state(mover, version - 1)  # everyone hears: the table is back
            assert back["version"] == version, (back, mover.received[-5:])
            for client in clients:
                if client is not mover:
                    await next_state(client, version - 1)
            await play_one(clients)  # and acts count again, for everyone
            for client in clients:
                assert client.state is not None and client.state["version"] == version + 1
            await asyncio.gather(*(play_until_over(c, sensible)
                                   for c in clients))
            return clients

        clients = run(go())
        for client in clients:
            versions = [m["version"] for m in client.received if is_state(m)]
            assert all(b - a in (0, 1) for a, b in zip(versions, versions[1:], strict=False))
        record = server.get(f"/api/tables/{people}/record").json()["record"]
        assert len(record["actions"]) == clients[0].state["version"]  # type: ignore[index]
        assert tiergarten.replay(record).is_over()
        # the bots' table carried on, exactly as a twin that never saw an outage plays
        done = finished(server, bots)
        twin = finished(server, server.create(game="maumau", players=3, options={"rounds": 1},
                                              seats=BOTS, seed=41)["id"])
        assert done == twin and tiergarten.replay(
            server.get(f"/api/tables/{bots}/record").json()["record"]).is_over()
    finally:
        printed = server.stop()
    assert "Traceback" not in printed, printed


async def play_one(clients: list[Client]) -> None:
    """The seat to move plays its first legal move; wait until both have seen it."""
    mover = next(c for c in clients if c.state and c.state["legal"])
    version = mover.state["version"]  # type: ignore[index]
    await mover.act(mover.state["legal"][0])  # type: ignore[index]
    for client in clients:
        await next_state(client, version)


def finished(server: Server, table: str) -> list[list[Any]]:
    run(until_over(server, table, 30))
    answer = server.get(f"/api/tables/{table}/record").json()
    assert answer["status"] == "over", answer
    return list(answer["record"]["actions"])
