"""REST across workers: a request about a table owned by another worker is run there.

`ForwardMiddleware` looks at every HTTP request to `/api/tables/{id}...`. If this worker owns
the table (or takes its free lease now) the request goes on to the routes as in one process;
if another worker owns it, the request (method, path, query, body, the headers that matter)
is sent to the owner over the bus (`Requests.send`: an `H` frame), run there through the
owner's own app (`Requests.serve`, `call_app`), and its answer (an `R` frame) returned as it
is. So the routes stay what they are. `GET /api/tables` (the lobby) lists the open tables of
every worker, from the store.

A request about a lab run, `/api/lab/runs/{id}...`, is run where the run is played: here if
this worker has it, else at the worker `LabRuns.owner` names (labruns.py), the same way; a run
whose worker is gone is unknown here too (404). The owner's routes see the address the request
came from (the frame carries it), so a run started without an account is still its starter's.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson
import redis

from ..edge.writer import text
from .bus import Bus

log = logging.getLogger("tiergarten.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

HTTP, REPLY = b"H", b"R"  # a request for a table's owner; its answer
# What a Redis that went away raises (a refused or cut connection, a time-out)
REDIS_DOWN: tuple[type[Exception], ...] = (redis.RedisError, OSError, TimeoutError)
AWAY = "the servers cannot reach each other just now (Redis); try again shortly"
Answer = tuple[int, list[tuple[str, str]], bytes]  # status, headers, body
JSON = [("content-type", "application/json")]
TABLE_PATH = re.compile(r"^/api/tables/([A-Za-z0-9_-]{1,40})(?:/|$)")
LAB_PATH = re.compile(r"^/api/lab/runs/([A-Za-z0-9_-]{1,40})(?:/|$)")
# what the owner's routes may read: the body's type, the answer wanted, the player's session
KEPT_HEADERS = {b"content-type", b"accept", b"accept-encoding", b"accept-language", b"cookie",
                b"authorization", b"host", b"origin", b"x-forwarded-for",
                b"x-forwarded-proto", b"x-request-id"}


class ForwardMiddleware:
    """Sends requests about another worker's table to that worker (see the module doc)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        cluster = None
        if scope["type"] == "http":
            cluster = getattr(scope["app"].state, "cluster", None) if "app" in scope else None
        if cluster is None or scope.get("forwarded"):
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        if path == "/api/tables" and scope["method"] == "GET":
            await _answer(send, 200, [(b"content-type", b"application/json")],
                          text(list(await cluster.lobby.open_tables())).encode())
            return
        match = TABLE_PATH.match(path)
        lab_run = LAB_PATH.match(path)
        if match is None and lab_run is None:
            await self.app(scope, receive, send)
            return
        try:
            if lab_run is not None:
                owner = await _lab_owner(scope, cluster, lab_run.group(1))
            else:
                assert match is not None
                owner = await cluster.place(match.group(1))
        except RuntimeError as exc:  # nobody runs it now (moving between workers)
            await _answer(send, 503, [(b"content-type", b"application/json"),
                                      (b"retry-after", b"1")],
                          orjson.dumps({"detail": str(exc)}))
            return
        except REDIS_DOWN:  # Redis away: who owns it?
            await _answer(send, 503, [(b"content-type", b"application/json"),
                                      (b"retry-after", b"1")], orjson.dumps({"detail": AWAY}))
            return
        if owner is None:
            await self.app(scope, receive, send)
            return
        body = await _body(receive)
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in scope["headers"]
                   if k in KEPT_HEADERS]
        client = scope.get("client")
        status, out_headers, out = await cluster.requests.send(
            owner, scope["method"], path, scope.get("query_string", b"").decode("latin-1"),
            headers, body, client[0] if client else None)
        await _answer(send, status, [(k.encode("latin-1"), v.encode("latin-1"))
                                     for k, v in out_headers], out)


async def _lab_owner(scope: Scope, cluster: Any, run_id: str) -> str | None:
    """Where a lab run is played: None here (or nowhere: the routes say 404), else the
    worker's id. Raises when Redis does not answer about another worker's run."""
    lab = getattr(scope["app"].state, "lab", None)
    if lab is not None and lab.get(run_id) is not None:
        return None
    owner: str | None = await cluster.lab_runs.owner(run_id)
    return None if owner == cluster.me else owner


class Unavailable(RuntimeError):
    """Nobody owns the table and this worker may not take it now (it is stopping)."""


