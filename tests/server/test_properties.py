"""Property-based tests of the protocol: hypothesis over client messages (valid, mutated and
random frames) against live tables, and schemathesis over the REST API's OpenAPI schema.

The invariants, after every frame: nothing crashes; a refusal (an `error` to the connection
that sent it) changes nothing — not the version, not the log, and nobody else hears anything;
versions step by one; every message sent has its documented shape; the store holds exactly
what the table holds; and at the end every connection is still served (a `sync` is answered
with the table's version). Bounded: a few dozen examples each, no deadlines.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

import tiergarten
from tiergarten.core.registry import game_class
from tiergarten.server.app import create_app
from tiergarten.server.edge.limits import RateLimit
from tiergarten.server.edge.protocol import SERVER_MESSAGES
from tiergarten.server.edge.settings import Settings
from tiergarten.server.routes.play import handle_frame
from tiergarten.server.storage.memory_store import MemoryStore
from tiergarten.server.table.connection import Connection
from tiergarten.server.table.manager import TableManager
from tiergarten.server.table.spec import TableSpec
from tiergarten.server.table.tables import LiveTable

from .harness import Client, Server, free_port, in_a_thread, is_error, is_state, run

SETTINGS = Settings(allow_seeds=True, seating_every=0, rate=10_000, burst=10_000)

# -- frames --------------------------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                  max_size=3),
    max_leaves=8)
KEYS = st.sampled_from(["act", "version", "token", "sync", "pong", "extra", ""])


def shaped(at: int, tokens: list[str]) -> st.SearchStrategy[Any]:
    """The four messages, with right and wrong values (`at`: the table's version)."""
    version = st.one_of(st.just(at), st.integers(-2, at + 3), st.integers(2**31, 2**70))
    notation = st.one_of(st.sampled_from(["draw", "pass", "play 7h", "flip", "hit deer",
                                          "stop", "x"]), st.text(max_size=210))
    return st.one_of(
        st.fixed_dictionaries({"act": notation, "version": version}),
        st.fixed_dictionaries({"token": st.one_of(st.sampled_from(tokens), st.text(max_size=5))}),
        st.fixed_dictionaries({"sync": st.one_of(st.just(True), JSON)}),
        st.fixed_dictionaries({"pong": st.one_of(st.integers(-1, 20), JSON)}))


def mutated(message: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[Any]:
    """A valid message with a key dropped, added or given a value of any type."""
    def mutate(parts: tuple[dict[str, Any], str, Any, int]) -> Any:
        base, key, value, how = parts
        changed = dict(base)
        if how == 0 and changed:
            changed.pop(next(iter(changed)))
        elif how == 1:
            changed[key] = value
        elif how == 2 and changed:
            changed[next(iter(changed))] = value
        else:
            return [changed]
        return changed
    return st.tuples(message, KEYS, JSON, st.integers(0, 3)).map(mutate)


def frames(at: int, legal: list[str], tokens: list[str]) -> st.SearchStrategy[Any]:
    """One frame: one of the `legal` acts at version `at` (often), a valid or mutated message as
    text or bytes, or random text, bytes, JSON or too much of it."""
    good = (st.sampled_from(legal).map(lambda a: json.dumps({"act": a, "version": at}))
            if legal else st.nothing())
    message = shaped(at, tokens)
    encoded = st.one_of(message, mutated(message), JSON).map(json.dumps)
    return st.one_of(
        good, good, good, encoded, encoded.map(str.encode),
        st.text(max_size=40), st.binary(max_size=40),
        st.integers(4000, 5000).map(lambda n: json.dumps({"act": "é" * n, "version": 0},
                                                         ensure_ascii=False)))


# -- in-process: every frame against a live table -----------------------------------------------

def drain(conn: Connection) -> list[dict[str, Any]]:
    out = []
    while not conn.outbox.empty():
        text = conn.outbox.get_nowait()
        if text is not None:
            message = json.loads(text)
            SERVER_MESSAGES[message["type"]].model_validate(message)  # the documented shape
            out.append(message)
    return out


def snapshot(table: LiveTable) -> tuple[int, list[Any], list[Any]]:
    stored = table.store.load_table(table.id)
    assert stored is not None
    seats = [None, *range(table.row.players)]
    return (table.version, [table.state.observe(s) for s in seats], stored.actions)


def legal(table: LiveTable, seat: int | None) -> list[str]:
    if seat is None or table.status != "playing":
        return []
    return [a.text for a in table.state.legal_actions(seat)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_frames_keep_the_invariants_at_a_live_table(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(tiergarten.games()), label="game")
    seed = data.draw(st.integers(0, 10_000), label="seed")

    async def go() -> None:
        manager = TableManager(MemoryStore(), SETTINGS)
        players = game_class(game).info.min_players
        table = manager.create(TableSpec(game=game, players=players, seats=[None] * players,
                                         seed=seed))
        tokens = [manager.join(table.id, f"P{seat}")[1] for seat in range(players)]
        conns = [*(Connection(seat) for seat in range(players)), Connection(None)]
        limits = [RateLimit(SETTINGS.rate, SETTINGS.burst) for _ in conns]
        for conn in conns:
            table.connect(conn)
        versions: list[list[int]] = [[m["version"] for m in drain(c) if is_state(m)]
                                     for c in conns]
        for _ in range(data.draw(st.integers(1, 20), label="frames")):
            who = data.draw(st.integers(0, len(conns) - 1), label="from")
            frame = data.draw(frames(table.version, legal(table, conns[who].seat), tokens),
                              label="frame")
            before = snapshot(table)
            await handle_frame(conns[who], table, frame, limits[who], SETTINGS)
            await table.settled()
            heard = [drain(c) for c in conns]
            after = snapshot(table)
            for seen, messages in zip(versions, heard, strict=True):
                seen.extend(m["version"] for m in messages if is_state(m))
            assert after[0] - before[0] in (0, 1)  # versions step by one
            assert after[2] == table.row.actions  # the store holds what the table holds
            if any(is_error(m) for m in heard[who]):  # a refusal changes nothing
                assert after == before, frame
                assert all(not m for i, m in enumerate(heard) if i != who), heard
        for seen in versions:
            assert all(b - a in (0, 1) for a, b in zip(seen, seen[1:], strict=False)), seen
        for conn, limit in zip(conns, limits, strict=True):  # every connection still served
            await handle_frame(conn, table, '{"sync": true}', limit, SETTINGS)
            states = [m for m in drain(conn) if is_state(m)]
            assert states and states[-1]["version"] == table.version
        assert tiergarten.replay(table.row.record()).observe(None) == table.state.observe(None)
        await manager.stop()

    run(go())


# -- over a real websocket ----------------------------------------------------------------------

@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_any_frames_over_a_real_websocket_are_answered_and_change_nothing_when_refused(
        server: Server, data: st.DataObject) -> None:
    """After each frame a marker (a frame too large by a size of its own, so its `too_large`
    names it) says that everything before it has been answered; a `sync` then says whether the
    frame changed the table."""
    table = server.create(game="maumau", players=2, seats=[None, None],
                          seed=data.draw(st.integers(0, 1000), label="seed"))["id"]
    tokens = [server.join(table, name)[1] for name in ("Ann", "Bob")]
    seat = data.draw(st.sampled_from([0, 1, None]), label="seat")

    async def go() -> None:
        client = await Client.open(server, table, None if seat is None else tokens[seat])
        state = await client.until(is_state)
        for step in range(data.draw(st.integers(1, 6), label="frames")):
            before = state["version"]
            frame = data.draw(frames(before, state["legal"], tokens), label="frame")
            await client.send(frame)
            await client.send("x" * (5000 + step))
            marker = f"this one had {5000 + step}"
            replies = []
            while not (is_error(reply := await client.recv()) and marker in reply["message"]):
                replies.append(reply)
            await client.send({"sync": True})
            state = await client.until(is_state)
            assert state["version"] - before in (0, 1)
            if any(is_error(m) for m in replies):
                assert state["version"] == before, (frame, replies)
        await client.close()

    run(go())


# -- the REST API from its OpenAPI schema --------------------------------------------------------

@contextmanager
def serving(database: str) -> Iterator[str]:
    port = free_port()
    with in_a_thread(create_app(database, Settings(tables_burst=10**6), web=None), port):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def api(postgres: Any) -> Iterator[str]:
    """The app on PostgreSQL, whose refusals of bad text were 500s (a NUL in a name)."""
    with serving(postgres.new_database()) as url:
        yield url


def test_the_rest_api_never_fails_on_anything_its_schema_allows_or_forbids(api: str) -> None:
    """Every operation, with bodies and parameters the schema allows and ones it forbids: never
    a 5xx, and documented answers match their schema. Half the cases name a real table (with a
    seat someone holds, and its token), so the answers are not all 404s."""
    import requests

    schema = schemathesis.openapi.from_url(f"{api}/openapi.json")
    real = requests.post(f"{api}/api/tables", json={"game": "maumau", "players": 2,
                                                    "seats": [None, {"bot": "random"}]},
                         timeout=10).json()["id"]
    token = requests.post(f"{api}/api/tables/{real}/join", json={"name": "Ann"},
                          timeout=10).json()["token"]
    session = requests.Session()

    def fresh() -> str:
        return str(session.post(f"{api}/api/tables", json={"game": "maumau", "players": 2},
                                timeout=10).json()["id"])

    tried = 0
    for result in schema.get_all_operations():
        operation = result.ok()

        @settings(max_examples=20, deadline=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=st.one_of(operation.as_strategy(GenerationMode.POSITIVE),
                              operation.as_strategy(GenerationMode.NEGATIVE)),
               named=st.booleans())
        def call(case: Any, named: bool) -> None:
            if named and case.path_parameters and "table_id" in case.path_parameters:
                joining = case.path.endswith("/join")  # a table with its seats still open
                case.path_parameters["table_id"] = fresh() if joining else real
                if isinstance(case.body, dict) and "token" in case.body:
                    case.body["token"] = token
            case.call_and_validate(base_url=api, session=session,
                                   checks=[not_a_server_error, response_schema_conformance])

        call()
        tried += 1
    assert tried >= 10  # health, readyz, games, tables (create, list, show, join, leave, ...)
    assert asyncio.run(_alive(api))


async def _alive(api: str) -> bool:
    import httpx

    async with httpx.AsyncClient(base_url=api, trust_env=False) as client:
        return (await client.get("/readyz")).status_code == 200
