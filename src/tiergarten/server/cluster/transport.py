"""The owner's side: connections held by other workers, and a transport that reaches them.

A table lives on its owner. Connections to it may be held by any worker: those of the owner
are `Connection`s as in one process; those of another worker appear on the owner as
`RemotePeer`s. `ClusterTransport` is the owner's `Transport`: the table asks it, as ever, who
listens and hands it one message per seat, built from that seat's observation; it gives each
to its own connections and sends one `D` frame per other worker that holds connections of
that seat, naming exactly those connections. So a seat's message goes only to the workers
and connections of that seat (hidden cards never reach another seat's connection), each
observation is built once, and the worker holding a connection only relays what it is given.
"""

from __future__ import annotations

import asyncio

from ..edge.metrics import ERRORS
from ..edge.protocol import ErrorMessage
from ..edge.writer import text
from ..table.transport import LocalTransport, Peer
from .bus import Bus

DELIVER = b"D"  # header {"c": [connection ids]}; body: the JSON text
CONTROL = b"C"  # header {"close": id, "code": n, "reason": text, "drop": bool}


class RemotePeer:
    """A connection held by another worker (`worker`, its id there `conn`), as the owner's
    table sees it (a `Peer`). `half_rtt` is what that worker measured (rtt / 2)."""

    def __init__(self, bus: Bus, worker: str, conn: int, table_id: str, seat: int | None,
                 half_rtt: float = 0.0, address: str = "", account: int | None = None) -> None:
        self.bus, self.worker, self.conn, self.table_id = bus, worker, conn, table_id
        self.seat = seat
        self.spectator: int | None = None  # given by the table it watches (tables.py)
        self.address, self.account = address, account
        self.half_rtt = half_rtt
        self.closed = False
        self.turn = asyncio.Lock()  # one message of this connection at a time, in order

    def send(self, text: str) -> None:
        if self.closed:
            return
        self.bus.send(self.worker, DELIVER, {"c": [self.conn]}, text.encode())

    def error(self, code: str, message: str, version: int | None = None) -> None:
        ERRORS.labels(code=code).inc()
        self.send(text(ErrorMessage(code=code, message=message, version=version)))

    def close(self, code: int, reason: str, drop: bool = False) -> None:
        if not self.closed:
            self.closed = True
            self.bus.send(self.worker, CONTROL, {"close": self.conn, "code": code,
                                                 "reason": reason, "drop": drop})

    def credit(self, cap: float) -> float:
        return max(0.0, min(self.half_rtt, cap))


class ClusterTransport(LocalTransport):
    """The owner's connections, here and on other workers (a `Transport`)."""

    def __init__(self, bus: Bus) -> None:
        super().__init__()
        self.bus = bus

    def deliver(self, table_id: str, seat: int | None, text: str) -> None:
        remote: dict[str, list[int]] = {}
        for peer in list(self._peers.get(table_id, ())):
            if peer.seat != seat:
                continue
            if isinstance(peer, RemotePeer):
                if not peer.closed:
                    remote.setdefault(peer.worker, []).append(peer.conn)
            else:
                peer.send(text)
        self._send(remote, text)

    def deliver_all(self, table_id: str, text: str) -> None:
        remote: dict[str, list[int]] = {}
        for peer in list(self._peers.get(table_id, ())):
            if isinstance(peer, RemotePeer):
                if not peer.closed:
                    remote.setdefault(peer.worker, []).append(peer.conn)
            else:
                peer.send(text)
        self._send(remote, text)

    def _send(self, remote: dict[str, list[int]], text: str) -> None:
        if remote:
            body = text.encode()
            for worker, conns in remote.items():
                self.bus.send(worker, DELIVER, {"c": conns}, body)

    def remote_peers(self, worker: str | None = None) -> list[RemotePeer]:
        return [p for peers in self._peers.values() for p in peers
                if isinstance(p, RemotePeer) and (worker is None or p.worker == worker)]

    def peers_at(self, table_id: str) -> list[Peer]:
        return list(self._peers.get(table_id, ()))
