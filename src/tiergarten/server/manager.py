"""Every table of one server: creating, joining, finding, recovering and stopping them.

The manager wires each table to the `Store` and the `Transport` it was given itself (the app
gives it the database and the process's connections; tests give it a `MemoryStore`).
"""

from __future__ import annotations

import logging
import random
import re
import secrets
from typing import Any

from tiergarten import bots
from tiergarten.core import OptionError, load
from tiergarten.core.game import fresh_seed

from .protocol import SeatSpec, clean_name
from .settings import Settings, TableError, hash_token
from .store import SeatRow, Store, TableRow
from .tables import LiveTable
from .transport import LocalTransport, Transport

log = logging.getLogger("tiergarten.server")

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # what `secrets.token_urlsafe` makes


class TableManager:
    """Every table of one server: creates, finds, recovers and stops them."""

    def __init__(self, store: Store, settings: Settings | None = None,
                 transport: Transport | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.transport: Transport = transport if transport is not None else LocalTransport()
        self.tables: dict[str, LiveTable] = {}

    async def recover(self) -> int:
        """Rebuild every unfinished table from its log and let its bots play on."""
        count = 0
        for table_id in self.store.table_ids(("open", "playing")):
            try:
                table = self.get(table_id)
            except Exception:
                log.exception("table %s could not be rebuilt from its log", table_id)
                continue
            if table is not None:
                table.start_if_full()
                count += 1
        return count

    async def stop(self) -> None:
        for table in list(self.tables.values()):
            await table.stop()

    def get(self, table_id: str) -> LiveTable | None:
        """The live table, rebuilt from the database on first use; None if unknown (an id that
        no table can have is not looked up). StoreUnavailable if the database is away."""
        table = self.tables.get(table_id)
        if table is None:
            if not TABLE_ID.fullmatch(table_id):
                return None
            row = self.store.load_table(table_id)
            if row is None:
                return None
            table = self._keep(self._live(row))
            table.rematch = self.store.rematch_id(table_id)
        return table

    def _live(self, row: TableRow) -> LiveTable:
        return LiveTable(row, self.store, self.transport, self.settings)

    def _keep(self, table: LiveTable) -> LiveTable:
        """Hold a table in memory until it is over and nobody watches it any more."""
        self.tables[table.id] = table
        table.on_idle = self._forget
        return table

    def _forget(self, table: LiveTable) -> None:
        if self.tables.get(table.id) is table:
            del self.tables[table.id]  # the database has all of it; `get` rebuilds it

    def create(self, game_id: str, players: int | None, options: dict[str, Any],
               seats: list[SeatSpec | None], timer: float | None = None,
               seed: int | None = None, rematch_of: TableRow | None = None,
               hints: bool = True) -> LiveTable:
        """A new table; bad games, options, player counts or bot names raise OptionError."""
        game = load(game_id, players, **options)
        if len(seats) > game.players:
            raise OptionError(f"{len(seats)} seats given for {game.players} players")
        if seed is not None and not self.settings.allow_seeds:
            raise OptionError("this server does not let a table's creator choose the seed")
        rows = []
        for seat in range(game.players):
            spec = seats[seat] if seat < len(seats) else None
            if spec is not None and spec.bot is not None:
                bots.make(spec.bot, game, seat, random.Random(0))  # unknown names raise OptionError
                rows.append(SeatRow(seat, "bot", bot=spec.bot))
            else:
                rows.append(SeatRow(seat, "human"))
        if rematch_of is not None:
            rows = [SeatRow(s.seat, s.kind, s.bot, s.name, s.token_hash)
                    for s in rematch_of.seats]
        table_id = secrets.token_urlsafe(9)
        row = self.store.create_table(
            table_id, game.id, game.players, dict(game.options),
            fresh_seed() if seed is None else seed, rows, timer,
            None if rematch_of is None else rematch_of.id, hints)
        table = self._keep(self._live(row))
        table.start_if_full()
        return table

    def join(self, table_id: str, name: str, seat: int | None = None) -> tuple[int, str]:
        """Claim an open seat for `name`; returns the seat and its token (shown only once)."""
        table = self._need(table_id)
        try:
            name = clean_name(name)
        except ValueError as exc:
            raise TableError(str(exc)) from None
        free = table.open_seats()
        if seat is None and free:
            seat = free[0]
        if seat is None or seat not in free:
            raise TableError("that seat is taken or not for a person" if free
                             else "no seat is open at this table", 409)
        token = secrets.token_urlsafe(24)
        if not self.store.claim_seat(table_id, seat, name, hash_token(token)):
            raise TableError("that seat was just taken", 409)
        table.seats.claim(seat, name, hash_token(token))
        table.broadcast_info()
        table.start_if_full()
        return seat, token

    def rematch(self, table_id: str, token: str) -> LiveTable:
        """A new table with the same game, options, bots and people (same tokens)."""
        table = self._need(table_id)
        if table.seat_of(token) is None:
            raise TableError("only someone seated at the table may ask for a rematch", 403)
        if table.status != "over":
            raise TableError("a rematch is for a finished game", 409)
        if table.rematch is not None:
            return self._need(table.rematch)
        new = self.create(table.row.game, table.row.players, table.row.options, [],
                          table.row.timer, rematch_of=table.row, hints=table.row.hints)
        table.rematch = new.id
        table.broadcast_info()
        return new

    def open_tables(self) -> list[dict[str, Any]]:
        return [t.info() for t in self.tables.values() if t.status == "open" and t.open_seats()]

    def _need(self, table_id: str) -> LiveTable:
        table = self.get(table_id)
        if table is None:
            raise TableError(f"there is no table {table_id!r}", 404)
        return table
