"""What the server and the local table both answer from the engine alone: a game's facts for
the lobby (`GET /api/games`) and the move-by-move replay of a finished game
(`GET /api/tables/{id}/replay`). Standard library only, so the browser's engine (Pyodide) gives
the very same answers as the server.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tiergarten import bots
from tiergarten.bots.levels import NAMES as LEVELS
from tiergarten.core.game import State
from tiergarten.core.registry import game_class, replay


def describe_game(game_id: str) -> dict[str, Any]:
    """A game's facts, options (name, default, allowed values, doc), bot names and, among
    them, the five levels in order of strength (the rest are engines by name)."""
    info = game_class(game_id).info
    names = bots.names(game_id)
    return {
        "id": info.id, "title": info.title, "summary": info.summary,
        "min_players": info.min_players, "max_players": info.max_players,
        "default_players": info.default_players, "real_time": info.real_time,
        "options": [{"name": o.name, "default": o.default, "doc": o.doc,
                     "kind": o.kind.__name__, "allowed": o.allowed(),
                     "choices": None if o.choices is None else list(o.choices),
                     "minimum": o.minimum, "maximum": o.maximum, "nullable": o.nullable}
                    for o in info.options],
        "bots": list(names),
        "levels": [level for level in LEVELS if level in names],  # weakest first
        "hints": bots.adviser(game_id) is not None,  # the hint route gives advice
    }


def replay_steps(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One entry per position: the spectator's view and every seat's view (without the growing
    `log`), before the first action and after each one, and the `events` of the public log
    that the position's action added (the deal's own at the start), for the move's words."""
    state = replay({**record, "actions": []})  # the deal, before the first action
    steps = [_step(state, None, None, 0)]
    for seat, text in record["actions"]:
        before = len(state.events)
        state.apply(seat, text)
        steps.append(_step(state, seat, text, before))
    return steps


def _step(state: State, seat: int | None, act: str | None, since: int) -> dict[str, Any]:
    def view(who: int | None) -> dict[str, Any]:
        observation = dict(state.observe(who))
        observation.pop("log", None)
        return observation

    return {"seat": seat, "act": act, "events": state.log_since(None, since), "view": view(None),
            "seats": [view(s) for s in range(state.game.players)]}
