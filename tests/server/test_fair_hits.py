"""Fair first hits at real-time tables: acts are credited at arrival minus half the measured
round trip (capped), and a slower hand landing on a faster one is void, never a mistake.

Simulated clients of different latencies play Lecker Mammut over real websockets on loopback:
a laggy client answers the server's pings late (so its round trip is measured long) and its
hits are sent at chosen wall-clock moments. Every race is decided by a margin of 200 ms, so a
loaded machine does not change who wins.

Seed 11, two players, one round: seat 0 flips red-deer, orange-deer and blue-deer, so after
three flips (version 3) `hit deer` is a good hit (docs/games/lecker_mammut.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

import tiergarten
from tiergarten.server.edge.protocol import Act, SeatSpec
from tiergarten.server.edge.settings import Settings
from tiergarten.server.storage.sql_store import SqlStore
from tiergarten.server.table.bot_driver import BotMove
from tiergarten.server.table.connection import Connection
from tiergarten.server.table.features import BotSeats
from tiergarten.server.table.manager import TableManager
from tiergarten.server.table.spec import TableSpec

from .harness import Message, Server, run
from .test_tables import drain

CAP = 0.4  # the test server's --hit-cap: large, so every race is decided by 200 ms
PING_EVERY = 0.3
CALL_WINDOW = 1.5  # the test server's --call-window
SEED = 11


@pytest.fixture(scope="module")
def fair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("fair") / "tiergarten.db"
    srv = Server(str(db), "--bot-pace", "0", "--allow-seeds", "--rate", "200", "--burst", "50",
                 "--ping-every", str(PING_EVERY), "--hit-cap", str(CAP),
                 "--call-window", str(CALL_WINDOW)).start()
    yield srv
    printed = srv.stop()
    assert "Traceback" not in printed, printed


class Player:
    """A websocket client with an artificial round trip: it answers each ping `lag` seconds
    late (or never). A background task reads and keeps every message."""

    def __init__(self, ws: ClientConnection, lag: float | None) -> None:
        self.ws, self.lag = ws, lag
        self.received: list[Message] = []
        self._reader = asyncio.create_task(self._read())
        self._pongs: set[asyncio.Task[None]] = set()

    @classmethod
    async def open(cls, server: Server, table: str, token: str | None,
                   lag: float | None = 0.0) -> Player:
        url = f"{server.ws_url}/ws/{table}" + (f"?token={token}" if token else "")
        return cls(await connect(url), lag)

    async def _read(self) -> None:
        from tiergarten.server.edge.protocol import SERVER_MESSAGES

        with contextlib.suppress(Exception):
            async for raw in self.ws:
                message = json.loads(raw)
                SERVER_MESSAGES[message["type"]].model_validate(message)
                self.received.append(message)
                if message["type"] == "ping" and self.lag is not None:
                    task = asyncio.create_task(self._pong(message["id"]))
                    self._pongs.add(task)
                    task.add_done_callback(self._pongs.discard)

    async def _pong(self, ping_id: int) -> None:
        await asyncio.sleep(self.lag or 0.0)
        with contextlib.suppress(Exception):
            await self.send({"pong": ping_id})

    async def send(self, data: Any) -> None:
        await self.ws.send(data if isinstance(data, str) else json.dumps(data))

    async def until(self, check: Callable[[Message], bool], timeout: float = 10.0) -> Message:
        deadline = time.monotonic() + timeout
        seen = 0
        while time.monotonic() < deadline:
            for message in self.received[seen:]:
                if check(message):
                    return message
            seen = len(self.received)
            await asyncio.sleep(0.005)
        raise AssertionError(f"no such message in time; last: {self.received[-3:]}")

    async def at_version(self, version: int) -> Message:
        return await self.until(lambda m: m["type"] == "state" and m["version"] == version)

    async def measured(self, least: float) -> float:
        """Wait until the server reports a smoothed round trip of at least `least`."""
        ping = await self.until(lambda m: m["type"] == "ping" and m["rtt"] is not None
                                and m["rtt"] >= least)
        return float(ping["rtt"])

    def errors(self) -> list[Message]:
        return [m for m in self.received if m["type"] == "error"]

    async def close(self) -> None:
        for task in list(self._pongs):
            task.cancel()
        await self.ws.close()
        self._reader.cancel()
        with contextlib.suppress(BaseException):
            await self._reader


def two_people(server: Server, game: str = "lecker_mammut") -> tuple[str, str, str]:
    options = {"rounds": 1}
    table = server.create(game=game, players=2, options=options, seed=SEED)["id"]
    return table, server.join(table, "Ann")[1], server.join(table, "Bob")[1]


async def three_deer(flipper: Player, other: Player) -> None:
    """Seat 0 flips three cards: three deer are showing at version 3."""
    for version in range(3):
        await flipper.at_version(version)
        await flipper.send({"act": "flip", "version": version})
    await flipper.at_version(3)
    await other.at_version(3)


@pytest.mark.parametrize(("late_by", "winner"), [(0.2, "slow"), (0.6, "fast")])
def test_the_earliest_credited_hit_wins_and_the_other_is_void(
        fair: Server, late_by: float, winner: str) -> None:
    """A client with a 0.8 s round trip (credited 0.4 s early) that hits 0.2 s of wall time
    after a fast client was 0.2 s earlier in its own time: its hit counts, the fast one is
    void. Hitting 0.6 s later it is 0.2 s too late: the fast hit counts."""
    table, t0, t1 = two_people(fair)

    async def go() -> tuple[Message, Message, Message]:
        fast = await Player.open(fair, table, t0, lag=0.0)
        slow = await Player.open(fair, table, t1, lag=0.8)
        await three_deer(fast, slow)
        assert await slow.measured(0.75) < 1.5
        assert await fast.measured(0.0) < 0.2
        await fast.send({"act": "hit deer", "version": 3})
        await asyncio.sleep(late_by)
        await slow.send({"act": "hit deer", "version": 3})
        first, second = (slow, fast) if winner == "slow" else (fast, slow)
        applied = await first.at_version(4)
        void = await second.until(lambda m: m["type"] == "error")
        await asyncio.sleep(0.6)  # nothing more happens: the void hit changed nothing
        final = [m for m in first.received if m["type"] == "state"][-1]
        assert second.errors() == [void] and first.errors() == []
        for p in (fast, slow):
            await p.close()
        return applied, void, final

    applied, void, final = run(go())
    won = 1 if winner == "slow" else 0
    assert applied["events"][-1]["act"] == "hit" and applied["events"][-1]["seat"] == won
    assert void["code"] == "void" and void["version"] == 4
    assert "did not count" in void["message"] and "nothing changed" in void["message"]
    observation = final["observation"]
    assert final["version"] == 4
    assert observation["penalties"] == [0, 0]  # the late hand is not a mistake
    assert [c["seat"] for c in observation["choosing"]] == [won]
    assert not any(e["act"] == "mistake" for e in observation["log"])


def test_the_cap_limits_what_a_slow_or_lying_client_gains(fair: Server) -> None:
    """A client that answers pings 1.6 s late would be credited 0.8 s early without the cap;
    with the cap (0.4 s) its hit 0.6 s after a fast one is still 0.2 s too late."""
    table, t0, t1 = two_people(fair)

    async def go() -> tuple[float, Message]:
        fast = await Player.open(fair, table, t0, lag=0.0)
        liar = await Player.open(fair, table, t1, lag=1.6)
        await three_deer(fast, liar)
        rtt = await liar.measured(1.5)
        await fast.send({"act": "hit deer", "version": 3})
        await asyncio.sleep(0.6)
        await liar.send({"act": "hit deer", "version": 3})
        applied = await fast.at_version(4)
        assert applied["events"][-1] == {**applied["events"][-1], "act": "hit", "seat": 0}
        void = await liar.until(lambda m: m["type"] == "error")
        for p in (fast, liar):
            await p.close()
        return rtt, void

    rtt, void = run(go())
    assert rtt / 2 - CAP >= 0.3  # uncapped, the liar would have won by 0.2 s
    assert void["code"] == "void"


def test_an_act_on_an_old_version_is_void_at_once_and_one_from_the_future_is_stale(
        fair: Server) -> None:
    table, t0, t1 = two_people(fair)

    async def go() -> list[Message]:
        ann = await Player.open(fair, table, t0, lag=None)  # never answers: credited at arrival
        bob = await Player.open(fair, table, t1, lag=None)
        await three_deer(ann, bob)
        await ann.send({"act": "hit deer", "version": 3})
        await ann.at_version(4)
        await bob.at_version(4)
        await bob.send({"act": "hit deer", "version": 3})
        await bob.send({"act": "hit deer", "version": 9})
        await bob.until(lambda m: m["type"] == "error" and m["code"] == "stale")
        pings = [m for m in ann.received if m["type"] == "ping"]
        assert pings and all(m["rtt"] is None for m in pings)
        errors = bob.errors()
        state = [m for m in bob.received if m["type"] == "state"][-1]
        for p in (ann, bob):
            await p.close()
        assert state["observation"]["penalties"] == [0, 0]
        return errors

    assert [e["code"] for e in run(go())] == ["void", "stale"]


def test_pongs_are_checked_and_an_unknown_id_is_ignored(fair: Server) -> None:
    table, t0, _ = two_people(fair)

    async def go() -> list[Message]:
        ann = await Player.open(fair, table, t0, lag=None)
        ping = await ann.until(lambda m: m["type"] == "ping")
        assert ping["id"] == 1 and isinstance(ping["t"], float) and ping["rtt"] is None
        await ann.send({"pong": 10_000})  # never sent: ignored, no answer
        await ann.send({"pong": -1})
        await ann.send({"pong": "1"})
        await ann.send({"pong": 1, "extra": True})
        await ann.until(lambda m: len([e for e in ann.received if e["type"] == "error"]) == 3)
        await ann.send({"pong": ping["id"]})
        await ann.until(lambda m: m["type"] == "ping" and m["rtt"] is not None)
        await ann.close()
        return ann.errors()

    errors = run(go())
    assert [e["code"] for e in errors] == ["bad_message"] * 3
    assert all('{"pong": id}' in e["message"] for e in errors)


def test_turn_based_tables_are_not_pinged_and_keep_the_stale_check(fair: Server) -> None:
    table, t0, t1 = two_people(fair, "maumau")

    async def go() -> list[Message]:
        ann = await Player.open(fair, table, t0)
        bob = await Player.open(fair, table, t1)
        state = await ann.at_version(0)
        mover = ann if state["legal"] else bob
        legal = (await mover.at_version(0))["legal"]
        await asyncio.sleep(3 * PING_EVERY)  # a real-time table would have pinged by now
        await mover.send({"act": legal[0], "version": 0})
        await mover.at_version(1)
        await mover.send({"act": legal[0], "version": 0})
        await mover.until(lambda m: m["type"] == "error")
        received = ann.received + bob.received
        for p in (ann, bob):
            await p.close()
        return received

    received = run(go())
    assert not any(m["type"] == "ping" for m in received)
    assert [m["code"] for m in received if m["type"] == "error"] == ["stale"]


# -- bots on the same clock (in-process: the bot's move is scripted) --------------------------

def test_a_bot_move_joins_the_same_order(tmp_path: Path) -> None:
    """The bot (seat 1) hits 0.3 s after the three deer appear; the person (seat 0, a 0.8 s
    round trip: credited 0.4 s early) whose hit arrives 0.4 s after is credited at 0 s: the
    person wins and the bot's hit is void. Arriving at 1.0 s (credited at 0.6 s) the person's
    hit is void and the bot's counts."""

    async def race(arrive: float) -> tuple[list[Any], list[str]]:
        store = SqlStore(tmp_path / f"bots{arrive}.db")
        manager = TableManager(store, Settings(allow_seeds=True, bot_pace=1.0, hit_cap=CAP))
        table = manager.create(TableSpec(game="lecker_mammut", players=2, options={"rounds": 1},
                                         seats=[None, SeatSpec(bot="slow")], seed=SEED))

        def choose(_seats: object, state: Any, _now: float) -> BotMove | None:
            if len(state.history) != 3:
                return None
            return BotMove(1, state.game.parse_action("hit deer"), 0.3)

        table.feature(BotSeats).driver.choose = choose  # type: ignore[union-attr,method-assign]
        manager.join(table.id, "Ann")
        person = Connection(0)
        table.connect(person)
        for version in range(3):
            await table.handle(person, Act(act="flip", version=version))
            await table.settled()  # applied in its own task, committed in the writer thread
        assert table.version == 3  # nobody measured slow: applied at once, no window
        person.rtts.append(0.8)  # as measured by pings
        seen = table.log.reached_at(3)
        await asyncio.sleep(seen + arrive - asyncio.get_running_loop().time())
        await table.handle(person, Act(act="hit deer", version=3))
        await asyncio.sleep(seen + 1.6 - asyncio.get_running_loop().time())
        actions = list(manager.store.load_table(table.id).actions)  # type: ignore[union-attr]
        errors = [m["code"] for m in drain(person) if m["type"] == "error"]
        assert table.state.observe(0)["penalties"] == [0, 0]
        await manager.stop()
        store.close()
        return actions, errors

    actions, errors = run(race(0.4))
    assert actions[3:] == [(0, "hit deer")] and errors == []
    actions, errors = run(race(1.0))
    assert actions[3:] == [(1, "hit deer")] and errors == ["void"]


