"""One seat at a time: the sequential view of a game that the AEC and OpenSpiel adapters share.

The engine's `to_move()` may hold several seats (catching a missed Mau, extinguishing in
MammuZ, hitting in Lecker Mammut!). A sequential API asks one seat at a time, so:

* The *anchor* is the seat that must act for the game to go on: `to_move()[0]`, which every game
  makes the seat it waits on (docs/architecture.md; in Lecker Mammut! whoever must return a
  pile, else a seat choosing a top card, else the flipper, else the first seat clockwise from
  the starter that has not passed).
* After every applied action, each other seat that may act now is offered a *window*, one at a
  time, clockwise from the anchor: its legal actions plus `wait` (id `game.num_actions`).
  Waiting changes nothing in the game; the window moves on. Any action taken in a window is
  applied and the windows start again from the (new) anchor.
* Once every window is closed the anchor acts, without `wait`.

Windows go to seats in the engine's `to_move()`, so the *order* of who is asked follows the
true state; each seat's observation is still built only from `observe(seat)`, never from who
else was asked (see docs/research.md on honesty).

>>> import tiergarten
>>> turns = Turns(tiergarten.load("maumau", players=2, rounds=1).new_state(seed=1))
>>> turns.current(), turns.wait_id
(1, 107)
"""

from __future__ import annotations

from collections.abc import Sequence

from tiergarten.core import Action, State


class Turns:
    """A game state seen one seat at a time (see the module doc)."""

    __slots__ = ("state", "n", "wait_id", "cursor", "_current", "_ids", "replayable")

    def __init__(self, state: State) -> None:
        self.state = state
        self.n = state.game.players
        self.wait_id = state.game.num_actions
        self.cursor = 1  # windows from anchor + cursor onwards are still to be offered
        self._current: int | None = None
        self._ids: list[int] | None = None  # legal ids of the seat asked now, once computed
        self.replayable = True  # the state's record rebuilds it (not so once resampled)

    def clone(self, state: State | None = None) -> Turns:
        """A copy over `state` (default: a clone of this state) at the same window."""
        new = Turns(self.state.clone() if state is None else state)
        new.cursor = self.cursor
        new._current = self._current
        new.replayable = self.replayable and state is None
        return new

    def __deepcopy__(self, memo: dict[int, object]) -> Turns:
        return self.clone()  # how pyspiel copies a Python state's attributes

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as the state's record and the window reached (how OpenSpiel serialises a
        Python state's attributes); a resampled state has no record that rebuilds it."""
        if not self.replayable:
            raise TypeError("a resampled state cannot be serialised: its hidden cards were "
                            "sampled, not dealt from its seed")
        return (_rebuild, (self.state.record(), self.cursor))

    def current(self) -> int | None:
        """The seat asked now, or None once the game is over."""
        if self._current is None:
            self._current = self._find()
        return self._current

    def _find(self) -> int | None:
        state = self.state
        if state.is_over():
            return None
        movers = state.to_move()
        anchor = movers[0]  # the seat the game waits on
        n = self.n
        while self.cursor < n:
            seat = (anchor + self.cursor) % n
            if seat in movers and state.legal_actions(seat):
                return seat
            self.cursor += 1
        return anchor

    def is_window(self) -> bool:
        """Whether the seat asked now may wait (it is acting out of turn)."""
        return self.current() is not None and self.cursor < self.n

    def legal_ids(self) -> list[int]:
        """The action ids open to the seat asked now, ascending (with `wait` in a window)."""
        seat = self.current()
        if seat is None:
            return []
        ids = self._ids
        if ids is None:
            ids = sorted([a.id for a in self.state.legal_actions(seat)])
            if self.cursor < self.n:
                ids.append(self.wait_id)
            self._ids = ids
        return ids

    def legal(self) -> Sequence[Action]:
        seat = self.current()
        return () if seat is None else self.state.legal_actions(seat)

    def step(self, action_id: int) -> None:
        """The seat asked now takes `action_id` (or waits); the caller has checked it."""
        seat = self.current()
        assert seat is not None, "the game is over"
        self._current = None
        self._ids = None
        if action_id == self.wait_id:
            self.cursor += 1
            return
        self.state.apply_unchecked(seat, self.state.game.actions[action_id])
        self.cursor = 1


def _rebuild(record: dict[str, object], cursor: int) -> Turns:
    from tiergarten.core import replay

    turns = Turns(replay(record))
    turns.cursor = cursor
    return turns


__all__ = ["Turns"]
