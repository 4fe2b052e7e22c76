"""Mucca Pazza (standard): the first player's advantage by player count, and what the stars
are worth (docs/games/mucca_pazza.md).

`greedy` plays the solver's best turn and spends a star only when it wins more; `saver` is
the same greedy turn that never spends one (and so keeps all three for the tie break: ranks
order by cards, then by stars left). Three measures:

- `greedy` against `saver` head to head: what spending is worth in wins;
- in games of `greedy` against `greedy`, every turn's start, solved (`solve`, the solver of the
  rules page) with the mover's stars and without: how often spending a star won more cards,
  and, for a mover with no star left, how often one star would have;
- how often the stars left decided a tie on cards.
"""

from __future__ import annotations

from typing import Any

from tiergarten.core import load
from tiergarten.games.mucca_pazza import solve

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
    rate_tally,
    strip_timing,
)

SPENDER, SAVER = "greedy", "saver"  # bots' own names (MuccaBot, MuccaSaver), not levels
QUICK = 12  # games per line-up of the quick form (tests/sim/test_sim_studies.py)
PLAYERS = (2, 3, 4)
GAMES = 1_200  # per line-up: a multiple of 2, 3 and 4 players
Positions = dict[str, list[Tally]]


def _duels(k: int) -> list[tuple[str, ...]]:
    """One spender among savers, and (at more than two seats) one saver among spenders."""
    lines = [(SPENDER, *[SAVER] * (k - 1))]
    return lines if k == 2 else [*lines, (SAVER, *[SPENDER] * (k - 1))]


def lines(games: Games, workers: int | None) -> dict[str, Plan]:
    out = {f"first-{k}": plan("mucca_pazza", [SPENDER] * k, games(GAMES, k), SEED, {}, workers,
                              records=k == 2)  # the turns of two spenders are analysed
           for k in PLAYERS}
    for k in PLAYERS:
        for line in _duels(k):
            out["duel-" + ",".join(line)] = plan("mucca_pazza", line, games(GAMES, k), SEED,
                                                 {}, workers)
    return out


def first_player(obs: dict[str, Any]) -> int:
    return int(obs["turn"])


def write(results: dict[str, SimResult], page: Page) -> None:
    _first_seat(results, page)
    _duel(results, page)
    _turns(results["first-2"], page)
    _tie_breaks(results, page)
    page.heading("What designers ask next")
    designer_section(page, [(f"{k} players", results[f"first-{k}"]) for k in PLAYERS],
                     "players")
    page.keep("results", {key: strip_timing(r) for key, r in results.items()})


def _first_seat(results: dict[str, SimResult], page: Page) -> None:
    page.heading("First-seat advantage by player count")
    page.text(f"`{SPENDER}` in every seat; seat 0 starts and play runs clockwise.")
    rows, firsts = [], []
    for k in PLAYERS:
        r = results[f"first-{k}"]
        positions = by_position(r, first_player)
        firsts.append(positions[0])
        rows.append([str(k), f"{r.n:,}", "; ".join(f"{p + 1}. {cell(t)}"
                                                   for p, t in enumerate(positions)),
                     f"{1 / k:.1%}", against(positions[0], 1 / k),
                     mean_cell(r.decisions)])
    page.table(["players", "games", "win rate by position (95%)", "fair", "the first player",
                "length (decisions)"], rows)
    fig, ax = figure()
    advantage_bars(ax, [f"{k} players" for k in PLAYERS], {"first player": firsts},
                   [1 / k for k in PLAYERS])
    ax.set_title("The first player's win rate against the fair share")
    page.plot(fig, "first_seat.png", "the first player's win rate by player count")


