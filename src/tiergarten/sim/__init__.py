"""The simulation lab: many games between bots, tallied by seat and by bot with 95% intervals.

>>> from tiergarten import sim
>>> result = sim.run("maumau", ["heuristic", "random"], n=6, seed=3, options={"rounds": 1},
...                  workers=1)
>>> result.n, [t.name for t in result.bots], sorted(result.to_dict())[:3]
(6, ['heuristic', 'random'], ['bots', 'fair_share', 'first_seat'])
"""

from .stats import Summary, wilson
from .tournament import (
    FirstSeat,
    Outcome,
    Plan,
    SimResult,
    Tally,
    execute,
    lineup,
    plan,
    play_game,
    run,
)

__all__ = ["FirstSeat", "Outcome", "Plan", "SimResult", "Summary", "Tally", "execute", "lineup",
           "plan", "play_game", "run", "wilson"]
