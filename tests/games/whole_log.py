"""Checks every game's whole log meets (State.log_since, docs/architecture.md): used by the
per-game log tests."""

from __future__ import annotations

import json
import random

import pytest

import tiergarten
from tiergarten.core import State


def played(gid: str, seed: int, past: int, players: int = 2, **options: object) -> State:
    """A seeded game of random legal moves, played until its log holds more than `past`
    entries (the capped log has then lost its first ones) or the game is over."""
    state = tiergarten.load(gid, players=players, **options).new_state(seed)
    rng = random.Random(seed)
    while not state.is_over() and len(state.events) <= past:
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def check_whole_log(state: State) -> list[dict[str, object]]:
    """The whole log: one entry per happening, the same for every seat and the spectator (every
    entry of these games is public), JSON-safe; from any position it is the whole log's tail
    from there, and the observation's capped `log` is its tail. Returns it."""
    size = len(state.events)
    whole = state.log_since(None)
    assert len(whole) == size
    assert json.loads(json.dumps(whole)) == whole
    for seat in [*range(state.game.players), None]:
        assert state.log_since(seat) == whole
        for start in sorted({0, 1, size // 2, size - 1, size}):
            assert state.log_since(seat, start) == whole[start:]
        capped = state.observe(seat)["log"]
        assert capped and capped == whole[size - len(capped):]
    return whole


def check_bad_starts_refused(state: State) -> None:
    size = len(state.events)
    for bad in (-1, size + 1, "0", 1.0, True):
        with pytest.raises(ValueError, match=f"the log has {size} entries: start is a "
                                             f"position from 0 to {size}, not"):
            state.log_since(0, bad)  # type: ignore[arg-type]
