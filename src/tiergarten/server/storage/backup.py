"""`tiergarten backup PATH` and `tiergarten restore PATH`: the SQLite database, copied while the
server runs, and put back. A server started on a restored database resumes every table from it.

The copy is SQLite's online backup API in one step: one read of the whole database at one
moment (a consistent log, every action that was committed then), while the server goes on
writing (WAL: a reader does not stop the writer). It goes to `PATH.part` and is renamed once it
passed `PRAGMA integrity_check`, so `PATH` is never half a backup. Restoring writes the backup
into the database through the same API, so SQLite's own journal stays right (copying the file
over a database that still has a `-wal` file beside it would not be). Stop the server first:
a restore takes the database back to the moment of the backup.

PostgreSQL has its own tools: `pg_dump --format=custom --file=PATH URL` and `pg_restore --clean
--dbname=URL PATH` (docs/security.md, "Backups").
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .database import database_url, in_memory

TABLES = ("tables", "seats", "actions")  # what a tiergarten database has


class BackupError(ValueError):
    """A backup or restore that cannot be made; the message says why and what to do."""


@dataclass(frozen=True)
class Summary:
    """What a database holds: tables (and how many are not over yet) and actions."""

    tables: int
    unfinished: int
    actions: int

    def __str__(self) -> str:
        return (f"{self.tables} tables ({self.unfinished} not finished) and {self.actions} "
                f"actions")


def sqlite_path(db: str | os.PathLike[str] | None) -> Path:
    """The file of a SQLite database (`db` as the server takes it); BackupError otherwise."""
    url = database_url(db)
    if url.startswith("postgresql"):
        raise BackupError("this is a PostgreSQL database: back it up with pg_dump "
                          "(pg_dump --format=custom --file=PATH URL) and restore it with "
                          "pg_restore (pg_restore --clean --dbname=URL PATH)")
    if not url.startswith("sqlite:///") or in_memory(url):
        raise BackupError(f"{url} is not a SQLite file")
    return Path(url.removeprefix("sqlite:///"))


def backup(db: str | os.PathLike[str] | None, to: str | os.PathLike[str]) -> Summary:
    """Copy the database `db` (default: the server's) to the new file `to`."""
    source, target = sqlite_path(db), Path(to)
    if not source.is_file():
        raise BackupError(f"there is no database at {source}")
    if target.exists():
        raise BackupError(f"{target} exists already: give a new file to back up to")
    part = target.with_name(target.name + ".part")
    part.unlink(missing_ok=True)
    try:
        with _open(source) as src, _open(part) as dst:
            summary = _summary(src, source)
            src.backup(dst)  # one step: the whole database as it is at one moment
            _check(dst, part)
        os.replace(part, target)
    finally:
        part.unlink(missing_ok=True)  # never half a backup left behind
    return summary


def restore(backup_file: str | os.PathLike[str], db: str | os.PathLike[str] | None) -> Summary:
    """Put the backup `backup_file` in place of the database `db` (the server stopped)."""
    source, target = Path(backup_file), sqlite_path(db)
    if not source.is_file():
        raise BackupError(f"there is no backup at {source}")
    target.parent.mkdir(parents=True, exist_ok=True)
    with _open(source) as src, _open(target) as dst:
        _check(src, source)
        summary = _summary(src, source)
        src.backup(dst)
    return summary


@contextlib.contextmanager
def _open(path: Path) -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(path, timeout=10)
    try:
        yield conn
    finally:
        conn.close()


def _summary(conn: sqlite3.Connection, path: Path) -> Summary:
    have = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not set(TABLES) <= have:
        raise BackupError(f"{path} is not a tiergarten database (it has no tables, seats and "
                          f"actions)")
    tables, unfinished = conn.execute(
        "SELECT count(*), coalesce(sum(status IN ('open', 'playing')), 0) FROM tables").fetchone()
    actions = conn.execute("SELECT count(*) FROM actions").fetchone()[0]
    return Summary(int(tables), int(unfinished), int(actions))


def _check(conn: sqlite3.Connection, path: Path) -> None:
    result = conn.execute("PRAGMA integrity_check").fetchone()[0]
    if result != "ok":
        raise BackupError(f"{path} failed SQLite's integrity check: {result}")
