"""In a deployment of several workers an idle open table is closed once (table/expiry.py):
by its owner if a worker owns it, else by the first worker whose check takes its lease.

Two workers as apps in this process (`Apps`) on one database and one real redis-server on
loopback; each worker's check is run at once, side by side, with its clock half an hour on.
"""

from __future__ import annotations

import datetime as dt
import json
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from benchmarks.services import Redis
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tiergarten.server.edge.metrics import CLOSED_TABLES
from tiergarten.server.storage.store import Store
from tiergarten.server.table.closing import CLOSE_CODE

from .cluster import Apps
from .harness import eventually

LATER = dt.timedelta(minutes=31)  # past the default half an hour


def store_of(client: TestClient) -> Store:
    found: Store = client.app.state.manager.store  # type: ignore[attr-defined]
    return found


def checks(clients: list[TestClient]) -> list[int]:
    """Every worker's check at once (each on its own loop), its clock half an hour on."""
    for client in clients:
        client.app.state.expiry.now = lambda: dt.datetime.now(dt.UTC) + LATER  # type: ignore[attr-defined]
    with ThreadPoolExecutor(len(clients)) as pool:
        return list(pool.map(lambda c: c.portal.call(c.app.state.expiry.check),  # type: ignore[attr-defined, union-attr]
                             clients))


def expired() -> float:
    return float(CLOSED_TABLES.labels(reason="expired")._value.get())


def test_a_table_nobody_owns_is_closed_by_one_worker_once(apps: Apps,
                                                          redis_server: Redis) -> None:
    first, _second = apps.clients
    made = first.post("/api/tables", json={"game": "maumau", "players": 2})
    table = made.json()["id"]
    leases = redis.Redis.from_url(redis_server.url)
    try:
        assert leases.get(f"{apps.prefix}:lease:{table}") is None  # nobody came: nobody owns
        before = expired()
        done = checks(apps.clients)
        assert sorted(done) in ([0, 1], [0, 0]), done  # ([0, 0]: a periodic check was first)
        assert expired() == before + 1  # closed once, by one of them
        row = store_of(first).load_table(table)
        assert row is not None and (row.status, row.close_reason) == ("closed", "expired")
        assert leases.get(f"{apps.prefix}:lease:{table}") is None  # let go again
        assert first.get("/api/tables").json() == []
        for client in apps.clients:
            assert client.get(f"/api/tables/{table}").json()["status"] == "closed"
            assert client.post(f"/api/tables/{table}/join",
                               json={"name": "Ann"}).status_code == 409
            with client.websocket_connect(f"ws://127.0.0.1/ws/{table}",
                                          subprotocols=["tiergarten"]) as ws:
                assert json.loads(ws.receive_text())["code"] == "closed"
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_text()
                assert closed.value.code == CLOSE_CODE
        eventually(lambda: leases.get(f"{apps.prefix}:lease:{table}") is None, 5,
                   "the closed table's lease let go (shown, never kept)")
        assert checks(apps.clients) == [0, 0]
    finally:
        leases.close()


def test_a_table_a_worker_owns_is_closed_by_that_worker_alone(apps: Apps,
                                                              redis_server: Redis) -> None:
    first, second = apps.clients
    table = first.post("/api/tables", json={"game": "maumau", "players": 2}).json()["id"]
    assert first.post(f"/api/tables/{table}/join", json={"name": "Ann"}).status_code == 200
    leases = redis.Redis.from_url(redis_server.url)
    try:
        owner = leases.get(f"{apps.prefix}:lease:{table}")
        assert owner is not None and owner.decode() == apps.ids[0]  # the join made it its own
        second.app.state.expiry.now = lambda: dt.datetime.now(dt.UTC) + LATER  # type: ignore[attr-defined]
        assert second.portal.call(second.app.state.expiry.check) == 0  # type: ignore[attr-defined, union-attr]
        assert store_of(second).load_table(table).status == "open"  # type: ignore[union-attr]
        before = expired()
        checks([first])
        assert expired() == before + 1
        assert store_of(first).load_table(table).status == "closed"  # type: ignore[union-attr]
        assert table not in first.app.state.manager.tables  # type: ignore[attr-defined]
    finally:
        leases.close()
