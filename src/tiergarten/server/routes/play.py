"""`/ws/{table_id}`: one connection to a table (docs/protocol.md, "Websocket").

The seat's token comes in the `Sec-WebSocket-Protocol` header (`tiergarten, token.<token>`),
never in the URL, which proxies log; `?token=` is still read, for clients of before, for one
release.

The route owns the socket: it admits the connection (per-address and per-table limits), reads
and checks client messages (size in bytes, rate, shape), answers pings' pongs itself (latency is
the connection's business), hands everything else to the table, and pumps the connection's
outbox back out in order. When the server closes a connection (a flood, a client too slow to
read, a seat given up, the server stopping) what was queued and the close frame still go out,
so the client learns why; when the client goes, nothing more is sent.
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from ..edge.limits import Gate, RateLimit
from ..edge.metrics import CONNECTIONS
from ..edge.protocol import BadMessage, ErrorMessage, Pong, read_client
from ..edge.settings import Settings
from ..edge.writer import text
from ..storage.store import StoreUnavailable
from ..table import closing, unreplayable
from ..table.connection import Connection
from ..table.manager import TableManager
from ..table.ports import Playable
from ..table.unreplayable import Unreplayable
from .account import COOKIE

router = APIRouter()

RESTARTING = 1012  # close code: the server is restarting; reconnect (docs/protocol.md)
PROTOCOL = "tiergarten"  # the subprotocol the server answers with when a client names it
TOKEN_PREFIX = "token."  # a subprotocol value carrying the seat's token


def offered(websocket: WebSocket) -> tuple[str | None, str | None]:
    """The subprotocol to accept (ours, if the client named it) and the token the client
    sent in `Sec-WebSocket-Protocol`, else in the URL (clients of before), else None."""
    names: list[str] = list(websocket.scope.get("subprotocols") or [])
    token = next((n[len(TOKEN_PREFIX):] for n in names if n.startswith(TOKEN_PREFIX)), None)
    if token is None:
        token = websocket.query_params.get("token")
    return (PROTOCOL if PROTOCOL in names else None), token


@router.websocket("/ws/{table_id}")
async def play(websocket: WebSocket, table_id: str) -> None:
    subprotocol, token = offered(websocket)
    await websocket.accept(subprotocol=subprotocol)
    tables: TableManager = websocket.app.state.manager
    if tables.draining:  # a graceful stop: this server takes no new connections
        await websocket.close(RESTARTING, "the server is restarting; reconnect")
        return
    gate: Gate = websocket.app.state.gate
    address = websocket.client.host if websocket.client else ""
    refused = await gate.enter(address, table_id)
    if refused is not None:
        await _refuse(websocket, "too_many_connections", f"{refused}; close one and try again",
                      4429)
        return
    try:
        await _admitted(websocket, tables, table_id, address, token)
    finally:
        gate.leave(address, table_id)


async def _admitted(websocket: WebSocket, tables: TableManager, table_id: str,
                    address: str, token: str | None) -> None:
    try:
        table = await tables.open(table_id)  # here, or relayed to the process that owns it
    except StoreUnavailable as exc:
        await _refuse(websocket, "unavailable", str(exc), 1013)
        return
    except Unreplayable as exc:
        await _refuse(websocket, "unreplayable", str(exc), unreplayable.CLOSE_CODE)
        return
    if table is None:
        await _refuse(websocket, "not_found", f"there is no table {table_id!r}", 4404)
        return
    if table.status == "closed":  # its row is a record now; its tokens claim nothing
        await _refuse(websocket, "closed", closing.words(table.row.close_reason),
                      closing.CLOSE_CODE)
        return
    seat = None if token is None else table.seat_of(token)
    if token is not None and seat is None:
        await _refuse(websocket, "bad_token", "this token claims no seat at this table", 4401)
        return
    settings = tables.settings
    conn = Connection(seat, settings.queue_limit, settings.queue_bytes, address,
                      await _account(websocket))
    writer = asyncio.create_task(_pump(websocket, conn))
    table.connect(conn)
    pinger = (asyncio.create_task(_ping(conn, settings.ping_every))
              if table.real_time and settings.ping_every > 0 else None)
    reader = asyncio.create_task(_read(websocket, conn, table, settings))
    CONNECTIONS.inc()
    try:
        await _until_done(reader, writer, conn, settings.close_timeout)
    finally:
        CONNECTIONS.dec()
        for task in (reader, writer, pinger):
            if task is not None:
                task.cancel()
        table.disconnect(conn)


async def _account(websocket: WebSocket) -> int | None:
    """The id of the connection's signed-in account, if any (chat is limited per account)."""
    cookie = websocket.cookies.get(COOKIE)
    accounts = getattr(websocket.app.state, "accounts", None)
    if not cookie or accounts is None:
        return None
    try:
        user = await asyncio.to_thread(accounts.user_of, cookie)
    except StoreUnavailable:
        return None
    return None if user is None else int(user.id)


