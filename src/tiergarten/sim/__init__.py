"""The simulation lab: many games between bots, tallied by seat and by bot with 95% intervals;
tournaments with openskill ratings and option sweeps (`league`, `sweep`), HTML reports
(`sim.report`), and a Ray backend (`execute(..., backend="ray")`).

>>> from tiergarten import sim
>>> result = sim.run("maumau", ["heuristic", "random"], n=6, seed=3, options={"rounds": 1},
...                  workers=1)
>>> result.n, [t.name for t in result.bots], sorted(result.to_dict())[:3]
(6, ['heuristic', 'random'], ['bots', 'fair_share', 'first_seat'])
"""

from .league import League, Rating, league, sweep
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

__all__ = ["FirstSeat", "League", "Outcome", "Plan", "Rating", "SimResult", "Summary", "Tally",
           "execute", "league", "lineup", "plan", "play_game", "run", "sweep", "wilson"]
