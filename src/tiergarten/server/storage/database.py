"""Which database, and how to reach it: the default SQLite file, the URL for a path or a
PostgreSQL address, an engine with the pool and pragmas each needs, and what a database that
is not there raises (`DOWN`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy import exc as sa_exc
from sqlalchemy.pool import StaticPool

CONNECT_TIMEOUT = 5  # seconds to reach PostgreSQL before it counts as unavailable
# What a database that is not there (or takes no writes) raises, wrapped or not by SQLAlchemy;
# an IntegrityError (a taken index) or a DataError (a bug) is something else
DOWN: tuple[type[Exception], ...] = (sa_exc.OperationalError, sa_exc.InterfaceError,
                                     sa_exc.InternalError)


def default_path() -> Path:
    """The database file in the user's data folder (XDG_DATA_HOME or ~/.local/share)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tiergarten" / "tiergarten.db"


def database_url(db: str | os.PathLike[str] | None) -> str:
    """The SQLAlchemy URL for `db`: None -> the default SQLite file, a path -> that SQLite
    file, `postgresql://` -> PostgreSQL through psycopg 3; other URLs pass through.

    >>> database_url("postgresql://me@localhost/tg")
    'postgresql+psycopg://me@localhost/tg'
    >>> database_url("/tmp/x.db")
    'sqlite:////tmp/x.db'
    """
    if db is None:
        path = default_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{path}"
    text = os.fspath(db)
    for prefix in ("postgresql://", "postgres://"):
        if text.startswith(prefix):
            return "postgresql+psycopg://" + text[len(prefix):]
    if "://" in text:
        return text
    return f"sqlite:///{Path(text).expanduser().absolute()}"


def connect(url: str, writers: int) -> Engine:
    """An engine for `url`: on PostgreSQL a pool with a connection for each of `writers` and
    more for the rest; in-memory SQLite one shared connection (the writer thread sees the same
    database); a SQLite file with WAL and foreign keys."""
    if url.startswith("postgresql"):
        # pre-ping: after PostgreSQL restarted, a pooled connection is found dead at checkout
        # and replaced, rather than failing the request that drew it
        return create_engine(url, pool_size=writers + 4, max_overflow=writers,
                             pool_pre_ping=True,
                             connect_args={"connect_timeout": CONNECT_TIMEOUT})
    if url.startswith("sqlite") and in_memory(url):
        engine = create_engine(url, poolclass=StaticPool,
                               connect_args={"check_same_thread": False})
    else:
        engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def first_line(exc: BaseException) -> str:
    """The driver's first line about what went wrong (without SQLAlchemy's statement dump)."""
    cause = getattr(exc, "orig", None) or exc
    lines = str(cause).strip().splitlines()
    return lines[0] if lines else type(cause).__name__


def in_memory(url: str) -> bool:
    """Whether a SQLite URL names an in-memory database (`sqlite://`, `sqlite:///:memory:`)."""
    rest = url.split("://", 1)[1]
    return rest in ("", "/", "/:memory:") or "mode=memory" in rest


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
