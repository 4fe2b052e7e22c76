"""docs/games/mammuz.md, a herd: lay 1–4 cards as one species, add or doubt, who takes it, who
opens."""

from __future__ import annotations

import pytest

from .positions import hand, legal, log, position, turn


def test_a_lay_puts_cards_face_down_as_the_declared_species() -> None:
    state = position(["squirrel squirrel hare bear", "tiger tiger", "deer deer"])
    state.apply(0, "lay hare squirrel squirrel as squirrel")
    assert hand(state, 0) == ["bear"]
    spectator = state.observe(None)
    assert spectator["species"] == "squirrel"
    assert spectator["herd"] == [{"seat": 0, "count": 3, "cards": None}]
    assert sorted(state.observe(0)["herd"][0]["cards"]) == ["hare", "squirrel", "squirrel"]
    assert state.observe(1)["herd"][0]["cards"] is None
    assert log(state)[-1] == {"seat": 0, "act": "lay", "count": 3, "species": "squirrel"}
    assert turn(state) == 1


def test_the_next_player_adds_as_the_same_species_or_doubts_a_card_of_the_last_lay() -> None:
    state = position(["squirrel squirrel hare bear", "tiger deer", "deer tiger"])
    state.apply(0, "lay squirrel hare as squirrel")
    assert legal(state) == ["lay deer as squirrel", "lay tiger as squirrel",
                            "lay deer tiger as squirrel", "doubt 1", "doubt 2"]
    state.apply(1, "lay deer as squirrel")
    assert legal(state)[-1] == "doubt 1"  # only the previous player's last lay, one card


def test_a_true_card_sends_the_whole_herd_to_the_doubter() -> None:
    state = position(["hare", "tiger", "deer deer"], species="squirrel",
                     lays=[(0, "squirrel squirrel"), (1, "squirrel")])
    state.apply(2, "doubt 1")
    assert sorted(hand(state, 2)) == ["deer", "deer", "squirrel", "squirrel", "squirrel"]
    assert state.observe(None)["revealed"] == [
        {"seat": 1, "card": "squirrel", "doubter": 2, "position": 1, "outcome": "taken",
         "taker": 2}]
    assert state.observe(None)["species"] is None
    assert turn(state) == 0  # the doubter took the herd: the player to its left opens


def test_a_false_card_sends_the_whole_herd_to_the_liar_and_the_doubter_opens() -> None:
    state = position(["hare", "tiger", "deer deer"], species="squirrel",
                     lays=[(0, "squirrel squirrel"), (1, "bear")])
    state.apply(2, "doubt 1")
    assert sorted(hand(state, 1)) == ["bear", "squirrel", "squirrel", "tiger"]
    assert log(state)[-2:] == [
        {"seat": 2, "act": "doubt", "of": 1, "position": 1, "card": "bear"},
        {"seat": 1, "act": "take", "cards": 3}]
    assert turn(state) == 2


@pytest.mark.parametrize(("rule", "liar", "opens"), [
    ("doubter", True, 2), ("doubter", False, 0),
    ("taker", True, 1), ("taker", False, 2),
    ("next", True, 0), ("next", False, 0),
])
def test_option_next_starter(rule: str, liar: bool, opens: int) -> None:
    state = position(["hare", "tiger", "deer deer"], species="squirrel",
                     lays=[(1, "bear" if liar else "squirrel")], next_starter=rule)
    state.apply(2, "doubt 1")
    assert turn(state) == opens
    assert state.observe(None)["phase"] == "open"


def test_the_turned_card_is_chosen_by_position_and_positions_are_shuffled_per_lay() -> None:
    outcomes = set()
    for seed in range(30):
        state = position(["squirrel hare hare", "deer", "tiger"], seed=seed)
        state.apply(0, "lay squirrel hare as squirrel")
        state.apply(1, "doubt 2")
        outcomes.add(state.observe(None)["revealed"][0]["card"])
    assert outcomes == {"squirrel", "hare"}  # the doubter cannot know where the lie lies


def test_a_herd_never_changes_species_and_cannot_be_passed() -> None:
    state = position(["squirrel hare tiger", "hare tiger", "deer"], species="squirrel",
                     lays=[(0, "squirrel")])
    assert all(a.endswith("as squirrel") or a.startswith("doubt") for a in legal(state))
    assert "pass" not in " ".join(legal(state))
