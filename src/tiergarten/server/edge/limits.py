"""What one client may cost the server: messages per connection, connections per address and per
table, tables created per address (docs/protocol.md, "Limits"; docs/security.md).

An address is the client's IP as uvicorn reports it: behind a reverse proxy on the same host,
the address the proxy forwards (uvicorn trusts `X-Forwarded-For` from 127.0.0.1 only).

The counts behind the `Gate` are `Counters` (counters.py): `LocalCounters` in one process,
`RedisCounters` (redis_counters.py) in a deployment of several workers, so that a limit holds
for the whole cluster, not per worker (docs/deploy.md, "Limits across workers").

A connection asks `await gate.enter(address, table)` (None: in; else the refusal's words,
such as 'at most 2 connections from one address at once') and says `gate.leave(address,
table)` when it closes (tests/server/test_limits.py shows both).
"""

from __future__ import annotations

import math

from .counters import Counters, LocalCounters, RateLimit
from .metrics import LIMIT_REFUSALS
from .redis_counters import RedisCounters
from .settings import Settings

__all__ = ["Counters", "Gate", "LocalCounters", "RateLimit", "RedisCounters"]


class Gate:
    """Counts the open websockets by address and by table, and the tables each address made.

    One per server process (the app's `state.gate`), over `counters`: this process's own
    (`LocalCounters`, the default) or the cluster's (`RedisCounters`)."""

    def __init__(self, settings: Settings, counters: Counters | None = None) -> None:
        self.settings = settings
        self.counters: Counters = counters or LocalCounters()

    async def enter(self, address: str, table_id: str) -> str | None:
        """Count one more connection, or say why it is refused (then nothing is counted)."""
        most = self.settings.address_connections
        if not await self.counters.hold(f"a:{address}", most):
            LIMIT_REFUSALS.labels(limit="address_connections").inc()
            return f"at most {most} connections from one address at once"
        most = self.settings.table_connections
        if not await self.counters.hold(f"t:{table_id}", most):
            self.counters.release(f"a:{address}")
            LIMIT_REFUSALS.labels(limit="table_connections").inc()
            return f"at most {most} connections to one table at once"
        return None

    def leave(self, address: str, table_id: str) -> None:
        self.counters.release(f"a:{address}")
        self.counters.release(f"t:{table_id}")

    async def create(self, address: str) -> float:
        """Take one table creation for `address`: 0 if allowed, else seconds to wait."""
        wait = await self.counters.take(f"c:{address}", self.settings.tables_per_minute / 60,
                                        self.settings.tables_burst)
        if wait > 0:
            LIMIT_REFUSALS.labels(limit="tables").inc()
        return wait if math.isfinite(wait) else 3600.0
