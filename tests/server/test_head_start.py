"""A head start at a real-time table (issue 34): a person's seat whose presses and hits count
earlier by its head start, never before the cards were on the table; every other seat's hit
waits that long before it is settled. On the skipping loop: the clock is the loop's, no test
sleeps in wall time."""

from __future__ import annotations

from typing import Any

import pytest

from tiergarten.core import OptionError
from tiergarten.server.edge.protocol import Act, Press, SeatSpec
from tiergarten.server.storage.memory_store import MemoryStore
from tiergarten.server.table.connection import Connection
from tiergarten.server.table.manager import TableManager
from tiergarten.server.table.spec import TableSpec, read, settle
from tiergarten.server.table.tables import LiveTable
from tiergarten.server.table.transport import LocalTransport

from .harness import later, run
from .test_parts import people, three_deer
from .test_tables import drain, heard

HEAD_START = 1.0  # Bob's (seat 1)


async def ann_and_bob(store: MemoryStore, seats: list[SeatSpec | None],
                      ) -> tuple[TableManager, LiveTable, list[Connection]]:
    """Seed 11 (three deer after three flips): Ann and Bob in `seats`, connected."""
    return await people("lecker_mammut", store, LocalTransport(), seed=11, seats=seats)


def race(bob_after: float, press: bool = False) -> tuple[list[tuple[int, str]], list[Any]]:
    """Three deer (seed 11); Ann hits at once, Bob (head start 1 s) `bob_after` seconds later
    (pressing the club first and calling 0.3 s after, if `press`). The moves stored after the
    three flips, and the error codes Ann and Bob heard."""
    async def go() -> tuple[list[tuple[int, str]], list[Any]]:
        store = MemoryStore()
        manager, table, (ann, bob) = await ann_and_bob(
            store, [None, SeatSpec(head_start=HEAD_START)])
        await three_deer(table, ann)
        await table.handle(ann, Act(act="hit deer", version=3))
        await later(bob_after)
        if press:
            await table.handle(bob, Press(press=True, version=3))
            await later(0.3)
        await table.handle(bob, Act(act="hit deer", version=3))
        await heard(ann, lambda m: m["type"] == "state" and m["version"] == 4, 10)
        await later(2 * HEAD_START)  # whatever was held has been settled
        await table.settled()
        row = store.load_table(table.id)
        assert row is not None
        codes = [[m["code"] for m in drain(c) if m["type"] == "error"] for c in (ann, bob)]
        await manager.stop()
        store.close()
        return row.actions[3:], codes

    return run(go(), skip_idle=True)


def test_a_hit_within_the_head_start_beats_a_quicker_hand() -> None:
    moves, (ann, bob) = race(0.5)  # Bob's hit counts as made 0.5 s before Ann's
    assert moves == [(1, "hit deer")]
    assert ann == ["void"] and bob == []


def test_a_press_within_the_head_start_beats_a_quicker_hand_however_long_its_call() -> None:
    moves, (ann, bob) = race(0.6, press=True)
    assert moves == [(1, "hit deer")]
    assert ann == ["void"] and bob == []


def test_a_hit_later_than_the_head_start_loses_and_is_void_not_a_mistake() -> None:
    moves, (ann, bob) = race(1.4)
    assert moves == [(0, "hit deer")]
    assert ann == [] and bob == ["void"]


def test_without_a_head_start_the_quicker_hand_wins_at_once() -> None:
    async def go() -> None:
        store = MemoryStore()
        manager, table, (ann, bob) = await ann_and_bob(store, [None, None])
        await three_deer(table, ann)
        await table.handle(ann, Act(act="hit deer", version=3))
        await table.settled()
        assert table.version == 4  # nobody has a head start: nothing is held
        await manager.stop()
        store.close()

    run(go(), skip_idle=True)


def settled(seats: list[SeatSpec | None], game: str = "lecker_mammut") -> TableSpec:
    return settle(TableSpec(game=game, players=2, seats=seats), allow_seeds=False)


def test_a_head_start_is_checked_and_kept() -> None:
    spec = settled([SeatSpec(head_start=1.5), SeatSpec(bot="easy")])
    assert spec.head_starts == [1.5, 0.0]
    assert settled([None, SeatSpec(bot="easy")]).head_starts == []
    for seats, game, words in (
            ([SeatSpec(head_start=1.0)], "maumau", "real-time games"),
            ([None, SeatSpec(bot="easy", head_start=1.0)], "lecker_mammut", "person's seat"),
            ([SeatSpec(head_start=4.0)], "lecker_mammut", "0 to 3 seconds"),
            ([SeatSpec(head_start=-1.0)], "lecker_mammut", "0 to 3 seconds"),
            ([SeatSpec(head_start=float("nan"))], "lecker_mammut", "0 to 3 seconds")):
        with pytest.raises(OptionError, match=words):
            settled(seats, game)


def test_the_table_says_each_seats_head_start_and_a_stored_table_keeps_it() -> None:
    async def go() -> None:
        store = MemoryStore()
        manager, table, (ann, bob) = await ann_and_bob(store, [SeatSpec(head_start=2.0), None])
        eye = Connection(None)
        table.connect(eye)
        told = await heard(eye, lambda m: m["type"] == "table", 5)
        assert told[-1]["head_starts"] == [2.0, 0.0]
        row = store.load_table(table.id)
        assert row is not None and read(row)[0].head_starts == [2.0, 0.0]
        await manager.stop()
        store.close()

    run(go(), skip_idle=True)
