"""Why a Mau Mau match ends (docs/games/maumau.md, "End of the match").

A leaf module: the state, its view and the game's facts all name these, and it imports
nothing of the game.
"""

from __future__ import annotations

from tiergarten.core import Termination


class MauMauTermination(Termination):
    """`Result.reason` of a Mau Mau match."""

    TARGET_SCORE = "target_score"  # a player reached `target_score` points
    ROUNDS = "rounds"  # the `rounds` option's number of rounds was played
    DECISION_LIMIT = "decision_limit"  # the engine's bound, GameInfo.max_decisions
