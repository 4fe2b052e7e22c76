"""A spectator's chat line keeps the spectator's number at the table (`chat.spectator`).

Each spectator connection is numbered per table in order of arrival ("spectator 1",
"spectator 2"): the number tells watchers apart, in the chat and in a replay, and lets a reader
mute one of them. Lines said before this revision have none (null), as every player's line.

Revision ID: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("chat", sa.Column("spectator", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chat") as batch:
        batch.drop_column("spectator")
