"""MammuZ (`mammuz`): the bluffing game of RULES.md §2. Standard library only."""

from .game import INFO, MammuZ
from .state import MammuZState

__all__ = ["INFO", "MammuZ", "MammuZState"]
