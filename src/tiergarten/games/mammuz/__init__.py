"""MammuZ (`mammuz`): the bluffing game of docs/games/mammuz.md. Standard library only (its
optional C kernel, when installed, only speeds up functions that keep their Python definitions:
see `kernel`)."""

from .game import INFO, MammuZ
from .state import MammuZState

GAME = MammuZ  # what the registry loads: the package's name is the game's id

__all__ = ["GAME", "INFO", "MammuZ", "MammuZState"]
