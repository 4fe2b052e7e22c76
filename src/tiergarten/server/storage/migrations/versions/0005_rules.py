"""Every table names the rules version it is played under (`tables.rules`).

The tables stored before are settled here, once, by `server/storage/legacy.py` (what is certain
first, then by replaying their logs); a table none of its candidate versions replays keeps NULL.

Revision ID: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

from tiergarten.server.storage.legacy import candidates, settle

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

TABLES = sa.table("tables", sa.column("id", sa.String), sa.column("game", sa.String),
                  sa.column("players", sa.Integer), sa.column("options", sa.JSON),
                  sa.column("seed", sa.BigInteger), sa.column("created", sa.DateTime),
                  sa.column("status", sa.String), sa.column("rules", sa.Integer))
ACTIONS = sa.table("actions", sa.column("table_id", sa.String), sa.column("index", sa.Integer),
                   sa.column("seat", sa.Integer), sa.column("notation", sa.String))


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("rules", sa.Integer, nullable=True))
    # server/migrate.py says where this upgrade began: None, a database from before Alembic
    under_alembic = context.config.attributes.get("from_revision") is not None
    bind = op.get_bind()
    for table in bind.execute(sa.select(TABLES)).all():
        actions = bind.execute(sa.select(ACTIONS.c.seat, ACTIONS.c.notation)
                               .where(ACTIONS.c.table_id == table.id)
                               .order_by(ACTIONS.c.index)).all()
        record = {"format": 1, "game": table.game, "players": table.players,
                  "options": dict(table.options), "seed": int(table.seed),
                  "actions": [[seat, notation] for seat, notation in actions]}
        try:
            versions = candidates(table.game, table.created, under_alembic)
        except ValueError:  # a game this release does not know: nothing to settle
            continue
        rules = settle(record, table.status == "over", versions)
        if rules is not None:
            bind.execute(sa.update(TABLES).where(TABLES.c.id == table.id).values(rules=rules))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rules")
