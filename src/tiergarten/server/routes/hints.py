"""`GET /api/tables/{id}/hint?token=...`: the game's adviser's advice for the seat of a token.

The adviser is the game's own (`tiergarten.bots.adviser`, found by convention in
`tiergarten.bots.<game id>`); it sees that seat's observation and legal actions only. Games
without an adviser answer 409, and so does a table created with `"hints": false`.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException

from tiergarten import bots

from .deps import Tables, need

router = APIRouter()


@router.get("/api/tables/{table_id}/hint")
async def hint(table_id: str, tables: Tables, token: str = "") -> dict[str, Any]:
    table = need(tables, table_id)
    seat = table.seat_of(token) if token else None
    if seat is None:
        raise HTTPException(403, "this token claims no seat at this table")
    adviser = bots.adviser(table.row.game)
    if adviser is None:
        raise HTTPException(409, f"there are no hints for {table.row.game}")
    if not table.spec.hints:
        raise HTTPException(409, "hints are off at this table (its creator chose so)")
    if table.status != "playing":
        raise HTTPException(409, f"hints are given during the game; this one is "
                                 f"{table.status}")
    legal = [str(a) for a in table.state.legal_actions(seat)]
    if not legal:
        raise HTTPException(409, "it is not your move: a hint is given when you may act")
    advice = adviser(table.state.observe(seat), legal)
    return {**advice, "version": table.version, "seat": seat}
