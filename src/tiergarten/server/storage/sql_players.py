"""The players port (`player_store.PlayerStore`) in the database of a `SqlStore`.

SQLAlchemy Core over the store's own engine (SQLite or PostgreSQL), so that accounts, seats
and ratings are in the same database and transactions as the tables; a database that went
away raises `StoreUnavailable`, as the store does. Games are rated one at a time
(`rating_turn`): under a lock of this process and, on PostgreSQL, an advisory lock held to
the commit, so every process rating into the database waits its turn (docs/protocol.md,
"Ratings").

>>> from tiergarten.server.storage.sql_store import SqlStore
>>> store = SqlStore("sqlite://")
>>> players = SqlPlayerStore(store)
>>> import datetime as dt
>>> players.add_user("Ann", "ann", "ann", "hash", dt.datetime.now(dt.UTC))
1
>>> players.user("ann").name, players.add_user("ANN", "ann", "ann", "h", dt.datetime.now(dt.UTC))
('Ann', None)
>>> store.close()
"""

from __future__ import annotations

import contextlib
import datetime as dt
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from sqlalchemy import Connection, delete, func, insert, or_, select, text, update
from sqlalchemy import exc as sa_exc

from .player_store import (
    AccountSeat,
    BoardRow,
    RatingRow,
    ResultRow,
    SeatView,
    UserRow,
)
from .schema import ACTIONS, KEYS, RATINGS, RESULTS, SEATS, SESSIONS, TABLES, USERS
from .sql_store import SqlStore

LOCK_KEY = 0x7469_6572  # PostgreSQL advisory lock held while a game is rated ("tier")
_LOCAL = threading.Lock()  # the same within one process (SQLite has no advisory locks)


def _aware(moment: dt.datetime) -> dt.datetime:
    """SQLite gives datetimes back without their zone (they were stored in UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def _user(row: Any) -> UserRow:
    return UserRow(int(row.id), str(row.name), str(row.password_hash), _aware(row.created))


_USER_COLUMNS = (USERS.c.id, USERS.c.name, USERS.c.password_hash, USERS.c.created)


class SqlRatingTurn:
    """One rating transaction on one connection (`SqlPlayerStore.rating_turn`)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def rated(self, table_id: str) -> bool:
        return self.conn.execute(select(RESULTS.c.id).where(RESULTS.c.table_id == table_id)
                                 ).first() is not None

    def current(self, game: str, user_ids: Sequence[int]) -> dict[int, tuple[float, float]]:
        rows = self.conn.execute(select(RATINGS.c.user_id, RATINGS.c.mu, RATINGS.c.sigma).where(
            RATINGS.c.game == game, RATINGS.c.user_id.in_(list(user_ids))))
        return {int(r.user_id): (float(r.mu), float(r.sigma)) for r in rows}

    def put_rating(self, user_id: int, game: str, mu: float, sigma: float,
                   fresh: bool) -> None:
        if fresh:
            self.conn.execute(insert(RATINGS).values(user_id=user_id, game=game, mu=mu,
                                                     sigma=sigma, games=1))
        else:
            self.conn.execute(update(RATINGS).where(RATINGS.c.user_id == user_id,
                                                    RATINGS.c.game == game)
                              .values(mu=mu, sigma=sigma, games=RATINGS.c.games + 1))

    def add_results(self, rows: Sequence[ResultRow]) -> None:
        if rows:
            self.conn.execute(insert(RESULTS), [
                {"table_id": r.table_id, "game": r.game, "seat": r.seat, "user_id": r.user_id,
                 "rank": r.rank, "won": r.won, "rated": r.rated, "mu": r.mu, "sigma": r.sigma,
                 "at": r.at} for r in rows])

    def ended_at(self, table_id: str) -> dt.datetime | None:
        at = self.conn.execute(select(func.max(ACTIONS.c.at))
                               .where(ACTIONS.c.table_id == table_id)).scalar()
        return None if at is None else _aware(at)

    def finished(self) -> dict[str, dt.datetime]:
        return {str(r.id): _aware(r.at) for r in self.conn.execute(
            select(TABLES.c.id, func.max(ACTIONS.c.at).label("at"))
            .join(ACTIONS, ACTIONS.c.table_id == TABLES.c.id)
            .where(TABLES.c.status == "over").group_by(TABLES.c.id))}

    def rated_order(self) -> list[str]:
        return [str(r.table_id) for r in self.conn.execute(
            select(RESULTS.c.table_id, func.min(RESULTS.c.id).label("first"))
            .group_by(RESULTS.c.table_id).order_by("first"))]

    def clear_ratings(self) -> None:
        self.conn.execute(delete(RATINGS))

    def clear_results(self) -> None:
        self.conn.execute(delete(RESULTS))


