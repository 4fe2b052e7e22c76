"""The whole log over the websocket (docs/protocol.md, `log` and `log_from`): a greeting and a
sync bring every entry so far, each update only the entries its act added, numbered by their
real position; a spectator gets the same public log."""

from __future__ import annotations

import json
import random

import tiergarten
from tiergarten.games.maumau.view import LOG_LENGTH

from .harness import Client, Message, Server, is_state, run

MOVES = 30  # well past the capped log's LOG_LENGTH entries


async def play(server: Server, tid: str, tokens: list[str], moves: int,
               rng: random.Random) -> tuple[list[Client], list[tuple[int, str]]]:
    """Both people connect and make `moves` moves between them (the seat on turn acts);
    returns the clients and the moves made."""
    clients = [await Client.open(server, tid, t) for t in tokens]
    for c in clients:
        await c.until(lambda m: is_state(m) and m["observation"]["turn"] is not None)
    made: list[tuple[int, str]] = []
    for _ in range(moves):
        state = clients[0].state
        assert state is not None
        seat = state["observation"]["turn"]
        mover = clients[seat]
        assert mover.state is not None and mover.state["legal"]
        version = mover.state["version"]
        made.append((seat, rng.choice(mover.state["legal"])))
        await mover.act(made[-1][1])
        for c in clients:
            await c.until(lambda m, v=version: is_state(m) and m["version"] == v + 1)
    return clients, made


def test_join_mid_game_gets_every_entry_updates_only_the_new_ones_and_sync_all(
        server: Server) -> None:
    table = server.create(game="maumau", players=2, options={"rounds": 3}, seed=8)
    tid = table["id"]
    tokens = [server.join(tid, "Ann")[1], server.join(tid, "Bob")[1]]

    async def go() -> tuple[list[Client], list[tuple[int, str]], Message, Message, Message]:
        clients, made = await play(server, tid, tokens, MOVES, random.Random(8))
        eye = await Client.open(server, tid)  # a spectator comes in mid-game
        greeting = await eye.until(is_state)
        back = await Client.open(server, tid, tokens[1])  # Bob's second tab
        again = await back.until(is_state)
        await clients[0].send({"sync": True})
        synced = await clients[0].until(is_state)
        for c in (*clients, eye, back):
            await c.close()
        return clients, made, greeting, again, synced

    clients, made, greeting, again, synced = run(go())
    state = tiergarten.load("maumau", players=2, rounds=3).new_state(8)
    for seat, act in made:
        state.apply(seat, act)
    size = len(state.events)
    assert size > LOG_LENGTH + 10

    # a spectator who came late: every public entry from the very first
    assert greeting["version"] == MOVES
    assert (greeting["log_from"], greeting["events"]) == (0, [])
    assert greeting["log"] == state.log_since(None) and len(greeting["log"]) == size
    assert greeting["log"][0] == {"seat": made[0][0], "act": made[0][1]}  # the first move
    assert greeting["observation"]["log"] == greeting["log"][-LOG_LENGTH:]  # still capped
    # a second connection of a seat, and a sync: the whole log again
    assert (again["log_from"], again["log"]) == (0, state.log_since(1))
    assert (synced["log_from"], synced["log"]) == (0, state.log_since(0))

    for seat, client in enumerate(clients):
        states = [m for m in client.received if is_state(m)]
        assert states[0]["log_from"] == 0  # the greeting
        known = list(states[0]["log"])
        updates = [m for m in states[1:] if m is not synced]
        assert len(updates) >= MOVES
        for update in updates:
            # only what the act added, from where the client's log ends: no gap, no repeat
            assert update["log_from"] == len(known), f"seat {seat} v{update['version']}"
            assert update["log"] == update["events"]
            assert len(update["log"]) < LOG_LENGTH and len(json.dumps(update["log"])) < 500
            known += update["log"]
        assert known == state.log_since(seat)
        assert any(update["log"] for update in updates)
