"""Live rating and `ratings rebuild` take the games in one order: the server rates one game at a
time (on PostgreSQL under an advisory lock, so its writer threads — and other processes — wait
their turn), the results' ids keep that order, and rebuild follows it. Games ending at once at
tables that share players used to be rated from the same old rating on PostgreSQL (a lost
update), which rebuild could never reproduce."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from sqlalchemy import select, update

import tiergarten
from tiergarten.server.players import ratings
from tiergarten.server.storage.schema import ACTIONS, RATINGS, RESULTS
from tiergarten.server.storage.sql_store import SqlStore
from tiergarten.server.storage.store import SeatRow, TableRow


@pytest.fixture
def store(database: str) -> Iterator[SqlStore]:
    store = SqlStore(database)
    yield store
    store.close()


def played(store: SqlStore, table_id: str, users: list[int], seed: int) -> TableRow:
    """A one-round Mau Mau between these accounts and a `normal` bot, played out by each
    seat's first legal move and stored as the server stores it."""
    game = tiergarten.load("maumau", len(users) + 1, rounds=1)
    seats = [SeatRow(i, "human", name=f"p{u}", user_id=u) for i, u in enumerate(users)]
    seats.append(SeatRow(len(users), "bot", bot="normal"))
    store.create_table(table_id, "maumau", game.players, dict(game.options), seed, seats)
    state = game.new_state(seed)
    index = 0
    while not state.is_over():
        seat = state.to_move()[0]
        action = state.legal_actions(seat)[0]
        state.apply(seat, action)
        store.append_action(table_id, index, seat, str(action))
        index += 1
    store.set_status(table_id, "over")
    row = store.load_table(table_id)
    assert row is not None
    return row


def snapshot(store: SqlStore) -> tuple[list[Any], list[Any]]:
    """Every rating, and every result in id order (without the id itself)."""
    with store.engine.connect() as conn:
        board = conn.execute(select(RATINGS).order_by(RATINGS.c.user_id, RATINGS.c.game)).all()
        results = conn.execute(
            select(*(c for c in RESULTS.c if c.name != "id")).order_by(RESULTS.c.id)).all()
    return [tuple(r) for r in board], [tuple(r) for r in results]


def test_games_ending_at_once_are_rated_one_at_a_time_and_rebuild_agrees(
        store: SqlStore) -> None:
    players = [[1, 2], [2, 3], [1, 3], [1, 2, 3], [3, 1], [2, 1]] * 2
    rows = [played(store, f"t{n}", users, seed=n) for n, users in enumerate(players)]
    start = threading.Barrier(4)

    def rate(row: TableRow) -> bool:
        if int(row.id[1:]) < 4:
            start.wait()  # the first four end at the very same moment
        return ratings.game_over(store.engine, row)

    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(rate, rows))
    live = snapshot(store)
    assert sorted(r[0] for r in live[0]) == [1, 2, 3]
    assert {r[0]: r[4] for r in live[0]} == {1: 10, 2: 8, 3: 8}  # games each played
    assert ratings.rebuild(store.engine, store.load_table) == {"games": 12, "rated": 12}
    assert snapshot(store) == live  # every mu and sigma, every result, in the same order
    assert ratings.rebuild(store.engine, store.load_table) == {"games": 12, "rated": 12}
    assert snapshot(store) == live


def _set_end(store: SqlStore, table_id: str, at: dt.datetime) -> None:
    with store.engine.begin() as conn:
        conn.execute(update(ACTIONS).where(ACTIONS.c.table_id == table_id).values(at=at))


def test_rebuild_keeps_the_rated_order_and_places_unrated_games_by_their_time(
        store: SqlStore) -> None:
    t0 = dt.datetime(2026, 1, 1, 12, tzinfo=dt.UTC)
    for name, minute in (("late", 30), ("early", 10), ("never", 20), ("older", 0)):
        played(store, name, [1, 2], seed=len(name))
        _set_end(store, name, t0 + dt.timedelta(minutes=minute))
    # rated live in this order, though "late" ended after "early"; "never" and "older" never
    for name in ("late", "early"):
        row = store.load_table(name)
        assert row is not None and ratings.game_over(store.engine, row)
    with store.engine.connect() as conn:
        order = [t for t, _ in ratings.rating_order(conn)]
    assert order == ["older", "never", "late", "early"]  # the unrated by time before each rated
    ratings.rebuild(store.engine, store.load_table)
    with store.engine.connect() as conn:
        rated = conn.execute(select(RESULTS.c.table_id).where(RESULTS.c.user_id == 1)
                             .order_by(RESULTS.c.id)).scalars().all()
    assert rated == order
