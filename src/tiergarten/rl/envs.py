"""The PettingZoo envs of any game, by its id: the env class each game needs.

`pettingzoo_env` is the AEC env (aec.py) of a turn-based game and, for a real-time game, its
Parallel env (parallel.py) through PettingZoo's `parallel_to_aec`; `parallel_env` is the other
way round. Each needs both modules, so they live here, above both.
"""

from __future__ import annotations

import warnings
from typing import Any

from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec, turn_based_aec_to_parallel

from tiergarten.core import Game

from .aec import TiergartenAEC
from .common import make_game
from .parallel import RealTimeParallel


def pettingzoo_env(game: Game | str, players: int | None = None, render_mode: str | None = None,
                   max_cycles: int | None = None, illegal: str = "raise", cyclic: bool = False,
                   shaping: float = 0.0, **options: Any) -> AECEnv:
    """The AEC env of any game: `pettingzoo_env("mammuz", players=5)`. A real-time game is its
    Parallel env (time slices) through PettingZoo's `parallel_to_aec`.

    `cyclic=True` gives a turn-based game's AEC env in cycles: its Parallel env through
    `parallel_to_aec`, so every agent is asked once a cycle, `player_0` first, and a cycle
    applies the action of the one agent the game asks (the others' masks are all 0, their
    actions ignored; an id outside the mask changes nothing). That is the form PettingZoo's
    `max_cycles_test` counts on; the default form asks only the seat the game waits on.
    `illegal=` is the default form's handling of an id outside the mask (aec.py); `shaping=`
    Lecker Mammut!'s shaped reward (parallel.py)."""
    loaded = make_game(game, players, options)
    if loaded.info.real_time:
        return parallel_to_aec(RealTimeParallel(loaded, render_mode=render_mode,
                                                max_cycles=max_cycles, shaping=shaping))
    _no_shaping(loaded, shaping)
    if cyclic:
        return parallel_to_aec(parallel_env(loaded, render_mode=render_mode,
                                            max_cycles=max_cycles))
    return TiergartenAEC(loaded, render_mode=render_mode, max_cycles=max_cycles,
                         illegal=illegal)


def parallel_env(game: Game | str | None = None, players: int | None = None,
                 render_mode: str | None = None, max_cycles: int | None = None,
                 shaping: float = 0.0, **options: Any) -> ParallelEnv:
    """The Parallel env of any game: `parallel_env("lecker_mammut", players=4, rounds=1)`.

    Without a game (`parallel_env(players=4)`, the form from when only Lecker Mammut! had one)
    it is Lecker Mammut!'s, with a DeprecationWarning: name the game.
    """
    if game is None or isinstance(game, int):
        warnings.warn("parallel_env() without a game is deprecated: write "
                      "parallel_env('lecker_mammut', ...)", DeprecationWarning, stacklevel=2)
        if isinstance(game, int):  # the old first positional argument was players
            players = game
        game = "lecker_mammut"
    loaded = make_game(game, players, options)
    if loaded.info.real_time:
        return RealTimeParallel(loaded, render_mode=render_mode, max_cycles=max_cycles,
                                shaping=shaping)
    _no_shaping(loaded, shaping)
    limit = max_cycles or 4 * loaded.info.max_decisions * loaded.players
    aec = TiergartenAEC(loaded, render_mode=render_mode, illegal="ignore", max_steps=limit)
    return turn_based_aec_to_parallel(aec)


def _no_shaping(game: Game, shaping: float) -> None:
    if shaping:
        raise ValueError(f"shaping is Lecker Mammut!'s (a real-time game's) reward option, "
                         f"not {game.id}'s")


__all__ = ["parallel_env", "pettingzoo_env"]
