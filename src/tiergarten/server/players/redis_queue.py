"""The quick-match queue in Redis, for a cluster (the `Queue` port of queue.py).

`{prefix}:qm:entries` is a hash of key -> the entry's JSON; `{prefix}:qm:result:{key}` a
match's result (expires after `RESULT_TTL`); `{prefix}:qm:lead` the pairing lease, the id of
the worker that pairs (expires unless renewed: a worker killed with SIGKILL stops renewing and
another takes over, with every entry still there). `take` is one Lua script: it compares every
entry with what was paired and removes them and writes the results only if all match, so two
workers can never seat one person twice, even should both believe they lead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import redis.asyncio as aioredis

from .matcher import Entry
from .queue import RESULT_TTL

# KEYS[1]: the entries hash; ARGV[1]: n, ARGV[2..]: n (key, json), then (result key, json)
# pairs, ARGV[last]: the results' ttl in ms.
_TAKE = """
local n = tonumber(ARGV[1])
for i = 0, n - 1 do
  if redis.call('HGET', KEYS[1], ARGV[2 + 2 * i]) ~= ARGV[3 + 2 * i] then return 0 end
end
for i = 0, n - 1 do redis.call('HDEL', KEYS[1], ARGV[2 + 2 * i]) end
local ttl = ARGV[#ARGV]
for i = 2 + 2 * n, #ARGV - 1, 2 do redis.call('SET', ARGV[i], ARGV[i + 1], 'PX', ttl) end
return 1
"""
# KEYS[1]: the lease; ARGV[1]: me, ARGV[2]: ttl in ms
_LEAD = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
return 0
"""


class RedisQueue:
    """The queue every worker shares (see the module doc)."""

    def __init__(self, client: aioredis.Redis, prefix: str) -> None:
        self.client = client
        self.hash = f"{prefix}:qm:entries"
        self.results = f"{prefix}:qm:result:"
        self.lease = f"{prefix}:qm:lead"
        self._take = client.register_script(_TAKE)
        self._lead = client.register_script(_LEAD)

    @classmethod
    def connect(cls, url: str, prefix: str) -> RedisQueue:
        return cls(aioredis.Redis.from_url(url), prefix)

    async def close(self) -> None:
        await self.client.aclose()

    async def put(self, entry: Entry) -> None:
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.hset(self.hash, entry.key, entry.to_json())
            pipe.delete(self.results + entry.key)
            await pipe.execute()

    async def drop(self, key: str) -> bool:
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.hdel(self.hash, key)
            pipe.delete(self.results + key)
            removed, _ = await pipe.execute()
        return bool(removed)

    async def get(self, key: str) -> Entry | None:
        found = await self.client.hget(self.hash, key)
        return None if found is None else Entry.from_json(found)

    async def entries(self) -> list[Entry]:
        return [Entry.from_json(v) for v in (await self.client.hgetall(self.hash)).values()]

    async def take(self, taken: Sequence[Entry], results: dict[str, str]) -> bool:
        args: list[str | int] = [len(taken)]
        for entry in taken:
            args += [entry.key, entry.to_json()]
        for key, value in results.items():
            args += [self.results + key, value]
        args.append(int(RESULT_TTL * 1000))
        return bool(await self._take(keys=[self.hash], args=args))

    async def result(self, key: str) -> str | None:
        found = await self.client.get(self.results + key)
        return found.decode() if isinstance(found, bytes) else found

    async def lead(self, me: str, ttl: float) -> bool:
        return bool(await self._lead(keys=[self.lease], args=[me, int(ttl * 1000)]))

    async def waiting(self) -> dict[str, int]:
        return dict(Counter(Entry.from_json(v).game
                            for v in await self.client.hvals(self.hash)))
