"""Quick match ("Play now") through the server: one person in two tabs is one entry, a
cancel leaves the queue, refusals change nothing; across two workers on one Redis the queue
pairs people who queued at different workers onto one table with a bot, and a worker killed
with SIGKILL loses nobody queued (the entries are in Redis; another worker pairs them)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis
from benchmarks.pgtemp import Postgres
from fastapi.testclient import TestClient

from tiergarten.server.app import create_app, memory_stores
from tiergarten.server.edge.settings import Settings
from tiergarten.server.players.quickmatch import QuickMatch

from .cluster import Apps, Deployment
from .harness import eventually

PASSWORD = "correct horse battery"
GUEST_A, GUEST_B = "guest-a-" + "x" * 16, "guest-b-" + "y" * 16


@pytest.fixture
def solo() -> Iterator[TestClient]:
    app = create_app(settings=Settings(bot_pace=0), web=None, stores=memory_stores)
    with TestClient(app, base_url="http://127.0.0.1",
                    headers={"Origin": "http://127.0.0.1"}) as client:
        yield client


def sign_up(client: TestClient, name: str) -> None:
    answer = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text


def ask(client: Any, path: str = "/api/quickmatch/status", **body: Any) -> dict[str, Any]:
    answer = client.post(path, json=body)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_two_tabs_are_one_entry_and_a_cancel_leaves_the_queue(solo: TestClient) -> None:
    sign_up(solo, "Tabby")
    quick: QuickMatch = solo.app.state.quickmatch  # type: ignore[attr-defined]
    first = ask(solo, "/api/quickmatch", game="mammuz", players=3)  # "never": no bots
    again = ask(solo, "/api/quickmatch", game="mammuz", players=4)  # the second tab
    assert first["status"] == again["status"] == "waiting" and again["counts"] == [4]
    assert again["waiting"] == {"mammuz": 1}
    ask(solo, "/api/quickmatch", game="maumau", guest=GUEST_A, name="Gus")  # ignored: signed in
    assert solo.get("/api/quickmatch/waiting").json() == {"waiting": {"maumau": 1}}
    assert ask(solo)["game"] == "maumau"
    cancelled = ask(solo, "/api/quickmatch/cancel")
    assert cancelled["status"] == "idle" and cancelled["waiting"] == {}
    assert solo.portal.call(quick.tick) == [] and ask(solo)["status"] == "idle"


def test_guests_are_keyed_by_their_browser_and_refusals_change_nothing(
        solo: TestClient) -> None:
    for name in ("Gus", "Gus in tab 2"):
        ask(solo, "/api/quickmatch", game="maumau", players=2, guest=GUEST_A, name=name)
    assert ask(solo, guest=GUEST_A)["waiting"] == {"maumau": 1}
    refusals = [({"game": "maumau"}, 400, "guest_needed"),
                ({"game": "maumau", "guest": GUEST_B, "name": "B", "level": "godlike"}, 400,
                 "bad_level"),
                ({"game": "maumau", "guest": GUEST_B, "name": ""}, 400, "name_missing"),
                ({"game": "maumau", "guest": GUEST_B, "name": "B", "players": 9}, 400,
                 "bad_settings"),
                ({"game": "maumau", "guest": GUEST_B, "name": "B",
                  "options": {"rounds": -4}}, 400, "bad_option"),
                ({"game": "chess", "guest": GUEST_B, "name": "B"}, 400, "bad_settings"),
                ({"game": "maumau", "guest": GUEST_B, "name": "B", "bot_wait": -1}, 422,
                 "bad_body")]
    for body, status, code in refusals:
        answer = solo.post("/api/quickmatch", json=body)
        assert (answer.status_code, answer.json()["code"]) == (status, code), body
    assert ask(solo, guest=GUEST_A)["waiting"] == {"maumau": 1}


def test_a_guest_with_bots_at_once_sits_at_a_table_of_their_level(solo: TestClient) -> None:
    ask(solo, "/api/quickmatch", game="maumau", players=3, guest=GUEST_B, name="Bea",
        level="hard", bot_wait=0)
    status = eventually(lambda: (s := ask(solo, guest=GUEST_B))["status"] == "matched" and s,
                        10, "the guest was matched")
    seat = status["match"]
    table = solo.get(f"/api/tables/{seat['table']}").json()
    assert table["status"] == "playing" and [s["bot"] for s in table["seats"]] == [
        None, "hard", "hard"]
    assert table["seats"][seat["seat"]]["name"] == "Bea"


def test_two_workers_pair_people_who_queued_at_each_onto_one_table_with_a_bot(
        apps: Apps) -> None:
    one, two = apps.clients
    for client, name in ((one, "Wanda"), (two, "Xaver")):
        client.headers["Origin"] = "http://127.0.0.1"
        sign_up(client, name)
    ask(one, "/api/quickmatch", game="maumau", players=3, bot_wait=120)
    assert ask(two)["waiting"] == {"maumau": 1}  # the other worker sees the queue
    ask(two, "/api/quickmatch", game="maumau", players=3, bot_wait=0)
    found = [eventually(lambda c=c: (s := ask(c))["status"] == "matched" and s["match"], 15,
                        "matched") for c in (one, two)]
    assert found[0]["table"] == found[1]["table"] and {f["seat"] for f in found} == {0, 1}
    assert found[0]["bots"] == 1
    table = one.get(f"/api/tables/{found[0]['table']}").json()
    assert table["status"] == "playing"
    assert sorted(s["account"] or s["bot"] for s in table["seats"]) == ["Wanda", "Xaver",
                                                                        "normal"]
    made = [m for c in apps.clients for m in c.app.state.quickmatch.made]  # type: ignore
    assert len(made) == 1  # one table, made by whichever worker held the lease
    assert ask(one)["waiting"] == {}


@pytest.fixture
def pair_of_workers(postgres: Postgres) -> Iterator[Deployment]:
    dep = Deployment(postgres.new_database(), workers=2).start()
    try:
        yield dep
    finally:
        dep.stop()
    for printed in dep.printed:
        assert "Traceback" not in printed, printed


def test_a_worker_killed_with_people_queued_loses_none_of_them(
        pair_of_workers: Deployment) -> None:
    dep = pair_of_workers
    client = redis.Redis.from_url(dep.redis.url) if dep.redis else None
    assert client is not None
    lead = eventually(lambda: client.get("tg:qm:lead"), 10, "a worker leads the pairing")
    # the leader is killed, with a person queued at it
    first, second = sorted(dep.workers, key=lambda w: dep.worker_id(w) != lead.decode())

    def post(worker: Any, path: str, **body: Any) -> dict[str, Any]:
        answer = httpx.post(worker.url + path, json=body, timeout=10, trust_env=False)
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    post(first, "/api/quickmatch", game="maumau", players=2, guest=GUEST_A, name="Ann")
    assert client.hlen("tg:qm:entries") == 1
    first.kill()
    first.proc.wait(10)  # type: ignore[union-attr]
    assert post(second, "/api/quickmatch/status", guest=GUEST_A)["status"] == "waiting"
    assert client.get("tg:qm:lead") in (lead, None)  # nobody else pairs until it runs out
    post(second, "/api/quickmatch", game="maumau", players=2, guest=GUEST_B, name="Ben")
    # the lease of a dead leader runs out; the survivor pairs them
    seats = [eventually(lambda g=g: (s := post(second, "/api/quickmatch/status", guest=g))[
        "status"] == "matched" and s["match"], 20, "matched after the kill")
        for g in (GUEST_A, GUEST_B)]
    assert seats[0]["table"] == seats[1]["table"] and seats[0]["bots"] == 0
    table = httpx.get(f"{second.url}/api/tables/{seats[0]['table']}", trust_env=False).json()
    assert [s["name"] for s in table["seats"]] == ["Ann", "Ben"] and table["status"] == "playing"
    assert client.hlen("tg:qm:entries") == 0
    client.close()
