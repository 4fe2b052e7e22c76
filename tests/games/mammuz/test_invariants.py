"""Invariants over random playouts (hypothesis picks the seeds and the table)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import tiergarten
from tiergarten.games.mammuz import knowledge
from tiergarten.games.mammuz.cards import DINOSAURS, KINDS, SPECIES
from tiergarten.games.mammuz.state import MammuZState


def check(state: MammuZState) -> None:
    n = state.n
    holders = [*state.hands, state.jackpot]
    for k in range(KINDS):
        # every card still in the game is in a hand, the herd or the jackpot
        assert state.in_game[k] == sum(h[k] for h in holders) + state.herd[k]
    assert [sum(h) for h in state.hands] == state.sizes
    known = knowledge.settled(state.known)  # the counts the stored table stands for
    for o, row in enumerate(known):
        for h, holder in enumerate(holders):
            for k in range(KINDS):
                # what a seat (or a spectator) knows a hand or the jackpot holds is true
                assert row[h * KINDS + k] <= holder[k], (o, h, k)
            if h == o < n:  # a seat does not track its own hand here
                assert not any(row[h * KINDS:(h + 1) * KINDS])
        if o < n:  # what is public, every seat knows (of every holder but itself)
            assert all(row[i] >= known[n][i] for i in range(len(row))
                       if i // KINDS != o)
    for s in SPECIES:
        if state.extinct[s]:
            assert state.in_game[s] == 0
    for d in DINOSAURS:  # a dinosaur dealt never leaves the game
        assert state.in_game[d] == (d not in state.box) and not state.removed[d]
    for seat in [*range(n), None]:
        shown = state.observe(seat)["to_move"]
        allowed = {state.turn} | ({seat} if seat is not None else set())
        assert set(shown) <= allowed and set(shown) <= set(state.to_move())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 7),
       starter=st.sampled_from(["doubter", "taker", "next"]))
def test_random_playouts_keep_cards_and_knowledge_true(seed: int, players: int,
                                                       starter: str) -> None:
    game = tiergarten.load("mammuz", players=players, next_starter=starter)
    state = game.new_state(seed)
    rng = random.Random(seed)
    assert isinstance(state, MammuZState)
    while not state.is_over():
        check(state)
        seat = rng.choice(state.to_move())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    check(state)
    assert len(state.result().winners) >= 1
