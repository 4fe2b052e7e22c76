"""The simulation lab: many games between bots, tallied by seat and by bot with 95% intervals;
tournaments with openskill ratings and option sweeps (`league`, `sweep`), batches until the
intervals of a question separate (`until_separated`, `sim.separation`), HTML reports
(`sim.report`), balance studies (`sim.studies`) and a Ray backend
(`execute(..., backend="ray")`).

>>> from tiergarten import sim
>>> result = sim.run("maumau", ["heuristic", "random"], n=6, seed=3, options={"rounds": 1},
...                  workers=1)
>>> result.n, [t.name for t in result.bots], sorted(result.to_dict())[:3]
(6, ['heuristic', 'random'], ['bots', 'designer', 'fair_share'])
"""

from .league import League, Rating, league, sweep
from .pool import Estimate, execute, execute_many, run
from .separation import Question, Verdict, until_separated
from .stats import Summary, wilson
from .tournament import (
    FirstSeat,
    Outcome,
    Plan,
    SimResult,
    Tally,
    lineup,
    plan,
    play_game,
)

__all__ = ["Estimate", "FirstSeat", "League", "Outcome", "Plan", "Question", "Rating",
           "SimResult", "Summary", "Tally", "Verdict", "execute", "execute_many", "league",
           "lineup", "plan", "play_game", "run", "sweep", "until_separated", "wilson"]
