"""The lab in the browser over REST (routes/lab.py, server/lab): a run's figures are those of
`tiergarten simulate` with the same seed; the queue, the per-user limit and cancelling hold;
a run the lab cannot play is refused saying what is allowed."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tiergarten.server.app import create_app
from tiergarten.server.edge.settings import Settings
from tiergarten.server.lab import Lab
from tiergarten.sim.command import simulate_command

WAIT = 60.0  # seconds at most for a small run (an event is awaited, never a fixed sleep)

Make = Callable[..., TestClient]


@pytest.fixture
def make(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Make]:
    """make(**settings): a server (in this process) with the lab's settings given."""
    clients: list[TestClient] = []

    def start(**lab: Any) -> TestClient:
        settings = Settings(**{"lab_workers": 1, **lab})
        client = TestClient(create_app(tmp_path_factory.mktemp("lab") / "lab.db", settings,
                                       web=None), base_url="http://127.0.0.1")
        client.__enter__()
        clients.append(client)
        return client

    yield start
    for client in clients:
        client.__exit__(None, None, None)


def lab_of(client: TestClient) -> Lab:
    found: Lab = client.app.state.lab  # type: ignore[attr-defined]
    return found


def finish(client: TestClient, run: dict[str, Any]) -> dict[str, Any]:
    assert lab_of(client).runs[run["id"]].finished.wait(WAIT), "the run did not finish"
    answer = client.get(f"/api/lab/runs/{run['id']}")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def ask(client: TestClient, **body: Any) -> Any:
    return client.post("/api/lab/runs", json={"game": "maumau", "games": 4, **body})


def untimed(data: dict[str, Any]) -> dict[str, Any]:
    data = json.loads(json.dumps(data))
    for run in data.get("runs", [data]):
        del run["timing"]
    return data


def simulated(capsys: pytest.CaptureFixture[str], *args: Any, **kwargs: Any) -> Any:
    capsys.readouterr()
    assert simulate_command(*args, **kwargs) == 0
    return json.loads(capsys.readouterr().out)


def test_a_run_is_simulate_with_the_same_seed_with_the_reports_tables(make: Make,
                                                                       capsys) -> None:
    client = make()
    body = {"players": ["heuristic", "random"], "games": 12, "seed": 7,
            "options": {"rounds": "1", "jack_on_jack": "false"}}
    answer = ask(client, **body)
    assert answer.status_code == 201, answer.text
    run = finish(client, answer.json())
    assert run["status"] == "done" and run["done"] == run["total"] == 12 and run["mine"]
    cli = simulated(capsys, "maumau", ["heuristic,random"], 12, 7,
                    {"rounds": "1", "jack_on_jack": "false"}, True, 1)
    assert untimed(run["result"]) == untimed(cli)
    # the HTML report of --report, as a fragment for the page, with its plots
    assert run["report"] == f"api/lab/runs/{run['id']}/report"
    page = client.get(f"/api/lab/runs/{run['id']}/report")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "<table" in page.text and "<style" not in page.text and "<body" not in page.text
    prefix = f'<img src="api/lab/runs/{run["id"]}/files/'
    assert prefix + 'seats.png"' in page.text
    png = client.get(f"/api/lab/runs/{run['id']}/files/seats.png")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    missing = client.get(f"/api/lab/runs/{run['id']}/files/secret.txt")
    assert missing.status_code == 404 and "it has: " in missing.json()["detail"]
    assert "report.json" in missing.json()["detail"]


def test_a_sweep_is_simulate_sweep_with_the_same_seed(make: Make, capsys) -> None:
    client = make(lab_workers=2)  # the workers change nothing
    answer = ask(client, game="mammuz", players=["heuristic", "random", "random"], games=6,
                 seed=3, sweep="next_starter=doubter,taker")
    assert answer.status_code == 201, answer.text
    run = finish(client, answer.json())
    assert run["status"] == "done" and run["total"] == 12
    cli = simulated(capsys, "mammuz", ["heuristic", "random", "random"], 6, 3, {}, True, 1,
                    sweep_option="next_starter=doubter,taker")
    assert untimed(run["result"]) == untimed(cli)


def test_what_the_lab_cannot_play_is_refused_saying_what_is_allowed(make: Make) -> None:
    client = make(lab_games=100)
    answer = ask(client, options={"colour": "red"})
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith("unknown option 'colour'; allowed: target_score,")
    answer = ask(client, game="chess")
    assert answer.status_code == 400
    assert answer.json()["detail"] == ("unknown game 'chess'; allowed: lecker_mammut, mammuz, "
                                       "maumau, mucca_pazza")  # as simulate says it
    answer = ask(client, sweep="players=2,3")
    assert answer.status_code == 400 and "not an option" in answer.json()["detail"]
    answer = ask(client, players=["heuristic", "wizard"])
    assert answer.status_code == 400 and "wizard" in answer.json()["detail"]
    assert "heuristic" in answer.json()["detail"]  # the bots there are
    answer = ask(client, games=60, sweep="jack_on_jack=true,false")
    assert answer.status_code == 400 and answer.json()["detail"] == (
        "a lab run plays at most 100 games in all; this one asks for 120 (2 line-up(s) of 60)")
    assert ask(client, sweep="jack_on_jack").status_code == 400
    assert client.get("/api/lab/runs/nothere").status_code == 404
    assert client.get("/api/lab").json() == {"games": 100, "per_user": 2, "queue": 8,
                                             "running": 1, "workers": 1, "seconds": 600.0}


