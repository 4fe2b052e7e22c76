"""Run the server: `serve()` prints the address and runs uvicorn until interrupted.

`python -m tiergarten.server --port 8000 --db postgresql://...` does the same from a shell.

Transport and process settings made here: no websocket compression (`WS_DEFLATE`: messages
are small JSON, and each connection's deflate state cost ~48 KiB, half the server's memory per
table under load);
the collector's full passes made rare and the startup objects frozen (`GC_THRESHOLDS`: a full
pass stalls every table for 0.1-0.2 s at 200 tables).
"""

from __future__ import annotations

import argparse
import gc
import os
from collections.abc import Sequence

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


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | os.PathLike[str] | None = None,
          settings: Settings | None = None, log_level: str = "warning") -> None:
    """Serve tiergarten on http://host:port with the database `db` (default: SQLite in the
    user's data folder; `postgresql://...` for PostgreSQL)."""
    import uvicorn

    from .app import create_app

    url = database_url(db)
    app = create_app(url, settings)
    shown = url if url.startswith("sqlite") else url.split("@")[-1]
    print(f"tiergarten serving on http://{host}:{port}  (database: {shown})", flush=True)
    gc.set_threshold(*GC_THRESHOLDS)
    gc.collect()
    gc.freeze()  # the modules and the app live as long as the process: out of every pass
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=WS_MAX_SIZE,
                ws_ping_interval=20.0, ws_ping_timeout=20.0,
                ws_per_message_deflate=WS_DEFLATE)


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
    parser.add_argument("--call-window", type=float, default=3.0,
                        help="seconds a press of the club (real-time tables) waits for its call")
    parser.add_argument("--log-level", default="warning")
    args = parser.parse_args(argv)
    settings = Settings(bot_pace=args.bot_pace, away_after=args.away_after, rate=args.rate,
                        burst=args.burst, allow_seeds=args.allow_seeds,
                        ping_every=args.ping_every, hit_cap=args.hit_cap,
                        call_window=args.call_window)
    serve(args.host, args.port, args.db, settings, args.log_level)
