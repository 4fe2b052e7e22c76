"""What the server keeps: the `Store` a table needs (store.py), kept in SQLite or PostgreSQL
(`SqlStore`, its tables in schema.py, brought up to date by the Alembic migrations in
migrations/ through migrate.py) or in memory (`MemoryStore`); the backups of an SQLite file,
the rules version of the tables stored before versions (legacy.py) and the check that every
stored table still replays. It may import the rules engine and the database libraries;
nothing of the rest of the server.
"""
