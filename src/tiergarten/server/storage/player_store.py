"""What accounts and ratings need of storage (`PlayerStore`, the players port), and its rows.

The players port is to server/players/ what `Store` (store.py) is to a live table: accounts
(`players/accounts.py`) and the ratings logic (`players/ratings.py`) reach users, sessions,
the server's keys, the seats of accounts, results and ratings only through it. Two stores
implement it: `sql_players.SqlPlayerStore` over a `SqlStore`'s database (SQLite or
PostgreSQL, SQLAlchemy Core) and `memory_players.MemoryPlayerStore` beside a `MemoryStore`
(the same tables' seats, in the process's memory). Both keep what the other keeps and answer
alike; tests/server/test_players_port.py runs the same behaviour over each.

A *live* account is one not deleted: a deleted account keeps its id (its results stay) but no
name, key or password, and no lookup finds it. Every method blocks: callers off the event
loop run them in a thread. A database that went away raises `StoreUnavailable`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class UserRow:
    """A live account as stored."""

    id: int
    name: str
    password_hash: str
    created: dt.datetime


@dataclass(frozen=True)
class ResultRow:
    """What one finished game did to one seated account (`mu`, `sigma`: its rating after a
    rated game, else None)."""

    table_id: str
    game: str
    seat: int
    user_id: int
    rank: int
    won: bool
    rated: bool
    mu: float | None
    sigma: float | None
    at: dt.datetime


@dataclass(frozen=True)
class RatingRow:
    user_id: int
    game: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class BoardRow:
    """One live account on a game's leaderboard."""

    name: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class SeatView:
    """A seat as a profile shows it: who sat there (`account`: the live account's name)."""

    table_id: str
    seat: int
    kind: str
    bot: str | None
    name: str | None
    user_id: int | None
    account: str | None


@dataclass(frozen=True)
class AccountSeat:
    """A seat of an account at a table that is not over."""

    table_id: str
    seat: int
    game: str
    status: str


class RatingTurn(Protocol):
    """One transaction in which one game at a time is rated (`PlayerStore.rating_turn`):
    what it wrote is kept together when the turn ends, or not at all if it raised."""

    def rated(self, table_id: str) -> bool:
        """Whether the table's game has results already."""
        ...

    def current(self, game: str, user_ids: Sequence[int]) -> dict[int, tuple[float, float]]:
        """(mu, sigma) in `game` of those of `user_ids` that have a rating there."""
        ...

    def put_rating(self, user_id: int, game: str, mu: float, sigma: float,
                   fresh: bool) -> None:
        """Set an account's rating in a game, counting one more game (`fresh`: its first)."""
        ...

    def add_results(self, rows: Sequence[ResultRow]) -> None:
        """Append results; they take the next ids, in this order (the rating order)."""
        ...

    def ended_at(self, table_id: str) -> dt.datetime | None:
        """When the table's last act was stored (None: it has none)."""
        ...

    def finished(self) -> dict[str, dt.datetime]:
        """Every table that is over and has acts, with its last act's time."""
        ...

    def rated_order(self) -> list[str]:
        """Every table with results, by its first result's id (the order they were rated)."""
        ...

    def clear_ratings(self) -> None:
        ...

    def clear_results(self) -> None:
        ...


class PlayerStore(Protocol):
    """Accounts, sessions, server keys, the seats of accounts, results and ratings."""

    # -- accounts ------------------------------------------------------------------------------

    def add_user(self, name: str, key: str, skeleton: str, password_hash: str,
                 created: dt.datetime) -> int | None:
        """A new live account; None if a live account has that key or skeleton already (the
        check and the write are one: of two at once, one gets None)."""
        ...

    def user(self, key: str) -> UserRow | None:
        """The live account whose name has this key (`accounts.name_key`)."""
        ...

    def user_by_id(self, user_id: int) -> UserRow | None:
        """The live account of this id."""
        ...

    def look_alike(self, skeleton: str) -> bool:
        """Whether a live account's name has this skeleton (`names.skeleton`), its own or, for
        two accounts that collided before skeletons were kept, the one suffixed to it."""
        ...

    def set_password(self, user_id: int, password_hash: str, keep: str | None) -> None:
        """A new password hash; every session of the account ends but the one whose hash is
        `keep`."""
        ...

    def delete_user(self, user_id: int, seat_name: str, at: dt.datetime) -> None:
        """The account goes: its sessions, name, key and password; its seats are renamed
        `seat_name`, its results stay."""
        ...

    def count_users(self) -> int:
        """Accounts ever made (deleted ones too)."""
        ...

    # -- sessions and keys ---------------------------------------------------------------------

    def add_session(self, id_hash: str, user_id: int, created: dt.datetime,
                    expires: dt.datetime) -> None:
        ...

    def session(self, id_hash: str) -> tuple[UserRow, dt.datetime] | None:
        """The live account of a session, and when the session expires (timezone-aware)."""
        ...

    def drop_session(self, id_hash: str) -> None:
        ...

    def server_key(self, name: str) -> str | None:
        """A key of the server's (hex), e.g. `seat_tokens`, made with the database."""
        ...

    # -- seats ---------------------------------------------------------------------------------

    def account_seats(self, user_id: int) -> list[AccountSeat]:
        """The account's seats at tables open or playing (not over, not closed), oldest table
        first, then by seat."""
        ...

    def claim_seats(self, user_id: int, name: str, claims: Sequence[tuple[str, str]],
                    new_hash: Callable[[str, int], str]) -> list[tuple[str, int]]:
        """For each (table, token hash) of a guest's seat: the seat becomes the account's,
        named `name`, with the token hash `new_hash(table, seat)` (none at a closed table);
        the seats claimed."""
        ...

    # -- results and ratings -------------------------------------------------------------------

    def rating_turn(self) -> AbstractContextManager[RatingTurn]:
        """The one transaction in which a game is rated: one at a time, in this process and
        (on PostgreSQL) in every process on the database."""
        ...

    def board(self, game: str, limit: int) -> list[BoardRow]:
        """The live accounts rated in `game`, best mu first (then by name)."""
        ...

    def results(self, user_id: int) -> list[ResultRow]:
        """An account's results, in the order they were rated."""
        ...

    def ratings(self, user_id: int) -> list[RatingRow]:
        ...

    def seats_at(self, table_ids: Sequence[str]) -> list[SeatView]:
        """Every seat of these tables."""
        ...
