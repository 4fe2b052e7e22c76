"""How often `--until-separated` separates two identical bots: the false-separation rate.

Each run seats two names for the same bot (Mau Mau's `heuristic` and `expert`, both
MauMauHeuristic) in single rounds, from its own seed, and plays batches of `--batch` games up
to `--cap` with the stopping rule of `tiergarten simulate --until-separated`
(`sim.separation.until_separated`, Bonferroni over the planned looks). The same runs are also
judged by the rule before the correction (95% intervals at every look), to show what the
correction buys. A run that stops after N games is exactly the run of N games, so each run's
cap games are played once and every look reads the first games of them: the verdicts are the
ones `until_separated` gives, batch by batch.

    python benchmarks/false_separation.py              # 400 runs, batches of 20 up to 200
    python benchmarks/false_separation.py --runs 200 --workers 2

It prints the rates with their 95% Wilson intervals (docs/lab.md quotes them).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace

from tiergarten.sim import execute_many, plan
from tiergarten.sim.separation import of_run, until_separated
from tiergarten.sim.stats import Z95, wilson
from tiergarten.sim.tournament import SimResult, summarise

BOTS = ["heuristic", "expert"]  # one class under two names
OPTIONS = {"rounds": 1}


def judge(full: SimResult, batch: int, cap: int, corrected: bool) -> tuple[bool, int]:
    """Whether the stopping rule separates this run, and after how many games."""
    p = plan("maumau", list(full.players), full.n, full.seed, OPTIONS, workers=1)

    def grow(games: int, _previous: SimResult | None) -> SimResult:
        return summarise(replace(p, n=games), full.outcomes[:games], 0.0)

    ask = of_run if corrected else (lambda r, _z: of_run(r, Z95))
    _, verdict = until_separated(grow, ask, batch, cap)
    return verdict.separated, verdict.games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=400)
    parser.add_argument("--batch", type=int, default=20)
    parser.add_argument("--cap", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    began = time.perf_counter()
    plans = [plan("maumau", BOTS, args.cap, 1_000_000 * (run + 1), OPTIONS, args.workers)
             for run in range(args.runs)]  # seeds a million apart: no deal is shared
    results = execute_many(plans)
    figures = {}
    for name, corrected in (("corrected", True), ("uncorrected", False)):
        verdicts = [judge(r, args.batch, args.cap, corrected) for r in results]
        false = sum(1 for separated, _ in verdicts if separated)
        low, high = wilson(false, args.runs)
        figures[name] = {"false_separations": false, "runs": args.runs, "rate": false / args.runs,
                         "interval": [low, high],
                         "stopped_at": sorted(games for separated, games in verdicts
                                              if separated)}
    seconds = time.perf_counter() - began
    if args.json:
        print(json.dumps({"batch": args.batch, "cap": args.cap, "bots": BOTS, **figures,
                          "seconds": seconds}, indent=1))
        return
    print(f"{args.runs} runs of maumau {','.join(BOTS)} (one bot, two names), rounds=1, "
          f"batches of {args.batch} up to {args.cap} ({seconds:.0f} s):")
    for name, f in figures.items():
        low, high = f["interval"]
        print(f"  {name:11}: {f['false_separations']} false separations, {f['rate']:.1%} "
              f"(95% {low:.1%}–{high:.1%}), stopped at {f['stopped_at']}")


if __name__ == "__main__":
    main()
