"""The tables as the operator lists them (`tiergarten admin tables`): one query, newest first.

Each row says what the database knows of a table: its game and status, its seats for people
(and how many are taken) and its bots, its moves, when it was made, when anything last
happened at it (its last move, or while open its last activity: made, a seat taken or given
up, its last connection gone) and, once closed, when and why. Per-table figures are
correlated subqueries on the seats' and the log's primary keys, so a database of many
finished games answers as quickly as an empty one for the newest `limit` tables.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, and_, case, func, select

from .schema import ACTIONS, SEATS, TABLES
from .sql_closing import aware
from .store import STATUSES


@dataclass(frozen=True)
class Listed:
    """One table as `tiergarten admin tables` shows it."""

    id: str
    game: str
    status: str
    players: int
    people: int  # seats for people
    seated: int  # of them, taken
    bots: int
    moves: int
    created: dt.datetime
    last_active: dt.datetime  # the last move, or while open its last activity
    closed: dt.datetime | None
    close_reason: str | None


def _per_table(column: Any) -> Any:
    return func.coalesce(select(column).where(SEATS.c.table_id == TABLES.c.id)
                         .scalar_subquery(), 0)


def list_tables(engine: Engine, statuses: Sequence[str] = STATUSES,
                limit: int | None = 100) -> tuple[list[Listed], int]:
    """The newest `limit` tables in any of `statuses` (None: all of them), and how many there
    are in all."""
    human = SEATS.c.kind == "human"
    people = _per_table(func.sum(case((human, 1), else_=0)))
    seated = _per_table(func.sum(case((and_(human, SEATS.c.token_hash.is_not(None)), 1),
                                      else_=0)))
    bots = _per_table(func.sum(case((SEATS.c.kind == "bot", 1), else_=0)))
    of_table = ACTIONS.c.table_id == TABLES.c.id
    moves = select(func.count()).where(of_table).scalar_subquery()
    last_move = select(func.max(ACTIONS.c.at)).where(of_table).scalar_subquery()
    which = TABLES.c.status.in_(list(statuses))
    query = (select(TABLES.c.id, TABLES.c.game, TABLES.c.status, TABLES.c.players,
                    TABLES.c.created, TABLES.c.active, TABLES.c.closed, TABLES.c.close_reason,
                    people.label("people"), seated.label("seated"), bots.label("bots"),
                    moves.label("moves"), last_move.label("last_move"))
             .where(which).order_by(TABLES.c.created.desc(), TABLES.c.id).limit(limit))
    with engine.connect() as conn:
        rows = conn.execute(query).all()
        total = int(conn.execute(select(func.count()).select_from(TABLES).where(which))
                    .scalar_one())
    out = []
    for r in rows:
        created = aware(r.created)
        assert created is not None
        times = [t for t in (created, aware(r.active), aware(r.last_move)) if t is not None]
        out.append(Listed(r.id, r.game, r.status, r.players, int(r.people), int(r.seated),
                          int(r.bots), int(r.moves), created, max(times), aware(r.closed),
                          r.close_reason))
    return out, total
