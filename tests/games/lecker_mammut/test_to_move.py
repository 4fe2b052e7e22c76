"""docs/games/lecker_mammut.md, who the game waits on: `to_move()[0]` is a seat that must give a
pile back, else the first seat choosing a top card, else the flipper, else the first seat
clockwise from the starter that has not passed; the others follow in seat order."""

from __future__ import annotations

from .positions import position

PILE_A = "red-bear orange-bear yellow-bear"
PILE_B = "red-tiger orange-tiger yellow-tiger"


def test_the_flipper_comes_first_and_the_others_follow_in_seat_order() -> None:
    state = position(piles=["", "", "pink-sloth green-deer", "red-bear"], starter=2)
    assert state.to_move() == (2, 0, 1, 3)
    state.apply(2, "flip")
    assert state.to_move() == (2, 0, 1, 3)  # a pile is flipped to its end by its owner
    state.apply(2, "flip")
    assert state.to_move() == (3, 0, 1, 2)  # then the next pile clockwise
    assert state.observe(0)["to_move"] == [3, 0, 1, 2]


def test_a_seat_choosing_a_top_card_comes_before_the_flipper() -> None:
    state = position(middle="red-boar blue-boar yellow-boar pink-deer green-deer purple-deer",
                     piles=["", "green-sloth", ""], flipper=1)
    assert state.to_move() == (1, 0, 2)
    state.apply(2, "hit boar")
    assert state.to_move() == (2, 0, 1)
    state.apply(0, "hit deer")  # a second good hit while seat 2 chooses
    assert state.to_move() == (2, 0, 1)  # the earliest good hit is waited on first
    state.apply(2, "top red-boar")
    assert state.to_move() == (0, 1, 2)
    state.apply(0, "top pink-deer")
    assert state.to_move() == (1, 0, 2)  # the flipper again


def test_once_every_pile_is_flipped_the_first_seat_from_the_starter_not_passed_comes_first(
) -> None:
    state = position(middle="red-boar", piles=["", "", ""], starter=1)
    assert state.to_move() == (1, 0, 2)
    state.apply(1, "pass")
    assert state.to_move() == (2, 0, 1)
    state.apply(0, "pass")  # seat 0 passing changes nothing: seat 2 is still first
    assert state.to_move() == (2, 0, 1)
    state.apply(0, "hit pink")  # a mistake clears every pass
    assert state.to_move() == (1, 0, 2)


def test_during_returns_only_the_returning_seats_in_seat_order() -> None:
    state = position(piles=["", "", ""],
                     prizes=[[PILE_A, "red-sloth blue-sloth pink-sloth"], [],
                             [PILE_B, "red-deer blue-deer pink-deer"]],
                     penalties=[2, 0, 2], penalty_cards=["pink-bear pink-boar", "",
                                                         "pink-tiger pink-mammoth"], starter=1)
    for seat in (1, 2, 0):
        state.apply(seat, "pass")
    assert state.to_move() == (0, 2)
    state.apply(0, "return 1")
    assert state.to_move() == (2,)
