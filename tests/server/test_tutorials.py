"""Every tutorial through a real server: a real table from its fixed seed, the coach's steps
allow only the move they teach (others are refused, saying which are), then the game is
finished freely against the gentle bots."""

from __future__ import annotations

import pytest

import tiergarten
from tiergarten.server.table.tutorial import TUTORIALS

from .harness import Client, Server, play_until_over, run


@pytest.mark.parametrize("tutorial", sorted(TUTORIALS))
def test_a_tutorial_teaches_its_moves_then_plays_out(server: Server, tutorial: str) -> None:
    script = TUTORIALS[tutorial]
    tiergarten.load(script["game"], players=script["players"], **script["options"])  # valid
    answer = server.post(f"/api/tutorials/{tutorial}", {})
    assert answer.status_code == 201, answer.text
    started = answer.json()
    info = server.get(f"/api/tables/{started['table']}").json()
    assert info["tutorial"] == tutorial and info["status"] == "playing"
    assert [s["bot"] for s in info["seats"][1:]] == script["bots"]
    coached: list[dict[str, object]] = []

    def choose(state: dict[str, object]) -> str:
        coach = state.get("coach")
        assert isinstance(coach, dict)
        coached.append(coach)
        legal = state["legal"]
        assert isinstance(legal, list)
        if coach["allow"] is not None:
            assert all(any(a.startswith(p) for p in coach["allow"]) for a in legal) or legal
        return str(legal[0])

    async def main() -> None:
        client = await Client.open(server, started["table"], started["token"])
        state = await client.until(lambda m: m["type"] == "state")
        first = state["coach"]
        assert first["step"] == 0 and first["key"] == script["steps"][0]["key"]
        await play_until_over(client, choose, 180)
        await client.close()

    run(main())
    assert coached and coached[-1]["done"] is True
    assert {c["key"] for c in coached} == {s["key"] for s in script["steps"]}
    assert server.get(f"/api/tables/{started['table']}").json()["status"] == "over"


def test_a_move_the_step_does_not_teach_is_refused(server: Server) -> None:
    started = server.post("/api/tutorials/maumau", {}).json()

    async def main() -> None:
        client = await Client.open(server, started["table"], started["token"])
        state = await client.until(lambda m: m["type"] == "state" and m["legal"])
        assert all(a.startswith("play") for a in state["legal"])  # drawing is not taught yet
        await client.act("draw", state["version"])
        error = await client.until(lambda m: m["type"] == "error")
        assert error["code"] == "tutorial" and "play" in error["message"]
        await client.close()

    run(main())
    assert server.post("/api/tutorials/chess", {}).status_code == 404
