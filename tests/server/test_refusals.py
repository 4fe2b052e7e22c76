"""An illegal act over the websocket is refused with the game's reason code and parameters
(docs/protocol.md, the error message), so that a client words it in its own language; only
the seat that acted is told."""

from __future__ import annotations

import tiergarten

from .harness import Client, Server, is_error, is_state, run

DECK = {str(a).split()[1] for a in tiergarten.load("maumau", players=2).actions
        if str(a).startswith("play ")}


def test_an_illegal_act_carries_its_reason_code_and_parameters(server: Server) -> None:
    table = server.create(game="maumau", players=2, options={"rounds": 1}, seats=[None, None],
                          seed=8)
    (_, t0), (_, t1) = server.join(table["id"], "Ann"), server.join(table["id"], "Bob")

    async def go() -> None:
        ann, bob = await Client.open(server, table["id"], t0), await Client.open(
            server, table["id"], t1)
        first = await ann.until(is_state)
        await bob.until(is_state)
        mover, other = (ann, bob) if first["legal"] else (bob, ann)
        assert mover.state is not None
        seen = mover.state["observation"]
        version = mover.state["version"]
        absent = sorted(DECK - set(seen["hand"]) - {seen["top"]})[0]
        await mover.act(f"play {absent}", version)
        error = await mover.until(is_error)
        assert (error["code"], error["reason"], error["params"]) == (
            "illegal", "not_held", {"card": absent})
        assert error["message"].startswith(f"you do not hold {absent}")
        await other.act("draw", version)
        error = await other.until(is_error)
        assert (error["reason"], error["params"]) == ("not_to_move", {})
        await mover.act("play 7x", version)
        error = await mover.until(is_error)
        assert (error["reason"], error["params"]) == ("notation", {})
        assert not [m for m in other.received if is_error(m) and m.get("reason") != "not_to_move"]
        await ann.close()
        await bob.close()

    run(go())
