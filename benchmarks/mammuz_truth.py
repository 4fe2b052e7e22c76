"""How truthful MammuZ lays are, by context: the odds ratios behind `bots/mammuz_belief.py`.

Self-play of the `careful` heuristic (the `expert` level) at four seats. After every lay this
script looks at the true state (a measuring tool, not a bot: it may) and counts the lay's cards
that are of the declared species, against what `view.resample` would put there for the next
seat (the uniform belief the master starts from), in the lay's context: the herd's size once
the lay was made (buckets of `HERD_STEP`) and the cards left in the layer's hand (0, 1, 2, 3+).
It prints each context's `odds(true) / odds(uniform)`, the table `TRUTH_ODDS`.

    python benchmarks/mammuz_truth.py               # 300 games, seed 1 (about a minute)
    python benchmarks/mammuz_truth.py --games 50
"""

from __future__ import annotations

import argparse
import random

import tiergarten
from tiergarten import bots
from tiergarten.bots.mammuz_belief import HERD_STEP, TRUTH_ODDS
from tiergarten.core import Action, State
from tiergarten.core.match import SeatView, play_match
from tiergarten.games.mammuz.actions import LAY_KIND
from tiergarten.games.mammuz.state import MammuZState

ROWS, COLUMNS = len(TRUTH_ODDS), len(TRUTH_ODDS[0])
FLOOR = 0.01  # no ratio below this (a context where no lay was ever true)


def measure(games: int, seed: int) -> list[list[tuple[float, float, int]]]:
    """Per context: (true cards, expected true cards under resampling, cards laid)."""
    tally = [[(0.0, 0.0, 0)] * COLUMNS for _ in range(ROWS)]
    game = tiergarten.load("mammuz")
    rng = random.Random(seed)

    def on_step(state: State, seat: int, action: Action) -> None:
        assert isinstance(state, MammuZState)
        if action.kind != LAY_KIND:  # type: ignore[attr-defined]
            return
        species, cards = state.species, state.lays[-1][1]
        other = (seat + 1) % game.players
        world = SeatView(state, other, state.legal_actions(other)).resample(rng)
        assert isinstance(world, MammuZState)
        uniform = sum(1 for k in world.lays[-1][1] if k == species)
        row = min(state.herd_size // HERD_STEP, ROWS - 1)
        column = min(state.sizes[seat], COLUMNS - 1)
        true, expected, laid = tally[row][column]
        tally[row][column] = (true + sum(1 for k in cards if k == species),
                              expected + uniform, laid + len(cards))

    for g in range(games):
        agents = [bots.make("expert", game, s, random.Random(rng.getrandbits(64)))
                  for s in range(game.players)]
        play_match(game, agents, seed=seed * 100_000 + g, on_step=on_step)
    return tally


def ratio(true: float, expected: float, laid: int) -> float:
    """odds(true) / odds(uniform) of one context (1 where nothing was laid)."""
    if laid == 0 or expected == 0:
        return 1.0
    p, q = true / laid, expected / laid
    if p >= 1:
        return 1 / FLOOR
    odds = (p / (1 - p)) / (q / (1 - q)) if q < 1 else 1.0
    return max(FLOOR, odds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tally = measure(args.games, args.seed)
    print(f"# {args.games} games, seed {args.seed}; rows: herd size // {HERD_STEP}, "
          f"columns: the layer's hand after the lay (0, 1, 2, 3+); cards laid in brackets")
    print("TRUTH_ODDS = (")
    for row in tally:
        cells = ", ".join(f"{ratio(*cell):.3g}" for cell in row)
        laid = ", ".join(str(cell[2]) for cell in row)
        print(f"    ({cells}),  # [{laid}]")
    print(")")


if __name__ == "__main__":
    main()
