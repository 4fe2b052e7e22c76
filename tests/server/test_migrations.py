"""Alembic takes up a database written by the schema of before this issue, on both backends:
every row survives, the schema is the newest, and the tables resume where they were."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
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
    create_engine,
    insert,
    inspect,
    select,
    true,
)

import tiergarten
from tiergarten.server.edge.settings import Settings, hash_token
from tiergarten.server.storage import migrate
from tiergarten.server.storage.schema import metadata as newest
from tiergarten.server.storage.sql_store import SqlStore, database_url
from tiergarten.server.table.manager import TableManager

from .harness import run


def old_schema(with_hints: bool = True) -> MetaData:
    """The DDL of tiergarten before Alembic (sql_store.py as it was), optionally from before
    the `hints` column."""
    md = MetaData()
    Table("tables", md,
          Column("id", String(32), primary_key=True),
          Column("game", String(40), nullable=False),
          Column("players", Integer, nullable=False),
          Column("options", JSON, nullable=False),
          Column("seed", BigInteger, nullable=False),
          Column("created", DateTime(timezone=True), nullable=False),
          Column("status", String(16), nullable=False, index=True),
          Column("timer", Float, nullable=True),
          Column("rematch_of", String(32), nullable=True, index=True),
          *([Column("hints", Boolean, nullable=False, server_default=true())]
            if with_hints else []))
    Table("seats", md,
          Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
          Column("seat", Integer, primary_key=True),
          Column("kind", String(8), nullable=False),
          Column("bot", String(40), nullable=True),
          Column("name", String(40), nullable=True),
          Column("token_hash", String(64), nullable=True))
    Table("actions", md,
          Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
          Column("index", Integer, primary_key=True),
          Column("seat", Integer, nullable=False),
          Column("notation", String(200), nullable=False),
          Column("at", DateTime(timezone=True), nullable=False))
    return md


def write_old_database(url: str, with_hints: bool) -> dict[str, list[tuple[Any, ...]]]:
    """Three tables written as the old code did: open, playing (6 moves in), over. Returns
    every row, by table."""
    engine = create_engine(url)
    md = old_schema(with_hints)
    md.create_all(engine)
    now = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)
    game = tiergarten.load("maumau", players=2, rounds=1, rules=1)  # what the old code played
    with engine.begin() as conn:
        for table_id, status, moves in (("open1", "open", 0), ("play1", "playing", 6),
                                        ("over1", "over", None)):
            row = {"id": table_id, "game": "maumau", "players": 2, "options": {"rounds": 1},
                   "seed": 11, "created": now, "status": status, "timer": 30.0,
                   "rematch_of": None}
            if with_hints:
                row["hints"] = table_id != "over1"
            conn.execute(insert(md.tables["tables"]).values(**row))
            conn.execute(insert(md.tables["seats"]), [
                {"table_id": table_id, "seat": 0, "kind": "bot", "bot": "random", "name": None,
                 "token_hash": None},
                {"table_id": table_id, "seat": 1, "kind": "human", "bot": None,
                 "name": None if status == "open" else "Ann",
                 "token_hash": None if status == "open" else hash_token("ann-token")}])
            state = game.new_state(seed=11)
            index = 0
            while moves is None and not state.is_over() or moves and index < moves:
                seat = state.to_move()[0]
                state.apply(seat, state.legal_actions(seat)[0])
                conn.execute(insert(md.tables["actions"]).values(
                    table_id=table_id, index=index, seat=seat,
                    notation=state.history[-1][1].text, at=now))
                index += 1
    rows = {}
    with engine.connect() as conn:
        for name in ("tables", "seats", "actions"):
            table = md.tables[name]
            rows[name] = sorted(tuple(r) for r in conn.execute(select(table)))
    engine.dispose()
    return rows


@pytest.mark.parametrize("with_hints", [True, False], ids=["today", "before-hints"])
def test_an_old_database_is_upgraded_with_every_row_and_resumes(database: str,
                                                               with_hints: bool) -> None:
    url = database_url(database)
    before = write_old_database(url, with_hints)
    assert migrate.current(create_engine(url)) is None  # not under Alembic yet
    store = SqlStore(url)  # upgrades to head on start
    try:
        assert migrate.current(store.engine) == migrate.head()
        have = inspect(store.engine)
        for name, table in newest.tables.items():  # the schema is the newest, column by column
            assert {c["name"] for c in have.get_columns(name)} == set(table.columns.keys())
        old = old_schema(with_hints)
        with store.engine.connect() as conn:
            for name, rows in before.items():
                columns = [store_column(name, c.name) for c in old.tables[name].columns]
                after = sorted(tuple(r) for r in conn.execute(select(*columns)))
                assert [normal(r) for r in after] == [normal(r) for r in rows], name
        playing = store.load_table("play1")
        assert playing is not None and len(playing.actions) == 6
        assert playing.seats[1].user_id is None and playing.hints is True
        over = store.load_table("over1")
        assert over is not None and over.status == "over"
        assert over.hints is (not with_hints)  # stored False, or the default for old rows
        run(resume(store))
    finally:
        store.close()


def store_column(table: str, column: str) -> Any:
    return newest.tables[table].c[column]


def normal(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """Datetimes compared as instants (SQLite gives them back naive, in UTC)."""
    return tuple(v.replace(tzinfo=dt.UTC) if isinstance(v, dt.datetime) and v.tzinfo is None
                 else v for v in row)


async def resume(store: SqlStore) -> None:
    """The playing table comes back at its move, its person's old token still sits there,
    and the next move is stored after the six old ones."""
    manager = TableManager(store, Settings(bot_pace=0))
    assert await manager.recover() == 2  # the open and the playing table
    table = manager.get("play1")
    assert table is not None and table.version == 6 and table.status == "playing"
    assert table.seat_of("ann-token") == 1
    seat = table.state.to_move()[0]
    await table.log.apply(seat, table.state.legal_actions(seat)[0], expect=6)
    await manager.stop()
    row = store.load_table("play1")
    assert row is not None and len(row.actions) >= 7


def test_a_new_database_is_made_at_head_and_upgrading_again_changes_nothing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    url = database_url(tmp_path / "new.db")
    SqlStore(url).close()
    engine = create_engine(url)
    assert migrate.current(engine) == migrate.head()
    migrate.upgrade(engine)  # idempotent: a second start does nothing
    assert migrate.current(engine) == migrate.head()
    engine.dispose()
