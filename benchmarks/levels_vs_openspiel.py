"""Our levels (`expert`, `master`) against OpenSpiel's `ISMCTSBot` at the same time per move.

OpenSpiel's ISMCTS (random rollouts, UCT c = 2) plays through our OpenSpiel adapter
(`tiergarten.rl.openspiel`, windows for out-of-turn rights; `resample_from_infostate` is the
engine's `resample`). Its budget is a number of simulations, so it is calibrated to our bot's
clock: after every game its simulations per move are scaled by (our mean seconds per move) /
(its mean seconds per move) so far, starting from a short measurement of its simulations per
second — but never below two, the least its search runs with (a quick heuristic level then
gets far less time than OpenSpiel's least; both mean times are reported). Seats swap every
game; with more than two players the other seats are random bots.
Reported: our win rate (ties share) with its 95% Wilson interval, and both mean times.

    python benchmarks/levels_vs_openspiel.py                          # every pairing, 20 games
    python benchmarks/levels_vs_openspiel.py --game maumau --level master --games 40
    python benchmarks/levels_vs_openspiel.py --quick                  # 2 games each

Mau Mau is played one round a game (`rounds=1`): a match to 150 points takes OpenSpiel's
Python search far too long. MammuZ is played with three players. `make bench` runs this as
its `openspiel` part; results go to benchmarks/results/latest-levels-vs-openspiel.json.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from ismcts_vs_openspiel import our_action  # run as a script: its folder is on the path
from open_spiel.python.algorithms import ismcts as os_ismcts
from open_spiel.python.algorithms import mcts

from tiergarten import bots
from tiergarten.rl.openspiel import register, short_name
from tiergarten.sim.stats import wilson

RESULTS = Path(__file__).resolve().parent / "results" / "latest-levels-vs-openspiel.json"
PAIRINGS = (("maumau", 2, {"rounds": 1}), ("mammuz", 3, {}))
LEVELS = ("expert", "master")
CALIBRATION_S = 1.0  # seconds of OpenSpiel search timed before the first game
MIN_SIMULATIONS = 2  # its search needs two to visit the root once


def _theirs(game: Any, simulations: int, rs: np.random.RandomState) -> Any:
    bot = os_ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0,
                              max_simulations=simulations, random_state=rs)
    worlds = np.random.RandomState(rs.randint(1 << 30))
    bot.set_resampler(lambda s, p: s.resample_from_infostate(p, worlds.uniform))
    return bot


def simulations_per_second(game: Any, seconds: float = CALIBRATION_S) -> float:
    """How many OpenSpiel ISMCTS simulations a second from a fresh position of `game`."""
    rs = np.random.RandomState(0)
    state = game.new_initial_state()
    while state.is_chance_node():  # the deal
        state.apply_action(int(rs.randint(len(state.chance_outcomes()))))
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        _theirs(game, 10, rs).step(state)
        done += 10
    return done / (time.perf_counter() - start)


def play(game: Any, level: str, ours_seat: int, theirs_seat: int, simulations: int, seed: int,
         clock: dict[str, list[float]]) -> list[float]:
    """One game on the pyspiel state; returns the pyspiel returns (winners share +1)."""
    tg = game.tg
    ours = bots.make(level, tg, ours_seat, random.Random(seed))
    theirs = _theirs(game, simulations, np.random.RandomState(seed))
    other = random.Random(seed + 2)
    state = game.new_initial_state()
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        start = time.perf_counter()
        if seat == ours_seat:
            action = our_action(state, ours, seat)
            if len(legal) > 1:
                clock["ours"].append(time.perf_counter() - start)
        elif seat == theirs_seat:
            action = theirs.step(state) if len(legal) > 1 else legal[0]
            if len(legal) > 1:
                clock["theirs"].append(time.perf_counter() - start)
        else:
            action = other.choice(legal)
        state.apply_action(action)
    return list(state.returns())


def versus(game_id: str, players: int, options: dict[str, Any], level: str, games: int,
           seed: int = 1, log: Any = print) -> dict[str, Any]:
    """`games` games of `level` against OpenSpiel's ISMCTS, seats swapping every game."""
    register()
    params: dict[str, Any] = {"players": players, "seed": seed, **options}
    game = pyspiel.load_game(short_name(game_id), params)
    rate = simulations_per_second(game)
    clock: dict[str, list[float]] = {"ours": [], "theirs": []}
    simulations, used, wins = 0, [], 0.0
    for g in range(games):
        ours_seat, theirs_seat = (0, 1) if g % 2 == 0 else (1, 0)
        if clock["ours"] and clock["theirs"]:  # match its mean time per move to ours
            scale = statistics.mean(clock["ours"]) / statistics.mean(clock["theirs"])
            simulations = max(MIN_SIMULATIONS, round(simulations * scale))
        elif clock["ours"]:
            simulations = max(MIN_SIMULATIONS, round(rate * statistics.mean(clock["ours"])))
        else:  # a first guess until ours has moved
            simulations = max(MIN_SIMULATIONS, round(rate * 0.01))
        used.append(simulations)
        returns = play(game, level, ours_seat, theirs_seat, simulations, seed * 1000 + g, clock)
        best = max(returns)
        top = [s for s, r in enumerate(returns) if r == best]
        if ours_seat in top:
            wins += 1.0 / len(top)
        outcome = "won" if ours_seat in top else "lost"
        log(f"  {game_id} {level} game {g + 1}/{games}: ours {outcome}"
            f" ({simulations} OpenSpiel simulations a move)")
    low, high = wilson(wins, games)
    return {"game": game_id, "players": players, "options": options, "level": level,
            "games": games, "wins": wins, "win_rate": wins / games, "low": low, "high": high,
            "ours_s_per_move": statistics.mean(clock["ours"]) if clock["ours"] else None,
            "theirs_s_per_move": statistics.mean(clock["theirs"]) if clock["theirs"] else None,
            "simulations": {"first": used[0], "last": used[-1]},
            "moves": {k: len(v) for k, v in clock.items()}}


def run(games: int, pairings: Any = PAIRINGS, levels: Any = LEVELS,
        log: Any = print) -> dict[str, Any]:
    rows = [versus(g, players, dict(options), level, games, log=log)
            for g, players, options in pairings for level in levels]
    return {"games_per_pairing": games, "rows": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=[g for g, _, _ in PAIRINGS])
    parser.add_argument("--level", choices=LEVELS)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="2 games per pairing")
    args = parser.parse_args()
    pairings = [p for p in PAIRINGS if args.game in (None, p[0])]
    levels = [lv for lv in LEVELS if args.level in (None, lv)]
    out = run(2 if args.quick else args.games, pairings, levels)
    for r in out["rows"]:
        print(f"{r['game']} ({r['players']} players) {r['level']}: {r['win_rate']:.1%} "
              f"({r['low']:.1%}–{r['high']:.1%}) over {r['games']} games; "
              f"{r['ours_s_per_move'] * 1000:.1f} ms a move, OpenSpiel "
              f"{r['theirs_s_per_move'] * 1000:.1f} ms")
    RESULTS.parent.mkdir(exist_ok=True)
    out["when"] = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    RESULTS.write_text(json.dumps(out, indent=1), encoding="utf-8")
    print(f"results: {RESULTS}")


if __name__ == "__main__":
    main()
