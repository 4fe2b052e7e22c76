"""The quick-match queue: a small port (`Queue`) with two implementations of one behaviour —
`MemoryQueue` in this process, and `RedisQueue` (redis_queue.py) shared by every worker of a
cluster, whose entries outlive any worker (a kill -9 loses none).

An entry is keyed by the person (matcher.py: `u:<id>`, `g:<hash>`): joining again replaces it
(a second tab, or other choices) and forgets an old result. `take` is the one way out of the
queue into a table: all of the match's entries, exactly as they were paired, leave at once
with their results, or none does (one cancelled, or joined again with other choices, in
between). Only the holder of the pairing lease (`lead`) pairs, so no person is in two tables.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Protocol

from .matcher import Entry

RESULT_TTL = 600.0  # seconds a match's result waits to be read (every tab reads it)


class Queue(Protocol):
    async def put(self, entry: Entry) -> None:
        """Queue `entry` (replacing its key's entry, forgetting its key's old result)."""

    async def drop(self, key: str) -> bool:
        """Leave the queue; False if `key` was not queued."""

    async def get(self, key: str) -> Entry | None:
        """The key's entry, if queued."""

    async def entries(self) -> list[Entry]:
        """Everyone queued."""

    async def take(self, taken: Sequence[Entry], results: dict[str, str]) -> bool:
        """If every entry of `taken` is still queued as given: remove them all and keep
        `results` (key -> JSON) for their owners to read; else change nothing, False."""

    async def result(self, key: str) -> str | None:
        """The key's match (JSON), once `take` made it."""

    async def lead(self, me: str, ttl: float) -> bool:
        """Take or renew the pairing lease for `ttl` seconds; True if `me` holds it."""

    async def waiting(self) -> dict[str, int]:
        """How many are queued per game."""


class MemoryQueue:
    """The queue of a single process (`clock`: seconds, for the results' expiry)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._entries: dict[str, Entry] = {}
        self._results: dict[str, tuple[str, float]] = {}

    async def put(self, entry: Entry) -> None:
        self._entries[entry.key] = entry
        self._results.pop(entry.key, None)

    async def drop(self, key: str) -> bool:
        self._results.pop(key, None)
        return self._entries.pop(key, None) is not None

    async def get(self, key: str) -> Entry | None:
        return self._entries.get(key)

    async def entries(self) -> list[Entry]:
        return list(self._entries.values())

    async def take(self, taken: Sequence[Entry], results: dict[str, str]) -> bool:
        if any(self._entries.get(e.key) != e for e in taken):
            return False
        now = self.clock()
        for entry in taken:
            del self._entries[entry.key]
        for key, value in results.items():
            self._results[key] = (value, now + RESULT_TTL)
        self._results = {k: v for k, v in self._results.items() if v[1] > now}
        return True

    async def result(self, key: str) -> str | None:
        found = self._results.get(key)
        return found[0] if found is not None and found[1] > self.clock() else None

    async def lead(self, me: str, ttl: float) -> bool:
        return True  # the only process pairs

    async def waiting(self) -> dict[str, int]:
        return dict(Counter(e.game for e in self._entries.values()))
