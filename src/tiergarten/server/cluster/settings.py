"""How a worker of a multi-process deployment finds the others: Redis, its own id, the lease.

Made by the server's configuration (server/config.py: `ServerConfig.cluster_settings()`, from
the `TIERGARTEN_REDIS_URL`, `_WORKER_ID`, `_LEASE_TTL`, `_RPC_TIMEOUT` and `_REDIS_PREFIX`
settings; docs/deploy.md lists them); no Redis URL means single-process mode, the default.

>>> s = ClusterSettings("redis://127.0.0.1:6379/0", "w1", lease_ttl=2.0)
>>> s.worker_id, s.lease_ttl, s.renew_every
('w1', 2.0, 0.666...)
"""

from __future__ import annotations

import os
import secrets
import socket
from dataclasses import dataclass, field

LEASE_TTL = 3.0  # seconds a table's lease lasts unless its owner renews it
RPC_TIMEOUT = 5.0  # seconds a forwarded request waits for the owner's answer


def new_worker_id() -> str:
    """A worker id nobody else has: host name, process id and a random tag."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


@dataclass(frozen=True)
class ClusterSettings:
    """One worker's view of the cluster."""

    redis_url: str
    worker_id: str = field(default_factory=new_worker_id)
    lease_ttl: float = LEASE_TTL
    rpc_timeout: float = RPC_TIMEOUT
    prefix: str = "tg"  # of every Redis key and channel (several deployments, one Redis)

    @property
    def renew_every(self) -> float:
        """Leases are renewed three times per lifetime: two renewals may fail in a row."""
        return self.lease_ttl / 3
