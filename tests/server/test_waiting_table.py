"""A table waiting for people shows no game yet: its `state` messages carry no log and no
moves (the deal's entries, "… is to open the next herd", come when the game starts)."""

from __future__ import annotations

from pathlib import Path

from tiergarten.server.edge.protocol import SeatSpec
from tiergarten.server.edge.settings import Settings
from tiergarten.server.storage.sql_store import SqlStore
from tiergarten.server.table.connection import Connection
from tiergarten.server.table.manager import TableManager
from tiergarten.server.table.spec import TableSpec

from .harness import run
from .test_tables import drain, heard


def test_a_waiting_table_sends_no_log_until_the_game_starts(tmp_path: Path) -> None:
    async def go() -> None:
        store = SqlStore(tmp_path / "t.db")
        manager = TableManager(store, Settings(seating_every=0))
        table = manager.create(TableSpec(game="mammuz", players=3,
                                         seats=[SeatSpec(bot="random"), None, None]))
        assert manager.join(table.id, "Ann")[0] == 1
        ann = Connection(1)
        table.connect(ann)
        states = [m for m in drain(ann) if m["type"] == "state"]
        assert states and all(m["log"] == [] and m["legal"] == [] and m["events"] == []
                              and m["log_from"] == 0 for m in states), states
        manager.join(table.id, "Bob")  # the last seat: the game starts
        started = (await heard(ann, lambda m: m["type"] == "state" and m["log"] != []))[-1]
        assert started["log_from"] == 0 and started["log"][0]["act"] == "start"
        await manager.stop()
        store.close()

    run(go())
