"""Input that used to escape the checks (docs/security.md): a websocket message nested past the
parser's depth, request bodies far larger than any the API takes, and a `Host` that is not this
server's (DNS rebinding). Each gets a clear refusal and changes nothing."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from .harness import Client, Server, is_state, run


@pytest.fixture
def server(tmp_path: Path) -> Server:
    srv = Server(str(tmp_path / "tiergarten.db"), "--bot-pace", "0").start()
    yield srv  # type: ignore[misc]
    assert "Traceback" not in srv.stop()


def rss_kib(server: Server) -> int:
    assert server.proc is not None
    status = Path(f"/proc/{server.proc.pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS")))


def test_a_message_nested_past_the_parsers_depth_is_a_bad_message_and_the_line_lives(
        server: Server) -> None:
    table = server.create(game="maumau", players=2, seats=[{"bot": "random"}])

    async def nest() -> None:
        eye = await Client.open(server, table["id"])
        await eye.until(is_state)
        await eye.send("[" * 1500 + "]" * 1500)  # 3,000 bytes, well under the size limit
        error = await eye.until(lambda m: m["type"] == "error")
        assert error["code"] == "bad_message" and "nested too deeply" in error["message"]
        await eye.send({"sync": True})  # still connected, still answered
        assert is_state(await eye.until(is_state))
        await eye.close()

    run(nest())


def raw(server: Server, head: str, chunks: int = 0, chunk: bytes = b"") -> str:
    """Send a request by hand (its body in `chunks` of `chunk`, chunked if no length is
    declared) and return the status line the server answers with."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
        sock.sendall(head.encode())
        chunked = "content-length" not in head.lower()
        try:
            for _ in range(chunks):
                piece = chunk if not chunked else f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
                sock.sendall(piece)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused and closed while we were still sending: as it should
        return sock.makefile("rb").readline().decode().strip()


@pytest.mark.parametrize("path", ["/api/tables", "/api/account/login"])
def test_a_60_mb_body_is_refused_before_it_is_read(server: Server, path: str) -> None:
    before = rss_kib(server)
    declared = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
                f"\r\nContent-Length: {60 << 20}\r\n\r\n")
    assert raw(server, declared, 1, b"[" * 4096).startswith("HTTP/1.1 413")
    chunked = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
               "\r\nTransfer-Encoding: chunked\r\n\r\n")
    assert raw(server, chunked, 60 * 16, b"[" * 65536).startswith("HTTP/1.1 413")
    assert rss_kib(server) - before < 16 * 1024  # not the 120 MiB a parsed 60 MB body cost
    assert server.post("/api/tables", {"game": "maumau"}).status_code == 201  # still serving


def test_a_request_to_another_name_is_refused_and_invites_use_the_configuration(
        server: Server) -> None:
    table = server.create(game="maumau", players=2)
    evil = {"Host": "evil.example", "Origin": "http://evil.example"}
    made = server.http.post("/api/tables", json={"game": "maumau"}, headers=evil)
    assert made.status_code == 421 and "evil.example" in made.json()["detail"]
    assert server.http.get(f"/api/tables/{table['id']}/invite", headers=evil).status_code == 421
    invite = server.http.get(f"/api/tables/{table['id']}/invite",
                             headers={"Host": f"localhost:{server.port}"}).json()
    assert invite["url"] == f"http://127.0.0.1:{server.port}/#/t/{table['id']}"

    upgrade = (f"GET /ws/{table['id']} HTTP/1.1\r\nHost: evil.example\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               "Sec-WebSocket-Version: 13\r\nOrigin: http://evil.example\r\n\r\n")
    assert raw(server, upgrade).startswith("HTTP/1.1 403")  # refused before it opens


def test_the_public_url_is_a_name_the_server_answers_to(tmp_path: Path) -> None:
    server = Server(str(tmp_path / "t.db"), "--public-url", "https://games.example.org").start()
    try:
        table = server.create(game="maumau", players=2)
        shown = server.http.get(f"/api/tables/{table['id']}/invite",
                                headers={"Host": "games.example.org"})
        assert shown.status_code == 200
        assert shown.json()["url"] == f"https://games.example.org/#/t/{table['id']}"
    finally:
        server.stop()
