"""Around every request and websocket, outside everything else: its id, its table, its
metrics, and what happens when it fails.

`Observed` wraps every route and middleware but the security headers and Starlette's own
error handling, which so never see an exception (server/app.py):

- **request id**: the `X-Request-ID` the proxy sent (letters, digits and `._:-`, at most 128),
  else one made here (16 hex digits), put in the request's headers for the routes (and a
  request forwarded to another worker carries it on) and in every answer's `X-Request-ID`;
  every log line written while the request runs names it (`request_id`), and the table its
  path names (`/api/tables/{id}...`, `/ws/{id}`) as `table`;
- **metrics**: `tiergarten_http_requests_total{method, route, status}` and
  `tiergarten_http_request_duration_seconds{method, route}`, by route template
  (`/api/tables/{table_id}/join`, never the raw path: one series per route, not per table);
  a request forwarded by another worker is counted there, not again here;
- **failures**: an exception that escapes the app is logged once (with its traceback, the
  request id and the table) and counted (`tiergarten_server_errors_total{kind=
  "request_exception"}`); the client gets a 500 (a websocket close 1011) and the exception
  goes no further, so neither Starlette nor uvicorn logs it a second time. Any other answer
  of 500 or more counts as `http_5xx`, but for `/readyz` saying "not ready" (`PROBES`).
"""

from __future__ import annotations

import contextlib
import logging
import re
import secrets
import time
from typing import Any

import orjson
from starlette.routing import Match, Router
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .logs import REQUEST_ID, TABLE_ID, count_once
from .metrics import HTTP_REQUESTS, HTTP_SECONDS, SERVER_ERRORS

log = logging.getLogger("tiergarten.server")

HEADER = b"x-request-id"
GIVEN = re.compile(rb"^[A-Za-z0-9._:-]{1,128}$")
TABLE = re.compile(r"^/(?:ws|api/tables)/([A-Za-z0-9_-]{1,40})(?:/|$)")
INTERNAL_ERROR = 1011  # websocket close code: the server met an error
# a 503 of readiness says "not ready" (the database or Redis away, a graceful stop): the
# answer is its job, not an error of the server (what is away has its own gauge)
PROBES = frozenset({"/readyz"})


def new_request_id() -> str:
    return secrets.token_hex(8)


class Observed:
    """The app with request ids, request metrics and a last word on failures."""

    def __init__(self, app: ASGIApp, router: Router) -> None:
        self.app, self.router = app, router

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = _given(scope)
        if request_id is None:
            request_id = new_request_id()
            scope["headers"] = [*scope.get("headers", []), (HEADER, request_id.encode())]
        found = TABLE.match(scope.get("path", ""))
        tokens = (REQUEST_ID.set(request_id), TABLE_ID.set(found.group(1) if found else None))
        http = scope["type"] == "http"
        said: dict[str, Any] = {"status": None, "closed": False}
        started = time.perf_counter()

        async def sending(message: Message) -> None:
            kind = message["type"]
            if kind == "http.response.start":
                said["status"] = message["status"]
                message["headers"] = [*(h for h in message.get("headers", [])
                                        if h[0].lower() != HEADER),
                                      (HEADER, request_id.encode())]
            elif kind == "websocket.close":
                said["closed"] = True
            elif kind == "websocket.http.response.start":
                said["status"] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:  # the last word: logged and counted once, answered
            log.error("%s %s failed: %s: %s", scope.get("method", "WEBSOCKET"),
                      scope.get("path", ""), type(exc).__name__, exc, exc_info=exc,
                      extra=count_once("request_exception"))
            await _answer_failure(sending, http, said)
            if http:
                said["status"] = said["status"] or 500
        else:
            if http and (said["status"] or 0) >= 500 and self.route(scope) not in PROBES:
                SERVER_ERRORS.labels(kind="http_5xx").inc()
        finally:
            for var, token in zip((REQUEST_ID, TABLE_ID), tokens, strict=True):
                var.reset(token)
            if http and not scope.get("forwarded"):
                route = self.route(scope)
                method = scope.get("method", "GET")
                HTTP_REQUESTS.labels(method=method, route=route,
                                     status=str(said["status"] or 500)).inc()
                HTTP_SECONDS.labels(method=method, route=route).observe(
                    time.perf_counter() - started)

    def route(self, scope: Scope) -> str:
        """The route template that answered (or would have: a request another worker
        answered never reached this one's router); `static` for the web client's files,
        `unmatched` for a path no route has."""
        route = scope.get("route")
        if route is None:
            probe = {**scope, "type": "http"}
            route = next((r for r in self.router.routes if r.matches(probe)[0] == Match.FULL),
                         None)
        path = getattr(route, "path", None)
        if route is None or path is None:
            return "unmatched"
        return path or "static"


def _given(scope: Scope) -> str | None:
    for name, value in scope.get("headers", []):
        if name.lower() == HEADER:
            return value.decode("ascii") if GIVEN.match(value) else None
    return None


async def _answer_failure(send: Send, http: bool, said: dict[str, Any]) -> None:
    """A 500 (or a websocket's close 1011), if the client was not answered yet."""
    with contextlib.suppress(Exception):  # the client is gone: nothing left to tell it
        if http and said["status"] is None:
            body = orjson.dumps({"detail": "internal error", "code": "server_error",
                                 "params": {}, "request_id": REQUEST_ID.get()})
            await send({"type": "http.response.start", "status": 500,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
        elif not http and not said["closed"]:
            await send({"type": "websocket.close", "code": INTERNAL_ERROR,
                        "reason": "the server met an error"})
