"""Golden traces of whole Mau Mau games (see tests/golden.py). After a deliberate change:

    .venv/bin/python tests/games/maumau/golden.py --regen

and review the diff; without `--regen` the script says which traces the bots now play differently.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # run as a script from anywhere
from tests.golden import Lineup, Traces  # noqa: E402

# name: (bots by seat, options, seed) — short matches keep the files small
LINEUPS: dict[str, Lineup] = {
    "two_players": (("heuristic", "random"), {"rounds": 1}, 1),
    "three_players_to_50": (("heuristic", "random", "heuristic"), {"target_score": 50}, 2),
    "four_players": (("random", "heuristic", "random", "heuristic"), {"rounds": 1}, 3),
    "two_players_house_rules": (
        ("random", "heuristic"),
        {"rounds": 2, "jack_on_jack": False, "two_player_nine": "none",
         "first_card_effects": False, "mau_penalty": 3}, 4),
}

TRACES = Traces("maumau", Path(__file__).resolve().parent / "golden", LINEUPS)

if __name__ == "__main__":
    sys.exit(TRACES.main(sys.argv[1:]))
