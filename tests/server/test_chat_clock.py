"""Table chat and the clock through a real server: players and spectators marked, plain text
cleaned, length and rate limits, reactions, the creator's switch, chat kept for replays; a
clock per player that spends the time of the seat to move and lets its bot play at zero."""

from __future__ import annotations

from pathlib import Path

from .harness import Client, Server, play_until_over, run, sensible


def two_person_table(server: Server, **extra: object) -> tuple[str, str, list[str]]:
    made = server.create(game="maumau", players=2, options={"rounds": 1}, seats=[None, None],
                         seed=4, **extra)
    tokens = [server.join(made["id"], name, n)[1] for n, name in enumerate(("Ann", "Bob"))]
    return str(made["id"]), str(made["owner"]), tokens


async def chat_line(client: Client, n: int | None = None) -> dict[str, object]:
    """The next chat line (line `n`, if given)."""
    return await client.until(lambda m: m["type"] == "chat" and (n is None or m["n"] == n))


def test_players_and_spectators_chat_and_it_is_kept(server: Server) -> None:
    table, _owner, (ann_token, bob_token) = two_person_table(server)

    async def main() -> None:
        ann = await Client.open(server, table, ann_token)
        bob = await Client.open(server, table, bob_token)
        watcher = await Client.open(server, table)
        log = await watcher.until(lambda m: m["type"] == "chat_log")
        assert log["lines"] == []
        await ann.send({"chat": "  good\u0000 luck\n  <b>all</b> "})
        for client in (ann, bob, watcher):
            line = await chat_line(client)
            assert (line["name"], line["role"], line["seat"]) == ("Ann", "player", 0)
            assert line["kind"] == "text" and line["text"] == "good luck <b>all</b>"  # as text
        await watcher.send({"chat": "go Bob", "name": "Zoe"})
        line = await chat_line(bob)
        assert (line["name"], line["role"], line["seat"]) == ("Zoe", "spectator", None)
        await bob.send({"react": "thumbs"})
        line = await chat_line(ann, 2)
        assert (line["kind"], line["text"], line["name"]) == ("reaction", "thumbs", "Bob")
        await bob.send({"react": "rude"})
        error = await bob.until(lambda m: m["type"] == "error")
        assert error["code"] == "bad_message" and "thumbs|smile" in error["message"]
        await ann.send({"chat": "x" * 201})
        error = await ann.until(lambda m: m["type"] == "error")
        assert error["code"] == "too_long" and "200" in error["message"]
        again = await Client.open(server, table)  # a newcomer gets the whole chat so far
        log = await again.until(lambda m: m["type"] == "chat_log")
        assert [(li["name"], li["text"]) for li in log["lines"]] == [
            ("Ann", "good luck <b>all</b>"), ("Zoe", "go Bob"), ("Bob", "thumbs")]
        for client in (ann, bob, watcher, again):
            await client.close()

    run(main())


def test_each_spectator_has_a_number_of_its_own(server: Server, tmp_path: Path) -> None:
    """Spectators are numbered per table in order of arrival: `hello` tells each its number,
    its chat lines carry it (and name it, unless it gave a name), a seated connection has none;
    a spectator who claims a seat is greeted as the seat; a restarted server numbers on."""
    db = str(tmp_path / "watchers.db")
    first = Server(db, "--bot-pace", "0", "--allow-seeds").start()
    table, _owner, (ann_token, _bob) = two_person_table(first)

    async def main(srv: Server) -> list[dict[str, object]]:
        ann = await Client.open(srv, table, ann_token)
        hello = await ann.until(lambda m: m["type"] == "hello")
        assert hello["seat"] == 0 and "spectator" not in hello
        one = await Client.open(srv, table, address="10.1.0.1")
        two = await Client.open(srv, table, address="10.1.0.2")
        numbers = [(await c.until(lambda m: m["type"] == "hello"))["spectator"] for c in (one, two)]
        assert numbers == [1, 2]
        await two.send({"chat": "hi from two"})
        await one.send({"react": "wow"})
        await one.send({"chat": "and I am Zoe", "name": "Zoe"})
        lines = [await chat_line(ann, n) for n in range(3)]
        await ann.send({"chat": "welcome"})
        lines.append(await chat_line(two, 3))
        claim = await Client.open(srv, table, address="10.1.0.3")
        assert (await claim.until(lambda m: m["type"] == "hello"))["spectator"] == 3
        await claim.send({"token": ann_token})  # a spectator takes its seat: no number then
        again = await claim.until(lambda m: m["type"] == "hello")
        assert again["seat"] == 0 and "spectator" not in again
        for client in (ann, one, two, claim):
            await client.close()
        return lines

    lines = run(main(first))
    assert [(li["name"], li["role"], li["seat"], li.get("spectator")) for li in lines] == [
        ("spectator 2", "spectator", None, 2), ("spectator 1", "spectator", None, 1),
        ("Zoe", "spectator", None, 1), ("Ann", "player", 0, None)]
    first.stop()

    again = Server(db, "--bot-pace", "0", "--allow-seeds").start()
    try:
        async def later() -> None:
            watcher = await Client.open(again, table, address="10.1.0.4")
            hello = await watcher.until(lambda m: m["type"] == "hello")
            log = await watcher.until(lambda m: m["type"] == "chat_log")
            assert [li.get("spectator") for li in log["lines"]] == [2, 1, 1, None]  # as stored
            assert hello["spectator"] == 3  # on from the highest the chat names
            await watcher.close()

        run(later())
    finally:
        again.stop()


