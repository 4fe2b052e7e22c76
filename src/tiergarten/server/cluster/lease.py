"""Who owns a table: a lease in Redis with an expiry, renewed by its owner while it lives.

`{prefix}:lease:{table}` holds the owner's worker id and expires `lease_ttl` seconds after its
last renewal; `{prefix}:worker:{id}` says a worker is alive, with the same expiry. An owner
renews everything it holds every `lease_ttl / 3` seconds; a worker killed with SIGKILL stops
renewing, and within `lease_ttl` its tables are free for another worker to take from the log.

The lease decides who *may* write; the log decides what is true. Should an owner stall past
its lease (a long pause) while another takes over, both may try to append the same action
index: the store's primary key on (table, index) refuses the second (`StoreError`), that
table rebuilds from the log, and its renewal finds the lease gone and lets the table go. So
versions still step by one and nobody hears of an act the log does not hold.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable

import redis
import redis.asyncio as aioredis

log = logging.getLogger("tiergarten.server")

# KEYS: leases to renew; ARGV[1]: me, ARGV[2]: ttl in ms. Returns the keys no longer mine.
_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('PEXPIRE', key, ARGV[2])
  else table.insert(lost, key) end
end
return lost
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class Leases:
    """The leases this worker holds, and the questions about everyone else's."""

    def __init__(self, client: aioredis.Redis, sync: redis.Redis, prefix: str, me: str,
                 ttl: float) -> None:
        self.client, self.sync = client, sync
        self.prefix, self.me, self.ttl_ms = prefix, me, int(ttl * 1000)
        self.held: set[str] = set()
        self.since: dict[str, float] = {}  # when each lease held was last set or renewed
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)

    def key(self, table_id: str) -> str:
        return f"{self.prefix}:lease:{table_id}"

    def worker_key(self, worker_id: str) -> str:
        return f"{self.prefix}:worker:{worker_id}"

    def holds(self, table_id: str) -> bool:
        return table_id in self.held

    async def acquire(self, table_id: str) -> bool:
        """Take a free lease; True if this worker holds it now."""
        if table_id in self.held:
            return True
        at = time.monotonic()
        if await self.client.set(self.key(table_id), self.me, nx=True, px=self.ttl_ms):
            self._hold(table_id, at)
            return True
        return False

    def _hold(self, table_id: str, at: float) -> None:
        self.held.add(table_id)
        self.since[table_id] = at

    def unconfirmed(self) -> list[str]:
        """The tables held whose lease was not set or renewed within its ttl: it may have run
        out (Redis away), and another worker may own the table now."""
        now = time.monotonic()
        return [t for t in self.held if now - self.since.get(t, 0.0) > self.ttl_ms / 1000]

    def claim_new(self, table_id: str) -> None:
        """Take the lease of a table about to be created (its id is fresh: nobody has it).
        Synchronous, one loopback round trip, so the table is never unowned in the store."""
        at = time.monotonic()
        if not self.sync.set(self.key(table_id), self.me, nx=True, px=self.ttl_ms):
            raise RuntimeError(f"the lease of new table {table_id} is taken")
        self._hold(table_id, at)

    def take_now(self, table_id: str) -> bool:
        """Take a free lease synchronously (one loopback round trip, for code that cannot
        wait); False if someone holds it."""
        at = time.monotonic()
        if self.sync.set(self.key(table_id), self.me, nx=True, px=self.ttl_ms):
            self._hold(table_id, at)
            return True
        return False

    async def release(self, table_id: str) -> None:
        self.held.discard(table_id)
        await self._release(keys=[self.key(table_id)], args=[self.me])

    async def owner(self, table_id: str) -> str | None:
        return _text(await self.client.get(self.key(table_id)))

    async def owners(self, table_ids: list[str]) -> list[str | None]:
        if not table_ids:
            return []
        return [_text(f) for f in await self.client.mget([self.key(t) for t in table_ids])]

    async def alive(self, workers: Iterable[str]) -> set[str]:
        """Which of `workers` are alive (renewed their worker key within the ttl)."""
        names = list(dict.fromkeys(workers))
        if not names:
            return set()
        found = await self.client.mget([self.worker_key(w) for w in names])
        return {w for w, f in zip(names, found, strict=True) if f is not None}

    async def live_workers(self) -> list[str]:
        """The ids of the workers alive now (this one among them), sorted."""
        names, start = {self.me}, len(self.worker_key(""))
        async for key in self.client.scan_iter(match=self.worker_key("*"), count=500):
            names.add(str(_text(key))[start:])
        return sorted(names)

    async def renew(self, lost: Callable[[list[str]], None]) -> None:
        """Say this worker is alive and extend every lease it holds; `lost` hears of any
        lease that is no longer this worker's."""
        at = time.monotonic()  # (a lease renewed now holds from before the renewal was sent)
        await self.client.set(self.worker_key(self.me), "1", px=self.ttl_ms)
        held = list(self.held)
        gone: list[str] = []
        for start in range(0, len(held), 500):
            chunk = [self.key(t) for t in held[start:start + 500]]
            answer = await self._renew(keys=chunk, args=[self.me, self.ttl_ms])
            gone.extend(k.decode().rsplit(":", 1)[1] for k in answer)
        self.since.update(dict.fromkeys(held, at))
        if gone:
            self.held.difference_update(gone)
            lost(gone)
        self.since = {t: at for t, at in self.since.items() if t in self.held}

    async def retire(self) -> None:
        """Let go of everything (a graceful stop): others may take the tables at once."""
        for table_id in list(self.held):
            await self.release(table_id)
        await self.client.delete(self.worker_key(self.me))


def _text(value: bytes | str | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value
