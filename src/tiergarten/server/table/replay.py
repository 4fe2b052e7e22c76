"""The move-by-move replay of a finished game, with every hand revealed (for the browser).

Only a finished table's record may be shown whole; before the end the app refuses (the record
holds the seed, which fixes every shuffle). The steps are built by `tiergarten.offline.facts`,
the same code the browser's own engine runs for a game played offline.
"""

from __future__ import annotations

from tiergarten.offline.facts import replay_steps

__all__ = ["replay_steps"]