def _duel(results: dict[str, SimResult], page: Page) -> None:
    page.heading("Spending stars against keeping them")
    page.text(f"`{SPENDER}` spends a star whenever that wins more cards; `{SAVER}` never does. "
              "Each bot's win rate per seat it held, against the fair share of one seat:")
    rows: list[list[str]] = []
    series: dict[str, list[Tally]] = {SPENDER: [], SAVER: []}
    groups = []
    for k in PLAYERS:
        for line in _duels(k):
            r = results["duel-" + ",".join(line)]
            lone = line[0]
            t = next(b for b in r.bots if b.name == lone)
            rows.append([str(k), f"1 {lone} v {k - 1} {line[1]}", f"{r.n:,}", cell(t),
                         f"{1 / k:.1%}", against(t, 1 / k), mean_cell(t.points)])
        spender = next(b for b in results["duel-" + ",".join(_duels(k)[0])].bots
                       if b.name == SPENDER)
        saver = next(b for b in results["duel-" + ",".join(_duels(k)[-1])].bots
                     if b.name == SAVER)
        series[SPENDER].append(spender)
        series[SAVER].append(saver)  # at two players: the same games, the other bot
        groups.append(f"{k} players")
    page.table(["players", "line-up", "games", "the lone bot wins (95%)", "fair", "the lone bot",
                "its cards (95%)"], rows)
    fig, ax = figure()
    advantage_bars(ax, groups, {f"one {SPENDER} among {SAVER}s": series[SPENDER],
                                f"one {SAVER} among {SPENDER}s": series[SAVER]},
                   [1 / k for k in PLAYERS])
    ax.set_title("The lone bot's win rate against the fair share")
    page.text("(At two players both bars come from the same games: mirror images.)")
    page.plot(fig, "stars_duel.png", "spending stars against keeping them")


def _turns(r: SimResult, page: Page) -> None:
    """Every turn of two spenders, solved with and without the mover's stars."""
    spent_more: list[float] = []  # mover holds a star: did spending win more?
    extra: list[float] = []  # ...and by how many cards
    would: list[float] = []  # mover holds none: would one star have won more?
    game = load(r.game, len(r.players), rules=r.rules, **r.options)
    for o in r.outcomes:
        assert o.record is not None
        state = game.new_state(o.record["seed"])
        for seat, text in o.record["actions"]:
            obs = state.observe(seat)
            if obs["slides_made"] == 0:  # a turn begins
                free = _cards(obs, 0)
                stars = obs["stars"][seat]
                if stars:
                    more = _cards(obs, stars) - free
                    spent_more.append(1.0 if more > 0 else 0.0)
                    if more > 0:
                        extra.append(more)
                else:
                    would.append(1.0 if _cards(obs, 1) > free else 0.0)
            state.apply(seat, text)
    page.heading("Turns where a star is worth spending")
    with_star, without = rate_tally("with", spent_more), rate_tally("without", would)
    gain = Summary.of(extra) if extra else None
    page.table(["turns (two spenders, all games)", "count", "a star won more (95%)",
                "cards it won more (95%)"],
               [["the mover held a star", f"{len(spent_more):,}", cell(with_star),
                 mean_cell(gain, 2) if gain else "–"],
                ["the mover held none", f"{len(would):,}", cell(without), "–"]])
    page.text(f"Solved at the start of every turn of the {r.n:,} games of two `{SPENDER}` "
              "bots: with the free slides alone, and with the mover's stars (or, holding none, "
              "with one). A spender spends exactly on the turns where that wins more.")
    page.keep("turns", {"held_a_star": with_star.to_dict(), "held_none": without.to_dict(),
                        "extra_cards": gain.to_dict() if gain else None})


def _cards(obs: dict[str, Any], stars: int) -> int:
    return solve(obs["board"], landing=obs["landing"], slides=obs["slides_left"],
                 stars=stars).cards


def _tie_breaks(results: dict[str, SimResult], page: Page) -> None:
    page.heading("Ties on cards decided by stars")
    rows = []
    for k in PLAYERS:
        r = results[f"first-{k}"]
        decided = [1.0 if _stars_decided(o.scores, o.winners) else 0.0 for o in r.outcomes]
        t = rate_tally(str(k), decided)
        rows.append([str(k), f"{r.n:,}", cell(t)])
        page.keep(f"tie_breaks_{k}", t.to_dict())
    page.table(["players", "games", "the most cards were tied and stars left decided (95%)"],
               rows)


def _stars_decided(scores: tuple[float, ...], winners: tuple[int, ...]) -> bool:
    """Several seats had the most cards but not all of them won: their stars told them apart."""
    best = max(scores)
    return len(winners) < sum(1 for s in scores if s == best)


__all__ = ["lines", "write"]
