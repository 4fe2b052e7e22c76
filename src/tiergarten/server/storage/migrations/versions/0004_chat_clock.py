"""Table chat, each table's extra settings (chat, clock, tutorial) and its creator's token.

Revision ID: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("extra", sa.JSON, nullable=True))
        batch.add_column(sa.Column("owner_hash", sa.String(64), nullable=True))
    op.create_table(
        "chat",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False))


def downgrade() -> None:
    op.drop_table("chat")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("owner_hash")
        batch.drop_column("extra")
