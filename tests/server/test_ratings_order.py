"""Live rating and `ratings rebuild` take the games in one order: the server rates one game at a
time (on PostgreSQL under an advisory lock, so its writer threads — and other processes — wait
their turn), the results' ids keep that order, and rebuild follows it. Games ending at once at
tables that share players used to be rated from the same old rating on PostgreSQL (a lost
update), which rebuild could never reproduce. The same over the players port in memory."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from sqlalchemy import update

import tiergarten
from tiergarten.server.players import ratings
from tiergarten.server.storage.memory_players import MemoryPlayerStore
from tiergarten.server.storage.memory_store import MemoryStore
from tiergarten.server.storage.player_store import PlayerStore
from tiergarten.server.storage.schema import ACTIONS
from tiergarten.server.storage.sql_players import SqlPlayerStore
from tiergarten.server.storage.sql_store import SqlStore
from tiergarten.server.storage.store import SeatRow, Store, TableRow


@pytest.fixture(params=["sqlite", "postgresql", "memory"])
def stores(request: pytest.FixtureRequest) -> Iterator[tuple[Store, PlayerStore]]:
    """The tables' store and the players port: in each database, and in memory."""
    if request.param == "memory":
        memory = MemoryStore()
        yield memory, MemoryPlayerStore(memory)
        memory.close()
        return
    database = (str(request.getfixturevalue("tmp_path") / "tiergarten.db")
                if request.param == "sqlite" else request.getfixturevalue("postgres")
                .new_database())
    store = SqlStore(database)
    yield store, SqlPlayerStore(store)
    store.close()


def played(store: Store, table_id: str, users: list[int], seed: int) -> TableRow:
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


def snapshot(players: PlayerStore, users: list[int]) -> tuple[list[Any], list[Any]]:
    """Every rating of these accounts, and all their results in the order rated."""
    board = sorted((r.user_id, r.game, r.mu, r.sigma, r.games)
                   for u in users for r in players.ratings(u))
    with players.rating_turn() as turn:
        order = turn.rated_order()
    results = sorted((r for u in users for r in players.results(u)),
                     key=lambda r: (order.index(r.table_id), r.seat))
    return board, results


def test_games_ending_at_once_are_rated_one_at_a_time_and_rebuild_agrees(
        stores: tuple[Store, PlayerStore]) -> None:
    store, players = stores
    players_of = [[1, 2], [2, 3], [1, 3], [1, 2, 3], [3, 1], [2, 1]] * 2
    rows = [played(store, f"t{n}", users, seed=n) for n, users in enumerate(players_of)]
    start = threading.Barrier(4)

    def rate(row: TableRow) -> bool:
        if int(row.id[1:]) < 4:
            start.wait()  # the first four end at the very same moment
        return ratings.game_over(players, row)

    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(rate, rows))
    live = snapshot(players, [1, 2, 3])
    assert sorted({r[0] for r in live[0]}) == [1, 2, 3]
    assert {r[0]: r[4] for r in live[0]} == {1: 10, 2: 8, 3: 8}  # games each played
    assert len(live[1]) == sum(len(p) for p in players_of)
    assert ratings.rebuild(players, store.load_table) == {"games": 12, "rated": 12}
    assert snapshot(players, [1, 2, 3]) == live  # every mu and sigma, every result, in order
    assert ratings.rebuild(players, store.load_table) == {"games": 12, "rated": 12}
    assert snapshot(players, [1, 2, 3]) == live


def _set_end(store: Store, table_id: str, at: dt.datetime) -> None:
    if isinstance(store, MemoryStore):
        store._times[table_id] = [at] * len(store._times[table_id])
        return
    assert isinstance(store, SqlStore)
    with store.engine.begin() as conn:
        conn.execute(update(ACTIONS).where(ACTIONS.c.table_id == table_id).values(at=at))


def test_rebuild_keeps_the_rated_order_and_places_unrated_games_by_their_time(
        stores: tuple[Store, PlayerStore]) -> None:
    store, players = stores
    t0 = dt.datetime(2026, 1, 1, 12, tzinfo=dt.UTC)
    for name, minute in (("late", 30), ("early", 10), ("never", 20), ("older", 0)):
        played(store, name, [1, 2], seed=len(name))
        _set_end(store, name, t0 + dt.timedelta(minutes=minute))
    # rated live in this order, though "late" ended after "early"; "never" and "older" never
    for name in ("late", "early"):
        row = store.load_table(name)
        assert row is not None and ratings.game_over(players, row)
    with players.rating_turn() as turn:
        order = [t for t, _ in ratings.rating_order(turn)]
    assert order == ["older", "never", "late", "early"]  # the unrated by time before each rated
    ratings.rebuild(players, store.load_table)
    assert [r.table_id for r in players.results(1)] == order
