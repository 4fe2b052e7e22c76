"""Quick match under a crowd: 1,000 simulated people queue over a simulated minute (mixed
games, player counts, rules, bot waits, accounts of spread ratings and guests of every level),
through the server's own queue and pairing rounds (server/players/quickmatch.py over the
memory queue, or the Redis one with `--redis`), on an injected clock: a pairing round each
simulated second, so minutes of waiting take seconds. The tables are not made (`place`
answers seats at once): what is measured is the queue and the matcher.

Reported: the simulated time from joining to a match (p50, p99, max), the rating gap of the
matches with two or more people (the spread of their openskill ordinals; guests: of their
levels' mu), how many matches were people only or filled with bots, who was left waiting
(they chose "never" and nobody fitted), and the CPU time of the pairing rounds per match.

    python benchmarks/quickmatch.py [--people 1000] [--minute 60] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from tiergarten.bots.levels import NAMES as LEVELS  # noqa: E402
from tiergarten.core.registry import game_class  # noqa: E402
from tiergarten.server.players.bot_levels import bot_mu  # noqa: E402
from tiergarten.server.players.matcher import Entry, Match, canonical  # noqa: E402
from tiergarten.server.players.queue import MemoryQueue, Queue  # noqa: E402
from tiergarten.server.players.quickmatch import QuickMatch, Seated  # noqa: E402

GAMES = {"maumau": 0.4, "mammuz": 0.25, "lecker_mammut": 0.2, "mucca_pazza": 0.15}
BOT_WAITS = ((None, 0.15), (0.0, 0.1), (30.0, 0.35), (60.0, 0.25), (120.0, 0.15))
AFTER = 240.0  # simulated seconds after the minute in which rounds go on


def pick(rng: random.Random, weighted: Any) -> Any:
    items = list(weighted.items()) if isinstance(weighted, dict) else list(weighted)
    return rng.choices([k for k, _ in items], [w for _, w in items])[0]


def crowd(people: int, minute: float, rng: random.Random) -> list[Entry]:
    """The people, each with the time they join (sorted)."""
    out = []
    for n in range(people):
        game = pick(rng, GAMES)
        info = game_class(game).info
        allowed = tuple(range(info.min_players, info.max_players + 1))
        counts = allowed if rng.random() < 0.3 else (rng.choice(allowed[:3]),)
        options = None if rng.random() < 0.5 else canonical({})
        wait = pick(rng, BOT_WAITS)
        since = rng.uniform(0.0, minute)
        if rng.random() < 0.2:  # a guest, by the level picked
            level = rng.choice(LEVELS)
            mu = bot_mu(game, level)
            out.append(Entry(f"g:{n}", game, counts, options, mu, mu, True, level, wait, since,
                             info.default_players, f"Guest {n}"))
        else:
            mu, sigma = rng.gauss(25.0, 4.0), rng.uniform(2.0, 25.0 / 3)
            out.append(Entry(f"u:{n}", game, counts, options, mu - 3 * sigma, mu, False, None,
                             wait, since, info.default_players, f"Player {n}", n))
    return sorted(out, key=lambda e: e.since)


async def simulate(people: int, minute: float, seed: int, queue: Queue | None = None
                   ) -> dict[str, Any]:
    rng = random.Random(seed)
    entries = crowd(people, minute, rng)
    now = [0.0]
    queue = queue if queue is not None else MemoryQueue(clock=lambda: now[0])

    def place(match: Match, sat: list[Entry]) -> dict[str, Seated]:
        return {e.key: Seated(f"t{id(match)}", n, "token") for n, e in enumerate(sat)}

    async def abandon(_table: str) -> None:
        return None

    quick = QuickMatch(queue, place, abandon, clock=lambda: now[0])
    cpu = 0.0
    rounds = 0
    pending = list(entries)
    while now[0] <= minute + AFTER:
        while pending and pending[0].since <= now[0]:
            await queue.put(pending.pop(0))
        started = time.process_time()
        await quick.tick()
        cpu += time.process_time() - started
        rounds += 1
        now[0] += 1.0
    matches = quick.made
    waits = sorted(w for m in matches for w in m.waited)
    gaps = sorted(m.gap for m in matches if len(m.people) > 1)
    left = await queue.entries()

    def pct(values: list[float], p: float) -> float | None:
        return values[min(len(values) - 1, int(p * len(values)))] if values else None

    return {
        "people": people, "minute_s": minute, "seed": seed, "rounds": rounds,
        "matched": len(waits), "matches": len(matches),
        "people_only": sum(not m.bots for m in matches),
        "with_bots": sum(bool(m.bots) for m in matches),
        "alone_with_bots": sum(len(m.people) == 1 for m in matches),
        "left_waiting": len(left),
        "left_never": sum(e.bot_wait is None for e in left),
        "wait_s": {"p50": pct(waits, 0.5), "p99": pct(waits, 0.99),
                   "max": waits[-1] if waits else None},
        "gap": {"p50": pct(gaps, 0.5), "p99": pct(gaps, 0.99), "max": gaps[-1] if gaps else None,
                "mean": statistics.fmean(gaps) if gaps else None},
        "cpu_s": cpu, "cpu_per_match_ms": 1000 * cpu / len(matches) if matches else None,
        "cpu_per_round_ms": 1000 * cpu / rounds,
        "queue": type(queue).__name__,
    }


def measure(people: int = 1000, minute: float = 60.0, seed: int = 1,
            redis_url: str | None = None) -> dict[str, Any]:
    """The benchmark's figures (bench.py's `quickmatch` part)."""
    out: dict[str, Any] = {"memory": asyncio.run(simulate(people, minute, seed))}
    if redis_url is not None:
        from tiergarten.server.players.redis_queue import RedisQueue

        async def on_redis() -> dict[str, Any]:
            queue = RedisQueue.connect(redis_url, f"bench{seed}")
            try:
                return await simulate(people, minute, seed, queue)
            finally:
                await queue.client.delete(queue.hash)
                await queue.close()

        out["redis"] = asyncio.run(on_redis())
    return out


def with_redis(people: int, minute: float, seed: int) -> dict[str, Any]:
    """`measure` with a redis-server of its own on loopback (benchmarks/services.py)."""
    from services import Redis

    server = Redis().start()
    try:
        return measure(people, minute, seed, server.url)
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--people", type=int, default=1000)
    parser.add_argument("--minute", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--redis", action="store_true", help="also over a redis-server")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    run = with_redis if args.redis else measure
    print(json.dumps(run(args.people, args.minute, args.seed), indent=2))


if __name__ == "__main__":
    main()
