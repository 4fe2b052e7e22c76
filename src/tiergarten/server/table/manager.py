"""Every table of one server: creating, joining, finding, recovering and stopping them.

The manager wires each table to the `Store` and the `Transport` it was given itself (the app
gives it the database and the process's connections; tests give it a `MemoryStore`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import re
import secrets
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from tiergarten.core import State
from tiergarten.core.game import fresh_seed

from ..edge.bodies import BadName, clean_name
from ..edge.metrics import CLOSED_TABLES
from ..edge.protocol import TableMessage
from ..edge.settings import Settings, TableError, hash_token
from ..storage.store import CLOSED, UNFINISHED, SeatRow, Store, StoreUnavailable, TableRow
from . import closing, expiry
from .features.chat import ChatLimits, TableChat
from .ports import SOLE, Account, Locate, Ownership, Playable
from .spec import TableSpec, document, settle, timer_column
from .tables import LiveTable
from .transport import LocalTransport, Transport
from .unreplayable import Unreplayable

log = logging.getLogger("tiergarten.server")

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # what `secrets.token_urlsafe` makes


def is_table_id(text: str) -> bool:
    """Whether a table could have this id: else nobody (no store, no other process) is asked.
    >>> is_table_id("sGUBRqYILmxI"), is_table_id("a b"), is_table_id("")
    (True, False, False)
    """
    return TABLE_ID.fullmatch(text) is not None


class TableManager:
    """Every table of one server: creates, finds, recovers and stops them."""

    def __init__(self, store: Store, settings: Settings | None = None,
                 transport: Transport | None = None, ownership: Ownership = SOLE) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.transport: Transport = transport if transport is not None else LocalTransport()
        self.ownership = ownership
        self.tables: dict[str, LiveTable] = {}
        self.draining = False  # a graceful stop is under way: no new connections
        self.locate: Locate | None = None  # several processes: finds the owner of a table
        # makes an account's seat token (`Accounts.seat_token`; None: no accounts here)
        self.seat_tokens: Callable[[str, int, int], str] | None = None
        # stores a finished game's results and ratings from its row and its finished state
        # (`ratings.game_over`; None: not here)
        self.game_over: Callable[[TableRow, State], object] | None = None
        # whether a guest's name passes for an account's (`players.names.same_person_name`)
        self.same_name: Callable[[str, str], bool] | None = None
        # who may chat how much, per table, address and account (its counters: the app's)
        self.chat_limits = ChatLimits()

    async def recover(self) -> int:
        """Rebuild every unfinished table from its log and let its bots play on."""
        count = 0
        for table_id in self.store.table_ids(("open", "playing")):
            try:
                table = self.get(table_id)
            except Unreplayable as exc:  # shown as stored; `records check` lists it
                log.warning("%s (see `tiergarten records check`)", exc)
                continue
            except Exception:
                log.exception("table %s could not be rebuilt from its log", table_id)
                continue
            if table is not None:
                table.start_if_full()
                count += 1
        return count

    async def stop(self, code: int = 1001, reason: str = "the server is stopping") -> None:
        """Stop every table (each after the commit in hand) and close its connections."""
        await asyncio.gather(*(table.stop(code, reason) for table in list(self.tables.values())))

    async def let_go(self, table: LiveTable, code: int, reason: str) -> None:
        """Stop running one table here (another process owns it now)."""
        await table.stop(code, reason)
        self._forget(table)

    def adopt(self, row: TableRow, rematch: str | None) -> LiveTable:
        """Run a table this process has just come to own, rebuilt from its log `row`."""
        table = self.tables.get(row.id)
        if table is None:
            table = self._keep(self._live(row))
            table.rematch = rematch
            table.start_if_full()
        return table

    def get(self, table_id: str) -> LiveTable | None:
        """The live table, rebuilt from the database on first use; None if unknown (an id that
        no table can have is not looked up) or, in a deployment of several processes, owned by
        another. StoreUnavailable if the database is away."""
        table = self.tables.get(table_id)
        if table is None:
            if not is_table_id(table_id) or not self.ownership.holds(table_id):
                return None
            row = self.store.load_table(table_id)
            if row is None or row.status == CLOSED:
                self.ownership.release(table_id)  # no such table, or a closed one: not run
                return None if row is None else self._live(row)  # shown, never kept
            table = self._keep(self._live(row))
            table.rematch = self.store.rematch_id(table_id)
        return table

    async def open(self, table_id: str) -> Playable | None:
        """The table a new connection talks to: live here, or relayed to its owner."""
        if not is_table_id(table_id):
            return None  # no table has such an id: nobody is asked
        if self.locate is None:
            return self.get(table_id)
        found: Playable | None = await self.locate(table_id)
        return found

    def _live(self, row: TableRow) -> LiveTable:
        """The table `row` rebuilt from its log; Unreplayable if the log does not replay."""
        try:
            table = LiveTable(row, self.store, self.transport, self.settings)
            table.same_name = self.same_name
            chat = table.feature(TableChat)
            if chat is not None:
                chat.limits = self.chat_limits
            return table
        except ValueError as exc:  # an illegal recorded act, a bad option, a bad record
            raise Unreplayable(row, exc) from None

    def _keep(self, table: LiveTable) -> LiveTable:
        """Hold a table in memory until it is over and nobody watches it any more."""
        self.tables[table.id] = table
        table.on_idle = self._idle
        table.on_over = self._over
        return table

    def _idle(self, table: LiveTable) -> None:
        """Nobody is connected to the table now: over, it is forgotten; open, its idle time
        starts now (stored: it counts across restarts and workers, expiry.py)."""
        if table.status != "open":
            if table.status != "playing":
                self._forget(table)
            return
        try:
            future = asyncio.get_running_loop().run_in_executor(self.store.writer,
                                                                self.store.touch, table.id)
        except RuntimeError:  # the store is closing: the server stops
            return
        future.add_done_callback(lambda done: _log_failure(done, "note a table's activity"))

    async def close(self, table_id: str, reason: str,
                    idle_before: dt.datetime | None = None) -> bool:
        """Close a table this process owns (or nobody does), open or playing (`idle_before`:
        only an open one idle since before then): in the store first, one conditional write
        made on the event loop (no seat taken here comes in between), then here (`shut`).
        False if it was not such a table (any more)."""
        statuses = ("open",) if idle_before is not None else UNFINISHED
        if not self.store.close_table(table_id, reason, statuses, idle_before):
            return False
        CLOSED_TABLES.labels(reason=reason).inc()
        log.warning("table %s: closed (%s)", table_id, reason)
        if table_id in self.tables:
            await self.shut(self.tables[table_id], reason)
        return True

    async def shut(self, table: LiveTable, reason: str) -> None:
        """A table closed in the store stops here: everyone at it hears so, its connections
        are closed with 4410 and why (after the act in hand), and it is forgotten."""
        table.row.status, table.row.close_reason = CLOSED, reason
        table.broadcast_info()
        await self.let_go(table, closing.CLOSE_CODE, closing.words(reason))

    def _over(self, table: LiveTable) -> None:
        """A game ended: its results (ratings) are stored in the store's writer, after the
        last act's commit and in the order the games ended, from the state the table holds."""
        if self.game_over is not None:
            row, hook = table.row, self.game_over
            future = asyncio.get_running_loop().run_in_executor(self.store.writer, hook, row,
                                                                table.state)
            future.add_done_callback(_log_failure)

    def _forget(self, table: LiveTable) -> None:
        if self.tables.get(table.id) is table:
            del self.tables[table.id]  # the database has all of it; `get` rebuilds it
            self.ownership.release(table.id)

    def create(self, spec: TableSpec, owner_hash: str | None = None,
               rematch_of: TableRow | None = None) -> LiveTable:
        """A new table of `spec`, checked here once (`spec.settle`: bad games, options, player
        counts, bot names or settings raise OptionError). `owner_hash`: the creator's token
        hash (who may switch chat); `rematch_of`: the table whose people sit down again."""
        spec = settle(spec, self.settings.allow_seeds)
        rows = [SeatRow(seat, "human") if given is None else SeatRow(seat, "bot", bot=given.bot)
                for seat, given in enumerate(spec.seats)]
        table_id = re.sub(r"^-", "x", secrets.token_urlsafe(9))  # no id looks like an option
        placed_later = (self.ownership.shared and rematch_of is None
                        and any(r.kind == "human" for r in rows))
        if not placed_later:  # owned before the store has it: never an orphan
            self.ownership.claim(table_id)
        if rematch_of is not None:  # the same people; an account's token is made anew
            rows = [SeatRow(s.seat, s.kind, s.bot, s.name, s.token_hash, s.user_id, s.account)
                    for s in rematch_of.seats]
            for seat_row in rows:
                if seat_row.user_id is not None and self.seat_tokens is not None:
                    seat_row.token_hash = hash_token(self.seat_tokens(
                        table_id, seat_row.seat, seat_row.user_id))
        assert spec.players is not None  # settled
        row = self.store.create_table(
            table_id, spec.game, spec.players, dict(spec.options),
            fresh_seed() if spec.seed is None else spec.seed, rows, timer_column(spec),
            None if rematch_of is None else rematch_of.id, spec.hints, document(spec, None),
            owner_hash, spec.rules)
        if placed_later:  # nothing runs at it until somebody sits down
            return self._live(row)
        table = self._keep(self._live(row))
        table.start_if_full()
        return table

    def join(self, table_id: str, name: str, seat: int | None = None,
             user: Account | None = None) -> tuple[int, str]:
        """Claim an open seat for `name`; returns the seat and its token (shown only once).

        A signed-in `user` sits under their user name, with the account's token for the seat
        (the same on each of their devices: `Accounts.seat_token`)."""
        table = self._need(table_id)
        if table.status == CLOSED:
            raise TableError(closing.words(table.row.close_reason), 409)
        if user is not None:
            name = user.name
        try:
            name = clean_name(name)
        except BadName as exc:
            raise TableError(str(exc), 400, exc.code, exc.params) from None
        if user is None and table.passes_for_account(name):
            raise TableError("that name is a signed-in player's at this table; choose another",
                             409, "name_of_account")
        free = table.open_seats()
        if seat is None and free:
            seat = free[0]
        if seat is None or seat not in free:
            raise TableError("that seat is taken or not for a person" if free
                             else "no seat is open at this table", 409,
                             "seat_taken" if free else "no_open_seat")
        token = secrets.token_urlsafe(24) if user is None else user.seat_token(table_id, seat)
        user_id = None if user is None else user.id
        if not self.store.claim_seat(table_id, seat, name, hash_token(token), user_id):
            raise TableError("that seat was just taken", 409, "seat_taken")
        table.seats.claim(seat, name, hash_token(token), user_id,
                          None if user is None else user.name)
        table.broadcast_info()
        table.start_if_full()
        return seat, token

    def rematch(self, table_id: str, token: str) -> LiveTable:
        """A new table with the same game, options, bots and people (same tokens; an
        account's seat gets the account's token for the new table)."""
        table = self._need(table_id)
        if table.seat_of(token) is None:
            raise TableError("only someone seated at the table may ask for a rematch", 403,
                             "bad_token")
        if table.status != "over":
            raise TableError("a rematch is for a finished game", 409, "not_over",
                             {"status": table.status})
        if table.rematch is not None:
            return self._need(table.rematch)
        again = table.spec.model_copy(update={"seed": None, "rules": None, "tutorial": None})
        new = self.create(again, table.row.owner_hash, rematch_of=table.row)
        table.rematch = new.id
        table.broadcast_info()
        return new

    def open_tables(self) -> list[TableMessage]:
        return expiry.listed(self, list(self.tables.values()))  # the lobby's

    def _need(self, table_id: str) -> LiveTable:
        table = self.get(table_id)
        if table is None:
            raise TableError(f"there is no table {table_id!r}", 404, "no_table",
                             {"table": table_id})
        return table


def _log_failure(future: Future[Any] | asyncio.Future[Any],
                 what: str = "store a finished game's results") -> None:
    failed = None if future.cancelled() else future.exception()
    if isinstance(failed, StoreUnavailable):  # e.g. an idle time noted late: it counts earlier
        log.warning("could not %s: %s", what, failed)
    elif failed is not None:
        log.error("could not %s", what, exc_info=failed)
