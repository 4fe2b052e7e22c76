"""A clock per player survives a restart: the banks are rebuilt from the log's stored times (and
the moment the game began), so a restart refills nobody's bank; only the time the seat due had
been thinking since the last move is given back (the log knows no later moment)."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

import tiergarten
from tiergarten.server.table.clock import from_log

from .harness import Client, Server, is_state, run

T0 = dt.datetime(2026, 3, 1, 18, 0, tzinfo=dt.UTC)


def test_the_banks_are_replayed_from_the_logs_times() -> None:
    # the house rule lets a 9 give its player a second move between two: a turn of two moves
    game = tiergarten.load("maumau", 2, rounds=1, two_player_nine="skip")
    state = game.new_state(4)
    actions, movers = [], []
    for _ in range(3):  # each seat's first legal move, as the engine says whose turn it is
        seat = state.to_move()[0]
        action = str(state.legal_actions(seat)[0])
        state.apply(seat, action)
        actions.append((seat, action))
        movers.append(seat)
    assert movers == [1, 1, 0]  # this deal: seat 1 begins (and moves again), then seat 0
    times = [T0 + dt.timedelta(seconds=s) for s in (10, 25, 27)]  # 10 s, 15 s, 2 s of thought
    clock = from_log(60, 5, game.new_state(4), actions, times,
                     started=T0, people=[0, 1], players=2, now=1000.0)
    # seat 1's turn (two moves) earned one increment, seat 0's one move another
    assert clock.view(now=1000.0) == {"left": [60 - 2 + 5, 60 - 10 - 15 + 5], "running": [1]}
    assert clock.view(now=1004.0)["left"] == [63.0, 36.0]  # seat 1's clock runs on from now
    # without the start stored (a table of before), the first move cost nothing
    clock = from_log(60, 5, game.new_state(4), actions, times,
                     started=None, people=[0, 1], players=2, now=0.0)
    assert clock.view(now=0.0)["left"] == [63.0, 50.0]
    with pytest.raises(ValueError):  # a log and its times must agree
        from_log(60, 0, game.new_state(4), actions, times[:2], T0, [0, 1], 2, 0.0)


def test_a_restart_keeps_every_bank(database: str) -> None:
    server = Server(database, "--bot-pace", "0", "--allow-seeds").start()
    try:
        table = server.create(game="maumau", players=2, options={"rounds": 1},
                              seats=[None, None], seed=4, clock={"bank": 60, "increment": 0})
        tokens = [server.join(table["id"], name, n)[1] for n, name in enumerate(("Ann", "Bo"))]

        async def before() -> tuple[list[float], list[float], int]:
            clients = [await Client.open(server, table["id"], t) for t in tokens]
            thought = [0.0, 0.0]
            for version, think in enumerate((0.6, 0.3)):  # the seat due thinks, then moves
                seen = [c.state if c.state is not None and c.state["version"] == version
                        else await c.until(lambda m, v=version: is_state(m)
                                           and m["version"] == v) for c in clients]
                due = seen[0]["observation"]["to_move"][0]
                await asyncio.sleep(think)
                await clients[due].act(seen[due]["legal"][0], version)
                thought[due] += think
            last = await clients[0].until(lambda m: is_state(m) and m["version"] == 2)
            for c in clients:
                await c.close()
            return last["clock"]["left"], thought, last["clock"]["running"][0]

        left, thought, due = run(before())
        server.kill()
    finally:
        server.stop()
    for seat, t in enumerate(thought):  # what each thought, and what reaching it cost (load)
        assert 60 - t - 1.0 < left[seat] <= 60 - t + 0.05
    restarted = Server(database, "--bot-pace", "0", "--allow-seeds").start()
    try:
        async def after() -> dict[str, object]:
            ann = await Client.open(restarted, table["id"], tokens[0])
            state = await ann.until(is_state)
            await ann.close()
            return state

        state = run(after())
    finally:
        restarted.stop()
    clock = state["clock"]
    assert isinstance(clock, dict)
    assert clock["running"] == [due]
    for seat, before in enumerate(left):  # not 60 again; the one due runs on since the start
        if seat == due:
            assert before - 5 < clock["left"][seat] <= before + 0.3
        else:
            assert clock["left"][seat] == pytest.approx(before, abs=0.3)
