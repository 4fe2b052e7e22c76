"""The fair order of acts at a real-time table (docs/protocol.md, "Fair hits in real-time games").

Arrival at the server is not a fair order by itself: a player far away arrives later. So an
act is *credited* at its arrival minus half its connection's measured round trip (capped, and
never before the version it was made against existed), *held* until no act credited earlier can
still arrive (`window(held)`: the largest credit any seated connection gets now, and for a hit
the largest head start of another seat), and *settled* in credited order (ties: order of
arrival), one after the other.

A *reserved moment* (the moment of a real-time act, the act itself to follow) is held like an
act without its action yet: at its credited time it blocks the line (nothing credited later
is settled before it) until its act arrives and fills it, it is withdrawn, or its `deadline`
passes. A moment that ends without its act becomes what the table's `lapse` says it costs
(an act settled in its place, e.g. Lecker Mammut!'s `miss`), or is dropped if it costs nothing;
a moment may also be *charged* at once (`charge`). Which acts a game makes so, and what their
moment costs, is the game's business (docs/games/).

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
    for a bot's move, which learns its outcome through `done` instead. A reserved moment
    waiting for its act has no `action` yet and waits until `deadline` at most."""

    credit: float
    order: int
    seat: int = field(compare=False)
    action: Action | None = field(compare=False)
    seen: int = field(compare=False)  # the version it was made against
    peer: Peer | None = field(default=None, compare=False)
    done: asyncio.Future[bool] | None = field(default=None, compare=False)
    deadline: float = field(default=0.0, compare=False)
    dropped: bool = field(default=False, compare=False)  # a moment that ended at no cost
    cost: bool = field(default=False, compare=False)  # the cost of a moment that had no act
    told: int | None = field(default=None, compare=False)  # a charged moment: applied at


class FairQueue:
    """Held acts of one table, released in credited order to `settle`, one at a time."""

    def __init__(self, window: Callable[[Held], float],
                 settle: Callable[[Held], Awaitable[None]],
                 lapse: Callable[[Held], Action | None] = lambda held: None) -> None:
        self.window = window
        self.settle = settle
        self.lapse = lapse
        self._held: list[Held] = []  # a heap
        self._due: deque[Held] = deque()  # released, in order, waiting for `settle`
        self._order = itertools.count()
        self._loop = asyncio.get_running_loop()
        self._wake: asyncio.TimerHandle | None = None
        self._runner: asyncio.Task[None] | None = None
        self._reserved: dict[int, Held] = {}  # seat -> its moment waiting for its act
        self._charged: dict[int, Held] = {}  # seat -> its moment charged at once (`charge`)

    def hold(self, credit: float, seat: int, action: Action, seen: int,
             peer: Peer | None = None, done: asyncio.Future[bool] | None = None) -> Held:
        """Hold an act credited at `credit`; it is settled once nothing earlier can come."""
        item = Held(credit, next(self._order), seat, action, seen, peer, done)
        heapq.heappush(self._held, item)
        self._release()
        return item

    def reserve(self, credit: float, seat: int, seen: int, deadline: float,
                peer: Peer | None = None) -> Held:
        """Hold the moment of `seat`'s next act, credited at `credit` and made on version
        `seen`: it blocks what is credited later until the act comes (`fill`), or until
        `deadline`. A new moment of the same seat replaces the one before."""
        self.withdraw(seat)
        item = Held(credit, next(self._order), seat, None, seen, peer, deadline=deadline)
        self._reserved[seat] = item
        heapq.heappush(self._held, item)
        self._release()
        return item

    def reserved(self, seat: int) -> Held | None:
        """The moment of `seat` still waiting for its act, if any."""
        item = self._reserved.get(seat)
        if item is not None and item.deadline <= self._loop.time():
            self.withdraw(seat)
            return None
        return item

    def fill(self, seat: int, action: Action) -> Held | None:
        """`seat`'s act for its reserved moment: the moment becomes that act, at the moment's
        credit and version. None if `seat` has no moment reserved."""
        item = self.reserved(seat)
        if item is None:
            return None
        del self._reserved[seat]
        item.action = action
        self._release()
        return item

    def withdraw(self, seat: int) -> None:
        """`seat`'s reserved moment will have no act: it becomes its cost, if any, else it
        blocks nothing any more."""
        item = self._reserved.pop(seat, None)
        if item is not None:
            self._end(item, self.lapse(item))
            self._release()

    def charge(self, seat: int, cost: Action) -> Held | None:
        """`seat`'s reserved moment is its `cost` at once (settled at the moment's credit): it
        waits for no act, and the act meant for it is answered by `charged`."""
        item = self._reserved.pop(seat, None)
        if item is not None:
            self._end(item, cost)
            self._charged[seat] = item
            self._release()
        return item

    def charged(self, seat: int, seen: int) -> Held | None:
        """The moment of `seat` charged at once that an act made on version `seen` was meant
        for: one within the moment's call window, made before its player could have seen
        the cost applied."""
        item = self._charged.get(seat)
        if item is None:
            return None
        if item.deadline <= self._loop.time() or (item.told is not None and seen >= item.told):
            del self._charged[seat]
            return None
        return item

    def _end(self, item: Held, cost: Action | None) -> None:
        """A moment ends without its act: settled as its cost, or dropped at no cost."""
        if cost is None:
            item.dropped = True
        else:
            item.action, item.cost = cost, True

    def _release(self) -> None:
        """Release every held act whose time has come, earliest credit first; then wait for
        the next one. An act arriving later is credited later than anything released. A
        moment still waiting for its act holds up everything after it, until its deadline."""
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None
        while self._held:
            head = self._held[0]
            now = self._loop.time()
            if head.dropped:
                heapq.heappop(self._held)
                continue
            if head.action is None:  # a moment waiting for its act
                if head.deadline > now + SLACK:
                    self._wake = self._loop.call_at(head.deadline, self._release)
                    break
                if self._reserved.get(head.seat) is head:  # no act came in time
                    del self._reserved[head.seat]
                self._end(head, self.lapse(head))
                continue
            due = head.credit + self.window(head)
            if due > now + SLACK:
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
        self._reserved.clear()
        self._charged.clear()
        if self._runner is not None:
            self._runner.cancel()
            await asyncio.gather(self._runner, return_exceptions=True)
