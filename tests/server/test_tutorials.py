"""Every tutorial through a real server: a real table from its fixed seed, the coach's steps
allow only the move they teach (others are refused, saying which are), then the game is
finished freely against the gentle bots."""

from __future__ import annotations

from collections import Counter
from typing import Any

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
        if script["game"] == "lecker_mammut":  # a learner doing what the coach says
            return lecker_move(state["observation"], [str(a) for a in legal])  # type: ignore[arg-type]
        return str(legal[0])

    async def main() -> None:
        client = await Client.open(server, started["table"], started["token"])
        state = await client.until(lambda m: m["type"] == "state")
        first = state["coach"]
        assert first["step"] == 0
        assert first["key"] in (script["steps"][0]["key"], *script["steps"][0].get("same", ())[1:])
        await play_until_over(client, choose, 180)
        await client.close()

    run(main())
    assert coached and coached[-1]["done"] is True
    said = {c["key"] for c in coached}
    for step in script["steps"]:  # each step said (in its own words, or in those of `same`)
        assert step["key"] in said or ("same" in step and step["same"][1] in said), step
    assert said <= {k for s in script["steps"] for k in (s["key"], *s.get("same", ())[1:])}
    assert server.get(f"/api/tables/{started['table']}").json()["status"] == "over"


def lecker_move(obs: dict[str, Any], legal: list[str]) -> str:
    """Hit a feature three visible cards show, else lay a top, flip, pass: what the coach asks."""
    shown = obs["middle"] + [p["top"] for piles in obs["prize_piles"] for p in piles]
    counts = Counter(f for card in shown for f in card.split("-"))
    for act in legal:
        if act.startswith("top ") or (act.startswith("hit ") and counts[act[4:]] >= 3):
            return act
    return next((a for a in ("flip", "pass") if a in legal), legal[0])


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
