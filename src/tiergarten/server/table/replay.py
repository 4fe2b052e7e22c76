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
