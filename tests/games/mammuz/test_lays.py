"""The cached lay finders (lays.py) agree with the plain definition: a lay is legal iff its
multiset of 1–4 cards is in the hand; lays come in table order, species by species."""

from __future__ import annotations

import random

import pytest

import tiergarten
from tiergarten.games.mammuz import lays
from tiergarten.games.mammuz.actions import DOUBT, LAY_BY, MULTISETS, NEEDS, MammuZAction
from tiergarten.games.mammuz.cards import COUNTS, KINDS, SPECIES
from tiergarten.games.mammuz.state import MammuZState


def plain_lays(hand: list[int], species: int) -> list[MammuZAction]:
    """Every lay of the table whose cards are in `hand`, in table order (no cache)."""
    return [LAY_BY[species][i] for i in range(len(MULTISETS))
            if all(hand[k] >= c for k, c in NEEDS[i])]


def random_hand(rng: random.Random) -> list[int]:
    """Any hand the box allows: up to all cards of each kind, small and large ones."""
    size = rng.choice([1, 3, 6, 10, 20, 40])
    deck = [k for k in range(KINDS) for _ in range(COUNTS[k])]
    hand = [0] * KINDS
    for k in rng.sample(deck, size):
        hand[k] += 1
    return hand


@pytest.mark.parametrize("seed", range(3))
def test_lays_of_random_hands_match_the_definition(seed: int,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lays, "_CACHE_LIMIT", 16)  # the lay set caches empty often
    rng = random.Random(seed)
    for _ in range(80):
        hand = random_hand(rng)
        species = rng.choice(SPECIES)
        tail = DOUBT[:rng.randrange(5)]
        for _ in range(2):  # found, then cached
            assert lays.lays_as(hand, species, tail) == (*plain_lays(hand, species), *tail)
        declarable = tuple(sorted(rng.sample(SPECIES, rng.randint(1, len(SPECIES)))))
        expected = [a for s in declarable for a in plain_lays(hand, s)]
        assert lays.opening_lays(hand, declarable) == tuple(expected)


def test_the_turn_s_legal_actions_in_random_games_match_the_definition() -> None:
    rng = random.Random(7)
    for players in range(3, 8):
        game = tiergarten.load("mammuz", players)
        for seed in range(3):
            state = game.new_state(seed)
            assert isinstance(state, MammuZState)
            while not state.is_over():
                seat = rng.choice(state.to_move())
                legal = state.legal_actions(seat)
                if seat == state.turn and state.phase in ("open", "respond"):
                    hand = state.hands[seat]
                    got = [a for a in legal if a.kind == 0]
                    if state.phase == "open":
                        assert got == [a for s in state.declarable for a in plain_lays(hand, s)]
                    elif state.sizes[(seat - 1) % players]:
                        assert got == plain_lays(hand, state.species)
                    assert all(a in legal for a in legal)
                state.apply(seat, rng.choice(legal))


def test_the_quick_membership_test_agrees_with_the_legal_actions() -> None:
    """`in legal_actions(seat)` (what the checked apply asks) decides without building the
    lays, as membership in the tuple of the same actions does."""
    rng = random.Random(11)
    for players in range(3, 8):
        game = tiergarten.load("mammuz", players)
        others = [a for a in game.actions if a.kind != 0]  # every doubt, extinction and give
        for seed in range(2):
            state = game.new_state(seed)
            assert isinstance(state, MammuZState)
            while True:
                for seat in range(players):
                    lazy = state.legal_actions(seat)
                    legal = set(lazy)
                    for action in others + rng.sample(game.actions, 150) + list(legal)[:50]:
                        assert (action in lazy) == (action in legal), (seat, action)
                if state.is_over():
                    break
                seat = rng.choice(state.to_move())
                state.apply(seat, rng.choice(state.legal_actions(seat)))
