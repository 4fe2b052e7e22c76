"""The bots' fixed ratings are measured (`tiergarten ratings calibrate`): the fit finds the
ratings that made known results, the command writes the file the server reads, and the
server rates a bot by that file (a bot never measured as `normal`)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tiergarten.cli import app
from tiergarten.server.calibrate import entrants, fit, ranks
from tiergarten.server.players import bot_levels


def plackett_luce_games(mus: dict[str, float], seats: int, n: int,
                        seed: int) -> list[tuple[tuple[str, ...], list[float]]]:
    """`n` games per pair, each a ranking drawn from the Plackett-Luce model the fit assumes."""
    c = math.sqrt(seats * (1.0 + (25 / 6) ** 2))
    rng = random.Random(seed)
    names = list(mus)
    games = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            for _ in range(n):
                seated = (a, b) if rng.random() < 0.5 else (b, a)
                weight = [math.exp(mus[name] / c) for name in seated]
                first = 0 if rng.random() < weight[0] / sum(weight) else 1
                games.append((seated, [1.0 if s == first else 2.0 for s in range(2)]))
    return games


def test_the_fit_finds_the_ratings_that_made_the_results() -> None:
    truth = {"easy": 15.0, "normal": 25.0, "hard": 31.0, "expert": 34.0}
    fitted = fit(list(truth), plackett_luce_games(truth, 2, 1500, seed=3), seats=2)
    assert fitted["normal"] == (25.0, 0.0)  # the anchor, exactly
    for name, mu in truth.items():
        found, se = fitted[name]
        assert abs(found - mu) < 3 * se + 0.2, (name, found, se)
    # fewer games: wider intervals
    few = fit(list(truth), plackett_luce_games(truth, 2, 100, seed=3), seats=2)
    assert few["hard"][1] > fitted["hard"][1] * 2


def test_a_level_that_never_won_stays_finite() -> None:
    games = [(("easy", "normal"), [2.0, 1.0])] * 200
    fitted = fit(["easy", "normal"], games, seats=2)
    assert -40 < fitted["easy"][0] < 10  # held by openskill's prior, far below normal


def test_ranks_as_the_lab_ranks() -> None:
    assert ranks([30, 10, 10], [0]) == [1.0, 2.0, 2.0]
    assert ranks([5, 5, 1], [0, 1]) == [1.0, 1.0, 2.0]


def test_a_level_that_is_the_random_bot_is_played_once() -> None:
    names, same = entrants("maumau")
    assert names[0] == "easy" and "random" not in names and same == {"random": "easy"}
    names, same = entrants("lecker_mammut")  # its easy level is a slow hand, not random
    assert names[:2] == ["random", "easy"] and same == {}


def test_the_command_writes_what_the_server_reads(tmp_path: Path) -> None:
    out = tmp_path / "bot_ratings.json"
    out.write_text(json.dumps({"games": {"kept": {"levels": ["x"]}}}))  # another game's figures
    done = CliRunner().invoke(app, ["ratings", "calibrate", "--game", "mucca_pazza", "-n", "4",
                                    "--workers", "1", "--out", str(out)])
    assert done.exit_code == 0, done.output
    data = json.loads(out.read_text())
    assert data["games"]["kept"] == {"levels": ["x"]}
    entry = data["games"]["mucca_pazza"]
    assert entry["command"] == "tiergarten ratings calibrate --game mucca_pazza -n 4 --seed 1"
    assert entry["games"] == 10 * 4  # every pair of easy (the random bot) ... master
    assert entry["levels"] == ["easy", "normal", "hard", "expert", "master"]
    assert entry["ratings"]["normal"]["mu"] == 25.0
    refused = CliRunner().invoke(app, ["ratings", "calibrate", "--game", "chess"])
    assert refused.exit_code == 2 and "games with levels" in refused.output


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
