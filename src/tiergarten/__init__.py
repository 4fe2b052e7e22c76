"""tiergarten: four family games for players, bots, researchers and game designers.

>>> import tiergarten
>>> "maumau" in tiergarten.games()
True
>>> state = tiergarten.load("maumau", players=2, rounds=1).new_state(seed=7)
>>> tiergarten.replay(state.record()).observe(0) == state.observe(0)
True
"""

import tiergarten.games  # registers every game
from tiergarten.core import (
    Action,
    Game,
    IllegalAction,
    NotationError,
    OptionError,
    Result,
    State,
    Termination,
    load,
    replay,
)
from tiergarten.games import CallablePackage

# the games package, callable: `tiergarten.games()` lists the ids
games: CallablePackage = tiergarten.games  # type: ignore[assignment]

__version__ = "0.3.0"  # each release raises it; CHANGELOG.md says what changed
__all__ = ["Action", "Game", "IllegalAction", "NotationError", "OptionError", "Result",
           "State", "Termination", "games", "load", "replay"]
