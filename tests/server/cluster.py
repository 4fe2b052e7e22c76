"""A real deployment on loopback for the tests: PostgreSQL, redis-server, workers, a proxy.

`Deployment(db).start()` starts redis-server and the proxy (Caddy, or nginx with
`proxy="nginx"`, each with its deploy/ config; as `nobody` when we are root, in temp dirs:
benchmarks/services.py) and `workers` processes of `python -m tiergarten.server --redis`
on one PostgreSQL database; `stop()` stops all of it and says what each worker printed.

`Apps(redis_url, settings).start()` is a deployment's workers as apps in this process instead
(a `TestClient` each, each on its own event loop thread, every worker talking to the others
over the real redis-server): for a test that reaches into a worker (its lab, its counts).
"""

from __future__ import annotations

import contextlib
import secrets
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import redis
from benchmarks.services import Caddy, Nginx, Redis
from fastapi.testclient import TestClient

from tiergarten.server.app import create_app, memory_stores
from tiergarten.server.cluster import ClusterSettings
from tiergarten.server.edge.settings import Settings

from .harness import Server

WORKER_ARGS = ("--bot-pace", "0", "--allow-seeds", "--away-after", "30", "--rate", "200",
               "--burst", "50")


class Endpoint:
    """Somewhere to open websockets (a worker, or the proxy): what `Client.open` needs."""

    def __init__(self, ws_url: str) -> None:
        self.ws_url = ws_url


class Deployment:
    def __init__(self, db: str, workers: int = 3, lease_ttl: float = 2.0,
                 proxy: str = "caddy", args: tuple[str, ...] = ()) -> None:
        self.db, self.count, self.lease_ttl = db, workers, lease_ttl
        self.args = args  # the workers' own flags, after the others (they win)
        self.proxy_kind = {"caddy": Caddy, "nginx": Nginx}[proxy]
        self.redis: Redis | None = None
        self.front: Caddy | Nginx | None = None
        self.workers: list[Server] = []
        self.printed: list[str] = []
        self.http: httpx.Client | None = None
        self.client: redis.Redis | None = None

    def start(self) -> Deployment:
        try:
            self.redis = Redis().start()
            self.client = redis.Redis.from_url(self.redis.url)
            self.workers = [self._worker(n) for n in range(self.count)]
            with ThreadPoolExecutor(self.count) as pool:  # they start side by side
                list(pool.map(Server.start, self.workers))
            self.front = self.proxy_kind([w.port for w in self.workers]).start()
            self.http = httpx.Client(base_url=self.front.url, timeout=15, trust_env=False)
        except BaseException:
            self.stop()
            raise
        return self

    def _worker(self, n: int) -> Server:
        assert self.redis is not None
        return Server(self.db, *WORKER_ARGS, "--redis", self.redis.url, "--lease-ttl",
                      str(self.lease_ttl), *self.args)

    @property
    def proxy(self) -> Endpoint:
        assert self.front is not None
        return Endpoint(self.front.ws_url)

    def owner(self, table_id: str) -> Server | None:
        """The worker that holds the table's lease now."""
        assert self.client is not None
        found = self.client.get(f"tg:lease:{table_id}")
        for worker in self.workers:
            if found is not None and worker.proc is not None and worker.proc.poll() is None \
                    and self.worker_id(worker) == found.decode():
                return worker
        return None

    def worker_id(self, worker: Server) -> str:
        for line in worker.output().splitlines():
            if ", worker " in line:
                return line.split(", worker ")[1].split(" ")[0]
        raise AssertionError(f"worker on port {worker.port} did not say its id")

    def create(self, **body: Any) -> str:
        assert self.http is not None
        response = self.http.post("/api/tables", json=body)
        assert response.status_code == 201, response.text
        return str(response.json()["id"])

    def join(self, table: str, name: str) -> tuple[int, str]:
        assert self.http is not None
        response = self.http.post(f"/api/tables/{table}/join", json={"name": name})
        assert response.status_code == 200, response.text
        return int(response.json()["seat"]), str(response.json()["token"])

    def record(self, table: str) -> dict[str, Any]:
        assert self.http is not None
        response = self.http.get(f"/api/tables/{table}/record")
        assert response.status_code == 200, response.text
        return dict(response.json())

    def stop(self) -> None:
        if self.http is not None:
            self.http.close()
        for worker in self.workers:
            self.printed.append(worker.stop())
        for service in (self.front, self.redis):
            if service is not None:
                with contextlib.suppress(Exception):
                    service.stop()
        if self.client is not None:
            self.client.close()


class Apps:
    """`count` workers of one deployment as apps in this process, on one redis-server (each
    with its own tables in memory, which these tests do not share; or, given `db`, all on that
    database, as a deployment is): `clients[n]` is worker `n`'s `TestClient`, `ids[n]` its
    worker id. A prefix of their own keeps the Redis keys of one test's workers from
    another's."""

    def __init__(self, redis_url: str, settings: Settings, count: int = 2,
                 lease_ttl: float = 2.0, db: str | None = None) -> None:
        self.redis_url, self.settings, self.count = redis_url, settings, count
        self.lease_ttl, self.db = lease_ttl, db
        self.prefix = f"tgt{secrets.token_hex(4)}"
        self.ids = [f"{self.prefix}-w{n}" for n in range(count)]
        self.clients: list[TestClient] = []

    def start(self) -> Apps:
        try:
            for worker_id in self.ids:
                cluster = ClusterSettings(self.redis_url, worker_id, lease_ttl=self.lease_ttl,
                                          prefix=self.prefix)
                app = create_app(self.db, settings=self.settings, web=None, cluster=cluster,
                                 stores=memory_stores if self.db is None else None)
                client = TestClient(app, base_url="http://127.0.0.1")
                client.__enter__()
                self.clients.append(client)
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        for client in self.clients:
            client.__exit__(None, None, None)
        self.clients = []

    def __enter__(self) -> list[TestClient]:
        return self.start().clients

    def __exit__(self, *_exc: object) -> None:
        self.stop()
