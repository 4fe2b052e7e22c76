"""Lecker Mammut! (`lecker_mammut`): the real-time reaction game of RULES.md §3. Stdlib only."""

from .game import INFO, LeckerMammut
from .state import LeckerMammutState

__all__ = ["INFO", "LeckerMammut", "LeckerMammutState"]
