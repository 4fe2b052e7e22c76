"""Run the server: `serve()` prints the addresses to open and runs uvicorn until interrupted.

`tiergarten serve --port 8000 --db postgresql://...` (or `python -m tiergarten.server`, the
same command) does the same from a shell; server/config.py has every setting.
By default it listens on loopback only; `lan=True` (`--lan`) listens on every address and
points invite links at the machine's network address, `public_url` at the address given.

Transport and process settings made here: no websocket compression (`WS_DEFLATE`: messages
are small JSON, and each connection's deflate state cost ~48 KiB, half the server's memory per
table under load);
the collector's full passes made rare and the startup objects frozen (`GC_THRESHOLDS`: a full
pass stalls every table for 0.1-0.2 s at 200 tables); a websocket's kernel send buffer capped
(`SEND_BUFFER`) and a websocket whose client reads nothing cut once the app is done with it
(`websocket_protocol`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import ipaddress
import logging
import socket
import sys
from typing import Any

from .config import ServerConfig, mask
from .edge.invite import is_loopback, lan_address, public_base
from .edge.protocol import MAX_MESSAGE
from .edge.settings import Settings
from .storage.sql_store import database_url

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



LOOPBACK, EVERYWHERE = "127.0.0.1", "0.0.0.0"  # the default, and what --lan listens on


def serve(config: ServerConfig | None = None, /, *, settings: Settings | None = None,
          **values: Any) -> None:
    """Serve tiergarten with `config` (server/config.py), or with the settings `values` by
    name over the `TIERGARTEN_*` environment (`serve(port=8001, db="postgresql://...")`,
    `serve(lan=True)`); `settings` replaces the tables' settings outright. Every value is
    checked first (`ConfigError`). With a Redis URL this process is one worker of several
    behind a proxy (docs/deploy.md). SIGTERM stops it gracefully."""
    import uvicorn

    from . import observe
    from .app import create_app
    from .edge import logs

    config = config or ServerConfig.load(values)
    host, public = listen_plan(config.host, config.port, config.lan, config.public_url)
    worker = config.worker()
    logs.configure(config.log_format, config.log_level, worker)  # before anything is said
    table = settings or config.table_settings()
    if public is not None:
        table = dataclasses.replace(table, public_url=public)
    observe.start_reporting(config)  # Sentry, if configured: before the app exists
    cluster = config.cluster_settings()
    url = database_url(config.db)
    app = create_app(url, table, cluster=cluster)
    observe.start_tracing(app, config)
    shown = url if url.startswith("sqlite") else mask(url.split("@")[-1])
    extra = "" if cluster is None else f", worker {cluster.worker_id} of a cluster"
    logs.banner(addresses(host, config.port, table.public_url,
                          f"(database: {shown}{extra})"), config.log_format)
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(SWITCH_INTERVAL)
    gc.collect()
    gc.freeze()  # the modules and the app live as long as the process: out of every pass
    uvicorn_config = uvicorn.Config(
        app, host=host, port=config.port, log_level=config.log_level, ws_max_size=WS_MAX_SIZE,
        ws_ping_interval=20.0, ws_ping_timeout=20.0, ws_per_message_deflate=WS_DEFLATE,
        log_config=logs.dict_config(config.log_format, config.log_level, worker),
        timeout_graceful_shutdown=DRAIN_SECONDS, ws=websocket_protocol(2 * table.close_timeout),
        server_header=False)  # behind a proxy, one Server header: the proxy's
    GracefulServer(uvicorn_config, app).run()


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
            self._tasks: set[asyncio.Task[None]] = set()
            app.state.stop_gracefully = self.stop_gracefully  # `tiergarten admin drain`

        def stop_gracefully(self) -> None:
            """As the first SIGTERM does, from the event loop (the operator's drain order)."""
            if not self._draining:
                self._draining = True
                self._start_drain()

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
            from .edge.logs import spawn

            spawn(self._drain(), self._tasks, name="graceful stop")

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


def listen_plan(host: str | None, port: int, lan: bool = False,
                public_url: str | None = None) -> tuple[str, str | None]:
    """Where to listen and the base of invite links (None: the address a browser used).

    Refuses (ValueError) a bad `public_url`, LAN mode on a loopback `host`, and LAN mode on a
    machine with no network address (unless `public_url` says where people reach it)."""
    public = None if public_url is None else public_base(public_url)
    if not lan:
        return host or LOOPBACK, public
    if host is not None and _is_loopback_host(host):
        raise ValueError(f"--lan listens on the local network, but --host {host} is loopback: "
                         "no other device could connect; leave --host out (every address)")
    if public is None:
        address = lan_address()
        if address is None:
            raise ValueError("--lan: this machine has no network address (no default route, "
                             "and its hostname names only loopback); connect it to a network "
                             "or give the address with --public-url")
        public = f"http://{address}:{port}"
    return host or EVERYWHERE, public


def _is_loopback_host(host: str) -> bool:
    return is_loopback(f"http://{_bracketed(host)}/")


def _bracketed(host: str) -> str:
    """`host` as it goes into a URL: IPv6 addresses in brackets."""
    try:
        return f"[{host}]" if ipaddress.ip_address(host).version == 6 else host
    except ValueError:
        return host


def addresses(host: str, port: int, public: str | None, note: str = "") -> str:
    """What `serve` prints: the address to open on this computer, then the one other devices
    open (where invite links point), or that only this computer can open it."""
    here = {EVERYWHERE: LOOPBACK, "::": "::1"}.get(host, host)
    lines = [f"tiergarten serving on http://{_bracketed(here)}:{port}  {note}".rstrip()]
    if public is not None:
        # the page's folder (with its slash: the client's paths are relative to it)
        lines.append(f"  other devices open {public}/  (invite links and QR codes point there)")
    elif _is_loopback_host(here):
        lines.append("  only this computer can open it; --lan (make play LAN=1) lets phones "
                     "and laptops on your network join")
    return "\n".join(lines)

