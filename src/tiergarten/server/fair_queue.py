"""The fair order of acts at a real-time table (docs/protocol.md, "Fair hits in real-time games").

Arrival at the server is not a fair order by itself: a player far away arrives later. So an
act is *credited* at its arrival minus half its connection's measured round trip (capped, and
never before the version it was made against existed), *held* until no act credited earlier can
still arrive (`window`: the largest credit any seated connection gets now), and *settled* in
credited order (ties: order of arrival), one after the other.

The queue only orders. What settling means — asking the game whether the act still counts,
applying it, answering — is the `settle` coroutine the table gives it.

>>> credited(arrival=10.0, latency=0.3, since=9.5), credited(10.0, 0.3, since=9.8)
(9.7, 9.8)
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from tiergarten.core.game import Action

from .transport import Peer

log = logging.getLogger("tiergarten.server")

SLACK = 0.0005  # seconds: an act due this close to now is settled now, not after a wake-up


def credited(arrival: float, latency: float, since: float) -> float:
    """When an act counts as made: `latency` (its capped credit) before its `arrival`, but
    never before `since`, when the table reached the version it was made against."""
    return max(arrival - latency, since)


@dataclass(order=True)
class Held:
    """An act waiting for its turn, ordered by credited time, then by arrival. `peer` is None
    for a bot's move, which learns its outcome through `done` instead."""

    credit: float
    order: int
    seat: int = field(compare=False)
    action: Action = field(compare=False)
    seen: int = field(compare=False)  # the version it was made against
    peer: Peer | None = field(default=None, compare=False)
    done: asyncio.Future[bool] | None = field(default=None, compare=False)


class FairQueue:
    """Held acts of one table, released in credited order to `settle`, one at a time."""

    def __init__(self, window: Callable[[], float],
                 settle: Callable[[Held], Awaitable[None]]) -> None:
        self.window = window
        self.settle = settle
        self._held: list[Held] = []  # a heap
        self._due: deque[Held] = deque()  # released, in order, waiting for `settle`
        self._order = itertools.count()
        self._loop = asyncio.get_running_loop()
        self._wake: asyncio.TimerHandle | None = None
        self._runner: asyncio.Task[None] | None = None

    def hold(self, credit: float, seat: int, action: Action, seen: int,
             peer: Peer | None = None, done: asyncio.Future[bool] | None = None) -> Held:
        """Hold an act credited at `credit`; it is settled once nothing earlier can come."""
        item = Held(credit, next(self._order), seat, action, seen, peer, done)
        heapq.heappush(self._held, item)
        self._release()
        return item

    def _release(self) -> None:
        """Release every held act whose time has come, earliest credit first; then wait for
        the next one. An act arriving later is credited later than anything released."""
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None
        while self._held:
            due = self._held[0].credit + self.window()
            if due > self._loop.time() + SLACK:
                self._wake = self._loop.call_at(due, self._release)
                break
            self._due.append(heapq.heappop(self._held))
        if self._due and (self._runner is None or self._runner.done()):
            self._runner = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while self._due:
            item = self._due.popleft()
            try:
                await self.settle(item)
            except Exception:  # settle answers everything itself; never stop the line
                log.exception("settling an act of seat %d failed", item.seat)

    async def settled(self) -> None:
        """Wait until every act released so far has been settled (for tests)."""
        while self._runner is not None and not self._runner.done():
            await asyncio.shield(self._runner)

    async def stop(self) -> None:
        """Drop every act not yet settled: never committed, so never told to anyone."""
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None
        self._held.clear()
        self._due.clear()
        if self._runner is not None:
            self._runner.cancel()
            await asyncio.gather(self._runner, return_exceptions=True)
