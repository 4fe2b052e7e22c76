"""The words of a MammuZ game (docs/games/mammuz.md): its phases and the outcomes of a turned
card, as the observation names them, and why a game ends.

A leaf module: the state, its view and the game's facts all name these, and it imports
nothing of the game.
"""

from __future__ import annotations

from tiergarten.core import Termination

# The observation's `phase`
OPEN = "open"  # the turn's player opens a herd
RESPOND = "respond"  # the next player lays to the herd or doubts
GIVE_PHASE = "give"  # a Pterosaurus was turned: the doubter names who takes the herd
OVER = "over"

# The `outcome` of a turned card (the observation's `revealed`)
TAKEN = "taken"
DEALT = "dealt"
REMOVED = "removed"
TO_JACKPOT = "jackpot"
WON = "won"


class MammuZTermination(Termination):
    """`Result.reason` of a MammuZ game."""

    DOUBT = "doubt"  # a doubt turned the declared species of a lay that emptied its hand
    DINOSAUR = "dinosaur"  # a lay's player is still without cards once a dinosaur's power is done
    EXTINCTION = "extinction"  # an extinction left its player without cards
    NO_SPECIES = "no_species"  # every species is extinct: no herd can open
    DECISION_LIMIT = "decision_limit"  # the engine's bound, GameInfo.max_decisions
