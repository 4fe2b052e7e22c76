"""Reinforcement-learning adapters over any registered game (extras `[rl]` and `[openspiel]`).

- `pettingzoo_env(id, players=, **options)`: a PettingZoo AEC env (turn-based games).
- `parallel_env(players=, **options)`: Lecker Mammut! as a PettingZoo Parallel env.
- `gym_env(id, opponents=, seat=, **options)`: one seat as a Gymnasium env against bots.
- `tiergarten.rl.openspiel.register()`: every game as `python_tiergarten_<id>` in pyspiel.
- `encoder(game)`: the observation encoder of a game (numpy only).

Adapters translate; every rule stays in the engine. Each module imports its own framework,
so `[openspiel]` works without PettingZoo and the other way round. See docs/research.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .aec import pettingzoo_env
    from .encoders import encoder
    from .parallel import parallel_env
    from .single import gym_env

_WHERE = {"pettingzoo_env": "aec", "parallel_env": "parallel",
          "gym_env": "single", "encoder": "encoders"}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["encoder", "gym_env", "parallel_env", "pettingzoo_env"]
