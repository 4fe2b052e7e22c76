"""The lobby of a deployment of several: every worker's tables waiting for people, read from
the store (each worker runs only its own).

While the database is away the lobby still answers (docs/protocol.md, "When the database goes
away"): the last listing this worker read, each table it runs itself as it is now, and those
it runs that were not listed yet.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from ..edge.protocol import TableMessage
from ..storage.store import Store, StoreUnavailable
from ..table.expiry import listed, quiet

if TYPE_CHECKING:
    from ..table.manager import TableManager


class Lobby:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.manager: TableManager | None = None
        self._last: list[TableMessage] = []  # the last listing read from the store

    async def open_tables(self) -> list[TableMessage]:
        """Every worker's tables with a seat free, the newest listing there is."""
        assert self.manager is not None
        try:
            ids = await asyncio.to_thread(self.store.table_ids, ("open",))
            rows = await asyncio.to_thread(lambda: [self.store.load_table(t) for t in ids])
            seen = await asyncio.to_thread(quiet, self.manager)  # left by all a while ago
        except StoreUnavailable:
            return self._remembered()
        live = [self.manager.tables[t] for t in ids if t in self.manager.tables]
        stored = [r for t, r in zip(ids, rows, strict=True)  # the same builder as a live one's
                  if r is not None and t not in self.manager.tables]
        out = listed(self.manager, live, stored, seen)
        self._last = [t for t in out if any(not s.taken for s in t.seats)]
        return self._last

    def _remembered(self) -> list[TableMessage]:
        assert self.manager is not None
        live = self.manager.tables
        listed = [live[t.id].info() if t.id in live else t for t in self._last]
        listed += [t.info() for t in live.values()
                   if t.status == "open" and t.id not in {m.id for m in listed}]
        return [t for t in listed if t.status == "open" and any(not s.taken for s in t.seats)]
