"""Lecker Mammut!'s facts and options (docs/games/lecker_mammut.md), declared as data."""

from __future__ import annotations

from tiergarten.core import Action, Game, GameInfo, Option
from tiergarten.core.game import fresh_seed
from tiergarten.core.rules import RulesVersion

from .actions import ACTIONS, ACTIONS_3, NOTATION_HINT, LeckerAction, parse
from .state import LeckerMammutState
from .terms import LeckerMammutTermination

INFO = GameInfo(
    id="lecker_mammut",
    title="Lecker Mammut!",
    min_players=2,
    max_players=6,
    default_players=4,
    max_decisions=5_000,  # the engine's safety bound on one game (void hits count)
    reasons=LeckerMammutTermination,
    real_time=True,
    summary="Flip cards; hit the club when three visible cards share an animal or a colour, "
            "and steal prize piles from each other.",
    # docs/games/lecker_mammut.md, "Rules versions", says what each changed
    rules=(
        RulesVersion(1, "the first rules: the table's timer ran out on mistakes beside a "
                     "triple too; a mistake with no card left to take counted for the returns",
                     unversioned=True),
        RulesVersion(2, "the timer passes only while no feature shows three; the most penalty "
                     "cards held give a pile back"),
        RulesVersion(3, "a press of the club is a commitment: a press with no three alike in "
                     "sight, withdrawn, or not called in time is a mistake (`miss`)"),
    ),
    options=(
        Option("rounds", None, "rounds to play (none: as many as there are players)",
               kind=int, minimum=1, maximum=12, nullable=True),
        Option("idle_limit", 12, "the table's timer: once every pile is flipped, this many "
               "actions in a row that change no visible card end the round as if everyone had "
               "passed, but only while no feature shows three visible cards (0: off)",
               kind=int, minimum=0, maximum=1000),
    ),
)


class LeckerMammut(Game):
    """Lecker Mammut! for 2–6 players, real time on a discrete engine.

    >>> game = LeckerMammut(3)
    >>> game.num_actions, str(game.parse_action("HIT green @4")), game.info.real_time
    (82, 'hit green @4', True)
    >>> LeckerMammut(3, rules=2).num_actions  # rules 1 and 2 have no `miss`
    81
    """

    info = INFO

    def _make_actions(self) -> tuple[Action, ...]:
        return ACTIONS if self.rules < 3 else ACTIONS_3

    def parse_action(self, text: str) -> LeckerAction:
        """Read notation; `hit boar @17` gives a versioned hit with the id of `hit boar`."""
        return parse(text, self.rules)

    def notation_hint(self) -> str:
        return NOTATION_HINT

    def new_state(self, seed: int | None = None) -> LeckerMammutState:
        return LeckerMammutState(self, fresh_seed() if seed is None else seed)
