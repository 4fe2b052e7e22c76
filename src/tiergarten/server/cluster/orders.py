"""The operator's orders to the workers (`tiergarten admin`, server/admin.py), and what the
command reads of the deployment in Redis.

The command is no worker: it publishes one frame (bus.py's) on a worker's inbox
(`{prefix}:w:{worker}`) and learns the outcome where it is kept, never from an answer: a
closed table's status in the database, a drained worker's liveness key gone from Redis.

- `Z` close `{"t": table}`: the worker that owns the table closes it on purpose
  (`TableManager.close`, reason `operator`: its people are told, their connections closed
  with 4410, its lease let go). A worker that does not run the table ignores it; the command
  then finds the table's owner again, or takes the lease of a table nobody owns and closes it
  in the database itself, so that no worker adopts the table meanwhile.
- `T` drain `{}`: the worker stops gracefully as on SIGTERM (app.drain: no new connections,
  every table stopped after the commit in hand, every client asked to reconnect, its leases
  released for the others) and exits; a worker the command cannot find is said so.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import redis

from ..table.closing import OPERATOR
from .bus import encode

if TYPE_CHECKING:
    from ..table.manager import TableManager

log = logging.getLogger("tiergarten.server")

CLOSE, DRAIN = b"Z", b"T"
ORDERS = (CLOSE, DRAIN)


class Orders:
    """A worker's side: the orders it is sent (see the module doc). `on_drain` is what SIGTERM
    does in this process (the app sets it)."""

    def __init__(self, holds: Callable[[str], bool],
                 spawn: Callable[[Coroutine[Any, Any, Any], str], None]) -> None:
        self.holds, self.spawn = holds, spawn
        self.manager: TableManager | None = None
        self.on_drain: Callable[[], None] = lambda: None

    def receive(self, kind: bytes, header: dict[str, Any]) -> None:
        if kind == CLOSE:
            self.spawn(self._close(str(header["t"])), "operator's close")
        elif kind == DRAIN:
            log.warning("the operator asks this worker to drain (tiergarten admin drain)")
            self.on_drain()

    async def _close(self, table_id: str) -> None:
        manager = self.manager
        if manager is None or table_id not in manager.tables or not self.holds(table_id):
            return  # not ours: the command looks for its owner again
        await manager.close(table_id, OPERATOR)


# -- what the command reads and sends (a synchronous Redis client) ----------------------------


@dataclass(frozen=True)
class Lease:
    table: str
    worker: str
    expires_ms: int  # milliseconds until the lease runs out unrenewed
    alive: bool  # whether its worker's liveness key stands


@dataclass(frozen=True)
class Worker:
    id: str
    expires_ms: int
    leases: int


class Deployment:
    """The workers and leases of a deployment as Redis holds them (prefix `prefix`)."""

    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self.client, self.prefix = client, prefix

    def lease_key(self, table_id: str) -> str:
        return f"{self.prefix}:lease:{table_id}"

    def worker_key(self, worker_id: str) -> str:
        return f"{self.prefix}:worker:{worker_id}"

    def _keys(self, pattern: str) -> list[str]:
        return sorted(k.decode() if isinstance(k, bytes) else k
                      for k in self.client.scan_iter(match=pattern, count=1000))

    def leases(self) -> list[Lease]:
        keys = self._keys(self.lease_key("*"))
        pipe = self.client.pipeline(transaction=False)
        for key in keys:
            pipe.get(key)
            pipe.pttl(key)
        found = pipe.execute()
        held = [(key.rsplit(":", 1)[1], _text(found[2 * n]), int(found[2 * n + 1]))
                for n, key in enumerate(keys)]
        alive = self.alive({w for _, w, _ in held if w})
        return [Lease(t, w, ttl, w in alive) for t, w, ttl in held if w]

    def owners(self, table_ids: list[str]) -> dict[str, tuple[str, int]]:
        """Each table's owner and its lease's milliseconds left, for those owned."""
        pipe = self.client.pipeline(transaction=False)
        for table_id in table_ids:
            pipe.get(self.lease_key(table_id))
            pipe.pttl(self.lease_key(table_id))
        found = pipe.execute()
        return {t: (_text(found[2 * n]) or "", int(found[2 * n + 1]))
                for n, t in enumerate(table_ids) if found[2 * n] is not None}

    def connections(self, table_ids: list[str]) -> dict[str, int]:
        """Websockets open to each table, on every live worker (the per-table limit's counts,
        edge/redis_counters.py)."""
        pipe = self.client.pipeline(transaction=False)
        for table_id in table_ids:
            pipe.hgetall(f"{self.prefix}:limit:t:{table_id}")
        counts = [{_text(w) or "": int(c) for w, c in h.items()} for h in pipe.execute()]
        alive = self.alive({w for h in counts for w in h})
        return {t: sum(c for w, c in h.items() if w in alive)
                for t, h in zip(table_ids, counts, strict=True)}

    def workers(self) -> list[Worker]:
        keys = self._keys(self.worker_key("*"))
        pipe = self.client.pipeline(transaction=False)
        for key in keys:
            pipe.pttl(key)
        ttls = pipe.execute()
        held: dict[str, int] = {}
        for lease in self.leases():
            held[lease.worker] = held.get(lease.worker, 0) + 1
        names = [k[len(self.worker_key("")):] for k in keys]
        return [Worker(w, int(t), held.get(w, 0)) for w, t in zip(names, ttls, strict=True)
                if int(t) > 0]

    def alive(self, workers: set[str]) -> set[str]:
        names = sorted(workers)
        if not names:
            return set()
        found = self.client.mget([self.worker_key(w) for w in names])
        return {w for w, f in zip(names, found, strict=True) if f is not None}

    def order(self, worker_id: str, kind: bytes, header: dict[str, Any]) -> bool:
        """Publish an order on a worker's inbox; False if nobody listens there."""
        return int(self.client.publish(f"{self.prefix}:w:{worker_id}", encode(kind, header))) > 0

    def take(self, table_id: str, me: str, ttl_ms: int) -> bool:
        """Take the lease of a table nobody owns (so no worker adopts it meanwhile)."""
        return bool(self.client.set(self.lease_key(table_id), me, nx=True, px=ttl_ms))

    def give_back(self, table_id: str, me: str) -> None:
        self.client.eval("if redis.call('GET', KEYS[1]) == ARGV[1] then "
                         "return redis.call('DEL', KEYS[1]) end return 0", 1,
                         self.lease_key(table_id), me)


