"""The FastAPI app: the routes by topic (server/routes/) over one table manager.

The app wires the parts: the lifespan opens the database — the `Store` of the tables
(`SqlStore`) and beside it the players port of accounts and ratings (`SqlPlayerStore`), or both
in memory (`memory_stores`) — and the process's connections (`LocalTransport`); it gives the
store and the connections to the `TableManager`, which gives them to every table, and the
players port to `Accounts` and the ratings (the routes reach accounts and ratings through
them only). Sign-in limits are counted in this process, or in Redis for a cluster
(players/limits.py), as are the other limits and the lab's bounds (edge/redis_counters.py).
REST (JSON): games and their options, create / list / show tables, join, leave, record,
replay, rematch, hints; the lab's runs (server/lab); `/readyz`. Websocket
`/ws/{table_id}?token=...`: play (see `protocol` and docs/protocol.md). Every HTTP answer
carries the security headers of server/edge/headers.py; a database that is away answers 503
(`StoreUnavailable`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse, Response

from tiergarten.core import OptionError

from .edge import logs, metrics
from .edge.body_limit import BodyLimit
from .edge.csrf import CrossSiteGuard
from .edge.headers import SecurityHeaders
from .edge.hosts import TrustedHosts
from .edge.limits import Gate, RedisCounters
from .edge.protocol import PROTOCOL
from .edge.requests import Observed
from .edge.settings import Refused, Settings, TableError, refusal
from .lab import Lab
from .players import ratings
from .players.accounts import Accounts
from .players.limits import Limiter, LocalLimiter, RedisLimiter, SignInLimits
from .players.names import same_person_name
from .routes import ROUTERS, quickmatch
from .storage.memory_players import MemoryPlayerStore
from .storage.memory_store import MemoryStore
from .storage.player_store import PlayerStore
from .storage.sql_players import SqlPlayerStore
from .storage.sql_store import DOWN, SqlStore
from .storage.store import Store, StoreUnavailable
from .table.expiry import Expiry
from .table.manager import TableManager
from .table.transport import LocalTransport
from .table.unreplayable import Unreplayable

if TYPE_CHECKING:
    from .cluster import ClusterSettings

RESTARTING = 1012  # close code: the server is restarting, reconnect (docs/protocol.md)
RESTART_REASON = "the server is restarting; reconnect"

WEB = Path(__file__).resolve().parent.parent / "web"
HEALTH_EVERY = 5.0  # seconds between the checks behind tiergarten_database_up and _redis_up

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
    (default: `SignInLimits.from_settings` with the settings' `login_attempts`, `login_window` and
    `hash_slots`).
    """
    settings = settings or Settings()
    opener = stores or sql_stores(db)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # an exception no task awaited: one logged, counted record (never a bare traceback)
        asyncio.get_running_loop().set_exception_handler(logs.asyncio_handler)
        store, players = opener()
        limiter: Limiter = (LocalLimiter() if cluster is None
                            else RedisLimiter(cluster.redis_url, cluster.prefix))
        app.state.players = players
        app.state.accounts = Accounts(
            players, limits or SignInLimits.from_settings(
                settings.login_attempts, settings.login_window, settings.hash_slots), limiter)
        app.state.cluster = None
        if cluster is None:
            manager = app.state.manager = TableManager(store, settings, LocalTransport())
        else:
            from .cluster import Cluster

            node = app.state.cluster = Cluster(cluster, store)
            node.orders.on_drain = functools.partial(drain_order, app)  # `admin drain`
            manager = app.state.manager = TableManager(store, settings, node.transport,
                                                       ownership=node)
            manager.locate = node.open
        manager.seat_tokens = app.state.accounts.seat_token
        manager.same_name = same_person_name
        manager.game_over = functools.partial(ratings.game_over, players)
        counters = None
        if cluster is None:
            await manager.recover()
        else:
            await app.state.cluster.start(manager, app)
            # the limits count across the workers (server/edge/limits.py)
            counters = RedisCounters.connect(cluster.redis_url, cluster.prefix,
                                             cluster.worker_id)
            app.state.gate = Gate(settings, counters)
            manager.chat_limits.counters = counters  # chat too, per table, address, account
            # the lab's queue and runs per user too; its runs found from every worker
            app.state.lab.counters = counters
            app.state.lab.placed = app.state.cluster.lab_runs.add
            app.state.cluster.lab_runs.start(lambda: list(app.state.lab.runs))
            counters.start()
            metrics.watch_redis()
        app.state.lab.start()
        metrics.watch(lambda status: sum(t.status == status for t in manager.tables.values()),
                      None if cluster is None else lambda: app.state.cluster.relayed)
        tasks: set[asyncio.Task[None]] = set()
        logs.spawn(_watch_health(store, app.state.cluster), tasks, name="health watch")
        app.state.expiry = Expiry(manager, settings.open_table_ttl,  # idle open tables close
                                  None if cluster is None else app.state.cluster.leases)
        logs.spawn(app.state.expiry.run(), tasks, name="open tables' check")
        logs.spawn(quickmatch.start(app, cluster).run(), tasks, name="quick match")  # Play now
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            await app.state.lab.stop()  # its counts released before the counters stop
            await manager.stop()
            if app.state.cluster is not None:
                await app.state.cluster.stop()
            if counters is not None:
                await counters.stop()
            store.close()
            if isinstance(limiter, RedisLimiter):
                limiter.close()

    # no /docs or /redoc: they load scripts from a CDN and run inline ones, which the security
    # headers refuse; /openapi.json describes the REST API (and docs/protocol.md)
    app = FastAPI(title="tiergarten", version=str(PROTOCOL), lifespan=lifespan, docs_url=None,
                  redoc_url=None)
    app.state.gate = Gate(settings)  # connections and new tables per address
    app.state.lab = Lab(settings)  # the lab's runs (server/lab, routes/lab.py)
    if cluster is not None:
        from .cluster.forward import ForwardMiddleware

        app.add_middleware(ForwardMiddleware)  # REST about another worker's table runs there
    app.add_middleware(GZipMiddleware, minimum_size=4096)  # replays and game lists compress well
    app.add_middleware(CrossSiteGuard, public=settings.public_url)  # before any route runs
    app.add_middleware(BodyLimit)  # a body past the cap is refused before it is read whole
    app.add_middleware(TrustedHosts, public_url=settings.public_url)  # only our own names
    # request ids, request metrics, and the last word on an exception (logged and counted
    # once, answered 500: server/edge/requests.py)
    app.add_middleware(Observed, router=app.router)
    app.add_middleware(SecurityHeaders)  # outermost: every answer gets them, refusals too
    app.add_exception_handler(Refused, _refused)
    app.add_exception_handler(OptionError, _option_error)
    app.add_exception_handler(TableError, _table_error)
    app.add_exception_handler(StoreUnavailable, _unavailable)
    for down in DOWN:  # what reaches the database without the store (accounts, ratings)
        app.add_exception_handler(down, _unavailable)
    app.add_exception_handler(RequestValidationError, _bad_body)
    for router in ROUTERS:
        app.include_router(router)
    app.state.web = web if web is not None and web.is_dir() else None
    if web is not None and web.is_dir():
        from fastapi.staticfiles import StaticFiles

        app.mount("/", StaticFiles(directory=web, html=True), name="web")
    return app


