"""docs/games/maumau.md, the first up-card: it acts as if the dealer had played it (option
`first_card_effects`), and every round starts clockwise."""

from __future__ import annotations

from .positions import dealt_with_up_card, legal, position


def test_a_first_7_makes_the_first_player_face_draw_2() -> None:
    state = dealt_with_up_card("7", players=3)
    seen = state.observe(1)
    assert (seen["pending_draw"], seen["to_move"]) == (2, [1])
    assert all(a == "draw" or a.startswith("play 7") for a in legal(state))


def test_a_first_8_skips_the_first_player() -> None:
    state = dealt_with_up_card("8", players=3)
    assert state.to_move() == (2,)


def test_a_first_8_with_two_players_lets_the_dealer_start() -> None:
    state = dealt_with_up_card("8", players=2)
    assert state.to_move() == (0,)


def test_a_first_9_starts_play_to_the_dealers_right() -> None:
    state = dealt_with_up_card("9", players=4)
    assert state.to_move() == (3,)
    assert state.observe(3)["direction"] == -1


def test_a_first_9_with_two_players_reverses_so_the_other_player_starts() -> None:
    state = dealt_with_up_card("9", players=2)
    assert state.to_move() == (1,)


def test_a_first_9_with_two_players_skips_like_an_8_under_the_house_rule() -> None:
    state = dealt_with_up_card("9", players=2, two_player_nine="skip")
    assert state.to_move() == (0,)


def test_a_first_jack_leaves_no_suit_in_force_so_any_card_may_follow() -> None:
    state = dealt_with_up_card("J", players=3)
    assert state.observe(1)["suit"] is None
    assert state.to_move() == (1,)
    held = state.observe(1)["hand"]
    playable = [a.split()[1] for a in legal(state) if a.startswith("play")]
    assert sorted(set(playable)) == sorted(held)


def test_a_first_jack_may_be_answered_by_a_jack_only_if_jack_on_jack() -> None:
    allowed = position(["Jc Kd Ad", "7s 8d"], top="Js", suit=None)
    assert legal(allowed) == ["play Jc c", "play Jc d", "play Jc h", "play Jc s",
                              "play Kd", "play Ad", "draw"]
    refused = position(["Jc Kd Ad", "7s 8d"], top="Js", suit=None, jack_on_jack=False)
    assert legal(refused) == ["play Kd", "play Ad", "draw"]


def test_a_first_ordinary_card_lets_the_player_left_of_the_dealer_start() -> None:
    state = dealt_with_up_card("K", players=4)
    seen = state.observe(None)
    assert (seen["to_move"], seen["direction"], seen["pending_draw"]) == ([1], 1, 0)
    assert seen["suit"] == seen["top"][-1]


def test_without_first_card_effects_a_first_7_is_an_ordinary_card() -> None:
    state = dealt_with_up_card("7", players=3, first_card_effects=False)
    seen = state.observe(1)
    assert (seen["pending_draw"], seen["to_move"]) == (0, [1])


def test_without_first_card_effects_a_first_8_skips_nobody() -> None:
    state = dealt_with_up_card("8", players=3, first_card_effects=False)
    assert state.to_move() == (1,)


def test_without_first_card_effects_a_first_9_keeps_play_clockwise() -> None:
    state = dealt_with_up_card("9", players=4, first_card_effects=False)
    assert state.to_move() == (1,)
    assert state.observe(1)["direction"] == 1


def test_without_first_card_effects_a_first_jack_is_a_card_of_its_suit() -> None:
    state = dealt_with_up_card("J", players=3, first_card_effects=False)
    seen = state.observe(1)
    assert seen["suit"] == seen["top"][-1]


def test_each_round_starts_clockwise_with_the_next_dealer() -> None:
    state = position(["Kh", "9c Qs", "Ac As"], top="Qh", direction=-1, turn=0,
                     first_card_effects=False)
    state.apply(0, "play Kh")
    seen = state.observe(None)
    assert (seen["round"], seen["dealer"], seen["direction"]) == (2, 1, 1)
    assert seen["to_move"] == [2]
    assert seen["hand_sizes"] == [5, 5, 5]
