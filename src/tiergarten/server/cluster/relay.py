"""The worker's side: connections to a table that another worker owns.

A `Relay` stands, on the worker that holds the connections, for a table owned elsewhere. It
offers the websocket route what a `LiveTable` does (seat_of, connect, handle, disconnect) and
turns each into a frame for the owner: `A` attach (a connection, its seat, its measured half
round trip), `M` a client message (its text, the wall-clock time it arrived here and the
connection's latency credit, which the owner's fair queue needs), `X` detach, `L` a changed
latency credit. What comes back (`D` frames naming connections, `C` to close one) goes to
exactly the connections named: the relay never builds a message about the game.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from tiergarten.core.registry import game_class

from ..edge.protocol import Act, Auth, Sync
from ..storage.store import TableRow
from ..table.connection import Connection
from ..table.seats import Seats
from .bus import Bus

ATTACH, MESSAGE, DETACH, LATENCY = b"A", b"M", b"X", b"L"
RECONNECT = 1012  # the close code that asks a client to come back (docs/protocol.md)
_STATE = b'{"type":"state","version":'


class Relay:
    """A table owned by worker `owner`, as the connections of this worker reach it."""

    def __init__(self, hub: RelayHub, row: TableRow, owner: str) -> None:
        self.hub = hub
        self.id = row.id
        self.row = row
        self.owner = owner
        self.seats = Seats(row.seats)
        self.real_time = game_class(row.game).info.real_time
        self.version: int | None = None  # the last state relayed (for errors answered here)
        self.conns: dict[int, Connection] = {}

    @property
    def status(self) -> str:
        return self.row.status  # as stored when the connection came

    def seat_of(self, token: str) -> int | None:
        return self.seats.seat_of(token)

    def connect(self, conn: Connection) -> None:
        conn_id = self.hub.register(self, conn)
        self.conns[conn_id] = conn
        self.hub.bus.send(self.owner, ATTACH, {"t": self.id, "c": conn_id, "s": conn.seat,
                                               "w": self.hub.bus.worker_id,
                                               "h": conn.credit(1.0), "a": conn.address,
                                               "u": conn.account})
        self.hub.watch_greeting(conn_id)

    async def handle(self, conn: Connection, message: Act | Auth | Sync) -> None:
        """Forward one client message to the owner, with its arrival and latency credit."""
        conn_id = self.hub.id_of(conn)
        if conn_id is None:
            return
        self.hub.bus.send(self.owner, MESSAGE, {"c": conn_id, "w": self.hub.bus.worker_id,
                                                "at": time.time(), "h": conn.credit(1.0)},
                          message.model_dump_json().encode())

    def disconnect(self, conn: Connection) -> None:
        conn_id = self.hub.forget(conn)
        if conn_id is not None:
            self.conns.pop(conn_id, None)
            self.hub.bus.send(self.owner, DETACH, {"c": conn_id, "w": self.hub.bus.worker_id})
        if not self.conns:
            self.hub.drop(self)

    def seen(self, body: bytes) -> None:
        if body.startswith(_STATE):
            end = body.find(b",", len(_STATE))
            if end > 0:
                self.version = int(body[len(_STATE):end])


class RelayHub:
    """Every relay of this worker and the connections behind them, by connection id."""

    def __init__(self, bus: Bus, greet_within: float) -> None:
        self.bus = bus
        self.greet_within = greet_within
        self.relays: dict[str, Relay] = {}
        self._conns: dict[int, tuple[Connection, Relay]] = {}
        self._ids: dict[int, int] = {}  # id(connection) -> its connection id
        self._greeted: set[int] = set()
        self._next = 1
        self._credits: dict[int, float] = {}

    def relay(self, row: TableRow, owner: str) -> Relay:
        found = self.relays.get(row.id)
        if found is None or found.owner != owner:
            found = self.relays[row.id] = Relay(self, row, owner)
        else:
            found.seats = Seats(row.seats)  # seats claimed since (the store has them)
        return found

    def register(self, relay: Relay, conn: Connection) -> int:
        conn_id = self._next
        self._next += 1
        self._conns[conn_id] = (conn, relay)
        self._ids[id(conn)] = conn_id
        return conn_id

    def id_of(self, conn: Connection) -> int | None:
        return self._ids.get(id(conn))

    def forget(self, conn: Connection) -> int | None:
        conn_id = self._ids.pop(id(conn), None)
        if conn_id is not None:
            self._conns.pop(conn_id, None)
            self._greeted.discard(conn_id)
            self._credits.pop(conn_id, None)
        return conn_id

    def drop(self, relay: Relay) -> None:
        if self.relays.get(relay.id) is relay:
            del self.relays[relay.id]

    @property
    def connections(self) -> int:
        return len(self._conns)

    # -- from the owner ----------------------------------------------------------------------

    def deliver(self, header: dict[str, Any], body: bytes) -> None:
        text: str | None = None
        for conn_id in header["c"]:
            found = self._conns.get(conn_id)
            if found is None:
                continue  # gone meanwhile; its detach is on its way
            conn, relay = found
            if text is None:
                text = body.decode()
                relay.seen(body)
            self._greeted.add(conn_id)
            conn.send(text)

    def control(self, header: dict[str, Any]) -> None:
        found = self._conns.get(header.get("close", -1))
        if found is not None:
            found[0].close(int(header["code"]), str(header["reason"]), bool(header.get("drop")))

    def owner_changed(self, table_id: str, owner: str) -> None:
        """Another worker took the table over: our connections were the old owner's; they
        reconnect (and are greeted again by the new owner)."""
        relay = self.relays.get(table_id)
        if relay is not None and relay.owner != owner:
            self.close_relay(relay, "the table moved to another server; reconnect")

    def owner_lost(self, dead: set[str]) -> None:
        for relay in list(self.relays.values()):
            if relay.owner in dead:
                self.close_relay(relay, "the table's server stopped; reconnect")

    def close_relay(self, relay: Relay, reason: str) -> None:
        for conn in list(relay.conns.values()):
            conn.close(RECONNECT, reason)
        self.drop(relay)

    def close_all(self, reason: str) -> None:
        for relay in list(self.relays.values()):
            self.close_relay(relay, reason)

    def owners(self) -> set[str]:
        return {r.owner for r in self.relays.values()}

    # -- timers ------------------------------------------------------------------------------

    def watch_greeting(self, conn_id: int) -> None:
        """A connection the owner never greets (it died before the lease ran out) is asked
        to reconnect, and finds the table's next owner."""
        def check() -> None:
            found = self._conns.get(conn_id)
            if found is not None and conn_id not in self._greeted:
                found[0].close(RECONNECT, "the table's server did not answer; reconnect")

        asyncio.get_running_loop().call_later(self.greet_within, check)

    def report_latency(self) -> None:
        """Tell owners of real-time tables the latency credit their connections have now (the
        fair queue's window is the largest of them)."""
        for conn_id, (conn, relay) in list(self._conns.items()):
            if not relay.real_time:
                continue
            half = round(conn.credit(1.0), 4)
            if abs(self._credits.get(conn_id, 0.0) - half) >= 0.001:
                self._credits[conn_id] = half
                self.bus.send(relay.owner, LATENCY, {"c": conn_id, "w": self.bus.worker_id,
                                                     "h": half})

