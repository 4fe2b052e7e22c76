"""An open table's idle time and a table's closing, in the database (`SqlStore`'s part).

A table is closed by one conditional UPDATE (its status is still one of those allowed and,
for an idle open table, its last activity still old enough), so two processes that both
decide to close a table close it once, and a seat taken meanwhile keeps it open: the seat's
claim touches `active` in the same database, and only one of the two writes can come first.
`closed` is final: `set_status` never writes over it (sql_store.py).
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable, Iterator, Sequence

from sqlalchemy import Engine, func, select, update

from .schema import TABLES
from .store import CLOSED, UNFINISHED


def aware(at: dt.datetime | None) -> dt.datetime | None:
    """A stored time as UTC (SQLite gives it back naive)."""
    return at if at is None or at.tzinfo else at.replace(tzinfo=dt.UTC)


last_active = func.coalesce(TABLES.c.active, TABLES.c.created)  # a row of before 0008: created


class SqlClosing:
    """The `Store` methods about idle open tables and closing (see the module doc)."""

    engine: Engine
    clock: Callable[[], dt.datetime]

    def _guard(self, write: bool) -> contextlib.AbstractContextManager[None]:
        raise NotImplementedError  # SqlStore's

    def touch(self, table_id: str) -> None:
        with self._guard(write=True), self.engine.begin() as conn:
            conn.execute(update(TABLES).where(TABLES.c.id == table_id,
                                              TABLES.c.status == "open")
                         .values(active=self.clock()))

    def idle_open(self, before: dt.datetime) -> list[tuple[str, dt.datetime]]:
        with self._guard(write=False), self.engine.connect() as conn:
            rows = conn.execute(select(TABLES.c.id, last_active.label("last"))
                                .where(TABLES.c.status == "open", last_active < before)
                                .order_by(last_active, TABLES.c.id))
            return [(r.id, aware(r.last) or before) for r in rows]

    def close_table(self, table_id: str, reason: str, statuses: Sequence[str] = UNFINISHED,
                    idle_before: dt.datetime | None = None) -> bool:
        which = [TABLES.c.id == table_id, TABLES.c.status.in_(list(statuses))]
        if idle_before is not None:
            which += [TABLES.c.status == "open", last_active < idle_before]
        with self._guard(write=True), self.engine.begin() as conn:
            done = conn.execute(update(TABLES).where(*which).values(
                status=CLOSED, closed=self.clock(), close_reason=reason))
            return bool(done.rowcount == 1)

    def closed_among(self, table_ids: Sequence[str]) -> list[str]:
        found: list[str] = []
        with self._guard(write=False), self.engine.connect() as conn:
            for chunk in _chunks(list(table_ids), 500):
                found += conn.execute(select(TABLES.c.id).where(
                    TABLES.c.id.in_(chunk), TABLES.c.status == CLOSED)).scalars()
        return found


def _chunks(items: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]
