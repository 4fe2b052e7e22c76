"""Mucca Pazza standard (docs/games/mucca_pazza.md; the seed's game "from 6 years on", the
default variant).

All ten animals on the board; the thirty cards form a pile from which ten are on display in the
landing place. A turn is one to three slides plus one more per star given up; it ends at once
when a slide leaves any animal complete (or when no slide is left, or on `stop`). Then every
complete animal with displayed cards gives them all to the player, and the landing place is
refilled. Once the last pile card is revealed, every player has one more turn.
"""

from __future__ import annotations

from tiergarten.core import Result, Termination

from .actions import SLIDES, STOP, MuccaAction
from .board import Rows, complete, deal, deal_first
from .cards import ANIMALS, CARDS_PER_ANIMAL, LANDING_SIZE, STARS_EACH
from .state import MuccaState
from .terms import MuccaPazzaTermination

_FIRST_SLIDE = SLIDES  # a turn must contain at least one slide
_SLIDE_OR_STOP = (*SLIDES, STOP)


class StandardState(MuccaState):
    """A standard game: `pile` (top last), `landing` (cards on display per animal), `stars`."""

    __slots__ = ("pile", "landing", "stars", "final_left")

    variant = "standard"
    _CLONE_KEEP = (*MuccaState._CLONE_KEEP, "final_left")
    _CLONE_COPY = ("pile", "landing", "stars")

    def _set_up(self) -> Rows:
        rng = self.rng
        animals = list(range(len(ANIMALS)))
        if self.game.rules >= 2:
            rows = deal(animals, rng, legs_may_match_head=True)  # the 6-year rule
        else:
            rows = deal_first(animals, rng)
        self.pile = [a for a in animals for _ in range(CARDS_PER_ANIMAL)]
        rng.shuffle(self.pile)
        self.landing = [0] * len(ANIMALS)
        self.stars = [STARS_EACH] * self.game.players
        self.final_left = -1  # turns left once the last pile card is out; -1 before that
        self._refill()
        return rows

    # -- queries ----------------------------------------------------------------------------

    def _turn_actions(self) -> tuple[MuccaAction, ...]:
        return _SLIDE_OR_STOP if self.slides_made else _FIRST_SLIDE

    def landing_cards(self) -> list[int]:
        """The displayed cards, one animal per card, grouped by animal."""
        return [a for a, count in enumerate(self.landing) for _ in range(count)]

    # -- transitions ------------------------------------------------------------------------

    def _after_slide(self, seat: int) -> None:
        if self.free_left:
            self.free_left -= 1
        else:
            self.stars[seat] -= 1  # a star is spent at the moment its slide is made
        # The 4-year sliding rules apply: once an animal stands complete the turn ends at once
        # (not under rules 1, where the turn slid on past a completion).
        if (not self.free_left and not self.stars[seat]) or (
                self.game.rules >= 2 and complete(self.rows)):
            self._end_turn(seat)

    def _stop(self, seat: int) -> None:
        self._end_turn(seat)

    def _end_turn(self, seat: int) -> None:
        """Score every complete animal with displayed cards, refill, pass the turn on."""
        gained = []
        for a in complete(self.rows):
            count = self.landing[a]
            if count:
                self.won[seat].extend([a] * count)
                self.landing[a] = 0
                gained.append((a, count))
        self.events.append(("score", seat, tuple(gained)))
        was_final = self.final_left >= 0
        emptied = self._refill()
        if was_final:
            self.final_left -= 1
            if not self.final_left:
                self._finish(MuccaPazzaTermination.FINAL_ROUND)
                return
        elif emptied:
            self.final_left = self.game.players  # one more turn each, from the next player on
            self.events.append(("final", seat))
        if not self.pile and not any(self.landing):
            self._finish(MuccaPazzaTermination.NO_CARDS_LEFT)
            return
        self._next_turn()

    def _refill(self) -> bool:
        """Fill the landing place from the pile; True if the last pile card was just revealed."""
        pile, landing = self.pile, self.landing
        laid = []
        while pile and sum(landing) < LANDING_SIZE:
            a = pile.pop()
            landing[a] += 1
            laid.append(a)
        if laid:
            self.events.append(("refill", -1, tuple(laid)))
        return bool(laid) and not pile

    def _clear_turn(self) -> None:
        if self.final_left > 0:  # the game ended before the last turns were played
            self.final_left = 0

    # -- results ----------------------------------------------------------------------------

    def _result(self, reason: Termination) -> Result:
        """Most cards wins; ties are broken by stars left; remaining ties share the rank."""
        cards, stars = self.cards(), self.stars
        keys = list(zip(cards, stars, strict=True))
        ranks = tuple(1 + sum(1 for o in keys if o > k) for k in keys)
        winners = tuple(s for s, r in enumerate(ranks) if r == 1)
        return Result(tuple(cards), ranks, winners, reason)

