"""docs/games/maumau.md, the stock running out: the discards are reshuffled under the top card,
and a draw that still cannot be paid is forgiven."""

from __future__ import annotations

from .positions import hand, legal, position


def test_an_empty_stock_is_refilled_from_the_discards_except_the_top_card() -> None:
    state = position(["8c Kc Ad", "9c Qs"], top="Qh", under="7d 8d 10d", stock="")
    state.apply(0, "draw")
    seen = state.observe(1)
    assert (seen["top"], seen["discard_size"], seen["stock_size"]) == ("Qh", 1, 2)
    assert {"seat": None, "act": "reshuffle", "cards": 3} in seen["log"]
    drawn = set(hand(state, 0)) - {"8c", "Kc", "Ad"}
    assert len(drawn) == 1 and drawn <= {"7d", "8d", "10d"}


def test_a_7_chain_is_paid_across_a_reshuffle() -> None:
    state = position(["7h Kc Ad", "8c 9c"], top="Qh", under="7d 8d 10d", stock="As")
    state.apply(0, "play 7h")
    state.apply(1, "draw")
    seen = state.observe(1)
    assert seen["hand_sizes"][1] == 4
    assert "As" in seen["hand"]
    assert (seen["top"], seen["discard_size"], seen["stock_size"]) == ("7h", 1, 3)


def test_a_draw_that_cannot_be_paid_is_forgiven() -> None:
    state = position(["7h 7c", "7s Qs", "9c 10c 7d Ac Ah Kh"], top="Qh", under="Ks",
                     stock="Kd", pending=4, turn=0)
    # pending 4: one card in the stock, one under the top card, and nothing else anywhere
    state.apply(0, "draw")
    seen = state.observe(0)
    assert sorted(seen["hand"]) == sorted(["7h", "7c", "Kd", "Ks"])
    assert (seen["pending_draw"], seen["stock_size"], seen["discard_size"]) == (0, 0, 1)
    assert seen["log"][-1] == {"seat": 0, "act": "draw", "cards": 2}
    assert seen["to_move"] == [1]


def test_drawing_from_no_cards_at_all_draws_nothing_and_ends_the_turn() -> None:
    state = position(["8c Kc Ad", "9c 10s"], top="Qh", stock="")  # the rest is out of play
    state.apply(0, "draw")
    seen = state.observe(0)
    assert seen["log"][-1] == {"seat": 0, "act": "draw", "cards": 0}
    assert seen["hand"] == ["8c", "Kc", "Ad"]
    assert seen["to_move"] == [1]
    assert legal(state) == ["draw"]
