"""The database's tables as SQLAlchemy Core sees them (the schema Alembic migrates to).

The schema changes only through a migration (server/storage/migrations/versions): `SqlStore` runs
`upgrade head` on start, so a database written by any earlier tiergarten is brought up to date
without losing a row. The definitions here must match what the migrations make (a test checks).
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    true,
)

metadata = MetaData()

TABLES = Table(
    "tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("status", String(16), nullable=False, index=True),  # open, playing, over, closed
    Column("timer", Float, nullable=True),  # seconds per turn before a bot steps in
    Column("rematch_of", String(32), nullable=True, index=True),
    Column("hints", Boolean, nullable=False, server_default=true()),  # advice may be asked
    # since 0004: the table's settings beyond the game's options (chat on/off, the clock,
    # a tutorial), and the sha-256 of the creator's token (who may switch chat off)
    Column("extra", JSON, nullable=True),
    Column("owner_hash", String(64), nullable=True),
    # since 0005: the rules version the game is played under (NULL: stored before, and no
    # version replays its log; server/legacy.py)
    Column("rules", Integer, nullable=True),
    # since 0008: the last activity while open (NULL: stored before, counts from `created`),
    # and when and why a table was closed before its game ended (`expired`, `operator`)
    Column("active", DateTime(timezone=True), nullable=True),
    Column("closed", DateTime(timezone=True), nullable=True),
    Column("close_reason", String(16), nullable=True),
)

USERS = Table(
    "users", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=True, unique=True),  # None once deleted
    Column("name_key", String(40), nullable=True, unique=True),  # casefolded: one Ann, not two
    # since 0006: the name's confusable skeleton (players/names.py): no look-alike of an Ann
    # either; None once deleted. Two accounts that collided before 0006 keep theirs apart by
    # the younger's id after a "#" (migration 0006)
    Column("name_skeleton", String(160), nullable=True, unique=True, index=True),
    Column("password_hash", String(200), nullable=True),  # argon2id; None once deleted
    Column("created", DateTime(timezone=True), nullable=False),
    Column("deleted", DateTime(timezone=True), nullable=True),
)

SEATS = Table(
    "seats", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # human or bot
    Column("bot", String(40), nullable=True),
    Column("name", String(40), nullable=True),
    Column("token_hash", String(64), nullable=True),  # sha256 of the token; never the token
    Column("user_id", Integer, nullable=True, index=True),  # since 0002: the account seated
)

ACTIONS = Table(
    "actions", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("index", Integer, primary_key=True),  # 0, 1, 2, ... in order of application
    Column("seat", Integer, nullable=False),
    Column("notation", String(200), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

SESSIONS = Table(
    "sessions", metadata,
    Column("id_hash", String(64), primary_key=True),  # sha256 of the cookie; never the cookie
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False, index=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("expires", DateTime(timezone=True), nullable=False),
)

KEYS = Table(
    "server_keys", metadata,
    Column("name", String(40), primary_key=True),
    Column("value", String(128), nullable=False),
)

# since 0003: what each finished game did to each account's rating, in the order rated
RESULTS = Table(
    "results", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False, index=True),
    Column("game", String(40), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("user_id", Integer, nullable=False, index=True),
    Column("rank", Integer, nullable=False),
    Column("won", Boolean, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("mu", Float, nullable=True),  # the rating after this game (rated games only)
    Column("sigma", Float, nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
)

RATINGS = Table(
    "ratings", metadata,
    Column("user_id", Integer, primary_key=True),
    Column("game", String(40), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
)

# since 0004: table chat, kept with the table (replays show it)
CHAT = Table(
    "chat", metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("version", Integer, nullable=False),  # the table's version when it was said
    Column("seat", Integer, nullable=True),  # None: a spectator
    Column("name", String(40), nullable=False),
    Column("kind", String(8), nullable=False),  # text or reaction
    Column("text", Text, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("spectator", Integer, nullable=True),  # since 0007: a spectator's number there
)
