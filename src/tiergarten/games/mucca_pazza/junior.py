"""Mucca Pazza junior (docs/games/mucca_pazza.md; the seed's game "from 4 years on").

Five animals on the board; their fifteen cards and the ghost lie face down in a fixed grid.
A turn: reveal a card (one whose animal is already complete is turned back and another is
revealed at once), then slide up to three times; completing the target wins the card at once,
otherwise it is turned face down again in its place.
"""

from __future__ import annotations

from tiergarten.core import Result, Termination

from .actions import REVEAL, SLIDES, STOP, MuccaAction
from .board import Rows, deal, deal_first, is_complete
from .cards import ANIMALS, CARDS_PER_ANIMAL, GHOST, JUNIOR_ANIMALS
from .state import MuccaState
from .terms import DOWN, TAKEN, UP, MuccaPazzaTermination

_SLIDING = (*SLIDES, STOP)


class JuniorState(MuccaState):
    """A junior game: `grid` holds the cards, `face` how each lies, `seen` which were ever shown."""

    __slots__ = ("grid", "face", "seen", "target", "targets", "tried")

    variant = "junior"
    _CLONE_KEEP = (*MuccaState._CLONE_KEEP, "target", "targets")
    _CLONE_COPY = ("grid", "face", "seen", "tried")

    def _set_up(self) -> Rows:
        rng = self.rng
        animals = sorted(rng.sample(range(len(ANIMALS)), JUNIOR_ANIMALS))
        if self.game.rules >= 2:
            rows = deal(animals, rng, legs_may_match_head=False)  # three animals a column
        else:
            rows = deal_first(animals, rng)
        self.grid: list[int] = [a for a in animals for _ in range(CARDS_PER_ANIMAL)] + [GHOST]
        rng.shuffle(self.grid)
        self.face = [DOWN] * len(self.grid)
        self.seen = [False] * len(self.grid)
        self.target = -1  # grid position of the card being played for, -1 while revealing
        self.targets: tuple[int, ...] = ()  # animals whose completion wins that card
        self.tried: list[int] = []  # positions revealed and turned back this turn
        return rows

    # -- queries ----------------------------------------------------------------------------

    def _turn_actions(self) -> tuple[MuccaAction, ...]:
        if self.target >= 0:
            return _SLIDING
        face, tried = self.face, self.tried
        return tuple(REVEAL[p] for p in range(len(face)) if face[p] == DOWN and p not in tried)

    def wins_with(self, card: int) -> tuple[int, ...]:
        """The animals whose completion would win `card` now (none: it cannot be played for)."""
        rows = self.rows
        if card == GHOST:
            return tuple(a for a in rows[0] if not is_complete(rows, a))
        return () if is_complete(rows, card) else (card,)

    # -- transitions ------------------------------------------------------------------------

    def _reveal(self, seat: int, position: int) -> None:
        card = self.grid[position]
        self.seen[position] = True
        self.events.append(("reveal", seat, position, card))
        targets = self.wins_with(card)
        if targets:
            self.face[position] = UP
            self.target = position
            self.targets = targets
            return
        live = any(self.face[p] == DOWN and p != position and self.wins_with(self.grid[p])
                   for p in range(len(self.grid)))
        if live:  # its animal is complete: turn it back and reveal another at once
            self.tried.append(position)
            self.events.append(("back", seat, position, card))
            return
        self.events.append(("last", seat, position, card))  # no other card can be played for
        self._take(seat, position)

    def _after_slide(self, seat: int) -> None:
        self.free_left -= 1
        rows = self.rows
        if any(is_complete(rows, a) for a in self.targets):
            self.events.append(("take", seat, self.target, self.grid[self.target]))
            self._take(seat, self.target)
        elif self.free_left == 0:
            self._fail(seat)

    def _stop(self, seat: int) -> None:
        self._fail(seat)

    def _fail(self, seat: int) -> None:
        self.face[self.target] = DOWN
        self.events.append(("fail", seat, self.target, self.grid[self.target]))
        self._end_turn()

    def _take(self, seat: int, position: int) -> None:
        self.face[position] = TAKEN
        self.won[seat].append(self.grid[position])
        if all(f == TAKEN for f in self.face):
            self._finish(MuccaPazzaTermination.ALL_CARDS_TAKEN)
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        self._clear_turn()
        self._next_turn()

    def _clear_turn(self) -> None:
        """No card is played for any more; one still face up (the decision bound cut the turn
        short) goes back face down in its place."""
        if self.target >= 0 and self.face[self.target] == UP:
            self.face[self.target] = DOWN
        self.target = -1
        self.targets = ()
        self.tried = []

    # -- results ----------------------------------------------------------------------------

    def _result(self, reason: Termination) -> Result:
        return Result.from_scores(self.cards(), reason)

    def face_down(self) -> int:
        """How many cards lie face down."""
        return self.face.count(DOWN)

