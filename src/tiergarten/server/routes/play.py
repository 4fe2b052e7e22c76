"""`/ws/{table_id}?token=...`: one connection to a table (docs/protocol.md, "Websocket").

The route owns the socket: it reads and checks client messages (size, rate, shape), answers
pings' pongs itself (latency is the connection's business), hands everything else to the
table, and pumps the connection's outbox back out in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from ..connection import Connection
from ..manager import Playable, TableManager
from ..metrics import CONNECTIONS
from ..protocol import BadMessage, Pong, read_client
from ..settings import Settings

router = APIRouter()

RESTARTING = 1012  # close code: the server is restarting; reconnect (docs/protocol.md)


@router.websocket("/ws/{table_id}")
async def play(websocket: WebSocket, table_id: str) -> None:
    await websocket.accept()
    tables: TableManager = websocket.app.state.manager
    settings = tables.settings
    if tables.draining:  # a graceful stop: this server takes no new connections
        await websocket.close(RESTARTING, "the server is restarting; reconnect")
        return
    table = await tables.open(table_id)  # here, or relayed to the process that owns it
    if table is None:
        await _refuse(websocket, "not_found", f"there is no table {table_id!r}", 4404)
        return
    token = websocket.query_params.get("token")
    seat = None if token is None else table.seat_of(token)
    if token is not None and seat is None:
        await _refuse(websocket, "bad_token", "this token claims no seat at this table", 4401)
        return
    conn = Connection(seat, settings.queue_limit)
    writer = asyncio.create_task(_pump(websocket, conn))
    table.connect(conn)
    pinger = (asyncio.create_task(_ping(conn, settings.ping_every))
              if table.real_time and settings.ping_every > 0 else None)
    CONNECTIONS.inc()
    try:
        await _read(websocket, conn, table, settings)
    finally:
        CONNECTIONS.dec()
        if pinger is not None:
            pinger.cancel()
        table.disconnect(conn)
        conn.close(1000, "", drop=True)  # the client is gone: nothing more to send
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 2.0)


class RateLimit:
    """A token bucket: `burst` messages at once, `rate` per second after that."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.at = float(burst), time.monotonic()
        self.dropped = 0

    def allow(self) -> bool:
        """Take one message; False if it is over the limit. `dropped` counts the messages
        refused since the bucket was last full (a client that calms down is forgiven)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= self.burst:
            self.dropped = 0
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.dropped += 1
        return False


async def _read(websocket: WebSocket, conn: Connection, table: Playable,
                settings: Settings) -> None:
    """Read client messages until the client goes or the connection is closed for abuse."""
    limit = RateLimit(settings.rate, settings.burst)
    loop = asyncio.get_running_loop()
    while not conn.closed:
        try:
            message = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        data = message.get("text")
        if data is None:
            data = message.get("bytes") or b""
        if not limit.allow():
            if limit.dropped == 1:
                conn.error("rate_limited", f"more than {settings.burst} messages at once or "
                           f"{settings.rate:g} a second; slow down", table.version)
            if limit.dropped > 2 * settings.burst:
                conn.close(1008, "message flood")
            continue
        if len(data) > settings.max_message:
            conn.error("too_large", f"a message may have at most {settings.max_message} bytes, "
                       f"this one had {len(data)}", table.version)
            continue
        try:
            parsed = read_client(data)
        except BadMessage as exc:
            conn.error("bad_message", str(exc), table.version)
            continue
        if isinstance(parsed, Pong):
            conn.pong(parsed.pong, loop.time())  # an unknown id is ignored
            continue
        try:
            await table.handle(conn, parsed)  # an act: once applied and told
        except Exception as exc:  # never let one message take the table down
            conn.error("server_error", f"the server could not handle this message: {exc}",
                       table.version)


async def _pump(websocket: WebSocket, conn: Connection) -> None:
    """Send a connection's outbox in order; close the socket when the outbox says so."""
    while True:
        text = await conn.outbox.get()
        try:
            if text is None:
                await websocket.close(conn.close_code, conn.close_reason)
                return
            await websocket.send_text(text)
        except Exception:
            conn.closed = True
            return


async def _ping(conn: Connection, every: float) -> None:
    """Ping a connection at once and then every `every` seconds, to measure its latency."""
    loop = asyncio.get_running_loop()
    while not conn.closed:
        conn.ping(loop.time())
        await asyncio.sleep(every)


async def _refuse(websocket: WebSocket, code: str, message: str, close: int) -> None:
    await websocket.send_json({"type": "error", "code": code, "message": message,
                               "version": None})
    await websocket.close(close, message[:100])
