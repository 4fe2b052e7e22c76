"""Playing at the terminal: the match driver, the Human agent, and per-game renderers.

A game's renderer is the module `tiergarten.terminal.<game id>` (attribute `RENDERER`); games
without one are shown by the generic renderer, which prints any observation readably. A game
that cannot be played turn by turn (real time) puts its own match class as `MATCH` in the
module `tiergarten.terminal.<game id>_match`.

The renderers (`render.py` and the games' modules) only draw; the driver, the screen, the human
and replays run a match. The names below are loaded when first asked for, so that drawing a
screen (as the RL envs do, `render.screen_text`) loads no part of the driver.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .driver import Match, MatchLike, lineup, save_record, start_match
    from .human import Human, LineReader, Quit
    from .render import Renderer, register, renderer_for, seat_names
    from .replay import RecordError, read_record, replay_record
    from .screen import Screen

_WHERE = {  # name -> the module of this package that defines it
    "Match": "driver", "MatchLike": "driver", "lineup": "driver", "save_record": "driver",
    "start_match": "driver",
    "Human": "human", "LineReader": "human", "Quit": "human",
    "Renderer": "render", "register": "render", "renderer_for": "render", "seat_names": "render",
    "RecordError": "replay", "read_record": "replay", "replay_record": "replay",
    "Screen": "screen",
}


def __getattr__(name: str) -> Any:
    """`tiergarten.terminal.Match` and the rest of `__all__`, imported when first asked for."""
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{where}"), name)
    globals()[name] = value
    return value


__all__ = ["Human", "LineReader", "Match", "MatchLike", "Quit", "RecordError", "Renderer", "Screen",
           "lineup", "read_record", "register", "renderer_for", "replay_record", "save_record",
           "seat_names", "start_match"]
