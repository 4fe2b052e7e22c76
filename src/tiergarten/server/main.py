"""Run the server: `serve()` prints the address and runs uvicorn until interrupted.

`python -m tiergarten.server --port 8000 --db postgresql://...` does the same from a shell.

Transport and process settings made here: no websocket compression (`WS_DEFLATE`: messages
are small JSON, and each connection's deflate state cost ~48 KiB, half the server's memory per
table under load);
the collector's full passes made rare and the startup objects frozen (`GC_THRESHOLDS`: a full
pass stalls every table for 0.1-0.2 s at 200 tables); a websocket's kernel send buffer capped
(`SEND_BUFFER`) and a websocket whose client reads nothing cut once the app is done with it
(`websocket_protocol`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
import socket
from collections.abc import Sequence
from typing import Any

from .protocol import MAX_MESSAGE
from .settings import Settings
from .sql_store import database_url

WS_MAX_SIZE = 16 * MAX_MESSAGE  # larger frames are refused by the transport (close 1009)
# No permessage-deflate: messages are small JSON (a state is about a kilobyte); each
# connection's compressor and decompressor took ~48 KiB (388 -> 196 KiB of server memory per
# table of four at 200 tables) and deflating showed up in profiles of the event loop.
WS_DEFLATE = False
# The cyclic garbage collector's full pass walks every object of the process and stalls every
# table meanwhile (0.1-0.2 s at 200 tables). Under load, states that live a second between
# two actions survive the young passes and called for a full pass every few seconds; after
# 1000 younger passes instead of 10 it comes every few minutes. Reference counting frees
# almost everything anyway; the young passes are unchanged.
GC_THRESHOLDS = (700, 10, 1000)

# A websocket's kernel send buffer. Left alone, the kernel grows it to megabytes for a client
# that reads nothing (4 MB on loopback); the server's own outbox limit (Settings.queue_bytes)
# only starts counting once that is full. 256 KiB carries a table's messages (about a kilobyte
# each, a few a second) at any round trip a person plays with.
SEND_BUFFER = 256 * 1024

log = logging.getLogger("tiergarten.server")


def websocket_protocol(grace: float) -> type[asyncio.Protocol] | str:
    """uvicorn's websocket protocol, except that its socket's send buffer is `SEND_BUFFER`, and
    that a connection the app is done with but that has not closed `grace` seconds later is
    aborted (its socket closed at once, whatever is unsent).

    A client that reads nothing never lets its socket close: closing waits for the send buffer
    to drain, which it never does, and the connection would keep its file descriptor and up to
    megabytes of kernel buffers for as long as the client likes — and, no longer counted
    against its address, let it open more. The app has already tried to say why (the route
    waits `close_timeout` to send what is queued and the close frame); a client that still
    reads nothing after that is cut. "auto" if this uvicorn has no sans-I/O protocol."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )
    except ImportError:  # an older uvicorn: its own protocol, without the cut
        return "auto"

    class CuttingProtocol(WebSocketsSansIOProtocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            sock = transport.get_extra_info("socket")
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
            super().connection_made(transport)

        async def run_asgi(self) -> None:
            await super().run_asgi()
            self.loop.call_later(grace, self._cut)

        def _cut(self) -> None:
            transport: Any = self.transport
            if not self.disconnected and transport is not None:
                log.info("websocket %s: not closed %g s after the end, cut", self.client, grace)
                transport.abort()

    return CuttingProtocol


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | os.PathLike[str] | None = None,
          settings: Settings | None = None, log_level: str = "warning") -> None:
    """Serve tiergarten on http://host:port with the database `db` (default: SQLite in the
    user's data folder; `postgresql://...` for PostgreSQL)."""
    import uvicorn

    from .app import create_app

    url = database_url(db)
    settings = settings or Settings()
    app = create_app(url, settings)
    shown = url if url.startswith("sqlite") else url.split("@")[-1]
    print(f"tiergarten serving on http://{host}:{port}  (database: {shown})", flush=True)
    gc.set_threshold(*GC_THRESHOLDS)
    gc.collect()
    gc.freeze()  # the modules and the app live as long as the process: out of every pass
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=WS_MAX_SIZE,
                ws_ping_interval=20.0, ws_ping_timeout=20.0,
                ws_per_message_deflate=WS_DEFLATE,
                ws=websocket_protocol(2 * settings.close_timeout))


def main(argv: Sequence[str] | None = None) -> None:
    """The command line of `python -m tiergarten.server`."""
    parser = argparse.ArgumentParser(prog="python -m tiergarten.server", description=serve.__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default=None, help="a SQLite path or a postgresql:// URL")
    parser.add_argument("--bot-pace", type=float, default=1.0,
                        help="multiplies bots' pauses (0 = instant)")
    parser.add_argument("--away-after", type=float, default=20.0,
                        help="seconds a disconnected person keeps the seat before a bot plays")
    parser.add_argument("--rate", type=float, default=10.0, help="messages/s per connection")
    parser.add_argument("--burst", type=int, default=30, help="messages at once per connection")
    parser.add_argument("--allow-seeds", action="store_true",
                        help="let a table's creator choose the seed (for tests)")
    parser.add_argument("--ping-every", type=float, default=3.0,
                        help="seconds between latency pings at real-time tables")
    parser.add_argument("--hit-cap", type=float, default=0.15,
                        help="the most seconds an act at a real-time table is credited before "
                             "its arrival (half the measured round trip, capped)")
    parser.add_argument("--queue-limit", type=int, default=1000,
                        help="unsent messages before a connection that reads too slowly is "
                             "closed")
    parser.add_argument("--address-connections", type=int, default=32,
                        help="websockets open at once from one address")
    parser.add_argument("--table-connections", type=int, default=64,
                        help="websockets open at once to one table")
    parser.add_argument("--tables-burst", type=int, default=20,
                        help="tables one address may create at once")
    parser.add_argument("--tables-per-minute", type=float, default=2.0,
                        help="tables one address may create per minute after the burst")
    parser.add_argument("--close-timeout", type=float, default=5.0,
                        help="seconds to deliver a closing connection's last messages; a "
                             "client that reads none of it is cut after twice as long")
    parser.add_argument("--db-retry", type=float, default=1.0,
                        help="seconds between attempts to reach a database that went away")
    parser.add_argument("--log-level", default="warning")
    args = parser.parse_args(argv)
    settings = Settings(bot_pace=args.bot_pace, away_after=args.away_after, rate=args.rate,
                        burst=args.burst, allow_seeds=args.allow_seeds,
                        ping_every=args.ping_every, hit_cap=args.hit_cap,
                        queue_limit=args.queue_limit,
                        address_connections=args.address_connections,
                        table_connections=args.table_connections,
                        tables_burst=args.tables_burst,
                        tables_per_minute=args.tables_per_minute, db_retry=args.db_retry,
                        close_timeout=args.close_timeout)
    serve(args.host, args.port, args.db, settings, args.log_level)
