"""What each seat sees and remembers: hidden lays, pick-ups, and `resample` keeping it all."""

from __future__ import annotations

import random

import tiergarten
from tiergarten.games.mammuz import knowledge
from tiergarten.games.mammuz.cards import KINDS, NAMES, kind

from .positions import position


def test_a_pick_up_tells_each_layer_where_its_own_cards_went() -> None:
    state = position(["deer tiger hare", "hare bear bear", "deer deer tiger"], turn=0)
    state.apply(0, "lay deer tiger as hare")
    state.apply(1, "lay bear as hare")
    state.apply(2, "doubt 1")  # a bear: seat 1 takes the herd
    assert state.observe(0)["known"] == {"1": {"bear": 1, "deer": 1, "tiger": 1}}
    assert state.observe(2)["known"] == {"1": {"bear": 1}}  # only the card it turned up
    assert state.observe(None)["known"] == {"1": {"bear": 1}}
    assert "known" not in state.observe(1)["known"]


def test_laying_face_down_makes_others_forget_as_many_known_cards() -> None:
    state = position(["deer tiger hare hare", "hare bear bear", "deer deer tiger"], turn=0)
    state.apply(0, "lay deer tiger as hare")
    state.apply(1, "lay bear as hare")
    state.apply(2, "doubt 1")
    state.apply(2, "lay deer as deer")
    state.apply(0, "lay hare as deer")
    assert state.observe(0)["known"] == {"1": {"bear": 1, "deer": 1, "tiger": 1}}
    state.apply(1, "lay bear as deer")  # seat 0 can no longer be sure of any one card
    assert state.observe(0)["known"] == {}


def test_resample_keeps_everything_the_seat_has_seen_and_redeals_the_rest() -> None:
    game = tiergarten.load("mammuz", players=4)
    state = game.new_state(3)
    rng = random.Random(0)
    while len(state.history) < 40 and not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    others_hands = set()
    for sample_seed in range(10):
        for seat in range(4):
            sample = state.resample(seat, random.Random(sample_seed))
            assert sample.observe(seat) == state.observe(seat)
            for holder, cards in state.observe(seat)["known"].items():
                held = sample.hands[int(holder)]
                for name, count in cards.items():
                    assert held[kind(name)] >= count
        others_hands.add(tuple(state.resample(0, random.Random(sample_seed)).hands[1]))
    assert len(others_hands) > 1


def test_resample_in_the_middle_of_a_herd_keeps_own_lays_and_the_turned_card() -> None:
    state = position(["deer tiger hare", "hare bear bear", "deer deer tiger"], turn=0)
    state.apply(0, "lay deer tiger as hare")
    state.apply(1, "lay bear bear as hare")
    for seat in range(3):
        sample = state.resample(seat, random.Random(seat))
        assert sample.observe(seat) == state.observe(seat)
        if seat < 2:
            assert sample.lays[seat] == state.lays[seat]


def test_the_dinosaurs_left_in_the_box_are_resampled_too() -> None:
    state = tiergarten.load("mammuz", players=4).new_state(5)
    boxes = {tuple(state.resample(0, random.Random(i)).box) for i in range(30)}
    assert len(boxes) > 1
    held = set(state.observe(0)["hand"])
    assert all(not held & {NAMES[d] for d in box}
               for box in boxes)


def test_what_was_forgotten_stays_forgotten_when_more_is_learnt() -> None:
    """Forgetting is stored as a count of cards laid (knowledge.py): a card learnt afterwards
    counts from what is still known, zero here, not from the count stored before."""
    known = knowledge.table(3)
    hare = kind("hare")
    for _ in range(2):
        knowledge.learn_card(known, 1, hare)  # everyone saw two hares go to seat 1
    assert knowledge.settled(known)[0][1 * KINDS + hare] == 2
    knowledge.forget(known, 1, 3)  # seat 1 laid three cards face down
    assert knowledge.settled(known)[0][1 * KINDS + hare] == 0
    knowledge.learn_card(known, 1, hare)
    assert [row[1 * KINDS + hare] for row in knowledge.settled(known)] == [1, 0, 1, 1]
    knowledge.forget(known, 1, 1)
    assert not any(row[1 * KINDS + hare] for row in knowledge.settled(known))
