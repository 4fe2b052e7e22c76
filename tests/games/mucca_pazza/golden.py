"""Golden traces of whole Mucca Pazza games (see tests/golden.py). After a deliberate change:

    .venv/bin/python tests/games/mucca_pazza/golden.py --regen

and review the diff; without `--regen` the script says which traces the bots now play differently.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # run as a script from anywhere
from tests.golden import Lineup, Traces  # noqa: E402

# name: (bots by seat, options, seed)
LINEUPS: dict[str, Lineup] = {
    "standard_two": (("greedy", "random"), {}, 1),
    "standard_three_greedy": (("greedy", "greedy", "greedy"), {}, 2),
    "standard_four": (("random", "greedy", "random", "greedy"), {}, 3),
    "junior_two": (("memory", "child"), {"variant": "junior"}, 4),
    "junior_three": (("child", "greedy", "random"), {"variant": "junior"}, 5),
    "junior_four": (("memory", "child", "greedy", "memory"), {"variant": "junior"}, 6),
}

TRACES = Traces("mucca_pazza", Path(__file__).resolve().parent / "golden", LINEUPS)

if __name__ == "__main__":
    sys.exit(TRACES.main(sys.argv[1:]))
