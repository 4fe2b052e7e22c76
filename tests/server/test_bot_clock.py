"""The bots' clock runs at 1/bot_pace of real time: a move a bot fired is due by its own
reckoning, so it never fires the same plan twice (at pace 0 the clock moves by the moves); and
a bot's pause counts from when it became due, so its thinking time never shows."""

from __future__ import annotations

import itertools
import time
from typing import Any

from tiergarten.server.edge.protocol import SeatSpec
from tiergarten.server.edge.settings import Settings
from tiergarten.server.storage.memory_store import MemoryStore
from tiergarten.server.table.bot_driver import BotMove
from tiergarten.server.table.connection import Connection
from tiergarten.server.table.features import BotSeats
from tiergarten.server.table.manager import TableManager
from tiergarten.server.table.spec import TableSpec

from .harness import Client, Server, run
from .test_tables import heard


def test_a_lecker_mammut_bot_never_repeats_a_hit_it_has_made(server: Server) -> None:
    bots = [{"bot": "slow"}, {"bot": "normal"}, {"bot": "fast"}]
    table = server.create(game="lecker_mammut", players=3, seats=bots, seed=7,
                          options={"rounds": 1})

    async def watch() -> None:
        eye = await Client.open(server, table["id"])
        await eye.until(lambda m: m["type"] == "table" and m["status"] == "over", 90)
        await eye.close()

    run(watch())
    actions = server.get(f"/api/tables/{table['id']}/record").json()["record"]["actions"]
    hits = [(seat, act) for seat, act in actions if act.startswith("hit ")]
    assert hits, "three bots played a whole round without a single hit"
    repeats = [pair for pair, run in itertools.groupby(actions) if pair[1].startswith("hit ")
               and len(list(run)) > 1]
    assert repeats == [], f"a bot repeated the hit it had just made: {repeats}"


def test_a_bots_pause_counts_from_when_it_became_due_not_from_when_it_had_thought() -> None:
    """Two bots with a nominal pause of 0.2 s, one thinking 0.1 s before each move and one not
    thinking at all (as a Mau Mau bot searches after a drawn card that fits and passes at once
    after one that does not): every move comes 0.2 s after the one before, so no one can time
    the bots to learn what they alone know. A bot that thinks longer than its pause (0.25 s)
    moves when it is done.

    The thinking takes real time, in the driver's worker thread; the pauses are the loop's
    (a `SkippingLoop`: what is left of a pause once the thinking is done passes at once)."""

    async def go(thinking: dict[int, float]) -> list[float]:
        manager = TableManager(MemoryStore(), Settings(allow_seeds=True, bot_pace=1.0))

        def choose(_seats: object, state: Any, _now: float) -> BotMove | None:
            seat = state.to_move()[0]
            time.sleep(thinking[seat])  # in the driver's worker thread, as a search would
            return BotMove(seat, state.legal_actions(seat)[0], 0.2)

        table = manager.create(TableSpec(
            game="maumau", players=2, options={"rounds": 1},
            seats=[SeatSpec(bot="random"), SeatSpec(bot="random")], seed=3))
        table.feature(BotSeats).driver.choose = choose  # type: ignore[union-attr,method-assign]
        eye = Connection(None)  # a spectator, told of every move
        table.connect(eye)
        await heard(eye, lambda m: m["type"] == "state" and m["version"] >= 4)
        await manager.stop()
        reached = [table.log.reached_at(v) for v in range(5)]
        return [b - a for a, b in zip(reached, reached[1:], strict=False)]

    pauses = run(go({0: 0.1, 1: 0.0}), skip_idle=True)
    assert all(0.19 <= p <= 0.27 for p in pauses), pauses  # counted from after thinking: 0.3
    assert max(pauses) - min(pauses) < 0.05, pauses
    slow = run(go({0: 0.25, 1: 0.25}), skip_idle=True)
    assert all(0.24 <= p <= 0.4 for p in slow), slow  # counted from after thinking: 0.45
