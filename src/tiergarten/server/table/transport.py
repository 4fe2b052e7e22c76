"""How a table reaches its connections: a `Transport` delivers to the connections of a seat.

A table never holds its connections. It asks the transport who is listening (`audience`: the
seats with at least one connection, None for spectators), builds one message per seat from that
seat's observation, and hands it over (`deliver`); the transport gets it to every connection of
that seat, wherever it is. Answers meant for one connection alone (its greeting, an error) go
to that connection, a `Peer`.

`LocalTransport` is the transport of one server process: its connections are in memory. A
transport for several processes would publish the same calls to every process that holds
connections of the table; the table code stays as it is.
"""

from __future__ import annotations

from typing import Protocol


class Peer(Protocol):
    """One connection as a table sees it: its seat (None = spectator) and a way to answer it."""

    seat: int | None
    spectator: int | None  # a spectator's public number at the table (1, 2, ...; None: seated)
    address: str  # the client's address (chat is limited per address and per account)
    account: int | None  # the signed-in account's id, if any

    def send(self, text: str) -> None:
        """Queue one message (its JSON text: edge/protocol.py's `text`) for this connection
        alone."""
        ...

    def error(self, code: str, message: str, version: int | None = None) -> None:
        """Queue an `error` message."""
        ...

    def close(self, code: int, reason: str, drop: bool = False) -> None:
        """Close after the messages already queued (or at once, dropping them)."""
        ...

    def credit(self, cap: float) -> float:
        """How much earlier than its arrival an act of this connection counts (rtt/2, capped)."""
        ...


class Transport(Protocol):
    """The connections of every table, by table and seat."""

    def attach(self, table_id: str, peer: Peer) -> None:
        """`peer` listens to `table_id` from now on, as its seat."""
        ...

    def detach(self, table_id: str, peer: Peer) -> None:
        """`peer` listens no more."""
        ...

    def audience(self, table_id: str) -> set[int | None]:
        """The seats with at least one connection (None: spectators)."""
        ...

    def deliver(self, table_id: str, seat: int | None, text: str) -> None:
        """Send `text` to every connection of `seat` at the table (None: every spectator)."""
        ...

    def deliver_all(self, table_id: str, text: str) -> None:
        """Send `text` to every connection at the table."""
        ...

    def close_seat(self, table_id: str, seat: int, code: int, reason: str) -> None:
        """Close every connection of `seat` (after what is queued)."""
        ...

    def close_table(self, table_id: str, code: int, reason: str) -> None:
        """Close every connection at the table (after what is queued)."""
        ...

    def latency_credit(self, table_id: str, cap: float) -> float:
        """The largest latency credit of any seated connection at the table (0 if none)."""
        ...


class LocalTransport:
    """The connections of one process, in memory (a `Transport`)."""

    def __init__(self) -> None:
        self._peers: dict[str, set[Peer]] = {}

    def attach(self, table_id: str, peer: Peer) -> None:
        self._peers.setdefault(table_id, set()).add(peer)

    def detach(self, table_id: str, peer: Peer) -> None:
        peers = self._peers.get(table_id)
        if peers is not None:
            peers.discard(peer)
            if not peers:
                del self._peers[table_id]

    def audience(self, table_id: str) -> set[int | None]:
        return {p.seat for p in self._peers.get(table_id, ())}

    def deliver(self, table_id: str, seat: int | None, text: str) -> None:
        for peer in list(self._peers.get(table_id, ())):
            if peer.seat == seat:
                peer.send(text)

    def deliver_all(self, table_id: str, text: str) -> None:
        for peer in list(self._peers.get(table_id, ())):
            peer.send(text)

    def close_seat(self, table_id: str, seat: int, code: int, reason: str) -> None:
        for peer in list(self._peers.get(table_id, ())):
            if peer.seat == seat:
                peer.close(code, reason)

    def close_table(self, table_id: str, code: int, reason: str) -> None:
        for peer in list(self._peers.get(table_id, ())):
            peer.close(code, reason)

    def latency_credit(self, table_id: str, cap: float) -> float:
        return max((p.credit(cap) for p in self._peers.get(table_id, ()) if p.seat is not None),
                   default=0.0)
