"""Invariants over seeded random play: cards are conserved, the version never falls and grows
exactly when the visible cards change, and a stale hit anywhere changes nothing but history."""

from __future__ import annotations

import random

import tiergarten
from tiergarten.games.lecker_mammut.actions import hit_at


def visible(obs: dict[str, object]) -> list[object]:
    piles = obs["prize_piles"]
    assert isinstance(piles, list)
    return [obs["middle"], [[p["top"] for p in seat] for seat in piles]]


def test_random_play_keeps_every_invariant() -> None:
    for seed in range(12):
        game = tiergarten.load("lecker_mammut", players=2 + seed % 5)
        rng = random.Random(seed)
        state = game.new_state(seed)
        while not state.is_over():
            before = state.observe(None)
            seat = rng.choice(state.to_move())
            action = rng.choice(state.legal_actions(seat))
            if before["phase"] in ("flipping", "choosing", "ending") and rng.random() < 0.2:
                stale = rng.randrange(state.stale_upto + 1) if state.stale_upto >= 0 else None
                if stale is not None and seat not in state.choosing:
                    state.apply(seat, hit_at(rng.randrange(14), stale))
                    assert state.observe(None) == before, "a void hit changed the table"
            state.apply(seat, action)
            after = state.observe(None)
            if after["round"] == before["round"] and not after["over"]:
                changed = visible(after) != visible(before)
                assert after["version"] == before["version"] + (1 if changed else 0)
                held = (sum(after["face_down"]) + len(after["middle"]) + sum(after["penalty_cards"])
                        + sum(p["size"] for s in after["prize_piles"] for p in s)
                        + sum(len(c["cards"]) for c in after["choosing"]))
                assert held == 49
            assert after["version"] >= before["version"]