def test_whole_games_between_bots_and_records_replay(fair: Server) -> None:
    """A real-time table of bots still plays to its end and its log replays."""
    table = fair.create(game="lecker_mammut", players=2, options={"rounds": 1},
                        seats=[{"bot": "fast"}, {"bot": "hard"}], seed=5)["id"]

    async def watch() -> None:
        eye = await Player.open(fair, table, None)
        await eye.until(lambda m: m["type"] == "table" and m["status"] == "over", 60)
        await eye.close()

    run(watch())
    done = fair.get(f"/api/tables/{table}/record").json()
    assert tiergarten.replay(done["record"]).is_over()


# -- press, then call: the club is the moment of the hit -----------------------------------------

def penalties(player: Player) -> list[int]:
    last = [m for m in player.received if m["type"] == "state"][-1]
    return list(last["observation"]["penalties"])


@pytest.mark.parametrize(("lag", "press_gap"), [(None, 0.2), (0.8, 0.2)])
def test_the_first_press_wins_though_its_call_comes_last(
        fair: Server, lag: float | None, press_gap: float) -> None:
    """The race of the issue: Bob presses the club first, Ann presses `press_gap` later and
    calls at once, Bob calls 0.5 s after his press. Bob's hit counts (from his press); Ann's
    is void, not a mistake. With lag 0.8 Bob's round trip is 0.8 s: his press is credited
    0.4 s early, so he presses 0.2 s after Ann in wall time and is still first."""
    table, t0, t1 = two_people(fair)

    async def go() -> tuple[Message, list[Message], list[int]]:
        ann = await Player.open(fair, table, t0, lag=None if lag is None else 0.0)
        bob = await Player.open(fair, table, t1, lag=lag)
        await three_deer(ann, bob)
        if lag is not None:
            await bob.measured(0.75)
        first, second = (ann, bob) if lag is not None else (bob, ann)
        await first.send({"press": True, "version": 3})
        await asyncio.sleep(press_gap)
        await second.send({"press": True, "version": 3})
        await ann.send({"act": "hit deer @3", "version": 3})
        await asyncio.sleep(0.5)
        await bob.send({"act": "hit deer @3", "version": 3})
        applied = await bob.at_version(4)
        await ann.until(lambda m: m["type"] == "error")
        await asyncio.sleep(0.3)
        errors = ann.errors() + bob.errors()
        result = penalties(ann)
        for p in (ann, bob):
            await p.close()
        return applied, errors, result

    applied, errors, result = run(go())
    assert applied["events"][-1]["act"] == "hit" and applied["events"][-1]["seat"] == 1
    assert [e["code"] for e in errors] == ["void"]  # Ann's, and nothing for Bob
    assert result == [0, 0]


