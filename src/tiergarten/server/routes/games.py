"""`GET /api/games`: every game with its options and bots, enough for a client to build its form."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from tiergarten.core import games
from tiergarten.offline.facts import describe_game

__all__ = ["describe_game", "router"]

router = APIRouter()


@router.get("/api/games")
async def list_games() -> list[dict[str, Any]]:
    return [describe_game(g) for g in games()]
