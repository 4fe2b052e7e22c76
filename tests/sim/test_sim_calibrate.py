"""The bots' fixed ratings are measured (`tiergarten ratings calibrate`, sim/calibrate.py): the
fit finds the ratings that made known results and the command writes the file the server reads
(how the server rates a bot by it: tests/server/test_bot_levels.py)."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from tiergarten.cli import app
from tiergarten.sim.calibrate import entrants, fit, ranks

SCALE = {"anchor": "normal", "sigma": 1.0}  # as the server rates bots (players/bot_levels.py)


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
    fitted = fit(list(truth), plackett_luce_games(truth, 2, 1500, seed=3), seats=2, **SCALE)
    assert fitted["normal"] == (25.0, 0.0)  # the anchor, exactly
    for name, mu in truth.items():
        found, se = fitted[name]
        assert abs(found - mu) < 3 * se + 0.2, (name, found, se)
    # fewer games: wider intervals
    few = fit(list(truth), plackett_luce_games(truth, 2, 100, seed=3), seats=2, **SCALE)
    assert few["hard"][1] > fitted["hard"][1] * 2


def test_a_level_that_never_won_stays_finite() -> None:
    games = [(("easy", "normal"), [2.0, 1.0])] * 200
    fitted = fit(["easy", "normal"], games, seats=2, **SCALE)
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
    assert data["anchor"] == "normal" and data["sigma"] == 1.0  # the server's scale
    assert data["games"]["kept"] == {"levels": ["x"]}
    entry = data["games"]["mucca_pazza"]
    assert entry["command"] == "tiergarten ratings calibrate --game mucca_pazza -n 4 --seed 1"
    assert entry["games"] == 10 * 4  # every pair of easy (the random bot) ... master
    assert entry["levels"] == ["easy", "normal", "hard", "expert", "master"]
    assert entry["ratings"]["normal"]["mu"] == 25.0
    refused = CliRunner().invoke(app, ["ratings", "calibrate", "--game", "chess"])
    assert refused.exit_code == 2 and "games with levels" in refused.output


def test_the_lab_calibrates_without_the_server() -> None:
    """The server only reads the file: measuring imports none of it."""
    code = ("import sys, tiergarten.sim.calibrate; "
            "print(sorted(m for m in sys.modules if m.startswith('tiergarten.server')))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True, timeout=120).stdout
    assert out.strip() == "[]"
