"""The server rates a bot by the file the lab's calibration writes (bot_ratings.json, see
sim/calibrate.py): a level measured by its figure, a bot never measured as `normal`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tiergarten.server.players import bot_levels


def test_the_server_rates_bots_by_the_file(monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    data = {"games": {"maumau": {"levels": ["easy", "normal", "hard"], "same": {"random": "easy"},
                                 "ratings": {"easy": {"mu": 10.0}, "normal": {"mu": 25.0},
                                             "hard": {"mu": 30.0}}}}}
    path = tmp_path / "bot_ratings.json"
    path.write_text(json.dumps(data))
    monkeypatch.setattr(bot_levels, "DATA", path)
    bot_levels._data.cache_clear()
    try:
        assert bot_levels.bot_mu("maumau", "hard") == 30.0
        assert bot_levels.bot_mu("maumau", "random") == 10.0  # the same bot as easy
        assert bot_levels.bot_mu("maumau", "heuristic") == 25.0  # not measured: as normal
        assert bot_levels.bot_mu("maumau", "master") == 30.0  # a level: as the one below
        assert bot_levels.bot_mu("mammuz", "hard") == 25.0  # a game never calibrated
        assert bot_levels.nearest_level("maumau", 28.0) == "hard"
        assert bot_levels.nearest_level("maumau", 17.5) == "easy"  # a tie: the weaker
        assert bot_levels.nearest_level("mammuz", 28.0) is None
    finally:
        bot_levels._data.cache_clear()
