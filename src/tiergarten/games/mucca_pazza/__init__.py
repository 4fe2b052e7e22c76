"""Mucca Pazza (`mucca_pazza`): the sliding-tile puzzle race of docs/games/mucca_pazza.md.
Standard library only.
"""

from .game import INFO, MuccaPazza
from .junior import JuniorState
from .solver import Plan, solve
from .standard import StandardState
from .state import MuccaState

__all__ = ["INFO", "JuniorState", "MuccaPazza", "MuccaState", "Plan", "StandardState", "solve"]
