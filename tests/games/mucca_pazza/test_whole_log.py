"""The whole log (State.log_since): every happening, numbered `n` by its real position."""

from __future__ import annotations

import pytest
from tests.games.whole_log import check_bad_starts_refused, check_whole_log, played

from tiergarten.games.mucca_pazza.view import LOG_LENGTH


@pytest.mark.parametrize("variant", ["standard", "junior"])
def test_every_entry_is_numbered_by_its_position_past_the_cap(variant: str) -> None:
    state = played("mucca_pazza", seed=7, past=LOG_LENGTH + 10, players=3, variant=variant)
    whole = check_whole_log(state)
    assert [e["n"] for e in whole] == list(range(len(whole)))
    assert len(whole) > LOG_LENGTH + 10
    assert state.observe(None)["log"][0]["n"] == len(whole) - LOG_LENGTH
    assert [e["n"] for e in state.log_since(2, 5)][:2] == [5, 6]
    check_bad_starts_refused(state)
