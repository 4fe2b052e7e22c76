"""Lecker Mammut!: seat effects by player count, and how much a quicker hand is worth
(docs/games/lecker_mammut.md; the reaction models are in tiergarten/bots/lecker_mammut.py).

The first measure seats `normal` everywhere. The second seats one bot at a table of four
whose reaction model is `normal`'s with only the median reaction time changed (`MEDIANS`,
in seconds; `normal`'s own is 1.2) against three `normal` bots. Those bots are registered
by name ("median 0.80 s") when this module is imported; the study's plans name this module
in their `imports`, so workers that start afresh register them too.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from tiergarten import bots
from tiergarten.bots.lecker_mammut import REFLEXES, LeckerBot
from tiergarten.core import Game

from ..stats import Summary
from ..tournament import Plan, SimResult, Tally, plan
from . import SEED, Games
from .page import (
    Page,
    advantage_bars,
    against,
    by_position,
    cell,
    designer_section,
    figure,
    mean_cell,
    mean_points,
    strip_timing,
)

BOT = "normal"  # NormalBot (the page names its class and reaction model)
QUICK = 6  # games per line-up of the quick form (tests/sim/test_sim_studies.py)
PLAYERS = (2, 3, 4, 5, 6)
GAMES = 180  # per line-up of the seat study: a multiple of 2 to 6 players
REACTION_GAMES = 180  # per median: a multiple of the table
TABLE = 4  # the reaction study's table: the game's usual size
MEDIANS = (0.8, 1.5, 1.9, 2.2, 2.5, 3.0, 4.0)  # the ladder of levels (normal: 2.2 s), and slower


def reacting(median: float) -> str:
    return f"median {median:.2f} s"


def _factory(median: float) -> bots.Factory:
    reflexes = replace(REFLEXES[BOT], median=median)

    def make(game: Game, seat: int, rng: random.Random) -> LeckerBot:
        bot = LeckerBot(game, seat, rng, reflexes)
        bot.name = reacting(median)
        return bot
    return make


for _median in MEDIANS:
    bots.register("lecker_mammut", reacting(_median), _factory(_median))


def lines(games: Games, workers: int | None) -> dict[str, Plan]:
    out = {f"first-{k}": plan("lecker_mammut", [BOT] * k, games(GAMES, k), SEED, {}, workers)
           for k in PLAYERS}
    for m in MEDIANS:
        out[reacting(m)] = plan("lecker_mammut", [reacting(m), *[BOT] * (TABLE - 1)],
                                games(REACTION_GAMES, TABLE), SEED, {}, workers,
                                imports=(__name__,))
    return out


def starter(obs: dict[str, Any]) -> int:
    """The first round's starter (the start moves one seat on each round)."""
    return int(obs["starter"])


def write(results: dict[str, SimResult], page: Page) -> None:
    _seats(results, page)
    _reactions(results, page)
    page.heading("What designers ask next")
    designer_section(page, [(f"{k} players", results[f"first-{k}"]) for k in PLAYERS],
                     "players")
    page.keep("results", {key: strip_timing(r) for key, r in results.items()})


def _seats(results: dict[str, SimResult], page: Page) -> None:
    page.heading("Seat effects by player count")
    page.text(f"`{BOT}` in every seat. Seat 0 starts the first round and the start moves one "
              "seat clockwise each round, so with as many rounds as players (the default) "
              "every seat starts once; what is left is who gets the bigger piles (49 cards do "
              "not share out evenly) and who flips when.")
    rows, firsts = [], []
    for k in PLAYERS:
        r = results[f"first-{k}"]
        positions = by_position(r, starter)
        firsts.append(positions[0])
        rows.append([str(k), f"{r.n:,}", "; ".join(f"seat {p} {cell(t)}"
                                                   for p, t in enumerate(positions)),
                     f"{1 / k:.1%}", against(positions[0], 1 / k), mean_cell(r.decisions, 0)])
    page.table(["players", "games", "win rate by seat (95%)", "fair", "seat 0",
                "length (decisions)"], rows)
    fig, ax = figure()
    advantage_bars(ax, [f"{k} players" for k in PLAYERS], {"seat 0": firsts},
                   [1 / k for k in PLAYERS])
    ax.set_title("Seat 0's win rate against the fair share")
    page.plot(fig, "first_seat.png", "seat 0's win rate by player count")


def _reactions(results: dict[str, SimResult], page: Page) -> None:
    page.heading("Reaction speed against win rate")
    page.text(f"One bot at a table of {TABLE} reacts with the median time below; the other "
              f"three are `{BOT}` (median {REFLEXES[BOT].median:.1f} s, so that row is the "
              "control). Everything else about the bots is the same: spread, the extra time to "
              "spot a steal, false hits, flipping pace.")
    rows = []
    tallies: list[Tally] = []
    for m in MEDIANS:
        r = results[reacting(m)]
        t = next(b for b in r.bots if b.name == reacting(m))
        tallies.append(t)
        rows.append([f"{m:.1f} s", f"{r.n:,}", cell(t), against(t, 1 / TABLE),
                     mean_cell(t.points)])
    page.table(["median reaction", "games", "its win rate (95%)", "against the fair share",
                "its cards (95%)"], rows)
    fig, ax = figure()
    mean_points(ax, list(MEDIANS), {"win rate": [_as_summary(t) for t in tallies]},
                "win rate (95%)")
    ax.axhline(1 / TABLE, color="grey", linestyle="--", linewidth=0.8)
    ax.axvline(REFLEXES[BOT].median, color="grey", linestyle=":", linewidth=0.8)
    ax.set_xlabel(f"median reaction time, s (dotted: {BOT}'s; dashed: fair share)")
    ax.set_title(f"One bot against three {BOT} bots")
    page.plot(fig, "reaction.png", "win rate against median reaction time")


def _as_summary(t: Tally) -> Summary:
    """A win rate shaped like a mean with its interval, for the line plot."""
    return Summary(t.games, t.win_rate, 0.0, t.low, t.high, 0.0, 1.0)


__all__ = ["MEDIANS", "lines", "reacting", "write"]
