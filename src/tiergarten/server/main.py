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
import asyncio
import dataclasses
import gc
import logging
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .protocol import MAX_MESSAGE
from .settings import Settings
from .sql_store import database_url

if TYPE_CHECKING:
    from .cluster import ClusterSettings

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
# How long a thread that wants the GIL waits before the holder must let it go (CPython's
# default is 5 ms). Each act is committed in a store writer thread: with the event loop busy,
# every commit waited up to 5 ms for the GIL, one after the other (one SQLite writer), so
# commits queued up and latency bent while the CPU was still half idle; 0.5 ms lets the
# writer (and a thinking bot's thread) in and out quickly.
SWITCH_INTERVAL = 0.0005


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | os.PathLike[str] | None = None,
          settings: Settings | None = None, log_level: str = "warning",
          cluster: ClusterSettings | None = None, log_format: str = "text") -> None:
    """Serve tiergarten on http://host:port with the database `db` (default: SQLite in the
    user's data folder; `postgresql://...` for PostgreSQL). With `cluster` (Redis) this process
    is one worker of several behind a proxy (docs/deploy.md). SIGTERM stops it gracefully."""
    import uvicorn

    from .app import create_app

    url = database_url(db)
    app = create_app(url, settings, cluster=cluster)
    shown = url if url.startswith("sqlite") else url.split("@")[-1]
    extra = "" if cluster is None else f", worker {cluster.worker_id} of a cluster"
    print(f"tiergarten serving on http://{host}:{port}  (database: {shown}{extra})", flush=True)
    if log_format != "text":
        from .logs import configure

        configure(log_format, log_level)
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(SWITCH_INTERVAL)
    gc.collect()
    gc.freeze()  # the modules and the app live as long as the process: out of every pass
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level,
                            ws_max_size=WS_MAX_SIZE, ws_ping_interval=20.0,
                            ws_ping_timeout=20.0, ws_per_message_deflate=WS_DEFLATE,
                            log_config=(uvicorn.config.LOGGING_CONFIG if log_format == "text"
                                        else None),
                            timeout_graceful_shutdown=DRAIN_SECONDS)
    GracefulServer(config, app).run()


DRAIN_SECONDS = 10  # the most a graceful stop waits for commits and closes


def _graceful_server() -> type:
    import uvicorn

    class Graceful(uvicorn.Server):
        """uvicorn, but the first SIGTERM (or Ctrl-C) drains before uvicorn stops: no new
        connections, the commits in hand finished, every client told to reconnect (1012);
        a second one stops at once."""

        def __init__(self, config: uvicorn.Config, app: Any) -> None:
            super().__init__(config)
            self.tiergarten = app
            self._loop: asyncio.AbstractEventLoop | None = None
            self._draining = False

        async def serve(self, sockets: Any = None) -> None:
            self._loop = asyncio.get_running_loop()
            await super().serve(sockets)

        def handle_exit(self, sig: int, frame: Any) -> None:
            if self._draining or self._loop is None:
                super().handle_exit(sig, frame)
                return
            self._draining = True
            self._loop.call_soon_threadsafe(self._start_drain)

        def _start_drain(self) -> None:
            asyncio.ensure_future(self._drain())

        async def _drain(self) -> None:
            from .app import drain

            try:
                await asyncio.wait_for(drain(self.tiergarten), DRAIN_SECONDS)
            except Exception:
                logging.getLogger("tiergarten.server").exception("the graceful stop failed")
            finally:
                self.should_exit = True

    return Graceful


def GracefulServer(config: Any, app: Any) -> Any:  # noqa: N802 - a class made on demand
    """The uvicorn server with a graceful stop (uvicorn is imported only when serving)."""
    return _graceful_server()(config, app)


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
    parser.add_argument("--log-level", default=os.environ.get("TIERGARTEN_LOG_LEVEL",
                                                              "warning"))
    parser.add_argument("--log-format", choices=["text", "json"],
                        default=os.environ.get("TIERGARTEN_LOG_FORMAT", "text"))
    parser.add_argument("--redis", default=None, metavar="URL",
                        help="redis://... : run as one worker of several (TIERGARTEN_REDIS_URL)")
    parser.add_argument("--lease-ttl", type=float, default=None,
                        help="seconds a table's lease lasts unrenewed (TIERGARTEN_LEASE_TTL)")
    args = parser.parse_args(argv)
    settings = Settings(bot_pace=args.bot_pace, away_after=args.away_after, rate=args.rate,
                        burst=args.burst, allow_seeds=args.allow_seeds,
                        ping_every=args.ping_every, hit_cap=args.hit_cap)
    from .cluster.settings import ClusterSettings

    cluster = ClusterSettings.from_env(redis_url=args.redis)
    if cluster is not None and args.lease_ttl is not None:
        cluster = dataclasses.replace(cluster, lease_ttl=args.lease_ttl)
    serve(args.host, args.port, args.db or os.environ.get("TIERGARTEN_DB"), settings,
          args.log_level, cluster, args.log_format)
