"""Issue 29: a seat's token never goes in a URL (proxies log URLs). A websocket names it as a
subprotocol and a hint is asked with the token in the body; the old forms still work for one
release (docs/protocol.md, "Websocket")."""

from __future__ import annotations

import json

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from .harness import Server, run


async def greeting(server: Server, table: str, protocols: list[str] | None,
                   query: str = "") -> tuple[str | None, dict[str, object]]:
    """The subprotocol the server chose and its `hello`, or the close as a dict."""
    url = f"{server.ws_url}/ws/{table}{query}"
    async with connect(url, subprotocols=protocols) as ws:  # type: ignore[arg-type]
        try:
            hello = json.loads(await ws.recv())
            while hello["type"] == "error":
                hello = json.loads(await ws.recv())
        except ConnectionClosed as closed:
            return ws.subprotocol, {"close": closed.rcvd.code if closed.rcvd else None}
        return ws.subprotocol, hello


def test_a_token_in_the_subprotocol_seats_the_connection(server: Server) -> None:
    table = server.create(game="maumau", players=2)["id"]
    seat, token = server.join(table, "Ann")
    chosen, hello = run(greeting(server, table, ["tiergarten", f"token.{token}"]))
    assert chosen == "tiergarten" and hello["type"] == "hello" and hello["seat"] == seat
    chosen, hello = run(greeting(server, table, ["tiergarten"]))
    assert chosen == "tiergarten" and hello["seat"] is None  # a spectator
    chosen, closed = run(greeting(server, table, ["tiergarten", "token.nobody"]))
    assert closed == {"close": 4401}


def test_a_client_of_before_is_still_seated_by_the_url(server: Server) -> None:
    table = server.create(game="maumau", players=2)["id"]
    seat, token = server.join(table, "Ann")
    chosen, hello = run(greeting(server, table, None, f"?token={token}"))
    assert chosen is None and hello["seat"] == seat


def test_a_hint_is_asked_with_the_token_in_the_body(server: Server) -> None:
    table = server.create(game="mucca_pazza", players=2, seed=173)["id"]
    (_, ann), (_, bob) = server.join(table, "Ann"), server.join(table, "Bob")
    answer = server.post(f"/api/tables/{table}/hint", {"token": ann})
    assert answer.status_code == 200, answer.text
    assert answer.json() == server.get(f"/api/tables/{table}/hint?token={ann}").json()
    assert server.post(f"/api/tables/{table}/hint", {"token": "nobody"}).status_code == 403
    assert server.post(f"/api/tables/{table}/hint", {"token": bob}).status_code == 409
    assert server.post(f"/api/tables/{table}/hint", {}).status_code == 422
