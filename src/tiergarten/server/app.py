"""The FastAPI app: the routes by topic (server/routes/) over one table manager.

The app wires the parts: the lifespan opens the database (`SqlStore`) and the process's
connections (`LocalTransport`) and gives both to the `TableManager`, which gives them to every
table. REST (JSON): games and their options, create / list / show tables, join, leave, record,
replay, rematch, hints. Websocket `/ws/{table_id}?token=...`: play (see `protocol` and
docs/protocol.md).
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import AsyncIterator
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse

from tiergarten.core import OptionError

from . import ratings
from .accounts import Accounts
from .csrf import CrossSiteGuard
from .manager import TableManager
from .protocol import PROTOCOL
from .routes import ROUTERS
from .settings import Settings, TableError
from .sql_store import SqlStore
from .transport import LocalTransport

WEB = Path(__file__).resolve().parent.parent / "web"


def create_app(db: str | os.PathLike[str] | None = None, settings: Settings | None = None,
               web: Path | None = WEB) -> FastAPI:
    """The whole server as an ASGI app over the database `db` (see `sql_store.database_url`).

    The browser client in `web` (src/tiergarten/web) is served at `/` if that folder exists.
    """
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = SqlStore(db)
        app.state.accounts = Accounts(store.engine, settings.login_attempts,
                                      settings.login_window)
        manager = app.state.manager = TableManager(store, settings, LocalTransport())
        manager.seat_tokens = app.state.accounts.seat_token
        manager.game_over = functools.partial(ratings.game_over, store.engine)
        await manager.recover()
        try:
            yield
        finally:
            await manager.stop()
            store.close()

    app = FastAPI(title="tiergarten", version=str(PROTOCOL), lifespan=lifespan)
    app.add_middleware(GZipMiddleware, minimum_size=4096)  # replays and game lists compress well
    app.add_middleware(CrossSiteGuard, public=settings.public_url)  # before any route runs
    app.add_exception_handler(OptionError, _option_error)
    app.add_exception_handler(TableError, _table_error)
    for router in ROUTERS:
        app.include_router(router)
    if web is not None and web.is_dir():
        from fastapi.staticfiles import StaticFiles

        app.mount("/", StaticFiles(directory=web, html=True), name="web")
    return app


async def _option_error(_request: Request, exc: Exception) -> JSONResponse:
    return JSONResponse({"detail": str(exc)}, status_code=400)


async def _table_error(_request: Request, exc: Exception) -> JSONResponse:
    status = exc.status if isinstance(exc, TableError) else 400
    return JSONResponse({"detail": str(exc)}, status_code=status)
