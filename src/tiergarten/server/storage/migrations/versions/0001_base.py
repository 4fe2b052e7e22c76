"""The schema tiergarten had before Alembic: tables, seats, actions.

A database made before this issue already has these tables (perhaps without `hints`, added
later): then only what is missing is added, so every row stays.

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    have = sa.inspect(op.get_bind())
    if not have.has_table("tables"):
        op.create_table(
            "tables",
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("game", sa.String(40), nullable=False),
            sa.Column("players", sa.Integer, nullable=False),
            sa.Column("options", sa.JSON, nullable=False),
            sa.Column("seed", sa.BigInteger, nullable=False),
            sa.Column("created", sa.DateTime(timezone=True), nullable=False),
            sa.Column("status", sa.String(16), nullable=False, index=True),
            sa.Column("timer", sa.Float, nullable=True),
            sa.Column("rematch_of", sa.String(32), nullable=True, index=True),
            sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.true()))
    elif "hints" not in {c["name"] for c in have.get_columns("tables")}:
        op.add_column("tables", sa.Column("hints", sa.Boolean, nullable=False,
                                          server_default=sa.true()))
    if not have.has_table("seats"):
        op.create_table(
            "seats",
            sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("bot", sa.String(40), nullable=True),
            sa.Column("name", sa.String(40), nullable=True),
            sa.Column("token_hash", sa.String(64), nullable=True))
    if not have.has_table("actions"):
        op.create_table(
            "actions",
            sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
            sa.Column("index", sa.Integer, primary_key=True),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("notation", sa.String(200), nullable=False),
            sa.Column("at", sa.DateTime(timezone=True), nullable=False))


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_table("tables")
