"""The bots' fixed ratings per game and level, as measured (`bot_ratings.json`, written by
`tiergarten ratings calibrate`: see sim/calibrate.py for how, and the file for the command and
the number of games behind each figure). The server only reads the file.

A bot at a rated table carries its level's mu in that game and `BOT_SIGMA`, never updated.
A level that was not measured (say `master`, added after the last calibration) rates as the
strongest measured level below it (a guess on the low side, until it is measured); any other
name not measured (e.g. `heuristic`) rates as the game's `normal`; a game that was never
calibrated rates every bot at 25.

>>> bot_mu("maumau", "normal")
25.0
>>> bot_mu("maumau", "random") == bot_mu("maumau", "easy")  # in Mau Mau easy is random
True
>>> _measured_below("master", {"normal": {"mu": 25.0}, "hard": {"mu": 30.0}})  # no expert
'hard'
>>> bot_mu("no such game", "expert"), levels("no such game")
(25.0, [])
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from tiergarten.bots.levels import NAMES as LEVEL_NAMES

DATA = Path(__file__).with_name("bot_ratings.json")
ANCHOR = "normal"  # sits at 25, where a new account starts
BOT_SIGMA = 1.0  # a bot's rating is known, not learnt
START = 25.0


@functools.cache
def _data() -> dict[str, Any]:
    if not DATA.exists():
        return {}
    games: dict[str, Any] = json.loads(DATA.read_text("utf-8")).get("games", {})
    return games


def levels(game: str) -> list[str]:
    """The bots measured in `game`, weakest level first (what a player is told to try)."""
    return list(_data().get(game, {}).get("levels", []))


def bot_mu(game: str, bot: str) -> float:
    """The fixed mu of bot `bot` in `game`."""
    entry = _data().get(game)
    if entry is None:
        return START
    ratings = entry["ratings"]
    name = entry["same"].get(bot, bot)
    rating = ratings.get(name) or ratings.get(_measured_below(name, ratings)) \
        or ratings.get(ANCHOR)
    return float(rating["mu"]) if rating else START


def _measured_below(level: str, ratings: dict[str, Any]) -> str | None:
    """The strongest measured level under `level` (None: `level` is no level name)."""
    if level not in LEVEL_NAMES:
        return None
    below = [name for name in LEVEL_NAMES[:LEVEL_NAMES.index(level)] if name in ratings]
    return below[-1] if below else None


def nearest_level(game: str, mu: float) -> str | None:
    """The measured level whose rating is nearest to `mu` (the weaker one at a tie)."""
    names = levels(game)
    if not names:
        return None
    return min(names, key=lambda name: (abs(bot_mu(game, name) - mu), bot_mu(game, name)))
