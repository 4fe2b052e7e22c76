"""MammuZ's facts and options (docs/games/mammuz.md), declared as data."""

from __future__ import annotations

from typing import Any

from tiergarten.core import Action, Game, GameInfo, Option
from tiergarten.core.game import fresh_seed
from tiergarten.core.rules import RulesVersion

from .actions import FIXED, GIVE, NOTATION_HINT, parse_lay
from .cards import DEFAULT_POWERS, check_powers, power_indices
from .state import MammuZState
from .terms import MammuZTermination

INFO = GameInfo(
    id="mammuz",
    title="MammuZ",
    min_players=3,
    max_players=7,
    default_players=4,
    max_decisions=5_000,  # the engine's safety bound on one game
    reasons=MammuZTermination,
    summary="Lay cards face down as one species and bluff; doubt a card; first out of cards wins.",
    # docs/games/<id>.md, "Rules versions", says what each changed
    rules=(
        RulesVersion(1, "the first rules: a herd removed by the plesiosaurus takes its "
                     "dinosaurs out of the game", unversioned=True),
        RulesVersion(2, "dinosaurs never leave the game: a removed herd's dinosaurs go to the "
                     "doubter's hand, shown to all", unversioned=True),
    ),
    options=(
        Option("next_starter", "doubter", "who opens the next herd: the doubter (or, if the "
               "doubter took the herd, the player to their left), whoever took the herd, or the "
               "player after the doubter", kind=str, choices=("doubter", "taker", "next")),
        Option("dinosaur_powers", dict(DEFAULT_POWERS), "what each dinosaur does when turned "
               "up: a mapping of dinosaur to doubter_takes, doubted_takes, doubter_chooses, "
               "deal_out, remove or jackpot", kind=dict, check=check_powers),
    ),
)


class MammuZ(Game):
    """MammuZ for 3–7 players.

    >>> game = MammuZ(4)
    >>> game.num_actions, str(game.action_from_id(game.num_actions - 1))
    (18720, 'give 3')
    >>> str(game.parse_action("lay hare mouse as hare"))
    'lay hare mouse as hare'
    """

    info = INFO

    def __init__(self, players: int | None = None, **options: Any) -> None:
        super().__init__(players, **options)
        self.powers = power_indices(self.options["dinosaur_powers"])  # read once, not per deal

    def _make_actions(self) -> tuple[Action, ...]:
        return FIXED + GIVE[:self.players]

    def notation_hint(self) -> str:
        return NOTATION_HINT

    def parse_action(self, text: str) -> Action:
        """Read notation; the cards of a lay may come in any order."""
        if isinstance(text, str) and text.lower().split()[:1] == ["lay"]:
            return parse_lay(text)
        return super().parse_action(text)

    def new_state(self, seed: int | None = None) -> MammuZState:
        return MammuZState(self, fresh_seed() if seed is None else seed)
