"""What one client may cost the server: messages per connection, connections per address and per
table, tables created per address (docs/protocol.md, "Limits"; docs/security.md).

An address is the client's IP as uvicorn reports it: behind a reverse proxy on the same host,
the address the proxy forwards (uvicorn trusts `X-Forwarded-For` from 127.0.0.1 only).

>>> gate = Gate(Settings(address_connections=2, table_connections=3))
>>> gate.enter("10.0.0.1", "t1"), gate.enter("10.0.0.1", "t2"), gate.enter("10.0.0.1", "t3")
(None, None, 'at most 2 connections from one address at once')
>>> gate.leave("10.0.0.1", "t2"); gate.enter("10.0.0.1", "t3") is None
True
"""

from __future__ import annotations

import time
from collections import Counter

from .settings import Settings


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


class Gate:
    """Counts the open websockets by address and by table, and the tables each address made.

    One per server process (the app's `state.gate`): the counts are this process's."""

    KEEP = 1024  # table-creation buckets kept before the full ones (idle addresses) are dropped

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._by_address: Counter[str] = Counter()
        self._by_table: Counter[str] = Counter()
        self._creating: dict[str, RateLimit] = {}

    def enter(self, address: str, table_id: str) -> str | None:
        """Count one more connection, or say why it is refused (then nothing is counted)."""
        most = self.settings.address_connections
        if self._by_address[address] >= most:
            return f"at most {most} connections from one address at once"
        most = self.settings.table_connections
        if self._by_table[table_id] >= most:
            return f"at most {most} connections to one table at once"
        self._by_address[address] += 1
        self._by_table[table_id] += 1
        return None

    def leave(self, address: str, table_id: str) -> None:
        for counts, key in ((self._by_address, address), (self._by_table, table_id)):
            counts[key] -= 1
            if counts[key] <= 0:
                del counts[key]

    def create(self, address: str) -> float:
        """Take one table creation for `address`: 0 if allowed, else seconds to wait."""
        bucket = self._creating.get(address)
        if bucket is None:
            if len(self._creating) >= self.KEEP:
                for idle in [a for a, b in self._creating.items() if b.full()]:
                    del self._creating[idle]
            bucket = self._creating[address] = RateLimit(self.settings.tables_per_minute / 60,
                                                         self.settings.tables_burst)
        return 0.0 if bucket.allow() else max(bucket.wait(), 0.001)
