"""Every REST refusal a person can meet carries a stable `code` (and its `params`) beside its
English `detail`, so that a client words it in its own language (docs/protocol.md, "REST error
codes"); every code the server and the browser's own engine give is documented there."""

from __future__ import annotations

import re
from pathlib import Path

from tests.web.test_catalogues import rest_error_codes

from .harness import Server
from .test_accounts import PASSWORD, browser, fresh_name, sign_up

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [*(ROOT / "src" / "tiergarten" / "server").rglob("*.py"),
           *(ROOT / "src" / "tiergarten" / "offline").rglob("*.py"),
           *(ROOT / "src" / "tiergarten" / "web" / "js").rglob("*.js")]
# how the sources name a REST refusal's code: Refused(404, "no_table", ...), code="...",
# TableError(..., 409, "seat_taken"), LabError(..., 503, RETRY_AFTER, "lab_queue_full"),
# BadName(..., "name_missing"), {"code": "bad_body"}
CODE = re.compile(r"""Refused\(\s*\d+,\s*"(\w+)"|\bcode[=:]\s*"(\w+)"|"code":\s*"(\w+)"|"""
                  r"""(?:TableError|LabError|AccountError|BadName|Refused|refusal|_count)\([^()]*?(?:\([^()]*\)[^()]*?)*"""
                  r""",\s*"(\w+)"\s*[,)]""", re.S)


def codes_in_sources() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for match in CODE.finditer(text):
            code = next(g for g in match.groups() if g)
            found.setdefault(code, path.name)
    return found


def test_every_code_the_server_gives_is_documented() -> None:
    found = codes_in_sources()
    assert {"no_table", "wrong_login", "seat_taken", "lab_queue_full", "name_missing",
            "bad_body", "too_large", "not_over", "not_here"} <= set(found), sorted(found)
    websocket = {"unreplayable", "bad_message", "chat_off", "chat_rate", "too_long", "void",
                 "illegal", "bad_name", "stale", "not_seated", "engine_not_ready"}
    undocumented = {c: f for c, f in found.items() if c not in rest_error_codes() | websocket}
    assert undocumented == {}


def refused(answer: object, http: int, code: str, **params: object) -> dict[str, object]:
    body: dict[str, object] = answer.json()  # type: ignore[attr-defined]
    assert answer.status_code == http, body  # type: ignore[attr-defined]
    assert body["code"] == code and isinstance(body["detail"], str | list), body
    assert body["params"] == params, body
    return body


def test_the_refusals_a_person_meets_have_codes(server: Server) -> None:
    name = fresh_name("Greta")
    sign_up(server, name)
    refused(browser(server).post("/api/account/login", json={"name": name, "password": "x" * 9}),
            401, "wrong_login")
    refused(browser(server).post("/api/account/signup", json={"name": name, "password": PASSWORD}),
            409, "name_taken")
    refused(browser(server).post("/api/account/signup", json={"name": "ab", "password": PASSWORD}),
            400, "name_length", least=3, most=24, length=2)
    refused(browser(server).post("/api/account/signup",
                                 json={"name": fresh_name("Hal"), "password": "short"}),
            400, "password_length", least=8, most=200)
    refused(browser(server).get("/api/account/seats"), 401, "sign_in_first")
    refused(server.get("/api/players/Niemand"), 404, "no_player", name="Niemand")
    refused(server.get("/api/leaderboard/skat"), 404, "no_game", game="skat")
    refused(server.get("/api/tables/doesnotexist"), 404, "no_table", table="doesnotexist")
    refused(server.post("/api/tables", {"game": "maumau", "options": {"mau_penalty": 99}}),
            400, "bad_option", option="mau_penalty")
    refused(server.post("/api/tables", {"game": "skat"}), 400, "bad_settings")
    refused(server.post("/api/tables", {"gamez": "maumau"}), 422, "bad_body")

    table = server.post("/api/tables", {"game": "maumau", "players": 2,
                                        "seats": [None, {"bot": "random"}], "hints": False})
    table_id = table.json()["id"]
    refused(server.post(f"/api/tables/{table_id}/join", {"name": " "}), 400, "name_missing")
    refused(server.post(f"/api/tables/{table_id}/join", {"name": "x" * 41}), 400,
            "name_too_long", most=40, length=41)
    refused(server.post(f"/api/tables/{table_id}/join", {"name": "An\u202ene"}), 400,
            "name_invisible", position=3, character="U+202E")
    refused(server.post(f"/api/tables/{table_id}/join", {"name": "Ann", "seat": 1}), 409,
            "seat_taken")
    refused(server.get(f"/api/tables/{table_id}/replay"), 409, "not_over", status="open")
    refused(server.post(f"/api/tables/{table_id}/rematch", {"token": "nope"}), 403, "bad_token")
    refused(server.post(f"/api/tables/{table_id}/chat", {"owner": "nope", "on": False}), 403,
            "not_creator")
    token = server.post(f"/api/tables/{table_id}/join", {"name": "Ann"}).json()["token"]
    refused(server.post(f"/api/tables/{table_id}/join", {"name": "Bob"}), 409, "no_open_seat")
    refused(server.post(f"/api/tables/{table_id}/hint", {"token": token}), 409, "no_hints",
            game="maumau")
    refused(server.post("/api/tutorials/chess", {}), 404, "no_tutorial", tutorial="chess")

