"""Taking tables over: a table whose lease this worker holds is rebuilt from its log here.

A request or a connection may ask for a free table (`adopt`), and every tick the worker looks
for tables in play that nobody owns (`orphans`: their bots and clocks must go on) and takes a
fair share of them. Whoever adopts tells every worker (`OWNER`), so relayed connections to
the old owner reconnect to the new one.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..edge.metrics import ADOPTIONS
from ..storage.store import Store, StoreUnavailable, TableRow
from .bus import Bus
from .lease import Leases

if TYPE_CHECKING:
    from ..table.manager import TableManager
    from ..table.tables import LiveTable

log = logging.getLogger("tiergarten.server")

OWNER = b"O"  # a table's new owner, told to every worker


class Adopter:
    """Rebuilds the tables this worker takes over; one rebuild per table at a time."""

    def __init__(self, store: Store, leases: Leases, bus: Bus) -> None:
        self.store, self.leases, self.bus = store, leases, bus
        self.manager: TableManager | None = None
        self._adopting: dict[str, asyncio.Future[LiveTable | None]] = {}
        self._settled = 0.0  # the loop's time before which no orphan is adopted (`settle`)
        self._free_since: dict[str, float] = {}  # each table seen free, since when

    async def adopt(self, table_id: str, row: TableRow | None = None,
                    reason: str = "request") -> LiveTable | None:
        """Rebuild a table whose lease this worker holds from its log; start its bots."""
        assert self.manager is not None
        table = self.manager.tables.get(table_id)
        if table is not None:
            return table
        pending = self._adopting.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[LiveTable | None] = asyncio.get_running_loop().create_future()
        self._adopting[table_id] = future
        try:
            if row is None:
                row = await asyncio.to_thread(self.store.load_table, table_id)
            rematch = await asyncio.to_thread(self.store.rematch_id, table_id)
            if row is None or row.status == "closed" or not self.leases.holds(table_id):
                await self.leases.release(table_id)
                table = None
            else:
                table = self.manager.adopt(row, rematch)
                ADOPTIONS.labels(reason=reason).inc()
                self.bus.broadcast(OWNER, {"t": table_id, "o": self.bus.worker_id})
            future.set_result(table)
            return table
        except BaseException as exc:
            future.set_exception(exc)
            raise
        finally:
            del self._adopting[table_id]
            if not future.done():
                future.cancel()
            elif future.exception() is not None:
                future.exception()  # retrieved: nobody else may be waiting

    def settle(self, seconds: float) -> None:
        """Adopt no orphans for `seconds`: Redis is back after an outage (and with it every
        lease free), and the other workers have not all said they are alive yet; a share
        counted now would count too few workers and take too much."""
        self._settled = asyncio.get_running_loop().time() + seconds

    async def orphans(self, draining: Callable[[], bool]) -> None:
        """Take this worker's share of the tables in play nobody owns. An open table is taken
        by the worker its people are sent to, when they come (table.ports.Ownership.shared).

        The share is of all the tables in play: each live worker's fair part of them
        (`fair_share`), less those it holds, so the workers end level whoever scans first.
        A table nobody took within a lease time (its share's worker draining or slow) is
        anyone's: a scan takes up to its count divided by the live workers."""
        assert self.manager is not None
        now = asyncio.get_running_loop().time()
        if now < self._settled:
            return
        try:
            ids = await asyncio.to_thread(self.store.table_ids, ("playing",))
        except StoreUnavailable:  # the database is away (said elsewhere): the next tick
            return
        others = [t for t in ids if t not in self.manager.tables]
        owners = await self.leases.owners(others)
        free = [t for t, o in zip(others, owners, strict=True) if o is None]
        self._free_since = {t: self._free_since.get(t, now) for t in free}
        if not free:
            return
        workers = await self.leases.live_workers()
        share = fair_share(len(ids), workers, self.leases.me) - (len(ids) - len(others))
        random.shuffle(free)
        free.sort(key=self._free_since.__getitem__)  # the longest free first
        overdue = sum(now - self._free_since[t] >= self.leases.ttl_ms / 1000 for t in free)
        share = max(share, min(overdue, math.ceil(len(free) / len(workers))))
        taken = 0
        for table_id in free:
            if taken >= share or draining():
                break
            if await self.leases.acquire(table_id):
                taken += 1
                try:
                    await self.adopt(table_id, reason="orphan")
                except StoreUnavailable as exc:  # the database went away meanwhile
                    log.warning("table %s: not adopted now: %s", table_id, exc)
                    await self.leases.release(table_id)
                    break
                except Exception:
                    log.exception("table %s could not be rebuilt from its log", table_id)
                    await self.leases.release(table_id)
        if taken:
            log.warning("adopted %d table(s) nobody owned", taken)


def fair_share(tables: int, workers: list[str], me: str) -> int:
    """How many of `tables` worker `me` should run among `workers` (sorted ids): an equal part,
    the first `tables % len(workers)` of them one more.

    >>> [fair_share(7, ["a", "b", "c"], w) for w in "abc"]
    [3, 2, 2]
    """
    whole, extra = divmod(tables, len(workers))
    return whole + (1 if workers.index(me) < extra else 0)