def test_chat_is_rate_limited_per_connection(server: Server) -> None:
    table, _owner, (ann_token, _bob) = two_person_table(server)

    async def main() -> None:
        ann = await Client.open(server, table, ann_token)
        for n in range(6):
            await ann.send({"chat": f"spam {n}"})
        error = await ann.until(lambda m: m["type"] == "error")
        assert error["code"] == "chat_rate" and "at most 5" in error["message"]
        said = [m["text"] for m in ann.received if m["type"] == "chat"]
        while len(said) < 5:
            said.append((await chat_line(ann))["text"])
        assert said == [f"spam {n}" for n in range(5)]
        await ann.close()

    run(main())


def test_the_creator_switches_chat_off(server: Server) -> None:
    table, owner, (ann_token, _bob) = two_person_table(server)
    refused = server.post(f"/api/tables/{table}/chat", {"owner": ann_token, "on": False})
    assert refused.status_code == 403 and "creator" in refused.json()["detail"]
    switched = server.post(f"/api/tables/{table}/chat", {"owner": owner, "on": False})
    assert switched.status_code == 200 and switched.json()["chat"] is False

    async def main() -> None:
        ann = await Client.open(server, table, ann_token)
        await ann.send({"chat": "hello?"})
        error = await ann.until(lambda m: m["type"] == "error")
        assert error["code"] == "chat_off"
        await ann.close()

    run(main())
    assert server.post(f"/api/tables/{table}/chat", {"owner": owner, "on": True}).json()["chat"]


def test_a_replay_shows_the_chat_at_its_moment(server: Server) -> None:
    made = server.create(game="maumau", players=2, options={"rounds": 1},
                         seats=[None, {"bot": "random"}], seed=6)
    table = made["id"]
    _seat, token = server.join(table, "Ann", 0)

    async def main() -> None:
        ann = await Client.open(server, table, token)
        await ann.until(lambda m: m["type"] == "chat_log")
        await ann.send({"chat": "here we go"})
        await chat_line(ann)
        await play_until_over(ann, sensible, 60)
        await ann.close()

    run(main())
    replay = server.get(f"/api/tables/{table}/replay").json()
    assert [(c["name"], c["text"]) for c in replay["chat"]] == [("Ann", "here we go")]
    assert replay["chat"][0]["version"] < len(replay["steps"])


def test_a_clock_spends_the_time_of_the_seat_to_move_and_a_bot_plays_at_zero(
        server: Server) -> None:
    refused = server.post("/api/tables", {"game": "maumau", "timer": 30,
                                          "clock": {"bank": 60, "increment": 2}})
    assert refused.status_code == 400 and "not both" in refused.json()["detail"]
    realtime = server.post("/api/tables", {"game": "lecker_mammut", "clock": {"bank": 60}})
    assert realtime.status_code == 400 and "real time" in realtime.json()["detail"]
    table, _owner, (ann_token, bob_token) = two_person_table(
        server, clock={"bank": 1.5, "increment": 1.0})
    info = server.get(f"/api/tables/{table}").json()
    assert info["clock"] == {"bank": 1.5, "increment": 1.0} and info["timer"] is None

    async def main() -> None:
        ann = await Client.open(server, table, ann_token)
        bob = await Client.open(server, table, bob_token)
        state = await ann.until(lambda m: m["type"] == "state")
        due = state["observation"]["to_move"][0]
        assert state["clock"]["running"] == [due]
        assert 0 < state["clock"]["left"][due] <= 1.5 and state["clock"]["left"][1 - due] == 1.5
        # nobody moves: after 1.5 s the seat's bot plays for the one due, who is then away
        away = await ann.until(lambda m: m["type"] == "table" and m["seats"][due]["away"], 10)
        assert away["seats"][due]["away"] is True
        moved = await ann.until(lambda m: m["type"] == "state" and m["version"] >= 1, 10)
        assert moved["clock"]["left"][due] >= 0.9  # the bot's move earned the increment
        await ann.close()
        await bob.close()

    run(main())
