"""Reinforcement-learning adapters over any registered game (extras `[rl]` and `[openspiel]`).

- `pettingzoo_env(id, players=, **options)`: a PettingZoo AEC env of any game.
- `parallel_env(id, players=, **options)`: a PettingZoo Parallel env of any game.
- `gym_env(id, opponents=, seat=, **options)`: one seat as a Gymnasium env against bots, also
  `gymnasium.make("tiergarten/MauMau-v0")` (one id per game, registered on import when
  Gymnasium is installed: registration.py).
- `tiergarten.rl.openspiel.register()`: every game as `python_tiergarten_<id>` in pyspiel.
- `encoder(game)`: the observation encoder of a game (numpy only).

Adapters translate; every rule stays in the engine. Each module imports its own framework,
so `[openspiel]` works without PettingZoo and the other way round. See docs/research.md.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..encoders import encoder
    from .envs import parallel_env, pettingzoo_env
    from .single import gym_env

_WHERE = {"pettingzoo_env": f"{__name__}.envs", "parallel_env": f"{__name__}.envs",
          "gym_env": f"{__name__}.single", "encoder": "tiergarten.encoders"}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _register_with_gymnasium() -> None:
    """`gymnasium.make("tiergarten/MauMau-v0")` after `import tiergarten.rl` (if installed)."""
    if importlib.util.find_spec("gymnasium") is not None:
        from .registration import register_envs

        register_envs()


_register_with_gymnasium()

__all__ = ["encoder", "gym_env", "parallel_env", "pettingzoo_env"]
