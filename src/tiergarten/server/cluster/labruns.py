"""Where each lab run is played: `{prefix}:lab:run:{id}` holds the id of its worker.

A lab run lives in the memory and the temporary folder of the worker that plays it
(server/lab): its status, progress, figures and report. A request about it that reaches another
worker is run by that one (forward.py), as a table's requests are. Forwarding rather than
storing finished runs in the database, because a run is more than its end: a queued or running
run's progress, its place in the queue and its cancelling are that worker's alone, so those
requests must reach it anyway; forwarding serves them and the report alike, with no table, no
migration, no copy of the plots and no clearing out of old reports in the database.

The key is written when the run is asked for (`add`, before its id is answered) and again
every `REFRESH` seconds while the worker keeps the run, and expires `TTL` seconds after its
last write: a forgotten run, or the runs of a worker killed with SIGKILL, leave nothing behind.
`owner` names a worker only while that worker's liveness key (`{prefix}:worker:{id}`, lease.py)
stands: the runs of a worker that stopped are gone with it (404). When Redis does not answer,
`add` leaves the key to the next refresh and `owner` raises (forward.py then answers 503 with
Retry-After, as it does for a table).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from typing import Any

from ..edge.logs import spawn

log = logging.getLogger("tiergarten.server")

# KEYS[1]: the run's key. ARGV[1]: the prefix of the workers' liveness keys.
# Returns its worker's id while that worker is alive, else nothing.
_OWNER = """
local worker = redis.call('GET', KEYS[1])
if worker and redis.call('EXISTS', ARGV[1] .. worker) == 1 then return worker end
return false
"""


class LabRuns:
    """This worker's lab runs in Redis, and whose another run is (see the module doc)."""

    TIMEOUT = 0.5  # seconds a Redis call may take (a request about a run waits no longer)
    TTL = 120.0  # seconds a run's key outlives its last write
    REFRESH = 30.0  # seconds between rewrites of this worker's runs' keys

    def __init__(self, client: Any, prefix: str, worker_id: str) -> None:
        self.client = client  # redis.asyncio.Redis, with short timeouts (`connect`)
        self.prefix, self.me = prefix, worker_id
        self._owner = client.register_script(_OWNER)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ids: Callable[[], Iterable[str]] = lambda: ()

    @classmethod
    def connect(cls, url: str, prefix: str, worker_id: str) -> LabRuns:
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(url, socket_timeout=cls.TIMEOUT,
                                         socket_connect_timeout=cls.TIMEOUT)
        return cls(client, prefix, worker_id)

    def key(self, run_id: str) -> str:
        return f"{self.prefix}:lab:run:{run_id}"

    async def add(self, run_id: str) -> None:
        """Say that this worker plays the run (Redis away: the next refresh says it)."""
        try:
            await self.client.set(self.key(run_id), self.me, px=int(self.TTL * 1000))
        except Exception as exc:
            log.debug("lab run %s: not placed in Redis yet (%s)", run_id, exc)

    async def owner(self, run_id: str) -> str | None:
        """The live worker that plays the run, if any. Raises when Redis does not answer."""
        found = await self._owner(keys=[self.key(run_id)], args=[f"{self.prefix}:worker:"])
        if found is None:
            return None
        return found.decode() if isinstance(found, bytes) else str(found)

    async def refresh(self) -> None:
        """Write the keys of every run this worker keeps again."""
        ids = list(self._ids())
        if not ids:
            return
        try:
            async with self.client.pipeline(transaction=False) as pipe:
                for run_id in ids:
                    pipe.set(self.key(run_id), self.me, px=int(self.TTL * 1000))
                await pipe.execute()
        except Exception as exc:  # Redis away: the next refresh writes them
            log.debug("lab runs: not refreshed in Redis (%s)", exc)

    def start(self, ids: Callable[[], Iterable[str]]) -> None:
        """Refresh the keys of the runs `ids()` names (the lab's) from now on."""
        self._ids = ids
        spawn(self._refresh_every(), self._tasks, name="lab runs refresh")

    async def _refresh_every(self) -> None:
        while True:
            await asyncio.sleep(self.REFRESH)
            await self.refresh()

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        try:
            await self.client.aclose()
        except Exception as exc:
            log.debug("lab runs: closing the Redis client: %s", exc)
