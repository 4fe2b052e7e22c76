"""What a live table needs of storage (`Store`), and the rows it reads and writes.

A table's log is append-only: actions are numbered 0, 1, 2, ... and an index that is taken is
refused (`StoreError`), so two writers can never both extend one log. Live games are never
stored as state: a table's state is rebuilt by replaying its log.

Two stores implement it: `sql_store.SqlStore` (SQLite or PostgreSQL, what the server runs on)
and `memory_store.MemoryStore` (a process's memory, for fast tests of the parts). The blocking
methods run wherever they are called; a table commits its actions (and reads its log back)
in the store's `writer` threads, so that the event loop serves other tables while the database
works. A database that went away raises `StoreUnavailable` from every method until it is back.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Protocol

UNFINISHED = ("open", "playing")  # the statuses of a table whose game may still be played
CLOSED = "closed"  # closed before its game ended (expired, or by the operator): final
STATUSES = ("open", "playing", "over", CLOSED)  # a table's, in the order they come


def utc_now() -> dt.datetime:
    """The wall clock, in UTC: every time a store writes is read from it (`Store.clock`)."""
    return dt.datetime.now(dt.UTC)


class StoreError(RuntimeError):
    """The log refused a write (e.g. an action index that is already taken)."""


class StoreUnavailable(RuntimeError):
    """The database cannot be reached or cannot take writes now (stopped, unreachable, read-only,
    full). Whatever was being written may or may not be stored: read it back to know."""


@dataclass
class SeatRow:
    """One seat as stored: who sits there, and the hash of the token that claims it."""

    seat: int
    kind: str  # "human" or "bot"
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    user_id: int | None = None  # the account seated here (None: a guest, a bot, open)
    account: str | None = None  # that account's name, for its profile (None once deleted)


@dataclass
class TableRow:
    """One table as stored, with its seats and its whole action log."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    created: dt.datetime
    status: str
    timer: float | None = None
    rematch_of: str | None = None
    seats: list[SeatRow] = field(default_factory=list)
    actions: list[tuple[int, str]] = field(default_factory=list)
    hints: bool = True
    extra: dict[str, Any] = field(default_factory=dict)  # chat on/off, clock, tutorial
    owner_hash: str | None = None  # sha-256 of the creator's token (may switch chat off)
    rules: int | None = None  # the rules version (None: unsettled, see server/legacy.py)
    active: dt.datetime | None = None  # the last activity while open (None: see `created`)
    closed: dt.datetime | None = None  # when it was closed (status `closed`), and why:
    close_reason: str | None = None  # "expired" (nobody came) or "operator"

    @property
    def last_active(self) -> dt.datetime:
        """When anything last happened at this table while it was open (its idle time's
        start), in UTC."""
        at = self.active or self.created
        return at if at.tzinfo else at.replace(tzinfo=dt.UTC)  # SQLite's are naive

    def record(self) -> dict[str, Any]:
        """The replayable record of this table's game (see `tiergarten.replay`); one of a
        table whose rules version is unsettled names none (format 1)."""
        versioned = {"format": 1} if self.rules is None else {"format": 2, "rules": self.rules}
        return {**versioned, "game": self.game, "players": self.players,
                "options": dict(self.options), "seed": self.seed,
                "actions": [[seat, text] for seat, text in self.actions]}


class Store(Protocol):
    """Tables, seats and the append-only action log, as the tables and their manager use them."""

    @property
    def writer(self) -> Executor:
        """The threads in which tables commit their actions (see the module doc)."""
        ...

    clock: Callable[[], dt.datetime]  # the time every write is stamped with (tests set one)

    def create_table(self, table_id: str, game: str, players: int, options: dict[str, Any],
                     seed: int, seats: Sequence[SeatRow], timer: float | None = None,
                     rematch_of: str | None = None, hints: bool = True,
                     extra: dict[str, Any] | None = None,
                     owner_hash: str | None = None, rules: int | None = None) -> TableRow:
        """Store a new open table with its seats, all at once."""
        ...

    def set_extra(self, table_id: str, extra: dict[str, Any]) -> None:
        """Store a table's extra settings (chat switched on or off)."""
        ...

    def add_chat(self, table_id: str, line: dict[str, Any]) -> None:
        """Append a chat line (`n`, `version`, `seat`, `name`, `kind`, `text`, `at`,
        `spectator`: a spectator's number at the table, else None)."""
        ...

    def chat(self, table_id: str) -> list[dict[str, Any]]:
        """A table's chat lines, in order."""
        ...

    def append_action(self, table_id: str, index: int, seat: int, notation: str) -> None:
        """Append action `index` to a table's log and commit; a taken index raises StoreError."""
        ...

    def set_status(self, table_id: str, status: str) -> None:
        """Mark a table open, playing or over; a closed table stays closed."""
        ...

    def touch(self, table_id: str) -> None:
        """Something happened at an open table now (its idle time starts again); nothing at a
        table that is not open. Joining and leaving touch it too (`claim_seat`, `set_seat`)."""
        ...

    def idle_open(self, before: dt.datetime) -> list[tuple[str, dt.datetime]]:
        """The open tables whose last activity was before `before`, each with that time."""
        ...

    def close_table(self, table_id: str, reason: str, statuses: Sequence[str] = UNFINISHED,
                    idle_before: dt.datetime | None = None) -> bool:
        """Close a table in one of `statuses` (with `idle_before`: only an open one whose last
        activity was before then), in one conditional write: status `closed`, when and
        `reason`. False if it was not, or is no longer, such a table."""
        ...

    def closed_among(self, table_ids: Sequence[str]) -> list[str]:
        """Which of `table_ids` are closed (e.g. by `tiergarten admin close`, elsewhere)."""
        ...

    def set_seat(self, table_id: str, seat: SeatRow) -> None:
        """Store who sits at one seat now (claimed, freed)."""
        ...

    def claim_seat(self, table_id: str, seat: int, name: str, token_hash: str,
                   user_id: int | None = None) -> bool:
        """Give an open human seat of an open table to `name` (an account's, if `user_id`);
        False if someone claimed it first, or the table is no longer open."""
        ...

    def table_ids(self, statuses: Sequence[str] = ("open", "playing")) -> list[str]:
        """Ids of the tables in any of `statuses`, oldest first."""
        ...

    def rematch_id(self, table_id: str) -> str | None:
        """The id of the rematch table made from `table_id`, if any."""
        ...

    def load_table(self, table_id: str) -> TableRow | None:
        """One table with its seats and its log (a copy the caller may change), or None."""
        ...

    def action_times(self, table_id: str) -> list[dt.datetime]:
        """When each action of a table's log was stored, in order (a rebuilt clock's times)."""
        ...

    def ping(self) -> None:
        """Check that the database answers and takes writes; raise StoreUnavailable if not
        (readiness)."""
        ...

    def close(self) -> None:
        """Finish the writes under way, then let go of everything."""
        ...