def test_a_call_after_an_earlier_press_took_the_cards_is_void_at_once(fair: Server) -> None:
    """Ann presses and calls; Bob presses on the table he saw (version 3) after Ann's hit was
    applied and calls: void at once, no penalty."""
    table, t0, t1 = two_people(fair)

    async def go() -> tuple[list[Message], list[int]]:
        ann = await Player.open(fair, table, t0, lag=None)
        bob = await Player.open(fair, table, t1, lag=None)
        await three_deer(ann, bob)
        await ann.send({"press": True, "version": 3})
        await ann.send({"act": "hit deer @3", "version": 3})
        await bob.at_version(4)
        await bob.send({"press": True, "version": 3})
        await bob.send({"act": "hit deer @3", "version": 3})
        await bob.until(lambda m: m["type"] == "error")
        await asyncio.sleep(0.3)
        errors, result = bob.errors(), penalties(bob)
        for p in (ann, bob):
            await p.close()
        return errors, result

    errors, result = run(go())
    assert [e["code"] for e in errors] == ["void"] and result == [0, 0]


def test_a_press_with_a_wrong_call_is_a_mistake(fair: Server) -> None:
    table, t0, t1 = two_people(fair)

    async def go() -> Message:
        ann = await Player.open(fair, table, t0, lag=None)
        bob = await Player.open(fair, table, t1, lag=None)
        await three_deer(ann, bob)
        await bob.send({"press": True, "version": 3})
        await bob.send({"act": "hit bear @3", "version": 3})
        state = await bob.at_version(4)
        for p in (ann, bob):
            await p.close()
        return state

    state = run(go())
    assert state["events"][-1]["act"] == "mistake" and state["observation"]["penalties"] == [0, 1]


