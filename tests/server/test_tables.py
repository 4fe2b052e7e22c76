"""A live table in-process: the log is written before anyone hears of a move, and a database
that fails leaves the table as its log says."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tiergarten.server.edge.protocol import Act, SeatSpec
from tiergarten.server.edge.settings import Settings
from tiergarten.server.storage.sql_store import SqlStore
from tiergarten.server.table.connection import Connection
from tiergarten.server.table.features import BotSeats
from tiergarten.server.table.manager import TableManager
from tiergarten.server.table.spec import TableSpec

from .harness import later, run


def drain(conn: Connection) -> list[dict[str, Any]]:
    out = []
    while not conn.outbox.empty():
        text = conn.outbox.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


async def heard(conn: Connection, check: Callable[[dict[str, Any]], bool],
                timeout: float = 10.0) -> list[dict[str, Any]]:
    """What `conn` is sent, in order, up to the first message that passes `check` (waiting
    for it at most `timeout` seconds of the loop's clock)."""
    out: list[dict[str, Any]] = []

    async def read() -> None:
        while True:
            text = await conn.outbox.get()
            if text is not None:
                out.append(json.loads(text))
                if check(out[-1]):
                    return

    try:
        await asyncio.wait_for(read(), timeout)
    except TimeoutError:
        raise AssertionError(f"not heard within {timeout} s; heard {len(out)} messages, the "
                             f"last {out[-2:]}") from None
    return out


async def two_people(tmp_path: Path) -> tuple[TableManager, Any, Connection, Connection]:
    store = SqlStore(tmp_path / "t.db")
    manager = TableManager(store, Settings(allow_seeds=True, seating_every=0))
    table = manager.create(TableSpec(game="maumau", players=2, options={"rounds": 1},
                                     seats=[None, None], seed=3))
    seats = [manager.join(table.id, name)[0] for name in ("Ann", "Bob")]
    assert seats == [0, 1]
    conns = [Connection(0), Connection(1)]
    for conn in conns:
        table.connect(conn)
    for conn in conns:
        drain(conn)
    return manager, table, conns[0], conns[1]


def test_the_log_is_written_before_anyone_hears_of_the_move(tmp_path: Path) -> None:
    async def go() -> None:
        manager, table, ann, bob = await two_people(tmp_path)
        heard_before_commit: list[int] = []
        append = manager.store.append_action

        def spy(table_id: str, index: int, seat: int, notation: str) -> None:
            heard_before_commit.extend(c.outbox.qsize() for c in (ann, bob))
            append(table_id, index, seat, notation)

        manager.store.append_action = spy  # type: ignore[method-assign]
        mover = ann if table.state.legal_actions(0) else bob
        legal = table.state.legal_actions(mover.seat)
        await table.handle(mover, Act(act=legal[0].text, version=0))
        assert heard_before_commit == [0, 0]
        assert [m["version"] for m in drain(ann) if m["type"] == "state"] == [1]
        assert manager.store.load_table(table.id).actions == [(mover.seat, legal[0].text)]
        await manager.stop()
        manager.store.close()

    run(go())


def test_a_failing_database_changes_nothing_and_says_so(tmp_path: Path) -> None:
    async def go() -> None:
        manager, table, ann, bob = await two_people(tmp_path)
        mover = ann if table.state.legal_actions(0) else bob
        before = table.state.observe(mover.seat)

        def broken(*_: object) -> None:
            raise OSError("disk full")

        working = manager.store.append_action
        manager.store.append_action = broken  # type: ignore[method-assign]
        action = table.state.legal_actions(mover.seat)[0].text
        await table.handle(mover, Act(act=action, version=0))
        said = drain(mover)
        assert [m["code"] for m in said] == ["server_error"]
        assert "nothing changed" in said[0]["message"]
        assert drain(ann if mover is bob else bob) == []
        assert table.version == 0 and table.state.observe(mover.seat) == before
        manager.store.append_action = working  # type: ignore[method-assign]
        await table.handle(mover, Act(act=action, version=0))
        assert table.version == 1
        await manager.stop()
        manager.store.close()

    run(go())


def test_seats_open_again_when_someone_leaves_before_the_start(tmp_path: Path) -> None:
    async def go() -> None:
        store = SqlStore(tmp_path / "t.db")
        manager = TableManager(store)
        table = manager.create(TableSpec(game="maumau", players=3,
                                         seats=[SeatSpec(bot="random"), None, None]))
        _, token = manager.join(table.id, "Ann")
        assert table.open_seats() == [2]
        assert table.leave(token) == 1
        assert table.open_seats() == [1, 2] and table.seat_of(token) is None
        assert store.load_table(table.id).seats[1].token_hash is None  # type: ignore[union-attr]
        await manager.stop()
        store.close()

    run(go())


def test_an_act_that_arrives_during_a_commit_waits_and_is_checked_after_it(tmp_path: Path) -> None:
    """Commits run off the event loop; a second act on the same version waits for the first
    one's commit and is then refused as stale: versions go up by one, in order."""

    async def go() -> None:
        manager, table, ann, bob = await two_people(tmp_path)
        append = manager.store.append_action
        told: list[int] = []
        loop = asyncio.get_running_loop()
        committing, go_on = asyncio.Event(), threading.Event()

        def slow(table_id: str, index: int, seat: int, notation: str) -> None:
            loop.call_soon_threadsafe(committing.set)
            assert go_on.wait(10)  # in the store's writer thread: the event loop carries on
            told.extend(c.outbox.qsize() for c in (ann, bob))
            append(table_id, index, seat, notation)

        manager.store.append_action = slow  # type: ignore[method-assign]
        mover = ann if table.state.legal_actions(0) else bob
        legal = [a.text for a in table.state.legal_actions(mover.seat)]
        first = asyncio.create_task(table.handle(mover, Act(act=legal[0], version=0)))
        await asyncio.wait_for(committing.wait(), 10)
        assert table.version == 0 and drain(mover) == []  # committing: nobody told yet
        second = asyncio.create_task(table.handle(mover, Act(act=legal[-1], version=0)))
        for _ in range(5):  # the loop carries on meanwhile; the second act waits for the first
            await asyncio.sleep(0)
        assert not second.done() and not first.done() and drain(mover) == []
        go_on.set()
        await asyncio.gather(first, second)
        assert told == [0, 0]
        said = drain(mover)
        assert [(m["type"], m.get("code"), m["version"]) for m in said] == [
            ("state", None, 1), ("error", "stale", 1)]
        assert manager.store.load_table(table.id).actions == [  # type: ignore[union-attr]
            (mover.seat, legal[0])]
        await manager.stop()
        manager.store.close()

    run(go())


def test_a_table_of_people_never_asks_a_bot(tmp_path: Path) -> None:
    """The bot driver thinks only when a seat due to move is played by a bot."""

    async def go() -> None:
        manager, table, ann, bob = await two_people(tmp_path)
        asked: list[int] = []
        choose = table.feature(BotSeats).driver.choose

        def counting(*args: Any) -> Any:
            asked.append(1)
            return choose(*args)

        table.feature(BotSeats).driver.choose = counting  # type: ignore[union-attr,method-assign]
        for _ in range(3):
            await later(1.0)  # time for the driver to think, if it would
            mover = ann if table.state.legal_actions(0) else bob
            action = table.state.legal_actions(mover.seat)[0].text
            await table.handle(mover, Act(act=action, version=table.version))
        await later(5.0)  # all the table does in the next 5 s, done
        assert table.version == 3 and asked == []
        await manager.stop()
        manager.store.close()

    run(go(), skip_idle=True)
