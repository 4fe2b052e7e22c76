"""Alembic's environment: migrate the connection `server/storage/migrate.py` hands over.

On PostgreSQL an advisory lock makes several workers starting at once migrate one at a time.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import text

from tiergarten.server.storage.schema import metadata

MIGRATION_LOCK = 7_196_019  # any fixed number: the advisory lock of tiergarten's migrations


def run() -> None:
    connection = context.config.attributes["connection"]
    postgres = connection.dialect.name == "postgresql"
    if postgres:
        connection.execute(text(f"SELECT pg_advisory_lock({MIGRATION_LOCK})"))
    try:
        context.configure(connection=connection, target_metadata=metadata,
                          render_as_batch=connection.dialect.name == "sqlite")
        with context.begin_transaction():
            context.run_migrations()
    finally:
        if postgres:
            connection.execute(text(f"SELECT pg_advisory_unlock({MIGRATION_LOCK})"))
            connection.commit()


run()
