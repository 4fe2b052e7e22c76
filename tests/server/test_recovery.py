"""Kill the server with SIGKILL in the middle of games; start it again on the same database.

Runs on SQLite and on a real PostgreSQL. Nothing committed is lost, nothing is invented, a
game between bots continues exactly as it would have without the crash, and a person resumes
the seat with the same token.
"""

from __future__ import annotations

import random

import tiergarten
from tiergarten.server.storage.sql_store import SqlStore

from .harness import Client, Server, is_state, play_until_over, run, sensible, until_over

BOTS = [{"bot": "heuristic"}, {"bot": "random"}, {"bot": "heuristic"}]


def stored(db: str, table: str) -> list[list[object]]:
    store = SqlStore(db)
    try:
        row = store.load_table(table)
        assert row is not None
        return row.record()["actions"]
    finally:
        store.close()


async def watch_until(server: Server, table: str, version: int) -> Client:
    eye = await Client.open(server, table)
    await eye.until(lambda m: is_state(m) and m["version"] >= version, 60)
    return eye


def test_sigkill_mid_game_and_restart_resumes_every_table(database: str) -> None:
    server = Server(database, "--bot-pace", "0.01", "--allow-seeds").start()
    try:
        bots = server.create(game="maumau", players=3, options={"rounds": 2}, seats=BOTS,
                             seed=99)["id"]
        people = server.create(game="maumau", players=2, options={"rounds": 1},
                               seats=[None, {"bot": "heuristic"}], seed=4)["id"]
        _, token = server.join(people, "Ann")

        async def before() -> dict[str, object]:
            ann = await Client.open(server, people, token)
            await ann.until(is_state)
            rng = random.Random(2)
            for _ in range(3):  # Ann makes three moves
                assert ann.state is not None
                if not ann.state["legal"]:
                    await ann.until(lambda m: is_state(m) and bool(m["legal"]))
                assert ann.state is not None
                version = ann.state["version"]
                await ann.act(rng.choice(ann.state["legal"]))
                await ann.until(lambda m, v=version: is_state(m) and m["version"] > v
                                or m["type"] == "error")
            eye = await watch_until(server, bots, 25)
            assert eye.state is not None and not eye.state["observation"]["over"]
            return {"ann": ann.state, "eye": eye.state}

        seen = run(before())
        server.kill()
    finally:
        server.stop()

    bots_log, people_log = stored(database, bots), stored(database, people)
    assert len(bots_log) >= 25
    killed_at = tiergarten.load("maumau", players=3, rounds=2).new_state(99)
    for seat, action in bots_log:
        killed_at.apply(seat, action)  # type: ignore[arg-type]
    assert not killed_at.is_over()  # the kill really was in the middle of the game
    restarted = Server(database, "--bot-pace", "0.01", "--allow-seeds").start()
    try:
        async def after() -> tuple[Client, Client, list[dict[str, object]]]:
            eye = await Client.open(restarted, bots)
            first = await eye.until(is_state)
            ann = await Client.open(restarted, people, token)
            again = await ann.until(is_state)
            greetings = [first, again]
            await eye.until(lambda m: m["type"] == "table" and m["status"] == "over", 60)
            await play_until_over(ann, sensible)
            return eye, ann, greetings

        eye, ann, (first, again) = run(after())
        # the first thing said after the restart is the stored log, no more and no less
        assert first["version"] >= len(bots_log) >= seen["eye"]["version"]  # type: ignore[index]
        assert again["seat"] == 0 and again["version"] >= len(people_log)
        assert again["version"] >= seen["ann"]["version"]  # type: ignore[index]

        final = restarted.get(f"/api/tables/{bots}/record").json()
        assert final["status"] == "over"
        actions = final["record"]["actions"]
        assert actions[:len(bots_log)] == bots_log
        state = tiergarten.replay(final["record"])
        assert state.is_over()
        at = tiergarten.load("maumau", players=3, rounds=2).new_state(99)
        for seat, action in actions[:first["version"]]:
            at.apply(seat, action)
        assert first["observation"] == at.observe(None)

        # the same table without a crash plays the very same game
        twin = restarted.create(game="maumau", players=3, options={"rounds": 2}, seats=BOTS,
                                seed=99)["id"]
        run(until_over(restarted, twin, 30))
        done = restarted.get(f"/api/tables/{twin}/record").json()
        assert done["record"]["actions"] == actions

        ann_final = restarted.get(f"/api/tables/{people}/record").json()
        assert ann_final["status"] == "over"
        assert ann_final["record"]["actions"][:len(people_log)] == people_log
    finally:
        restarted.stop()


def test_a_finished_game_no_process_holds_is_answered_from_the_store(tmp_path) -> None:
    """Record and replay of a finished table read the log, not the table's memory: after a
    restart (nothing finished is rebuilt) they are the same, chat included."""
    db = str(tmp_path / "t.db")
    first = Server(db, "--bot-pace", "0", "--allow-seeds").start()
    try:
        table = first.create(game="maumau", players=2, options={"rounds": 1}, seed=3,
                             seats=[{"bot": "normal"}, {"bot": "random"}])
        run(until_over(first, table["id"], 60))
        live = [first.get(f"/api/tables/{table['id']}/{what}").json()
                for what in ("record", "replay")]
    finally:
        first.stop()
    again = Server(db).start()
    try:
        stored = [again.get(f"/api/tables/{table['id']}/{what}").json()
                  for what in ("record", "replay")]
    finally:
        again.stop()
    assert stored == live
    assert stored[0]["status"] == "over" and stored[1]["steps"]
