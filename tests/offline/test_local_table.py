"""The local table (tiergarten.offline) answers as the server does: whole games of every game
against bots and at one screen, refusals, the record, the replay and a restore after a reload."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tiergarten.core import replay
from tiergarten.offline import LocalServer, finished
from tiergarten.server.edge.protocol import SERVER_MESSAGES


class Heard:
    """A transport that keeps what each connection heard, and the page's storage."""

    def __init__(self) -> None:
        self.by_conn: dict[int, list[dict[str, Any]]] = {}
        self.closed: dict[int, int] = {}
        self.kept: dict[str, str] = {}

    def deliver(self, conn: int, text: str) -> None:
        message = json.loads(text)
        model = SERVER_MESSAGES.get(message["type"])
        if model is not None:
            model.model_validate(message)  # the server's own message models
        self.by_conn.setdefault(conn, []).append(message)

    def close(self, conn: int, code: int, reason: str) -> None:
        self.closed[conn] = code

    def saved(self, table: str, text: str) -> None:
        self.kept[table] = text

    def last_state(self, conn: int) -> dict[str, Any]:
        return [m for m in self.by_conn[conn] if m["type"] == "state"][-1]


class Clock:
    """Bots' pauses without waiting: the callbacks run in due order when asked."""

    def __init__(self) -> None:
        self.t = 0.0
        self.due: list[tuple[float, int, Any]] = []
        self.n = 0

    def schedule(self, delay: float, callback: Any) -> Any:
        clock = self
        self.n += 1
        entry = [self.t + delay, self.n, callback, False]

        class Handle:
            def cancel(self) -> None:
                entry[3] = True

        self.due.append(entry)  # type: ignore[arg-type]
        del clock
        return Handle()

    def run_one(self) -> bool:
        live = sorted((e for e in self.due if not e[3]), key=lambda e: (e[0], e[1]))
        if not live:
            return False
        entry = live[0]
        self.due.remove(entry)
        self.t = max(self.t, entry[0])
        entry[2]()
        return True


def local() -> tuple[LocalServer, Heard, Clock]:
    heard, clock = Heard(), Clock()
    server = LocalServer(heard, bot_pace=1.0, schedule=clock.schedule, now=lambda: clock.t)
    return server, heard, clock


