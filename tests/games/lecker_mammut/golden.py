"""Golden traces of whole Lecker Mammut! games, in virtual time (see tests/golden.py).
After a deliberate change:

    .venv/bin/python tests/games/lecker_mammut/golden.py --regen

and review the diff; without `--regen` the script says which traces the bots now play differently.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # run as a script from anywhere
from tests.golden import Lineup, Traces  # noqa: E402

# name: (bots by seat, options, seed) — short games keep the files small
LINEUPS: dict[str, Lineup] = {
    "two_players": (("hard", "slow"), {}, 1),
    "three_levels_one_round": (("slow", "normal", "fast"), {"rounds": 1}, 2),
    "four_with_random": (("random", "hard", "normal", "random"), {"rounds": 1, "idle_limit": 6},
                         3),
    # rules 2 played these differently from rules 1: the timer waits while a triple shows (63
    # actions, not 54), and the most penalty cards held give a pile back (seat 0, not seat 3
    # with more mistakes but fewer cards): golden/rules-2/ keeps them so; under rules 3 the
    # random bots also slap the club and call nothing (`miss`) now and then
    "timer_waits_for_a_triple": (("slow", "random", "random"), {"rounds": 1, "idle_limit": 6},
                                 35),
    "most_penalty_cards_give_back": (("random", "hard", "normal", "random"),
                                     {"rounds": 1, "idle_limit": 6}, 13),
}

TRACES = Traces("lecker_mammut", Path(__file__).resolve().parent / "golden", LINEUPS)

if __name__ == "__main__":
    sys.exit(TRACES.main(sys.argv[1:]))
