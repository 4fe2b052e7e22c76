"""The FastAPI app: the routes by topic (server/routes/) over one table manager.

The app wires the parts: the lifespan opens the database — the `Store` of the tables
(`SqlStore`) and beside it the players port of accounts and ratings (`SqlPlayerStore`), or both
in memory (`memory_stores`) — and the process's connections (`LocalTransport`); it gives the
store and the connections to the `TableManager`, which gives them to every table, and the
players port to `Accounts` and the ratings (the routes reach accounts and ratings through
them only). Sign-in limits are counted in this process, or in Redis for a cluster
(players/limits.py). REST (JSON): games and their options, create / list / show tables, join,
leave, record, replay, rematch, hints; `/readyz`. Websocket `/ws/{table_id}?token=...`: play
(see `protocol` and docs/protocol.md). Every HTTP answer carries the security headers of
server/edge/headers.py; a database that is away answers 503 (`StoreUnavailable`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse, Response

from tiergarten.core import OptionError

from .edge import metrics
from .edge.body_limit import BodyLimit
from .edge.csrf import CrossSiteGuard
from .edge.headers import SecurityHeaders
from .edge.hosts import TrustedHosts
from .edge.limits import Gate
from .edge.protocol import PROTOCOL
from .edge.settings import Settings, TableError
from .players import ratings
from .players.accounts import Accounts
from .players.limits import Limiter, LocalLimiter, RedisLimiter, SignInLimits
from .players.names import same_person_name
from .routes import ROUTERS
from .storage.memory_players import MemoryPlayerStore
from .storage.memory_store import MemoryStore
from .storage.player_store import PlayerStore
from .storage.sql_players import SqlPlayerStore
from .storage.sql_store import DOWN, SqlStore
from .storage.store import Store, StoreUnavailable
from .table.manager import TableManager
from .table.transport import LocalTransport
from .table.unreplayable import Unreplayable

if TYPE_CHECKING:
    from .cluster import ClusterSettings

RESTARTING = 1012  # close code: the server is restarting, reconnect (docs/protocol.md)
RESTART_REASON = "the server is restarting; reconnect"

WEB = Path(__file__).resolve().parent.parent / "web"

Stores = Callable[[], tuple[Store, PlayerStore]]  # opens the tables' store and the players port


def sql_stores(db: str | os.PathLike[str] | None) -> Stores:
    """The database `db` (see `sql_store.database_url`): the store and the players port in it."""
    def open_both() -> tuple[Store, PlayerStore]:
        store = SqlStore(db)
        return store, SqlPlayerStore(store)

    return open_both


def memory_stores() -> tuple[Store, PlayerStore]:
    """Everything in this process's memory, gone when it ends (tests, trying it out)."""
    store = MemoryStore()
    return store, MemoryPlayerStore(store)


