"""What the server gives the offline client (server/offline.py, routes/offline.py) and takes
from it (routes/uploads.py): the engine zip built from the sources, the files the service
worker keeps, the worker's own policy, and a game played on a device joining a player's
history, replayed to check and never rated."""

from __future__ import annotations

import io
import random
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import tiergarten
from tiergarten.server import create_app
from tiergarten.server.edge.headers import POLICY, WORKER_POLICY


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path_factory.mktemp("o") / "o.db"),
                    base_url="http://127.0.0.1") as client:
        yield client


def test_the_engine_zip_is_built_from_the_sources_and_runs_on_the_standard_library_alone(
        api: TestClient, tmp_path: Path) -> None:
    manifest = api.get("/offline/manifest.json").json()
    assert manifest["engine"].startswith("offline/engine-")
    response = api.get("/" + manifest["engine"])
    assert response.status_code == 200 and "immutable" in response.headers["cache-control"]
    names = zipfile.ZipFile(io.BytesIO(response.content)).namelist()
    assert "tiergarten/offline/table.py" in names and "tiergarten/bots/mammuz.py" in names
    assert not any(n.startswith(("tiergarten/server", "tiergarten/web")) for n in names)
    (tmp_path / "engine.zip").write_bytes(response.content)
    # -I -S: no site-packages, no PYTHONPATH: only the zip and the standard library
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import json, tiergarten.offline as o;"
            "print(len(json.loads(o.LocalServer(None).request('GET', '/api/games'))['data']))")
    ran = subprocess.run([sys.executable, "-I", "-S", "-c", code, str(tmp_path / "engine.zip")],
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert int(ran.stdout) == len(tiergarten.games())
    assert api.get("/offline/engine-0000.zip").status_code == 404


def test_the_manifest_lists_the_client_and_the_worker_alone_may_compile_wasm(
        api: TestClient) -> None:
    manifest = api.get("/offline/manifest.json")
    assert manifest.headers["cache-control"] == "no-cache"
    files = manifest.json()["files"]
    for part in ("./", "js/app.js", "js/offline/worker.js", "manifest.webmanifest",
                 "icons/icon-192.png", "games/maumau/board.js", "i18n/it.json"):
        assert part in files
    assert "sw.js" not in files and not any(f.endswith(".map") for f in files)
    assert api.get("/js/offline/worker.js").headers["content-security-policy"] == WORKER_POLICY
    assert "'wasm-unsafe-eval'" in WORKER_POLICY and "'unsafe-eval'" not in WORKER_POLICY
    assert api.get("/js/app.js").headers["content-security-policy"] == POLICY
    assert api.get("/manifest.webmanifest").headers["content-type"].startswith(
        "application/manifest+json")


def finished_record(seed: int) -> dict[str, Any]:
    state = tiergarten.load("maumau", 2, rounds=1).new_state(seed)
    rng = random.Random(seed)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state.record()


def test_an_uploaded_game_joins_the_history_replayed_and_unrated(api: TestClient) -> None:
    record = finished_record(4)
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "easy"}]
    body = {"record": record, "seat": 0, "seats": seats}
    assert api.post("/api/records", json=body).status_code == 401  # a guest has no history
    assert api.post("/api/account/signup", json={"name": "Uploader", "password": "pass word 1"}
                    ).status_code == 201
    first = api.post("/api/records", json=body)
    assert first.status_code == 201 and first.json()["rated"] is False
    again = api.post("/api/records", json=body)
    assert again.json()["table"] == first.json()["table"]  # the same game once
    table = first.json()["table"]
    assert api.get(f"/api/tables/{table}/record").json()["record"]["actions"] == record["actions"]
    profile = api.get("/api/players/Uploader").json()
    assert profile["played"] == 1 and profile["ratings"] == []
    assert [g["rated"] for g in profile["recent"]] == [False]
    # a record that does not replay, or not to its end, is refused
    broken = {**record, "actions": [[0, "play Zz"], *record["actions"]]}
    assert api.post("/api/records", json={**body, "record": broken}).status_code == 400
    short = {**record, "actions": record["actions"][:3]}
    assert "not over" in api.post("/api/records", json={**body, "record": short}).text
    assert api.post("/api/records", json={**body, "seat": 1}).status_code == 400  # a bot's