def call(server: LocalServer, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    answer = json.loads(server.request(method, path, None if body is None else json.dumps(body)))
    return answer["status"], answer["data"]


GAMES = [("maumau", 2, {"rounds": 1}), ("mammuz", 3, {}), ("lecker_mammut", 2, {"rounds": 1}),
         ("mucca_pazza", 2, {"variant": "standard"}), ("mucca_pazza", 2, {"variant": "junior"})]


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_a_whole_game_against_bots(game: str, players: int, options: dict[str, Any]) -> None:
    server, heard, clock = local()
    status, table = call(server, "POST", "/api/tables",
                         {"game": game, "players": players, "options": options,
                          "seats": [None] + [{"bot": "easy"}] * (players - 1)})
    assert status == 201 and table["status"] == "open"
    path = f"/api/tables/{table['id']}"
    status, joined = call(server, "POST", f"{path}/join", {"name": "Ann", "seat": 0})
    assert status == 200
    conn = server.connect(table["id"], joined["token"])
    rng = random.Random(1)
    for _ in range(20000):
        state = heard.last_state(conn)
        if call(server, "GET", path)[1]["status"] == "over":
            break
        if state["legal"]:
            server.receive(conn, json.dumps({"act": rng.choice(state["legal"]),
                                             "version": state["version"]}))
        elif not clock.run_one():
            raise AssertionError("nobody moves")
    status, info = call(server, "GET", f"/api/tables/{table['id']}")
    assert info["status"] == "over"
    status, record = call(server, "GET", f"/api/tables/{table['id']}/record")
    assert record["status"] == "over"
    assert replay(record["record"]).result().to_dict() == record["result"]
    assert finished(record["record"]).is_over()
    status, steps = call(server, "GET", f"/api/tables/{table['id']}/replay")
    assert status == 200 and len(steps["steps"]) == len(record["record"]["actions"]) + 1
    errors = [m for m in heard.by_conn[conn] if m["type"] == "error"]
    assert errors == []
    kept = json.loads(heard.kept[table["id"]])
    assert kept["status"] == "over" and kept["record"] == record["record"]


def test_hot_seat_refusals_and_restore() -> None:
    server, heard, clock = local()
    _, table = call(server, "POST", "/api/tables", {"game": "maumau", "players": 2,
                                                    "options": {"rounds": 1}})
    join = f"/api/tables/{table['id']}/join"
    tokens = [call(server, "POST", join, {"name": n, "seat": i})[1]["token"]
              for i, n in enumerate(["Ann", "Bob"])]
    conns = [server.connect(table["id"], t) for t in tokens]
    state = heard.last_state(conns[0])
    to_move = state["observation"]["turn"]
    other = conns[1 - to_move]
    server.receive(other, json.dumps({"act": "draw", "version": state["version"]}))
    assert heard.by_conn[other][-1]["code"] == "illegal"
    server.receive(conns[to_move], json.dumps({"act": "draw", "version": state["version"] + 5}))
    assert heard.by_conn[conns[to_move]][-1]["code"] == "stale"
    server.receive(conns[to_move], "nonsense")
    assert heard.by_conn[conns[to_move]][-1]["code"] == "bad_message"
    mover = heard.last_state(conns[to_move])
    server.receive(conns[to_move], json.dumps({"act": mover["legal"][0],
                                               "version": mover["version"]}))
    assert heard.last_state(conns[0])["version"] == mover["version"] + 1
    assert heard.last_state(conns[1])["version"] == mover["version"] + 1
    # a reload: the page gives back what it kept, and the seats' tokens still hold
    again, heard2, _ = local()
    assert again.restore(json.dumps([json.loads(t) for t in heard.kept.values()])) == [table["id"]]
    conn = again.connect(table["id"], tokens[0])
    assert heard2.last_state(conn)["version"] == mover["version"] + 1
    bad = again.connect(table["id"], "guess")
    assert heard2.closed[bad] == 4401


def three_alike(middle: list[str]) -> str | None:
    parts = [part for c in middle for part in c.split("-")]
    return next((p for p in parts if parts.count(p) >= 3), None)


def test_a_press_at_one_screen_is_a_commitment_as_on_the_server() -> None:
    """Lecker Mammut! (rules 3) at one screen: a press with nothing to call is a miss at once
    and the call after it is void; a press on three alike waits for its call, judged on the
    version pressed on; one withdrawn is a miss."""
    server, heard, _ = local()
    _, table = call(server, "POST", "/api/tables", {"game": "lecker_mammut", "players": 2,
                                                    "options": {"rounds": 1}, "seed": 11})
    join = f"/api/tables/{table['id']}/join"
    tokens = [call(server, "POST", join, {"name": n, "seat": i})[1]["token"]
              for i, n in enumerate(["Ann", "Bob"])]
    ann, bob = (server.connect(table["id"], t) for t in tokens)

    def send(conn: int, **message: Any) -> None:
        server.receive(conn, json.dumps(message))

    def acts() -> list[str]:
        return [e["act"] for m in heard.by_conn[ann] if m["type"] == "state"
                for e in m["events"]]

    send(bob, press=True, version=0)
    send(bob, act="hit deer @0", version=0)
    assert heard.by_conn[bob][-1]["code"] == "void" and acts() == ["miss"]
    while (three := three_alike(heard.last_state(ann)["observation"]["middle"])) is None:
        send(ann, act="flip", version=heard.last_state(ann)["version"])
    state = heard.last_state(ann)
    version, seen = state["version"], state["observation"]["version"]
    send(bob, press=True, version=version)
    send(ann, act="flip", version=version)  # a flip is no call: the press stands
    send(bob, act=f"hit {three} @{seen}", version=version)
    assert acts()[-2:] == ["flip", "hit"] and heard.last_state(bob)["events"][-1]["seat"] == 1
    send(ann, press=True, version=heard.last_state(ann)["version"])
    send(ann, press=False, version=heard.last_state(ann)["version"])
    assert acts()[-1] == "miss"
    assert all(m["type"] != "error" for m in heard.by_conn[ann])


def test_the_games_list_is_the_servers() -> None:
    from tiergarten.core import games
    from tiergarten.server.routes.games import describe_game

    server, _, _ = local()
    assert call(server, "GET", "/api/games")[1] == [describe_game(g) for g in games()]


def test_refusals_carry_the_servers_codes() -> None:
    """The same codes (and parameters) as the server's for the same refusals (docs/protocol.md,
    "REST error codes"): the page words them alike."""
    server, _, _ = local()
    assert call(server, "GET", "/api/tables/local-nope")[1]["code"] == "no_table"
    status, data = call(server, "POST", "/api/tables",
                        {"game": "maumau", "options": {"mau_penalty": 99}})
    assert (status, data["code"], data["params"]) == (400, "bad_option", {"option": "mau_penalty"})
    table = call(server, "POST", "/api/tables", {"game": "maumau", "players": 2,
                                                 "seats": [None, {"bot": "random"}]})[1]
    status, data = call(server, "POST", f"/api/tables/{table['id']}/join", {"name": " "})
    assert (status, data["code"]) == (400, "name_missing")
    status, data = call(server, "GET", f"/api/tables/{table['id']}/replay")
    assert (status, data["code"], data["params"]) == (409, "not_over", {"status": "open"})
