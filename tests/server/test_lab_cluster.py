"""The lab's bounds hold for the whole deployment, and a run is reachable from every worker
(server/lab, cluster/labruns.py, cluster/forward.py; docs/deploy.md, "The lab across workers").

Two workers as apps in this process on one real redis-server (`Apps`: a test holds their
labs' queues to see runs wait): one user's runs are counted across both, so are the queue and
the runs played at once; a run asked of one worker is shown, reported and cancelled through
the other. On a Redis blip each worker counts alone (the limits fail open, as the others do)
and another worker's run answers 503. Then two real workers behind Caddy: a run asked through
the proxy reads the same through either worker, and a worker killed with SIGKILL holds its
places no longer than its liveness key lasts.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from benchmarks.pgtemp import Postgres
from benchmarks.services import Redis
from fastapi.testclient import TestClient

from tiergarten.server.edge.settings import Settings
from tiergarten.server.lab import Lab

from .cluster import Apps, Deployment

WAIT = 60.0  # seconds at most for a small run (an event is awaited, never a fixed sleep)
SETTLE = 5.0  # seconds at most for a count let go on one worker to reach the other's


Make = Callable[..., list[TestClient]]


@pytest.fixture
def workers(redis_server: Redis) -> Iterator[Make]:
    """workers(**settings): two workers on the redis-server, the lab's settings given."""
    started: list[Apps] = []

    def start(redis_url: str | None = None, **lab: Any) -> list[TestClient]:
        settings = Settings(**{"lab_workers": 1, **lab})
        apps = Apps(redis_url or redis_server.url, settings).start()
        started.append(apps)
        return apps.clients

    yield start
    for apps in started:
        apps.stop()


def lab_of(client: TestClient) -> Lab:
    found: Lab = client.app.state.lab  # type: ignore[attr-defined]
    return found


def ask(client: TestClient, **body: Any) -> httpx.Response:
    return client.post("/api/lab/runs", json={"game": "maumau", "games": 4, **body})


def until(probe: Callable[[], httpx.Response], status: int) -> httpx.Response:
    """Ask again until the answer has `status` (a count let go on one worker reaches Redis
    a moment after its answer), for SETTLE seconds at most."""
    deadline = time.monotonic() + SETTLE
    while True:
        answer = probe()
        if answer.status_code == status or time.monotonic() > deadline:
            return answer
        time.sleep(0.05)


def test_one_user_has_at_most_so_many_runs_across_the_workers(workers: Make) -> None:
    a, b = workers(lab_per_user=2)
    for client in (a, b):
        lab_of(client).hold()
    first = ask(a)
    assert first.status_code == 201, first.text
    assert ask(b).status_code == 201  # one on each worker: two in all
    for client in (a, b):  # each worker has one of them; both know of both
        third = ask(client)
        assert third.status_code == 429, third.text
        assert third.json()["detail"].startswith("you have 2 lab run(s) queued or running")
    assert a.post(f"/api/lab/runs/{first.json()['id']}/cancel").status_code == 200
    assert until(lambda: ask(b), 201).status_code == 201  # the place A let go, taken on B
    assert ask(a).status_code == 429


def test_the_queue_is_bounded_across_the_workers(workers: Make) -> None:
    a, b = workers(lab_queue=2, lab_per_user=10)
    for client in (a, b):
        lab_of(client).hold()
    waiting = [ask(a), ask(b)]
    assert [w.status_code for w in waiting] == [201, 201]
    assert [w.json()["position"] for w in waiting] == [1, 1]  # each in its worker's queue
    for client in (a, b):
        full = ask(client)
        assert full.status_code == 503 and full.headers["retry-after"] == "30"
        assert full.json()["detail"].startswith("the lab's queue is full: 2 runs are waiting")
    assert b.post(f"/api/lab/runs/{waiting[1].json()['id']}/cancel").status_code == 200
    assert until(lambda: ask(a), 201).status_code == 201


def test_runs_play_so_many_at_once_across_the_workers(workers: Make) -> None:
    a, b = workers(lab_running=1, lab_per_user=5, lab_games=20000, lab_seconds=1e6)
    long = ask(a, players=["random", "random"], games=20000).json()  # minutes, unless cancelled
    assert long["status"] == "running"
    assert lab_of(a).runs[long["id"]].playing.wait(WAIT)
    short = ask(b).json()
    assert short["status"] == "queued"  # A plays the one run the deployment plays at once
    time.sleep(1.5)  # B tries again each second: the place is still A's
    assert b.get(f"/api/lab/runs/{short['id']}").json()["status"] == "queued"
    # its starter cancels A's run through B; B's run takes the place A let go
    stopped = b.post(f"/api/lab/runs/{long['id']}/cancel")
    assert stopped.status_code == 200, stopped.text
    assert lab_of(a).runs[long["id"]].finished.wait(WAIT)
    assert lab_of(b).runs[short["id"]].finished.wait(WAIT)
    assert b.get(f"/api/lab/runs/{short['id']}").json()["status"] == "done"
    ran = lab_of(b).runs[short["id"]]
    assert ran.started is not None and ran.started >= (lab_of(a).runs[long["id"]].ended or 0)


