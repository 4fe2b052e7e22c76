"""Fixtures: a shared server on SQLite, databases by backend, a throwaway PostgreSQL 15, a
redis-server per module and two in-process workers on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from benchmarks.pgtemp import Postgres
from benchmarks.services import Redis

from tiergarten.server.edge.settings import Settings

from .cluster import Apps
from .harness import Server


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for most tests: bots without pauses, seeds allowed, SQLite in a temp dir,
    and a rate limit that instant test clients playing whole games stay under (and, as every
    test server, room for all the tables and connections of clients on one address)."""
    db = tmp_path_factory.mktemp("server") / "tiergarten.db"
    srv = Server(str(db), "--bot-pace", "0", "--allow-seeds", "--away-after", "30",
                 "--rate", "200", "--burst", "50").start()
    yield srv
    printed = srv.stop()
    assert "Traceback" not in printed, printed  # nothing the tests did broke the server


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A throwaway PostgreSQL 15 (benchmarks/pgtemp.py: the load benchmark uses it too)."""
    try:
        pg = Postgres().start()
    except RuntimeError as exc:  # no binaries, no postgres user, initdb failed: say so
        pytest.fail(f"cannot start a throwaway PostgreSQL for the server tests: {exc}")
    yield pg
    pg.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of each backend: a SQLite file path or a postgresql:// URL."""
    if request.param == "sqlite":
        return str(tmp_path / "tiergarten.db")
    pg: Postgres = request.getfixturevalue("postgres")
    return pg.new_database()


@pytest.fixture(scope="module")
def redis_server() -> Iterator[Redis]:
    """A redis-server on loopback for one test module (benchmarks/services.py)."""
    server = Redis().start()
    yield server
    server.stop()


@pytest.fixture
def apps(redis_server: Redis, tmp_path: Path) -> Iterator[Apps]:
    """Two workers as apps in this process, on one SQLite file and the module's Redis."""
    started = Apps(redis_server.url, Settings(), db=str(tmp_path / "t.db")).start()
    yield started
    started.stop()
