"""When an open table was last active, and when and why a table was closed.

`tables.active`: the last activity at a table waiting for people (made, a seat taken or given
up, its last connection gone); NULL for a table stored before, which counts from `created`.
`tables.closed` and `tables.close_reason`: a table closed before its game ended (status
`closed`): `expired` (nobody came, `open_table_ttl`) or `operator` (`tiergarten admin close`).
Nothing is deleted: a closed table keeps its seats, its log and its chat.

Revision ID: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMNs (nullable): SQLite need not copy `tables`, which the foreign keys of
    # seats, actions, chat and results point at
    op.add_column("tables", sa.Column("active", sa.DateTime(timezone=True), nullable=True))
    op.add_column("tables", sa.Column("closed", sa.DateTime(timezone=True), nullable=True))
    op.add_column("tables", sa.Column("close_reason", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("close_reason")
        batch.drop_column("closed")
        batch.drop_column("active")
