"""Mucca Pazza's facts and options (RULES.md §4), declared as data."""

from __future__ import annotations

from tiergarten.core import Action, Game, GameInfo, Option
from tiergarten.core.game import fresh_seed

from .actions import ACTIONS, NOTATION_HINT
from .junior import JuniorState
from .standard import StandardState
from .state import MAX_DECISIONS, MuccaState

INFO = GameInfo(
    id="mucca_pazza",
    title="Mucca Pazza",
    min_players=2,
    max_players=4,
    default_players=2,
    max_decisions=MAX_DECISIONS,
    summary="Slide rows of heads, bodies and legs until the animals on the cards stand whole.",
    options=(
        Option("variant", "standard", "standard (from 6 years: landing place and stars) or "
               "junior (from 4 years: five animals and a grid of face-down cards)",
               kind=str, choices=("standard", "junior")),
    ),
)


class MuccaPazza(Game):
    """Mucca Pazza for 2–4 players, in the `standard` or the `junior` variant.

    >>> game = MuccaPazza(3, variant="junior")
    >>> game.num_actions, str(game.action_from_id(6)), str(game.parse_action("Reveal  16"))
    (23, 'stop', 'reveal 16')
    """

    info = INFO

    def _make_actions(self) -> tuple[Action, ...]:
        return ACTIONS

    def notation_hint(self) -> str:
        return NOTATION_HINT

    def new_state(self, seed: int | None = None) -> MuccaState:
        seed = fresh_seed() if seed is None else seed
        if self.options["variant"] == "junior":
            return JuniorState(self, seed)
        return StandardState(self, seed)
