"""The whole log (State.log_since): every move from the first, uncapped, public only."""

from __future__ import annotations

import json

from tests.games.whole_log import check_bad_starts_refused, check_whole_log, played

from tiergarten.games.maumau.view import LOG_LENGTH

from .positions import position


def test_the_first_move_stays_in_the_whole_log_after_the_capped_log_dropped_it() -> None:
    state = position(["Kh Kc Ad 9h", "9c Qs 7d 10h"], top="Qh")
    state.apply(0, "play Kh")
    for _ in range(LOG_LENGTH):  # draw and pass, turn about: 24 more entries
        seat = state.turn
        state.apply(seat, "draw")
        if "pass" in [a.text for a in state.legal_actions(seat)]:
            state.apply(seat, "pass")
    whole = check_whole_log(state)
    assert whole[0] == {"seat": 0, "act": "play Kh"}
    assert {"seat": 0, "act": "play Kh"} not in state.observe(1)["log"]
    assert len(whole) > LOG_LENGTH


def test_a_draw_in_the_whole_log_tells_how_many_cards_never_which() -> None:
    state = position(["Kh Kc Ad", "9c Qs 7d"], top="Qh", stock="As")
    state.apply(0, "play Kh")
    state.apply(1, "draw")
    assert state.log_since(0, 1) == [{"seat": 1, "act": "draw", "cards": 1}]
    assert "As" not in json.dumps(state.log_since(0))


def test_a_played_game_keeps_every_entry_with_its_round_ends() -> None:
    state = played("maumau", seed=5, past=200, rounds=2)  # a round ends within 200 entries
    whole = check_whole_log(state)
    assert [e["round"] for e in whole if e["act"] == "round_over"][:1] == [1]
    check_bad_starts_refused(state)
