"""docs/games/mammuz.md, set-up: species removed, unseen dinosaurs, hand sizes, a random starter."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import tiergarten
from tiergarten.games.mammuz.cards import DINOSAUR_NAMES, NAMES
from tiergarten.games.mammuz.kernel import KERNEL
from tiergarten.games.mammuz.shuffles import below, shuffle

Shuffle = Callable[[random.Random, list[int]], None]

TABLE = {  # players: (species removed, dinosaurs, cards in play, hand)
    3: ({"mouse", "marmot"}, 3, 30, 10),
    4: ({"mouse"}, 5, 40, 10),
    5: ({"mouse"}, 5, 40, 8),
    6: (set(), 4, 48, 8),
    7: (set(), 5, 49, 7),
}
BOX = {"mammoth": 2, "bear": 3, "deer": 4, "tiger": 5, "hare": 6, "squirrel": 7, "marmot": 8,
       "mouse": 9}


@pytest.mark.parametrize("players", sorted(TABLE))
def test_the_deal_follows_the_set_up_table(players: int) -> None:
    removed, dinosaurs, cards, hand = TABLE[players]
    for seed in range(5):
        state = tiergarten.load("mammuz", players=players).new_state(seed)
        seen = [card for seat in range(players) for card in state.observe(seat)["hand"]]
        assert len(seen) == cards
        assert state.observe(None)["hand_sizes"] == [hand] * players
        for name, count in BOX.items():
            assert seen.count(name) == (0 if name in removed else count)
        assert sum(seen.count(d) for d in DINOSAUR_NAMES) == dinosaurs
        assert all(seen.count(d) <= 1 for d in DINOSAUR_NAMES)
        spectator = state.observe(None)
        assert spectator["in_game"] == {n: c for n, c in BOX.items() if n not in removed}
        assert (spectator["dinosaurs"], spectator["cards"]) == (dinosaurs, cards)
        assert spectator["species"] is None and spectator["herd"] == []


def test_which_dinosaurs_are_in_play_and_who_starts_vary_with_the_seed() -> None:
    game = tiergarten.load("mammuz", players=4)
    starters, dino_sets = set(), set()
    for seed in range(40):
        state = game.new_state(seed)
        starters.add(state.to_move()[0])
        held = [c for s in range(4) for c in state.observe(s)["hand"]]
        dino_sets.add(frozenset(c for c in held if c in DINOSAUR_NAMES))
    assert starters == {0, 1, 2, 3}
    assert len(dino_sets) == 6  # five of six: each of the six can be the one left out


def test_the_same_seed_deals_the_same_game() -> None:
    game = tiergarten.load("mammuz", players=5)
    a, b = game.new_state(11), game.new_state(11)
    assert [a.observe(s) for s in range(5)] == [b.observe(s) for s in range(5)]


def test_the_opener_may_declare_every_species_in_play_and_only_those() -> None:
    state = tiergarten.load("mammuz", players=3).new_state(1)
    opener = state.to_move()[0]
    declared = {str(a).rsplit(" ", 1)[1] for a in state.legal_actions(opener)
                if str(a).startswith("lay")}
    assert declared == set(NAMES[:6])  # marmot and mouse are out of a three-player game


SHUFFLES = [pytest.param(shuffle, id="python")]
if KERNEL is not None:
    SHUFFLES.append(pytest.param(KERNEL.shuffle, id="kernel"))


@pytest.mark.parametrize("shuffle", SHUFFLES)
def test_the_engine_shuffles_draw_for_draw_as_the_library_does(shuffle: Shuffle) -> None:
    """Old records replay only if every shuffle is the one they were played with (the C
    kernel's, where installed, too)."""
    for size in range(0, 70):
        for seed in range(20):
            ours, theirs = list(range(size)), list(range(size))
            rng_ours, rng_theirs = random.Random(seed), random.Random(seed)
            shuffle(rng_ours, ours)
            rng_theirs.shuffle(theirs)
            assert ours == theirs
            assert rng_ours.getstate() == rng_theirs.getstate()


def test_the_starter_is_drawn_draw_for_draw_as_randrange_draws() -> None:
    for n in range(1, 70):
        for seed in range(20):
            ours, theirs = random.Random(seed), random.Random(seed)
            assert below(ours, n) == theirs.randrange(n)
            assert ours.getstate() == theirs.getstate()
