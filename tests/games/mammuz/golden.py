"""Golden traces of whole MammuZ games (see tests/golden.py). After a deliberate change:

    .venv/bin/python tests/games/mammuz/golden.py --regen

and review the diff; without `--regen` the script says which traces the bots now play differently.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # run as a script from anywhere
from tests.golden import Lineup, Traces  # noqa: E402

# name: (bots by seat, options, seed)
LINEUPS: dict[str, Lineup] = {
    "three_players": (("heuristic", "random", "heuristic"), {}, 1),
    "four_players": (("random", "heuristic", "random", "heuristic"), {}, 2),
    "five_players_taker_opens": (("heuristic",) * 5, {"next_starter": "taker"}, 3),
    "seven_players_remapped_dinosaurs": (
        ("random", "heuristic") * 3 + ("random",),
        {"next_starter": "next",
         "dinosaur_powers": {"stegosaurus": "jackpot", "tyrannosaurus": "doubter_chooses"}}, 4),
    # a remove-power doubt: the Plesiosaurus goes to the doubter, the animals leave the game
    "four_players_plesiosaurus_doubted": (("heuristic", "random") * 2, {}, 11),
    # the same with two remove dinosaurs: four dinosaurs of one herd go to the doubter
    "six_players_two_remove_dinosaurs": (
        ("heuristic", "random") * 3, {"dinosaur_powers": {"triceratops": "remove"}}, 236),
}

TRACES = Traces("mammuz", Path(__file__).resolve().parent / "golden", LINEUPS)

if __name__ == "__main__":
    sys.exit(TRACES.main(sys.argv[1:]))
