"""Bot move times measured where the engine runs: in the browser (Pyodide, through the worker's
`bench` op) or natively, the same code (benchmarks/offline_browser.py reports both).

Each level plays at its game's usual table against `normal` bots (Mau Mau and Lecker Mammut!
one round a game) until `moves` of its own proposals that had a choice are timed, or `budget`
seconds have gone (MammuZ's `expert` in pure Python can take seconds a move).

>>> figures = bot_times("maumau", "easy", moves=3)
>>> figures["moves"] >= 3, figures["p50_s"] >= 0
(True, True)
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from tiergarten import bots
from tiergarten.core import load
from tiergarten.core.match import Proposal, SeatView, play_match
from tiergarten.core.realtime import play_virtual

OPTIONS: dict[str, dict[str, Any]] = {"maumau": {"rounds": 1}, "lecker_mammut": {"rounds": 1}}


class _Budget(Exception):
    """The time budget is spent: the game is left unfinished."""


class _Timed:
    def __init__(self, bot: bots.Bot, deadline: float) -> None:
        self.bot = bot
        self.interactive = False
        self.times: list[float] = []
        self.deadline = deadline

    def propose(self, view: SeatView) -> Proposal | None:
        if time.perf_counter() > self.deadline:
            raise _Budget
        started = time.perf_counter()
        proposal = self.bot.propose(view)
        if len(view.legal) > 1:
            self.times.append(time.perf_counter() - started)
        return proposal


def bot_times(game_id: str, level: str, moves: int = 20, seed: int = 1,
              budget: float = 30.0) -> dict[str, Any]:
    """Seconds per move of `level` in `game_id`: p50, p90, max, and how many were timed."""
    game = load(game_id, **OPTIONS.get(game_id, {}))
    deadline = time.perf_counter() + budget
    times: list[float] = []
    index = 0
    while len(times) < moves and time.perf_counter() < deadline:
        seat = index % game.players
        rng = random.Random(seed * 1000 + index)
        agents: list[Any] = [bots.make("normal", game, s, random.Random(rng.getrandbits(64)))
                             for s in range(game.players)]
        probe = _Timed(bots.make(level, game, seat, random.Random(rng.getrandbits(64))),
                       deadline)
        agents[seat] = probe
        try:
            if game.info.real_time:
                play_virtual(game, agents, seed + index)
            else:
                play_match(game, agents, seed + index)
        except _Budget:
            pass
        times += probe.times
        index += 1
    times.sort()
    if not times:
        return {"game": game_id, "level": level, "moves": 0}
    return {"game": game_id, "level": level, "moves": len(times), "games": index,
            "p50_s": statistics.median(times), "p90_s": times[int(0.9 * (len(times) - 1))],
            "max_s": times[-1]}
