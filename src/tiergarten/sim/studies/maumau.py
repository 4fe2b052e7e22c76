"""Mau Mau: first-seat advantage by player count, and the house rules jack_on_jack,
first_card_effects and two_player_nine (docs/games/maumau.md).

Every seat holds `heuristic` (MauMauHeuristic; the page names its class). Positions count
from the leader, the player to the dealer's left, who plays first unless the first up-card
says otherwise; seat 0 deals the first round. Single rounds (`rounds=1`) show a rule's
effect undiluted; the matches to 150 points show what is left of the first-seat advantage
over a whole match (the deal rotates).
"""

from __future__ import annotations

from typing import Any

from tiergarten.core import load

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
    figure,
    game_points,
    mean_cell,
    mean_points,
    panels,
    strip_timing,
)

BOT = "heuristic"  # a bot's own name, not a level's: a level may be given to another bot
QUICK = 24  # games per line-up of the quick form (tests/sim/test_sim_studies.py)
PLAYERS = (2, 3, 4)
ROUNDS = 7_200  # single rounds per line-up (a multiple of 2, 3 and 4 players)
MATCHES = 1_440  # matches to 150 points per line-up
VALUES = {"jack_on_jack": ("true", "false"), "first_card_effects": ("true", "false"),
          "two_player_nine": ("skip", "none")}


def _default_first(rule: str) -> tuple[str, ...]:
    """The rule's values with the newest rules version's default first."""
    default = load("maumau", 2).options[rule]
    text = str(default).lower() if isinstance(default, bool) else str(default)
    return (text, *[v for v in VALUES[rule] if v != text])


RULES = {rule: _default_first(rule) for rule in VALUES}  # default first
ONE_ROUND = {"rounds": 1}


def _players(rule: str) -> tuple[int, ...]:
    return (2,) if rule == "two_player_nine" else PLAYERS  # a 9 is only special with two


def _key(rule: str, value: str, k: int) -> str:
    return f"round-{k}" if value == RULES[rule][0] else f"{rule}={value}-{k}"


def lines(games: Games, workers: int | None) -> dict[str, Plan]:
    out = {}
    for k in PLAYERS:
        out[f"round-{k}"] = plan("maumau", [BOT] * k, games(ROUNDS, k), SEED, ONE_ROUND, workers)
        out[f"match-{k}"] = plan("maumau", [BOT] * k, games(MATCHES, k), SEED, {}, workers)
    for rule, values in RULES.items():
        for value in values[1:]:
            for k in _players(rule):
                out[_key(rule, value, k)] = plan("maumau", [BOT] * k, games(ROUNDS, k), SEED,
                                                 {**ONE_ROUND, rule: value}, workers)
    return out


def leader(obs: dict[str, Any]) -> int:
    """The player to the dealer's left."""
    return (int(obs["dealer"]) + 1) % int(obs["players"])


def write(results: dict[str, SimResult], page: Page) -> None:
    leaders = {key: by_position(r, leader) for key, r in results.items()}
    _first_seat(results, leaders, page)
    page.heading("House rules")
    page.text("Each rule's values in single rounds, every other rule at its default: the "
              "leader's win rate, the length of a round in decisions and the points it pays "
              "(what the others still hold when someone goes out). Two rows whose intervals "
              "do not overlap differ; overlapping ones may still differ by less than the "
              "intervals can tell.")
    for rule, values in RULES.items():
        _rule(rule, values, results, leaders, page)
    page.heading("What designers ask next")
    designer_section(page, [(f"{k} players, one round", results[f"round-{k}"]) for k in PLAYERS]
                     + [(f"{k} players, a match", results[f"match-{k}"]) for k in PLAYERS],
                     "line-up")
    page.keep("results", {key: strip_timing(r) for key, r in results.items()})


def _names(k: int) -> list[str]:
    """Position names from the leader: the dealer is the last."""
    return ["leader", "2nd", "3rd"][:k - 1] + ["dealer"]


Positions = dict[str, list[Tally]]  # line-up key -> win rates by position from the leader


