"""Counts shared by every worker of a deployment through Redis, so that a limit holds for the
whole cluster, not per worker (docs/deploy.md, "Limits across workers"):

- **a rate** (tables created per address: `tables_burst` at once, then `tables_per_minute`) is
  a token bucket, kept in Redis as its *theoretical arrival time* (GCRA): one key per address
  that one Lua script reads and moves on atomically, on Redis's own clock (the workers' clocks
  do not matter); it expires once the bucket is full again;
- **a count held** (websockets open per address and per table) is a hash per address or table
  with one field per worker holding that worker's own count. A Lua script admits one more
  while the fields of the *live* workers (whose `{prefix}:worker:{id}` key has not expired)
  and this worker's own count add up to less than the limit, and drops the fields of dead
  workers as it goes: a worker killed with SIGKILL stops counting within its lease time. A
  worker writes its own field from its own count (never an increment), and writes all of them
  again every `RESYNC` seconds, so a write lost to a Redis hiccup heals by itself.

When Redis does not answer (an error or `TIMEOUT`), the gate neither refuses everyone nor
waits: for the next `RETRY` seconds it counts in this worker only (the limits then hold per
worker, as they do with one process), says so once in the log and counts it in
`tiergarten_limits_local_total`, then tries Redis again; once Redis answers it says so once
more and writes this worker's counts back.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from .counters import LocalCounters
from .logs import spawn
from .metrics import LIMITS_LOCAL

log = logging.getLogger("tiergarten.server")


# KEYS[1]: the bucket. ARGV: ms between tokens, burst. Returns 0 (taken) or ms to wait.
_TAKE = """
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000 + tonumber(now[2]) / 1000
local interval, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local due = tat + interval
local allowed_at = due - interval * burst
if allowed_at > now then return math.max(1, math.ceil(allowed_at - now)) end
redis.call('SET', KEYS[1], string.format('%.3f', due), 'PX', math.max(1, math.ceil(due - now)))
return 0
"""
# KEYS[1]: the hash of counts by worker. ARGV: me, the most, my count with the new one, the
# prefix of the workers' liveness keys, the hash's expiry in ms. Returns 1 (held) or 0.
_HOLD = """
local counts = redis.call('HGETALL', KEYS[1])
local total = tonumber(ARGV[3])
for i = 1, #counts, 2 do
  local worker = counts[i]
  if worker ~= ARGV[1] then
    if redis.call('EXISTS', ARGV[4] .. worker) == 1 then total = total + tonumber(counts[i + 1])
    else redis.call('HDEL', KEYS[1], worker) end
  end
end
if total > tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
"""


class RedisCounters:
    """Counts shared by every worker through Redis (see the module doc); this worker's own
    counts are kept here too, for its share of each key and for when Redis is away."""

    TIMEOUT = 0.5  # seconds a Redis call may take before the gate counts locally
    RETRY = 5.0  # seconds of counting locally before Redis is tried again
    RESYNC = 10.0  # seconds between rewrites of this worker's counts
    EXPIRE = 60.0  # seconds a count hash outlives its last write

    def __init__(self, client: Any, prefix: str, worker_id: str) -> None:
        self.client = client  # redis.asyncio.Redis, with short timeouts (`connect`)
        self.prefix, self.me = prefix, worker_id
        self.local = LocalCounters()  # the fallback buckets, and this worker's counts held
        self._take = client.register_script(_TAKE)
        self._hold = client.register_script(_HOLD)
        self._down_until = 0.0
        self._said_away = False  # the log said Redis is away (and must say when it is back)
        self._dirty: set[str] = set()  # keys whose field in Redis may be out of date
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop_task: asyncio.Task[None] | None = None

    @classmethod
    def connect(cls, url: str, prefix: str, worker_id: str) -> RedisCounters:
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(url, socket_timeout=cls.TIMEOUT,
                                         socket_connect_timeout=cls.TIMEOUT)
        return cls(client, prefix, worker_id)

    def key(self, key: str) -> str:
        return f"{self.prefix}:limit:{key}"

    @property
    def shared(self) -> bool:
        """Whether the counts are Redis's now (not this worker's own, for a while)."""
        return time.monotonic() >= self._down_until

    async def take(self, key: str, rate: float, burst: int) -> float:
        if self.shared:
            try:
                waited = await self._take(keys=[self.key(key)],
                                          args=[1000.0 / rate, burst])
                self._back()
                return 0.0 if not waited else int(waited) / 1000
            except Exception as exc:  # Redis is away: count here for a while
                self._away(exc)
        return self.local.take_now(key, rate, burst)

    async def hold(self, key: str, most: int) -> bool:
        held = self.local.held
        if held[key] >= most:
            return False
        held[key] += 1  # ours at once: a second hold meanwhile counts this one
        if not self.shared:
            self._dirty.add(key)
            return True
        try:
            ok = await self._hold(keys=[self.key(key)], args=[
                self.me, most, held[key], f"{self.prefix}:worker:", int(self.EXPIRE * 1000)])
            self._back()
        except Exception as exc:
            self._away(exc)
            self._dirty.add(key)
            return True
        if not ok:
            self.local.release(key)
            self._dirty.add(key)  # our count went down meanwhile? write it again later
        return bool(ok)

    def release(self, key: str) -> None:
        self.local.release(key)
        if not self.shared:
            self._dirty.add(key)
            return
        spawn(self._write(key), self._tasks, name="limits release")

    async def _write(self, key: str) -> None:
        """This worker's count of `key` as it is now, into Redis (gone at 0)."""
        count = self.local.held.get(key, 0)
        try:
            if count:
                async with self.client.pipeline(transaction=True) as pipe:
                    pipe.hset(self.key(key), self.me, count)
                    pipe.pexpire(self.key(key), int(self.EXPIRE * 1000))
                    await pipe.execute()
            else:
                await self.client.hdel(self.key(key), self.me)
            self._dirty.discard(key)
        except Exception as exc:
            self._away(exc)
            self._dirty.add(key)

    async def resync(self) -> None:
        """Write every count this worker holds (and the ones it no longer holds) again."""
        if not self.shared:
            return
        for key in sorted(self._dirty | set(self.local.held)):
            await self._write(key)
            if not self.shared:
                return

    def start(self) -> None:
        self._loop_task = spawn(self._resync_every(), self._tasks, name="limits resync")

    async def _resync_every(self) -> None:
        while True:
            await asyncio.sleep(self.RESYNC)
            await self.resync()

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        try:
            await asyncio.wait_for(self._clear(), 1.0)
        except Exception as exc:  # nothing to clear up where Redis is away: they expire
            log.debug("limits: could not clear this worker's counts: %s", exc)
        await self.client.aclose()

    async def _clear(self) -> None:
        if self.local.held:
            async with self.client.pipeline(transaction=False) as pipe:
                for key in self.local.held:
                    pipe.hdel(self.key(key), self.me)
                await pipe.execute()

    def _away(self, exc: BaseException) -> None:
        was_shared = self.shared
        self._down_until = time.monotonic() + self.RETRY
        if was_shared:
            LIMITS_LOCAL.inc()
            if not self._said_away:
                log.warning("limits: Redis did not answer (%s: %s); counting in this worker "
                            "only (the limits hold per worker) and trying again every %g s",
                            type(exc).__name__, exc, self.RETRY)
                self._said_away = True

    def _back(self) -> None:
        if self._said_away:
            self._said_away = False
            log.warning("limits: Redis answers again; counting across the workers")
            spawn(self.resync(), self._tasks, name="limits resync")
