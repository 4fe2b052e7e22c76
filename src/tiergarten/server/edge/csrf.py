"""Cross-site request protection: a state-changing request must come from this site.

A browser names where a request comes from (`Origin`, and `Sec-Fetch-Site` in current
browsers); a POST, PUT, PATCH or DELETE whose origin is another site is refused with 403 before
any route runs, so a page elsewhere cannot make a signed-in player's browser act for them. A
request without either header is not a browser's cross-site request (curl, the test clients,
the terminal) and passes; the session cookie is SameSite=Lax besides.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SAME_SITE = frozenset({"same-origin", "none"})  # `none`: typed in or bookmarked by the user


class CrossSiteGuard:
    """ASGI middleware refusing cross-site state-changing requests (`public` also counts as
    this site: the address invite links use, behind a proxy)."""

    def __init__(self, app: ASGIApp, public: str | None = None) -> None:
        self.app = app
        self.public = _origin(public) if public else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE:
            why = self.refusal(scope)
            if why is not None:
                await _forbid(send, why)
                return
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope) -> str | None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        site = headers.get("sec-fetch-site")
        if site is not None and site not in SAME_SITE:
            return f"a cross-site request ({site}) may not change anything here"
        origin = headers.get("origin")
        if origin is None:
            return None
        host = headers.get("host", "")
        scheme = scope.get("scheme", "http")
        if origin in (f"{scheme}://{host}", self.public) or _origin(origin) == self.public:
            return None
        if urlsplit(origin).netloc == host:  # TLS ended at a proxy: the scheme differs only
            return None
        return f"a request from {origin} may not change anything here"


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


async def _forbid(send: Send, why: str) -> None:
    body = json.dumps({"detail": why}).encode()
    await send({"type": "http.response.start", "status": 403,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