def test_one_user_has_at_most_so_many_runs_queued_or_running(make: Make) -> None:
    client = make(lab_per_user=2)
    lab_of(client).hold()
    first, second = ask(client).json(), ask(client).json()
    assert (first["status"], first["position"], second["position"]) == ("queued", 1, 2)
    third = ask(client)
    assert third.status_code == 429
    assert third.json()["detail"] == (
        "you have 2 lab run(s) queued or running, the most one person may have at once (2); "
        "wait for one to finish or cancel one")
    assert client.post(f"/api/lab/runs/{first['id']}/cancel").status_code == 200
    assert ask(client).status_code == 201  # a cancelled run counts no more
    other = client.post("/api/account/signup", json={"name": "Ada", "password": "pw-of-ada"})
    assert other.status_code == 201, other.text
    assert ask(client).status_code == 201  # Ada is another user


def test_the_queue_is_bounded(make: Make) -> None:
    client = make(lab_queue=2, lab_per_user=5)
    lab_of(client).hold()
    assert [ask(client).status_code for _ in range(2)] == [201, 201]
    full = ask(client)
    assert full.status_code == 503 and full.headers["retry-after"] == "30"
    assert full.json()["detail"] == ("the lab's queue is full: 2 runs are waiting, the most it "
                                     "holds; try again in a minute")
    first = next(iter(lab_of(client).runs))
    assert client.post(f"/api/lab/runs/{first}/cancel").status_code == 200
    again = ask(client).json()
    assert again["status"] == "queued" and again["position"] == 2  # room again, at the end


def test_a_run_is_cancelled_queued_or_running_by_its_owner_only(make: Make) -> None:
    client = make(lab_games=5000, lab_seconds=1e6)
    lab = lab_of(client)
    lab.hold()
    queued = ask(client).json()
    gone = client.post(f"/api/lab/runs/{queued['id']}/cancel")
    assert gone.status_code == 200 and gone.json()["status"] == "cancelled"
    again = client.post(f"/api/lab/runs/{queued['id']}/cancel")
    assert again.status_code == 409 and "cancelled already" in again.json()["detail"]
    lab.release()
    long = ask(client, games=5000).json()  # minutes, unless cancelled
    run = lab.runs[long["id"]]
    assert run.playing.wait(WAIT)
    client.post("/api/account/signup", json={"name": "Bea", "password": "pw-of-bea"})
    assert client.post(f"/api/lab/runs/{long['id']}/cancel").status_code == 403  # not hers
    client.post("/api/account/logout")
    stopped = client.post(f"/api/lab/runs/{long['id']}/cancel")
    assert stopped.status_code == 200, stopped.text
    assert run.finished.wait(WAIT)
    shown = client.get(f"/api/lab/runs/{long['id']}").json()
    assert shown["status"] == "cancelled" and 0 < shown["done"] < 5000
    assert shown["result"] is None and shown["report"] is None
    assert client.get(f"/api/lab/runs/{long['id']}/report").status_code == 409


def test_a_run_longer_than_the_lab_allows_stops_after_its_first_games(make: Make) -> None:
    client = make(lab_seconds=1e-6, lab_games=5000)
    run = finish(client, ask(client, games=5000).json())
    assert run["status"] == "failed" and run["done"] == 3  # the first games, timed
    assert run["error"].startswith("this run would take about ")
    assert run["error"].endswith("a lab run may take; fewer games or quicker bots shorten it")
    assert run["estimate"].startswith("about ") and run["report"] is None


def test_a_run_that_ends_lets_go_of_its_places_and_the_next_one_plays(make: Make) -> None:
    client = make(lab_per_user=2, lab_queue=1, lab_running=1, lab_games=5000, lab_seconds=1e6)
    lab = lab_of(client)
    long = ask(client, players=["random", "random"], games=5000).json()
    assert long["status"] == "running"  # a place to play was free: it plays at once
    assert lab.runs[long["id"]].playing.wait(WAIT)
    short = ask(client).json()
    assert (short["status"], short["position"]) == ("queued", 1)  # the one place is taken
    assert ask(client).status_code == 429  # two of this user's
    assert client.post(f"/api/lab/runs/{long['id']}/cancel").status_code == 200
    assert finish(client, short)["status"] == "done"  # it took the place the long one let go
    again = ask(client)  # a run that is done counts no more: its user, queue and play places
    assert again.status_code == 201, again.text
    assert finish(client, again.json())["status"] == "done"
