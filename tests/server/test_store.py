"""The store on both backends: an append-only log that gives back exactly what went in."""

from __future__ import annotations

import pytest

import tiergarten
from tiergarten.server.storage.sql_store import SqlStore, database_url
from tiergarten.server.storage.store import SeatRow, StoreError


@pytest.fixture
def store(database: str) -> SqlStore:
    s = SqlStore(database)
    yield s  # type: ignore[misc]
    s.close()


def _table(store: SqlStore, table_id: str = "t1", seed: int = 11) -> None:
    store.create_table(table_id, "maumau", 2, {"rounds": 1}, seed,
                       [SeatRow(0, "bot", bot="heuristic"), SeatRow(1, "human")], timer=30.0)


def test_a_table_comes_back_with_its_seats_and_log(store: SqlStore) -> None:
    _table(store)
    state = tiergarten.load("maumau", players=2, rounds=1).new_state(seed=11)
    for index in range(6):
        seat = state.to_move()[0]
        action = state.legal_actions(seat)[0]
        state.apply(seat, action)
        store.append_action("t1", index, seat, action.text)
    row = store.load_table("t1")
    assert row is not None
    assert (row.game, row.players, row.seed, row.status, row.timer) == ("maumau", 2, 11,
                                                                       "open", 30.0)
    assert [(s.seat, s.kind, s.bot) for s in row.seats] == [(0, "bot", "heuristic"),
                                                            (1, "human", None)]
    assert row.actions == [(s, a.text) for s, a in state.history]
    assert tiergarten.replay(row.record()).observe(1) == state.observe(1)


def test_the_log_refuses_a_second_action_at_the_same_index(store: SqlStore) -> None:
    _table(store)
    store.append_action("t1", 0, 1, "draw")
    with pytest.raises(StoreError, match="already has an action 0"):
        store.append_action("t1", 0, 1, "play 7h")
    assert store.load_table("t1").actions == [(1, "draw")]  # type: ignore[union-attr]


def test_a_seat_is_claimed_once_and_only_its_hash_is_kept(store: SqlStore) -> None:
    _table(store)
    assert store.claim_seat("t1", 1, "Ann", "a" * 64)
    assert not store.claim_seat("t1", 1, "Bob", "b" * 64)
    assert not store.claim_seat("t1", 0, "Bob", "b" * 64)  # a bot's seat
    row = store.load_table("t1")
    assert row is not None and (row.seats[1].name, row.seats[1].token_hash) == ("Ann", "a" * 64)


def test_status_and_listing(store: SqlStore) -> None:
    _table(store, "t1")
    _table(store, "t2")
    store.set_status("t1", "playing")
    store.set_status("t2", "over")
    assert store.table_ids() == ["t1"]
    assert store.table_ids(("over",)) == ["t2"]
    assert store.load_table("nope") is None


def test_database_urls() -> None:
    assert database_url("postgresql://u@h:5/d") == "postgresql+psycopg://u@h:5/d"
    assert database_url("postgres://u@h/d") == "postgresql+psycopg://u@h/d"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"
    assert database_url("rel.db").startswith("sqlite:////")


def test_the_default_database_lives_in_the_data_folder(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert database_url(None) == f"sqlite:///{tmp_path}/tiergarten/tiergarten.db"
    store = SqlStore()
    try:
        assert store.engine.dialect.name == "sqlite"
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    finally:
        store.close()
