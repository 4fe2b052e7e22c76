"""The lab in the browser: simulation runs asked for over REST (routes/lab.py), played by the
server's own pool of lab workers, bounded (docs/lab.md, "The lab in the browser").

It takes the simulation lab (`tiergarten.sim.request`: the same checks, games and figures as
`tiergarten simulate`), the server's settings (`edge/settings.py`) and the counts its bounds
are held in (`edge/counters.py`: this process's, or the cluster's in Redis); nothing else of
the server.
"""

from __future__ import annotations

from .run import LabError, Run
from .runner import Lab

__all__ = ["Lab", "LabError", "Run"]
