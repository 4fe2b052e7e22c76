"""Mau Mau (`maumau`): the shedding game of RULES.md §1. Standard library only."""

from .game import INFO, MauMau
from .state import MauMauState

__all__ = ["INFO", "MauMau", "MauMauState"]
