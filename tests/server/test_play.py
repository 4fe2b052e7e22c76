"""Whole games over real websockets, and every way a client can get it wrong."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random

import pytest
from websockets.exceptions import ConnectionClosed

import tiergarten

from .harness import Client, Message, Server, is_error, is_state, play_until_over, run


def random_player(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    return lambda message: rng.choice(message["legal"])


def test_people_against_bots_play_to_the_end(server: Server) -> None:
    table = server.create(game="maumau", players=4, options={"rounds": 2},
                          seats=[{"bot": "heuristic"}, None, {"bot": "random"}, None], seed=21)
    tid = table["id"]
    (s1, t1), (s3, t3) = server.join(tid, "Ann"), server.join(tid, "Bob")
    assert (s1, s3) == (1, 3)

    async def game() -> list[Client]:
        ann, bob = await Client.open(server, tid, t1), await Client.open(server, tid, t3)
        await asyncio.gather(play_until_over(ann, random_player(1)),
                             play_until_over(bob, random_player(2)))
        for client in (ann, bob):
            assert client.state is not None and client.state["observation"]["over"]
            await client.close()
        return [ann, bob]

    ann, bob = run(game())
    record = server.get(f"/api/tables/{tid}/record").json()["record"]
    final = tiergarten.replay(record)
    assert final.is_over()
    assert {seat for seat, _ in record["actions"]} == {0, 1, 2, 3}
    for client, seat in ((ann, 1), (bob, 3)):
        hello = client.received[0]
        assert hello["type"] == "hello" and hello["protocol"] == 1 and hello["seat"] == seat
        states = [m for m in client.received if is_state(m)]
        assert all(m["seat"] == seat for m in states)
        assert states[-1]["version"] == len(record["actions"])
        assert states[-1]["observation"] == final.observe(seat)
        assert states[-1]["legal"] == []
        versions = [m["version"] for m in states[1:]]
        assert versions == sorted(versions)  # in order, never backwards
    # every action a person made reached the log under their own seat
    assert sum(1 for seat, _ in record["actions"] if seat == 1) > 0


def test_a_table_of_bots_plays_itself_and_a_spectator_watches(server: Server) -> None:
    table = server.create(game="maumau", players=3, options={"rounds": 1},
                          seats=[{"bot": "heuristic"}, {"bot": "random"}, {"bot": "heuristic"}])
    assert table["status"] == "playing"

    async def watch() -> Client:
        eye = await Client.open(server, table["id"])
        await eye.until(lambda m: m["type"] == "table" and m["status"] == "over", 30)
        await eye.close()
        return eye

    eye = run(watch())
    states = [m for m in eye.received if is_state(m)]
    assert eye.received[0]["seat"] is None
    assert all(m["seat"] is None and m["legal"] == [] for m in states)
    assert all(m["observation"]["hand"] is None for m in states)
    record = server.get(f"/api/tables/{table['id']}/record").json()
    assert record["status"] == "over"
    assert states[-1]["version"] == len(record["record"]["actions"])


def _two_people(server: Server, **options: object) -> tuple[str, str, str]:
    table = server.create(game="maumau", players=2, options={"rounds": 1, **options},
                          seats=[None, None], seed=8)
    (_, t0), (_, t1) = server.join(table["id"], "Ann"), server.join(table["id"], "Bob")
    return table["id"], t0, t1


async def _first_state(client: Client) -> Message:
    return await client.until(is_state)


def test_stale_illegal_and_unknown_actions_change_nothing(server: Server) -> None:
    tid, t0, t1 = _two_people(server)

    async def go() -> None:
        ann, bob = await Client.open(server, tid, t0), await Client.open(server, tid, t1)
        state = await _first_state(ann)
        await _first_state(bob)
        mover, other = (ann, bob) if state["legal"] else (bob, ann)
        assert mover.state is not None and other.state is not None
        version = mover.state["version"]
        await mover.act(mover.state["legal"][0], version + 5)
        error = await mover.until(is_error)
        assert error["code"] == "stale" and error["version"] == version
        assert "nothing changed" in error["message"]
        await mover.act("play 7x", version)
        error = await mover.until(is_error)
        assert error["code"] == "illegal" and "cannot read 'play 7x'" in error["message"]
        await other.act("draw", version)
        error = await other.until(is_error)
        assert error["code"] == "illegal" and "may not act now" in error["message"]
        await mover.send({"sync": True})
        again = await mover.until(is_state)
        assert again["version"] == version and again["observation"] == mover.state["observation"]
        # a good move still works afterwards, and both see it
        await mover.act(mover.state["legal"][0], version)
        moved = await mover.until(lambda m: is_state(m) and m["version"] == version + 1)
        seen = await other.until(lambda m: is_state(m) and m["version"] == version + 1)
        assert moved["seat"] != seen["seat"]
        await ann.close()
        await bob.close()

    run(go())


def test_wrong_tokens_and_spectators_cannot_act(server: Server) -> None:
    tid, t0, _ = _two_people(server)

    async def go() -> None:
        bad = await Client.open(server, tid, "forged-token")
        error = await bad.recv()
        assert error["code"] == "bad_token"
        with pytest.raises(ConnectionClosed) as closed:
            await bad.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401

        eye = await Client.open(server, tid)
        state = await _first_state(eye)
        await eye.act("draw", state["version"])
        assert (await eye.until(is_error))["code"] == "not_seated"
        await eye.send({"token": "forged"})
        assert (await eye.until(is_error))["code"] == "bad_token"
        await eye.send({"token": t0})  # a token as the first message claims the seat
        hello = await eye.until(lambda m: m["type"] == "hello")
        assert hello["seat"] == 0
        assert (await eye.until(is_state))["seat"] == 0
        await eye.close()

        nowhere = await Client.open(server, "no-such-table")
        assert (await nowhere.recv())["code"] == "not_found"

    run(go())


def test_malformed_and_oversize_messages_get_errors_and_the_table_lives(server: Server) -> None:
    tid, t0, t1 = _two_people(server)

    async def go() -> None:
        ann = await Client.open(server, tid, t0)
        await _first_state(ann)
        for bad in ["{not json", "[1, 2]", "42", json.dumps({"act": 5, "version": 0}),
                    json.dumps({"act": "draw", "version": "0"}),
                    json.dumps({"act": "draw", "version": -1}),
                    json.dumps({"act": "draw", "version": 0, "extra": 1}),
                    json.dumps({"hello": "world"}), b"\xff\xfe binary"]:
            await ann.send(bad)
            error = await ann.until(is_error)
            assert error["code"] == "bad_message", (bad, error)
            assert '{"act": notation, "version": n}' in error["message"]
        await ann.send(json.dumps({"act": "x" * 5000, "version": 0}))
        error = await ann.until(is_error)
        assert error["code"] == "too_large" and "4096" in error["message"]
        huge = await Client.open(server, tid, t0)  # a frame over 64 KiB: the transport closes
        await huge.send(json.dumps({"act": "x" * 100_000, "version": 0}))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await huge.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        # still alive: a sync and a real move work
        await ann.send({"sync": True})
        state = await ann.until(is_state)
        bob = await Client.open(server, tid, t1)
        await _first_state(bob)
        mover = ann if state["legal"] else bob
        assert mover.state is not None
        await mover.act(mover.state["legal"][0])
        await ann.until(lambda m: is_state(m) and m["version"] == state["version"] + 1)
        await ann.close()
        await bob.close()

    run(go())


def test_a_flood_is_cut_off_and_the_seat_can_come_back(server: Server) -> None:
    tid, t0, _ = _two_people(server)

    async def go() -> None:
        ann = await Client.open(server, tid, t0)
        limits = (await ann.recv())["limits"]
        await _first_state(ann)
        started = asyncio.get_running_loop().time()

        async def read_all() -> ConnectionClosed:
            try:
                while True:
                    await ann.recv()
            except ConnectionClosed as exc:
                return exc

        reader = asyncio.create_task(read_all())  # read while flooding, as a browser would
        with contextlib.suppress(ConnectionClosed):  # sending stops when the server closes
            for _ in range(1000):
                await ann.send({"sync": True})
                await asyncio.sleep(0)
        closed = await asyncio.wait_for(reader, 20)  # the server must end the connection
        elapsed = asyncio.get_running_loop().time() - started
        # the server ended the connection (the reader above returned), saying why with a
        # `rate_limited` error and a 1008 close frame (it reads and drops the rest of the flood
        # until the client answers the close, so nothing is lost on the way), and answered no
        # more than its rate allows
        close = closed.rcvd
        codes = [m.get("code") for m in ann.received if is_error(m)]
        assert close is not None and (close.code, close.reason) == (1008, "message flood")
        assert codes == ["rate_limited"]
        answered = sum(1 for m in ann.received if is_state(m)) - 1  # less the greeting
        assert answered >= limits["burst"]
        assert answered <= limits["burst"] + limits["rate"] * elapsed + 1
        again = await Client.open(server, tid, t0)
        assert (await _first_state(again))["seat"] == 0
        await again.close()

    run(go())


def test_reconnecting_with_the_token_resumes_the_seat(server: Server) -> None:
    tid, t0, t1 = _two_people(server)

    async def go() -> None:
        ann, bob = await Client.open(server, tid, t0), await Client.open(server, tid, t1)
        await _first_state(ann)
        await _first_state(bob)
        for _ in range(3):  # a few moves, then Ann's tab closes
            mover = ann if ann.state and ann.state["legal"] else bob
            assert mover.state is not None
            version = mover.state["version"]
            await mover.act(mover.state["legal"][0])
            for c in (ann, bob):
                await c.until(lambda m, v=version: is_state(m) and m["version"] == v + 1)
        seen = ann.state
        await ann.close()
        info = await bob.until(lambda m: m["type"] == "table")
        assert info["seats"][0]["connected"] is False and info["seats"][0]["away"] is False
        back = await Client.open(server, tid, t0)
        state = await _first_state(back)
        assert seen is not None
        assert state["version"] == seen["version"] and state["seat"] == 0
        assert state["observation"] == seen["observation"] and state["legal"] == seen["legal"]
        await bob.until(lambda m: m["type"] == "table" and m["seats"][0]["connected"])
        await asyncio.gather(play_until_over(back, random_player(3)),
                             play_until_over(bob, random_player(4)))
        await back.close()
        await bob.close()

    run(go())


def test_an_unknown_table_with_a_long_odd_id_is_refused_with_a_close_reason_that_fits(
        server: Server) -> None:
    """A close reason may have 123 bytes: the refusal's is cut to fit, whatever the id."""

    async def go() -> None:
        nowhere = await Client.open(server, "é" * 80)
        assert (await nowhere.recv())["code"] == "not_found"
        with pytest.raises(ConnectionClosed) as closed:
            await nowhere.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404

    run(go())
