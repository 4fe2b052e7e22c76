"""A `Store` in the process's memory: the same append-only log, gone when the process ends.

For fast tests of the server's parts (no database, no files) and for trying the server out.
Every row handed out is a copy, as if read from a database, so a table's own changes never
reach the store except through its methods.

>>> store = MemoryStore()
>>> _ = store.create_table("t1", "maumau", 2, {}, seed=7, seats=[SeatRow(0, "human"),
...                        SeatRow(1, "bot", bot="random")])
>>> store.append_action("t1", 0, 0, "draw")
>>> store.append_action("t1", 0, 1, "draw")
Traceback (most recent call last):
...
tiergarten.server.storage.store.StoreError: table t1 already has an action 0
>>> store.load_table("t1").actions
[(0, 'draw')]
>>> store.close()
"""

from __future__ import annotations

import copy
import datetime as dt
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from .store import CLOSED, UNFINISHED, SeatRow, StoreError, TableRow, utc_now


class MemoryStore:
    """Tables, seats and action logs in dicts, behind one lock (a `Store`)."""

    def __init__(self) -> None:
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tg-memory")
        self.clock = utc_now  # every time written (tests give one of their own)
        self._tables: dict[str, TableRow] = {}
        self._chat: dict[str, list[dict[str, Any]]] = {}
        self._times: dict[str, list[dt.datetime]] = {}
        # re-entrant: the players port beside it (memory_players.py) shares it
        self._lock = threading.RLock()
        # a seated account's name as `load_table` gives it (the players port sets it)
        self.account_name: Callable[[int], str | None] = lambda _user_id: None

    def ping(self) -> None:
        pass  # always there

    def close(self) -> None:
        self.writer.shutdown(wait=True)

    def create_table(self, table_id: str, game: str, players: int, options: dict[str, Any],
                     seed: int, seats: Sequence[SeatRow], timer: float | None = None,
                     rematch_of: str | None = None, hints: bool = True,
                     extra: dict[str, Any] | None = None,
                     owner_hash: str | None = None, rules: int | None = None) -> TableRow:
        row = TableRow(table_id, game, players, dict(options), seed, self.clock(),
                       "open", timer, rematch_of, list(seats), hints=hints,
                       extra=dict(extra or {}), owner_hash=owner_hash, rules=rules)
        row.active = row.created
        with self._lock:
            if table_id in self._tables:
                raise StoreError(f"there is a table {table_id} already")
            self._tables[table_id] = copy.deepcopy(row)
        return row

    def append_action(self, table_id: str, index: int, seat: int, notation: str) -> None:
        with self._lock:
            actions = self._table(table_id).actions
            if index < len(actions):
                raise StoreError(f"table {table_id} already has an action {index}")
            if index > len(actions):
                raise StoreError(f"table {table_id}: action {len(actions)} is missing from the "
                                 f"log, so {index} cannot follow")
            actions.append((seat, notation))
            self._times.setdefault(table_id, []).append(self.clock())

    def set_extra(self, table_id: str, extra: dict[str, Any]) -> None:
        with self._lock:
            self._table(table_id).extra = dict(extra)

    def add_chat(self, table_id: str, line: dict[str, Any]) -> None:
        with self._lock:
            self._chat.setdefault(table_id, []).append(dict(line))

    def chat(self, table_id: str) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(line) for line in self._chat.get(table_id, [])]

    def set_status(self, table_id: str, status: str) -> None:
        with self._lock:
            table = self._table(table_id)
            if table.status != CLOSED:
                table.status = status

    def set_seat(self, table_id: str, seat: SeatRow) -> None:
        with self._lock:
            self._table(table_id).seats[seat.seat] = copy.copy(seat)
            self.touch(table_id)

    def claim_seat(self, table_id: str, seat: int, name: str, token_hash: str,
                   user_id: int | None = None) -> bool:
        with self._lock:
            table = self._table(table_id)
            row = table.seats[seat]
            if row.kind != "human" or row.token_hash is not None or table.status != "open":
                return False
            row.name, row.token_hash, row.user_id = name, token_hash, user_id
            self.touch(table_id)
            return True

    def touch(self, table_id: str) -> None:
        with self._lock:
            table = self._table(table_id)
            if table.status == "open":
                table.active = self.clock()

    def idle_open(self, before: dt.datetime) -> list[tuple[str, dt.datetime]]:
        with self._lock:
            idle = [(t.last_active, t.id) for t in self._tables.values()
                    if t.status == "open" and t.last_active < before]
            return [(table_id, at) for at, table_id in sorted(idle)]

    def close_table(self, table_id: str, reason: str, statuses: Sequence[str] = UNFINISHED,
                    idle_before: dt.datetime | None = None) -> bool:
        with self._lock:
            table = self._tables.get(table_id)
            if table is None or table.status not in statuses or idle_before is not None and (
                    table.status != "open" or table.last_active >= idle_before):
                return False
            table.status, table.close_reason = CLOSED, reason
            table.closed = self.clock()
            return True

    def closed_among(self, table_ids: Sequence[str]) -> list[str]:
        with self._lock:
            return [t for t in table_ids if t in self._tables
                    and self._tables[t].status == CLOSED]

    def table_ids(self, statuses: Sequence[str] = ("open", "playing")) -> list[str]:
        with self._lock:
            rows = sorted(self._tables.values(), key=lambda t: (t.created, t.id))
            return [t.id for t in rows if t.status in statuses]

    def rematch_id(self, table_id: str) -> str | None:
        with self._lock:
            return next((t.id for t in self._tables.values() if t.rematch_of == table_id), None)

    def load_table(self, table_id: str) -> TableRow | None:
        with self._lock:
            row = self._tables.get(table_id)
            if row is None:
                return None
            found = copy.deepcopy(row)
            for seat in found.seats:
                seat.account = None if seat.user_id is None else self.account_name(seat.user_id)
            return found

    def action_times(self, table_id: str) -> list[dt.datetime]:
        with self._lock:
            return list(self._times.get(table_id, []))

    def _table(self, table_id: str) -> TableRow:
        row = self._tables.get(table_id)
        if row is None:
            raise StoreError(f"there is no table {table_id}")
        return row
