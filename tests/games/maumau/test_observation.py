"""What a seat sees: the observation's keys, hidden cards, and the public log."""

from __future__ import annotations

import json

import tiergarten

from .positions import position

KEYS = {"game", "seat", "players", "hand", "hand_sizes", "top", "suit", "pending_draw",
        "direction", "turn", "to_move", "drawn", "drawn_fits", "catchable", "stock_size",
        "discard_size", "scores", "round", "dealer", "target_score", "rounds", "log", "over",
        "result"}


def test_an_observation_has_the_promised_keys_and_is_json() -> None:
    state = tiergarten.load("maumau", players=3).new_state(seed=3)
    for seat in (None, 0, 1, 2):
        seen = state.observe(seat)
        assert set(seen) == KEYS
        assert json.loads(json.dumps(seen)) == seen


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others() -> None:
    state = position(["8h Kc Ad", "9c Qs", "10c"], top="Qh", dealer=2, scores=[1, 2, 3])
    seen = state.observe(1)
    assert (seen["seat"], seen["hand"], seen["hand_sizes"]) == (1, ["9c", "Qs"], [3, 2, 1])
    assert (seen["top"], seen["suit"], seen["pending_draw"], seen["direction"]) == (
        "Qh", "h", 0, 1)
    assert (seen["turn"], seen["to_move"], seen["dealer"], seen["scores"]) == (
        0, [0], 2, [1, 2, 3])
    assert (seen["stock_size"], seen["discard_size"], seen["round"]) == (32 - 7, 1, 1)
    assert (seen["target_score"], seen["rounds"], seen["over"], seen["result"]) == (
        150, None, False, None)
    assert "8h" not in json.dumps(seen)


def test_a_spectator_sees_no_hand() -> None:
    state = position(["8h Kc Ad", "9c Qs"], top="Qh")
    seen = state.observe(None)
    assert seen["seat"] is None and seen["hand"] is None
    assert seen["hand_sizes"] == [3, 2]


def test_the_log_tells_what_others_did_without_showing_drawn_cards() -> None:
    state = position(["8h Kc Ad", "9c Qs 7d"], top="Qh", stock="As")
    state.apply(0, "play 8h")
    state.apply(0, "draw")
    seen = state.observe(1)
    assert seen["log"] == [{"seat": 0, "act": "play 8h"}, {"seat": 0, "act": "draw", "cards": 1}]
    assert "As" not in json.dumps(seen)
