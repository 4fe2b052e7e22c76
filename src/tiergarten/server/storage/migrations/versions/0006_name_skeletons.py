"""Every account keeps the confusable skeleton of its name (`users.name_skeleton`).

A new account whose name looks like a live one's (`аlice01`, `alice０1`, `aIice01` beside
`alice01`) is refused by it (server/players/names.py). Existing accounts get their skeleton
here, oldest first; should two existing accounts collide (they signed up before skeletons were
kept), both keep working — they sign in by their names as before — and the younger keeps its
skeleton apart as `skeleton#id`, which a new look-alike is refused by too (`look_alike`).

The skeleton is computed here as server/players/names.py computes it (a test checks they
agree); a migration keeps its own copy, so that it means the same whatever the code becomes.

Revision ID: 0006
"""

from __future__ import annotations

import unicodedata

import icu
import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

USERS = sa.table("users", sa.column("id", sa.Integer), sa.column("name", sa.String),
                 sa.column("name_skeleton", sa.String))


def skeleton(text: str, checker: icu.SpoofChecker) -> str:
    name = " ".join(unicodedata.normalize("NFKC", text).split())
    return str(checker.getSkeleton(0, str(checker.getSkeleton(0, name)).casefold()))


def upgrade() -> None:
    # a plain ADD COLUMN and a unique index: SQLite then need not copy `users` (which the
    # sessions' foreign key would refuse to drop)
    op.add_column("users", sa.Column("name_skeleton", sa.String(160), nullable=True))
    bind = op.get_bind()
    checker = icu.SpoofChecker()
    taken: set[str] = set()
    rows = bind.execute(sa.select(USERS.c.id, USERS.c.name).where(USERS.c.name.is_not(None))
                        .order_by(USERS.c.id)).all()
    for row in rows:
        key = skeleton(row.name, checker)
        if key in taken:
            key = f"{key}#{row.id}"
        taken.add(key)
        bind.execute(sa.update(USERS).where(USERS.c.id == row.id).values(name_skeleton=key))
    op.create_index("ix_users_name_skeleton", "users", ["name_skeleton"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_users_name_skeleton", "users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("name_skeleton")
