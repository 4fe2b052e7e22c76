"""The bots' clock runs at 1/bot_pace of real time: a move a bot fired is due by its own
reckoning, so it never fires the same plan twice (at pace 0 the clock moves by the moves)."""

from __future__ import annotations

import itertools

from .harness import Client, Server, run


def test_a_lecker_mammut_bot_never_repeats_a_hit_it_has_made(server: Server) -> None:
    bots = [{"bot": "slow"}, {"bot": "normal"}, {"bot": "fast"}]
    table = server.create(game="lecker_mammut", players=3, seats=bots, seed=7,
                          options={"rounds": 1})

    async def watch() -> None:
        eye = await Client.open(server, table["id"])
        await eye.until(lambda m: m["type"] == "table" and m["status"] == "over", 90)
        await eye.close()

    run(watch())
    actions = server.get(f"/api/tables/{table['id']}/record").json()["record"]["actions"]
    hits = [(seat, act) for seat, act in actions if act.startswith("hit ")]
    assert hits, "three bots played a whole round without a single hit"
    repeats = [pair for pair, run in itertools.groupby(actions) if pair[1].startswith("hit ")
               and len(list(run)) > 1]
    assert repeats == [], f"a bot repeated the hit it had just made: {repeats}"
