"""Accounts and ratings over the players port, the same behaviour on every implementation:
in memory (`MemoryPlayerStore` beside a `MemoryStore`), SQLite and PostgreSQL
(`SqlPlayerStore`). In-process, with a cheap hasher (the limits and the hash slots do not
depend on the hash's cost; tests/server/test_signin_attack.py measures the real one through a
real server). The limiter's two implementations (in process, Redis) are held to one contract
too."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from argon2 import PasswordHasher
from benchmarks.services import Redis
from fastapi.testclient import TestClient

from tiergarten.server.app import create_app, memory_stores
from tiergarten.server.edge.settings import Settings, hash_token
from tiergarten.server.players import ratings
from tiergarten.server.players.accounts import DELETED_NAME, AccountError, Accounts
from tiergarten.server.players.limits import (
    Limiter,
    LocalLimiter,
    RedisLimiter,
    Rule,
    SignInLimits,
)
from tiergarten.server.players.names import same_person_name, skeleton
from tiergarten.server.storage.memory_players import MemoryPlayerStore
from tiergarten.server.storage.memory_store import MemoryStore
from tiergarten.server.storage.player_store import PlayerStore
from tiergarten.server.storage.sql_players import SqlPlayerStore
from tiergarten.server.storage.sql_store import SqlStore
from tiergarten.server.storage.store import SeatRow, Store

from .test_ratings_order import played

CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
PASSWORD = "correct horse battery"
SMALL = SignInLimits(pair=3, address=6, name=5, signups=4, hash_slots=2)


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def stores(request: pytest.FixtureRequest) -> Iterator[tuple[Store, PlayerStore]]:
    if request.param == "memory":
        memory = MemoryStore()
        yield memory, MemoryPlayerStore(memory)
        memory.close()
        return
    database = (str(request.getfixturevalue("tmp_path") / "tiergarten.db")
                if request.param == "sqlite"
                else request.getfixturevalue("postgres").new_database())
    store = SqlStore(database)
    yield store, SqlPlayerStore(store)
    store.close()


@pytest.fixture
def book(stores: tuple[Store, PlayerStore]) -> Accounts:
    return Accounts(stores[1], SMALL, LocalLimiter(), CHEAP)


def refused(call: Any, *args: Any) -> AccountError:
    with pytest.raises(AccountError) as caught:
        call(*args)
    return caught.value


# -- accounts ----------------------------------------------------------------------------------

def test_sign_up_in_and_sessions(book: Accounts) -> None:
    ann = book.sign_up("  Ann   Lee ", PASSWORD)
    assert ann.name == "Ann Lee" and book.count() == 1
    assert book.sign_in("ann lee", PASSWORD, "a") == ann
    wrong, unknown = (refused(book.sign_in, "Ann Lee", "not it at all", "a"),
                      refused(book.sign_in, "Nobody", PASSWORD, "a"))
    assert (wrong.status, str(wrong)) == (unknown.status, str(unknown)) == (
        401, "wrong user name or password")
    cookie = book.open_session(ann)
    assert book.user_of(cookie) == ann and book.user_of("forged") is None
    book.close_session(cookie)
    assert book.user_of(cookie) is None and book.user_of(None) is None


def test_an_expired_session_is_nobodys(stores: tuple[Store, PlayerStore], book: Accounts
                                       ) -> None:
    ann = book.sign_up("Ann", PASSWORD)
    past = dt.datetime.now(dt.UTC) - dt.timedelta(days=40)
    stores[1].add_session(hash_token("old"), ann.id, past, past + dt.timedelta(days=30))
    assert book.user_of("old") is None


@pytest.mark.parametrize("other", ["alice01", "ALICE01", "\u0430lice01", "alice\uff101",
                                   "aIice01", "Alice01"])
def test_a_name_is_taken_whatever_its_case_and_look_alike_letters(book: Accounts,
                                                                  other: str) -> None:
    book.sign_up("alice01", PASSWORD)
    answer = refused(book.sign_up, other, PASSWORD)
    assert answer.status == 409 and ("taken" in str(answer) or "looks like" in str(answer))


def test_look_alikes_of_the_deleted_players_name_are_kept_too(book: Accounts) -> None:
    for name in ("Deleted Player", "de1eted player", "de\u217ceted player"):
        with pytest.raises(AccountError):
            book.sign_up(name, PASSWORD)


def test_names_that_differ_are_free(book: Accounts) -> None:
    for name in ("alice01", "alice02", "Bob", "Rob", "Zoë"):
        book.sign_up(name, PASSWORD, name)
    assert book.count() == 5


def test_a_new_password_ends_the_other_sessions(book: Accounts) -> None:
    ann = book.sign_up("Ann", PASSWORD)
    here, there = book.open_session(ann), book.open_session(ann)
    assert refused(book.change_password, ann, "wrong password", "n" * 10, here).status == 403
    book.change_password(ann, PASSWORD, "n" * 10, here)
    assert book.user_of(here) == ann and book.user_of(there) is None
    assert book.sign_in("Ann", "n" * 10, "a") == ann


def test_a_deleted_account_goes_its_seats_stay_and_its_name_is_free(
        stores: tuple[Store, PlayerStore], book: Accounts) -> None:
    store = stores[0]
    ann = book.sign_up("Ann", PASSWORD)
    cookie = book.open_session(ann)
    store.create_table("t1", "maumau", 2, {}, 1, [SeatRow(0, "human"), SeatRow(1, "human")])
    assert store.claim_seat("t1", 0, ann.name, "h", ann.id)
    row = store.load_table("t1")
    assert row is not None and row.seats[0].account == "Ann"
    assert refused(book.delete, ann, "wrong password").status == 403
    book.delete(ann, PASSWORD)
    assert book.user_of(cookie) is None
    assert refused(book.sign_in, "Ann", PASSWORD, "a").status == 401
    row = store.load_table("t1")
    assert row is not None and (row.seats[0].name, row.seats[0].account) == (DELETED_NAME, None)
    assert book.sign_up("ann", PASSWORD).id != ann.id  # someone new


def test_seats_follow_an_account_and_a_guest_claims_theirs(stores: tuple[Store, PlayerStore],
                                                           book: Accounts) -> None:
    store = stores[0]
    ann = book.sign_up("Ann", PASSWORD)
    store.create_table("t1", "maumau", 2, {}, 1, [SeatRow(0, "human"), SeatRow(1, "human")])
    store.create_table("t2", "maumau", 2, {}, 1, [SeatRow(0, "human"), SeatRow(1, "human")])
    assert store.claim_seat("t1", 1, "Ann", hash_token(book.seat_token("t1", 1, ann.id)), ann.id)
    assert store.claim_seat("t2", 0, "Guest", hash_token("guest-token"))
    claimed = book.claim(ann, [("t2", "guest-token"), ("t2", "nope"), ("t9", "guest-token")])
    assert claimed == [{"table": "t2", "seat": 0, "token": book.seat_token("t2", 0, ann.id)}]
    assert [(s["table"], s["seat"]) for s in book.seats(ann)] == [("t1", 1), ("t2", 0)]
    row = store.load_table("t2")
    assert row is not None and row.seats[0].user_id == ann.id and row.seats[0].name == "Ann"
    assert row.seats[0].token_hash == hash_token(book.seat_token("t2", 0, ann.id))
    store.set_status("t1", "over")
    assert [s["table"] for s in book.seats(ann)] == ["t2"]


def test_two_sign_ups_of_one_name_at_once_make_one_account(
        stores: tuple[Store, PlayerStore]) -> None:
    book = Accounts(stores[1], SignInLimits(hash_slots=8), LocalLimiter(), CHEAP)
    start, made, errors = threading.Barrier(4), [], []

    def sign_up(name: str) -> None:
        start.wait()
        try:
            made.append(book.sign_up(name, PASSWORD, name))  # each from an address of its own
        except AccountError as exc:
            errors.append(exc.status)

    threads = [threading.Thread(target=sign_up, args=(n,))
               for n in ("Ann", "ANN", "\u0410nn", "ann")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(made) == 1 and errors == [409] * 3


# -- the limits --------------------------------------------------------------------------------

def test_failures_are_limited_per_name_and_address_not_locking_out_the_owner(
        book: Accounts) -> None:
    book.sign_up("Ann", PASSWORD)
    for _ in range(3):
        assert refused(book.sign_in, "Ann", "guess guess", "10.0.0.9").status == 401
    blocked = refused(book.sign_in, "Ann", PASSWORD, "10.0.0.9")
    assert blocked.status == 429 and blocked.retry_after is not None
    assert 0 < blocked.retry_after <= SMALL.pair_window
    assert book.sign_in("Ann", PASSWORD, "10.0.0.1").name == "Ann"  # the owner, elsewhere


def test_a_look_alike_spelling_counts_against_the_same_name(book: Accounts) -> None:
    book.sign_up("alice01", PASSWORD)
    for spelling in ("alice01", "\u0430lice01", "ALICE01"):
        refused(book.sign_in, spelling, "guess guess", "10.0.0.9")
    assert refused(book.sign_in, "alice\uff101", "guess guess", "10.0.0.9").status == 429


def test_distributed_guessing_is_slowed_per_name_but_not_on_the_owners_device(
        book: Accounts) -> None:
    ann = book.sign_up("Ann", PASSWORD)
    device = book.device_token(ann.id)
    for n in range(SMALL.name):  # one failure from each of many addresses
        assert refused(book.sign_in, "Ann", "guess guess", f"10.1.0.{n}").status == 401
    slowed = refused(book.sign_in, "Ann", PASSWORD, "10.2.0.1")
    assert slowed.status == 429 and slowed.retry_after is not None
    assert book.sign_in("Ann", PASSWORD, "10.2.0.1", device) == ann  # a device that signed in
    forged = refused(book.sign_in, "Ann", PASSWORD, "10.2.0.2", "0" * 40)
    assert forged.status == 429


def test_failures_from_one_address_are_limited_whatever_the_names(book: Accounts) -> None:
    for n in range(SMALL.address):
        refused(book.sign_in, f"Name {n}", "guess guess", "10.3.0.1")
    assert refused(book.sign_in, "Another", "guess guess", "10.3.0.1").status == 429


def test_a_wrong_password_to_change_or_delete_counts_as_a_sign_in(book: Accounts) -> None:
    ann = book.sign_up("Ann", PASSWORD)
    assert refused(book.change_password, ann, "guess one", "n" * 10, None, "10.4.0.1"
                   ).status == 403
    assert refused(book.delete, ann, "guess two", "10.4.0.1").status == 403
    assert refused(book.sign_in, "Ann", "guess three", "10.4.0.1").status == 401
    assert refused(book.delete, ann, PASSWORD, "10.4.0.1").status == 429
    assert refused(book.change_password, ann, PASSWORD, "n" * 10, None, "10.4.0.1"
                   ).status == 429
    book.delete(ann, PASSWORD, "10.4.0.2")  # from elsewhere it goes


def test_successes_are_given_back_and_sign_ups_counted_per_address(book: Accounts) -> None:
    book.sign_up("Ann", PASSWORD, "10.5.0.1")
    for _ in range(10):  # far more than any limit: successes are not counted
        book.sign_in("Ann", PASSWORD, "10.5.0.1")
    for n in range(SMALL.signups - 1):
        book.sign_up(f"Someone {n}", PASSWORD, "10.5.0.1")
    over = refused(book.sign_up, "One Too Many", PASSWORD, "10.5.0.1")
    assert over.status == 429 and over.retry_after is not None
    assert refused(book.sign_up, "Ann", PASSWORD, "10.5.0.2").status == 409


def test_when_every_hash_slot_is_busy_a_request_is_refused_at_once_uncounted(
        book: Accounts) -> None:
    book.sign_up("Ann", PASSWORD)
    held = [book.limiter.enter("hash", SMALL.hash_slots, 60.0) for _ in range(SMALL.hash_slots)]
    assert None not in held
    for _ in range(SMALL.pair + 2):  # more than the limit: none of them was counted
        busy = refused(book.sign_in, "Ann", "guess guess", "10.6.0.1")
        assert busy.status == 429 and busy.retry_after == 1 and "busy" in str(busy)
    for ticket in held:
        assert ticket is not None
        book.limiter.leave("hash", ticket)
    assert book.sign_in("Ann", PASSWORD, "10.6.0.1").name == "Ann"


# -- ratings -----------------------------------------------------------------------------------

def test_a_rated_game_shows_on_the_leaderboard_and_the_profiles(
        stores: tuple[Store, PlayerStore], book: Accounts) -> None:
    store, players = stores
    ann, bob = book.sign_up("Ann", PASSWORD), book.sign_up("Bob", PASSWORD)
    row = played(store, "g1", [ann.id, bob.id], seed=4)
    assert ratings.game_over(players, row) is True
    assert ratings.game_over(players, row) is False  # told twice: counted once
    board = ratings.leaderboard(players, "maumau")
    assert sorted(p["name"] for p in board["players"]) == ["Ann", "Bob"]
    assert board["players"][0]["mu"] >= board["players"][1]["mu"]
    page = ratings.profile(players, "ann")
    assert page is not None and page["name"] == "Ann" and page["played"] == 1
    [maumau] = page["ratings"]
    assert maumau["games"] == 1 and maumau["history"][0]["table"] == "g1"
    assert page["recent"][0]["players"][:2] == [f"p{ann.id}", f"p{bob.id}"]
    assert page["opponents"] == [{"name": f"p{bob.id}", "account": "Bob", "games": 1}]
    book.delete(bob, PASSWORD)
    assert [p["name"] for p in ratings.leaderboard(players, "maumau")["players"]] == ["Ann"]
    assert ratings.profile(players, "Bob") is None and ratings.profile(players, "x\0") is None


def test_the_whole_app_runs_on_the_memory_stores() -> None:
    """The app over memory alone: accounts, seats and ratings with no database."""
    app = create_app(settings=Settings(tables_burst=100), web=None, stores=memory_stores,
                     limits=SMALL)
    with TestClient(app, base_url="http://127.0.0.1") as api:
        app.state.accounts.hasher = CHEAP
        assert api.post("/api/account/signup", json={"name": "Ann", "password": PASSWORD}
                        ).status_code == 201
        assert api.get("/api/account").json() == {"user": {"name": "Ann"}}
        table = api.post("/api/tables", json={"game": "maumau", "players": 2,
                                              "seats": [None, {"bot": "random"}]}).json()["id"]
        joined = api.post(f"/api/tables/{table}/join", json={"name": "x"})
        assert joined.status_code == 200
        assert api.get(f"/api/tables/{table}").json()["seats"][0]["account"] == "Ann"
        assert api.get("/api/account/seats").json()[0]["table"] == table
        assert api.get("/api/players/ann").json()["name"] == "Ann"
        assert api.get("/api/leaderboard/maumau").json()["players"] == []


# -- names -------------------------------------------------------------------------------------

def test_same_person_name() -> None:
    assert same_person_name("alice01", "\u0430lice01") and same_person_name("ALICE01", "alice01")
    assert same_person_name("alice01", "aIice01") and same_person_name(" Bob ", "bob")
    assert not same_person_name("alice01", "alice02") and not same_person_name("", "")
    assert not same_person_name(None, "Ann")


def test_the_migration_computes_skeletons_as_the_code_does() -> None:
    import importlib

    import icu

    migration = importlib.import_module(
        "tiergarten.server.storage.migrations.versions.0006_name_skeletons")
    checker = icu.SpoofChecker()
    for name in ("alice01", "\u0430lice01", "ALICE01", "Zoë Ann", "aIice 0l", "m rn", "ß"):
        assert migration.skeleton(name, checker) == skeleton(name), name


# -- the limiter's contract, in process and in Redis ---------------------------------------------

@pytest.fixture(params=["local", "redis"])
def limiter(request: pytest.FixtureRequest) -> Iterator[Limiter]:
    if request.param == "local":
        yield LocalLimiter()
        return
    server: Redis = request.getfixturevalue("redis_server")
    found = RedisLimiter(server.url, prefix=f"t{id(request)}")
    yield found
    found.close()


def test_a_limiter_counts_all_rules_or_none_and_gives_back(limiter: Limiter) -> None:
    a, b = Rule("a", 2, 60.0), Rule("b", 3, 60.0)
    assert limiter.take([a, b])[0] == 0 and limiter.take([a, b])[0] == 0
    wait, ticket = limiter.take([a, b])
    assert 59 < wait <= 60 and ticket == ""
    assert limiter.take([b])[0] == 0  # the refusal counted nothing under b
    assert limiter.take([b])[0] > 0
    limiter.forget("a")
    wait, ticket = limiter.take([a])
    assert wait == 0 and ticket
    limiter.give_back([a], ticket)
    assert limiter.take([a])[0] == 0 and limiter.take([a])[0] == 0 and limiter.take([a])[0] > 0


def test_a_limiter_window_slides(limiter: Limiter) -> None:
    short = Rule("short", 1, 0.3)
    assert limiter.take([short])[0] == 0
    assert 0 < limiter.take([short])[0] <= 0.3
    threading.Event().wait(0.35)
    assert limiter.take([short])[0] == 0


def test_a_limiter_hands_out_at_most_so_many_slots(limiter: Limiter) -> None:
    first, second = limiter.enter("hash", 2, 60.0), limiter.enter("hash", 2, 60.0)
    assert first and second and limiter.enter("hash", 2, 60.0) is None
    limiter.leave("hash", first)
    assert limiter.enter("hash", 2, 60.0) is not None


def test_two_redis_limiters_share_their_counts(redis_server: Redis) -> None:
    """Two workers of a cluster: what one counted, the other sees (attempts and slots)."""
    one, two = (RedisLimiter(redis_server.url, "shared"), RedisLimiter(redis_server.url,
                                                                      "shared"))
    try:
        rule = Rule("pair:ann|10.0.0.1", 3, 60.0)
        assert [w for w, _ in (one.take([rule]), two.take([rule]), one.take([rule]))] == [0] * 3
        assert two.take([rule])[0] > 0 and one.take([rule])[0] > 0
        assert one.enter("hash", 1, 60.0) is not None and two.enter("hash", 1, 60.0) is None
    finally:
        one.close()
        two.close()


def test_a_slot_a_dead_worker_held_is_free_after_its_lease(redis_server: Redis) -> None:
    limiter = RedisLimiter(redis_server.url, "lease")
    try:
        assert limiter.enter("hash", 1, 0.2) is not None  # never left: the worker died
        assert limiter.enter("hash", 1, 0.2) is None
        threading.Event().wait(0.25)
        assert limiter.enter("hash", 1, 0.2) is not None
    finally:
        limiter.close()


# -- accounts from before skeletons ------------------------------------------------------------

def test_accounts_that_collided_before_0006_both_keep_working(database: str) -> None:
    """Two accounts whose names look alike signed up before skeletons were kept: migration 0006
    gives the older its skeleton and the younger its own kept apart (`skeleton#id`); both sign
    in as before, and no third look-alike signs up, even once the older is gone."""
    from sqlalchemy import create_engine, insert, select

    from tiergarten.server.storage import migrate
    from tiergarten.server.storage.schema import SESSIONS, USERS
    from tiergarten.server.storage.sql_store import database_url

    url = database_url(database)
    engine = create_engine(url)
    migrate.upgrade(engine, "0005")
    now = dt.datetime.now(dt.UTC)
    ids = []
    with engine.begin() as conn:
        for name in ("alice01", "\u0430lice01", "Bob"):
            made = conn.execute(insert(USERS).values(
                name=name, name_key=name.casefold(), password_hash=CHEAP.hash(PASSWORD),
                created=now))
            assert made.inserted_primary_key is not None
            ids.append(int(made.inserted_primary_key[0]))
            conn.execute(insert(SESSIONS).values(id_hash=f"s{ids[-1]}", user_id=ids[-1],
                                                 created=now, expires=now))
    engine.dispose()
    store = SqlStore(url)  # migrates to head
    try:
        with store.engine.connect() as conn:
            keys = dict(conn.execute(select(USERS.c.id, USERS.c.name_skeleton)).all())
        assert keys == {ids[0]: skeleton("alice01"), ids[1]: f"{skeleton('alice01')}#{ids[1]}",
                        ids[2]: skeleton("Bob")}
        book = Accounts(SqlPlayerStore(store), SMALL, LocalLimiter(), CHEAP)
        older = book.sign_in("alice01", PASSWORD, "a")
        younger = book.sign_in("\u0430lice01", PASSWORD, "a")
        assert [older.id, younger.id] == ids[:2]
        assert refused(book.sign_up, "alice\uff101", PASSWORD, "b").status == 409
        book.delete(older, PASSWORD, "a")
        assert refused(book.sign_up, "alice\uff101", PASSWORD, "b").status == 409
        book.delete(younger, PASSWORD, "a")
        assert book.sign_up("alice\uff101", PASSWORD, "b").name == "alice\uff101"
    finally:
        store.close()
