"""The whole log (State.log_since): every happening from the first, uncapped, public only."""

from __future__ import annotations

from tests.games.whole_log import check_bad_starts_refused, check_whole_log, played

from tiergarten.games.mammuz.view import LOG_LENGTH


def test_the_first_entry_stays_after_the_capped_log_dropped_it() -> None:
    state = played("mammuz", seed=4, past=LOG_LENGTH + 8, players=3)
    whole = check_whole_log(state)
    assert whole[0] == {"seat": state.history[0][0], "act": "start"}
    assert whole[0] not in state.observe(0)["log"][:1]  # the capped log starts later
    assert len(whole) > LOG_LENGTH + 8
    check_bad_starts_refused(state)


def test_a_lay_in_the_whole_log_tells_the_count_and_the_species_claimed_never_the_cards() -> None:
    whole = check_whole_log(played("mammuz", seed=11, past=60, players=4))
    lays = [e for e in whole if e["act"] == "lay"]
    assert lays and all(set(e) == {"seat", "act", "count", "species"} for e in lays)
