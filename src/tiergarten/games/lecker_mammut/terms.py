"""The words of a Lecker Mammut! game (docs/games/lecker_mammut.md): its phases, as the
observation names them, and why a game ends.

A leaf module: the state, its view and the game's facts all name these, and it imports
nothing of the game.
"""

from __future__ import annotations

from tiergarten.core import Termination

# The observation's `phase` (view.phase)
FLIPPING = "flipping"  # piles are being flipped
CHOOSING = "choosing"  # a good hitter chooses the top card of the new prize pile
ENDING = "ending"  # every pile is flipped: hit or pass
RETURNS = "returns"  # the most penalised give a prize pile back
OVER = "over"


class LeckerMammutTermination(Termination):
    """`Result.reason` of a Lecker Mammut! game."""

    ROUNDS = "rounds"  # every round was played (as many as players, or the `rounds` option)
    DECISION_LIMIT = "decision_limit"  # the engine's bound, GameInfo.max_decisions
