"""Our ISMCTS (`tiergarten.bots.ismcts`) against OpenSpiel's `ISMCTSBot`, at equal iterations.

Both search with random rollouts to the end of the game: ours inside the engine, OpenSpiel's
through the registered pyspiel game (`tiergarten.rl.openspiel`, with `wait` windows). Games are
two-player, so the head-to-head win rate is direct; the bots swap seats every game. Each game
runs on the pyspiel state; our bot is asked through its `SeatView` (it waits in a window when
it proposes nothing). Reported: wins of each side (ties count half) and seconds per move.

    python benchmarks/ismcts_vs_openspiel.py                    # maumau, 30 iterations, 6 games
    python benchmarks/ismcts_vs_openspiel.py --quick            # 2 games, 10 iterations
    python benchmarks/ismcts_vs_openspiel.py --game mammuz --players 3 --iterations 20

With more than two players the other seats are random bots.
Results go to benchmarks/results/latest-ismcts-vs-openspiel.json.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts as os_ismcts
from open_spiel.python.algorithms import mcts

from tiergarten.bots.ismcts import ISMCTSBot, Search
from tiergarten.core.match import SeatView
from tiergarten.core.options import parse_assignments
from tiergarten.rl.openspiel import register, short_name

RESULTS = Path(__file__).resolve().parent / "results" / "latest-ismcts-vs-openspiel.json"


def play(game: Any, ours_seat: int, theirs_seat: int, iterations: int, seed: int,
         clock: dict[str, list[float]]) -> list[float]:
    """One game; returns the pyspiel returns (zero-sum, winners share +1)."""
    tg = game.tg
    ours = ISMCTSBot(tg, ours_seat, random.Random(seed), Search(iterations=iterations))
    rs = np.random.RandomState(seed)
    theirs = os_ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0,
                                 max_simulations=iterations, random_state=rs)
    worlds = np.random.RandomState(seed + 1)
    theirs.set_resampler(lambda s, p: s.resample_from_infostate(p, worlds.uniform))
    other = random.Random(seed + 2)
    state = game.new_initial_state()
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        start = time.perf_counter()
        if seat == ours_seat:
            action = our_action(state, ours, seat)
            clock["ours"].append(time.perf_counter() - start)
        elif seat == theirs_seat:
            action = theirs.step(state) if len(legal) > 1 else legal[0]
            clock["theirs"].append(time.perf_counter() - start)
        else:
            action = other.choice(legal)
        state.apply_action(action)
    return list(state.returns())


def our_action(state: Any, ours: Any, seat: int) -> int:
    """Our bot's move in an OpenSpiel state of our adapter, as its action id: the window's
    wait when the bot proposes nothing, the first legal id if its move is not legal there."""
    legal = state.legal_actions()
    proposal = ours.propose(SeatView(state.tg, seat, state.tg.legal_actions(seat)))
    action = state.turns.wait_id if proposal is None else proposal[1].id
    return int(action) if action in legal else int(legal[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="maumau")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--option", action="append", default=[], help="name=value")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.games, args.iterations = 2, 10
    options = parse_assignments(args.option)
    if args.game == "maumau":
        options.setdefault("rounds", "1")
    register()
    params: dict[str, Any] = {"players": args.players, "seed": 1}
    for name, value in options.items():
        params[name] = int(value) if value.lstrip("-").isdigit() else value
    game = pyspiel.load_game(short_name(args.game), params)
    clock: dict[str, list[float]] = {"ours": [], "theirs": []}
    score = {"ours": 0.0, "theirs": 0.0}
    for g in range(args.games):
        ours_seat, theirs_seat = (0, 1) if g % 2 == 0 else (1, 0)
        returns = play(game, ours_seat, theirs_seat, args.iterations, 100 + g, clock)
        best = max(returns)
        top = [s for s, r in enumerate(returns) if r == best]
        for side, seat in (("ours", ours_seat), ("theirs", theirs_seat)):
            if seat in top:
                score[side] += 1.0 / len(top)
        print(f"game {g + 1}: returns {returns} (ours at seat {ours_seat})", flush=True)
    per_move = {k: (sum(v) / len(v) if v else float("nan")) for k, v in clock.items()}
    print(f"\n{args.game}, {args.players} players, {args.iterations} iterations, "
          f"{args.games} games")
    for side, label in (("ours", "tiergarten ISMCTS"), ("theirs", "OpenSpiel ISMCTSBot")):
        print(f"  {label:22} wins {score[side]:4.1f}   {per_move[side] * 1000:8.1f} ms/move "
              f"({len(clock[side])} moves)")
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps({
        "when": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "game": args.game, "players": args.players, "options": options,
        "iterations": args.iterations, "games": args.games, "wins": score,
        "seconds_per_move": per_move, "moves": {k: len(v) for k, v in clock.items()}},
        indent=2))


if __name__ == "__main__":
    main()
