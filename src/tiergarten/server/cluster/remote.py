"""The owner's side of relayed connections: the connections other workers hold to this
worker's tables, each a `RemotePeer` at its table.

A relay (relay.py) on the worker that holds a connection sends its frames here: `A` attach
(the table greets the peer), `M` a client message (handed to the table as the websocket
route would, credited from when it reached the other worker), `X` detach, `L` a changed
latency credit. When a worker dies its connections are detached: their people are away.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Collection, Coroutine
from typing import TYPE_CHECKING, Any

from ..edge.protocol import BadMessage, Pong, read_client
from .bus import Bus
from .relay import RECONNECT
from .transport import CONTROL, RemotePeer

if TYPE_CHECKING:
    from ..table.tables import LiveTable

log = logging.getLogger("tiergarten.server")

Find = Callable[[str], "LiveTable | None"]


class RemotePeers:
    """Every connection another worker holds to a table of this one, by (worker, id there).

    `owned` finds a table this worker owns now (rebuilding it if need be), `live` one it has
    in memory; `spawn` runs a message's handling as a task of the worker's own."""

    def __init__(self, bus: Bus, owned: Find, live: Find,
                 spawn: Callable[[Coroutine[Any, Any, None]], None]) -> None:
        self.bus, self.owned, self.live, self.spawn = bus, owned, live, spawn
        self.peers: dict[tuple[str, int], RemotePeer] = {}
        self._loop = asyncio.get_running_loop()

    def workers(self) -> set[str]:
        """The workers that hold connections here."""
        return {worker for worker, _ in self.peers}

    def attach(self, header: dict[str, Any], body: bytes) -> None:
        worker, conn = header["w"], header["c"]
        table = self.owned(header["t"])
        if table is None:  # not ours (any more): the connection finds the owner again
            self.bus.send(worker, CONTROL, {"close": conn, "code": RECONNECT,
                                            "reason": "the table moved; reconnect"})
            return
        peer = RemotePeer(self.bus, worker, conn, table.id, header["s"], float(header["h"]),
                          header.get("a", ""), header.get("u"))
        self.peers[(worker, conn)] = peer
        table.connect(peer)

    def detach(self, header: dict[str, Any], body: bytes = b"") -> None:
        peer = self.peers.pop((header["w"], header["c"]), None)
        if peer is None:
            return
        peer.closed = True
        table = self.live(peer.table_id)
        if table is not None:
            table.disconnect(peer)

    def detach_workers(self, alive: Collection[str]) -> None:
        """Detach the connections of every worker not `alive`: their people are away now."""
        for worker, conn in [key for key in self.peers if key[0] not in alive]:
            self.detach({"w": worker, "c": conn})

    def latency(self, header: dict[str, Any], body: bytes) -> None:
        peer = self.peers.get((header["w"], header["c"]))
        if peer is not None:
            peer.half_rtt = float(header["h"])

    def message(self, header: dict[str, Any], body: bytes) -> None:
        peer = self.peers.get((header["w"], header["c"]))
        if peer is None:
            return
        table = self.owned(peer.table_id)
        if table is None:
            return
        peer.half_rtt = float(header["h"])
        # the act arrived at the other worker `now - at` ago (wall clocks): credit it so
        arrival = self._loop.time() - max(0.0, time.time() - float(header["at"]))
        try:
            message = read_client(body)
        except BadMessage as exc:
            peer.error("bad_message", str(exc), table.version)
            return
        if isinstance(message, Pong):
            return  # pongs stay with the worker that holds the connection
        self.spawn(self._handle(table, peer, message, arrival))

    async def _handle(self, table: LiveTable, peer: RemotePeer, message: Any,
                      arrival: float) -> None:
        async with peer.turn:
            try:
                await table.handle(peer, message, arrival=arrival)
            except Exception as exc:
                log.exception("table %s: a forwarded message failed", table.id)
                peer.error("server_error", f"the server could not handle this message: {exc}",
                           table.version)