async def _watch_health(store: Store, cluster: Any) -> None:
    """Every `HEALTH_EVERY` seconds: does the database answer, does Redis (with a cluster)?
    Sets `tiergarten_database_up` and `tiergarten_redis_up`, and says once in the log when
    either goes away and when it is back."""
    said = {"the database": True, "Redis": True}

    async def check(name: str, probe: Any, gauge: Any) -> None:
        try:
            up, why = await asyncio.wait_for(probe(), 2.0) is not False, "no answer"
        except Exception as exc:
            up, why = False, f"{type(exc).__name__}: {exc}"
        gauge.set(1 if up else 0)
        if up != said[name]:
            said[name] = up
            if up:
                logs.log.warning("%s answers again", name)
            else:
                logs.log.warning("%s does not answer (%s)", name, why)

    while True:
        await check("the database", lambda: asyncio.to_thread(store.ping), metrics.DATABASE_UP)
        if cluster is not None:
            await check("Redis", cluster.ping, metrics.REDIS_UP)
        await asyncio.sleep(HEALTH_EVERY)


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


async def _refused(_request: Request, exc: Exception) -> JSONResponse:
    """A route's refusal: its English detail, its code and the code's parameters."""
    assert isinstance(exc, Refused)
    return JSONResponse(refusal(str(exc.detail), exc.code, exc.params),
                        status_code=exc.status_code, headers=exc.headers)


def drain_order(app: FastAPI) -> None:
    """`tiergarten admin drain` told this worker to drain: what SIGTERM does — the server's
    graceful stop (main.py: the drain, then the process exits) if it runs one, else the
    drain alone (an app served some other way, e.g. in the tests)."""
    stop = getattr(app.state, "stop_gracefully", None)
    if stop is not None:
        stop()
    elif not app.state.manager.draining:
        logs.spawn(drain(app), _DRAINS, name="graceful stop")


_DRAINS: set[asyncio.Task[None]] = set()


async def _option_error(_request: Request, exc: Exception) -> JSONResponse:
    """A game's option (named in `params`) or the table's settings cannot be had."""
    option = getattr(exc, "option", None)
    if option is not None:
        return JSONResponse(refusal(str(exc), "bad_option", {"option": option}),
                            status_code=400)
    return JSONResponse(refusal(str(exc), "bad_settings"), status_code=400)


async def _bad_body(_request: Request, exc: Exception) -> Response:
    """422 with where and what was wrong, without echoing the input: a body may hold text that
    cannot be encoded again (a lone surrogate), and the client has it anyway."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    detail = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
              for e in errors]
    return Response(json.dumps({"detail": detail, "code": "bad_body", "params": {}}),
                    status_code=422,
                    media_type="application/json")  # ASCII: whatever the messages hold


async def _unavailable(_request: Request, exc: Exception) -> JSONResponse:
    said = str(exc) if isinstance(exc, StoreUnavailable) else "the database is unavailable"
    return JSONResponse(refusal(f"{said}; nothing changed, try again shortly", "unavailable"),
                        status_code=503, headers={"Retry-After": "5"})


async def _table_error(_request: Request, exc: Exception) -> JSONResponse:
    if isinstance(exc, Unreplayable):
        return JSONResponse(exc.body(), status_code=exc.status)
    if not isinstance(exc, TableError):
        return JSONResponse({"detail": str(exc)}, status_code=400)
    return JSONResponse(refusal(str(exc), exc.code, exc.params), status_code=exc.status)
