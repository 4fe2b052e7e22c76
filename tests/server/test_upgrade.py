"""An upgrade never loses a game: databases written by the real releases 0.1.0 (d3755b4) and
0.2.0 (4cf5905) — tests/data/upgrade/, made by its build.py from the git history — are opened
by this release on SQLite and on PostgreSQL (restored from the same rows). Every answer the
old server gave is given again (tables, records, replays, the lobby, profiles, leaderboards);
every stored table replays (`tiergarten records check`); every unfinished table resumes under
its own rules version and plays to the end; the ratings rebuild to the same numbers.

What this release adds to an answer is allowed (a new key such as `rules`); what the old one
said must be said the same. The changes since that are not rules changes are undone before
comparing, each named in `CHANGED` (CHANGELOG.md names them too).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from benchmarks.pgtemp import Postgres
from sqlalchemy import MetaData, create_engine, insert, select, text

from tiergarten.server.storage import migrate
from tiergarten.server.storage.sql_store import database_url

from .harness import SRC, Server, run, until_over
from .test_migrations import old_schema

DATA = Path(__file__).resolve().parents[1] / "data" / "upgrade"
RELEASES = ("d3755b4", "4cf5905")
# each game's rules version in each release: what its tables resume under
RULES = {"d3755b4": {"maumau": 1, "mammuz": 1, "mucca_pazza": 1, "lecker_mammut": 1},
         "4cf5905": {"maumau": 2, "mammuz": 2, "mucca_pazza": 2, "lecker_mammut": 1}}
# What changed in the answers since a release without being a rules change (CHANGELOG.md):
# 0.2.0 ordered Lecker Mammut!'s to_move with the awaited seat first (as a set the same) and
# cleared the last turn from a finished Mucca Pazza game's final observation.
SORTED_TO_MOVE = {"d3755b4": {"lecker_mammut"}}
# Since 0.3.0 (Unreleased) Lecker Mammut!'s bots have a new ladder of speeds (issue 34): its
# leaderboard shows the bots' ratings as calibrated now (server/players/bot_ratings.json), the
# people's as they were.
RECALIBRATED = ("/api/leaderboard/lecker_mammut",)
STALE_AT_END = {"d3755b4": {"mucca_pazza": ("slides_left", "slides_made", "target", "targets",
                                            "final_left")}}


def served(release: str) -> dict[str, Any]:
    """What the old server answered for each path, as a restarted old server would."""
    data = json.loads(gzip.decompress((DATA / release / "served.json.gz").read_bytes()))
    return {**data["answers"], **data["after_restart"]}


def manifest(release: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((DATA / release / "manifest.json").read_text())
    return loaded


# -- the old database, on each backend ---------------------------------------------------------

def restore(release: str, backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A copy of the release's database: the SQLite file, or its rows in a new PostgreSQL
    database under the schema that release made there (before Alembic: the old DDL; 0.2.0:
    the migrations up to 0004)."""
    sqlite = tmp_path / "old.db"
    shutil.copyfile(DATA / release / "tiergarten.db", sqlite)
    if backend == "sqlite":
        return str(sqlite)
    pg: Postgres = request.getfixturevalue("postgres")
    url = pg.new_database()
    target = create_engine(database_url(url))
    if release == "d3755b4":
        old_schema().create_all(target)
    else:
        migrate.upgrade(target, "0004")
    source = create_engine(database_url(str(sqlite)))
    have, want = MetaData(), MetaData()
    have.reflect(source)
    want.reflect(target)
    with source.connect() as old, target.begin() as new:
        for table in want.sorted_tables:
            if table.name == "alembic_version" or table.name not in have.tables:
                continue
            rows = [{k: _utc(v) for k, v in row._mapping.items()}
                    for row in old.execute(select(have.tables[table.name]))]
            new.execute(table.delete())  # a restore replaces what the migrations made (the key)
            if rows:
                new.execute(insert(table), rows)
            if "id" in table.c and table.c.id.autoincrement is True and rows:
                new.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                                 f"(SELECT max(id) FROM {table.name}))"))
    source.dispose()
    target.dispose()
    return url


def _utc(value: Any) -> Any:
    """SQLite keeps times in UTC without their zone."""
    if isinstance(value, dt.datetime) and value.tzinfo is None:
        return value.replace(tzinfo=dt.UTC)
    return value


# -- comparing answers -------------------------------------------------------------------------

