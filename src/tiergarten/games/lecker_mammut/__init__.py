"""Lecker Mammut! (`lecker_mammut`), the real-time reaction game: docs/games/lecker_mammut.md.

Standard library only.
"""

from .game import INFO, LeckerMammut
from .state import LeckerMammutState

__all__ = ["INFO", "LeckerMammut", "LeckerMammutState"]