@pytest.mark.parametrize("withdrawn", [False, True])
def test_a_press_without_a_call_is_a_mistake_and_holds_the_line_only_so_long(
        fair: Server, withdrawn: bool) -> None:
    """Bob presses and never calls: Ann's hit, pressed later, waits for Bob's call at most the
    call window (or until Bob says no call comes), then counts; Bob's press is a mistake
    (rules 3: the press is a commitment), applied before Ann's hit."""
    table, t0, t1 = two_people(fair)

    async def go() -> tuple[float, list[int], list[Message], list[str]]:
        ann = await Player.open(fair, table, t0, lag=None)
        bob = await Player.open(fair, table, t1, lag=None)
        await three_deer(ann, bob)
        await bob.send({"press": True, "version": 3})
        await asyncio.sleep(0.1)
        start = time.monotonic()
        await ann.send({"act": "hit deer @3", "version": 3})
        if withdrawn:
            await asyncio.sleep(0.3)
            await bob.send({"press": False, "version": 3})
        applied = await ann.at_version(5)
        waited = time.monotonic() - start
        assert applied["events"][-1]["seat"] == 0
        acts = [e["act"] for m in ann.received if m["type"] == "state" and m["version"] > 3
                for e in m["events"]]
        errors = ann.errors() + bob.errors()
        result = penalties(ann)
        for p in (ann, bob):
            await p.close()
        return waited, result, errors, acts

    waited, result, errors, acts = run(go())
    assert result == [0, 1] and errors == [] and acts == ["miss", "hit"]
    if withdrawn:
        assert 0.25 < waited < 0.3 + CALL_WINDOW / 2
    else:
        assert CALL_WINDOW - 0.15 < waited < CALL_WINDOW + 1.0


