"""Mau Mau (`maumau`): the shedding game of docs/games/maumau.md. Standard library only."""

from .game import INFO, MauMau
from .state import MauMauState

GAME = MauMau  # what the registry loads: the package's name is the game's id

__all__ = ["GAME", "INFO", "MauMau", "MauMauState"]
