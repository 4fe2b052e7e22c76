"""Alembic migrations of the server's database (see server/storage/migrate.py)."""
