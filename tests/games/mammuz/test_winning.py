"""docs/games/mammuz.md, winning: the forced doubt on a last lay, and how it ends the game or
not."""

from __future__ import annotations

import pytest

import tiergarten

from .positions import legal, position, turn


def last_card(card: str, hands: tuple[str, str] = ("deer tiger", "deer tiger hare"),
              ) -> tiergarten.State:
    """Seat 0 lays its last card as a hare; seat 1 must doubt it."""
    state = position([card, *hands], turn=0)
    state.apply(0, f"lay {card} as hare")
    return state


def test_after_a_last_card_the_next_player_must_doubt() -> None:
    state = last_card("hare")
    assert legal(state) == ["doubt 1"]
    assert state.observe(1)["must_doubt"] is True
    with pytest.raises(tiergarten.IllegalAction, match="laid their last card: you must doubt"):
        state.apply(1, "lay deer as hare")


def test_a_true_last_card_wins_at_once() -> None:
    state = last_card("hare")
    state.apply(1, "doubt 1")
    assert state.is_over() and state.to_move() == ()
    result = state.result()
    assert (result.winners, result.reason) == ((0,), "doubt")
    assert result.ranks == (1, 2, 3)
    assert state.observe(None)["revealed"][-1]["outcome"] == "won"


def test_a_false_last_card_takes_the_herd_and_play_goes_on() -> None:
    state = last_card("deer", ("deer tiger", "hare hare"))
    state.apply(1, "doubt 1")
    assert not state.is_over()
    assert state.observe(None)["hand_sizes"] == [1, 2, 2]
    assert turn(state) == 1


@pytest.mark.parametrize(("dinosaur", "over"), [
    ("plesiosaurus", True), ("tyrannosaurus", True), ("stegosaurus", True),
    ("triceratops", False), ("brontosaurus", True),  # one card, dealt to the doubter
])
def test_a_last_card_dinosaur_wins_if_its_player_is_still_without_cards(
        dinosaur: str, over: bool) -> None:
    state = last_card(dinosaur)
    state.apply(1, "doubt 1")
    assert state.is_over() is over
    if over:
        assert state.result().winners == (0,) and state.result().reason == "dinosaur"


def test_a_last_card_brontosaurus_deals_to_its_player_last_a_card_only_if_enough() -> None:
    state = position(["brontosaurus", "deer tiger", "deer tiger hare"], species="hare",
                     lays=[(1, "hare"), (2, "hare")], turn=0)
    state.apply(0, "lay brontosaurus as hare")
    state.apply(1, "doubt 1")  # three cards for three seats, from seat 1: seat 0 gets the last
    assert not state.is_over()
    assert state.observe(None)["hand_sizes"] == [1, 3, 4]


@pytest.mark.parametrize("last", ["plesiosaurus", "hare plesiosaurus"])
def test_a_last_lay_doubted_onto_the_remove_dinosaur_wins_and_the_doubter_keeps_it(
        last: str) -> None:
    state = position([last, "deer tiger", "deer tiger hare"], turn=0)
    state.apply(0, f"lay {last} as hare")
    where = state.observe(0)["herd"][-1]["cards"].index("plesiosaurus") + 1  # lays are shuffled
    state.apply(1, f"doubt {where}")
    assert (state.result().winners, state.result().reason) == ((0,), "dinosaur")
    assert state.observe(None)["hand_sizes"] == [0, 3, 3]  # seat 1 holds the Plesiosaurus
    assert "plesiosaurus" in state.observe(1)["hand"]


@pytest.mark.parametrize(("give", "over"), [(0, False), (1, True), (2, True)])
def test_a_last_card_pterosaurus_wins_unless_the_herd_is_given_back(give: int, over: bool,
                                                                     ) -> None:
    state = last_card("pterosaurus")
    state.apply(1, "doubt 1")
    assert not state.is_over()
    state.apply(1, f"give {give}")
    assert state.is_over() is over


def test_a_decision_limit_ends_a_game_ranked_by_cards_left() -> None:
    state = position(["deer tiger", "hare tiger tiger", "deer hare"], turn=0)
    assert state.game.info.max_decisions == 5_000
    state.decisions = 5_000 - 1
    state.apply(0, "lay deer as hare")
    assert state.is_over()
    result = state.result()
    assert result.reason == "decision_limit"
    assert result.ranks == (1, 3, 2) and result.winners == (0,)


def test_once_every_species_is_extinct_the_fewest_cards_win() -> None:
    state = position(["tiger tiger stegosaurus", "pterosaurus", "brontosaurus triceratops"],
                     turn=0, extinct="mammoth bear deer hare squirrel")
    state.apply(0, "extinct tiger")
    assert state.is_over()
    result = state.result()
    assert (result.reason, result.winners, result.ranks) == ("no_species", (0, 1), (1, 1, 3))
