"""One worker of a deployment of several: what it owns, what it relays, how it takes over.

`Cluster` wires the pieces of this package into one worker and gives the `TableManager` its
ownership (`holds`, `claim`, `release`) and the websocket route its table (`open`): the live
table if this worker owns it (taking a free lease first), else a `Relay` to the owner.

Every `lease_ttl / 3` seconds it renews its leases and its own liveness, lets go of any table
whose lease it lost, detaches the connections of workers that died, closes (with 1012,
reconnect) its relayed connections to owners that died, and adopts tables nobody owns:
tables in play whose lease is free are taken, a fair share per scan, rebuilt from their logs
and started (bots play on); every worker hears of the new owner (`O`) and its relayed
connections to the old one reconnect.

A table nobody owns otherwise (new, or waiting for people) is taken by the first worker asked
for it. The proxy sends all of a table's requests and websockets to one worker, chosen by the
table's id (deploy/Caddyfile, deploy/nginx.conf), so that worker comes to own it and nothing
is relayed; a relay is what happens when the proxy's choice and the owner differ (a worker
died and came back, a tutorial made by another).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import math
import random
import time
from typing import TYPE_CHECKING, Any

import orjson
import redis
import redis.asyncio as aioredis

from ..edge.protocol import BadMessage, Pong, TableMessage, read_client
from ..storage.store import Store, TableRow
from ..table.messages import stored_table
from .bus import Bus
from .forward import TABLE_PATH, ASGIApp, call_app
from .lease import Leases
from .relay import ATTACH, DETACH, LATENCY, MESSAGE, RECONNECT, Relay, RelayHub
from .settings import ClusterSettings
from .transport import CONTROL, DELIVER, ClusterTransport, RemotePeer

if TYPE_CHECKING:
    from ..table.manager import TableManager
    from ..table.tables import LiveTable

log = logging.getLogger("tiergarten.server")

OWNER, HTTP, REPLY = b"O", b"H", b"R"


class Unavailable(RuntimeError):
    """Nobody owns the table and this worker may not take it now (it is stopping)."""


class Cluster:
    """This worker's part of the deployment (see the module doc)."""

    def __init__(self, settings: ClusterSettings, store: Store) -> None:
        self.settings = settings
        self.me = settings.worker_id
        self.store = store
        self.client = aioredis.Redis.from_url(settings.redis_url)
        self.sync = redis.Redis.from_url(settings.redis_url, socket_timeout=2.0)
        self.leases = Leases(self.client, self.sync, settings.prefix, self.me,
                             settings.lease_ttl)
        self.bus = Bus(self.client, settings.prefix, self.me, self._receive)
        self.transport = ClusterTransport(self.bus)
        self.hub = RelayHub(self.bus, greet_within=max(2.0, settings.lease_ttl))
        self.manager: TableManager | None = None
        self.app: ASGIApp | None = None
        self.draining = False
        self._remote: dict[tuple[str, int], RemotePeer] = {}
        self._adopting: dict[str, asyncio.Future[LiveTable | None]] = {}
        self._replies: dict[int, asyncio.Future[tuple[int, list[Any], bytes]]] = {}
        self._ids = itertools.count(1)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop_task: asyncio.Task[None] | None = None
        self._loop = asyncio.get_running_loop()

    # -- life --------------------------------------------------------------------------------

    async def start(self, manager: TableManager, app: ASGIApp | None = None) -> None:
        self.manager, self.app = manager, app
        await self.client.set(self.leases.worker_key(self.me), "1",
                              px=self.leases.ttl_ms)
        await self.bus.start()
        self._loop_task = asyncio.create_task(self._tick(), name="cluster")

    async def drain(self, reason: str) -> None:
        """A graceful stop: no new tables, every table stopped after its commit in hand,
        every connection asked to reconnect, every lease released for the others."""
        self.draining = True
        self.hub.close_all(reason)
        await self.bus.flush()

    async def stop(self) -> None:
        self.draining = True
        if self._loop_task is not None:
            self._loop_task.cancel()
            await asyncio.gather(self._loop_task, return_exceptions=True)
        with contextlib.suppress(Exception):
            await self.leases.retire()
        await self.bus.stop()
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await self.client.aclose()
        with contextlib.suppress(Exception):
            self.sync.close()

    async def ping(self) -> bool:
        return bool(await self.client.ping())

    # -- ownership, as the manager asks -----------------------------------------------------

    shared = True  # a new table is placed where it is first asked for (manager.Ownership)

    def holds(self, table_id: str) -> bool:
        """Whether this worker owns the table, taking its lease if it is free: a table this
        worker has just let go (over, nobody watching) may be asked for again by a request
        already under way here."""
        if self.leases.holds(table_id):
            return True
        return not self.draining and self.leases.take_now(table_id)

    def claim(self, table_id: str) -> None:
        if self.draining:
            raise RuntimeError("this server is stopping; it takes no new tables")
        self.leases.claim_new(table_id)

    def release(self, table_id: str) -> None:
        # not ours from now on (at once: a request meanwhile must not find it held and then
        # lose it); the key goes when the release runs, and only while it still names us
        self.leases.held.discard(table_id)
        self._spawn(self.leases.release(table_id))

    # -- finding a table ---------------------------------------------------------------------

    async def open(self, table_id: str) -> LiveTable | Relay | None:
        """The table for a connection: live here, or relayed to its owner (None: unknown)."""
        try:
            placed = await self.place(table_id)
        except Unavailable:
            placed = ""  # no owner to greet it: the connection is asked to come back soon
        if placed is None:
            assert self.manager is not None
            return self.manager.tables.get(table_id)
        row = await asyncio.to_thread(self.store.load_table, table_id)
        if row is None:
            return None
        return self.hub.relay(row, placed)

    async def place(self, table_id: str) -> str | None:
        """None if this worker has the table now (taking its lease if free, loading it);
        else the id of the worker that owns it. Waits out a dead owner's lease."""
        assert self.manager is not None
        deadline = self._loop.time() + self.settings.lease_ttl + 1.0
        while True:
            if table_id in self.manager.tables:
                return None
            if not self.draining and await self.leases.acquire(table_id):
                await self._adopt(table_id)
                return None
            owner = await self.leases.owner(table_id)
            late = self._loop.time() > deadline
            if owner is not None and owner != self.me and (
                    owner in await self.leases.alive([owner]) or late):
                return owner
            if late or (owner is None and self.draining):
                raise Unavailable(f"nobody runs table {table_id} now; try again")
            await asyncio.sleep(0.05)

    async def _adopt(self, table_id: str, row: TableRow | None = None) -> LiveTable | None:
        """Rebuild a table whose lease this worker holds from its log; start its bots."""
        assert self.manager is not None
        table = self.manager.tables.get(table_id)
        if table is not None:
            return table
        pending = self._adopting.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[LiveTable | None] = self._loop.create_future()
        self._adopting[table_id] = future
        try:
            if row is None:
                row = await asyncio.to_thread(self.store.load_table, table_id)
            rematch = await asyncio.to_thread(self.store.rematch_id, table_id)
            if row is None or not self.leases.holds(table_id):
                await self.leases.release(table_id)
                table = None
            else:
                table = self.manager.adopt(row, rematch)
                self.bus.broadcast(OWNER, {"t": table_id, "o": self.me})
            future.set_result(table)
            return table
        except BaseException as exc:
            future.set_exception(exc)
            raise
        finally:
            del self._adopting[table_id]
            if not future.done():
                future.cancel()
            elif future.exception() is not None:
                future.exception()  # retrieved: nobody else may be waiting

    async def open_tables(self) -> list[TableMessage]:
        """Every worker's tables waiting for people (the lobby), from the store."""
        assert self.manager is not None
        ids = await asyncio.to_thread(self.store.table_ids, ("open",))
        rows = await asyncio.to_thread(lambda: [self.store.load_table(t) for t in ids])
        out: list[TableMessage] = []
        for table_id, row in zip(ids, rows, strict=True):
            table = self.manager.tables.get(table_id)
            if table is not None:
                if table.status == "open" and table.open_seats():
                    out.append(table.info())
            elif row is not None and row.status == "open":
                out.append(stored_table(row))  # the same builder as a live table's
        return [t for t in out if any(not s.taken for s in t.seats)]

    async def forward_http(self, owner: str, method: str, path: str, query: str,
                           headers: list[tuple[str, str]], body: bytes
                           ) -> tuple[int, list[tuple[str, str]], bytes]:
        request_id = next(self._ids)
        future: asyncio.Future[tuple[int, list[Any], bytes]] = self._loop.create_future()
        self._replies[request_id] = future
        self.bus.send(owner, HTTP, {"id": request_id, "w": self.me, "m": method, "p": path,
                                    "q": query, "h": headers}, body)
        try:
            status, out_headers, out = await asyncio.wait_for(future,
                                                              self.settings.rpc_timeout)
            return status, [(k, v) for k, v in out_headers], out
        except TimeoutError:
            return 503, [("content-type", "application/json")], (
                b'{"detail": "the server that holds this table did not answer; try again"}')
        finally:
            self._replies.pop(request_id, None)

    # -- frames ------------------------------------------------------------------------------

    def _receive(self, kind: bytes, header: dict[str, Any], body: bytes) -> None:
        if kind == DELIVER:
            self.hub.deliver(header, body)
        elif kind == MESSAGE:
            self._message(header, body)
        elif kind == LATENCY:
            peer = self._remote.get((header["w"], header["c"]))
            if peer is not None:
                peer.half_rtt = float(header["h"])
        elif kind == ATTACH:
            self._attach(header)
        elif kind == DETACH:
            self._detach(header["w"], header["c"])
        elif kind == CONTROL:
            self.hub.control(header)
        elif kind == OWNER:
            if header["o"] != self.me:
                self.hub.owner_changed(header["t"], header["o"])
        elif kind == HTTP:
            self._spawn(self._serve_http(header, body))
        elif kind == REPLY:
            future = self._replies.get(header["id"])
            if future is not None and not future.done():
                future.set_result((header["s"], header["h"], body))

    def _table(self, table_id: str) -> LiveTable | None:
        assert self.manager is not None
        if self.draining or not self.leases.holds(table_id):
            return None
        return self.manager.get(table_id)

    def _attach(self, header: dict[str, Any]) -> None:
        worker, conn = header["w"], header["c"]
        table = self._table(header["t"])
        if table is None:  # not ours (any more): the connection finds the owner again
            self.bus.send(worker, CONTROL, {"close": conn, "code": RECONNECT,
                                            "reason": "the table moved; reconnect"})
            return
        peer = RemotePeer(self.bus, worker, conn, table.id, header["s"], float(header["h"]))
        self._remote[(worker, conn)] = peer
        table.connect(peer)

    def _detach(self, worker: str, conn: int) -> None:
        peer = self._remote.pop((worker, conn), None)
        if peer is None:
            return
        peer.closed = True
        assert self.manager is not None
        table = self.manager.tables.get(peer.table_id)
        if table is not None:
            table.disconnect(peer)

    def _message(self, header: dict[str, Any], body: bytes) -> None:
        peer = self._remote.get((header["w"], header["c"]))
        if peer is None:
            return
        table = self._table(peer.table_id)
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
        self._spawn(self._handle(table, peer, message, arrival))

    async def _handle(self, table: LiveTable, peer: RemotePeer, message: Any,
                      arrival: float) -> None:
        async with peer.turn:
            try:
                await table.handle(peer, message, arrival=arrival)
            except Exception as exc:
                log.exception("table %s: a forwarded message failed", table.id)
                peer.error("server_error", f"the server could not handle this message: {exc}",
                           table.version)

    async def _serve_http(self, header: dict[str, Any], body: bytes) -> None:
        """Run a request another worker forwarded. The table may have left this worker
        meanwhile (over and forgotten, its lease just released): it is placed again first,
        here or, one hop further, at its new owner."""
        if self.app is None:
            return
        args = (header["m"], header["p"], header["q"], header["h"], body)
        match = TABLE_PATH.match(header["p"])
        try:
            placed = None if match is None else await self.place(match.group(1))
            if placed is None:
                status, headers, out = await call_app(self.app, *args)
            elif placed != header["w"]:
                status, headers, out = await self.forward_http(placed, *args)
            else:
                status, headers, out = 503, [("content-type", "application/json")], (
                    b'{"detail": "the table is moving between servers; try again"}')
        except Unavailable as exc:
            status, headers, out = 503, [("content-type", "application/json")], (
                orjson.dumps({"detail": str(exc)}))
        except Exception:
            log.exception("a forwarded request failed")
            status, headers, out = 500, [], b'{"detail": "internal error"}'
        self.bus.send(header["w"], REPLY, {"id": header["id"], "s": status, "h": headers}, out)

    # -- the clock ---------------------------------------------------------------------------

    async def _tick(self) -> None:
        every = self.settings.renew_every
        renewed = self._loop.time()
        while True:
            started = self._loop.time()
            if started - renewed > self.settings.lease_ttl and self.leases.held:
                # no renewal got through for a whole lease: others may own our tables now
                held = list(self.leases.held)
                self.leases.held.clear()
                self._lost(held)
            try:
                await self.leases.renew(self._lost)
                renewed = self._loop.time()
                await self._check_workers()
                if not self.draining:
                    await self._adopt_orphans()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("the cluster's tick failed: %s", exc)
            self.hub.report_latency()
            await asyncio.sleep(max(0.05, every - (self._loop.time() - started))
                                * random.uniform(0.8, 1.0))

    def _lost(self, table_ids: list[str]) -> None:
        """Our lease ran out and someone else may own these now: let them go, untold."""
        assert self.manager is not None
        for table_id in table_ids:
            log.warning("table %s: lease lost; letting the table go", table_id)
            table = self.manager.tables.get(table_id)
            if table is not None:
                self._spawn(self.manager.let_go(table, RECONNECT,
                                                "the table moved to another server; reconnect"))

    async def _check_workers(self) -> None:
        remote = {p.worker for p in self._remote.values()}
        owners = self.hub.owners() - {self.me}
        alive = await self.leases.alive(remote | owners)
        for (worker, conn) in [k for k in self._remote if k[0] not in alive]:
            self._detach(worker, conn)  # its worker died: its people are away now
        dead = owners - alive
        if dead:
            self.hub.owner_lost(dead)

    async def _adopt_orphans(self) -> None:
        # tables in play (their bots and clocks must go on); an open table is taken by the
        # worker its people are sent to, when they come (manager.Ownership.shared)
        ids = await asyncio.to_thread(self.store.table_ids, ("playing",))
        assert self.manager is not None
        ids = [t for t in ids if t not in self.manager.tables]
        if not ids:
            return
        owners = await self.leases.owners(ids)
        free = [t for t, o in zip(ids, owners, strict=True) if o is None]
        if not free:
            return
        share = math.ceil(len(free) / await self.leases.live_workers())
        random.shuffle(free)
        taken = 0
        for table_id in free:
            if taken >= share or self.draining:
                break
            if await self.leases.acquire(table_id):
                taken += 1
                try:
                    await self._adopt(table_id)
                except Exception:
                    log.exception("table %s could not be rebuilt from its log", table_id)
                    await self.leases.release(table_id)
        if taken:
            log.warning("adopted %d table(s) nobody owned", taken)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- numbers -----------------------------------------------------------------------------

    @property
    def relayed(self) -> int:
        return self.hub.connections