class SqlPlayerStore:
    """Accounts, sessions, keys, seats of accounts, results and ratings in the store's
    database (a `PlayerStore`)."""

    def __init__(self, store: SqlStore) -> None:
        self.store = store
        self.engine = store.engine

    @contextlib.contextmanager
    def _read(self) -> Iterator[Connection]:
        with self.store._guard(write=False), self.engine.connect() as conn:
            yield conn

    @contextlib.contextmanager
    def _write(self) -> Iterator[Connection]:
        with self.store._guard(write=True), self.engine.begin() as conn:
            yield conn

    # -- accounts ------------------------------------------------------------------------------

    def add_user(self, name: str, key: str, skeleton: str, password_hash: str,
                 created: dt.datetime) -> int | None:
        try:
            with self._write() as conn:
                if self._taken(conn, key, skeleton):
                    return None
                made = conn.execute(insert(USERS).values(
                    name=name, name_key=key, name_skeleton=skeleton,
                    password_hash=password_hash, created=created))
                primary = made.inserted_primary_key
                assert primary is not None
                return int(primary[0])
        except sa_exc.IntegrityError:  # another sign-up took the key or skeleton just now
            return None

    @staticmethod
    def _taken(conn: Connection, key: str, skeleton: str) -> bool:
        return conn.execute(select(USERS.c.id).where(or_(
            USERS.c.name_key == key, USERS.c.name_skeleton == skeleton,
            _suffixed(skeleton))).limit(1)).first() is not None

    def user(self, key: str) -> UserRow | None:
        with self._read() as conn:
            row = conn.execute(select(*_USER_COLUMNS).where(
                USERS.c.name_key == key, USERS.c.deleted.is_(None))).first()
        return None if row is None else _user(row)

    def user_by_id(self, user_id: int) -> UserRow | None:
        with self._read() as conn:
            row = conn.execute(select(*_USER_COLUMNS).where(
                USERS.c.id == user_id, USERS.c.deleted.is_(None))).first()
        return None if row is None else _user(row)

    def look_alike(self, skeleton: str) -> bool:
        with self._read() as conn:
            return conn.execute(select(USERS.c.id).where(or_(
                USERS.c.name_skeleton == skeleton, _suffixed(skeleton))).limit(1)
            ).first() is not None

    def set_password(self, user_id: int, password_hash: str, keep: str | None) -> None:
        with self._write() as conn:
            conn.execute(update(USERS).where(USERS.c.id == user_id)
                         .values(password_hash=password_hash))
            others = delete(SESSIONS).where(SESSIONS.c.user_id == user_id)
            if keep:
                others = others.where(SESSIONS.c.id_hash != keep)
            conn.execute(others)

    def delete_user(self, user_id: int, seat_name: str, at: dt.datetime) -> None:
        with self._write() as conn:
            conn.execute(delete(SESSIONS).where(SESSIONS.c.user_id == user_id))
            conn.execute(update(SEATS).where(SEATS.c.user_id == user_id).values(name=seat_name))
            conn.execute(update(USERS).where(USERS.c.id == user_id).values(
                name=None, name_key=None, name_skeleton=None, password_hash=None, deleted=at))

    def count_users(self) -> int:
        with self._read() as conn:
            return int(conn.execute(select(func.count()).select_from(USERS)).scalar() or 0)

    # -- sessions and keys ---------------------------------------------------------------------

    def add_session(self, id_hash: str, user_id: int, created: dt.datetime,
                    expires: dt.datetime) -> None:
        with self._write() as conn:
            conn.execute(insert(SESSIONS).values(id_hash=id_hash, user_id=user_id,
                                                 created=created, expires=expires))

    def session(self, id_hash: str) -> tuple[UserRow, dt.datetime] | None:
        with self._read() as conn:
            row = conn.execute(
                select(*_USER_COLUMNS, SESSIONS.c.expires)
                .join(USERS, USERS.c.id == SESSIONS.c.user_id)
                .where(SESSIONS.c.id_hash == id_hash, USERS.c.deleted.is_(None))).first()
        return None if row is None else (_user(row), _aware(row.expires))

    def drop_session(self, id_hash: str) -> None:
        with self._write() as conn:
            conn.execute(delete(SESSIONS).where(SESSIONS.c.id_hash == id_hash))

    def server_key(self, name: str) -> str | None:
        with self._read() as conn:
            found = conn.execute(select(KEYS.c.value).where(KEYS.c.name == name)).scalar()
        return None if found is None else str(found)

    # -- seats ---------------------------------------------------------------------------------

    def account_seats(self, user_id: int) -> list[AccountSeat]:
        with self._read() as conn:
            rows = conn.execute(
                select(SEATS.c.table_id, SEATS.c.seat, TABLES.c.game, TABLES.c.status)
                .join(TABLES, TABLES.c.id == SEATS.c.table_id)
                .where(SEATS.c.user_id == user_id, TABLES.c.status.in_(("open", "playing")))
                .order_by(TABLES.c.created, SEATS.c.seat))
            return [AccountSeat(r.table_id, r.seat, r.game, r.status) for r in rows]

    def claim_seats(self, user_id: int, name: str, claims: Sequence[tuple[str, str]],
                    new_hash: Callable[[str, int], str]) -> list[tuple[str, int]]:
        done = []
        with self._write() as conn:
            for table_id, token_hash in claims:
                row = conn.execute(select(SEATS.c.seat).join(
                    TABLES, TABLES.c.id == SEATS.c.table_id).where(
                    SEATS.c.table_id == table_id, SEATS.c.token_hash == token_hash,
                    SEATS.c.user_id.is_(None), TABLES.c.status != "closed")).first()
                if row is None:
                    continue
                conn.execute(update(SEATS).where(
                    SEATS.c.table_id == table_id, SEATS.c.seat == row.seat).values(
                    user_id=user_id, name=name, token_hash=new_hash(table_id, row.seat)))
                done.append((table_id, int(row.seat)))
        return done

    # -- results and ratings -------------------------------------------------------------------

    @contextlib.contextmanager
    def rating_turn(self) -> Iterator[SqlRatingTurn]:
        """This process's lock, and on PostgreSQL an advisory lock held until the commit; the
        local lock is let go only after the commit."""
        with self.store._guard(write=True), _LOCAL, self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
            yield SqlRatingTurn(conn)

    def board(self, game: str, limit: int) -> list[BoardRow]:
        with self._read() as conn:
            rows = conn.execute(
                select(USERS.c.name, RATINGS.c.mu, RATINGS.c.sigma, RATINGS.c.games)
                .join(USERS, USERS.c.id == RATINGS.c.user_id)
                .where(RATINGS.c.game == game, USERS.c.deleted.is_(None))
                .order_by(RATINGS.c.mu.desc(), USERS.c.name).limit(limit))
            return [BoardRow(r.name, r.mu, r.sigma, r.games) for r in rows]

    def results(self, user_id: int) -> list[ResultRow]:
        with self._read() as conn:
            rows = conn.execute(select(RESULTS).where(RESULTS.c.user_id == user_id)
                                .order_by(RESULTS.c.id)).all()
        return [ResultRow(r.table_id, r.game, r.seat, r.user_id, r.rank, bool(r.won),
                          bool(r.rated), r.mu, r.sigma, _aware(r.at)) for r in rows]

    def ratings(self, user_id: int) -> list[RatingRow]:
        with self._read() as conn:
            rows = conn.execute(select(RATINGS).where(RATINGS.c.user_id == user_id)).all()
        return [RatingRow(r.user_id, r.game, r.mu, r.sigma, r.games) for r in rows]

    def seats_at(self, table_ids: Sequence[str]) -> list[SeatView]:
        with self._read() as conn:
            rows = conn.execute(
                select(SEATS.c.table_id, SEATS.c.seat, SEATS.c.kind, SEATS.c.bot, SEATS.c.name,
                       SEATS.c.user_id, USERS.c.name.label("account"))
                .outerjoin(USERS, USERS.c.id == SEATS.c.user_id)
                .where(SEATS.c.table_id.in_(list(table_ids)))).all()
        return [SeatView(r.table_id, r.seat, r.kind, r.bot, r.name, r.user_id, r.account)
                for r in rows]


def _suffixed(skeleton: str) -> Any:
    """The skeletons kept apart by migration 0006: `skeleton#id`."""
    return USERS.c.name_skeleton.startswith(skeleton + "#", autoescape=True)
