"""Run inside an old release: `PYTHONPATH=<its src> python old_engine.py COMMAND ...`.

It imports whichever `tiergarten` is first on the path (the old release's), so it uses only
the engine's public contract, except `marks`, which reads two games' state attributes that
both old releases have. build.py calls it; it imports nothing from build.py.

    traces OUT      seeded random games of every game and player count -> OUT (.json or .json.gz)
    marks           records (a JSON list on stdin) -> what in each one bites (JSON on stdout)
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import sys
from typing import Any

import tiergarten

MAX_STEPS = 1500  # a random game stops here (unfinished) if the rules have not ended it
DIGEST = 12  # hex digits of each sha256 kept: 48 bits tell two steps apart, and the file
# stays small (the full 64 would make it four times as large)
SEEDS = (1, 2)  # random games per game, player count and options
# options per game: one random-game run for each entry (Mucca Pazza's variants, and Lecker
# Mammut! with its default table timer and without it)
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "maumau": [{}],
    "mammuz": [{}],
    "mucca_pazza": [{"variant": "standard"}, {"variant": "junior"}],
    "lecker_mammut": [{}, {"idle_limit": 0}],
}


def digest(state: tiergarten.State) -> str:
    """The step digest (tests/data/upgrade/README.md): what every seat and a spectator see,
    who is to move, and whether the game is over."""
    seats = range(state.game.players)
    seen = {"to_move": list(state.to_move()),
            "obs": [state.observe(s) for s in seats] + [state.observe(None)],
            "over": state.is_over()}
    return hashlib.sha256(json.dumps(seen, sort_keys=True).encode()).hexdigest()[:DIGEST]


def random_game(game_id: str, players: int, options: dict[str, Any], seed: int) -> dict:
    """One game of uniformly random choices: a seat among those to move that have a legal
    action, then one of its legal actions, both from random.Random(seed)."""
    rng = random.Random(seed)
    state = tiergarten.load(game_id, players, **options).new_state(seed=seed)
    digests = [digest(state)]
    while not state.is_over() and len(state.history) < MAX_STEPS:
        movers = [s for s in state.to_move() if state.legal_actions(s)]
        if not movers:
            break
        seat = rng.choice(movers)
        state.apply(seat, rng.choice(list(state.legal_actions(seat))))
        digests.append(digest(state))
    return {"game": game_id, "players": players, "options": options, "seed": seed,
            "record": state.record(), "digests": digests,
            "result": state.result().to_dict() if state.is_over() else None}


def traces(out: str) -> None:
    games = []
    for game_id, variants in OPTIONS.items():
        info = tiergarten.load(game_id).info
        for players in range(info.min_players, info.max_players + 1):
            for options in variants:
                for seed in SEEDS:
                    games.append(random_game(game_id, players, options, seed))
    data = json.dumps({"max_steps": MAX_STEPS, "digest_hex_digits": DIGEST, "games": games},
                      separators=(",", ":"))
    if out.endswith(".gz"):
        with open(out, "wb") as file:  # mtime 0: the same games give the same bytes
            file.write(gzip.compress(data.encode(), mtime=0))
    else:
        with open(out, "w") as file:
            file.write(data)


def marks(record: dict[str, Any]) -> list[str]:
    """What in a record makes old and new rules part: a Mau Mau plain draw of a card that did
    not fit after which the turn moved on, a MammuZ doubt that removed a herd."""
    state = tiergarten.replay({**record, "actions": []})
    found = []
    for index, (seat, text) in enumerate(record["actions"]):
        penalty = getattr(state, "pending", 0)
        events = len(getattr(state, "events", []))
        state.apply(seat, text)
        new = list(getattr(state, "events", []))[events:]
        if (record["game"] == "maumau" and text == "draw" and not penalty
                and (seat, "draw", 1) in new and seat not in state.to_move()):
            found.append(f"misfit draw at action {index} (seat {seat})")
        if any(len(e) > 1 and e[1] == "removed" for e in new):
            found.append(f"remove doubt at action {index} (seat {seat})")
    return found


def main() -> None:
    command = sys.argv[1]
    if command == "traces":
        traces(sys.argv[2])
    elif command == "marks":
        print(json.dumps([marks(r) for r in json.load(sys.stdin)]))
    else:
        raise SystemExit(f"unknown command {command!r}")


if __name__ == "__main__":
    main()
