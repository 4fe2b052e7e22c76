"""What one client may cost the server, over real websockets (docs/protocol.md, "Limits"): every
refusal says why, a connection the server closes learns why before the close, and a client that
reads nothing is let go before it costs memory.

Each test is a client of its own: the server trusts X-Forwarded-For from a proxy on loopback,
so the tests pretend to come from addresses of their own (`address()`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from .harness import Client, Message, Server, eventually, is_error, is_state, run

TIGHT = ("--bot-pace", "0", "--allow-seeds", "--rate", "200", "--burst", "20",
         "--queue-limit", "50", "--close-timeout", "10", "--address-connections", "3",
         "--table-connections", "5", "--tables-burst", "3", "--tables-per-minute", "6")
_addresses = itertools.count(1)


def address() -> str:
    return f"10.20.0.{next(_addresses)}"


@pytest.fixture(scope="module")
def tight(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(str(tmp_path_factory.mktemp("tight") / "t.db"), *TIGHT).start()
    yield srv
    printed = srv.stop()
    assert "Traceback" not in printed, printed


def create(server: Server, who: str, **body: Any) -> str:
    response = server.post("/api/tables", body, who)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def two_people(server: Server, who: str) -> tuple[str, list[str]]:
    table = create(server, who, game="maumau", players=2, seats=[None, None], seed=8)
    return table, [server.join(table, name)[1] for name in ("Ann", "Bob")]


def bots_for_long(server: Server, who: str) -> str:
    """Four random bots without pauses, for many rounds: a stream of states to watch."""
    return create(server, who, game="maumau", players=4, options={"target_score": 1000},
                  seats=[{"bot": "random"}] * 4, seed=5)


def reading_little(server: Server) -> socket.socket:
    """A socket whose receive buffer is tiny: the client behind it takes little at a time."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    return sock


async def until_closed(client: Client, timeout: float = 20.0) -> ConnectionClosed:
    """Read everything until the connection ends; the way it ended."""
    try:
        while True:
            await client.recv(timeout)
    except ConnectionClosed as exc:
        return exc


def closed_with(closed: ConnectionClosed) -> tuple[int, str] | None:
    return None if closed.rcvd is None else (closed.rcvd.code, closed.rcvd.reason)


def test_a_flood_gets_its_answers_the_reason_and_a_1008_close(tight: Server) -> None:
    who = address()
    table, (ann_token, _) = two_people(tight, who)

    async def go() -> Client:
        ann = await Client.open(tight, table, ann_token, who)
        await ann.until(is_state)
        reader = asyncio.create_task(until_closed(ann))
        with contextlib.suppress(ConnectionClosed):  # sending stops when the server closes
            for _ in range(500):
                await ann.send({"sync": True})
                await asyncio.sleep(0)
        assert closed_with(await asyncio.wait_for(reader, 20)) == (1008, "message flood")
        return ann

    ann = run(go())
    after_greeting = ann.received[3:]
    assert [m["code"] for m in after_greeting if is_error(m)] == ["rate_limited"]
    answered = [m for m in after_greeting if is_state(m)]
    assert len(answered) >= 20  # the whole burst was answered, and nothing was thrown away
    assert after_greeting.index(next(filter(is_error, after_greeting))) >= 20


def too_slow(server: Server) -> float:
    """How many `too_slow` errors the server has sent (its /metrics)."""
    for line in server.get("/metrics").text.splitlines():
        if line.startswith('tiergarten_client_errors_total{code="too_slow"}'):
            return float(line.split()[-1])
    return 0.0


def test_a_client_too_slow_to_read_is_told_so_before_the_close(tight: Server) -> None:
    """It reads nothing while a fast table streams states until its socket's buffers and 50
    waiting messages are full; the backlog is dropped, `too_slow` says why, then 1013 (try
    again later: reconnecting gets it the table as it is now)."""
    who = address()
    before = too_slow(tight)
    table = bots_for_long(tight, who)

    async def go() -> tuple[Client, ConnectionClosed]:
        eye = await Client.open(tight, table, address=who, sock=reading_little(tight),
                                max_queue=1)
        # reading nothing until the server has found it too slow (it then has close_timeout,
        # 10 s, to deliver the error and the close)
        await asyncio.to_thread(eventually, lambda: too_slow(tight) > before, 30,
                                "the server finding a client that reads nothing too slow")
        return eye, await until_closed(eye)

    eye, closed = run(go())
    assert closed_with(closed) == (1013, "reading too slowly; reconnect")
    last = eye.received[-1]
    assert last["type"] == "error" and last["code"] == "too_slow", last
    assert "at most 50 messages" in last["message"] and "reconnect" in last["message"]
    versions = [m["version"] for m in eye.received if is_state(m)]
    assert versions == sorted(set(versions)) and len(versions) > 50  # in order, some dropped


