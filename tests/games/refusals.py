"""What every game's refusal tests share: a refused act must change nothing anyone can see."""

from __future__ import annotations

import json

import pytest

from tiergarten.core import IllegalAction, State


def snapshot(state: State) -> str:
    """Every seat's and the spectator's view, the record and who is to move, as one text."""
    seen = [state.observe(s) for s in (None, *range(state.game.players))]
    return json.dumps([seen, state.record(), state.to_move()], default=str)


def refused(state: State, seat: int, move: str) -> IllegalAction:
    """The refusal of `move` by `seat`, having checked that it changed nothing."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, move)
    assert snapshot(state) == before
    return caught.value
