"""The whole log (State.log_since): every happening from the deal on, uncapped."""

from __future__ import annotations

from tests.games.whole_log import check_bad_starts_refused, check_whole_log, played

from tiergarten.games.lecker_mammut.view import LOG_LENGTH


def test_the_deal_stays_first_after_the_capped_log_dropped_it() -> None:
    state = played("lecker_mammut", seed=5, past=3 * LOG_LENGTH, players=3)
    whole = check_whole_log(state)
    assert whole[0] == {"act": "deal", "round": 1, "starter": whole[0]["starter"]}
    assert state.observe(1)["log"][0] != whole[0]
    assert len(whole) > 3 * LOG_LENGTH
    check_bad_starts_refused(state)


def test_a_whole_game_keeps_every_round_end() -> None:
    state = played("lecker_mammut", seed=2, past=10_000, players=2)
    assert state.is_over()
    whole = check_whole_log(state)
    ends = [e["round"] for e in whole if e["act"] == "round_over"]
    assert ends == list(range(1, state.observe(None)["rounds"] + 1))
