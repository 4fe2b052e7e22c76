"""The lab in the browser: simulation runs asked for over REST (routes/lab.py), played by the
server's own pool of lab workers, bounded (docs/lab.md, "The lab in the browser").

It takes the simulation lab (`tiergarten.sim.request`: the same checks, games and figures as
`tiergarten simulate`) and the server's settings (`edge/settings.py`); nothing else of the
server.
"""

from __future__ import annotations

from .runner import Lab, LabError, Run

__all__ = ["Lab", "LabError", "Run"]
