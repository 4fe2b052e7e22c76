"""Issue 29: deploy/Caddyfile and deploy/nginx.conf, as shipped (served over plain HTTP on
loopback: benchmarks/services.py), keep secrets and stay up: `/metrics` stays inside, no seat
token reaches a log (a client of before may still put it in the URL), one `Server` header,
HSTS, and the health check asks only whether a worker is stopping (a database or Redis blip
fails every worker at once: docs/deploy.md, "Outages")."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from benchmarks.services import Caddy, Nginx
from websockets.asyncio.client import connect

from .harness import Server, eventually, run


@pytest.fixture(scope="module")
def worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(str(tmp_path_factory.mktemp("proxied") / "tiergarten.db")).start()
    yield srv
    srv.stop()


@pytest.fixture(params=["caddy", "nginx"])
def proxy(request: pytest.FixtureRequest, worker: Server) -> Iterator[Caddy | Nginx]:
    kind = Caddy if request.param == "caddy" else Nginx
    front = kind([worker.port]).start()
    yield front
    front.stop()


def logged(front: Caddy | Nginx) -> str:
    """What the proxy has logged: Caddy's access log goes to its output, nginx's to a file."""
    files: list[Path] = [front.log] + ([front.access_log] if isinstance(front, Nginx) else [])
    return "".join(p.read_text(errors="replace") for p in files if p.exists())


def test_metrics_stay_inside_and_the_answers_carry_hsts_and_one_server_header(
        proxy: Caddy | Nginx, worker: Server) -> None:
    assert httpx.get(f"{worker.url}/metrics").status_code == 200  # for the scraper, inside
    assert httpx.get(f"{proxy.url}/metrics").status_code == 404
    page = httpx.get(f"{proxy.url}/")
    assert page.status_code == 200
    assert page.headers["strict-transport-security"] == "max-age=31536000"
    servers = page.headers.get_list("server")
    assert len(servers) <= 1 and not any("uvicorn" in s for s in servers), servers
    assert "server" not in httpx.get(f"{worker.url}/healthz").headers  # the worker sends none


def test_the_proxys_health_check_asks_only_whether_a_worker_is_stopping(
        worker: Server) -> None:
    answer = httpx.get(f"{worker.url}/readyz?only=accepting")
    assert answer.status_code == 200 and list(answer.json()["checks"]) == ["accepting"]
    assert "health_uri /readyz?only=accepting" in Path("deploy/Caddyfile").read_text()
    refused = httpx.get(f"{worker.url}/readyz?only=nothing")
    assert refused.status_code == 400 and "the checks are database" in refused.json()["detail"]


def test_no_seat_token_reaches_a_proxy_log(proxy: Caddy | Nginx, worker: Server) -> None:
    table = worker.create(game="maumau", players=2)["id"]
    (_, old), (_, new) = worker.join(table, "Ann"), worker.join(table, "Bob")

    async def connect_both() -> list[int | None]:
        seats = []
        async with connect(f"{proxy.ws_url}/ws/{table}?token={old}") as ws:  # a client of before
            seats.append((await _hello(ws))["seat"])
        async with connect(f"{proxy.ws_url}/ws/{table}",
                           subprotocols=["tiergarten", f"token.{new}"]) as ws:  # type: ignore[list-item]
            seats.append((await _hello(ws))["seat"])
        return seats

    assert run(connect_both()) == [0, 1]
    httpx.post(f"{proxy.url}/api/tables/{table}/hint", json={"token": new})
    httpx.get(f"{proxy.url}/api/tables/{table}/hint?token={old}")
    eventually(lambda: logged(proxy).count(f"/ws/{table}") >= 2, 10, "the proxy logged both")
    text = logged(proxy)
    assert old not in text and new not in text


async def _hello(ws: object) -> dict[str, object]:
    import json

    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))  # type: ignore[attr-defined]
        if message["type"] == "hello":
            return message  # type: ignore[no-any-return]
