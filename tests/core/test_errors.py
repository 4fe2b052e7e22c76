"""A refusal crosses a process boundary whole (the lab's workers and Ray pickle what a game
raised): the same text, reason, code, parameters and allowed actions."""

from __future__ import annotations

import pickle

import pytest

import tiergarten
from tiergarten.core.errors import IllegalAction, NotationError


@pytest.mark.parametrize("act", ["play 7x", "pass"])
def test_a_refusal_is_the_same_after_pickling(act: str) -> None:
    state = tiergarten.load("maumau", players=2).new_state(1)
    with pytest.raises(IllegalAction) as raised:
        state.apply(state.to_move()[0], act)
    again = pickle.loads(pickle.dumps(raised.value))
    assert type(again) is type(raised.value)
    assert str(again) == str(raised.value)
    assert (again.reason, again.code, again.params, again.allowed) == \
        (raised.value.reason, raised.value.code, raised.value.params, raised.value.allowed)
    assert isinstance(again, NotationError) == (act == "play 7x")
