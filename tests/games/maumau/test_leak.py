"""docs/games/maumau.md, "A turn": after a plain draw nothing tells the other seats whether the
drawn card fits. Two games that differ only in that (the same hands, the same cards in the
stock, two of them swapped) look the same to every other seat and the spectator until the
drawer acts, and after a pass as well; a sampled world gives the drawer any unseen card."""

from __future__ import annotations

import random
from typing import Any

import pytest

import tiergarten
from tiergarten.games.maumau.actions import DRAW
from tiergarten.games.maumau.state import MauMauState

from .positions import legal, position, twins


def seen_by_others(state: MauMauState, drawer: int) -> list[Any]:
    """Everything any seat but `drawer`, or a spectator, may learn now."""
    others = [s for s in range(state.game.players) if s != drawer]
    return [state.observe(None), state.to_move(),
            *((state.observe(s), legal(state, s)) for s in others)]


def test_a_fitting_and_a_misfitting_draw_look_the_same_to_everyone_else() -> None:
    hands = ["8h Kc Ad", "7c 9c 10d", "Qs Js 8s"]
    fits = position(hands, top="Qh", stock="Kh 10s 9d")
    misfits = position(hands, top="Qh", stock="10s Kh 9d")
    assert seen_by_others(fits, 0) == seen_by_others(misfits, 0)
    for state in (fits, misfits):
        state.apply(0, "draw")
    assert seen_by_others(fits, 0) == seen_by_others(misfits, 0)
    assert (fits.to_move(), misfits.to_move()) == ((0,), (0,))
    assert (fits.observe(0)["drawn"], misfits.observe(0)["drawn"]) == ("Kh", "10s")
    assert (legal(fits), legal(misfits)) == (["play Kh", "pass"], ["pass"])
    for state in (fits, misfits):
        state.apply(0, "pass")  # keeping a card that fits is a pass like any other
    assert seen_by_others(fits, 0) == seen_by_others(misfits, 0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_in_random_games_no_draw_tells_the_others_whether_the_card_fits(players: int) -> None:
    game = tiergarten.load("maumau", players=players, rounds=1)
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_state(seed)
        while not state.is_over():
            seat = rng.choice(state.to_move())
            pair = twins(state) if seat == state.turn and DRAW in state.legal_actions(seat) \
                and not state.pending else None
            if pair is not None:
                for twin in pair:
                    twin.apply(seat, "draw")
                assert seen_by_others(pair[0], seat) == seen_by_others(pair[1], seat)
                assert {str(a) for a in pair[0].legal_actions(seat)} > {"pass"}
                assert [str(a) for a in pair[1].legal_actions(seat)] == ["pass"]
                checked += 1
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked > 100


def test_a_sampled_world_gives_the_drawer_a_card_that_fits_or_not() -> None:
    state = position(["8h Kc Ad", "7c 9c 10d", "Qs Js 8s"], top="Qh", stock="Kh 10s 9d")
    state.apply(0, "draw")
    rng = random.Random(3)
    worlds = [state.resample(1, rng) for _ in range(200)]
    assert {world.fits(world.drawn) for world in worlds} == {True, False}
    for world in worlds:
        assert world.drawn in world.hands[0]
        assert world.to_move() == (0,)
        assert "pass" in legal(world)
        assert world.observe(1) == state.observe(1)


def test_the_drawer_samples_a_world_with_its_own_drawn_card() -> None:
    state = position(["8h Kc Ad", "7c 9c 10d"], top="Qh", stock="10s Kh")
    state.apply(0, "draw")
    world = state.resample(0, random.Random(1))
    assert (world.observe(0)["drawn"], legal(world)) == ("10s", ["pass"])
