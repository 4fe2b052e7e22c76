"""Leaderboards per game and players' profiles (server/players/ratings.py), read through the
players port the app was given (`app.state.players`)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request

from tiergarten.core import games

from ..edge.settings import Refused
from ..players import ratings

router = APIRouter()


@router.get("/api/leaderboard/{game}")
async def leaderboard(game: str, request: Request) -> dict[str, Any]:
    """The accounts rated in `game`, best first, with the bots' fixed levels beside them."""
    if game not in games():
        raise Refused(404, "no_game", f"there is no game {game!r}; games: {', '.join(games())}",
                      {"game": game})
    board: dict[str, Any] = await asyncio.to_thread(ratings.leaderboard,
                                                    request.app.state.players, game)
    return board


@router.get("/api/players/{name}")
async def player(name: str, request: Request) -> dict[str, Any]:
    found = await asyncio.to_thread(ratings.profile, request.app.state.players, name)
    if found is None:
        raise Refused(404, "no_player", f"there is no player {name!r}", {"name": name})
    return found