def create_app(db: str | os.PathLike[str] | None = None, settings: Settings | None = None,
               web: Path | None = WEB, cluster: ClusterSettings | None = None,
               stores: Stores | None = None, limits: SignInLimits | None = None) -> FastAPI:
    """The whole server as an ASGI app over the database `db` (see `sql_store.database_url`),
    or over what `stores` opens (e.g. `memory_stores`).

    The browser client in `web` (src/tiergarten/web) is served at `/` if that folder exists.
    With `cluster` the process is one worker of several sharing Redis (server/cluster,
    docs/deploy.md); without, it runs every table itself. `limits`: the sign-in limits
    (default: `SignInLimits.from_env` with the settings' `login_attempts` and `login_window`).
    """
    settings = settings or Settings()
    opener = stores or sql_stores(db)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store, players = opener()
        limiter: Limiter = (LocalLimiter() if cluster is None
                            else RedisLimiter(cluster.redis_url, cluster.prefix))
        app.state.players = players
        app.state.accounts = Accounts(
            players, limits or SignInLimits.from_env(settings.login_attempts,
                                                     settings.login_window), limiter)
        app.state.cluster = None
        if cluster is None:
            manager = app.state.manager = TableManager(store, settings, LocalTransport())
        else:
            from .cluster import Cluster

            node = app.state.cluster = Cluster(cluster, store)
            manager = app.state.manager = TableManager(store, settings, node.transport,
                                                       ownership=node)
            manager.locate = node.open
        manager.seat_tokens = app.state.accounts.seat_token
        manager.same_name = same_person_name
        manager.game_over = functools.partial(ratings.game_over, players)
        if cluster is None:
            await manager.recover()
        else:
            await app.state.cluster.start(manager, app)
        metrics.watch(lambda status: sum(t.status == status for t in manager.tables.values()),
                      None if cluster is None else lambda: app.state.cluster.relayed,
                      None if cluster is None else lambda: app.state.cluster.bus.sent)
        try:
            yield
        finally:
            await manager.stop()
            if app.state.cluster is not None:
                await app.state.cluster.stop()
            store.close()
            if isinstance(limiter, RedisLimiter):
                limiter.close()

    # no /docs or /redoc: they load scripts from a CDN and run inline ones, which the security
    # headers refuse; /openapi.json describes the REST API (and docs/protocol.md)
    app = FastAPI(title="tiergarten", version=str(PROTOCOL), lifespan=lifespan, docs_url=None,
                  redoc_url=None)
    app.state.gate = Gate(settings)  # connections and new tables per address
    if cluster is not None:
        from .cluster.forward import ForwardMiddleware

        app.add_middleware(ForwardMiddleware)  # REST about another worker's table runs there
    app.add_middleware(GZipMiddleware, minimum_size=4096)  # replays and game lists compress well
    app.add_middleware(CrossSiteGuard, public=settings.public_url)  # before any route runs
    app.add_middleware(BodyLimit)  # a body past the cap is refused before it is read whole
    app.add_middleware(TrustedHosts, public_url=settings.public_url)  # only our own names
    app.add_middleware(SecurityHeaders)  # outermost: every answer gets them, refusals too
    app.add_exception_handler(OptionError, _option_error)
    app.add_exception_handler(TableError, _table_error)
    app.add_exception_handler(StoreUnavailable, _unavailable)
    for down in DOWN:  # what reaches the database without the store (accounts, ratings)
        app.add_exception_handler(down, _unavailable)
    app.add_exception_handler(RequestValidationError, _bad_body)
    for router in ROUTERS:
        app.include_router(router)
    if web is not None and web.is_dir():
        from fastapi.staticfiles import StaticFiles

        app.mount("/", StaticFiles(directory=web, html=True), name="web")
    return app


async def drain(app: FastAPI, reason: str = RESTART_REASON) -> None:
    """A graceful stop before the process exits: take no new connections (`/readyz` says
    so), stop every table after the commit in hand, ask every client to reconnect (close
    1012), and in a deployment of several let the other workers take the tables at once."""
    manager: TableManager | None = getattr(app.state, "manager", None)
    if manager is None:
        return
    manager.draining = True
    node = getattr(app.state, "cluster", None)
    if node is not None:
        await node.drain(reason)
    await manager.stop(RESTARTING, reason)
    if node is not None:
        await node.stop()  # leases released: the others adopt the tables at their next tick
    await asyncio.sleep(0.2)  # let the connections' writers send their close frames


async def _option_error(_request: Request, exc: Exception) -> JSONResponse:
    return JSONResponse({"detail": str(exc)}, status_code=400)


async def _bad_body(_request: Request, exc: Exception) -> Response:
    """422 with where and what was wrong, without echoing the input: a body may hold text that
    cannot be encoded again (a lone surrogate), and the client has it anyway."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    detail = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
              for e in errors]
    return Response(json.dumps({"detail": detail}), status_code=422,
                    media_type="application/json")  # ASCII: whatever the messages hold


async def _unavailable(_request: Request, exc: Exception) -> JSONResponse:
    said = str(exc) if isinstance(exc, StoreUnavailable) else "the database is unavailable"
    return JSONResponse({"detail": f"{said}; nothing changed, try again shortly"},
                        status_code=503, headers={"Retry-After": "5"})


async def _table_error(_request: Request, exc: Exception) -> JSONResponse:
    if isinstance(exc, Unreplayable):
        return JSONResponse(exc.body(), status_code=exc.status)
    status = exc.status if isinstance(exc, TableError) else 400
    return JSONResponse({"detail": str(exc)}, status_code=status)
