"""The REST API: games and options, tables, joining, leaving, records, refusals."""

from __future__ import annotations

import tiergarten
from tiergarten.core.registry import game_class

from .harness import Server, run, until_over


def test_the_server_says_where_it_listens(server: Server) -> None:
    assert f"tiergarten serving on http://127.0.0.1:{server.port}" in server.output()


def test_games_list_their_options_and_bots(server: Server) -> None:
    games = {g["id"]: g for g in server.get("/api/games").json()}
    assert set(games) == set(tiergarten.games())
    maumau = games["maumau"]
    info = game_class("maumau").info
    assert (maumau["min_players"], maumau["max_players"]) == (info.min_players, info.max_players)
    options = {o["name"]: o for o in maumau["options"]}
    assert options["target_score"]["default"] == 150
    assert options["two_player_nine"]["choices"] == ["none", "skip"]
    assert "points" in options["target_score"]["doc"]
    assert options["jack_on_jack"]["allowed"] == "true, false"
    assert "heuristic" in maumau["bots"] and "random" in maumau["bots"]


def test_bad_tables_are_refused_with_the_reason(server: Server) -> None:
    cases = [
        ({"game": "skat"}, "unknown game 'skat'; allowed: lecker_mammut"),
        ({"game": "maumau", "players": 9}, "maumau is for 2 to"),
        ({"game": "maumau", "options": {"target": 3}}, "unknown option 'target'"),
        ({"game": "maumau", "options": {"mau_penalty": 99}}, "option 'mau_penalty' cannot be 99"),
        ({"game": "maumau", "players": 2, "seats": [{"bot": "genius"}]},
         "no bot 'genius' for maumau; allowed: "),
        ({"game": "maumau", "players": 2, "seats": [None, None, None]}, "3 seats given for 2"),
    ]
    for body, message in cases:
        response = server.post("/api/tables", body)
        assert response.status_code == 400, (body, response.text)
        assert message in response.json()["detail"], response.json()
    refused = server.post("/api/tables", {"game": "maumau", "seats": [{"bot": "genius"}]})
    assert {"heuristic", "random"} <= set(refused.json()["detail"].split("allowed: ")[1]
                                          .split(", "))
    assert server.post("/api/tables", {"game": "maumau", "colour": "red"}).status_code == 422
    assert server.post("/api/tables", {"game": "maumau", "timer": -1}).status_code == 422


def test_create_list_join_leave(server: Server) -> None:
    table = server.create(game="maumau", players=3, seats=[{"bot": "random"}, None, None])
    tid = table["id"]
    assert table["status"] == "open"
    assert [s["taken"] for s in table["seats"]] == [True, False, False]
    assert tid in {t["id"] for t in server.get("/api/tables").json()}

    seat, token = server.join(tid, "  Ann  ")
    assert seat == 1 and len(token) >= 32
    shown = server.get(f"/api/tables/{tid}").json()
    assert shown["seats"][1]["name"] == "Ann"
    assert token not in str(shown)
    again = server.post(f"/api/tables/{tid}/join", {"name": "Bob", "seat": 1})
    assert again.status_code == 409
    assert server.post(f"/api/tables/{tid}/join", {"name": "Bob", "seat": 0}).status_code == 409
    nameless = server.post(f"/api/tables/{tid}/join", {"name": ""})  # the name rule says why
    assert nameless.status_code == 400
    assert nameless.json()["detail"] == "a name is needed to sit down"

    wrong = server.post(f"/api/tables/{tid}/leave", {"token": "not-a-token"})
    assert wrong.status_code == 403
    assert server.post(f"/api/tables/{tid}/leave", {"token": token}).json()["seat"] == 1
    assert server.get(f"/api/tables/{tid}").json()["seats"][1]["taken"] is False
    assert server.post(f"/api/tables/{tid}/leave", {"token": token}).status_code == 403

    server.join(tid, "Bob")
    server.join(tid, "Cy")
    shown = server.get(f"/api/tables/{tid}").json()
    assert shown["status"] == "playing"
    assert [s["name"] for s in shown["seats"]] == [None, "Bob", "Cy"]
    assert tid not in {t["id"] for t in server.get("/api/tables").json()}
    full = server.post(f"/api/tables/{tid}/join", {"name": "Dan"})
    assert full.status_code == 409 and "no seat is open" in full.json()["detail"]


def test_unknown_tables(server: Server) -> None:
    assert server.get("/api/tables/nope").status_code == 404
    assert server.post("/api/tables/nope/join", {"name": "A"}).status_code == 404
    assert server.get("/api/tables/nope/record").status_code == 404


def test_the_record_is_whole_only_when_the_game_is_over(server: Server) -> None:
    table = server.create(game="maumau", players=2, options={"rounds": 1},
                          seats=[None, {"bot": "heuristic"}], seed=3)
    tid = table["id"]
    _, token = server.join(tid, "Ann")
    early = server.get(f"/api/tables/{tid}/record").json()
    assert early["status"] == "playing"
    refused = server.get(f"/api/tables/{tid}/replay")
    assert refused.status_code == 409 and "once it is over" in refused.json()["detail"]
    assert "record" not in early and "seed" not in str(early)
    assert early["observation"]["hand"] is None  # a spectator's view

    leave = server.post(f"/api/tables/{tid}/leave", {"token": token})  # a bot plays on
    assert leave.status_code == 200
    run(until_over(server, tid, 10))
    done = server.get(f"/api/tables/{tid}/record").json()
    assert done["status"] == "over"
    record = done["record"]
    assert record["seed"] == 3 and record["options"]["rounds"] == 1
    state = tiergarten.replay(record)
    assert state.is_over() and state.result().to_dict() == done["result"]

    replay = server.get(f"/api/tables/{tid}/replay").json()  # every position, every hand
    steps = replay["steps"]
    assert len(steps) == len(record["actions"]) + 1 and steps[0]["act"] is None
    assert [[s["seat"], s["act"]] for s in steps[1:]] == record["actions"]
    again = tiergarten.replay({**record, "actions": []})
    assert [v["hand"] for v in steps[0]["seats"]] == [again.observe(s)["hand"] for s in (0, 1)]
    assert steps[-1]["view"] == {k: v for k, v in state.observe(None).items() if k != "log"}
    # each step names the log entries its act added: the live log's words fit the replay too
    plays = [s for s in steps[1:] if s["act"].startswith("play ")]
    assert plays and all(s["events"][0] == {"seat": s["seat"], "act": s["act"]} for s in plays)
    draws = [s for s in steps[1:] if s["act"] == "draw"]
    assert draws and all(s["events"][0]["act"] == "draw" and s["events"][0]["cards"] >= 1
                         for s in draws)
    assert replay["result"] == done["result"]

    rematch = server.post(f"/api/tables/{tid}/rematch", {"token": token})
    assert rematch.status_code == 201, rematch.text
    new = rematch.json()
    assert new["id"] != tid and new["game"] == "maumau" and new["options"]["rounds"] == 1
    assert [(s["kind"], s["bot"], s["name"]) for s in new["seats"]] == [
        ("human", None, "Ann"), ("bot", "heuristic", None)]
    assert new["status"] == "playing"  # the same people keep their seats (and tokens)
    twice = server.post(f"/api/tables/{tid}/rematch", {"token": token})
    assert twice.json()["id"] == new["id"]
    assert server.post(f"/api/tables/{tid}/rematch", {"token": "x"}).status_code == 403
    assert server.get(f"/api/tables/{tid}").json()["rematch"] == new["id"]
