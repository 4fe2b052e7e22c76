"""What both Mucca Pazza variants share: the board, turns, slides, copies.

`JuniorState` (junior.py) and `StandardState` (standard.py) add their own cards and turn
rules. The state is mutable and cheap to copy; `legal_actions` is computed once per position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from tiergarten.core import Action, Termination, TurnState, ViewModule

from . import view
from .actions import REVEAL_KIND, SLIDE_KIND, MuccaAction
from .board import Rows, slide
from .cards import FREE_SLIDES

if TYPE_CHECKING:
    from .game import MuccaPazza


class MuccaState(TurnState[MuccaAction]):
    """One game of Mucca Pazza; a variant subclass fills in cards, turns and scoring."""

    __slots__ = ("rows", "won", "free_left", "slides_made")
    view: ClassVar[ViewModule] = view
    action_type: ClassVar[type[Action]] = MuccaAction

    variant = ""
    _CLONE_KEEP: ClassVar[tuple[str, ...]] = ("turn", "free_left", "slides_made", "_legal")
    _CLONE_COPY_EACH: ClassVar[tuple[str, ...]] = ("rows", "won")

    def __init__(self, game: MuccaPazza, seed: int) -> None:
        super().__init__(game, seed)
        self.turn = 0
        self.won: list[list[int]] = [[] for _ in range(game.players)]
        self.free_left = FREE_SLIDES
        self.slides_made = 0
        self._legal: tuple[MuccaAction, ...] | None = None
        self.rows: Rows = self._set_up()

    # -- what a variant provides ------------------------------------------------------------

    def _set_up(self) -> Rows:
        """Deal the board and the cards from `self.rng`; return the board."""
        raise NotImplementedError

    def _after_slide(self, seat: int) -> None:
        """Settle what a slide just made by `seat` brings (success, stars, end of turn)."""
        raise NotImplementedError

    def _stop(self, seat: int) -> None:
        """`seat` ends its sliding early."""
        raise NotImplementedError

    def _reveal(self, seat: int, position: int) -> None:
        """`seat` turns up the card at `position` (junior only)."""
        raise NotImplementedError

    def _clear_turn(self) -> None:
        """Forget the variant's turn in progress: the game is over (nothing stays stale)."""

    # -- queries ----------------------------------------------------------------------------

    def to_move(self) -> tuple[int, ...]:
        return () if self.over else (self.turn,)

    def cards(self) -> list[int]:
        """How many cards each seat has won."""
        return [len(w) for w in self.won]

    # -- transitions ------------------------------------------------------------------------

    def _act(self, seat: int, action: MuccaAction) -> None:  # type: ignore[override]
        self._legal = None
        kind = action.kind
        if kind == SLIDE_KIND:
            slide(self.rows, action.row, action.direction)
            self.slides_made += 1
            self.events.append(("slide", seat, action.row, action.direction,
                                self.free_left == 0))
            self._after_slide(seat)
        elif kind == REVEAL_KIND:
            self._reveal(seat, action.position)
        else:
            self.events.append(("stop", seat))
            self._stop(seat)

    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % self.game.players
        self.free_left = FREE_SLIDES
        self.slides_made = 0

    def _finish(self, reason: Termination) -> None:
        super()._finish(reason)
        self._legal = None
        self.free_left = 0  # no turn any more: no slide is left, none was made in it
        self.slides_made = 0
        self._clear_turn()
        self.events.append(("over", -1, reason))