def test_a_press_with_nothing_to_call_is_a_mistake_at_once_and_its_call_does_not_count(
        fair: Server) -> None:
    """Bob presses on the table before the third deer: a mistake at once, which holds up
    nobody (Ann's flip follows at once); his call after it is void: one press, one penalty."""
    table, t0, t1 = two_people(fair)

    async def go() -> tuple[list[str], list[Message], list[int]]:
        ann = await Player.open(fair, table, t0, lag=None)
        bob = await Player.open(fair, table, t1, lag=None)
        await ann.at_version(0)
        await bob.at_version(0)
        await bob.send({"press": True, "version": 0})
        await bob.send({"act": "hit deer @0", "version": 0})
        await bob.until(lambda m: m["type"] == "error")
        await ann.send({"act": "flip", "version": 1})
        await ann.at_version(2)
        acts = [e["act"] for m in ann.received if m["type"] == "state" for e in m["events"]]
        errors, result = bob.errors(), penalties(ann)
        for p in (ann, bob):
            await p.close()
        return acts, errors, result

    acts, errors, result = run(go())
    assert acts == ["miss", "flip"] and result == [0, 1]
    assert [e["code"] for e in errors] == ["void"] and "judged by itself" in errors[0]["message"]


def test_a_press_is_for_real_time_tables(fair: Server) -> None:
    table, t0, _ = two_people(fair, "maumau")

    async def go() -> list[Message]:
        ann = await Player.open(fair, table, t0)
        hello = await ann.until(lambda m: m["type"] == "hello")
        assert hello["call_window"] is None
        await ann.send({"press": True, "version": 0})
        await ann.until(lambda m: m["type"] == "error")
        await ann.close()
        return ann.errors()

    assert [e["code"] for e in run(go())] == ["bad_message"]
