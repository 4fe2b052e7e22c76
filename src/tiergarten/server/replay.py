"""The move-by-move replay of a finished game, with every hand revealed (for the browser).

Only a finished table's record may be shown whole; before the end the app refuses (the record
holds the seed, which fixes every shuffle).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tiergarten.core.game import State
from tiergarten.core.registry import replay


def replay_steps(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One entry per position: the spectator's view and every seat's view (without the growing
    `log`, which the step's `act` replaces), before the first action and after each one."""
    state = replay({**record, "actions": []})  # the deal, before the first action
    steps = [_step(state, None, None)]
    for seat, text in record["actions"]:
        state.apply(seat, text)
        steps.append(_step(state, seat, text))
    return steps


def _step(state: State, seat: int | None, act: str | None) -> dict[str, Any]:
    def view(who: int | None) -> dict[str, Any]:
        observation = dict(state.observe(who))
        observation.pop("log", None)
        return observation

    return {"seat": seat, "act": act, "view": view(None),
            "seats": [view(s) for s in range(state.game.players)]}
