"""The counts behind the limits: a token bucket (`RateLimit`), the `Counters` a gate keeps (a
rate per key, a count held per key) and `LocalCounters`, this process's own.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Protocol


class RateLimit:
    """A token bucket: `burst` at once, `rate` per second after that.

    >>> limit = RateLimit(rate=1.0, burst=2)
    >>> limit.allow(), limit.allow(), limit.allow(), limit.dropped
    (True, True, False, 1)
    >>> 0.0 < limit.wait() <= 1.0
    True
    """

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.at = float(burst), time.monotonic()
        self.dropped = 0

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def allow(self) -> bool:
        """Take one; False if it is over the limit. `dropped` counts the refusals since the
        bucket was last full (a client that calms down is forgiven)."""
        self._refill()
        if self.tokens >= self.burst:
            self.dropped = 0
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.dropped += 1
        return False

    def wait(self) -> float:
        """Seconds until one more is allowed (0 if now)."""
        self._refill()
        if self.tokens >= 1.0:
            return 0.0
        return (1.0 - self.tokens) / self.rate if self.rate > 0 else float("inf")

    def full(self) -> bool:
        self._refill()
        return self.tokens >= self.burst


class Counters(Protocol):
    """The counts a `Gate` keeps: a rate per key, and a count of things held per key."""

    async def take(self, key: str, rate: float, burst: int) -> float:
        """Take one from `key`'s bucket (`burst` at once, `rate` per second): 0 if allowed,
        else the seconds until one is."""
        ...

    async def hold(self, key: str, most: int) -> bool:
        """Hold one more of `key` if fewer than `most` are held (across the cluster)."""
        ...

    def release(self, key: str) -> None:
        """Let go of one held of `key`."""
        ...


class LocalCounters:
    """The counts of this process alone."""

    KEEP = 1024  # buckets kept before the full ones (idle addresses) are dropped

    def __init__(self) -> None:
        self.held: Counter[str] = Counter()
        self._buckets: dict[str, RateLimit] = {}

    async def take(self, key: str, rate: float, burst: int) -> float:
        return self.take_now(key, rate, burst)

    def take_now(self, key: str, rate: float, burst: int) -> float:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.KEEP:
                for idle in [k for k, b in self._buckets.items() if b.full()]:
                    del self._buckets[idle]
            bucket = self._buckets[key] = RateLimit(rate, burst)
        return 0.0 if bucket.allow() else max(bucket.wait(), 0.001)

    async def hold(self, key: str, most: int) -> bool:
        return self.hold_now(key, most)

    def hold_now(self, key: str, most: int) -> bool:
        if self.held[key] >= most:
            return False
        self.held[key] += 1
        return True

    def release(self, key: str) -> None:
        self.held[key] -= 1
        if self.held[key] <= 0:
            del self.held[key]