class Requests:
    """REST between workers: requests this worker sends to tables' owners and their answers,
    and requests other workers send here. `place(table_id)` says where a table is now (None:
    here; else its owner's id; Unavailable: nowhere now); `app` runs a request here."""

    def __init__(self, bus: Bus, timeout: float,
                 place: Callable[[str], Awaitable[str | None]]) -> None:
        self.bus, self.timeout, self.place = bus, timeout, place
        self.app: ASGIApp | None = None
        self._replies: dict[int, asyncio.Future[Answer]] = {}
        self._ids = itertools.count(1)

    async def answers(self, worker: str, within: float = 1.0) -> bool:
        """Whether `worker` answers over the bus now (anything to a `/healthz`, within
        `within` seconds)."""
        return await self._ask(worker, "GET", "/healthz", "", [("host", "127.0.0.1")], b"",
                               None, within) is not None

    async def send(self, owner: str, method: str, path: str, query: str,
                   headers: list[tuple[str, str]], body: bytes,
                   client: str | None = None) -> Answer:
        """Run a request at the worker `owner` (`client`: the address it came from); its
        answer (503 if none comes within the setting `rpc_timeout`)."""
        answer = await self._ask(owner, method, path, query, headers, body, client,
                                 self.timeout)
        return answer if answer is not None else (503, JSON, (
            b'{"detail": "the server that holds this table or lab run did not answer; try '
            b'again"}'))

    async def _ask(self, owner: str, method: str, path: str, query: str,
                   headers: list[tuple[str, str]], body: bytes, client: str | None,
                   timeout: float) -> Answer | None:
        request_id = next(self._ids)
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._replies[request_id] = future
        self.bus.send(owner, HTTP, {"id": request_id, "w": self.bus.worker_id, "m": method,
                                    "p": path, "q": query, "h": headers, "c": client}, body)
        try:
            status, out_headers, out = await asyncio.wait_for(future, timeout)
            return status, [(k, v) for k, v in out_headers], out
        except TimeoutError:
            return None
        finally:
            self._replies.pop(request_id, None)

    def replied(self, header: dict[str, Any], body: bytes) -> None:
        future = self._replies.get(header["id"])
        if future is not None and not future.done():
            future.set_result((header["s"], header["h"], body))

    async def serve(self, header: dict[str, Any], body: bytes) -> None:
        """Run a request another worker forwarded. The table may have left this worker
        meanwhile (over and forgotten, its lease just released): it is placed again first,
        here or, one hop further, at its new owner."""
        if self.app is None:
            return
        args = (header["m"], header["p"], header["q"], header["h"], body)
        client = header.get("c")
        match = TABLE_PATH.match(header["p"])
        try:
            placed = None if match is None else await self.place(match.group(1))
            if placed is None:
                status, headers, out = await call_app(self.app, *args, client=client)
            elif placed != header["w"]:
                status, headers, out = await self.send(placed, *args, client)
            else:
                status, headers, out = 503, JSON, (
                    b'{"detail": "the table is moving between servers; try again"}')
        except Unavailable as exc:
            status, headers, out = 503, JSON, orjson.dumps({"detail": str(exc)})
        except REDIS_DOWN:
            status, headers, out = 503, [*JSON, ("retry-after", "1")], orjson.dumps(
                {"detail": AWAY})
        except Exception:
            log.exception("a forwarded request failed")
            status, headers, out = 500, [], b'{"detail": "internal error"}'
        self.bus.send(header["w"], REPLY, {"id": header["id"], "s": status, "h": headers}, out)


async def _body(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            return b"".join(chunks)


async def _answer(send: Send, status: int, headers: list[tuple[bytes, bytes]],
                  body: bytes) -> None:
    headers = [h for h in headers if h[0].lower() != b"content-length"]
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def call_app(app: ASGIApp, method: str, path: str, query: str,
                   headers: list[tuple[str, str]], body: bytes, client: str | None = None
                   ) -> tuple[int, list[tuple[str, str]], bytes]:
    """Run one HTTP request through `app` in this process, as from the address `client`
    (default: loopback); its status, headers and body."""
    scope: Scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "",
        "query_string": query.encode("latin-1"),
        "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers],
        "client": (client or "127.0.0.1", 0), "server": ("127.0.0.1", 0), "forwarded": True,
    }
    sent = False
    answered = asyncio.Event()  # the whole answer is sent: only then has the client "gone"
    answer: dict[str, Any] = {"status": 500, "headers": [], "body": []}

    async def receive() -> Message:
        # the body, then nothing until the answer is complete, as from a server: a streamed
        # answer (a file) listens for a disconnect meanwhile, and one at once would cut it
        nonlocal sent
        if sent:
            await answered.wait()
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
            answer["headers"] = [(k.decode("latin-1"), v.decode("latin-1"))
                                 for k, v in message.get("headers", [])]
        elif message["type"] == "http.response.body":
            answer["body"].append(message.get("body", b""))
            if not message.get("more_body"):
                answered.set()

    try:
        await app(scope, receive, send)
    finally:
        answered.set()
    return answer["status"], answer["headers"], b"".join(answer["body"])
