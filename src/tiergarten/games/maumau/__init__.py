"""Mau Mau (`maumau`): the shedding game of docs/games/maumau.md. Standard library only."""

from .game import INFO, MauMau
from .state import MauMauState

__all__ = ["INFO", "MauMau", "MauMauState"]
