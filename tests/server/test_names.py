"""Names are checked by one rule before any database sees them (`protocol.clean_name`): the same
answer on SQLite and PostgreSQL, never a database's error (issue 20, 4: a NUL in a name was a
500 on PostgreSQL)."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tiergarten.server.app import create_app
from tiergarten.server.edge.protocol import NAME_LENGTH, clean_name
from tiergarten.server.edge.settings import Settings

OPEN = Settings(tables_burst=10**6)  # one test client makes many tables


@pytest.fixture
def api(database: str) -> Iterator[TestClient]:
    """The whole app in-process (its lifespan too) on each backend."""
    with TestClient(create_app(database, OPEN, web=None),
                    base_url="http://127.0.0.1") as client:  # a name the server answers to
        yield client


def join(api: TestClient, name: str, table: str | None = None) -> tuple[int, str]:
    """Sit down as `name` (at a new table, or at `table` and leave again); the answer's status
    and the name the table shows, or the refusal."""
    table = table or api.post("/api/tables", json={"game": "maumau", "players": 2}).json()["id"]
    body = json.dumps({"name": name}).encode()  # \ud800 as JSON escapes it: any text at all
    answer = api.post(f"/api/tables/{table}/join", content=body,
                      headers={"Content-Type": "application/json"})
    if answer.status_code != 200:
        return answer.status_code, str(answer.json()["detail"])
    shown = api.get(f"/api/tables/{table}").json()["seats"][0]["name"]
    assert api.post(f"/api/tables/{table}/leave", json={"token": answer.json()["token"]})
    return 200, shown


@pytest.mark.parametrize(("name", "stored"), [
    ("  Ann   Lee ", "Ann Lee"),
    ("Zoe\u0308", "Zo\u00eb"),  # NFC: one character, whatever the keyboard sent
    ("\U0001F469\u200d\U0001F469\u200d\U0001F467", "\U0001F469\u200d\U0001F469\u200d\U0001F467"),
    ("x" * NAME_LENGTH, "x" * NAME_LENGTH),
    ("\u00a0Bo\u3000b\u00a0", "Bo b"),  # any white space counts as white space
])
def test_names_are_stored_normalised_on_every_database(api: TestClient, name: str,
                                                       stored: str) -> None:
    assert join(api, name) == (200, stored)


@pytest.mark.parametrize(("name", "says"), [
    ("Ann\x00", "character 4 is U+0000"),
    ("A\tB", "character 2 is U+0009"),
    ("Ann\n", "character 4 is U+000A"),
    ("\u202eevil", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
    ("   ", "a name is needed"),
    ("x" * (NAME_LENGTH + 1), f"at most {NAME_LENGTH} characters; this one has 41"),
])
def test_bad_names_are_refused_with_the_reason_on_every_database(api: TestClient, name: str,
                                                                 says: str) -> None:
    status, detail = join(api, name)
    assert status == 400 and says in detail, detail


def test_text_that_is_not_unicode_is_refused_as_a_bad_body_not_a_crash(api: TestClient) -> None:
    """A lone surrogate (valid JSON, not Unicode) is refused by the body's shape (422); the
    refusal does not echo it back (it cannot be encoded: that was a 500)."""
    status, detail = join(api, "a\ud800b")
    assert status == 422 and "unicode" in detail, detail


def test_an_id_no_table_can_have_is_not_found_without_asking_the_database(
        api: TestClient) -> None:
    for path in ("/api/tables/%00", "/api/tables/a%00b/record", "/api/tables/%E2%80%AE"):
        assert api.get(path).status_code == 404


@pytest.fixture
def table(api: TestClient) -> str:
    return str(api.post("/api/tables", json={"game": "maumau", "players": 2}).json()["id"])


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(max_size=50))
def test_any_name_is_stored_as_clean_name_says_or_refused(api: TestClient, table: str,
                                                          name: str) -> None:
    status, answer = join(api, name, table)
    try:
        expected = clean_name(name)
    except ValueError as exc:
        assert (status, answer) == (400, str(exc))
        return
    assert (status, answer) == (200, expected)
    assert unicodedata.is_normalized("NFC", expected)


@pytest.mark.parametrize("name", ["Ann\x00", "Ann\x07", "x" * 30, "Ann\u202e"])
def test_a_sign_in_or_profile_under_a_name_no_account_can_have_is_not_found(
        api: TestClient, name: str) -> None:
    """The account routes read the database by name too: a name no user name can be is refused
    as an unknown one (401, 404) on every database, not sent to PostgreSQL (a NUL was a 500)."""
    body = json.dumps({"name": name, "password": "long enough secret"}).encode()
    answer = api.post("/api/account/login", content=body,
                      headers={"Content-Type": "application/json"})
    assert answer.status_code == 401, answer.text
    assert api.get(f"/api/players/{quote(name)}").status_code == 404
