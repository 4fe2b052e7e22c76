"""What the table manager is given and gives (manager.py): which tables this process runs
(`Ownership`: all of them, `SOLE`, or a cluster's leases), the table a websocket talks to
(`Playable`: a live table, or a cluster's relay to the process that runs it) and a signed-in
player as a table sees them (`Account`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..storage.store import TableRow
from .connection import Connection
from .tables import ToTable


class Ownership(Protocol):
    """Which tables this process may run. One process runs them all (`SOLE`); in a deployment
    of several, a table's lease says (server/cluster)."""

    # whether other processes run tables of the same store: a new table that waits for people
    # is then run by the process that serves its first request (the proxy routes a table's
    # requests by its id: docs/deploy.md, "Routing"), not by the one that made it
    shared: bool

    def holds(self, table_id: str) -> bool:
        """Whether this process owns the table now (taking it if nobody does)."""
        ...

    def claim(self, table_id: str) -> None:
        """Own a table about to be created (its id is new)."""
        ...

    def release(self, table_id: str) -> None:
        """Own it no more (it is over and nobody watches it)."""
        ...


class _Sole:
    """One process: it owns every table."""

    shared = False

    def holds(self, table_id: str) -> bool:
        return True

    def claim(self, table_id: str) -> None:
        pass

    def release(self, table_id: str) -> None:
        pass


SOLE = _Sole()


class Playable(Protocol):
    """What the websocket route needs of a table: a `LiveTable`, or (server/cluster) a relay
    to the process that owns it."""

    real_time: bool
    row: TableRow  # as stored (a relay's: when its connection came)

    @property
    def version(self) -> int | None: ...

    @property
    def status(self) -> str: ...

    def seat_of(self, token: str) -> int | None: ...

    def connect(self, peer: Connection) -> None: ...

    def disconnect(self, peer: Connection) -> None: ...

    async def handle(self, peer: Connection, message: ToTable) -> None: ...


Locate = Callable[[str], Awaitable[Any]]  # -> Playable | None (a LiveTable or a relay)


@dataclass(frozen=True)
class Account:
    """A signed-in player as a table sees them: id, user name, and their seat tokens."""

    id: int
    name: str
    tokens: Callable[[str, int, int], str]

    def seat_token(self, table_id: str, seat: int) -> str:
        return self.tokens(table_id, seat, self.id)
