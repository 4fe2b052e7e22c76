"""The players port (`player_store.PlayerStore`) in the process's memory, beside a `MemoryStore`.

It keeps what `SqlPlayerStore` keeps, in dicts, and reads and writes the seats of the same
`MemoryStore` (under its lock), so a whole server can run without a database: for fast tests
of accounts and ratings, and for trying the server out. A rating turn that raises leaves
nothing behind, as a rolled-back transaction would.

>>> from tiergarten.server.storage.memory_store import MemoryStore
>>> import datetime as dt
>>> players = MemoryPlayerStore(MemoryStore())
>>> players.add_user("Ann", "ann", "ann", "hash", dt.datetime.now(dt.UTC))
1
>>> players.user("ann").name, players.add_user("ANN", "ann", "ann", "h", dt.datetime.now(dt.UTC))
('Ann', None)
"""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import secrets
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from .memory_store import MemoryStore
from .player_store import (
    AccountSeat,
    BoardRow,
    RatingRow,
    ResultRow,
    SeatView,
    UserRow,
)


@dataclass
class _User:
    id: int
    name: str | None
    key: str | None
    skeleton: str | None
    password_hash: str | None
    created: dt.datetime
    deleted: dt.datetime | None = None

    def row(self) -> UserRow | None:
        if self.deleted is not None or self.name is None or self.password_hash is None:
            return None
        return UserRow(self.id, self.name, self.password_hash, self.created)


@dataclass
class _Data:
    users: dict[int, _User]
    sessions: dict[str, tuple[int, dt.datetime, dt.datetime]]
    results: list[ResultRow]  # in id order
    ratings: dict[tuple[int, str], RatingRow]


class MemoryRatingTurn:
    """One rating turn over the memory store's data (`MemoryPlayerStore.rating_turn`)."""

    def __init__(self, players: MemoryPlayerStore) -> None:
        self.players = players
        self.data = players._data
        self.tables = players.tables

    def rated(self, table_id: str) -> bool:
        return any(r.table_id == table_id for r in self.data.results)

    def current(self, game: str, user_ids: Sequence[int]) -> dict[int, tuple[float, float]]:
        found = {}
        for user_id in user_ids:
            rating = self.data.ratings.get((user_id, game))
            if rating is not None:
                found[user_id] = (rating.mu, rating.sigma)
        return found

    def put_rating(self, user_id: int, game: str, mu: float, sigma: float,
                   fresh: bool) -> None:
        old = self.data.ratings.get((user_id, game))
        games = 1 if fresh or old is None else old.games + 1
        self.data.ratings[(user_id, game)] = RatingRow(user_id, game, mu, sigma, games)

    def add_results(self, rows: Sequence[ResultRow]) -> None:
        self.data.results.extend(rows)

    def ended_at(self, table_id: str) -> dt.datetime | None:
        times = self.tables._times.get(table_id)
        return times[-1] if times else None

    def finished(self) -> dict[str, dt.datetime]:
        return {t.id: self.tables._times[t.id][-1] for t in self.tables._tables.values()
                if t.status == "over" and self.tables._times.get(t.id)}

    def rated_order(self) -> list[str]:
        order: dict[str, None] = {}
        for r in self.data.results:
            order.setdefault(r.table_id, None)
        return list(order)

    def clear_ratings(self) -> None:
        self.data.ratings.clear()

    def clear_results(self) -> None:
        self.data.results.clear()


