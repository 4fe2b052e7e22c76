"""The limits hold for the whole deployment (server/edge/limits.py): two real workers behind
the real proxy config, one PostgreSQL, one redis-server. And when Redis goes away and comes
back: limits per worker meanwhile (never an outage), requests about a table answer 503 with
Retry-After instead of failing, every line the worker writes stays JSON, and nothing is left
unretrieved."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest
import redis
from benchmarks.pgtemp import Postgres
from benchmarks.services import Redis
from websockets.exceptions import ConnectionClosed

from tiergarten.server.edge.limits import RedisCounters

from .cluster import Deployment
from .harness import Client, eventually, is_error, run

# the documented limits, not the tests' roomy ones (a test's flags come last and win)
DOCUMENTED = ("--tables-burst", "20", "--tables-per-minute", "2")


@pytest.fixture(scope="module")
def limited(postgres: Postgres) -> Iterator[Deployment]:
    dep = Deployment(postgres.new_database(), workers=2,
                     args=(*DOCUMENTED, "--address-connections", "3", "--log-format",
                           "json")).start()
    try:
        yield dep
    finally:
        dep.stop()
    for printed in dep.printed:  # one JSON object a line, and no error among them
        lines = [json.loads(line) for line in printed.splitlines() if line.strip()]
        assert lines and all(line["level"] not in ("ERROR", "CRITICAL") for line in lines), \
            printed


def test_one_address_gets_the_documented_tables_through_the_proxy_not_more(
        limited: Deployment) -> None:
    assert limited.http is not None
    answers = [limited.http.post("/api/tables", json={"game": "maumau", "players": 2})
               for _ in range(21)]
    assert [a.status_code for a in answers[:20]] == [201] * 20
    assert answers[20].status_code == 429, answers[20].text
    assert 1 <= int(answers[20].headers["retry-after"]) <= 30
    made = {w.port: 0 for w in limited.workers}  # round robin: both workers made some
    for worker in limited.workers:
        text = worker.get("/metrics").text
        made[worker.port] = sum(
            float(line.split()[-1]) for line in text.splitlines()
            if line.startswith('tiergarten_http_requests_total{method="POST",route="/api/tables"'))
    assert all(count > 0 for count in made.values()), made


def test_connections_from_one_address_are_counted_across_workers(limited: Deployment) -> None:
    first, second = limited.workers
    made = first.post("/api/tables", {"game": "maumau", "players": 2}, address="10.9.8.1")
    assert made.status_code == 201, made.text  # (127.0.0.1 made its tables above)
    table = made.json()["id"]

    async def connect() -> tuple[list[Client], str]:
        held = [await Client.open(w, table, address="10.9.8.7")  # type: ignore[arg-type]
                for w in (first, second, first)]
        for client in held:
            await client.until(lambda m: m["type"] == "table")
        fourth = await Client.open(second, table, address="10.9.8.7")  # type: ignore[arg-type]
        refused = await fourth.until(is_error)
        with pytest.raises(ConnectionClosed):
            await fourth.recv(5)
        for client in held:
            await client.close()
        return held, refused["code"]

    _, code = run(connect())
    assert code == "too_many_connections"

    async def again() -> None:  # the counts went down as they closed, on both workers
        deadline = time.monotonic() + 10
        while True:  # each answer is a round trip: ask again at once until the place is free
            client = await Client.open(second, table, address="10.9.8.7")  # type: ignore[arg-type]
            message = await client.recv(5)
            await client.close()
            if message["type"] != "error" or time.monotonic() > deadline:
                assert message["type"] != "error", message
                return

    run(again())


def test_a_redis_blip_counts_per_worker_and_says_so_once() -> None:
    redis_server = Redis().start()

    async def main() -> tuple[list[float], list[float], list[float]]:
        counters = RedisCounters.connect(redis_server.url, "tgt", "w1")
        try:
            shared = [await counters.take("c:1.2.3.4", 1 / 30, 2) for _ in range(3)]
            redis_server.stop()
            away = [await counters.take("c:1.2.3.4", 1 / 30, 2) for _ in range(3)]
            assert not counters.shared
            assert await counters.hold("a:1.2.3.4", 1) and not await counters.hold(
                "a:1.2.3.4", 1)  # per worker meanwhile
            counters._down_until = 0  # as after RETRY seconds: Redis is tried again
            later = [await counters.take("c:1.2.3.4", 1 / 30, 2)]
            return shared, away, later
        finally:
            await counters.stop()

    import logging

    seen: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record)

    keep = Keep()
    logging.getLogger("tiergarten.server").addHandler(keep)
    try:
        shared, away, later = run(main())
    finally:
        logging.getLogger("tiergarten.server").removeHandler(keep)
        redis_server.stop()
    assert shared[:2] == [0.0, 0.0] and 0 < shared[2] <= 30  # the shared bucket: 2, then wait
    assert away[:2] == [0.0, 0.0] and away[2] > 0  # this worker's own bucket while away
    assert later[0] > 0  # still away: counted here, still refused
    warned = [r.getMessage() for r in seen if "limits: Redis did not answer" in r.getMessage()]
    assert len(warned) == 1, [r.getMessage() for r in seen]  # once, not per request


def test_after_a_redis_outage_a_request_is_answered_503_and_every_line_stays_json(
        postgres: Postgres) -> None:
    dep = Deployment(postgres.new_database(), workers=1,
                     args=("--log-format", "json", "--log-level", "warning")).start()
    assert dep.redis is not None
    port = dep.redis.port
    try:
        (worker,) = dep.workers
        table = dep.create(game="maumau", players=2, seed=2)
        dep.redis.stop()
        eventually(lambda: worker.http.get("/readyz").status_code == 503, 10,
                   "the worker seeing Redis away")
        answer = worker.http.get(f"/api/tables/{table}")
        assert answer.status_code == 503, answer.text  # not a 500
        assert answer.headers["retry-after"] == "1"
        created = worker.http.post("/api/tables", json={"game": "maumau", "players": 2})
        assert created.status_code == 201, created.text  # the limits fail open, per worker
        back = Redis()
        back.port, back.url = port, f"redis://127.0.0.1:{port}/0"
        dep.redis = back.start()

        def shown() -> bool:
            try:
                return worker.http.get(f"/api/tables/{table}").status_code == 200
            except httpx.HTTPError:
                return False

        eventually(shown, 20, "the table shown again once Redis is back", 0.05)
        # two ticks of the cluster after Redis came back: each renews the worker's own key
        # in the new (empty) Redis; the first is taken away, the second writes it again
        fresh = redis.Redis.from_url(back.url)
        try:
            eventually(lambda: fresh.keys("tg:worker:*"), 10, "a tick after Redis came back")
            fresh.delete(*fresh.keys("tg:worker:*"))
            eventually(lambda: fresh.keys("tg:worker:*"), 10, "a second tick")
        finally:
            fresh.close()
    finally:
        dep.stop()
    (printed,) = dep.printed
    lines = [line for line in printed.splitlines() if line.strip()]
    for line in lines:
        entry = json.loads(line)  # every line: a JSON object
        assert "worker" in entry and "time" in entry
    said = " ".join(lines)
    assert "never retrieved" not in said
    assert "Exception in ASGI application" not in said
    assert any(json.loads(line)["message"].startswith("tiergarten serving on")
               for line in lines)
