"""The rules-engine contract shared by every game; standard library only."""

from .errors import IllegalAction, NotationError, OptionError, Refusal
from .game import Action, Game, GameInfo, Result, State, Termination, TurnState, ViewModule
from .options import Option
from .registry import game_class, games, load, register, replay

__all__ = ["Action", "Game", "GameInfo", "IllegalAction", "NotationError", "Option",
           "OptionError", "Refusal", "Result", "State", "Termination", "TurnState", "ViewModule",
           "game_class", "games", "load", "register", "replay"]
