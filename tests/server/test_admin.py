"""`tiergarten admin` on a real SQLite database, in-process (typer's CliRunner): the tables
as the database knows them, a table closed on purpose (and a server running alone on the
database stopping it at its next check), and clear errors. The commands for several workers
are tests/server/test_admin_cluster.py's."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from tiergarten.cli import app as tiergarten
from tiergarten.server.admin import app as admin
from tiergarten.server.app import create_app
from tiergarten.server.edge.protocol import SeatSpec
from tiergarten.server.edge.settings import Settings
from tiergarten.server.storage import migrate
from tiergarten.server.storage.sql_store import SqlStore
from tiergarten.server.table.closing import CLOSE_CODE
from tiergarten.server.table.manager import TableManager
from tiergarten.server.table.spec import TableSpec

from .harness import run

BOT = SeatSpec(bot="random")


def command(*args: str, env: dict[str, str] | None = None) -> Any:
    """`tiergarten admin ARGS...` in-process: its exit code, stdout and stderr."""
    return CliRunner().invoke(admin, list(args), env=env)


def listed(db: str, *args: str) -> list[dict[str, Any]]:
    done = command("tables", "--db", str(db), "--json", *args)
    assert done.exit_code == 0, done.output
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found


@pytest.fixture
def db(database: str) -> tuple[str, dict[str, str]]:
    """A database (SQLite, PostgreSQL) with an open table, one in play (Ann and a bot) and a
    finished one."""
    path = database

    async def made() -> dict[str, str]:
        store = SqlStore(path)
        manager = TableManager(store, Settings(bot_pace=0, away_after=1e6))
        tables = {"open": manager.create(TableSpec(game="maumau", players=2, seats=[None, None])),
                  "playing": manager.create(TableSpec(game="maumau", players=2,
                                                      seats=[None, BOT]))}
        manager.join(tables["playing"].id, "Ann")
        over = manager.create(TableSpec(game="maumau", players=2, options={"rounds": 1},
                                        seats=[BOT, BOT]))
        while over.status != "over":
            await asyncio.sleep(0.01)
        await manager.stop()
        store.close()
        return {"open": tables["open"].id, "playing": tables["playing"].id, "over": over.id}

    return path, run(made())


def test_tables_lists_what_the_database_knows(db: tuple[str, dict[str, str]]) -> None:
    path, ids = db
    found = {t["id"]: t for t in listed(path)}
    assert set(found) == {ids["open"], ids["playing"]}  # open and playing by default
    opened, playing = found[ids["open"]], found[ids["playing"]]
    assert (opened["status"], opened["people"], opened["seated"], opened["bots"],
            opened["moves"]) == ("open", 2, 0, 0, 0)
    assert (playing["status"], playing["people"], playing["seated"], playing["bots"]) == (
        "playing", 1, 1, 1)
    assert opened["owner"] is None and opened["connected"] is None  # alone: not known here
    every = listed(path, "--status", "all")
    assert {t["status"] for t in every} == {"open", "playing", "over"}
    over = next(t for t in every if t["id"] == ids["over"])
    assert over["moves"] > 0 and over["last_active"] >= over["created"]
    assert [t["id"] for t in listed(path, "--status", "over")] == [ids["over"]]
    assert len(listed(path, "--status", "all", "--limit", "1")) == 1
    shown = command("tables", "--db", str(path), "--status", "all", env={"COLUMNS": "200"})
    assert shown.exit_code == 0 and "3 of 3 tables" in shown.stdout
    assert ids["open"] in shown.stdout and "1/1 +1 bot" in shown.stdout
    through = CliRunner().invoke(tiergarten, ["admin", "tables", "--db", str(path), "--json"])
    assert through.exit_code == 0 and len(json.loads(through.stdout)) == 2


def test_close_closes_an_open_or_playing_table_on_purpose_and_keeps_it(
        db: tuple[str, dict[str, str]]) -> None:
    path, ids = db
    for kind in ("open", "playing"):
        done = command("close", ids[kind], "--db", str(path), "--json")
        assert done.exit_code == 0, done.output
        said = json.loads(done.stdout)
        assert (said["status"], said["close_reason"]) == ("closed", "operator")
    closed = {t["id"]: t for t in listed(path, "--status", "closed")}
    assert set(closed) == {ids["open"], ids["playing"]}
    assert closed[ids["playing"]]["moves"] >= 0 and closed[ids["playing"]]["seated"] == 1
    assert listed(path) == []
    text = command("tables", "--db", str(path), "--status", "closed",
                   env={"COLUMNS": "200"}).stdout
    assert "closed (operator)" in text


def test_clear_errors(db: tuple[str, dict[str, str]], tmp_path: Path) -> None:
    path, ids = db
    for args, code, says in (
            (("close", "nosuchtable", "--db", str(path)), 1, "there is no table 'nosuchtable'"),
            (("close", ids["over"], "--db", str(path)), 1, f"table {ids['over']} is over "
                                                           "already"),
            (("tables", "--db", str(tmp_path / "none.db")), 1, "there is no database at"),
            (("tables", "--db", str(path), "--status", "gone"), 2, "'gone' is not a status"),
            (("drain", "w1"), 2, "`drain` is for a deployment of several workers, and Redis "
                                 "is not configured"),
            (("leases",), 2, "`leases` is for a deployment of several workers"),
            (("workers",), 2, "`workers` is for a deployment of several workers"),
            (("tables", "--db", str(path), "--redis-url", "redis://127.0.0.1:1/0"), 1,
             "Redis does not answer at redis://127.0.0.1:1/0")):
        done = command(*args)
        assert done.exit_code == code, (args, done.output)
        assert done.stderr.startswith("error: ") and says in done.stderr, (args, done.stderr)
        assert done.stderr.count("\n") == 1, done.stderr  # one line
    wrong = command("tables", "--db", str(path), env={"TIERGARTEN_REDIS": "redis://x/0"})
    assert wrong.exit_code == 2  # the settings are checked as serve checks them
    assert "TIERGARTEN_REDIS is not a setting (did you mean TIERGARTEN_REDIS_URL?)" in (
        wrong.stderr)
    closed_twice = command("close", ids["open"], "--db", str(path))
    assert closed_twice.exit_code == 0
    again = command("close", ids["open"], "--db", str(path))
    assert again.exit_code == 1 and "is closed already (operator)" in again.stderr


def test_a_database_of_another_release_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    engine = create_engine(f"sqlite:///{path}")
    migrate.upgrade(engine, "0006")
    done = command("tables", "--db", str(path))
    assert done.exit_code == 1 and "schema is at revision 0006" in done.stderr
    assert migrate.current(engine) == "0006"  # the workers migrate it, not this command
    engine.dispose()


def test_close_with_a_server_running_alone_stops_the_table_at_its_next_check(
        tmp_path: Path) -> None:
    """No Redis: the command closes the table in the database, and the server running on it
    finds it closed at its next check (every 5 s; run at once here): the people at it hear
    so and their connections are closed with 4410."""
    path = tmp_path / "t.db"
    server = create_app(path, Settings(), web=None)
    with TestClient(server, base_url="http://127.0.0.1") as client:
        table = client.post("/api/tables", json={"game": "maumau", "players": 2}).json()["id"]
        token = client.post(f"/api/tables/{table}/join", json={"name": "Ann"}).json()["token"]
        with client.websocket_connect(f"ws://127.0.0.1/ws/{table}",
                                      subprotocols=["tiergarten", f"token.{token}"]) as ws:
            while json.loads(ws.receive_text())["type"] != "state":
                pass  # greeted
            done = command("close", table, "--db", str(path))
            assert done.exit_code == 0, done.output
            assert "a server running alone stops it within 5 s" in done.stdout
            client.portal.call(server.state.expiry.check)  # type: ignore[union-attr]
            said = json.loads(ws.receive_text())
            while said["type"] != "table":
                said = json.loads(ws.receive_text())
            assert said["status"] == "closed"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_text()
            assert closed.value.code == CLOSE_CODE
            assert closed.value.reason == "this table is closed: the server's operator closed it"
        assert table not in server.state.manager.tables
        assert client.get(f"/api/tables/{table}").json()["status"] == "closed"
