"""One websocket as a table sees it: a seat and an ordered outbox of JSON text."""

from __future__ import annotations

import asyncio
import json
from typing import Any


class Connection:
    """One websocket as a table sees it: a seat (None = spectator) and an outbox of JSON text.

    The transport drains `outbox`; a `None` in it means close (with `close_code`).
    """

    def __init__(self, seat: int | None, queue_limit: int = 1000) -> None:
        self.seat = seat
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.queue_limit = queue_limit
        self.close_code = 1000
        self.close_reason = ""
        self.closed = False

    def send(self, message: dict[str, Any] | str) -> None:
        if self.closed:
            return
        if self.outbox.qsize() >= self.queue_limit:
            self.close(1008, "too many unsent messages")
            return
        self.outbox.put_nowait(message if isinstance(message, str) else json.dumps(message))

    def error(self, code: str, message: str, version: int | None = None) -> None:
        self.send({"type": "error", "code": code, "message": message, "version": version})

    def close(self, code: int, reason: str, drop: bool = False) -> None:
        """Close after the messages already queued (or at once, dropping them)."""
        if drop:
            while not self.outbox.empty():
                self.outbox.get_nowait()
        if not self.closed:
            self.close_code, self.close_reason, self.closed = code, reason, True
            self.outbox.put_nowait(None)
