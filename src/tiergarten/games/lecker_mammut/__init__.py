"""Lecker Mammut! (`lecker_mammut`), the real-time reaction game: docs/games/lecker_mammut.md.

Standard library only.
"""

from .game import INFO, LeckerMammut
from .state import LeckerMammutState

GAME = LeckerMammut  # what the registry loads: the package's name is the game's id

__all__ = ["GAME", "INFO", "LeckerMammut", "LeckerMammutState"]
