"""MammuZ: the starter's advantage by player count and by `next_starter`, the rule for who
opens the next herd (docs/games/mammuz.md).

Every seat holds `heuristic` (MammuZHeuristic; the page names its class). A random seat
starts a game of MammuZ, so seat 0 is not special: positions count clockwise from the
starter, read from the public observation of the game's first state.
"""

from __future__ import annotations

from typing import Any

from ..tournament import Plan, SimResult, Tally, plan
from . import SEED, Games
from .page import (
    Page,
    advantage_bars,
    against,
    apart,
    by_position,
    cell,
    designer_section,
    mean_cell,
    mean_points,
    panels,
    strip_timing,
)

BOT = "heuristic"  # a bot's own name, not a level's: a level may be given to another bot
QUICK = 21  # games per line-up of the quick form (tests/sim/test_sim_studies.py)
PLAYERS = (3, 4, 5, 6, 7)
STARTERS = ("doubter", "taker", "next")  # the default first
GAMES = 4_200  # per line-up: a multiple of 3 to 7 players
Positions = dict[str, list[Tally]]


def _key(starter: str, k: int) -> str:
    return f"{starter}-{k}"


def lines(games: Games, workers: int | None) -> dict[str, Plan]:
    return {_key(s, k): plan("mammuz", [BOT] * k, games(GAMES, k), SEED, {"next_starter": s},
                             workers)
            for s in STARTERS for k in PLAYERS}


def starter(obs: dict[str, Any]) -> int:
    """Whose turn it is when the game begins."""
    return int(obs["turn"])


def write(results: dict[str, SimResult], page: Page) -> None:
    pos = {key: by_position(r, starter) for key, r in results.items()}
    _by_players(results, pos, page)
    _next_starter(results, pos, page)
    page.heading("What designers ask next")
    designer_section(page, [(f"{k} players", results[_key(STARTERS[0], k)]) for k in PLAYERS],
                     "players")
    page.keep("results", {key: strip_timing(r) for key, r in results.items()})


def _by_players(results: dict[str, SimResult], pos: Positions, page: Page) -> None:
    page.heading("The starter's advantage by player count")
    page.text(f"`{BOT}` in every seat, `next_starter` at its default (`{STARTERS[0]}`). "
              "Positions go clockwise from the starter; a game is won by the first player to "
              "empty their hand.")
    rows = []
    for k in PLAYERS:
        key = _key(STARTERS[0], k)
        r = results[key]
        rows.append([str(k), f"{r.n:,}", "; ".join(f"{p + 1}. {cell(t)}"
                                                   for p, t in enumerate(pos[key])),
                     f"{1 / k:.1%}", against(pos[key][0], 1 / k)])
    page.table(["players", "games", "win rate by position from the starter (95%)", "fair",
                "the starter"], rows)


def _next_starter(results: dict[str, SimResult], pos: Positions, page: Page) -> None:
    page.heading("`next_starter`: who opens the next herd")
    page.text("`doubter`: the doubter (or the player to their left if the doubter took the "
              "herd); `taker`: whoever took the herd; `next`: the player after the doubter. "
              "The starter's win rate and the length of a game in decisions:")
    rows = []
    wins: dict[str, list[Tally]] = {s: [] for s in STARTERS}
    lengths: dict[str, list[Any]] = {s: [] for s in STARTERS}
    for k in PLAYERS:
        for s in STARTERS:
            r = results[_key(s, k)]
            wins[s].append(pos[_key(s, k)][0])
            lengths[s].append(r.decisions)
            rows.append([str(k), s + (" (default)" if s == STARTERS[0] else ""), f"{r.n:,}",
                         cell(pos[_key(s, k)][0]), against(pos[_key(s, k)][0], 1 / k),
                         mean_cell(r.decisions)])
    page.table(["players", "next_starter", "games", "starter wins (95%)", "the starter",
                "length (decisions)"], rows)
    page.text(_verdict(results, pos))
    shown = [name for name in ("the starter's win rate", "the length")
             if any(name in what for what in _moved(results, pos).values())]
    if not shown:
        page.text("No plot: no value of `next_starter` moves these figures beyond their "
                  "intervals.")
        return
    fig, axes = panels(len(shown))
    for ax, name in zip(axes, shown, strict=True):
        if name == "the length":
            mean_points(ax, list(PLAYERS), lengths, "decisions per game (95%)")
            ax.set_title("length of a game")
        else:
            advantage_bars(ax, [str(k) for k in PLAYERS], wins, [1 / k for k in PLAYERS],
                           legend=len(shown) == 1)
            ax.set_title("the starter's win rate against the fair share")
        ax.set_xlabel("players")
    page.plot(fig, "next_starter.png", "next_starter: what it moves beyond the intervals — "
              + ", ".join(shown))


def _moved(results: dict[str, SimResult], pos: Positions) -> dict[tuple[str, int], list[str]]:
    """Against the default, the figures each value moves beyond their intervals."""
    moved: dict[tuple[str, int], list[str]] = {}
    for s in STARTERS[1:]:
        for k in PLAYERS:
            base, other = _key(STARTERS[0], k), _key(s, k)
            what = [name for name, a, b in (
                ("the starter's win rate", pos[base][0], pos[other][0]),
                ("the length", results[base].decisions, results[other].decisions))
                if apart(a, b)]
            if what:
                moved[(s, k)] = what
    return moved


def _verdict(results: dict[str, SimResult], pos: Positions) -> str:
    """Against the default, which values move the starter's win rate or the length."""
    parts = []
    found = _moved(results, pos)
    for s in STARTERS[1:]:
        moved = [f"{k} players ({' and '.join(found[(s, k)])})" for k in PLAYERS
                 if (s, k) in found]
        parts.append(f"`{s}` moves " + (", ".join(moved) if moved else "nothing"))
    return ("Beyond the intervals, against the default `doubter`: " + "; ".join(parts) + ".")


__all__ = ["lines", "write"]
