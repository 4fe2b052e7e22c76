"""What every part of the server shares: its settings, its refusals, and token hashing."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fastapi import HTTPException

from .invite import public_base
from .protocol import MAX_MESSAGE


@dataclass
class Settings:
    """How the server paces bots and limits clients (tests shrink the times).

    The limits are per server process; docs/protocol.md ("Limits") lists them for clients."""

    bot_pace: float = 1.0  # multiplies a bot's nominal delay (1 s per ordinary move)
    away_after: float = 20.0  # seconds a person may be disconnected before a bot steps in
    max_message: int = MAX_MESSAGE  # bytes per client message (UTF-8, as sent)
    rate: float = 10.0  # client messages per second, sustained
    burst: int = 30  # client messages at once
    allow_seeds: bool = False  # let a table's creator pick the seed (tests, reproductions)
    queue_limit: int = 1000  # unsent messages before a slow connection is closed
    queue_bytes: int = 1 << 20  # ... or unsent bytes
    close_timeout: float = 5.0  # seconds to deliver what is queued and the close frame
    address_connections: int = 32  # websockets open at once from one address
    table_connections: int = 64  # websockets open at once to one table
    tables_burst: int = 20  # tables one address may create at once ...
    tables_per_minute: float = 2.0  # ... and then per minute
    seating_every: float = 0.1  # seconds over which seating changes make one `table` message
    db_retry: float = 1.0  # seconds between attempts to reach a database that went away
    ping_every: float = 3.0  # seconds between pings to each connection at real-time tables
    hit_cap: float = 0.15  # the most (seconds) an act is credited earlier than its arrival
    call_window: float = 3.0  # seconds a reserved moment (real time) waits for its act
    # seconds an open table with nobody connected lasts after its last activity (0: for ever)
    open_table_ttl: float = 1800.0
    # seconds an open table nobody is connected to stays in the lobby's list (time to come back
    # after a closed tab); its link works until it expires (0: listed until then)
    unlisted_after: float = 120.0
    # The base of invite links (`--public-url`, or the network address in LAN mode); None: the
    # address the browser used to reach the server.
    public_url: str | None = None
    login_attempts: int = 5  # failed sign-ins per user name (x4 per address) within ...
    login_window: float = 300.0  # ... this many seconds
    hash_slots: int = 2  # passwords hashed at once (docs/security.md, "Accounts under attack")
    # The lab in the browser (server/lab): runs of simulations, bounded
    lab_workers: int = 2  # processes playing one run's games (1: a thread of the server)
    lab_running: int = 1  # runs played at once; the others wait ...
    lab_queue: int = 8  # ... up to this many; beyond, a run is refused
    lab_per_user: int = 2  # runs one user (account, else address) has queued or running
    lab_games: int = 20_000  # games one run may play in all
    lab_seconds: float = 600.0  # the longest a run may take, by its first games' estimate

    def __post_init__(self) -> None:
        if self.public_url is not None:
            self.public_url = public_base(self.public_url)


class TableError(ValueError):
    """A request about a table that cannot be met; `status` is the HTTP status to answer,
    `code` and `params` what a client words in its own language (docs/protocol.md, "REST
    error codes"), the message the English of it."""

    def __init__(self, message: str, status: int = 400, code: str | None = None,
                 params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.params = dict(params or {})


class Refused(HTTPException):
    """A REST request refused: its HTTP status, a stable `code` with its `params` (a client
    words them in its own language) and the English `detail`; answered
    `{"detail", "code", "params"}` (docs/protocol.md, "REST error codes")."""

    def __init__(self, status: int, code: str, detail: str,
                 params: Mapping[str, Any] | None = None,
                 headers: Mapping[str, str] | None = None) -> None:
        super().__init__(status, detail, dict(headers) if headers else None)
        self.code = code
        self.params = dict(params or {})


def refusal(detail: str, code: str | None, params: Mapping[str, Any] | None = None
            ) -> dict[str, Any]:
    """The body of a refusal: the English `detail`, and its `code` and `params` if it has a
    code."""
    if code is None:
        return {"detail": detail}
    return {"detail": detail, "code": code, "params": dict(params or {})}


def hash_token(token: str) -> str:
    """What the database keeps of a seat's token."""
    return hashlib.sha256(token.encode()).hexdigest()
