"""Answer only to this server's own names: a request whose `Host` is another is refused.

A page on another site cannot reach a server on loopback by name, but through DNS rebinding
(`evil.example` resolving to 127.0.0.1) it could, with a matching `Origin` that the cross-site
guard (csrf.py) would accept. So every HTTP request and websocket must name one of the hosts the
server was configured for: the loopback names, and the host of its public URL (`--public-url`,
or the network address in LAN mode). Refused: 421 with the names allowed (a websocket: closed
before it opens). Invite links are built from the configuration, never from a header.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
MISDIRECTED = 421  # "this server does not answer to that name" (RFC 9110)


def allowed_hosts(public_url: str | None, extra: Iterable[str] = ()) -> frozenset[str]:
    """The host names the server answers to (lowercase, no port)."""
    names = set(LOOPBACK_NAMES) | {h.lower() for h in extra}
    if public_url:
        host = urlsplit(public_url).hostname
        if host:
            names.add(host.lower())
    return frozenset(names)


def host_of(header: str) -> str:
    """The name in a `Host` header, without its port or an IPv6 address's brackets.

    >>> host_of("127.0.0.1:8000"), host_of("[::1]:80"), host_of("Games.Example.org")
    ('127.0.0.1', '::1', 'games.example.org')
    """
    return (urlsplit(f"//{header}").hostname or "").lower()


def is_allowed(host: str, allowed: frozenset[str]) -> bool:
    """Whether `host` is one of `allowed`, or a loopback address (127.0.0.0/8)."""
    if host in allowed:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class TrustedHosts:
    """ASGI middleware refusing requests and websockets addressed to a name not allowed."""

    def __init__(self, app: ASGIApp, public_url: str | None = None,
                 extra: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = allowed_hosts(public_url, extra)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            header = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), "")
            host = host_of(header)
            if not is_allowed(host, self.allowed):
                await self._refuse(scope, send, host)
                return
        await self.app(scope, receive, send)

    async def _refuse(self, scope: Scope, send: Send, host: str) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})  # refused before accepting
            return
        body = json.dumps({"detail": f"this server does not answer to the name {host!r}; it "
                                     f"answers to {', '.join(sorted(self.allowed))}"}).encode()
        await send({"type": "http.response.start", "status": MISDIRECTED,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
