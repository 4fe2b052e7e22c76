"""`tiergarten backup` while the server plays, and `tiergarten restore`: a server started on the
restored database resumes every table — the backup's log exactly, bots playing on as they would
have, a person back in their seat with their token."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from typer.testing import CliRunner

import tiergarten
from tiergarten.cli import app
from tiergarten.server.storage.sql_store import SqlStore

from .harness import Client, Server, is_state, play_until_over, run, sensible
from .test_outage import finished
from .test_recovery import BOTS, stored


def tiergarten_command(*args: str) -> Any:
    """`tiergarten ARGS...` in-process (its exit_code and output)."""
    return CliRunner().invoke(app, list(args))


def test_a_backup_made_while_playing_is_restored_and_every_table_resumes(tmp_path: Path) -> None:
    live, copy = tmp_path / "live.db", tmp_path / "backup.db"
    server = Server(str(live), "--bot-pace", "0.02", "--allow-seeds").start()
    try:
        bots = server.create(game="maumau", players=3, options={"rounds": 2}, seats=BOTS,
                             seed=99)["id"]
        people = server.create(game="maumau", players=2, options={"rounds": 1},
                               seats=[None, {"bot": "heuristic"}], seed=4)["id"]
        _, token = server.join(people, "Ann")

        async def before() -> None:
            ann = await Client.open(server, people, token)
            state = await ann.until(lambda m: is_state(m) and bool(m["legal"]))
            await ann.act(state["legal"][0])
            await ann.until(lambda m: is_state(m) and m["version"] > state["version"])
            eye = await Client.open(server, bots)
            await eye.until(lambda m: is_state(m) and m["version"] >= 10, 60)

        run(before())
        made = tiergarten_command("backup", str(copy), "--db", str(live))  # while it plays
        assert made.exit_code == 0, made.output
        assert "backed up 2 tables (2 not finished)" in made.output and str(copy) in made.output
        again = tiergarten_command("backup", str(copy), "--db", str(live))
        assert again.exit_code == 2 and "exists already" in again.output
    finally:
        assert "Traceback" not in server.stop()
    backed_up = {table: stored(str(copy), table) for table in (bots, people)}
    assert len(backed_up[bots]) >= 10 and len(backed_up[people]) >= 1
    assert stored(str(live), bots)[:len(backed_up[bots])] == backed_up[bots]  # a prefix

    restored = tmp_path / "restored.db"
    put = tiergarten_command("restore", str(copy), "--db", str(restored))
    assert put.exit_code == 0 and "restored 2 tables" in put.output, put.output
    server = Server(str(restored), "--bot-pace", "0.02", "--allow-seeds").start()
    try:
        async def after() -> dict[str, object]:
            eye = await Client.open(server, bots)
            first = await eye.until(is_state)
            ann = await Client.open(server, people, token)  # the same token
            resumed = await ann.until(is_state)
            await play_until_over(ann, sensible)
            return {"bots": first["version"], "ann": resumed}

        seen = run(after())
        assert seen["bots"] >= len(backed_up[bots])
        assert seen["ann"]["seat"] == 0 and seen["ann"]["version"] >= len(  # type: ignore[index]
            backed_up[people])
        actions = finished(server, bots)
        assert actions[:len(backed_up[bots])] == backed_up[bots]
        twin = finished(server, server.create(game="maumau", players=3, options={"rounds": 2},
                                              seats=BOTS, seed=99)["id"])
        assert actions == twin  # played on exactly as it would have without the backup
        record = server.get(f"/api/tables/{people}/record").json()
        assert record["status"] == "over" and tiergarten.replay(record["record"]).is_over()
    finally:
        assert "Traceback" not in server.stop()


def test_backup_and_restore_refuse_what_they_cannot_do(tmp_path: Path) -> None:
    store = SqlStore(tmp_path / "t.db")
    store.close()
    (tmp_path / "junk.db").write_bytes(b"")
    cases = [
        (("backup", str(tmp_path / "b.db"), "--db", str(tmp_path / "none.db")),
         "there is no database at"),
        (("backup", str(tmp_path / "b.db"), "--db", "postgresql://u@h/d"), "pg_dump"),
        (("restore", str(tmp_path / "b.db"), "--db", "postgresql://u@h/d"), "pg_restore"),
        (("restore", str(tmp_path / "none.db"), "--db", str(tmp_path / "x.db")),
         "there is no backup at"),
        (("restore", str(tmp_path / "junk.db"), "--db", str(tmp_path / "x.db")),
         "is not a tiergarten database"),
    ]
    for args, says in cases:
        done = tiergarten_command(*args)
        assert done.exit_code == 2 and says in done.output, (args, done.output)
    assert not (tmp_path / "b.db").exists() and not (tmp_path / "none.db").exists()
    ok = tiergarten_command("backup", str(tmp_path / "b.db"), "--db", str(tmp_path / "t.db"))
    assert ok.exit_code == 0 and "backed up 0 tables" in ok.output, ok.output
