"""docs/games/mammuz.md, dinosaurs: the six powers, the jackpot, and option `dinosaur_powers`."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import tiergarten

from .positions import hand, legal, log, position, turn

HANDS = ["deer tiger", "deer tiger", "hare tiger"]


def doubted(dinosaur: str, **options: object) -> tiergarten.State:
    """Seat 2 turns `dinosaur`, laid by seat 1 into a herd of hares opened by seat 0."""
    state = position(HANDS, species="hare", lays=[(0, "hare bear"), (1, dinosaur)], **options)
    state.apply(2, "doubt 1")
    return state


def test_stegosaurus_the_doubter_takes_the_herd() -> None:
    state = doubted("stegosaurus")
    assert sorted(hand(state, 2)) == ["bear", "hare", "hare", "stegosaurus", "tiger"]
    assert turn(state) == 0  # the doubter took it: the player to its left opens


def test_triceratops_the_doubted_player_takes_the_herd() -> None:
    state = doubted("triceratops")
    assert sorted(hand(state, 1)) == ["bear", "deer", "hare", "tiger", "triceratops"]
    assert turn(state) == 2


@pytest.mark.parametrize(("taker", "opens"), [(0, 2), (1, 2), (2, 0)])
def test_pterosaurus_the_doubter_chooses_any_taker(taker: int, opens: int) -> None:
    state = doubted("pterosaurus")
    assert state.observe(0)["phase"] == "give" and state.observe(0)["chooser"] == 2
    assert legal(state) == ["give 0", "give 1", "give 2"]
    state.apply(2, f"give {taker}")
    assert state.observe(None)["hand_sizes"][taker] == 2 + 3
    assert log(state)[-2:] == [{"seat": 2, "act": "give", "to": taker},
                               {"seat": taker, "act": "take", "cards": 3}]
    assert turn(state) == opens


def test_brontosaurus_the_herd_is_dealt_out_one_by_one_from_the_doubter() -> None:
    state = position(HANDS, species="hare", lays=[(0, "hare bear"), (1, "brontosaurus deer")])
    state.apply(2, "doubt 1")
    assert state.observe(None)["hand_sizes"] == [3, 3, 4]  # seats 2, 0, 1, 2
    event = log(state)[-1]
    assert event["act"] == "deal_out" and event["dealt"] == [1, 1, 2]
    getter = event["turned_card_to"]
    assert "brontosaurus" in hand(state, getter)
    assert state.observe(None)["known"][str(getter)] == {"brontosaurus": 1}  # it lay face up
    assert state.observe(None)["revealed"][-1]["outcome"] == "dealt"
    assert turn(state) == 2  # nobody took the herd: the doubter opens


def herd_with_remove(dinosaur: str = "plesiosaurus", **options: object) -> tiergarten.State:
    """Seat 2 to doubt `dinosaur` (with power `remove`), laid by seat 1 into a herd of hares
    that also holds a Stegosaurus laid by seat 0."""
    return position(HANDS, species="hare", lays=[(0, "hare bear stegosaurus"), (1, dinosaur)],
                    **options)


def removed(dinosaur: str = "plesiosaurus", **options: object) -> tiergarten.State:
    """The herd of `herd_with_remove`, after seat 2 doubted the dinosaur."""
    state = herd_with_remove(dinosaur, **options)
    state.apply(2, "doubt 1")
    return state


def test_remove_animals_leave_the_game_and_every_dinosaur_goes_to_the_doubter() -> None:
    state = herd_with_remove()
    before = state.observe(None)
    state.apply(2, "doubt 1")
    spectator = state.observe(None)
    assert sorted(hand(state, 2)) == ["hare", "plesiosaurus", "stegosaurus", "tiger"]
    assert spectator["hand_sizes"] == [2, 2, 4]
    gone = Counter(spectator["removed"]) - Counter(before["removed"])  # a position starts with
    assert sorted(gone.elements()) == ["bear", "hare"]  # what it did not place out of the game
    assert spectator["out_of_game"] == before["out_of_game"] + 2
    assert spectator["in_game"]["hare"] == 1 and spectator["in_game"]["bear"] == 0
    assert spectator["dinosaurs"] == 3  # three in play with three players: none left the game
    assert log(state)[-1] == {"seat": None, "act": "removed", "cards": ["bear", "hare"],
                              "dinosaurs": ["stegosaurus", "plesiosaurus"], "to": 2}
    assert spectator["revealed"][-1] == {"seat": 1, "card": "plesiosaurus", "doubter": 2,
                                         "position": 1, "outcome": "removed", "taker": 2}


def test_remove_is_the_power_not_the_name_when_powers_are_remapped() -> None:
    state = doubted("stegosaurus",
                    dinosaur_powers={"stegosaurus": "remove", "plesiosaurus": "jackpot"})
    assert sorted(hand(state, 2)) == ["hare", "stegosaurus", "tiger"]
    assert log(state)[-1] == {"seat": None, "act": "removed", "cards": ["bear", "hare"],
                              "dinosaurs": ["stegosaurus"], "to": 2}
    assert not {"stegosaurus", "plesiosaurus"} & set(state.observe(None)["removed"])


def test_everyone_knows_which_dinosaurs_the_doubter_now_holds() -> None:
    state = removed()
    for seat in (0, 1, None):
        assert state.observe(seat)["known"]["2"] == {"stegosaurus": 1, "plesiosaurus": 1}
    for seed in range(5):  # a world sampled for seat 0 agrees
        sampled = state.resample(0, random.Random(seed))
        assert {"stegosaurus", "plesiosaurus"} <= set(hand(sampled, 2))
        assert sampled.observe(0) == state.observe(0)


def test_a_removed_herd_is_not_taken_the_jackpot_waits() -> None:
    state = position(HANDS, species="hare", lays=[(0, "hare bear"), (1, "plesiosaurus")],
                     jackpot="deer tyrannosaurus")
    state.apply(2, "doubt 1")
    assert state.observe(None)["jackpot_size"] == 2
    assert state.observe(None)["hand_sizes"] == [2, 2, 3]  # the Plesiosaurus only
    assert [e["act"] for e in log(state)] == ["doubt", "removed"]  # no take, no take_jackpot


@pytest.mark.parametrize(("rule", "opens"), [("doubter", 2), ("taker", 2), ("next", 0)])
def test_after_a_removed_herd_the_next_herd_opens_as_if_nobody_took_it(rule: str, opens: int,
                                                                        ) -> None:
    state = removed(next_starter=rule)
    assert turn(state) == opens and state.observe(None)["phase"] == "open"
    assert "plesiosaurus" in hand(state, 2)


DOCS_GAME = [(2, "lay tiger tiger as tiger"), (0, "lay squirrel tyrannosaurus as tiger"),
             (1, "doubt 2"), (1, "lay plesiosaurus as squirrel"), (2, "doubt 1")]


def test_a_removed_herd_conserves_every_card_and_every_dinosaur() -> None:
    state = tiergarten.load("mammuz", players=3).new_state(seed=4)  # the game of the docs page
    for seat, action in DOCS_GAME:  # seat 2 doubts a lone Plesiosaurus
        state.apply(seat, action)
    table = state.observe(None)
    assert table["removed"] == [] and table["out_of_game"] == 0  # only the dinosaur was laid
    held = sum(table["hand_sizes"]) + table["herd_size"] + table["jackpot_size"]
    assert held + table["out_of_game"] == table["cards"] == 30
    assert table["dinosaurs"] == 3 and table["known"]["2"] == {"plesiosaurus": 1}


def test_a_removed_herd_leaves_what_remains_of_a_species_to_be_extinguished() -> None:
    state = position(["deer tiger", "deer tiger", "mammoth tiger"], species="hare",
                     lays=[(0, "mammoth"), (1, "plesiosaurus")])
    assert "extinct mammoth" not in legal(state, 2)
    state.apply(2, "doubt 1")
    assert state.observe(2)["in_game"]["mammoth"] == 1
    assert "extinct mammoth" in legal(state, 2)
    state.apply(2, "extinct mammoth")
    assert state.observe(None)["extinct"] == ["mammoth"]


def test_tyrannosaurus_the_herd_becomes_a_jackpot_for_the_next_taker() -> None:
    state = doubted("tyrannosaurus")
    assert state.observe(None)["jackpot_size"] == 3
    assert state.observe(None)["hand_sizes"] == [2, 2, 2]
    assert state.observe(0)["jackpot_known"] == {"bear": 1, "hare": 1, "tyrannosaurus": 1}
    assert state.observe(2)["jackpot_known"] == {"tyrannosaurus": 1}
    assert turn(state) == 2
    state.apply(2, "lay hare as deer")
    state.apply(0, "doubt 1")  # a lie: seat 2 takes the herd and the jackpot
    assert state.observe(None)["jackpot_size"] == 0
    assert sorted(hand(state, 2)) == ["bear", "hare", "hare", "tiger", "tyrannosaurus"]
    assert log(state)[-2:] == [{"seat": 2, "act": "take_jackpot", "cards": 3},
                               {"seat": 2, "act": "take", "cards": 4}]
    assert state.observe(0)["known"]["2"] == {"bear": 1, "hare": 2, "tyrannosaurus": 1}


def test_a_jackpot_waits_while_herds_are_dealt_out_or_removed() -> None:
    state = position(["deer tiger brontosaurus", "deer tiger plesiosaurus", "hare tiger"],
                     jackpot="bear hare tyrannosaurus", turn=0)
    state.apply(0, "lay brontosaurus as deer")
    state.apply(1, "doubt 1")
    assert state.observe(None)["jackpot_size"] == 3
    opener = turn(state)
    assert opener == 1
    state.apply(1, "lay plesiosaurus as tiger")
    state.apply(2, "doubt 1")
    assert state.observe(None)["jackpot_size"] == 3


def test_option_dinosaur_powers_remaps_a_power() -> None:
    state = doubted("stegosaurus", dinosaur_powers={"stegosaurus": "remove"})
    assert log(state)[-1]["act"] == "removed"
    state = doubted("triceratops", dinosaur_powers="triceratops=doubter_takes")
    assert "triceratops" in hand(state, 2)


def test_option_dinosaur_powers_refuses_unknown_names_and_powers() -> None:
    with pytest.raises(tiergarten.OptionError, match="no dinosaur 'raptor'"):
        tiergarten.load("mammuz", dinosaur_powers={"raptor": "remove"})
    with pytest.raises(tiergarten.OptionError, match="powers are doubter_takes"):
        tiergarten.load("mammuz", dinosaur_powers={"stegosaurus": "explode"})
    game = tiergarten.load("mammuz", dinosaur_powers={"Pterosaurus": "JACKPOT"})
    assert game.options["dinosaur_powers"]["pterosaurus"] == "jackpot"
    assert game.options["dinosaur_powers"]["stegosaurus"] == "doubter_takes"
