"""The FastAPI app: a small REST API for tables and one websocket per table connection.

REST (JSON): games and their options, create / list / show tables, join, leave, record, rematch.
Websocket `/ws/{table_id}?token=...`: play (see `protocol` and docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse
from starlette.websockets import WebSocketDisconnect

from tiergarten import bots
from tiergarten.core import OptionError, games
from tiergarten.core.registry import game_class

from .connection import Connection
from .hint import ADVISERS, add_hint_route
from .manager import TableManager
from .protocol import PROTOCOL, BadMessage, CreateTable, Join, Joined, TokenBody, read_client
from .replay import replay_steps
from .settings import Settings, TableError
from .store import Store
from .tables import LiveTable

WEB = Path(__file__).resolve().parent.parent / "web"


def create_app(db: str | os.PathLike[str] | None = None, settings: Settings | None = None,
               web: Path | None = WEB) -> FastAPI:
    """The whole server as an ASGI app over the database `db` (see `store.database_url`).

    The browser client in `web` (src/tiergarten/web) is served at `/` if that folder exists.
    """
    settings = settings or Settings()
    holder: dict[str, TableManager] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store = Store(db)
        manager = holder["manager"] = TableManager(store, settings)
        await manager.recover()
        try:
            yield
        finally:
            await manager.stop()
            store.close()

    app = FastAPI(title="tiergarten", version=str(PROTOCOL), lifespan=lifespan)
    app.add_middleware(GZipMiddleware, minimum_size=4096)  # replays and game lists compress well

    def tables() -> TableManager:
        return holder["manager"]

    add_hint_route(app, tables)  # GET /api/tables/{id}/hint (server/hint.py)

    @app.exception_handler(OptionError)
    async def option_error(_request: Request, exc: OptionError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    @app.exception_handler(TableError)
    async def table_error(_request: Request, exc: TableError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=exc.status)

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "protocol": PROTOCOL}

    @app.get("/api/games")
    async def list_games() -> list[dict[str, Any]]:
        """Every game with its options and bots, enough for a client to build its form."""
        return [describe_game(g) for g in games()]

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable) -> dict[str, Any]:
        table = tables().create(body.game, body.players, body.options, body.seats,
                                body.timer, body.seed, hints=body.hints)
        return table.info()

    @app.get("/api/tables")
    async def open_tables() -> list[dict[str, Any]]:
        """Tables waiting for people."""
        return tables().open_tables()

    @app.get("/api/tables/{table_id}")
    async def show_table(table_id: str) -> dict[str, Any]:
        return need(table_id).info()

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: Join) -> Joined:
        seat, token = tables().join(table_id, body.name, body.seat)
        return Joined(table=table_id, seat=seat, token=token)

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: str, body: TokenBody) -> dict[str, Any]:
        seat = need(table_id).leave(body.token)
        return {"table": table_id, "seat": seat}

    @app.post("/api/tables/{table_id}/rematch", status_code=201)
    async def rematch(table_id: str, body: TokenBody) -> dict[str, Any]:
        return tables().rematch(table_id, body.token).info()

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> dict[str, Any]:
        """The whole record once the game is over; before that only what a spectator sees."""
        table = need(table_id)
        if table.status == "over":
            return {"status": "over", "record": stored_record(table_id),
                    "result": table.state.result().to_dict(), "seats": table.info()["seats"]}
        return {"status": table.status, "version": table.version,
                "observation": table.state.observe(None), "seats": table.info()["seats"]}

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str) -> dict[str, Any]:
        """Every position of a finished game with every hand revealed (409 before the end)."""
        table = need(table_id)
        if table.status != "over":
            raise HTTPException(409, "a game can be replayed once it is over; this one is "
                                     f"{table.status}")
        return {"game": table.row.game, "players": table.state.game.players,
                "seats": table.info()["seats"], "result": table.state.result().to_dict(),
                "steps": await asyncio.to_thread(replay_steps, stored_record(table_id))}

    def stored_record(table_id: str) -> dict[str, Any]:
        """A finished table's record as the log in the database holds it (not memory)."""
        stored = tables().store.load_table(table_id)
        assert stored is not None
        return stored.record()

    def need(table_id: str) -> LiveTable:
        table = tables().get(table_id)
        if table is None:
            raise HTTPException(404, f"there is no table {table_id!r}")
        return table

    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        table = tables().get(table_id)
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
        try:
            await _read(websocket, conn, table, settings)
        finally:
            if pinger is not None:
                pinger.cancel()
            table.disconnect(conn)
            conn.close(1000, "", drop=True)  # the client is gone: nothing more to send
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2.0)

    if web is not None and web.is_dir():
        from fastapi.staticfiles import StaticFiles

        app.mount("/", StaticFiles(directory=web, html=True), name="web")
    return app


def describe_game(game_id: str) -> dict[str, Any]:
    """A game's facts, options (name, default, allowed values, doc) and bot names."""
    info = game_class(game_id).info
    return {
        "id": info.id, "title": info.title, "summary": info.summary,
        "min_players": info.min_players, "max_players": info.max_players,
        "default_players": info.default_players, "real_time": info.real_time,
        "options": [{"name": o.name, "default": o.default, "doc": o.doc,
                     "kind": o.kind.__name__, "allowed": o.allowed(),
                     "choices": None if o.choices is None else list(o.choices),
                     "minimum": o.minimum, "maximum": o.maximum, "nullable": o.nullable}
                    for o in info.options],
        "bots": list(bots.names(game_id)),
        "hints": game_id in ADVISERS,  # GET /api/tables/{id}/hint gives advice
    }


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


async def _read(websocket: WebSocket, conn: Connection, table: LiveTable,
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
