"""Guided first games (server/table/tutorial.py): the tutorials there are, and a new tutorial table
for whoever asks, seated at seat 0 against gentle bots."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ..edge.bodies import SeatSpec
from ..edge.settings import Refused
from ..table.ports import Account
from ..table.spec import TableSpec
from ..table.tutorial import TUTORIALS
from .account import accounts, signed_in
from .deps import Tables

router = APIRouter()


@router.get("/api/tutorials")
async def tutorials() -> list[dict[str, Any]]:
    return [{"id": key, "game": s["game"], "options": s["options"], "steps": len(s["steps"])}
            for key, s in TUTORIALS.items()]


@router.post("/api/tutorials/{tutorial}", status_code=201)
async def start(tutorial: str, request: Request, tables: Tables) -> dict[str, Any]:
    """A new tutorial table with the caller at seat 0: `{"table", "seat", "token"}`."""
    script = TUTORIALS.get(tutorial)
    if script is None:
        raise Refused(404, "no_tutorial", f"there is no tutorial {tutorial!r}; tutorials: "
                                          f"{', '.join(TUTORIALS)}", {"tutorial": tutorial})
    seats: list[SeatSpec | None] = [None, *(SeatSpec(bot=b) for b in script["bots"])]
    table = tables.create(TableSpec(game=script["game"], players=script["players"],
                                    options=script["options"], seats=seats,
                                    seed=script["seed"], chat=False, tutorial=tutorial))
    user = signed_in(request)
    account = None if user is None else Account(user.id, user.name,
                                                accounts(request).seat_token)
    seat, token = tables.join(table.id, "You", 0, account)
    return {"table": table.id, "seat": seat, "token": token, "tutorial": tutorial}