def same(release: str, game: str | None, old: Any, new: Any, where: str = "") -> list[str]:
    """Where `new` does not say what `old` said (new keys are allowed); empty if it does."""
    if isinstance(old, dict) and isinstance(new, dict):
        game = old.get("game", game) if isinstance(old.get("game"), str) else game
        out = []
        for key, value in old.items():
            if key == "format" and "seed" in old:
                continue  # records are format 2 now: they name their rules version
            if key not in new:
                out.append(f"{where}/{key}: gone")
                continue
            then, now = value, new[key]
            if key == "created":
                then, now = _instant(then), _instant(now)
            elif key == "to_move" and game in SORTED_TO_MOVE.get(release, ()):
                then, now = sorted(then), sorted(now)
            out += same(release, game, then, now, f"{where}/{key}")
        return out
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return [f"{where}: {len(old)} entries then, {len(new)} now"]
        return [d for i, (a, b) in enumerate(zip(old, new, strict=True))
                for d in same(release, game, a, b, f"{where}[{i}]")]
    return [] if old == new else [f"{where}: {old!r} then, {new!r} now"]


def _instant(moment: Any) -> Any:
    """An ISO time as an instant (a table read back from SQLite shows it without its zone)."""
    if not isinstance(moment, str):
        return moment
    parsed = dt.datetime.fromisoformat(moment)
    return _utc(parsed).astimezone(dt.UTC)


def without_stale_end(release: str, body: Any) -> Any:
    """A replay with the final position's turn fields dropped where the release left them."""
    stale = STALE_AT_END.get(release, {}).get(body.get("game"), ()) if isinstance(
        body, dict) else ()
    if not stale or "steps" not in body:
        return body
    last = json.loads(json.dumps(body["steps"][-1]))
    for obs in [last.get("view") or {}, *(last.get("seats") or [])]:
        for key in stale:
            obs.pop(key, None)
    return {**body, "steps": [*body["steps"][:-1], last]}


def without_bot_ratings(path: str, body: Any) -> Any:
    """A leaderboard without its bots' ratings where they were calibrated again since."""
    if path not in RECALIBRATED or not isinstance(body, dict):
        return body
    return {**body, "bots": [{k: v for k, v in bot.items() if k != "rating"}
                             for bot in body.get("bots", [])]}


def check_answers(release: str, server: Server) -> None:
    """Every answer of the old server is given again."""
    differ = {}
    for path, then in served(release).items():
        now = server.get(path)
        if now.status_code != then["status"]:
            differ[path] = [f"status {then['status']} then, {now.status_code} now: {now.text}"]
            continue
        found = same(release, None,
                     without_stale_end(release, without_bot_ratings(path, then["body"])),
                     without_stale_end(release, without_bot_ratings(path, now.json())))
        if found:
            differ[path] = found[:5]
    assert not differ, json.dumps(differ, indent=1, ensure_ascii=False)


# -- the upgrade -------------------------------------------------------------------------------

def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tiergarten.cli", *args], capture_output=True,
                          text=True, timeout=300, env={"PYTHONPATH": str(SRC), "COLUMNS": "100"})


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
@pytest.mark.parametrize("release", RELEASES)
def test_a_database_of_an_earlier_release_is_served_as_it_was_and_plays_on(
        release: str, backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    db = restore(release, backend, tmp_path, request)
    tables = manifest(release)["tables"]
    checked = cli("records", "check", "--db", db)  # migrates it, as the first worker would
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"every one of the {len(tables)} tables replays" in checked.stdout

    # --unlisted-after 0: the lobby lists an open table nobody has visited lately, as the
    # release did (now they are left out after two minutes, on purpose: CHANGELOG.md)
    server = Server(db, "--bot-pace", "0", "--away-after", "1000000",
                    "--unlisted-after", "0").start()
    try:
        check_answers(release, server)
        for table in tables:
            info = server.get(f"/api/tables/{table['id']}").json()
            assert info["rules"] == RULES[release][table["game"]], table["name"]
    finally:
        assert "Traceback" not in server.stop()

    # the people of the unfinished tables stay away: stand-ins play each game to the end
    server = Server(db, "--bot-pace", "0", "--away-after", "0").start()
    try:
        unfinished = [t["id"] for t in tables if t["status"] == "playing"]

        async def all_over() -> None:
            await asyncio.gather(*(until_over(server, t, 120) for t in unfinished))

        run(all_over())
        assert all(server.get(f"/api/tables/{t}").json()["status"] == "over"
                   for t in unfinished), "not played to the end"
        for table in tables:
            if table["status"] == "playing":
                replay = server.get(f"/api/tables/{table['id']}/replay").json()
                assert len(replay["steps"]) > table["version"] + 1  # the old moves, and more
    finally:
        assert "Traceback" not in server.stop()

    rebuilt = cli("ratings", "rebuild", "--db", db)
    assert rebuilt.returncode == 0, rebuilt.stderr
    server = Server(db).start()
    try:
        for path, then in served(release).items():
            if path.startswith(("/api/players/", "/api/leaderboard/")):
                now = server.get(path)
                assert now.status_code == then["status"]
                assert not same(release, None, without_bot_ratings(path, then["body"]),
                                without_bot_ratings(path, now.json())), path
    finally:
        server.stop()