def _text(value: bytes | str | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


# -- the command's side of an order ----------------------------------------------------------


class OrderFailed(RuntimeError):
    """An order that was not carried out (the command says why, exit 1)."""


def close(deployment: Deployment, store: Any, table_id: str, lease_ms: int,
          timeout: float) -> str:
    """Close an open or playing table on purpose: its owner is ordered to (again each second
    it has not, and the new owner should it move); a table nobody owns is closed here, in the
    database, under its lease (so no worker adopts it meanwhile). Returns who closed it, once
    the database says it is closed; OrderFailed if it ended meanwhile or is not closed within
    `timeout` seconds."""
    from ..storage.store import CLOSED, UNFINISHED

    me = f"admin-{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
    told: dict[str, float] = {}  # owner -> when it was last ordered
    owner: str | None = None
    deadline = time.monotonic() + timeout
    while True:
        row = store.load_table(table_id)
        if row.status == CLOSED:
            return f"worker {owner}" if owner in told else "someone else, meanwhile"
        if row.status not in UNFINISHED:
            raise OrderFailed(f"table {table_id} is {row.status} now: it ended meanwhile")
        held = deployment.owners([table_id]).get(table_id)
        if held is None and deployment.take(table_id, me, lease_ms):
            try:  # nobody runs it, and no worker takes it while this lease is held
                if store.close_table(table_id, OPERATOR):
                    return "this command (no worker ran the table)"
            finally:
                deployment.give_back(table_id, me)
        elif held is not None and time.monotonic() >= told.get(held[0], 0.0) + 1.0:
            owner = held[0]  # (a worker that is not alive: its lease runs out, then ours)
            if owner in deployment.alive({owner}) and deployment.order(owner, CLOSE,
                                                                        {"t": table_id}):
                told[owner] = time.monotonic()
        if time.monotonic() > deadline:
            why = f"worker {owner} owns it and did not close it" if owner else "nobody could"
            raise OrderFailed(f"table {table_id} is not closed after {timeout:g} s: {why}; "
                              "try again")
        time.sleep(0.05)


def drain(deployment: Deployment, worker: str, wait: bool, timeout: float) -> int:
    """Order a live worker to drain; with `wait`, until its liveness key is gone (it has let
    go of everything). The number of tables it owned; OrderFailed if it is not alive, does not
    listen, or is still alive after `timeout` seconds."""
    if worker not in deployment.alive({worker}):
        known = ", ".join(w.id for w in deployment.workers()) or "none"
        raise OrderFailed(f"no worker {worker!r} is alive; the live workers: {known}")
    held = sum(1 for lease in deployment.leases() if lease.worker == worker)
    if not deployment.order(worker, DRAIN, {}):
        raise OrderFailed(f"worker {worker} does not listen on its inbox; nothing was asked")
    deadline = time.monotonic() + timeout
    while wait and worker in deployment.alive({worker}):
        if time.monotonic() > deadline:
            raise OrderFailed(f"worker {worker} was asked to drain and is still alive after "
                              f"{timeout:g} s")
        time.sleep(0.05)
    return held
