"""Golden traces: whole Mucca Pazza games played by the bots from fixed seeds, stored as JSON.

Each trace holds the game's record, every seat's final observation (and a spectator's) and the
result. `test_golden.py` replays each record and checks every stored field, so any change in
the engine's behaviour fails there; after a deliberate change, rewrite the files with

    .venv/bin/python tests/games/mucca_pazza/golden.py --regen

and review the diff. Without `--regen` the script replays the bots and says which traces differ
(a change in the bots shows up here too, not only in the engine).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import tiergarten
from tiergarten.bots import make
from tiergarten.core.match import play_match

HERE = Path(__file__).resolve().parent / "golden"

# name: (bots by seat, options, seed)
GAMES: dict[str, tuple[tuple[str, ...], dict[str, Any], int]] = {
    "standard_two": (("greedy", "random"), {}, 1),
    "standard_three_greedy": (("greedy", "greedy", "greedy"), {}, 2),
    "standard_four": (("random", "greedy", "random", "greedy"), {}, 3),
    "junior_two": (("memory", "child"), {"variant": "junior"}, 4),
    "junior_three": (("child", "greedy", "random"), {"variant": "junior"}, 5),
    "junior_four": (("memory", "child", "greedy", "memory"), {"variant": "junior"}, 6),
}


def final_view(state: tiergarten.State) -> dict[str, Any]:
    """Every seat's final observation (a spectator's last), and the result."""
    seats = range(state.game.players)
    return {
        "observations": [state.observe(seat) for seat in (*seats, None)],
        "result": state.result().to_dict(),
    }


def play(name: str) -> dict[str, Any]:
    """Play the golden game `name` with its bots and return its trace."""
    bots, options, seed = GAMES[name]
    game = tiergarten.load("mucca_pazza", players=len(bots), **options)
    agents = [make(bot, game, seat, random.Random(seed * 100 + seat))
              for seat, bot in enumerate(bots)]
    state = play_match(game, agents, seed=seed)
    trace: dict[str, Any] = {"name": name, "bots": list(bots), "record": state.record()}
    trace.update(final_view(state))
    return json.loads(json.dumps(trace))  # exactly what the file holds


def dumps(trace: dict[str, Any]) -> str:
    """JSON with one action and one observation per line, so a diff shows what changed."""
    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    record = dict(trace["record"])
    actions = record.pop("actions")
    head = ", ".join(f"{one(k)}: {one(v)}" for k, v in record.items())
    lines = ["{", f' "name": {one(trace["name"])},', f' "bots": {one(trace["bots"])},',
             f' "record": {{{head}, "actions": [']
    lines += [f"  {one(a)}," for a in actions[:-1]] + [f"  {one(actions[-1])}]}},"]
    lines += [' "observations": [']
    lines += [f"  {one(o)}," for o in trace["observations"][:-1]]
    lines += [f"  {one(trace['observations'][-1])}],", f' "result": {one(trace["result"])}', "}"]
    return "\n".join(lines) + "\n"


def path(name: str) -> Path:
    return HERE / f"{name}.json"


def load_trace(name: str) -> dict[str, Any]:
    stored: dict[str, Any] = json.loads(path(name).read_text(encoding="utf-8"))
    return stored


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--regen", action="store_true", help="rewrite the stored traces")
    args = parser.parse_args(argv)
    differ = 0
    for name in GAMES:
        trace = play(name)
        if args.regen:
            HERE.mkdir(exist_ok=True)
            path(name).write_text(dumps(trace), encoding="utf-8")
            print(f"wrote {path(name)} ({len(trace['record']['actions'])} actions)")
        elif not path(name).exists() or load_trace(name) != trace:
            differ += 1
            print(f"{name}: the bots now play a different game than the stored trace")
        else:
            print(f"{name}: unchanged")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
