"""Fixtures: a shared server on SQLite, databases by backend, a throwaway PostgreSQL 15."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from .harness import Server, free_port

PG_USER = "postgres"


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for most tests: bots without pauses, seeds allowed, SQLite in a temp dir,
    and a rate limit that instant test clients playing whole games stay under."""
    db = tmp_path_factory.mktemp("server") / "tiergarten.db"
    srv = Server(str(db), "--bot-pace", "0", "--allow-seeds", "--away-after", "30",
                 "--rate", "200", "--burst", "50").start()
    yield srv
    printed = srv.stop()
    assert "Traceback" not in printed, printed  # nothing the tests did broke the server


def _pg_bin() -> Path:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    if not dirs:
        pytest.fail("PostgreSQL binaries (initdb, pg_ctl) are missing: install PostgreSQL 15 "
                    "(e.g. apt-get install postgresql-15) to run the PostgreSQL server tests")
    return Path(dirs[-1])


class Postgres:
    """A PostgreSQL server in a temp dir, run as the `postgres` user on a free port."""

    def __init__(self) -> None:
        self.bin = _pg_bin()
        self.dir = Path(tempfile.mkdtemp(prefix="tg-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root: hand the folder over
            try:
                user = pwd.getpwnam(PG_USER)
            except KeyError:
                pytest.fail(f"there is no {PG_USER!r} user to run PostgreSQL as (it refuses "
                            f"root)")
            os.chown(self.dir, user.pw_uid, user.pw_gid)
        os.chmod(self.dir, 0o700)

    def _run(self, *args: str) -> None:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", PG_USER, "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stdout}{done.stderr}")

    def start(self) -> Postgres:
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", PG_USER, "-E", "UTF8")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.dir / "log"), "-w", "-o",
                  f"-k {self.dir} -p {self.port} -c listen_addresses=127.0.0.1 -c fsync=off",
                  "start")
        return self

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{PG_USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; returns its postgresql:// URL."""
        name = "tg_" + uuid.uuid4().hex[:12]
        engine = create_engine(self.url().replace("postgresql://", "postgresql+psycopg://"),
                               isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as conn:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
        finally:
            engine.dispose()
        return self.url(name)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    pg = Postgres().start()
    yield pg
    pg.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of each backend: a SQLite file path or a postgresql:// URL."""
    if request.param == "sqlite":
        return str(tmp_path / "tiergarten.db")
    pg: Postgres = request.getfixturevalue("postgres")
    return pg.new_database()