def held_by_the_server(server_port: int, client_port: int) -> bool:
    """Whether a process still holds the server's end of the connection from `client_port`
    (/proc/net/tcp: a socket nobody holds any more shows inode 0, or is gone)."""
    with open("/proc/net/tcp") as table:
        for line in list(table)[1:]:
            fields = line.split()
            local, remote, inode = fields[1], fields[2], fields[9]
            if (int(local.split(":")[1], 16), int(remote.split(":")[1], 16)) == (server_port,
                                                                                 client_port):
                return inode != "0"
    return False


@pytest.mark.skipif(not os.path.exists("/proc/net/tcp"), reason="reads Linux's /proc/net/tcp")
def test_a_client_that_reads_nothing_is_let_go(tmp_path: Path) -> None:
    """After the close could not be delivered (0.3 s here) and twice as long again, the server
    lets go of the socket, whatever is unsent: it keeps no buffers for a client that never
    reads, and that client's address gets its connection back."""
    cutting = Server(str(tmp_path / "c.db"), "--bot-pace", "0", "--allow-seeds",
                     "--queue-limit", "20", "--close-timeout", "0.3").start()
    try:
        table = bots_for_long(cutting, address())

        async def go() -> tuple[bool, float]:
            sock = reading_little(cutting)
            port = sock.getsockname()[1]
            eye = await Client.open(cutting, table, sock=sock, max_queue=1, ping_interval=None)
            held = held_by_the_server(cutting.port, port)
            started = time.monotonic()  # the server's timeouts are real: only /proc shows them
            with contextlib.suppress(AssertionError):
                await asyncio.to_thread(eventually, lambda: not held_by_the_server(
                    cutting.port, port), 15, "the server letting go", 0.05)
            let_go = time.monotonic() - started
            with contextlib.suppress(Exception):
                await asyncio.wait_for(eye.ws.close(), 1)
            return held, let_go

        held, let_go = run(go())
        assert held, "the server never held the connection: nothing was measured"
        assert let_go < 15, "the server still holds a client that has read nothing for 15 s"
    finally:
        assert "Traceback" not in cutting.stop()


def test_the_message_limit_counts_bytes_not_characters(tight: Server) -> None:
    who = address()
    table, (ann_token, _) = two_people(tight, who)

    async def go() -> list[Message]:
        ann = await Client.open(tight, table, ann_token, who)
        await ann.until(is_state)
        replies = []
        for frame in (json.dumps({"act": "é" * 3000, "version": 0}, ensure_ascii=False),
                      "😀" * 1100,  # 1100 characters, 4400 bytes
                      b"x" * 5000,  # a binary frame
                      "é" * 2000):  # 4000 bytes: within the limit (but not a message)
            await ann.send(frame)
            replies.append(await ann.until(is_error))
        await ann.close()
        return replies

    replies = run(go())
    assert [r["code"] for r in replies] == ["too_large"] * 3 + ["bad_message"]
    assert "at most 4096 bytes, this one had 6025" in replies[0]["message"]
    assert "this one had 4400" in replies[1]["message"]
    assert "this one had 5000" in replies[2]["message"]


