"""How a worker of a multi-process deployment finds the others: Redis, its own id, the lease.

Read from the environment (docs/deploy.md lists every variable); `None` from `from_env` means
single-process mode (no Redis), the default.

>>> ClusterSettings.from_env({}) is None
True
>>> s = ClusterSettings.from_env({"TIERGARTEN_REDIS_URL": "redis://127.0.0.1:6379/0",
...                               "TIERGARTEN_WORKER_ID": "w1", "TIERGARTEN_LEASE_TTL": "2"})
>>> s.worker_id, s.lease_ttl, s.renew_every
('w1', 2.0, 0.666...)
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field


def _worker_id() -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


@dataclass(frozen=True)
class ClusterSettings:
    """One worker's view of the cluster."""

    redis_url: str
    worker_id: str = field(default_factory=_worker_id)
    lease_ttl: float = 3.0  # seconds a table's lease lasts unless its owner renews it
    rpc_timeout: float = 5.0  # seconds a forwarded request waits for the owner's answer
    prefix: str = "tg"  # of every Redis key and channel (several deployments, one Redis)

    @property
    def renew_every(self) -> float:
        """Leases are renewed three times per lifetime: two renewals may fail in a row."""
        return self.lease_ttl / 3

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None,
                 redis_url: str | None = None) -> ClusterSettings | None:
        env = os.environ if env is None else env
        url = redis_url or env.get("TIERGARTEN_REDIS_URL")
        if not url:
            return None
        ttl = float(env.get("TIERGARTEN_LEASE_TTL", "3"))
        if not 0.3 <= ttl <= 120:
            raise ValueError(f"TIERGARTEN_LEASE_TTL is {ttl:g}; allowed: 0.3 to 120 seconds")
        return cls(url, env.get("TIERGARTEN_WORKER_ID") or _worker_id(), ttl,
                   float(env.get("TIERGARTEN_RPC_TIMEOUT", "5")),
                   env.get("TIERGARTEN_REDIS_PREFIX", "tg"))
