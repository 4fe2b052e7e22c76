"""Accounts through a real server: sign up, in and out, sessions in cookies, refusals that
name no user, rate-limited sign-ins, cross-site requests refused, seats that follow a player,
a guest's seats claimed, a deleted account whose games stay."""

from __future__ import annotations

import itertools

import httpx

from .harness import Client, Server, run

PASSWORD = "correct horse battery"
_names = itertools.count(1)


def fresh_name(stem: str = "Ann") -> str:
    return f"{stem} {next(_names)}"


def browser(server: Server) -> httpx.Client:
    """A client with its own cookie jar, sending the Origin a page of the server sends."""
    return httpx.Client(base_url=server.url, timeout=10, trust_env=False,
                        headers={"Origin": server.url})


def sign_up(server: Server, name: str, password: str = PASSWORD) -> httpx.Client:
    client = browser(server)
    answer = client.post("/api/account/signup", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    return client


def test_sign_up_sets_a_session_cookie_and_sign_out_ends_it(server: Server) -> None:
    name = fresh_name()
    client = browser(server)
    answer = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201 and answer.json() == {"user": {"name": name}}
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
    assert "secure" not in cookie  # plain http here; over TLS it is Secure (below)
    assert client.get("/api/account").json() == {"user": {"name": name}}
    assert client.post("/api/account/logout").json() == {"user": None}
    assert client.get("/api/account").json() == {"user": None}
    assert httpx.get(server.url + "/api/account", trust_env=False).json() == {"user": None}


def test_behind_tls_the_cookie_is_secure(server: Server) -> None:
    client = browser(server)  # a proxy on loopback that ended TLS says so (uvicorn trusts it)
    answer = client.post("/api/account/signup", headers={"X-Forwarded-Proto": "https"},
                         json={"name": fresh_name(), "password": PASSWORD})
    assert answer.status_code == 201
    assert "secure" in answer.headers["set-cookie"].lower()


def test_names_are_checked_and_taken_once_whatever_the_case(server: Server) -> None:
    name = fresh_name("Bea")
    sign_up(server, name)
    for bad, why in ((name.upper(), "taken"), ("ab", "3 to 24 characters"),
                     ("Ann\u0000x", "letters, digits"), ("deleted player", "kept")):
        answer = browser(server).post("/api/account/signup",
                                      json={"name": bad, "password": PASSWORD})
        assert answer.status_code in (400, 409) and why in answer.json()["detail"], bad
    short = browser(server).post("/api/account/signup",
                                 json={"name": fresh_name(), "password": "short"})
    assert short.status_code == 400 and "8 to 200" in short.json()["detail"]


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(server: Server) -> None:
    name = fresh_name("Cid")
    sign_up(server, name)
    wrong = browser(server).post("/api/account/login", json={"name": name, "password": "nope" * 3})
    unknown = browser(server).post("/api/account/login",
                                   json={"name": fresh_name("Nobody"), "password": PASSWORD})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"detail": "wrong user name or password",
                                              "code": "wrong_login", "params": {}}
    assert "set-cookie" not in wrong.headers
    right = browser(server).post("/api/account/login",
                                 json={"name": f"  {name.lower()} ", "password": PASSWORD})
    assert right.status_code == 200 and right.json() == {"user": {"name": name}}


def test_failed_sign_ins_are_limited_per_name(server: Server) -> None:
    name, other = fresh_name("Dee"), fresh_name("Eve")
    sign_up(server, name)
    sign_up(server, other)
    for _ in range(5):
        answer = browser(server).post("/api/account/login",
                                      json={"name": name, "password": "guess guess"})
        assert answer.status_code == 401
    blocked = browser(server).post("/api/account/login", json={"name": name, "password": PASSWORD})
    assert blocked.status_code == 429 and "try again in" in blocked.json()["detail"]
    fine = browser(server).post("/api/account/login", json={"name": other, "password": PASSWORD})
    assert fine.status_code == 200  # another name is not blocked


def test_cross_site_requests_change_nothing(server: Server) -> None:
    name = fresh_name("Flo")
    client = sign_up(server, name)
    evil = {"Origin": "https://evil.example"}
    for path, body in (("/api/account/logout", None),
                       ("/api/account/delete", {"password": PASSWORD}),
                       ("/api/account/password", {"old": PASSWORD, "new": "x" * 12}),
                       ("/api/tables", {"game": "maumau"})):
        answer = client.post(path, json=body, headers=evil)
        assert answer.status_code == 403 and "evil.example" in answer.json()["detail"], path
    fetched = client.post("/api/account/logout", headers={"Sec-Fetch-Site": "cross-site"})
    assert fetched.status_code == 403 and "cross-site" in fetched.json()["detail"]
    assert client.get("/api/account").json() == {"user": {"name": name}}  # still signed in
    assert client.post("/api/account/login", json={"name": name, "password": PASSWORD},
                       headers={"Sec-Fetch-Site": "same-origin"}).status_code == 200


