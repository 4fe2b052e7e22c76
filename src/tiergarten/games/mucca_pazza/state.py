"""What both Mucca Pazza variants share: the board, turns, slides, the decision bound, copies.

`JuniorState` (junior.py) and `StandardState` (standard.py) add their own cards and turn
rules. The state is mutable and cheap to copy; `legal_actions` is computed once per position.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from tiergarten.core import Action, Result, State

from . import view
from .actions import REVEAL_KIND, SLIDE_KIND, MuccaAction
from .board import Rows, slide
from .cards import FREE_SLIDES

if TYPE_CHECKING:
    from .game import MuccaPazza

MAX_DECISIONS = 12_000  # the engine's safety bound on one game (GameInfo.max_decisions)


class MuccaState(State):
    """One game of Mucca Pazza; a variant subclass fills in cards, turns and scoring."""

    __slots__ = ("game", "seed", "history", "events", "rng", "rows", "turn", "won",
                 "free_left", "slides_made", "over", "reason", "decisions", "_legal")

    variant = ""
    _COPIED = ("game", "seed", "turn", "free_left", "slides_made", "over", "reason",
               "decisions", "_legal")

    def __init__(self, game: MuccaPazza, seed: int) -> None:
        self.game = game
        self.seed = seed
        self.history: list[tuple[int, Action]] = []
        self.events: list[tuple[Any, ...]] = []  # public happenings, for the observation's log
        self.rng = random.Random(seed)
        self.turn = 0
        self.won: list[list[int]] = [[] for _ in range(game.players)]
        self.free_left = FREE_SLIDES
        self.slides_made = 0
        self.over = False
        self.reason = ""
        self.decisions = 0
        self._legal: tuple[MuccaAction, ...] | None = None
        self.rows: Rows = self._set_up()

    # -- what a variant provides ------------------------------------------------------------

    def _set_up(self) -> Rows:
        """Deal the board and the cards from `self.rng`; return the board."""
        raise NotImplementedError

    def _turn_actions(self) -> tuple[MuccaAction, ...]:
        """The legal actions of the seat to move, in id order."""
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

    def _ranking(self) -> Result:
        """The result of the game as it stands, with `self.reason`."""
        raise NotImplementedError

    def _copy_into(self, new: Any) -> None:
        """Copy the variant's own fields into `new`."""
        raise NotImplementedError

    def _clear_turn(self) -> None:
        """Forget the variant's turn in progress: the game is over (nothing stays stale)."""

    # -- queries ----------------------------------------------------------------------------

    def to_move(self) -> tuple[int, ...]:
        return () if self.over else (self.turn,)

    def legal_actions(self, seat: int) -> tuple[MuccaAction, ...]:
        if self.over or seat != self.turn:
            return ()
        legal = self._legal
        if legal is None:
            legal = self._legal = self._turn_actions()
        return legal

    def is_over(self) -> bool:
        return self.over

    def result(self) -> Result:
        if not self.over:
            raise ValueError("the game is not over yet; result() is for finished games")
        return self._ranking()

    def cards(self) -> list[int]:
        """How many cards each seat has won."""
        return [len(w) for w in self.won]

    def observe(self, seat: int | None) -> dict[str, Any]:
        return view.observe(self, seat)

    def resample(self, seat: int, rng: random.Random) -> MuccaState:
        return view.resample(self, seat, rng)

    def why_illegal(self, seat: int, action: Action) -> str:
        if self.over or seat not in self.to_move():
            return super().why_illegal(seat, action)
        if not isinstance(action, MuccaAction):
            return f"{action} is not a Mucca Pazza action"
        return view.explain(self, seat, action)

    # -- transitions ------------------------------------------------------------------------

    def apply_unchecked(self, seat: int, action: MuccaAction) -> None:  # type: ignore[override]
        self.history.append((seat, action))
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
        self.decisions += 1
        if self.decisions >= MAX_DECISIONS and not self.over:
            self._finish("decision_limit")

    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % self.game.players
        self.free_left = FREE_SLIDES
        self.slides_made = 0

    def _finish(self, reason: str) -> None:
        self.over = True
        self.reason = reason
        self._legal = None
        self.free_left = 0  # no turn any more: no slide is left, none was made in it
        self.slides_made = 0
        self._clear_turn()
        self.events.append(("over", -1, reason))

    # -- copies -----------------------------------------------------------------------------

    def clone(self) -> MuccaState:
        new = type(self).__new__(type(self))
        for name in self._COPIED:
            setattr(new, name, getattr(self, name))
        new.history = self.history.copy()
        new.events = self.events.copy()
        new.rows = [r.copy() for r in self.rows]
        new.won = [w.copy() for w in self.won]
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        self._copy_into(new)
        return new