def test_spectators_coming_and_going_cost_the_seated_nothing(tight: Server) -> None:
    """40 spectators in and out: not one `table` message to the seated (they change no
    seating). A seat's only tab opening and closing ten times: at most one message per 0.1 s
    (none at all if each burst ends as it began), and what the seated know is how it ended.

    A seating change still due goes out before the next move's state (LiveTable.broadcast),
    and says the new version: so once Ann hears of her own move, any seating change before it
    has reached her. Seed 45: Ann has three moves in a row, one after her own arrival, one
    after the spectators, one after Bob's tab."""
    who = address()
    table = create(tight, who, game="maumau", players=2, seats=[None, None], seed=45)
    ann_token, bob_token = (tight.join(table, name)[1] for name in ("Ann", "Bob"))

    async def move(ann: Client, action: str) -> None:
        assert ann.state is not None and action in ann.state["legal"], ann.state
        version = ann.state["version"]
        await ann.act(action)
        await ann.until(lambda m: is_state(m) and m["version"] == version + 1)

    async def go() -> tuple[list[Message], list[Message], float, Message | None]:
        ann = await Client.open(tight, table, ann_token, who)
        await ann.until(is_state)
        await move(ann, "play 8s")  # her arrival's seating change is out (the 8 skips Bob)
        arrived = len(ann.received)
        for _ in range(40):
            eye = await Client.open(tight, table, address=address())
            await eye.until(is_state)
            await eye.close()
        await move(ann, "draw")
        quiet = ann.received[arrived:]
        started, mark = asyncio.get_running_loop().time(), len(ann.received)
        for _ in range(10):
            bob = await Client.open(tight, table, bob_token, who)
            await bob.until(is_state)
            await bob.close()
        elapsed = asyncio.get_running_loop().time() - started
        await move(ann, "pass")
        return quiet, ann.received[mark:], elapsed, ann.info

    quiet, flapping, elapsed, known = run(go())
    assert [m for m in quiet if m["type"] == "table"] == []
    tables = [m for m in flapping if m["type"] == "table"]
    assert len(tables) <= 2 + elapsed / 0.1 and len(tables) < 20, (len(tables), elapsed)
    assert known is not None and known["seats"][1]["connected"] is False  # as it ended


async def refused(server: Server, table: str, who: str) -> tuple[Message, ConnectionClosed]:
    client = await Client.open(server, table, address=who)
    error = await client.recv()
    return error, await until_closed(client)


def test_connections_are_capped_per_address_and_per_table(tight: Server) -> None:
    first, second, third = address(), address(), address()
    table = create(tight, first, game="maumau", players=2, seats=[None, None])

    async def go() -> None:
        mine = [await Client.open(tight, table, address=first) for _ in range(3)]
        for eye in mine:
            await eye.until(is_state)
        error, closed = await refused(tight, table, first)
        assert error["code"] == "too_many_connections"
        assert "at most 3 connections from one address at once" in error["message"]
        assert closed.rcvd is not None and closed.rcvd.code == 4429
        theirs = [await Client.open(tight, table, address=second) for _ in range(2)]
        for eye in theirs:
            await eye.until(is_state)
        error, closed = await refused(tight, table, third)  # the table has 5
        assert "at most 5 connections to one table at once" in error["message"]
        await mine[0].close()
        deadline = time.monotonic() + 10
        while True:  # the slot is free once the server has seen the close: ask until it is
            again = await Client.open(tight, table, address=first)
            if (await again.recv())["type"] == "hello":  # each answer is a round trip
                break
            await until_closed(again)
            assert time.monotonic() < deadline, "a closed place was never given to another"
        for eye in [*mine[1:], *theirs, again]:
            await eye.close()

    run(go())


def test_an_address_may_create_only_so_many_tables(tight: Server) -> None:
    who = address()
    for _ in range(3):
        assert tight.post("/api/tables", {"game": "maumau"}, who).status_code == 201
    refusal = tight.post("/api/tables", {"game": "maumau"}, who)
    assert refusal.status_code == 429
    assert ("at most 3 tables at once and 6 a minute from one address; try again in"
            in refusal.json()["detail"])
    assert 1 <= int(refusal.headers["Retry-After"]) <= 10
    assert tight.post("/api/tables", {"game": "maumau"}, address()).status_code == 201


def test_the_gate_counts_connections_per_address_and_frees_a_place_on_leave() -> None:
    """The `Gate` alone (server/edge/limits.py), in one process."""
    from tiergarten.server.edge.limits import Gate
    from tiergarten.server.edge.settings import Settings

    gate = Gate(Settings(address_connections=2, table_connections=3))

    async def three() -> list[str | None]:
        return [await gate.enter("10.0.0.1", t) for t in ("t1", "t2", "t3")]

    assert run(three()) == [None, None, "at most 2 connections from one address at once"]
    gate.leave("10.0.0.1", "t2")
    assert run(gate.enter("10.0.0.1", "t3")) is None
    assert run(gate.enter("10.0.0.2", "t3")) is None  # another address has its own budget
