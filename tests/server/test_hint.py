"""GET /api/tables/{id}/hint: the solver's advice from the seat's own observation."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import tiergarten
from tiergarten.bots.mucca_pazza import advise as advise_mucca

from .harness import Client, Server, is_state


def test_hints_need_a_seat_and_the_move(server: Server) -> None:
    table = server.create(game="mucca_pazza", players=2, seed=173)
    tid = table["id"]
    (_, ann), (_, bob) = server.join(tid, "Ann"), server.join(tid, "Bob")
    assert server.get(f"/api/tables/{tid}/hint?token=nobody").status_code == 403
    assert server.get(f"/api/tables/{tid}/hint").status_code == 403
    assert server.get("/api/tables/nothere/hint?token=x").status_code == 404
    refused = server.get(f"/api/tables/{tid}/hint?token={bob}")
    assert refused.status_code == 409 and "not your move" in refused.json()["detail"]

    answer = server.get(f"/api/tables/{tid}/hint?token={ann}")
    assert answer.status_code == 200, answer.text
    hint = answer.json()
    state = tiergarten.load("mucca_pazza", players=2).new_state(seed=173)
    assert hint["hint"] in [str(a) for a in state.legal_actions(0)]
    # The documented example (docs/games/mucca_pazza.md, seed 173): a star buys 2 cards.
    assert (hint["hint"], hint["reason"]) == ("slide legs right", "win")
    assert hint["params"] == {"cards": 2, "slides": 4, "stars": 1, "animals": ["pig", "turtle"]}
    assert hint["why"] and hint["seat"] == 0 and hint["version"] == 0


def test_following_the_hints_wins_junior_cards(server: Server) -> None:
    table = server.create(game="mucca_pazza", players=2, options={"variant": "junior"},
                          seats=[None, {"bot": "random"}], seed=3)
    tid = table["id"]
    _, token = server.join(tid, "Ann")

    async def play() -> dict:  # type: ignore[type-arg]
        client = await Client.open(server, tid, token)
        hints = 0
        while not client.is_over():
            message = await client.until(lambda m: is_state(m) or m["type"] == "table")
            if not is_state(message) or not message["legal"]:
                continue
            answer = server.get(f"/api/tables/{tid}/hint?token={token}")
            if answer.status_code == 409:  # the table moved on meanwhile
                continue
            hint = answer.json()["hint"]
            assert hint in message["legal"], (hint, message["legal"])
            hints += 1
            await client.act(hint, message["version"])
        assert client.state is not None and hints > 5
        observation = client.state["observation"]
        await client.close()
        return observation

    with ThreadPoolExecutor(1) as pool:  # its own loop, even next to Playwright's
        observation = pool.submit(asyncio.run, play()).result()
    assert observation["over"]
    assert observation["cards"][0] > observation["cards"][1]  # a perfect slider beats random
    over = server.get(f"/api/tables/{tid}/hint?token={token}")
    assert over.status_code == 409


def test_the_advice_uses_only_the_observation() -> None:
    state = tiergarten.load("mucca_pazza", players=3).new_state(seed=9)
    for _ in range(200):
        if state.is_over():
            break
        seat = state.to_move()[0]
        legal = [str(a) for a in state.legal_actions(seat)]
        advice = advise_mucca(state.observe(seat), legal)
        assert advice["hint"] in legal
        state.apply(seat, advice["hint"])
    assert sum(state.observe(None)["cards"]) > 0


def test_a_table_created_without_hints_refuses_them_and_its_rematch_too(server: Server) -> None:
    games = {g["id"]: g["hints"] for g in server.get("/api/games").json()}
    assert games == {"lecker_mammut": False, "mammuz": False, "maumau": False,
                     "mucca_pazza": True}
    table = server.create(game="mucca_pazza", players=2, seats=[None, {"bot": "random"}],
                          hints=False, seed=4)
    assert table["hints"] is False
    _, ann = server.join(table["id"], "Ann")
    refused = server.get(f"/api/tables/{table['id']}/hint?token={ann}")
    assert refused.status_code == 409 and "hints are off" in refused.json()["detail"]
    assert server.create(game="mucca_pazza", players=2)["hints"] is True  # the default


def test_the_standard_advice_is_the_first_completion_and_the_turn_ends_there() -> None:
    from tests.games.mucca_pazza.positions import standard

    # heads right completes the frog, bodies left the pig; both together the dog and the cat
    state = standard("frog dog cat horse pig", "pig frog horse dog cat", "horse frog dog cat pig",
                     "frog dog dog dog", pile="cat", stars=(0, 0))
    legal = [str(a) for a in state.legal_actions(0)]
    advice = advise_mucca(state.observe(0), legal)
    assert (advice["hint"], advice["reason"]) == ("slide heads right", "win")
    assert advice["params"] == {"cards": 1, "slides": 1, "stars": 0, "animals": ["frog"]}
    state.apply(0, advice["hint"])
    assert state.observe(0)["won"][0] == ["frog"] and state.to_move() == (1,)
    # seat 1 (no stars either) slides the heads back left: nothing is within two slides
    state.apply(1, "slide heads left")
    advice = advise_mucca(state.observe(1), [str(a) for a in state.legal_actions(1)])
    assert (advice["hint"], advice["reason"]) == ("stop", "nothing_stop")
