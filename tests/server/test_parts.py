"""The server's parts in-process, fast: the in-memory store and a transport that records.

No sockets and no database: the table log (versions step by one, the store holds an act before
anyone hears of it, a failed commit tells nobody and reads the log back, one whose confirmation
was lost counts), the fair queue (credited order), the bot driver (bots play on after a
rebuild, exactly as they would have), and the real-time rule that only the game says whether
an act is void.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest

import tiergarten
from tiergarten.server.edge.protocol import Act, SeatSpec
from tiergarten.server.edge.settings import Settings
from tiergarten.server.storage.memory_store import MemoryStore
from tiergarten.server.storage.store import SeatRow
from tiergarten.server.table.bot_driver import BotDriver, BotMove
from tiergarten.server.table.connection import Connection
from tiergarten.server.table.fair_queue import FairQueue, Held
from tiergarten.server.table.features import BotSeats
from tiergarten.server.table.manager import TableManager
from tiergarten.server.table.spec import TableSpec
from tiergarten.server.table.table_log import StoreFailed, TableLog
from tiergarten.server.table.tables import LiveTable
from tiergarten.server.table.transport import LocalTransport

from .harness import later, run
from .test_tables import drain, heard


class RecordingTransport(LocalTransport):
    """A local transport that also notes, in a shared list, every state it delivers."""

    def __init__(self, events: list[tuple[str, int]]) -> None:
        super().__init__()
        self.events = events

    def deliver(self, table_id: str, seat: int | None, text: str) -> None:
        self.events.append(("deliver", json.loads(text)["version"]))
        super().deliver(table_id, seat, text)


class RecordingStore(MemoryStore):
    """An in-memory store that notes each append in the same list, and fails on request."""

    def __init__(self, events: list[tuple[str, int]] | None = None) -> None:
        super().__init__()
        self.events = events if events is not None else []
        self.fail_at: set[int] = set()  # action indices refused once
        self.lost_at: set[int] = set()  # ... stored once, but the answer is lost
        self.read_in: list[str] = []  # the threads that read a table back

    def load_table(self, table_id: str) -> Any:
        self.read_in.append(threading.current_thread().name)
        return super().load_table(table_id)

    def append_action(self, table_id: str, index: int, seat: int, notation: str) -> None:
        if index in self.fail_at:
            self.fail_at.discard(index)
            raise OSError("disk full")
        super().append_action(table_id, index, seat, notation)
        self.events.append(("append", index))
        if index in self.lost_at:
            self.lost_at.discard(index)
            raise OSError("connection lost after the commit")


def mover(state: tiergarten.State) -> tuple[int, str]:
    seat = state.to_move()[0]
    return seat, state.legal_actions(seat)[0].text


async def people(game: str, store: MemoryStore, transport: LocalTransport, seed: int = 3,
                 seats: list[SeatSpec | None] | None = None,
                 **settings: Any) -> tuple[TableManager, LiveTable, list[Connection]]:
    """A table of two people (Ann and Bob, in `seats` as given), both connected, their
    greetings drained."""
    settings.setdefault("seating_every", 0)  # each `table` message at once, drained below
    manager = TableManager(store, Settings(allow_seeds=True, **settings), transport)
    table = manager.create(TableSpec(game=game, players=2, options={"rounds": 1},
                                     seats=seats or [None, None], seed=seed))
    for name in ("Ann", "Bob"):
        manager.join(table.id, name)
    conns = [Connection(0), Connection(1)]
    for conn in conns:
        table.connect(conn)
    for conn in conns:
        drain(conn)
    return manager, table, conns


# -- the table log -------------------------------------------------------------------------------

def test_versions_step_by_one_and_a_second_act_on_one_version_waits_and_loses() -> None:
    async def go() -> None:
        store = MemoryStore()
        row = store.create_table("t", "maumau", 2, {"rounds": 1}, 5,
                                 [SeatRow(0, "human"), SeatRow(1, "human")])
        told: list[int] = []
        log = TableLog(row, store, lambda entry: told.append(log.version))
        for expected in range(1, 6):
            assert await log.apply(*mover(log.state), expect=log.version)
            assert log.version == expected
        seat, action = mover(log.state)
        first = asyncio.create_task(log.apply(seat, action, expect=5))
        second = asyncio.create_task(log.apply(seat, action, expect=5))
        assert await asyncio.gather(first, second) == [True, False]
        assert told == [1, 2, 3, 4, 5, 6]
        stored = store.load_table("t")
        assert stored is not None and stored.actions == row.actions
        assert [a for a, _ in stored.actions] == [s for s, _ in log.state.history]
        store.close()

    run(go())


def test_nobody_hears_of_an_act_before_the_store_holds_it() -> None:
    async def go() -> None:
        events: list[tuple[str, int]] = []
        store, transport = RecordingStore(events), RecordingTransport(events)
        manager, table, conns = await people("maumau", store, transport)
        events.clear()
        for _ in range(4):
            seat, action = mover(table.state)
            await table.handle(conns[seat], Act(act=action, version=table.version))
        appends = [i for kind, i in events if kind == "append"]
        assert appends == [0, 1, 2, 3]
        for index in appends:  # every state of version index + 1 after the append of index
            delivered = [n for n, (kind, v) in enumerate(events)
                         if kind == "deliver" and v == index + 1]
            assert delivered and min(delivered) > events.index(("append", index))
        await manager.stop()
        store.close()

    run(go())


def test_a_failed_commit_tells_nobody_and_a_commit_whose_confirmation_was_lost_counts() -> None:
    async def go() -> None:
        events: list[tuple[str, int]] = []
        store, transport = RecordingStore(events), RecordingTransport(events)
        manager, table, conns = await people("maumau", store, transport)
        ann, bob = conns
        seat, action = mover(table.state)
        before = table.state.observe(seat)
        store.fail_at = {0}
        events.clear()
        store.read_in.clear()
        with pytest.raises(StoreFailed, match="nothing changed"):
            await table.log.apply(seat, action)
        assert store.read_in == ["tg-memory_0"]  # read back in the store's thread, not the loop
        assert events == [] and drain(ann) == [] and drain(bob) == []
        assert table.version == 0 and table.state.observe(seat) == before
        stored = store.load_table(table.id)
        assert stored is not None and stored.actions == [] == table.row.actions
        assert await table.log.apply(seat, action)  # the store works again: so does the table
        assert table.version == 1 and ("append", 0) in events
        store.lost_at = {1}  # stored, but the confirmation is lost: the log is read back
        events.clear()
        seat, action = mover(table.state)
        assert await table.log.apply(seat, action)  # ... it holds the act, so the act counts
        assert events == [("append", 1), ("deliver", 2), ("deliver", 2)]  # and all are told
        assert [m["version"] for m in drain(conns[seat]) if m["type"] == "state"] == [1, 2]
        assert table.version == 2 and table.row.actions == store.load_table(table.id).actions  # type: ignore[union-attr]
        await manager.stop()
        store.close()

    run(go())


# -- the fair queue ------------------------------------------------------------------------------

def test_the_fair_queue_settles_in_credited_order_once_nothing_earlier_can_come() -> None:
    async def go() -> None:
        loop = asyncio.get_running_loop()
        settled: list[tuple[int, float]] = []
        all_four = asyncio.Event()

        async def settle(item: Held) -> None:
            settled.append((item.seat, loop.time()))
            await later(0.01)  # a commit: the next one waits for it
            if len(settled) == 4:
                all_four.set()

        window = 0.1
        queue = FairQueue(lambda held: window, settle)
        flip = tiergarten.load("lecker_mammut", players=4).parse_action("flip")
        now = loop.time()
        for seat, credit in ((0, now), (1, now - 0.08), (2, now - 0.05), (3, now - 0.08)):
            queue.hold(credit, seat, flip, 0)  # arrival order 0, 1, 2, 3
        assert settled == []  # seat 1 is 0.08 s old: it waits until 0.1 s have passed
        await asyncio.wait_for(all_four.wait(), 1.0)
        await queue.settled()
        assert [seat for seat, _ in settled] == [1, 3, 2, 0]  # ties: order of arrival
        assert settled[0][1] >= now - 0.08 + window - 0.001
        assert settled[-1][1] >= now + window - 0.001
        await queue.stop()

    run(go(), skip_idle=True)


def test_with_no_window_an_act_is_settled_at_once_and_stop_drops_what_is_held() -> None:
    async def go() -> None:
        settled: list[int] = []

        async def settle(item: Held) -> None:
            settled.append(item.seat)

        window = 0.0
        queue = FairQueue(lambda held: window, settle)
        flip = tiergarten.load("lecker_mammut", players=2).parse_action("flip")
        queue.hold(asyncio.get_running_loop().time(), 0, flip, 0)
        await queue.settled()
        assert settled == [0]
        window = 5.0
        queue.hold(asyncio.get_running_loop().time(), 1, flip, 0)
        await queue.stop()
        await later(2 * window)  # long past its window: a dropped act is never settled
        assert settled == [0]

    run(go(), skip_idle=True)


# -- real time: the queue orders, the game judges ------------------------------------------------

async def three_deer(table: LiveTable, ann: Connection) -> None:
    """Seed 11 (docs/games/lecker_mammut.md): seat 0 flips three deer, version 3."""
    for version in range(3):
        await table.handle(ann, Act(act="flip", version=version))
        await table.settled()
    assert table.version == 3


def test_the_earlier_credited_hit_counts_and_the_game_voids_the_other() -> None:
    async def go() -> None:
        store = MemoryStore()
        manager, table, (ann, bob) = await people("lecker_mammut", store, LocalTransport(),
                                                  seed=11, hit_cap=0.2)
        await three_deer(table, ann)
        await later(0.02)
        bob.rtts.append(0.4)  # measured by pings: credited 0.2 s early
        await table.handle(ann, Act(act="hit deer", version=3))
        await later(0.05)
        await table.handle(bob, Act(act="hit deer", version=3))  # later, but credited earlier
        told = await heard(ann, lambda m: m["type"] == "error")  # both settled, Ann's last
        await table.settled()
        assert store.load_table(table.id).actions[3:] == [(1, "hit deer")]  # type: ignore[union-attr]
        errors = [m for m in told + drain(ann) if m["type"] == "error"]
        assert [e["code"] for e in errors] == ["void"] and errors[0]["version"] == 4
        assert table.state.observe(None)["penalties"] == [0, 0]
        await manager.stop()
        store.close()

    run(go(), skip_idle=True)


def test_an_act_on_an_older_version_counts_unless_the_game_says_it_is_void() -> None:
    """After someone's mistake (version 3 -> 4) the flipper's flip made on version 3 still
    flips; a second flip made on that same sight is void, and so is a hit made before a good
    hit."""

    async def go() -> None:
        store = MemoryStore()
        manager, table, (ann, bob) = await people("lecker_mammut", store, LocalTransport(),
                                                  seed=11)
        await three_deer(table, ann)
        await table.handle(bob, Act(act="hit boar", version=3))  # a mistake: version 4
        await table.settled()
        await table.handle(ann, Act(act="flip", version=3))  # made before the mistake
        await table.settled()
        assert table.version == 5 and str(table.state.history[-1][1]) == "flip"
        await table.handle(ann, Act(act="flip", version=4))  # before her own flip: void
        await table.handle(bob, Act(act="hit deer", version=5))  # good: version 6
        await table.settled()
        await table.handle(ann, Act(act="hit deer", version=5))  # too late: void at once
        assert table.version == 6
        assert [m["code"] for m in drain(ann) if m["type"] == "error"] == ["void", "void"]
        assert [m["code"] for m in drain(bob) if m["type"] == "error"] == []
        assert table.state.observe(None)["penalties"] == [0, 1]
        await manager.stop()
        store.close()

    run(go())


# -- the bot driver ------------------------------------------------------------------------------

def bots_game(store: MemoryStore, seed: int) -> list[tuple[int, str]]:
    """A whole Mau Mau game of two seeded bots at pace 0, as the store holds it."""

    async def go() -> list[tuple[int, str]]:
        manager = TableManager(store, Settings(allow_seeds=True, bot_pace=0))
        table = manager.create(TableSpec(
            game="maumau", players=2, options={"rounds": 1},
            seats=[SeatSpec(bot="random"), SeatSpec(bot="random")], seed=seed))
        eye = Connection(None)  # a spectator: told when the game is over
        table.connect(eye)
        await heard(eye, lambda m: m["type"] == "table" and m["status"] == "over", 60)
        assert table.status == "over"
        await manager.stop()
        stored = store.load_table(table.id)
        assert stored is not None
        return stored.actions

    return run(go(), skip_idle=True)


def test_bots_play_on_after_a_failed_commit_exactly_as_they_would_have(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(BotDriver, "RETRY", 0.01)
    undisturbed = bots_game(MemoryStore(), seed=8)
    store = RecordingStore()
    store.fail_at = {3}  # a move the database refuses: the table is rebuilt without it
    store.lost_at = {10}  # ... one it stores but cannot confirm: rebuilt with it
    assert bots_game(store, seed=8) == undisturbed
    assert len(undisturbed) > 10


def test_a_bot_move_the_game_refuses_on_a_table_that_moved_on_is_dropped_and_chosen_again(
        caplog: pytest.LogCaptureFixture) -> None:
    """Seat 0 is a bot and flips; the person at seat 1 makes mistakes, each of which takes the
    bot's next card. With one card left the bot flips; the person's next mistake, credited
    earlier, takes that card first: the flip is no longer the bot's (not void — no visible card
    changed — but illegal). It is dropped quietly and the bot chooses again."""

    async def go() -> list[int]:
        store = MemoryStore()
        manager = TableManager(store, Settings(allow_seeds=True, hit_cap=0.2))
        table = manager.create(TableSpec(game="lecker_mammut", players=2, options={"rounds": 1},
                                         seats=[SeatSpec(bot="slow"), None], seed=11))
        asked: list[int] = []
        loop = asyncio.get_running_loop()
        chose_again = asyncio.Event()  # the bot's turn on the table its flip could not change

        def choose(_seats: object, state: Any, _now: float) -> BotMove | None:
            asked.append(len(state.history))
            if len(state.history) == 25:
                loop.call_soon_threadsafe(chose_again.set)
            if len(state.history) != 24:
                return None
            return BotMove(0, state.game.parse_action("flip"), 0.3)

        table.feature(BotSeats).driver.choose = choose  # type: ignore[union-attr,method-assign]
        manager.join(table.id, "Ann")
        ann = Connection(1)
        table.connect(ann)
        for version in range(24):  # 24 mistakes: the bot keeps one card of its 25
            await table.handle(ann, Act(act="hit boar", version=version))
            await table.settled()
        assert table.state.observe(None)["face_down"] == [1, 24]
        ann.rtts.append(0.4)  # from now on credited 0.2 s early: the window is 0.2 s
        await later(table.log.reached_at(24) + 0.35 - loop.time())
        await table.handle(ann, Act(act="hit boar", version=24))  # after the bot's flip fired
        # the flip is held until its window has passed, then dropped: only then (its move
        # settled) the bot is asked again
        await asyncio.wait_for(chose_again.wait(), 5.0)
        await table.settled()
        stored = store.load_table(table.id)
        assert stored is not None and [a for _, a in stored.actions] == ["hit boar"] * 25
        assert [m["code"] for m in drain(ann) if m["type"] == "error"] == []
        await manager.stop()
        store.close()
        return asked

    asked = run(go(), skip_idle=True)
    assert 25 in asked  # it chose again on the table as it is
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
