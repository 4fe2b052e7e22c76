"""The database schema by Alembic: `upgrade(engine)` brings any tiergarten database to `head`.

The migrations live in server/storage/migrations (shipped in the package); `SqlStore` calls
`upgrade` on start, so an upgrade of tiergarten never loses a row. A database made before Alembic
(no `alembic_version` table) is taken up by the first revision, which adds only what it lacks.

>>> from sqlalchemy import create_engine, inspect
>>> engine = create_engine("sqlite://")
>>> upgrade(engine)
>>> current(engine) == head()
True
>>> "users" in inspect(engine).get_table_names()
True
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def config() -> Config:
    """Alembic's configuration without an alembic.ini: the migrations folder of the package."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


MIGRATION_LOCK = 7_210_417  # PostgreSQL advisory lock key held while migrating


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate the database of `engine` to `revision` (default: the newest)."""
    cfg = config()
    with engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            # several workers may start at once on one database (docs/deploy.md): one
            # migrates, the others wait here and then find it done (until the commit)
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        cfg.attributes["connection"] = connection
        # where this upgrade begins (None: not under Alembic yet); 0005 settles old tables by it
        cfg.attributes["from_revision"] = MigrationContext.configure(
            connection).get_current_revision()
        command.upgrade(cfg, revision)
        connection.commit()


def current(engine: Engine) -> str | None:
    """The revision the database is at (None: not under Alembic yet)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head() -> str:
    """The newest revision the package ships."""
    found = ScriptDirectory.from_config(config()).get_current_head()
    assert found is not None
    return found
