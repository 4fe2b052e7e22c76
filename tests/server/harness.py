"""A real server in a subprocess on loopback, and websocket clients that talk to it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from tiergarten.server.edge.protocol import SERVER_MESSAGES

SRC = Path(__file__).resolve().parents[2] / "src"
# Every test client comes from 127.0.0.1: a test server has room for all their tables and
# connections (a test's own flags come after and win; tests/server/test_limits.py sets them)
ROOMY = ("--address-connections", "500", "--tables-burst", "1000")
# A bound, not a wait: a server answers in 1-2 s, but a machine running other suites beside
# this one has been seen to take over 30.
START_WITHIN = 60
Message = dict[str, Any]


T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T], skip_idle: bool = False) -> T:
    """`asyncio.run(coro)`, also in a pytest worker whose main thread already runs an event loop
    (Playwright's sync API, used by the browser tests, keeps one running there): then the
    coroutine gets a fresh loop in a thread of its own. `skip_idle`: on a `SkippingLoop`, whose
    clock skips the time the loop would only wait (for in-process tests, no sockets)."""

    def go() -> T:
        with asyncio.Runner(loop_factory=SkippingLoop if skip_idle else None) as runner:
            return runner.run(coro)

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return go()
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(go).result()


class SkippingLoop(asyncio.SelectorEventLoop):
    """An event loop whose clock jumps over the time it would spend idle.

    The server's timers and clocks all read the running loop's clock (`loop.time()`,
    `call_at`, `asyncio.sleep`, `asyncio.timeout`): fair-order windows, bot pauses, away and
    seating timers, reserved moments. On this loop, when nothing is ready, no socket or pipe
    has anything, and no work is out in a thread (`run_in_executor`, so `asyncio.to_thread`
    too: a commit, a bot thinking), the clock moves straight to the next timer instead of
    waiting for it. So a test waits for the event it expects (a message, a settled act) and
    the timers before it fire in their order at their times, in no wall time; and a wait that
    should find nothing (`later`) covers as much of the table's time as it likes, cheaply.
    While a thread works the clock runs as the wall clock does, so work in threads takes the
    time it really takes, as in production."""

    def __init__(self) -> None:
        super().__init__()
        self.skipped = 0.0  # seconds the clock has jumped
        self._out = 0  # executor jobs not yet done
        self._selector = _Skipping(self._selector, self)  # type: ignore[has-type]

    def time(self) -> float:
        return super().time() + self.skipped

    def run_in_executor(self, executor: Any, func: Callable[..., T], *args: Any) -> Any:
        future = super().run_in_executor(executor, func, *args)
        self._out += 1
        future.add_done_callback(self._back)
        return future

    def _back(self, _future: Any) -> None:
        self._out -= 1


class _Skipping:
    """The loop's selector, but a wait with a timeout while nothing is out in a thread does
    not wait: it finds nothing at once and moves the loop's clock on by the timeout."""

    def __init__(self, selector: Any, loop: SkippingLoop) -> None:
        self._selector, self._loop = selector, loop

    def select(self, timeout: float | None = None) -> Any:
        if timeout is None or timeout <= 0 or self._loop._out:
            return self._selector.select(timeout)
        ready = self._selector.select(0)
        if not ready:
            self._loop.skipped += timeout
        return ready

    def __getattr__(self, name: str) -> Any:
        return getattr(self._selector, name)


async def later(seconds: float) -> None:
    """Let `seconds` of the loop's time pass: on a `SkippingLoop`, everything the tables would
    do in that time is done, in no wall time (so nothing more can be expected to happen)."""
    loop = asyncio.get_running_loop()
    assert isinstance(loop, SkippingLoop), "later() waits in wall time: run(..., skip_idle=True)"
    await asyncio.sleep(seconds)


def eventually(check: Callable[[], T], timeout: float, what: str, every: float = 0.02) -> T:
    """`check()` once it is true (returned), asked every `every` seconds for `timeout` at most:
    for what only a poll can see (an HTTP answer, /proc, another process), never a wait on
    a message that will come. Fails saying `what` did not happen."""
    deadline = time.monotonic() + timeout
    while not (found := check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(every)
    return found


class _Uvicorn(uvicorn.Server):
    """A uvicorn server that says when its startup is over (`up`: listening, or failed)."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.up = threading.Event()

    async def startup(self, sockets: Any = None) -> None:
        try:
            await super().startup(sockets)
        finally:
            self.up.set()

    def run(self, sockets: Any = None) -> None:
        try:
            super().run(sockets)
        finally:
            self.up.set()  # it never started (a bad app, a port taken): say so at once


@contextmanager
def in_a_thread(app: Any, port: int) -> Iterator[None]:
    """Serve `app` with uvicorn on 127.0.0.1:`port` in a thread while the block runs; it has
    started (it listens) when the block begins."""
    server = _Uvicorn(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        assert server.up.wait(30) and server.started, "uvicorn did not start"
        yield
    finally:
        server.should_exit = True
        thread.join(10)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """`python -m tiergarten.server` on 127.0.0.1 and a free port; SIGKILL-able."""

    def __init__(self, db: str, *args: str, port: int | None = None) -> None:
        self.db, self.args = db, args
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.printed = ""
        handle, self.log_path = tempfile.mkstemp(prefix="tg-server-", suffix=".log")
        os.close(handle)
        self.http = httpx.Client(base_url=self.url, timeout=10, trust_env=False)

    def start(self) -> Server:
        env = dict(os.environ, PYTHONPATH=str(SRC))
        with open(self.log_path, "ab") as out:  # the server keeps its own copy of the file
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tiergarten.server", "--port", str(self.port),
                 "--db", self.db, *ROOMY, *self.args], env=env, stdout=out,
                stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_WITHIN
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited {self.proc.returncode}: {self.output()}")
            try:
                if self.http.get("/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:  # not listening yet: a process starting has no event
                time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"server did not answer within {START_WITHIN} s")

    def kill(self) -> None:
        """SIGKILL: no clean-up, no flush; what was committed is all there is."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> str:
        """Stop the server (if running); return everything it printed."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.http.close()
        printed = self.output()
        with contextlib.suppress(OSError):
            os.unlink(self.log_path)
        return printed

    def output(self) -> str:
        try:
            with open(self.log_path, encoding="utf-8", errors="replace") as f:
                self.printed = f.read()
        except OSError:
            pass  # already stopped and cleaned up
        return self.printed

    # -- REST ----------------------------------------------------------------------------------

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path)

    def post(self, path: str, body: Any, address: str | None = None) -> httpx.Response:
        headers = {"X-Forwarded-For": address} if address else None
        return self.http.post(path, json=body, headers=headers)

    def create(self, **body: Any) -> Message:
        response = self.post("/api/tables", body)
        assert response.status_code == 201, response.text
        return dict(response.json())

    def join(self, table: str, name: str, seat: int | None = None) -> tuple[int, str]:
        response = self.post(f"/api/tables/{table}/join", {"name": name, "seat": seat})
        assert response.status_code == 200, response.text
        data = response.json()
        return int(data["seat"]), str(data["token"])


class Client:
    """One websocket connection; keeps every message it received, in order."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.received: list[Message] = []
        self.state: Message | None = None
        self.info: Message | None = None

    @classmethod
    async def open(cls, server: Server, table: str, token: str | None = None,
                   address: str | None = None, **options: Any) -> Client:
        """Connect (as if from `address`: the server trusts a loopback proxy's
        X-Forwarded-For, so each test can be a client of its own)."""
        url = f"{server.ws_url}/ws/{table}" + (f"?token={token}" if token else "")
        headers = {"X-Forwarded-For": address} if address else None
        return cls(await connect(url, max_size=2**22, additional_headers=headers, **options))

    async def recv(self, timeout: float = 20.0) -> Message:
        message: Message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        SERVER_MESSAGES[message["type"]].model_validate(message)  # the documented shape
        self.received.append(message)
        if message["type"] == "state":
            self.state = message
        elif message["type"] == "table":
            self.info = message
        return message

    async def until(self, check: Callable[[Message], bool], timeout: float = 30.0) -> Message:
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            message = await self.recv(max(0.01, left))
            if check(message):
                return message

    async def send(self, data: Any) -> None:
        await self.ws.send(data if isinstance(data, str | bytes) else json.dumps(data))

    async def act(self, action: str, version: int | None = None) -> None:
        assert self.state is not None
        await self.send({"act": action, "version": self.state["version"]
                         if version is None else version})

    async def close(self) -> None:
        await self.ws.close()

    def is_over(self) -> bool:
        return self.info is not None and self.info["status"] == "over"


def refilled(client: Client) -> float:
    """Seconds until the rate limit the server announced (`hello`) has its whole burst again:
    a refusal from then on is said again (only the first of a run is), so a polite client
    that waits this long never waits on an answer refused in silence."""
    limits = next((m["limits"] for m in client.received if m["type"] == "hello"), None)
    return 0.5 if limits is None else float(limits["burst"]) / float(limits["rate"])


async def until_over(server: Any, table: str, timeout: float = 60.0) -> Message:
    """Wait until `table` is over, as a spectator hears it (its greeting says so at once if it
    is): the `table` message saying so. `server`: anything `Client.open` takes."""
    eye = await Client.open(server, table)
    try:
        return await eye.until(lambda m: m["type"] == "table" and m["status"] == "over",
                               timeout)
    except TimeoutError:
        raise AssertionError(f"table {table} was not over within {timeout} s; last messages: "
                             f"{eye.received[-2:]}") from None
    finally:
        await eye.close()


def is_state(message: Message) -> bool:
    return message["type"] == "state"


def is_error(message: Message) -> bool:
    return message["type"] == "error"


def sensible(message: Message) -> str:
    """A quick person's move: call Mau when it is due, else play a card, else draw or pass —
    so that a game between a test client and bots ends in a few dozen moves (a client that
    never calls is caught at every last card, and a Mau Mau game can then last hundreds)."""
    legal: list[str] = message["legal"]
    return (next((a for a in legal if a.endswith("mau")), None)
            or next((a for a in legal if a.startswith("play")), legal[0]))


async def play_until_over(client: Client, choose: Callable[[Message], str | None],
                          timeout: float = 20.0) -> None:
    """Answer every state that offers moves with `choose(state)` until the game is over."""
    deadline = asyncio.get_running_loop().time() + timeout
    message = client.state  # answer the state already in hand first
    while not client.is_over():
        if message is not None and is_state(message) and message["legal"]:
            action = choose(message)
            if action is not None:
                await client.act(action, message["version"])
        elif message is not None and is_error(message) and message["code"] == "rate_limited":
            await asyncio.sleep(refilled(client))  # what a polite client does: wait, ask again
            await client.send({"sync": True})
        left = deadline - asyncio.get_running_loop().time()
        try:
            message = await client.recv(max(0.01, left))
        except TimeoutError:
            raise AssertionError(f"the game did not end in time; last messages: "
                                 f"{client.received[-3:]}") from None
