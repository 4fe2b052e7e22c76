"""A throwaway PostgreSQL: initdb in a temp dir, a free port, fsync off.

Used by the load benchmark and by the server tests' fixture (tests/server/conftest.py): run as
the `postgres` user when we are root (PostgreSQL refuses root), on loopback, trust auth.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

PG_USER = "postgres"


def _pg_bin() -> Path:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    if not dirs:
        raise RuntimeError("PostgreSQL binaries (initdb, pg_ctl) are missing: install "
                           "PostgreSQL (e.g. apt-get install postgresql)")
    return Path(dirs[-1])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Postgres:
    """A PostgreSQL server in a temp dir, run as the `postgres` user on a free port."""

    def __init__(self) -> None:
        self.bin = _pg_bin()
        self.dir = Path(tempfile.mkdtemp(prefix="tg-bench-pg-"))
        self.data = self.dir / "data"
        self.port = _free_port()
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root: hand the folder over
            try:
                user = pwd.getpwnam(PG_USER)
            except KeyError:
                raise RuntimeError(f"there is no {PG_USER!r} user to run PostgreSQL as (it "
                                   "refuses root)") from None
            os.chown(self.dir, user.pw_uid, user.pw_gid)
        os.chmod(self.dir, 0o700)

    def _run(self, *args: str) -> None:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", PG_USER, "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args[:2])} failed: {done.stdout}{done.stderr}")

    def version(self) -> str:
        done = subprocess.run([str(self.bin / "postgres"), "--version"], capture_output=True,
                              text=True, timeout=10)
        return done.stdout.strip()

    def start(self) -> Postgres:
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", PG_USER, "-E", "UTF8")
        self.resume()
        return self

    def halt(self) -> None:
        """Stop the server but keep its data: the database goes away (the outage tests)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start the server on its data and port (again)."""
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.dir / "log"), "-w", "-o",
                  f"-k {self.dir} -p {self.port} -c listen_addresses=127.0.0.1 -c fsync=off",
                  "start")

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{PG_USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; returns its postgresql:// URL."""
        import psycopg

        name = "tg_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)
