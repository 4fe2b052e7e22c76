"""`GET /api/games`: every game with its options and bots, enough for a client to build its form."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from tiergarten import bots
from tiergarten.core import games
from tiergarten.core.registry import game_class

router = APIRouter()


@router.get("/api/games")
async def list_games() -> list[dict[str, Any]]:
    return [describe_game(g) for g in games()]


def describe_game(game_id: str) -> dict[str, Any]:
    """A game's facts, options (name, default, allowed values, doc) and bot names."""
    info = game_class(game_id).info
    return {
        "id": info.id, "title": info.title, "summary": info.summary,
        "min_players": info.min_players, "max_players": info.max_players,
        "default_players": info.default_players, "real_time": info.real_time,
        "options": [{"name": o.name, "default": o.default, "doc": o.doc,
                     "kind": o.kind.__name__, "allowed": o.allowed(),
                     "choices": None if o.choices is None else list(o.choices),
                     "minimum": o.minimum, "maximum": o.maximum, "nullable": o.nullable}
                    for o in info.options],
        "bots": list(bots.names(game_id)),
        "hints": bots.adviser(game_id) is not None,  # GET /api/tables/{id}/hint gives advice
    }
