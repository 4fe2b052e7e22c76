"""Ratings through a real server: a finished game between accounts (and a bot) rates them as
a ranking, a game with a guest is recorded but not rated, leaderboards and profiles show it,
and `tiergarten ratings rebuild` gives the very same numbers from the logs."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from typing import Any

import httpx

from tiergarten.server.players.bot_levels import bot_mu, levels
from tiergarten.server.players.ratings import display

from .harness import SRC, Client, Server, eventually, play_until_over, run, sensible, until_over
from .test_accounts import fresh_name, sign_up


def seat(server: Server, client: httpx.Client, table: str, seat_no: int) -> str:
    answer = client.post(f"/api/tables/{table}/join", json={"name": "x", "seat": seat_no})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["token"])


def play_out(server: Server, table: str, tokens: list[str]) -> None:
    """Every seat of `tokens` plays its first legal move until the game is over."""
    async def main() -> None:
        clients = [await Client.open(server, table, token) for token in tokens]
        await asyncio.gather(*(play_until_over(c, sensible, 60) for c in clients))
        for c in clients:
            await c.close()

    run(main())


def finished_game(server: Server, players: list[httpx.Client | None], bot: str = "normal",
                  seed: int = 3) -> str:
    """A one-round Mau Mau with these people (None: a guest) and one bot, played out."""
    seats: list[Any] = [None] * len(players) + [{"bot": bot}]
    table = server.create(game="maumau", players=len(seats), options={"rounds": 1},
                          seats=seats, seed=seed)["id"]
    tokens = []
    for n, who in enumerate(players):
        tokens.append(seat(server, who, table, n) if who is not None
                      else server.join(table, "Guest", n)[1])
    play_out(server, table, tokens)
    wait_for_results(server, table, [who for who in players if who is not None])
    return str(table)


def wait_for_results(server: Server, table: str, accounts: list[httpx.Client]) -> None:
    """The results are stored just after the last act (in the store's writer): wait until the
    page of every account that played shows the game."""
    run(until_over(server, table, 30))
    for who in accounts:
        name = who.get("/api/account").json()["user"]["name"]
        eventually(lambda name=name: any(r["table"] == table for r in server.get(
            f"/api/players/{name}").json()["recent"]), 10, f"{name}'s result at {table}")


def test_a_rated_game_moves_ratings_by_rank_and_profiles_show_it(server: Server) -> None:
    ann_name, bob_name = fresh_name("Rae"), fresh_name("Rob")
    ann, bob = sign_up(server, ann_name), sign_up(server, bob_name)
    table = finished_game(server, [ann, bob])
    result = server.get(f"/api/tables/{table}/record").json()["result"]
    ann_page = server.get(f"/api/players/{ann_name}").json()
    bob_page = server.get(f"/api/players/{bob_name}").json()
    for page, seat_no in ((ann_page, 0), (bob_page, 1)):
        assert page["played"] == 1 and page["won"] == int(seat_no in result["winners"])
        [maumau] = page["ratings"]
        assert maumau["game"] == "maumau" and maumau["games"] == 1
        assert len(maumau["history"]) == 1 and maumau["history"][0]["table"] == table
        assert page["recent"][0]["table"] == table and page["recent"][0]["rated"] is True
        assert page["recent"][0]["rank"] == result["ranks"][seat_no]
    # a ranking: the better placed of the two gained more (or lost less)
    ranks = result["ranks"]
    mus = [ann_page["ratings"][0]["mu"], bob_page["ratings"][0]["mu"]]
    if ranks[0] != ranks[1]:
        better = 0 if ranks[0] < ranks[1] else 1
        assert mus[better] > mus[1 - better]
    assert ann_page["opponents"] == [{"name": bob_name, "account": bob_name, "games": 1}]
    board = server.get("/api/leaderboard/maumau").json()
    names = [p["name"] for p in board["players"]]
    assert ann_name in names and bob_name in names
    bots = {b["bot"]: b["rating"] for b in board["bots"]}
    assert list(bots) == levels("maumau")  # the measured levels, weakest first
    assert bots["expert"] == display(bot_mu("maumau", "expert"))
    assert server.get("/api/leaderboard/chess").status_code == 404
    assert server.get("/api/players/nobody-at-all").status_code == 404


def test_a_game_with_a_guest_is_counted_but_not_rated(server: Server) -> None:
    name = fresh_name("Sam")
    me = sign_up(server, name)
    finished_game(server, [me, None], seed=5)
    page = server.get(f"/api/players/{name}").json()
    assert page["played"] == 1 and page["ratings"] == []
    assert page["recent"][0]["rated"] is False


def test_ratings_rebuilt_from_the_log_are_the_same(server: Server) -> None:
    name, other = fresh_name("Tia"), fresh_name("Ugo")
    me, them = sign_up(server, name), sign_up(server, other)
    for seed in (7, 8):
        finished_game(server, [me, them], bot="easy", seed=seed)
    finished_game(server, [me], bot="expert", seed=9)
    before = [server.get(f"/api/players/{n}").json() for n in (name, other)]
    assert before[0]["ratings"][0]["games"] == 3 and before[1]["ratings"][0]["games"] == 2
    done = subprocess.run([sys.executable, "-c", "from tiergarten.cli import main; main()",
                           "ratings", "rebuild",
                           "--db", server.db], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(SRC)))
    assert done.returncode == 0, done.stderr
    assert "finished games" in done.stdout
    after = [server.get(f"/api/players/{n}").json() for n in (name, other)]
    assert after == before  # every mu and sigma, every history point, to the last bit