async def _until_done(reader: asyncio.Task[None], writer: asyncio.Task[None], conn: Connection,
                      timeout: float) -> None:
    """Until the client goes, or the server closes the connection: then what is queued and the
    close frame go out first, for at most `timeout` seconds (a client that reads nothing is
    cut by the transport, see `main.websocket_protocol`)."""
    closing = asyncio.ensure_future(conn.closing.wait())
    try:
        await asyncio.wait({reader, closing}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        closing.cancel()
    if conn.closing.is_set():
        await asyncio.wait({writer}, timeout=timeout)


def measure(data: str | bytes, most: int) -> int:
    """The size of a client message in bytes as sent (UTF-8 for text); exact up to `most`,
    and some number above `most` beyond it (a text longer than `most` characters is too long
    in any encoding, and one of at most `most` / 4 characters cannot exceed it).

    >>> measure("é" * 3000, 4096), measure("e" * 3000, 4096), measure(b"ab", 4096)
    (6000, 3000, 2)
    """
    if isinstance(data, bytes) or len(data) > most or 4 * len(data) <= most:
        return len(data)
    return len(data.encode("utf-8", "surrogatepass"))


async def _read(websocket: WebSocket, conn: Connection, table: Playable,
                settings: Settings) -> None:
    """Read client messages until the client goes or the connection is closed for abuse."""
    limit = RateLimit(settings.rate, settings.burst)
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
        await handle_frame(conn, table, data, limit, settings)
        await asyncio.sleep(0)  # the writer and other tables get their turn between messages


async def handle_frame(conn: Connection, table: Playable, data: str | bytes, limit: RateLimit,
                       settings: Settings) -> None:
    """Check one client message (rate, size, shape) and act on it; every refusal is an error
    message to this connection alone, and changes nothing."""
    if not limit.allow():
        if limit.dropped == 1:
            conn.error("rate_limited", f"more than {settings.burst} messages at once or "
                       f"{settings.rate:g} a second; slow down", table.version)
        if limit.dropped > 2 * settings.burst:
            conn.close(1008, "message flood")
        return
    size = measure(data, settings.max_message)
    if size > settings.max_message:
        conn.error("too_large", f"a message may have at most {settings.max_message} bytes, "
                   f"this one had {size}", table.version)
        return
    try:
        parsed = read_client(data)
    except BadMessage as exc:
        conn.error("bad_message", str(exc), table.version)
        return
    if isinstance(parsed, Pong):
        conn.pong(parsed.pong, asyncio.get_running_loop().time())  # an unknown id is ignored
        return
    try:
        await table.handle(conn, parsed)  # an act: once applied and told
    except StoreUnavailable as exc:  # e.g. a chat line while the database is away
        conn.error("unavailable", f"{exc}; nothing changed", table.version)
    except Exception as exc:  # never let one message take the table down
        conn.error("server_error", f"the server could not handle this message: {exc}",
                   table.version)


async def _pump(websocket: WebSocket, conn: Connection) -> None:
    """Send a connection's outbox in order, then its close frame."""
    try:
        while (text := await conn.next()) is not None:
            await websocket.send_text(text)
        await websocket.close(conn.close_code, conn.close_reason)
    except Exception:  # the client is gone
        conn.closed = True


async def _ping(conn: Connection, every: float) -> None:
    """Ping a connection at once and then every `every` seconds, to measure its latency."""
    loop = asyncio.get_running_loop()
    while not conn.closed:
        conn.ping(loop.time())
        await asyncio.sleep(every)


async def _refuse(websocket: WebSocket, code: str, message: str, close: int) -> None:
    reason = message.encode()[:120].decode(errors="ignore")  # a close reason has 123 bytes
    with contextlib.suppress(Exception):
        await websocket.send_text(text(ErrorMessage(code=code, message=message, version=None)))
        await websocket.close(close, reason)