class MemoryPlayerStore:
    """Accounts, sessions, keys, seats of accounts, results and ratings in memory, beside
    `tables` (a `PlayerStore`)."""

    def __init__(self, tables: MemoryStore) -> None:
        self.tables = tables
        self._lock = tables._lock  # one lock for the tables and the players: no order to keep
        self._data = _Data({}, {}, [], {})
        self._ids = itertools.count(1)
        self._keys = {"seat_tokens": secrets.token_hex(32)}
        tables.account_name = self._name_of

    def _name_of(self, user_id: int) -> str | None:
        with self._lock:
            user = self._data.users.get(user_id)
            return None if user is None or user.deleted is not None else user.name

    def _live(self) -> Iterator[_User]:
        return (u for u in self._data.users.values() if u.deleted is None)

    # -- accounts ------------------------------------------------------------------------------

    def add_user(self, name: str, key: str, skeleton: str, password_hash: str,
                 created: dt.datetime) -> int | None:
        with self._lock:
            if any(u.key == key or u.skeleton == skeleton for u in self._live()) \
                    or self._suffixed(skeleton):
                return None
            user_id = next(self._ids)
            self._data.users[user_id] = _User(user_id, name, key, skeleton, password_hash,
                                              created)
            return user_id

    def _suffixed(self, skeleton: str) -> bool:
        return any(u.skeleton is not None and u.skeleton.startswith(skeleton + "#")
                   for u in self._live())

    def user(self, key: str) -> UserRow | None:
        with self._lock:
            return next((r for u in self._live() if u.key == key
                         for r in [u.row()] if r is not None), None)

    def user_by_id(self, user_id: int) -> UserRow | None:
        with self._lock:
            user = self._data.users.get(user_id)
            return None if user is None else user.row()

    def look_alike(self, skeleton: str) -> bool:
        with self._lock:
            return any(u.skeleton == skeleton for u in self._live()) or self._suffixed(skeleton)

    def set_password(self, user_id: int, password_hash: str, keep: str | None) -> None:
        with self._lock:
            self._data.users[user_id].password_hash = password_hash
            for id_hash, (owner, _, _) in list(self._data.sessions.items()):
                if owner == user_id and id_hash != keep:
                    del self._data.sessions[id_hash]

    def delete_user(self, user_id: int, seat_name: str, at: dt.datetime) -> None:
        with self._lock:
            for id_hash, (owner, _, _) in list(self._data.sessions.items()):
                if owner == user_id:
                    del self._data.sessions[id_hash]
            for table in self.tables._tables.values():
                for seat in table.seats:
                    if seat.user_id == user_id:
                        seat.name = seat_name
            user = self._data.users[user_id]
            user.name = user.key = user.skeleton = user.password_hash = None
            user.deleted = at

    def count_users(self) -> int:
        with self._lock:
            return len(self._data.users)

    # -- sessions and keys ---------------------------------------------------------------------

    def add_session(self, id_hash: str, user_id: int, created: dt.datetime,
                    expires: dt.datetime) -> None:
        with self._lock:
            self._data.sessions[id_hash] = (user_id, created, expires)

    def session(self, id_hash: str) -> tuple[UserRow, dt.datetime] | None:
        with self._lock:
            found = self._data.sessions.get(id_hash)
            if found is None:
                return None
            user = self._data.users.get(found[0])
            row = None if user is None else user.row()
            return None if row is None else (row, found[2])

    def drop_session(self, id_hash: str) -> None:
        with self._lock:
            self._data.sessions.pop(id_hash, None)

    def server_key(self, name: str) -> str | None:
        return self._keys.get(name)

    # -- seats ---------------------------------------------------------------------------------

    def account_seats(self, user_id: int) -> list[AccountSeat]:
        with self._lock:
            tables = sorted(self.tables._tables.values(), key=lambda t: t.created)
            return [AccountSeat(t.id, s.seat, t.game, t.status) for t in tables
                    if t.status in ("open", "playing") for s in t.seats
                    if s.user_id == user_id]

    def claim_seats(self, user_id: int, name: str, claims: Sequence[tuple[str, str]],
                    new_hash: Callable[[str, int], str]) -> list[tuple[str, int]]:
        done = []
        with self._lock:
            for table_id, token_hash in claims:
                table = self.tables._tables.get(table_id)
                seat = None if table is None or table.status == "closed" else next(
                    (s for s in table.seats
                     if s.token_hash == token_hash and s.user_id is None), None)
                if seat is None:
                    continue
                seat.user_id, seat.name = user_id, name
                seat.token_hash = new_hash(table_id, seat.seat)
                done.append((table_id, seat.seat))
        return done

    # -- results and ratings -------------------------------------------------------------------

    @contextlib.contextmanager
    def rating_turn(self) -> Iterator[MemoryRatingTurn]:
        with self._lock:
            saved = (list(self._data.results), dict(self._data.ratings))
            try:
                yield MemoryRatingTurn(self)
            except BaseException:
                self._data.results[:], self._data.ratings = saved[0], saved[1]
                raise

    def board(self, game: str, limit: int) -> list[BoardRow]:
        with self._lock:
            rows = []
            for (user_id, rated_game), r in self._data.ratings.items():
                user = self._data.users.get(user_id)
                if rated_game == game and user is not None and user.row() is not None:
                    assert user.name is not None
                    rows.append(BoardRow(user.name, r.mu, r.sigma, r.games))
            return sorted(rows, key=lambda b: (-b.mu, b.name))[:limit]

    def results(self, user_id: int) -> list[ResultRow]:
        with self._lock:
            return [r for r in self._data.results if r.user_id == user_id]

    def ratings(self, user_id: int) -> list[RatingRow]:
        with self._lock:
            return [r for (u, _), r in self._data.ratings.items() if u == user_id]

    def seats_at(self, table_ids: Sequence[str]) -> list[SeatView]:
        with self._lock:
            found = []
            for table_id in dict.fromkeys(table_ids):
                table = self.tables._tables.get(table_id)
                for s in [] if table is None else table.seats:
                    found.append(SeatView(table_id, s.seat, s.kind, s.bot, s.name, s.user_id,
                                          None if s.user_id is None
                                          else self._name_of(s.user_id)))
            return found

