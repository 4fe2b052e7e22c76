"""The database: tables, seats and an append-only action log (SQLAlchemy 2 Core).

SQLite (WAL) in the user's data folder by default; PostgreSQL when given `postgresql://...`.
Live games are never stored as state: a table's state is rebuilt by replaying its log.
`SqlStore` is the server's `Store` (server/storage/store.py says what a table needs of one).

`SqlStore.writer` is the pool of threads in which live tables commit their actions, so that the
event loop serves other tables while a commit waits for the disk (and, with PostgreSQL, for
the database's round trip): one thread for SQLite (it takes one writer at a time anyway, and
one thread never waits on its own lock), `POSTGRES_WRITERS` for PostgreSQL, whose connection
pool is sized to match. The order of acts at one table is kept by the table, not here.

A database that cannot be reached or cannot take writes (PostgreSQL stopped, a SQLite file that
became read-only or full) raises `StoreUnavailable` from every method, never a driver's error;
`ping` says whether it is back (it tries a harmless write after a write failed).

>>> store = SqlStore("sqlite://")
>>> table = store.create_table("t1", "maumau", 2, {"rounds": 1}, seed=7, seats=[
...     SeatRow(0, "bot", bot="random"), SeatRow(1, "human")])
>>> store.append_action("t1", 0, 1, "draw")
>>> store.load_table("t1").actions
[(1, 'draw')]
>>> store.close()
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from sqlalchemy import (
    Engine,
    exists,
    func,
    insert,
    select,
    update,
)

from . import migrate
from .database import DOWN, connect, database_url, first_line
from .schema import ACTIONS, CHAT, SEATS, TABLES, USERS
from .sql_closing import SqlClosing, aware
from .store import CLOSED, SeatRow, StoreError, StoreUnavailable, TableRow, utc_now

__all__ = ["DOWN", "POSTGRES_WRITERS", "SqlStore", "database_url"]

POSTGRES_WRITERS = 3  # threads committing actions at once (PostgreSQL)


class SqlStore(SqlClosing):
    """Tables, seats and the append-only action log in one database (a `Store`)."""

    def __init__(self, db: str | os.PathLike[str] | None = None, upgrade: bool = True) -> None:
        self.url = database_url(db)
        writers = POSTGRES_WRITERS if self.url.startswith("postgresql") else 1
        self.engine: Engine = connect(self.url, writers)
        dialect = self.engine.dialect
        self._dbapi: Any = cast(Any, dialect.dbapi)
        self._down = (*DOWN, self._dbapi.OperationalError, self._dbapi.InterfaceError,
                      self._dbapi.InternalError)
        self.write_error: str | None = None  # why the last write failed, until one succeeds
        self.clock = utc_now  # every time written (tests give one of their own)
        mark = "?" if dialect.paramstyle == "qmark" else "%s"
        self._insert_action = ('INSERT INTO actions (table_id, "index", seat, notation, at) '
                               f"VALUES ({mark}, {mark}, {mark}, {mark}, {mark})")
        convert = ACTIONS.c.at.type.bind_processor(dialect)
        self._at: Any = convert if convert is not None else (lambda value: value)
        self._local = threading.local()  # each thread's connection for `append_action`
        self._log_connections: list[Any] = []
        self._lock = threading.Lock()
        self.writer = ThreadPoolExecutor(max_workers=writers, thread_name_prefix="tg-store")
        if upgrade:  # (not for `tiergarten admin`: it checks the schema is this release's)
            migrate.upgrade(self.engine)  # the schema of this tiergarten, every row kept

    def close(self) -> None:
        """Finish the writes under way, then release every connection (do this before
        stopping a database server)."""
        self.writer.shutdown(wait=True)
        for conn in self._log_connections:
            with contextlib.suppress(Exception):
                conn.invalidate()  # held since the first write; the pool need not reset it
        self._log_connections.clear()
        self.engine.dispose()

    @contextlib.contextmanager
    def _guard(self, write: bool) -> Iterator[None]:
        """Turn a database that is not there into StoreUnavailable (and note a failed write)."""
        try:
            yield
        except self._down as exc:
            reason = first_line(exc)
            if write:
                self.write_error = reason
            raise StoreUnavailable(f"the database is unavailable ({reason})") from exc
        if write:
            self.write_error = None

    def ping(self) -> None:
        """Raise StoreUnavailable unless the database answers; after a failed write, unless a
        write (one that changes nothing) goes through too."""
        with self._guard(write=False), self.engine.connect() as conn:
            conn.execute(select(1))
        if self.write_error is not None:
            first = select(func.min(TABLES.c.id)).scalar_subquery()
            with self._guard(write=True), self.engine.begin() as conn:
                conn.execute(update(TABLES).where(TABLES.c.id == first)
                             .values(status=TABLES.c.status))

    # -- writing -----------------------------------------------------------------------------

    def create_table(self, table_id: str, game: str, players: int, options: dict[str, Any],
                     seed: int, seats: Sequence[SeatRow], timer: float | None = None,
                     rematch_of: str | None = None, hints: bool = True,
                     extra: dict[str, Any] | None = None,
                     owner_hash: str | None = None, rules: int | None = None) -> TableRow:
        """Store a new open table with its seats, in one transaction."""
        row = TableRow(table_id, game, players, dict(options), seed, self.clock(), "open", timer,
                       rematch_of, list(seats), hints=hints, extra=dict(extra or {}),
                       owner_hash=owner_hash, rules=rules)
        row.active = row.created
        with self._guard(write=True), self.engine.begin() as conn:
            conn.execute(insert(TABLES).values(
                id=row.id, game=game, players=players, options=row.options, seed=seed,
                created=row.created, status=row.status, timer=timer, rematch_of=rematch_of,
                hints=hints, extra=row.extra, owner_hash=owner_hash, rules=rules,
                active=row.active))
            conn.execute(insert(SEATS), [
                {"table_id": table_id, "seat": s.seat, "kind": s.kind, "bot": s.bot,
                 "name": s.name, "token_hash": s.token_hash, "user_id": s.user_id}
                for s in row.seats])
        return row

    def append_action(self, table_id: str, index: int, seat: int, notation: str) -> None:
        """Append one action to a table's log and commit; an index already used is refused.

        The one write of every move, so it skips SQLAlchemy's per-statement work: one INSERT,
        committed by itself (one round trip), on a DBAPI connection that the calling thread
        keeps (the store's writer threads; see `SqlStore.writer`). A kept connection found
        dead (the database restarted since) is replaced and the INSERT tried once more: if the
        first one had been stored after all, the log refuses the second (StoreError), and the
        table reads the log back to know."""
        with self._guard(write=True):
            for attempt in (1, 2):
                kept = getattr(self._local, "conn", None) is not None
                conn = self._log_connection()
                try:
                    cursor = conn.cursor()
                    try:
                        cursor.execute(self._insert_action,
                                       (table_id, index, seat, notation, self._at(self.clock())))
                    finally:
                        cursor.close()
                    return
                except self._dbapi.IntegrityError as exc:
                    raise StoreError(f"table {table_id} already has an action {index}") from exc
                except Exception as exc:
                    dead = (kept and attempt == 1 and isinstance(exc, self._dbapi.Error)
                            and self.engine.dialect.is_disconnect(exc, conn.driver_connection,
                                                                  None))
                    self._drop_log_connection()  # perhaps broken: the next write gets a new one
                    if not dead:
                        raise

    def _log_connection(self) -> Any:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self.engine.raw_connection()
            driver: Any = conn.driver_connection
            if self.engine.dialect.name == "sqlite":
                driver.isolation_level = None  # autocommit: each INSERT is its own transaction
            else:
                driver.autocommit = True
            self._local.conn = conn
            with self._lock:
                self._log_connections.append(conn)
        return conn

    def _drop_log_connection(self) -> None:
        conn = getattr(self._local, "conn", None)
        self._local.conn = None
        if conn is not None:
            with self._lock:
                if conn in self._log_connections:
                    self._log_connections.remove(conn)
            with contextlib.suppress(Exception):
                conn.invalidate()

    def set_extra(self, table_id: str, extra: dict[str, Any]) -> None:
        with self._guard(write=True), self.engine.begin() as conn:
            conn.execute(update(TABLES).where(TABLES.c.id == table_id).values(extra=extra))

    def add_chat(self, table_id: str, line: dict[str, Any]) -> None:
        with self._guard(write=True), self.engine.begin() as conn:
            conn.execute(insert(CHAT).values(table_id=table_id, **line))

    def chat(self, table_id: str) -> list[dict[str, Any]]:
        with self._guard(write=False), self.engine.connect() as conn:
            rows = conn.execute(select(CHAT).where(CHAT.c.table_id == table_id)
                                .order_by(CHAT.c.n))
            return [{"n": r.n, "version": r.version, "seat": r.seat, "name": r.name,
                     "kind": r.kind, "text": r.text, "at": r.at, "spectator": r.spectator}
                    for r in rows]

    def set_status(self, table_id: str, status: str) -> None:
        """Mark a table open, playing or over; a closed table stays closed."""
        with self._guard(write=True), self.engine.begin() as conn:
            conn.execute(update(TABLES).where(TABLES.c.id == table_id,
                                              TABLES.c.status != CLOSED).values(status=status))

    def set_seat(self, table_id: str, seat: SeatRow) -> None:
        """Store who sits at one seat now (claimed, freed); at an open table, activity."""
        with self._guard(write=True), self.engine.begin() as conn:
            conn.execute(update(SEATS).where(SEATS.c.table_id == table_id,
                                             SEATS.c.seat == seat.seat).values(
                kind=seat.kind, bot=seat.bot, name=seat.name, token_hash=seat.token_hash,
                user_id=seat.user_id))
            conn.execute(update(TABLES).where(TABLES.c.id == table_id, TABLES.c.status == "open")
                         .values(active=self.clock()))

    def claim_seat(self, table_id: str, seat: int, name: str, token_hash: str,
                   user_id: int | None = None) -> bool:
        """Give an open human seat of an open table to `name` (an account's, if `user_id`);
        False if someone claimed it first, or the table is no longer open."""
        is_open = exists().where(TABLES.c.id == table_id, TABLES.c.status == "open")
        with self._guard(write=True), self.engine.begin() as conn:
            done = conn.execute(update(SEATS).where(
                SEATS.c.table_id == table_id, SEATS.c.seat == seat, SEATS.c.kind == "human",
                SEATS.c.token_hash.is_(None), is_open).values(name=name, token_hash=token_hash,
                                                              user_id=user_id))
            if done.rowcount == 1:  # activity: the table's idle time starts again
                conn.execute(update(TABLES).where(TABLES.c.id == table_id)
                             .values(active=self.clock()))
            return bool(done.rowcount == 1)

    # -- reading -----------------------------------------------------------------------------

    def table_ids(self, statuses: Sequence[str] = ("open", "playing")) -> list[str]:
        """Ids of the tables in any of `statuses`, oldest first."""
        with self._guard(write=False), self.engine.connect() as conn:
            rows = conn.execute(select(TABLES.c.id).where(TABLES.c.status.in_(statuses))
                                .order_by(TABLES.c.created, TABLES.c.id))
            return [r.id for r in rows]

    def rematch_id(self, table_id: str) -> str | None:
        """The id of the rematch table made from `table_id`, if any."""
        with self._guard(write=False), self.engine.connect() as conn:
            row = conn.execute(select(TABLES.c.id).where(TABLES.c.rematch_of == table_id)).first()
            return None if row is None else str(row.id)

    def load_table(self, table_id: str) -> TableRow | None:
        """One table with its seats and its log, or None."""
        with self._guard(write=False), self.engine.connect() as conn:
            t = conn.execute(select(TABLES).where(TABLES.c.id == table_id)).first()
            if t is None:
                return None
            seat_rows = conn.execute(
                select(SEATS, USERS.c.name.label("account"))
                .outerjoin(USERS, USERS.c.id == SEATS.c.user_id)
                .where(SEATS.c.table_id == table_id).order_by(SEATS.c.seat))
            log = conn.execute(select(ACTIONS.c["index"], ACTIONS.c.seat, ACTIONS.c.notation)
                               .where(ACTIONS.c.table_id == table_id)
                               .order_by(ACTIONS.c["index"]))
            row = TableRow(t.id, t.game, t.players, dict(t.options), int(t.seed), t.created,
                           t.status, t.timer, t.rematch_of, hints=bool(t.hints),
                           extra=dict(t.extra or {}), owner_hash=t.owner_hash, rules=t.rules,
                           active=aware(t.active), closed=aware(t.closed),
                           close_reason=t.close_reason)
            row.seats = [SeatRow(s.seat, s.kind, s.bot, s.name, s.token_hash, s.user_id,
                                 s.account) for s in seat_rows]
            for expected, entry in enumerate(log):
                if entry[0] != expected:
                    raise StoreError(f"table {table_id}: action {expected} is missing "
                                     f"from the log")
                row.actions.append((entry.seat, entry.notation))
            return row

    def action_times(self, table_id: str) -> list[dt.datetime]:
        """When each action of a table's log was stored, in order (timezone-aware)."""
        with self._guard(write=False), self.engine.connect() as conn:
            rows = conn.execute(select(ACTIONS.c.at).where(ACTIONS.c.table_id == table_id)
                                .order_by(ACTIONS.c["index"]))
            return [at if at.tzinfo else at.replace(tzinfo=dt.UTC) for at in rows.scalars()]


