"""When a person is gone — disconnected, timed out, or left — a bot plays the seat until the
person comes back with the token; then every move of that seat is the person's again."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import Client, Message, Server, is_error, is_state, play_until_over, run


@pytest.fixture(scope="module")
def slow(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Bots at 20 ms a move; a disconnected person's seat goes to a bot after 0.3 s."""
    db: Path = tmp_path_factory.mktemp("standins") / "t.db"
    srv = Server(str(db), "--bot-pace", "0.02", "--away-after", "0.3", "--rate", "200",
                 "--burst", "50", "--allow-seeds").start()
    yield srv
    srv.stop()


def away(seat: int) -> object:
    return lambda m: m["type"] == "table" and m["seats"][seat]["away"]


def back(seat: int) -> object:
    return lambda m: m["type"] == "table" and not m["seats"][seat]["away"]


def acted(seat: int) -> object:
    return lambda m: is_state(m) and any(e["seat"] == seat for e in m["events"])


async def finish_as_person(client: Client, server: Server, table: str) -> None:
    """Play to the end; then check that every move of the seat since now was the person's:
    each act is answered by exactly one change of the table or one error."""
    assert client.state is not None
    start, seat = client.state["version"], client.state["seat"]
    sent = 0
    rng = random.Random(1)

    def choose(message: Message) -> str:
        nonlocal sent
        sent += 1
        return str(rng.choice(message["legal"]))

    await play_until_over(client, choose)
    errors = sum(1 for m in client.received if is_error(m) and m["version"] is not None
                 and m["version"] >= start)
    record = server.get(f"/api/tables/{table}/record").json()["record"]
    mine = sum(1 for s, _ in record["actions"][start:] if s == seat)
    assert mine == sent - errors


def test_a_disconnected_person_is_played_by_a_bot_until_they_return(slow: Server) -> None:
    table = slow.create(game="maumau", players=2, options={"rounds": 2},
                        seats=[None, {"bot": "heuristic"}], seed=12)["id"]
    _, token = slow.join(table, "Ann")

    async def go() -> None:
        eye = await Client.open(slow, table)
        ann = await Client.open(slow, table, token)
        await ann.until(is_state)
        await ann.close()
        await eye.until(away(0))
        await eye.until(acted(0))  # a bot moved for Ann
        await eye.close()
        again = await Client.open(slow, table, token)
        await again.until(back(0))
        await again.until(is_state)
        await finish_as_person(again, slow, table)
        await again.close()

    run(go())


def test_the_turn_timer_hands_an_idle_seat_to_a_bot(slow: Server) -> None:
    table = slow.create(game="maumau", players=2, options={"rounds": 2},
                        seats=[None, {"bot": "heuristic"}], seed=30, timer=0.2)["id"]
    _, token = slow.join(table, "Ann")

    async def go() -> None:
        ann = await Client.open(slow, table, token)  # connected, but never acts
        await ann.until(away(0))
        await ann.until(acted(0))
        while True:  # Ann comes back by acting on the state she sees
            state = ann.state
            assert state is not None
            if state["legal"]:
                await ann.act(state["legal"][0], state["version"])
                reply = await ann.until(lambda m: is_error(m) or m["type"] == "table")
                if reply["type"] == "table" and not reply["seats"][0]["away"]:
                    break
            await ann.until(is_state)
        await ann.close()

    run(go())


def test_leaving_mid_game_lets_a_bot_play_on_and_the_token_brings_the_person_back(
        slow: Server) -> None:
    table = slow.create(game="maumau", players=2, options={"rounds": 3},
                        seats=[None, {"bot": "heuristic"}], seed=7)["id"]
    _, token = slow.join(table, "Ann")

    async def go() -> None:
        ann = await Client.open(slow, table, token)
        await ann.until(is_state)
        assert slow.post(f"/api/tables/{table}/leave", {"token": token}).status_code == 200
        await ann.until(away(0))
        await ann.until(acted(0))
        await ann.close()
        again = await Client.open(slow, table, token)
        await again.until(back(0))
        await again.until(is_state)
        await finish_as_person(again, slow, table)
        await again.close()

    run(go())


def test_after_a_maumau_draw_that_does_not_fit_the_table_waits_for_the_persons_pass(
        slow: Server) -> None:
    """The drawer's pass is a decision like any other (docs/games/maumau.md, "A turn"): no
    one passes for the person at once, which would tell the table the card does not fit; only
    the turn timer hands the pass to a bot."""
    table = slow.create(game="maumau", players=2, options={"rounds": 2},
                        seats=[None, {"bot": "heuristic"}], seed=3, timer=1.0)["id"]
    _, token = slow.join(table, "Ann")

    async def go() -> None:
        ann = await Client.open(slow, table, token)
        while True:  # Ann draws whenever she may, until a drawn card does not fit
            state = await ann.until(lambda m: is_state(m) and bool(m["legal"]))
            if state["legal"] == ["pass"] and state["observation"]["drawn_fits"] is False:
                break
            await ann.act("draw" if "draw" in state["legal"] else state["legal"][0])
        waited = asyncio.get_running_loop().time()
        await ann.until(away(0))
        passed = await ann.until(acted(0))
        assert asyncio.get_running_loop().time() - waited > 0.8  # the timer ran its course
        assert passed["events"][-1] == {"seat": 0, "act": "pass"}
        assert passed["version"] == state["version"] + 1  # the next act was that pass
        await ann.close()

    run(go())
