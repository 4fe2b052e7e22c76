"""Open tables nobody came to are closed: the server's periodic check (every few seconds).

An open table (waiting for people, never started) is *idle* while nobody is connected to it.
Its last activity is stored (`tables.active`: made, a seat taken or given up, its last
connection gone; store.py), so its idle time counts from the database, across restarts and
workers, never from a process's memory. Once it is `open_table_ttl` seconds old the check
closes it (closing.py, reason `expired`): one conditional write, which a seat taken or a
connection noted meanwhile wins against. A table someone is connected to never expires: each
check notes activity at such a table before half the time has passed, so a table whose people
were connected when a server died still has half its time for them to come back. A table
that started is never closed this way.

Who closes which: a table this process runs (in a deployment of several: owns) is closed
here; one nobody runs is closed by whichever process's check comes to it first — alone there
is nobody else, and in a deployment of several the check first takes the table's lease
(`claims`: the workers' leases, cluster/lease.py), so one worker closes it, once, and no
worker takes it meanwhile; a table another worker owns is that worker's to close.

The lobby lists an open table (`listed`) while someone is connected to it or for
`unlisted_after` seconds after its last activity (time to come back after a closed tab): a
table whose people all left leaves the list soon, though its invite link works until it
expires. Each check notes activity at a table someone is connected to before half of that
time has passed too, so a worker's lobby can tell from the store alone.

Each check also stops the tables this process runs that were closed elsewhere (`tiergarten
admin close` against the database while this server runs alone): their people are told, and
their connections closed, within a check.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from ..edge.metrics import CLOSED_TABLES
from ..storage.store import StoreUnavailable, utc_now
from .closing import EXPIRED, OPERATOR

if TYPE_CHECKING:
    from ..edge.protocol import TableMessage
    from ..storage.store import TableRow
    from .manager import TableManager
    from .tables import LiveTable

log = logging.getLogger("tiergarten.server")

CHECK_EVERY = 5.0  # seconds between checks (at most a quarter of the time a table lasts)


class Claims(Protocol):
    """A deployment's leases, as the check takes a table nobody owns (cluster/lease.py)."""

    async def acquire(self, table_id: str) -> bool: ...

    async def release(self, table_id: str) -> None: ...


class Expiry:
    """The periodic check of one process (see the module doc). `now`: the wall clock, which
    stored times are compared with (tests give one of their own)."""

    def __init__(self, manager: TableManager, ttl: float, claims: Claims | None = None,
                 now: Callable[[], dt.datetime] = utc_now) -> None:
        self.manager, self.ttl, self.claims, self.now = manager, ttl, claims, now
        self.touch_after = min(t for t in (ttl, manager.settings.unlisted_after, 1e18) if t > 0) / 2
        self.every = CHECK_EVERY if ttl <= 0 else min(CHECK_EVERY, ttl / 4)
        self._waiting = False  # for the database: said once, until a check gets through

    async def run(self) -> None:
        """Check every `every` seconds until cancelled; a failed check is said and retried."""
        while True:
            await asyncio.sleep(self.every)
            if self.manager.draining:
                return
            try:
                await self.check()
                self._waiting = False
            except asyncio.CancelledError:
                raise
            except StoreUnavailable as exc:
                if not self._waiting:
                    log.warning("the check for idle open tables waits for the database: %s",
                                exc)
                self._waiting = True
            except Exception:
                log.exception("the check for idle open tables failed")

    async def check(self) -> int:
        """One check: tables closed elsewhere stop here, idle open tables are closed. The
        number this check closed."""
        await self.closed_elsewhere()
        if self.ttl <= 0 and self.manager.settings.unlisted_after <= 0:
            return 0
        now = self.now()
        too_old = now - dt.timedelta(seconds=self.ttl)
        store = self.manager.store
        idle = await asyncio.to_thread(store.idle_open,
                                       now - dt.timedelta(seconds=self.touch_after))
        closed = 0
        for table_id, last in idle:
            if self.manager.draining:
                break
            table = self.manager.tables.get(table_id)
            if table is not None and table.transport.audience(table_id):
                await asyncio.to_thread(store.touch, table_id)  # someone is here: active
            elif self.ttl > 0 and last < too_old:
                closed += await self._expire(table_id, too_old, run_here=table is not None)
        return closed

    async def _expire(self, table_id: str, too_old: dt.datetime, run_here: bool) -> bool:
        if run_here or self.claims is None:  # ours (alone: every table is)
            return await self.manager.close(table_id, EXPIRED, idle_before=too_old)
        if not await self.claims.acquire(table_id):
            return False  # another worker owns it: its check closes it
        try:
            return await self.manager.close(table_id, EXPIRED, idle_before=too_old)
        finally:
            if table_id not in self.manager.tables:  # not taken here meanwhile (a request)
                await self.claims.release(table_id)

    async def closed_elsewhere(self) -> None:
        """Stop the tables run here that the store says are closed (closed from outside)."""
        live = list(self.manager.tables)
        if not live:
            return
        store = self.manager.store
        for table_id in await asyncio.to_thread(store.closed_among, live):
            table = self.manager.tables.get(table_id)
            if table is None or table.status == "closed":
                continue
            row = await asyncio.to_thread(store.load_table, table_id)
            reason = (row.close_reason if row is not None else None) or OPERATOR
            log.warning("table %s: closed elsewhere (%s); stopping it here", table_id, reason)
            CLOSED_TABLES.labels(reason=reason).inc()
            await self.manager.shut(table, reason)



def quiet(manager: TableManager) -> tuple[set[str], dt.datetime]:
    """The open tables with no activity for `unlisted_after` seconds (none when 0), and since
    when a table must have been active to be listed (a store's read: run it off the loop)."""
    grace = manager.settings.unlisted_after
    since = manager.store.clock() - dt.timedelta(seconds=grace)
    return (set() if grace <= 0 else {t for t, _ in manager.store.idle_open(since)}), since


def listed(manager: TableManager, live: Sequence[LiveTable], stored: Sequence[TableRow] = (),
           seen: tuple[set[str], dt.datetime] | None = None) -> list[TableMessage]:
    """The lobby's open tables (see the module doc): of `live` (run here) those with an open
    seat and someone connected or active lately, and of `stored` (run by nobody here, read
    from the store) those active lately; `seen`: `quiet(manager)`, if read already."""
    from .messages import stored_table
    idle, since = seen or quiet(manager)
    grace = manager.settings.unlisted_after
    out = [t.info() for t in live if t.status == "open" and t.open_seats()
           and (t.id not in idle or t.transport.audience(t.id))]
    return out + [stored_table(r) for r in stored
                  if r.status == "open" and (grace <= 0 or r.last_active >= since)]
