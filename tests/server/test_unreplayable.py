"""A stored table no rules version replays (a corrupted log) is never a 500: every route answers
409 with the reason and the stored moves, a connection is closed with the reason, the server
keeps serving, and `tiergarten records check` lists it (docs/deploy.md, "Upgrades")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

import tiergarten
from tiergarten.server.storage.sql_store import SqlStore
from tiergarten.server.storage.store import SeatRow

from .harness import SRC, Server, run


def stored(db: Path) -> None:
    """Two finished Mau Mau games (one with a corrupted act 3) and one in play (corrupted)."""
    store = SqlStore(str(db))
    game = tiergarten.load("maumau", players=2, rounds=1)
    for table_id, status, corrupt in (("good", "over", False), ("bad", "over", True),
                                      ("badplay", "playing", True)):
        store.create_table(table_id, "maumau", 2, dict(game.options), 7,
                           [SeatRow(0, "bot", bot="random"), SeatRow(1, "bot", bot="random")],
                           rules=game.rules)
        state = game.new_state(7)
        index = 0
        while not state.is_over() and (status == "over" or index < 6):
            seat = state.to_move()[0]
            action = state.legal_actions(seat)[0]
            notation = "play 7z" if corrupt and index == 3 else action.text
            store.append_action(table_id, index, seat, notation)
            state.apply(seat, action)
            index += 1
        store.set_status(table_id, status)
    store.close()


@pytest.fixture
def database(tmp_path: Path) -> Path:
    db = tmp_path / "tiergarten.db"
    stored(db)
    return db


def test_every_route_answers_409_with_the_reason_and_the_stored_moves(database: Path) -> None:
    server = Server(str(database)).start()
    try:
        for path in ("/api/tables/bad", "/api/tables/bad/record", "/api/tables/bad/replay",
                     "/api/tables/badplay"):
            answer = server.get(path)
            assert answer.status_code == 409, (path, answer.text)
            body = answer.json()
            assert body["code"] == "unreplayable"
            assert "record action 3 (" in body["detail"] and "'play 7z'" in body["detail"]
            assert body["table"]["moves"][3][1] == "play 7z"
            assert body["table"]["rules"] == 3
        assert server.get("/api/tables/good/replay").status_code == 200

        async def connect_to_it() -> tuple[int, str]:
            async with connect(f"{server.ws_url}/ws/badplay") as ws:
                try:
                    while True:
                        await ws.recv()
                except ConnectionClosed as closed:
                    assert closed.rcvd is not None
                    return closed.rcvd.code, closed.rcvd.reason
            raise AssertionError("the connection was not closed")

        code, reason = run(connect_to_it())
        assert code == 4409 and "cannot be replayed" in reason
    finally:
        printed = server.stop()
    assert "Traceback" not in printed and "Internal Server Error" not in printed
    assert "table badplay cannot be replayed" in printed  # said once, at recovery


def records_check(db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tiergarten.cli", "records", "check", "--db",
                           str(db)], capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(SRC), "COLUMNS": "100"})


def test_records_check_lists_each_table_that_does_not_replay(database: Path) -> None:
    done = records_check(database)
    assert done.returncode == 1, done.stderr
    assert "table bad (maumau, over) does not replay: record action 3" in done.stdout
    assert "table badplay (maumau, playing) does not replay" in done.stdout
    assert "2 of 3 tables do not replay" in done.stdout


def test_records_check_passes_a_database_whose_tables_all_replay(tmp_path: Path) -> None:
    db = tmp_path / "tiergarten.db"
    stored(db)
    store = SqlStore(str(db))
    with store.engine.begin() as conn:
        conn.exec_driver_sql("DELETE FROM actions WHERE table_id != 'good'")
        conn.exec_driver_sql("DELETE FROM seats WHERE table_id != 'good'")
        conn.exec_driver_sql("DELETE FROM tables WHERE id != 'good'")
    store.close()
    done = records_check(db)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "every one of the 1 tables replays" in done.stdout
