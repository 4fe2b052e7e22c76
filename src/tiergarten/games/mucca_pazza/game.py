"""Mucca Pazza's facts and options (docs/games/mucca_pazza.md), declared as data."""

from __future__ import annotations

from tiergarten.core import Action, Game, GameInfo, Option
from tiergarten.core.game import fresh_seed
from tiergarten.core.rules import RulesVersion

from .actions import ACTIONS, NOTATION_HINT, REVEAL, STOP, slide_action
from .junior import JuniorState
from .standard import StandardState
from .state import MuccaState
from .terms import MuccaPazzaTermination

INFO = GameInfo(
    id="mucca_pazza",
    title="Mucca Pazza",
    min_players=2,
    max_players=4,
    default_players=2,
    max_decisions=12_000,  # the engine's safety bound on one game, either variant
    reasons=MuccaPazzaTermination,
    summary="Slide rows of heads, bodies and legs until the animals on the cards stand whole.",
    # docs/games/<id>.md, "Rules versions", says what each changed
    rules=(
        RulesVersion(1, "the first rules: both variants set up with three different animals in "
                     "every column, and a standard turn slides on past a completion",
                     unversioned=True),
        RulesVersion(2, "a standard turn ends at the first slide that completes an animal; "
                     "standard's own set-up rule; every valid board equally likely",
                     unversioned=True),
    ),
    options=(
        Option("variant", "standard", "standard (from 6 years: landing place and stars) or "
               "junior (from 4 years: five animals and a grid of face-down cards)",
               kind=str, choices=("standard", "junior")),
    ),
)


def _short_keys() -> dict[str, Action]:
    """`hl` / `h<` = slide heads left, `br` / `b>` = slide bodies right, `s` = stop, `r7`."""
    keys: dict[str, Action] = {"s": STOP}
    for r, row in enumerate("hbl"):
        for d, (letter, arrow) in enumerate((("l", "<"), ("r", ">"))):
            keys[row + letter] = keys[row + arrow] = slide_action(r, d)
    for action in REVEAL:
        keys[f"r{action.position + 1}"] = action
    return keys


_SHORT = _short_keys()
SHORT_KEYS_HINT = ("; short keys: hl hr bl br ll lr (row and direction, or h< b> l> ...), "
                   "s for stop, r7 for reveal 7")


class MuccaPazza(Game):
    """Mucca Pazza for 2–4 players, in the `standard` or the `junior` variant.

    >>> game = MuccaPazza(3, variant="junior")
    >>> game.num_actions, str(game.action_from_id(6)), str(game.parse_action("Reveal  16"))
    (23, 'stop', 'reveal 16')

    Short keys are read too (the notation written out stays the one above):

    >>> [str(game.parse_action(k)) for k in ("hl", "b>", "LR", "s", "r7")]
    ['slide heads left', 'slide bodies right', 'slide legs right', 'stop', 'reveal 7']
    """

    info = INFO

    def _make_actions(self) -> tuple[Action, ...]:
        return ACTIONS

    def notation_hint(self) -> str:
        return NOTATION_HINT + SHORT_KEYS_HINT

    def parse_action(self, text: str) -> Action:
        if isinstance(text, str):
            key = "".join(text.lower().split())
            if key in _SHORT:
                return _SHORT[key]
        return super().parse_action(text)

    def new_state(self, seed: int | None = None) -> MuccaState:
        seed = fresh_seed() if seed is None else seed
        if self.options["variant"] == "junior":
            return JuniorState(self, seed)
        return StandardState(self, seed)
