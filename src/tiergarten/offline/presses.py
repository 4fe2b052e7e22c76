"""The presses of one table on this device: the moment of a real-time act, as the server keeps
it (docs/protocol.md, "The moment, then the act"), without the fair order a device with one
clock does not need.

A press on version `v` makes the seat's next act that may be a moment's act (the game's
`takes_moment`) judged on `v`. What a press costs is the game's (`moment_cost`; Lecker
Mammut!, rules 3: a press with nothing to call is a mistake at once, one withdrawn is one
then): the cost is returned to be applied. A press costs at most once: the call meant for a
press charged at once does not count. The page's call dialog withdraws a press after the call
window, so the window needs no timer here.

>>> import tiergarten
>>> state = tiergarten.load("lecker_mammut", players=2).new_state(seed=11)
>>> presses = Presses()
>>> hit = state.game.parse_action("hit deer")
>>> str(presses.press(state, 1, 0)), presses.charged(state, 1, hit, 0)
('miss', True)
"""

from __future__ import annotations

from tiergarten.core import State
from tiergarten.core.game import Action


class Presses:
    """Open and charged presses by seat."""

    def __init__(self) -> None:
        self._open: dict[int, int] = {}  # seat -> the version it pressed on
        self._charged: dict[int, int] = {}  # seat -> the version its cost was applied on

    def press(self, state: State, seat: int, seen: int) -> Action | None:
        """`seat` presses on version `seen`: its cost now, to apply, or None."""
        self._charged.pop(seat, None)
        cost = state.moment_cost(seat, seen, lapsed=False)
        if cost is None:
            self._open[seat] = seen
        else:
            self._open.pop(seat, None)
            self._charged[seat] = len(state.history) + 1  # the version once it is applied
        return cost

    def withdraw(self, state: State, seat: int) -> Action | None:
        """`seat`'s press will have no act: its cost, to apply, or None."""
        seen = self._open.pop(seat, None)
        return None if seen is None else state.moment_cost(seat, seen, lapsed=True)

    def charged(self, state: State, seat: int, action: Action, seen: int) -> bool:
        """Whether `action`, made on version `seen`, was meant for a press already charged (it
        does not count then)."""
        told = self._charged.get(seat)
        if told is None or not state.takes_moment(action):
            return False
        del self._charged[seat]
        return seen < told

    def seen(self, state: State, seat: int, action: Action, seen: int) -> int:
        """The version `action` is judged on: its press's, if it is the act of one."""
        if state.takes_moment(action) and seat in self._open:
            return self._open.pop(seat)
        return seen
