"""`POST /api/tables/{id}/hint` `{"token"}`: the game's adviser's advice for the seat of a
token (the token in the body: URLs end up in proxies' logs). `GET .../hint?token=...`, as
before, answers the same for one more release.

The adviser is the game's own (`tiergarten.bots.adviser`, found by convention in
`tiergarten.bots.<game id>`); it sees that seat's observation and legal actions only. Games
without an adviser answer 409, and so does a table created with `"hints": false`.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from tiergarten import bots

from ..edge.bodies import TokenBody
from ..edge.settings import Refused
from .deps import Tables, need

router = APIRouter()


@router.post("/api/tables/{table_id}/hint")
async def hint(table_id: str, body: TokenBody, tables: Tables) -> dict[str, Any]:
    return advice(tables, table_id, body.token)


@router.get("/api/tables/{table_id}/hint")
async def hint_in_url(table_id: str, tables: Tables, token: str = "") -> dict[str, Any]:
    return advice(tables, table_id, token)  # clients of before: the token in the URL


def advice(tables: Tables, table_id: str, token: str) -> dict[str, Any]:
    """The advice for the seat of `token`, or the HTTP error that says why there is none."""
    table = need(tables, table_id)
    seat = table.seat_of(token) if token else None
    if seat is None:
        raise Refused(403, "bad_token", "this token claims no seat at this table")
    adviser = bots.adviser(table.row.game)
    if adviser is None:
        raise Refused(409, "no_hints", f"there are no hints for {table.row.game}",
                      {"game": table.row.game})
    if not table.spec.hints:
        raise Refused(409, "hints_off", "hints are off at this table (its creator chose so)")
    if table.status != "playing":
        raise Refused(409, "not_playing", f"hints are given during the game; this one is "
                                          f"{table.status}", {"status": table.status})
    legal = [str(a) for a in table.state.legal_actions(seat)]
    if not legal:
        raise Refused(409, "not_your_move",
                      "it is not your move: a hint is given when you may act")
    advice = adviser(table.state.observe(seat), legal)
    return {**advice, "version": table.version, "seat": seat}
