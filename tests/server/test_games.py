"""The server knows no rules: every registered game plays to its end over websockets."""

from __future__ import annotations

import asyncio
import random

import pytest

import tiergarten
from tiergarten.core.registry import game_class
from tiergarten.server.table.bot_driver import standin_name

from .harness import Client, Server, is_state, play_until_over, run


@pytest.mark.parametrize("game", tiergarten.games())
def test_every_game_plays_to_the_end_between_bots(server: Server, game: str) -> None:
    info = game_class(game).info
    pair = ("random", standin_name(game))  # quick bots: this is about the server, not bots
    bots = [{"bot": pair[seat % 2]} for seat in range(info.min_players)]
    table = server.create(game=game, players=info.min_players, seats=bots, seed=1)

    async def watch() -> Client:
        eye = await Client.open(server, table["id"])
        # the last state, not the `table` message saying "over": either may come first
        await eye.until(lambda m: is_state(m) and m["observation"]["over"], 90)
        await eye.close()
        return eye

    eye = run(watch())
    done = server.get(f"/api/tables/{table['id']}/record").json()
    state = tiergarten.replay(done["record"])
    assert state.is_over() and state.result().to_dict() == done["result"]
    last = [m for m in eye.received if is_state(m)][-1]
    assert last["version"] == len(done["record"]["actions"])
    assert last["observation"] == state.observe(None)


def test_many_tables_play_at_once_in_one_process(server: Server) -> None:
    ids = [server.create(game="maumau", players=3, options={"rounds": 1}, seed=100 + i,
                         seats=[{"bot": "random"}, {"bot": "heuristic"}, {"bot": "random"}])["id"]
           for i in range(12)]

    async def watch_all() -> list[Client]:
        eyes = [await Client.open(server, tid) for tid in ids]
        await asyncio.gather(*(eye.until(lambda m: m["type"] == "table" and m["status"] == "over",
                                         90) for eye in eyes))
        for eye in eyes:
            await eye.close()
        return eyes

    run(watch_all())
    for tid in ids:
        record = server.get(f"/api/tables/{tid}/record").json()
        assert record["status"] == "over" and tiergarten.replay(record["record"]).is_over()


@pytest.mark.parametrize("game", tiergarten.games())
def test_every_game_plays_to_the_end_between_people(server: Server, game: str) -> None:
    info = game_class(game).info
    players = info.min_players
    table = server.create(game=game, players=players, seed=2)["id"]
    tokens = [server.join(table, f"P{seat}")[1] for seat in range(players)]

    async def play() -> list[Client]:
        people = [await Client.open(server, table, token) for token in tokens]
        rngs = [random.Random(seat) for seat in range(players)]
        await asyncio.gather(*(play_until_over(p, lambda m, r=r: r.choice(m["legal"]), 60)
                               for p, r in zip(people, rngs, strict=True)))
        for p in people:
            await p.close()
        return people

    people = run(play())
    record = server.get(f"/api/tables/{table}/record").json()["record"]
    # every state message is exactly its seat's observation and legal actions at its version
    state = tiergarten.load(game, players, **record["options"]).new_state(record["seed"])
    views = [[(state.observe(s), [a.text for a in state.legal_actions(s)])
              for s in range(players)]]
    for seat, action in record["actions"]:
        state.apply(seat, action)
        views.append([(state.observe(s), [a.text for a in state.legal_actions(s)])
                      for s in range(players)])
    assert state.is_over()
    for seat, person in enumerate(people):
        states = [m for m in person.received if is_state(m)]
        assert states[-1]["version"] == len(record["actions"])
        for message in states:
            assert message["seat"] == seat
            assert (message["observation"], message["legal"]) == views[message["version"]][seat]