def _first_seat(results: dict[str, SimResult], pos: Positions, page: Page) -> None:
    page.heading("First-seat advantage by player count")
    page.text(f"`{BOT}` in every seat. The leader (left of the dealer) plays first; positions "
              "go clockwise from there, the dealer last. A round is won by going out first; "
              "a match by the most points once someone reaches 150.")
    rows: list[list[str]] = []
    leaders: dict[str, list[Tally]] = {"one round": [], "a match to 150": []}
    for k in PLAYERS:
        for what, key in (("one round", f"round-{k}"), ("a match to 150", f"match-{k}")):
            r = results[key]
            positions = pos[key]
            leaders[what].append(positions[0])
            rows.append([str(k), what, f"{r.n:,}",
                         "; ".join(f"{name} {cell(t)}" for name, t in
                                   zip(_names(k), positions, strict=True)),
                         f"{1 / k:.1%}", against(positions[0], 1 / k)])
    page.table(["players", "game", "games", "win rate by position (95%)", "fair", "the leader"],
               rows)
    fig, ax = figure()
    advantage_bars(ax, [f"{k} players" for k in PLAYERS], leaders, [1 / k for k in PLAYERS])
    ax.set_title("The leader's win rate against the fair share")
    page.plot(fig, "first_seat.png", "the leader's win rate by player count")


def _rule(rule: str, values: tuple[str, ...], results: dict[str, SimResult],
          pos: Positions, page: Page) -> None:
    ks = _players(rule)
    page.heading(f"`{rule}`", 3)
    rows = []
    wins: dict[str, list[Tally]] = {f"{rule}={v}": [] for v in values}
    lengths: dict[str, list[Any]] = {f"{rule}={v}": [] for v in values}
    for k in ks:
        for value in values:
            r = results[_key(rule, value, k)]
            t = pos[_key(rule, value, k)][0]
            wins[f"{rule}={value}"].append(t)
            lengths[f"{rule}={value}"].append(r.decisions)
            rows.append([str(k), value + (" (default)" if value == values[0] else ""),
                         f"{r.n:,}", cell(t), mean_cell(r.decisions), mean_cell(game_points(r))])
    page.table(["players", rule, "rounds", "leader wins (95%)", "length (decisions)",
                "points of the round"], rows)
    page.text(_verdict(rule, values, ks, results, pos))
    points = {f"{rule}={v}": [game_points(results[_key(rule, v, k)]) for k in ks]
              for v in values}
    moved = _moved(rule, values, ks, results, pos)
    shown = [name for name in ("the leader's win rate", "the length", "the points")
             if name in moved]
    if not shown:
        page.text(f"No plot: `{rule}` moves none of these figures beyond its interval.")
        return
    fig, axes = panels(len(shown))
    for ax, name in zip(axes, shown, strict=True):
        if name == "the leader's win rate":
            advantage_bars(ax, [f"{k} players" for k in ks], wins, [1 / k for k in ks],
                           legend=False)
            ax.set_title("the leader's win rate against the fair share")
        else:
            series = lengths if name == "the length" else points
            mean_points(ax, list(ks), series, "decisions per round (95%)"
                        if name == "the length" else "points of a round (95%)")
            ax.set_xticks(list(ks), [f"{k} players" for k in ks])
            ax.set_title("length of a round" if name == "the length"
                         else "points of a round")
    page.plot(fig, f"{rule}.png", f"{rule}: what it moves beyond the intervals — "
              + ", ".join(shown))


def _moved(rule: str, values: tuple[str, ...], ks: tuple[int, ...],
           results: dict[str, SimResult], pos: Positions) -> dict[str, list[int]]:
    """The figures the rule moves beyond their intervals, with the player counts."""
    moved: dict[str, list[int]] = {}
    for k in ks:
        keys = [_key(rule, v, k) for v in values]
        a, b = (results[key] for key in keys)
        for name, x, y in (("the leader's win rate", pos[keys[0]][0], pos[keys[1]][0]),
                           ("the length", a.decisions, b.decisions),
                           ("the points", game_points(a), game_points(b))):
            if apart(x, y):
                moved.setdefault(name, []).append(k)
    return moved


def _verdict(rule: str, values: tuple[str, ...], ks: tuple[int, ...],
             results: dict[str, SimResult], pos: Positions) -> str:
    """Which figures the rule moves beyond their intervals, in words."""
    moved = []
    for k in ks:
        keys = [_key(rule, v, k) for v in values]
        a, b = (results[key] for key in keys)
        changes = [name for name, x, y in (
            ("the leader's win rate", pos[keys[0]][0], pos[keys[1]][0]),
            ("the length", a.decisions, b.decisions),
            ("the points", game_points(a), game_points(b))) if apart(x, y)]
        moved.append(f"{k} players: " + (", ".join(changes) if changes else "nothing"))
    return (f"What `{rule}={values[1]}` changes against `{values[0]}` beyond the intervals — "
            + "; ".join(moved) + ".")


__all__ = ["lines", "write"]
