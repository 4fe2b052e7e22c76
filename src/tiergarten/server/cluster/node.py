"""One worker of a deployment of several: what it owns, what it relays, how it takes over.

`Cluster` wires the pieces of this package into one worker and gives the `TableManager` its
ownership (`holds`, `claim`, `release`) and the websocket route its table (`open`): the live
table if this worker owns it (taking a free lease first), else a `Relay` to the owner.

Every `lease_ttl / 3` seconds it renews its leases and its own liveness, lets go of any table
whose lease it lost, detaches the connections of workers that died, closes (with 1012,
reconnect) its relayed connections to owners that died, and adopts tables nobody owns
(adopt.py: tables in play whose lease is free, a fair share per scan, rebuilt from their logs
and started; every worker hears of the new owner and its relayed connections reconnect).
Frames go to their parts: connections held elsewhere to tables here (remote.py), relayed
connections here (relay.py), forwarded requests (forward.py), the operator's orders
(orders.py). Which worker plays which lab run is `lab_runs` (labruns.py).

A table nobody owns otherwise (new, or waiting for people) is taken by the first worker asked
for it. The proxy sends all of a table's requests and websockets to one worker, chosen by the
table's id (deploy/Caddyfile, deploy/nginx.conf), so that worker comes to own it and nothing
is relayed; a relay is what happens when the proxy's choice and the owner differ (a worker
died and came back, a tutorial made by another).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import TYPE_CHECKING, Any

import redis
import redis.asyncio as aioredis

from ..edge import logs
from ..edge.metrics import DEAD_WORKERS, LEASES_LOST
from ..edge.protocol import TableMessage
from ..storage.store import Store, StoreUnavailable
from ..table.expiry import listed, quiet
from .adopt import OWNER, Adopter
from .bus import Bus
from .forward import AWAY, HTTP, REDIS_DOWN, REPLY, ASGIApp, Requests, Unavailable
from .labruns import LabRuns
from .lease import Leases
from .orders import ORDERS, Orders
from .relay import ATTACH, DETACH, LATENCY, MESSAGE, RECONNECT, Relay, RelayHub
from .remote import RemotePeers
from .settings import ClusterSettings
from .transport import CONTROL, DELIVER, ClusterTransport

if TYPE_CHECKING:
    from ..table.manager import TableManager
    from ..table.tables import LiveTable

log = logging.getLogger("tiergarten.server")


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
        self.requests = Requests(self.bus, settings.rpc_timeout, self.place)
        self.remote = RemotePeers(self.bus, self._table, self._live, self._spawn)
        self.manager: TableManager | None = None
        self.draining = False
        self.adopter = Adopter(store, self.leases, self.bus)
        self.orders = Orders(self.leases.holds, self._spawn)  # the operator's (admin.py)
        self.lab_runs = LabRuns.connect(settings.redis_url, settings.prefix, self.me)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop_task: asyncio.Task[None] | None = None
        self._loop = asyncio.get_running_loop()

    # -- life --------------------------------------------------------------------------------

    async def start(self, manager: TableManager, app: ASGIApp | None = None) -> None:
        self.manager = self.adopter.manager = self.orders.manager = manager
        self.requests.app = app
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
        await self.lab_runs.stop()
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await self.client.aclose()
        with contextlib.suppress(Exception):
            self.sync.close()

    async def ping(self) -> bool:
        return bool(await self.client.ping())

    # -- ownership, as the manager asks -----------------------------------------------------

    shared = True  # a new table is placed where it is first asked for (table.ports.Ownership)

    def holds(self, table_id: str) -> bool:
        """Whether this worker owns the table, taking its lease if it is free: a table this
        worker has just let go (over, nobody watching) may be asked for again by a request
        already under way here."""
        if self.leases.holds(table_id):
            return True
        if self.draining:
            return False
        try:
            return self.leases.take_now(table_id)
        except REDIS_DOWN as exc:  # whose it is cannot be known now: 503, try again
            raise StoreUnavailable(AWAY) from exc

    def claim(self, table_id: str) -> None:
        if self.draining:
            raise RuntimeError("this server is stopping; it takes no new tables")
        try:
            self.leases.claim_new(table_id)
        except REDIS_DOWN as exc:
            raise StoreUnavailable(AWAY) from exc

    def release(self, table_id: str) -> None:
        # not ours from now on (at once: a request meanwhile must not find it held and then
        # lose it); the key goes when the release runs, and only while it still names us
        self.leases.held.discard(table_id)
        self._spawn(self._release(table_id), f"release {table_id}")

    async def _release(self, table_id: str) -> None:
        try:
            await self.leases.release(table_id)
        except REDIS_DOWN as exc:  # its lease runs out by itself within lease_ttl
            log.warning("table %s: the lease could not be released (%s: %s); it expires "
                        "within %g s", table_id, type(exc).__name__, exc,
                        self.settings.lease_ttl)

    # -- finding a table ---------------------------------------------------------------------

    async def open(self, table_id: str) -> LiveTable | Relay | None:
        """The table for a connection: live here, or relayed to its owner (None: unknown)."""
        try:
            placed = await self.place(table_id)
            if placed and not await self.requests.answers(placed):
                # it died, its liveness not yet run out: wait out its lease, rather than ask
                # the client to come back (1012)
                placed = await self.place(table_id, dead=placed)
        except Unavailable:
            placed = ""  # no owner to greet it: the connection is asked to come back soon
        except REDIS_DOWN as exc:  # who owns it cannot be known now: refused, try again
            raise StoreUnavailable(AWAY) from exc
        if placed is None:  # here (a closed table is shown, never run: `manager.get`)
            assert self.manager is not None
            return self.manager.tables.get(table_id) or self.manager.get(table_id)
        row = await asyncio.to_thread(self.store.load_table, table_id)
        if row is None:
            return None
        return self.hub.relay(row, placed)

    async def place(self, table_id: str, dead: str | None = None) -> str | None:
        """None if this worker has the table now (taking its lease if free, loading it);
        else the id of the worker that owns it. Waits out a dead owner's lease (`dead`: a
        worker known not to answer, though its liveness has not run out yet)."""
        assert self.manager is not None
        deadline = self._loop.time() + self.settings.lease_ttl + 1.0
        while True:
            if table_id in self.manager.tables:
                return None
            if not self.draining and await self.leases.acquire(table_id):
                await self.adopter.adopt(table_id, reason="request")
                return None
            owner = await self.leases.owner(table_id)
            late = self._loop.time() > deadline
            if owner is not None and owner != self.me and (owner != dead or late) and (
                    owner in await self.leases.alive([owner]) or late):
                return owner  # (one thought dead that still holds its lease: slow, not dead)
            if late or (owner is None and self.draining):
                raise Unavailable(f"nobody runs table {table_id} now; try again")
            await asyncio.sleep(0.05)

    async def open_tables(self) -> list[TableMessage]:
        """Every worker's tables waiting for people (the lobby), from the store."""
        assert self.manager is not None
        ids = await asyncio.to_thread(self.store.table_ids, ("open",))
        rows = await asyncio.to_thread(lambda: [self.store.load_table(t) for t in ids])
        live = [self.manager.tables[t] for t in ids if t in self.manager.tables]
        stored = [r for t, r in zip(ids, rows, strict=True)  # the same builder as a live one's
                  if r is not None and t not in self.manager.tables]
        seen = await asyncio.to_thread(quiet, self.manager)  # left by all a while ago: unlisted
        out = listed(self.manager, live, stored, seen)
        return [t for t in out if any(not s.taken for s in t.seats)]

    # -- frames ------------------------------------------------------------------------------

    def _receive(self, kind: bytes, header: dict[str, Any], body: bytes) -> None:
        if kind == DELIVER:
            self.hub.deliver(header, body)
        elif kind == MESSAGE:
            self.remote.message(header, body)
        elif kind == LATENCY:
            self.remote.latency(header, body)
        elif kind == ATTACH:
            self.remote.attach(header, body)
        elif kind == DETACH:
            self.remote.detach(header, body)
        elif kind == CONTROL:
            self.hub.control(header)
        elif kind == OWNER:
            if header["o"] != self.me:
                self.hub.owner_changed(header["t"], header["o"])
        elif kind == HTTP:
            self._spawn(self.requests.serve(header, body), "forwarded request")
        elif kind == REPLY:
            self.requests.replied(header, body)
        elif kind in ORDERS:
            self.orders.receive(kind, header)

    def _table(self, table_id: str) -> LiveTable | None:
        assert self.manager is not None
        if self.draining or not self.leases.holds(table_id):
            return None
        return self.manager.get(table_id)

    def _live(self, table_id: str) -> LiveTable | None:
        assert self.manager is not None
        return self.manager.tables.get(table_id)

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
                    await self.adopter.orphans(lambda: self.draining)
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
        LEASES_LOST.inc(len(table_ids))
        for table_id in table_ids:
            log.warning("table %s: lease lost; letting the table go", table_id)
            table = self.manager.tables.get(table_id)
            if table is not None:
                self._spawn(self.manager.let_go(table, RECONNECT,
                                                "the table moved to another server; reconnect"))

    async def _check_workers(self) -> None:
        owners = self.hub.owners() - {self.me}
        alive = await self.leases.alive(self.remote.workers() | owners)
        self.remote.detach_workers(alive)
        dead = owners - alive
        if dead:
            DEAD_WORKERS.inc(len(dead))
            self.hub.owner_lost(dead)

    def _spawn(self, coro: Any, name: str | None = None) -> None:
        """A task nobody awaits: kept until it ends, its failure logged (never unretrieved)."""
        logs.spawn(coro, self._tasks, name)

    # -- numbers -----------------------------------------------------------------------------

    @property
    def relayed(self) -> int:
        return self.hub.connections
