"""The app under uvicorn in a thread: the browser client is served at / when its folder exists."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tiergarten.server.app import create_app

from .harness import free_port, in_a_thread


@contextmanager
def running(db: Path, web: Path) -> Iterator[httpx.Client]:
    port = free_port()
    with in_a_thread(create_app(db, web=web), port), httpx.Client(
            base_url=f"http://127.0.0.1:{port}", trust_env=False) as client:
        yield client


def test_the_web_folder_is_served_at_the_root_when_present(tmp_path: Path) -> None:
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<h1>tiergarten</h1>")
    (web / "app.js").write_text("export const x = 1;")
    with running(tmp_path / "a.db", web) as client:
        assert client.get("/").text == "<h1>tiergarten</h1>"
        assert "javascript" in client.get("/app.js").headers["content-type"]
        assert client.get("/api/health").json() == {"ok": True, "protocol": 1}
        assert client.post("/api/tables", json={"game": "maumau"}).status_code == 201


def test_without_a_web_folder_only_the_api_answers(tmp_path: Path) -> None:
    with running(tmp_path / "b.db", tmp_path / "missing") as client:
        assert client.get("/").status_code == 404
        assert client.get("/api/health").status_code == 200