def test_a_players_seat_follows_them_to_another_device(server: Server) -> None:
    name = fresh_name("Gus")
    phone = sign_up(server, name)
    table = server.create(game="maumau", players=2, options={"rounds": 1},
                          seats=[None, None])["id"]
    joined = phone.post(f"/api/tables/{table}/join", json={"name": "whatever", "seat": 1})
    assert joined.status_code == 200
    token = joined.json()["token"]
    info = server.get(f"/api/tables/{table}").json()
    assert info["seats"][1]["name"] == name and info["seats"][1]["account"] == name
    laptop = browser(server)
    assert laptop.post("/api/account/login",
                       json={"name": name, "password": PASSWORD}).status_code == 200
    seats = laptop.get("/api/account/seats").json()
    assert [(s["table"], s["seat"], s["token"]) for s in seats] == [(table, 1, token)]
    assert browser(server).get("/api/account/seats").status_code == 401  # guests have none

    async def connect() -> None:
        client = await Client.open(server, table, seats[0]["token"])
        hello = await client.until(lambda m: m["type"] == "hello")
        assert hello["seat"] == 1
        await client.ws.close()

    run(connect())


def test_a_guest_claims_the_seats_of_their_browser(server: Server) -> None:
    table = server.create(game="maumau", players=2, options={"rounds": 1},
                          seats=[None, {"bot": "random"}])["id"]
    seat, guest_token = server.join(table, "Guest")
    name = fresh_name("Hal")
    client = sign_up(server, name)
    claimed = client.post("/api/account/claim", json={"seats": [
        {"table": table, "token": guest_token}, {"table": table, "token": "not-a-token"}]})
    assert claimed.status_code == 200
    [entry] = claimed.json()
    assert entry["table"] == table and entry["seat"] == seat and entry["token"] != guest_token
    info = server.get(f"/api/tables/{table}").json()
    assert info["seats"][seat]["account"] == name
    assert client.get("/api/account/seats").json()[0]["token"] == entry["token"]
    again = sign_up(server, fresh_name("Ivy")).post(
        "/api/account/claim", json={"seats": [{"table": table, "token": entry["token"]}]})
    assert again.json() == []  # an account's seat is nobody else's to claim

    async def old_token_is_gone() -> None:
        client = await Client.open(server, table, guest_token)
        error = await client.until(lambda m: m["type"] == "error")
        assert error["code"] == "bad_token"

    run(old_token_is_gone())


def test_a_new_password_ends_the_other_sessions(server: Server) -> None:
    name = fresh_name("Jo")
    here = sign_up(server, name)
    there = browser(server)
    there.post("/api/account/login", json={"name": name, "password": PASSWORD})
    wrong = here.post("/api/account/password", json={"old": "not it at all", "new": "n" * 10})
    assert wrong.status_code == 403
    assert here.post("/api/account/password",
                     json={"old": PASSWORD, "new": "n" * 10}).status_code == 200
    assert here.get("/api/account").json() == {"user": {"name": name}}
    assert there.get("/api/account").json() == {"user": None}
    assert browser(server).post("/api/account/login",
                                json={"name": name, "password": "n" * 10}).status_code == 200


def test_a_deleted_account_keeps_its_games_under_deleted_player(server: Server) -> None:
    name = fresh_name("Kim")
    client = sign_up(server, name)
    table = server.create(game="maumau", players=2, options={"rounds": 1},
                          seats=[None, {"bot": "random"}])["id"]
    assert client.post(f"/api/tables/{table}/join", json={"name": "x"}).status_code == 200
    assert client.post("/api/account/delete", json={"password": "wrong one"}).status_code == 403
    assert client.post("/api/account/delete", json={"password": PASSWORD}).status_code == 200
    assert client.get("/api/account").json() == {"user": None}
    seat = server.get(f"/api/tables/{table}").json()["seats"][0]
    assert seat["name"] == "deleted player" and seat["account"] is None and seat["taken"]
    login = browser(server).post("/api/account/login", json={"name": name, "password": PASSWORD})
    assert login.status_code == 401 and login.json()["detail"] == "wrong user name or password"
    sign_up(server, name)  # the name is free again, for someone new
