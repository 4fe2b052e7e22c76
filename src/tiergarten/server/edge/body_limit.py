"""Request bodies are capped before they are read: a larger one is refused with 413.

Without a cap a body is read and parsed whole before any validation (a 60 MB JSON body to
`/api/tables` or `/api/account/login` cost 120 MiB of memory per request). A declared
`Content-Length` above the cap is refused at once, unread; a body sent in chunks is read here,
counted as it arrives and refused as soon as it passes the cap — the API's bodies are small, so
the route then reads the body kept here.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 64 * 1024  # bytes: the largest request body the API takes (a claim of 200 seats)


class BodyLimit:
    """ASGI middleware: at most `limit` bytes of request body."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = next((v for k, v in scope["headers"] if k == b"content-length"), None)
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(send)
            return
        body, last = bytearray(), None
        while last is None:
            message = await receive()
            if message["type"] != "http.request":
                last = message  # the client went away: the route hears so
                break
            body += message.get("body", b"")
            if len(body) > self.limit:
                await self._refuse(send)
                return
            if not message.get("more_body", False):
                last = {"type": "http.request", "body": bytes(body), "more_body": False}
        kept: list[Message] = [last]

        async def replay() -> Message:
            return kept.pop() if kept else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"detail": f"a request body may have at most {self.limit} bytes",
                           "code": "too_large", "params": {"limit": self.limit}})
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body.encode()})
