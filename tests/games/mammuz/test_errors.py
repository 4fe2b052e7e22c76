"""Bad input: illegal actions say why and change nothing; bad options and notation are refused."""

from __future__ import annotations

import pytest

import tiergarten

from .positions import position


def refused(state: tiergarten.State, seat: int, text: str) -> str:
    before = (state.observe(None), [state.observe(s) for s in range(state.game.players)])
    with pytest.raises(tiergarten.IllegalAction) as caught:
        state.apply(seat, text)
    assert (state.observe(None), [state.observe(s) for s in range(state.game.players)]) == before
    assert caught.value.allowed == tuple(str(a) for a in state.legal_actions(seat))
    return caught.value.reason


def test_illegal_actions_name_the_reason() -> None:
    state = position(["deer tiger hare", "hare tiger", "deer hare"], turn=0)
    assert refused(state, 0, "lay mammoth as deer") == "you hold no mammoth"
    assert refused(state, 0, "lay deer deer as deer") == "you hold 1 deer, not 2"
    assert refused(state, 0, "lay deer deer bear as deer") == "you hold no bear"  # kind order
    assert refused(state, 0, "doubt 1").startswith("there is nothing to doubt")
    assert refused(state, 0, "give 1").startswith("give is only for")
    assert refused(state, 0, "lay deer as marmot").startswith("marmot is not in play")
    assert refused(state, 0, "extinct tiger") == (
        "you hold 1 of the 2 tiger cards still in the game; you need them all")
    assert refused(state, 1, "lay hare as hare").startswith("seat 1 may not act now")
    state.apply(0, "lay deer tiger as hare")
    assert refused(state, 1, "lay hare as deer").startswith("this herd is declared as hare")
    assert refused(state, 1, "doubt 3") == "the previous lay has 2 card(s): doubt 1 to 2"


def test_an_extinct_species_cannot_be_declared_or_extinguished_again() -> None:
    state = position(["deer tiger", "hare tiger", "mammoth mammoth hare deer"], turn=0)
    state.apply(2, "extinct mammoth")
    assert refused(state, 0, "lay deer as mammoth").startswith("mammoth is extinct")


def test_bad_notation_is_refused_with_a_hint() -> None:
    game = tiergarten.load("mammuz", players=4)
    for text, hint in [
        ("lay mouse as stegosaurus", "stegosaurus cannot be declared"),
        ("lay mammoth mammoth mammoth as mammoth", "only 2 mammoth"),
        ("lay hare hare hare hare hare as hare", "1 to 4 cards"),
        ("lay raptor as hare", "no card 'raptor'"),
        ("lay as hare", "a lay is written"),
        ("doubt 5", "write 'lay"),
        ("give 4", "write 'lay"),
    ]:
        with pytest.raises(tiergarten.NotationError, match=hint):
            game.parse_action(text)


def test_lays_are_read_in_any_order_and_written_in_one() -> None:
    game = tiergarten.load("mammuz", players=4)
    for text in ("lay hare mouse mouse as mouse", "LAY mouse  hare Mouse as MOUSE",
                 "lay mouse mouse hare as mouse"):
        assert str(game.parse_action(text)) == "lay mouse mouse hare as mouse"
    assert str(game.parse_action("lay stegosaurus deer bear as deer")) == (
        "lay deer bear stegosaurus as deer")
    assert str(game.parse_action("Extinct  Mammoth")) == "extinct mammoth"


def test_the_action_table_is_fixed_and_grows_only_by_give_actions() -> None:
    sizes = {n: tiergarten.load("mammuz", players=n).num_actions for n in range(3, 8)}
    assert sizes == {n: 18_716 + n for n in range(3, 8)}
    three, seven = tiergarten.load("mammuz", players=3), tiergarten.load("mammuz", players=7)
    for index in (0, 5000, 18_715, 18_718):
        assert str(three.action_from_id(index)) == str(seven.action_from_id(index))


def test_bad_options_and_player_counts_are_refused() -> None:
    with pytest.raises(tiergarten.OptionError, match="unknown option 'next_player'"):
        tiergarten.load("mammuz", next_player="taker")
    with pytest.raises(tiergarten.OptionError, match="doubter, taker, next"):
        tiergarten.load("mammuz", next_starter="loser")
    for players in (2, 8):
        with pytest.raises(tiergarten.OptionError, match="3 to 7 players"):
            tiergarten.load("mammuz", players=players)
