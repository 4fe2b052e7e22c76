"""Mucca Pazza (`mucca_pazza`): the sliding-tile puzzle race of docs/games/mucca_pazza.md.
Standard library only.
"""

from .game import INFO, MuccaPazza
from .junior import JuniorState
from .solver import Solution, solve
from .standard import StandardState
from .state import MuccaState

GAME = MuccaPazza  # what the registry loads: the package's name is the game's id

__all__ = ["GAME", "INFO", "JuniorState", "MuccaPazza", "MuccaState", "Solution", "StandardState",
           "solve"]
