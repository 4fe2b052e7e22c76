"""Gymnasium ids for every game: `gymnasium.make("tiergarten/MauMau-v0", players=3)`.

One id per registered game, named from its title without spaces or punctuation:
`tiergarten/MauMau-v0`, `tiergarten/MammuZ-v0`, `tiergarten/LeckerMammut-v0` (in time slices,
single_realtime.py), `tiergarten/MuccaPazza-v0`. The kwargs of `make` are those of `gym_env`
(`opponents`, `seat`, `players`, `render_mode`, the game's options, ...); `make_vec` works too.

`import tiergarten.rl` registers them, as does the form that imports for you,
`gymnasium.make("tiergarten.rl:tiergarten/MauMau-v0")`. The project also declares them in the
`gymnasium.envs` entry-point group (pyproject.toml), which Gymnasium before 1.0 loads on its own
import; Gymnasium 1.x no longer reads that group.

>>> import gymnasium
>>> ids = register_envs()
>>> ids[0], gymnasium.make("tiergarten/MauMau-v0", players=2).unwrapped.game.players
('tiergarten/LeckerMammut-v0', 2)
"""

from __future__ import annotations

import re

from tiergarten.core import game_class, games

NAMESPACE = "tiergarten"
ENTRY_POINTS = {False: "tiergarten.rl.single:TiergartenGym",
                True: "tiergarten.rl.single_realtime:RealTimeGym"}  # by real time


def gym_id(game_id: str) -> str:
    """The Gymnasium id of a game: `gym_id("maumau")` is `tiergarten/MauMau-v0`."""
    return f"{NAMESPACE}/{re.sub(r'[^0-9A-Za-z]', '', game_class(game_id).info.title)}-v0"


def register_envs() -> tuple[str, ...]:
    """Register every game with Gymnasium (idempotent); return the ids, in game order."""
    from gymnasium.envs.registration import register, registry

    ids = []
    for game_id in games():
        env_id = gym_id(game_id)
        if env_id not in registry:
            register(id=env_id, entry_point=ENTRY_POINTS[game_class(game_id).info.real_time],
                     kwargs={"game": game_id})
        ids.append(env_id)
    return tuple(ids)


__all__ = ["NAMESPACE", "gym_id", "register_envs"]
