"""`tiergarten admin` against a deployment of several workers: a real redis-server on loopback
and two workers as apps in this process on one database (`Apps`), the command in-process
(typer's CliRunner) with the workers' settings; and one real worker process, which an order
to drain stops as SIGTERM does."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from benchmarks.services import Redis
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from tiergarten.server.admin import app as admin
from tiergarten.server.table.closing import CLOSE_CODE

from .cluster import Apps
from .harness import Server, eventually


def command(apps: Apps, *args: str) -> Any:
    """`tiergarten admin ARGS...` with the workers' settings (their database, Redis, prefix)."""
    return CliRunner().invoke(admin, list(args), env={
        "TIERGARTEN_DB": str(apps.db), "TIERGARTEN_REDIS_URL": apps.redis_url,
        "TIERGARTEN_REDIS_PREFIX": apps.prefix, "TIERGARTEN_LEASE_TTL": str(apps.lease_ttl),
        "COLUMNS": "200"})


def said(apps: Apps, *args: str) -> Any:
    done = command(apps, *args, "--json")
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)


def greeted(ws: Any) -> None:
    while json.loads(ws.receive_text())["type"] != "state":
        pass


def test_tables_leases_and_workers_show_who_owns_what(apps: Apps) -> None:
    first, second = apps.clients
    owned = first.post("/api/tables", json={"game": "maumau", "players": 2}).json()["id"]
    first.post(f"/api/tables/{owned}/join", json={"name": "Ann"})  # worker 0 owns it now
    free = second.post("/api/tables", json={"game": "maumau", "players": 2}).json()["id"]
    with first.websocket_connect(f"ws://127.0.0.1/ws/{owned}",
                                 subprotocols=["tiergarten"]) as ws:
        greeted(ws)
        found = {t["id"]: t for t in said(apps, "tables")}
        assert (found[owned]["owner"], found[owned]["connected"]) == (apps.ids[0], 1)
        assert 0 < found[owned]["lease_ms"] <= apps.lease_ttl * 1000
        assert (found[free]["owner"], found[free]["lease_ms"], found[free]["connected"]) == (
            None, None, 0)
        (lease,) = said(apps, "leases")
        assert (lease["table"], lease["worker"], lease["alive"]) == (owned, apps.ids[0], True)
        assert 0 < lease["expires_ms"] <= apps.lease_ttl * 1000
        workers = {w["worker"]: w for w in said(apps, "workers")}
        assert set(workers) == set(apps.ids)
        assert (workers[apps.ids[0]]["leases"], workers[apps.ids[1]]["leases"]) == (1, 0)
        text = command(apps, "tables").stdout
        assert apps.ids[0] in text and "Owner" in text and "Lease" in text
        assert apps.ids[0] in command(apps, "leases").stdout


def test_close_has_the_owner_close_the_table_and_its_connections(apps: Apps) -> None:
    first, _second = apps.clients
    table = first.post("/api/tables", json={"game": "maumau", "players": 2}).json()["id"]
    token = first.post(f"/api/tables/{table}/join", json={"name": "Ann"}).json()["token"]
    with first.websocket_connect(f"ws://127.0.0.1/ws/{table}",
                                 subprotocols=["tiergarten", f"token.{token}"]) as ws:
        greeted(ws)
        done = said(apps, "close", table)
        assert (done["status"], done["close_reason"], done["by"]) == (
            "closed", "operator", f"worker {apps.ids[0]}")
        message = json.loads(ws.receive_text())
        while message["type"] != "table":
            message = json.loads(ws.receive_text())
        assert message["status"] == "closed"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == CLOSE_CODE
    assert table not in first.app.state.manager.tables  # type: ignore[attr-defined]
    assert said(apps, "leases") == []  # let go


def test_close_takes_a_table_nobody_owns_under_its_lease(apps: Apps,
                                                         redis_server: Redis) -> None:
    first, second = apps.clients
    table = first.post("/api/tables", json={"game": "maumau", "players": 2}).json()["id"]
    done = said(apps, "close", table)
    assert done["by"] == "this command (no worker ran the table)"
    client = redis.Redis.from_url(redis_server.url)
    try:
        assert client.get(f"{apps.prefix}:lease:{table}") is None  # given back
    finally:
        client.close()
    assert second.get(f"/api/tables/{table}").json()["status"] == "closed"
    again = command(apps, "close", table)
    assert again.exit_code == 1 and "is closed already (operator)" in again.stderr


def test_drain_has_a_worker_let_go_of_everything(apps: Apps) -> None:
    first, second = apps.clients
    table = second.post("/api/tables", json={"game": "maumau", "players": 2}).json()["id"]
    second.post(f"/api/tables/{table}/join", json={"name": "Ann"})  # worker 1 owns it
    unknown = command(apps, "drain", "nobody")
    assert unknown.exit_code == 1
    assert "no worker 'nobody' is alive; the live workers:" in unknown.stderr
    assert all(w in unknown.stderr for w in apps.ids)
    done = said(apps, "drain", apps.ids[1])
    assert done == {"worker": apps.ids[1], "leases": 1, "drained": True}
    assert second.app.state.manager.draining  # type: ignore[attr-defined]
    assert [w["worker"] for w in said(apps, "workers")] == [apps.ids[0]]
    assert said(apps, "leases") == []  # released: the others take the table when asked
    assert first.get(f"/api/tables/{table}").json()["status"] == "open"
    assert [lease["worker"] for lease in said(apps, "leases")] == [apps.ids[0]]


def test_drain_stops_a_real_worker_as_sigterm_does(redis_server: Redis, tmp_path: Path) -> None:
    db = str(tmp_path / "w.db")
    worker = Server(db, "--redis", redis_server.url, "--worker-id", "drained-1",
                    "--redis-prefix", "tgdrain").start()
    try:
        env = {"TIERGARTEN_DB": db, "TIERGARTEN_REDIS_URL": redis_server.url,
               "TIERGARTEN_REDIS_PREFIX": "tgdrain"}
        done = CliRunner().invoke(admin, ["drain", "drained-1", "--json"], env=env)
        assert done.exit_code == 0, done.output
        assert worker.proc is not None
        started = time.monotonic()
        eventually(lambda: worker.proc is not None and worker.proc.poll() is not None, 20,
                   "the worker exiting after its drain")
        assert time.monotonic() - started < 15
        assert worker.proc.returncode == 0  # it stopped by itself, drained
    finally:
        printed = worker.stop()
    assert "asks this worker to drain" in printed, printed
    assert "Traceback" not in printed, printed
