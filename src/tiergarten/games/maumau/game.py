"""Mau Mau's facts and options (docs/games/maumau.md), declared as data."""

from __future__ import annotations

from tiergarten.core import Action, Game, GameInfo, Option
from tiergarten.core.game import fresh_seed
from tiergarten.core.rules import RulesVersion

from .actions import ACTIONS, NOTATION_HINT
from .state import MauMauState
from .terms import MauMauTermination

INFO = GameInfo(
    id="maumau",
    title="Mau Mau",
    min_players=2,
    max_players=4,
    default_players=3,
    max_decisions=20_000,  # the engine's safety bound on one match
    reasons=MauMauTermination,
    summary="Shed your hand on a matching card; 7s make the next player draw, Jacks are wild.",
    # docs/games/maumau.md, "Rules versions", says what each changed
    rules=(
        RulesVersion(1, "a plain draw of a card that does not fit ends the turn at once",
                     defaults={"two_player_nine": "skip"}, unversioned=True),
        RulesVersion(2, "after a plain draw the turn stays with the drawer, fitting or not",
                     defaults={"two_player_nine": "skip"}, unversioned=True),
        RulesVersion(3, "between two players a 9 reverses play, which changes nothing: "
                     "two_player_nine defaults to none"),
    ),
    options=(
        Option("target_score", 150, "the match ends once a player has this many points",
               kind=int, minimum=1),
        Option("rounds", None, "play exactly this many rounds instead of to a target score",
               kind=int, minimum=1, nullable=True),
        Option("jack_on_jack", True, "a Jack may be played on a Jack (false: German house rule)"),
        Option("two_player_nine", "none", "with two players a 9 reverses play, which changes "
               "nothing (none), or acts as an 8 (skip: a house rule)", kind=str,
               choices=("none", "skip")),
        Option("first_card_effects", True, "the first up-card acts as if the dealer played it"),
        Option("mau_penalty", 2, "cards drawn by a player caught without Mau / Mau Mau",
               kind=int, minimum=0, maximum=10),
    ),
)


class MauMau(Game):
    """Mau Mau for 2–4 players.

    >>> game = MauMau(2, rounds=1)
    >>> game.num_actions, str(game.action_from_id(game.num_actions - 1))
    (107, 'catch')
    """

    info = INFO

    def _make_actions(self) -> tuple[Action, ...]:
        return ACTIONS

    def notation_hint(self) -> str:
        return NOTATION_HINT

    def new_state(self, seed: int | None = None) -> MauMauState:
        return MauMauState(self, fresh_seed() if seed is None else seed)