def test_a_run_asked_of_one_worker_is_read_and_cancelled_through_the_other(
        workers: Make) -> None:
    a, b = workers()
    body = {"players": ["heuristic", "random"], "games": 12, "seed": 7,
            "options": {"rounds": "1"}}
    made = ask(a, **body)
    assert made.status_code == 201, made.text
    run_id = made.json()["id"]
    assert lab_of(a).runs[run_id].finished.wait(WAIT)
    assert run_id not in lab_of(b).runs  # B has it not: what B answers comes from A
    here, there = a.get(f"/api/lab/runs/{run_id}"), b.get(f"/api/lab/runs/{run_id}")
    assert there.status_code == 200, there.text
    assert there.json() == here.json()  # its status, figures and report's address
    assert there.json()["status"] == "done" and there.json()["mine"]  # the starter's, on B too
    assert there.json()["done"] == 12 and there.json()["result"]
    page = b.get(f"/api/lab/runs/{run_id}/report")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert page.text == a.get(f"/api/lab/runs/{run_id}/report").text
    assert f'<img src="api/lab/runs/{run_id}/files/seats.png"' in page.text
    png = b.get(f"/api/lab/runs/{run_id}/files/seats.png")
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    assert png.content == a.get(f"/api/lab/runs/{run_id}/files/seats.png").content
    assert png.content.startswith(b"\x89PNG")
    assert b.get(f"/api/lab/runs/{run_id}/files/secret.txt").status_code == 404
    assert b.get("/api/lab/runs/nosuchrun123").status_code == 404

    lab_of(a).hold()  # a queued run: its place and its cancelling are A's
    queued = ask(a).json()
    shown = b.get(f"/api/lab/runs/{queued['id']}").json()
    assert (shown["status"], shown["position"], shown["mine"]) == ("queued", 1, True)
    cancelled = b.post(f"/api/lab/runs/{queued['id']}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert lab_of(a).runs[queued["id"]].status == "cancelled"


def test_on_a_redis_blip_each_worker_counts_alone_and_another_s_run_answers_503(
        workers: Make) -> None:
    own = Redis().start()  # this test's own, to stop
    try:
        a, b = workers(own.url, lab_per_user=1)
        for client in (a, b):
            lab_of(client).hold()
        mine = ask(a)
        assert mine.status_code == 201
        assert ask(b).status_code == 429  # shared while Redis answers
        own.stop()
        # fails open, per worker: B counts its own (none), A its own (one)
        assert ask(b).status_code == 201
        assert ask(a).status_code == 429
        away = b.get(f"/api/lab/runs/{mine.json()['id']}")  # whose is it? Redis cannot say
        assert away.status_code == 503 and away.headers["retry-after"] == "1"
        assert a.get(f"/api/lab/runs/{mine.json()['id']}").status_code == 200  # A's own
    finally:
        own.stop()


# -- real workers behind the proxy ------------------------------------------------------------

LAB = ("--lab-workers", "1", "--lab-running", "1", "--lab-per-user", "1", "--lab-games",
       "20000", "--lab-seconds", "1000000")


def test_a_run_asked_through_the_proxy_reads_the_same_through_every_worker(
        postgres: Postgres) -> None:
    dep = Deployment(postgres.new_database(), workers=2, args=LAB).start()
    try:
        assert dep.http is not None
        made = dep.http.post("/api/lab/runs", json={"game": "maumau", "games": 4, "seed": 2})
        assert made.status_code == 201, made.text
        run_id = made.json()["id"]
        deadline = time.monotonic() + WAIT
        while True:
            shown = [w.get(f"/api/lab/runs/{run_id}") for w in dep.workers]
            assert [s.status_code for s in shown] == [200, 200], [s.text for s in shown]
            if all(s.json()["status"] == "done" for s in shown):
                break
            assert time.monotonic() < deadline, shown[0].text
            time.sleep(0.2)
        first, second = (s.json() for s in shown)
        assert first == second and first["result"] and first["done"] == 4
        pages = [w.get(f"/api/lab/runs/{run_id}/report") for w in dep.workers]
        assert [p.status_code for p in pages] == [200, 200] and pages[0].text == pages[1].text
        through = [dep.http.get(f"/api/lab/runs/{run_id}/files/seats.png") for _ in range(4)]
        assert all(p.status_code == 200 and p.content.startswith(b"\x89PNG") for p in through)
    finally:
        dep.stop()
    for printed in dep.printed:
        assert "Traceback" not in printed, printed


def test_a_killed_worker_holds_its_places_no_longer_than_its_liveness(
        postgres: Postgres) -> None:
    dep = Deployment(postgres.new_database(), workers=2, args=LAB).start()
    try:
        a, b = dep.workers
        long = a.post("/api/lab/runs", {"game": "maumau", "games": 20000,
                                        "players": ["random", "random"]})
        assert long.status_code == 201 and long.json()["status"] == "running", long.text
        refused = b.post("/api/lab/runs", {"game": "maumau", "games": 4})
        assert refused.status_code == 429, refused.text  # the user's one run is on A
        assert b.get(f"/api/lab/runs/{long.json()['id']}").json()["status"] == "running"
        a.kill()
        killed = time.monotonic()
        while True:
            again = b.post("/api/lab/runs", {"game": "maumau", "games": 4})
            if again.status_code == 201:
                break
            assert again.status_code == 429, again.text
            # the lease time (2 s) and a margin, far below the counts' own expiry (60 s)
            assert time.monotonic() - killed < 10, again.text
            time.sleep(0.2)
        gone = b.get(f"/api/lab/runs/{long.json()['id']}")
        assert gone.status_code == 404, gone.text  # its worker is gone, and the run with it
        # the place to play A held is free too: B's run plays and ends
        deadline = time.monotonic() + WAIT
        while (shown := b.get(f"/api/lab/runs/{again.json()['id']}").json())["status"] != "done":
            assert time.monotonic() < deadline and shown["status"] in ("queued", "running"), \
                shown
            time.sleep(0.2)
    finally:
        dep.stop()
