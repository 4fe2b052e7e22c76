"""The words of a Mucca Pazza game (docs/games/mucca_pazza.md): how a junior card lies, and
why a game ends.

A leaf module: the states, their view and the game's facts all name these, and it imports
nothing of the game.
"""

from __future__ import annotations

from tiergarten.core import Termination

# The face of a junior grid position
DOWN, UP, TAKEN = 0, 1, 2


class MuccaPazzaTermination(Termination):
    """`Result.reason` of a Mucca Pazza game."""

    ALL_CARDS_TAKEN = "all_cards_taken"  # junior: every card of the grid was won
    FINAL_ROUND = "final_round"  # standard: the last turns after the pile ran out were played
    NO_CARDS_LEFT = "no_cards_left"  # standard: no card is left on display or in the pile
    DECISION_LIMIT = "decision_limit"  # the engine's bound, GameInfo.max_decisions
