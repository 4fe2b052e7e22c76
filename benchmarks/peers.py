"""The peers' half of the engine benchmark: random play in OpenSpiel and RLCard.

Run by the peers' own interpreter (`benchmarks/.peers/bin/python`, made by `make peers`), never
by the project's: it imports neither tiergarten nor anything of the project. `bench.py` starts
it once per peer and keeps it alive, sending one JSON request a line on stdin and reading one
JSON answer a line on stdout, so that rounds of ours and theirs can alternate in one process tree.

    {"peer": "openspiel", "players": 3, "seconds": 1.0}   ->   {"games": ..., "decisions": ...}

- `openspiel`: the `crazy_eights` game driven from Python, `state.legal_actions()` and
  `state.apply_action()`, a uniformly random legal action at each decision, chance outcomes
  sampled by their probabilities from `state.chance_outcomes()` with OpenSpiel's own
  `pyspiel.sample_action` (the fastest general way from Python; `random.choices` over the
  same outcomes measured about half the decisions/s).
- `rlcard`: `rlcard.make("uno")` with one `RandomAgent` per seat, whole games by `env.run`
  (RLCard's UNO has two players).

A decision is one player's action (chance outcomes are not counted); the time includes
everything, chance and dealing too.
"""

from __future__ import annotations

import json
import random
import sys
import time
from importlib import metadata
from typing import Any


def _version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def openspiel_runner(players: int) -> Any:
    import pyspiel

    game = pyspiel.load_game("crazy_eights", {"players": players})
    rng = random.Random(0)

    def play() -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                # OpenSpiel's own sampler (C++) over the outcomes and their probabilities;
                # sampling them in Python (`random.choices`) would halve their figure
                outcome = pyspiel.sample_action(state.chance_outcomes(), rng.random())
                state.apply_action(outcome[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        return decisions

    return play


def rlcard_runner(players: int) -> Any:
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("uno", config={"seed": 0})
    if env.num_players != players:
        raise ValueError(f"RLCard's uno has {env.num_players} players, not {players}")
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def play() -> int:
        trajectories, _ = env.run(is_training=False)
        # each trajectory alternates state (a dict), action, state, ...: count the actions
        return sum(1 for t in trajectories for x in t if not isinstance(x, dict))

    return play


RUNNERS = {"openspiel": openspiel_runner, "rlcard": rlcard_runner}


def measure(play: Any, seconds: float) -> dict[str, float]:
    games = decisions = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    elapsed = 0.0
    while games == 0 or elapsed < seconds:
        decisions += play()
        games += 1
        elapsed = time.perf_counter() - start
    cpu = max(time.process_time() - start_cpu, 1e-9)
    return {"games": games, "decisions": decisions, "seconds": elapsed, "cpu_seconds": cpu}


def main() -> int:
    hello = {"python": sys.version.split()[0], "open_spiel": _version("open_spiel"),
             "rlcard": _version("rlcard"), "numpy": _version("numpy")}
    print(json.dumps(hello), flush=True)
    runners: dict[tuple[str, int], Any] = {}
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            key = (request["peer"], int(request["players"]))
            if key not in runners:
                runners[key] = RUNNERS[key[0]](key[1])
                runners[key]()  # warm up: imports, caches
            answer: dict[str, Any] = measure(runners[key], float(request["seconds"]))
        except Exception as e:  # noqa: BLE001 - reported to the orchestrator, which decides
            answer = {"error": f"{type(e).__name__}: {e}"}
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
