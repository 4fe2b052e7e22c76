"""Alembic migrations of the server's database (see server/migrate.py)."""
