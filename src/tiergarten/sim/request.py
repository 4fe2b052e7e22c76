"""A simulation request, as `tiergarten simulate` and the server's lab (server/lab) make it.

`check` takes the request as given — one line-up, a tournament or a sweep of one option — and
checks everything before a game is played (bad ones raise ValueError, saying what is
allowed); the `Mode` it returns plays the request to any number of games (`grow`), keeping a
previous outcome's games. `as_json` is the outcome as `simulate --json` prints it, and
`write_html` writes the HTML report of `--report`. Both callers use these and nothing else,
so the lab in the browser shows the very figures of the command with the same seed.

>>> mode = check("maumau", ["heuristic", "random"], 4, 1, {"rounds": "1"}, workers=1)
>>> result = mode.grow(4, None, lambda done: None, lambda estimate: None)
>>> data = as_json(result, None, None)
>>> data["n"], [b["bot"] for b in data["bots"]]
(4, ['heuristic', 'random'])
>>> check("maumau", None, 4, 1, {"colour": "red"}, workers=1)
Traceback (most recent call last):
...
tiergarten.core.errors.OptionError: unknown option 'colour'; allowed: target_score, rounds, ...
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from tiergarten.core import game_class

from .league import League, league, league_plans, parse_sweep, sweep
from .pool import Estimate, execute_many
from .separation import Question, Verdict, of_league, of_run, of_sweep
from .tournament import BACKENDS, Plan, SimResult, plan

Tick = Callable[[int], None]  # games done so far, over the whole request
Hook = Callable[[Estimate], None]


@dataclass(frozen=True)
class Mode:
    """One kind of request, checked: how to grow it to `games` games per line-up (keeping a
    previous outcome's games) and what its --until-separated question is."""

    plans: list[Plan]  # the checked line-ups, for counting and estimating
    grow: Callable[[int, Any, Tick, Hook], Any]  # (games, previous, tick, hook) -> outcome
    ask: Callable[[Any, float], Question]  # (outcome, each look's z) -> the question


def check(game: str, entrants: list[str] | None, n: int, seed: int, options: dict[str, Any],
          workers: int | None, tournament: str | None = None, seats: int | None = None,
          sweep_option: str | None = None, records: bool = False, backend: str = "local",
          address: str | None = None) -> Mode:
    """Check a request before anything is played; bad ones raise ValueError."""
    if backend not in BACKENDS:
        raise ValueError(f"no backend {backend!r}; allowed: {', '.join(BACKENDS)}")
    if tournament is not None and sweep_option is not None:
        raise ValueError("choose either a tournament or a sweep")
    where: dict[str, Any] = {"backend": backend, "address": address}

    def offsetting(tick: Tick, previous: int, lines: int) -> Callable[[int, int], None]:
        return lambda done, _total: tick(previous * lines + done)

    if tournament is not None:
        if not entrants:
            raise ValueError("a tournament needs --players naming the entrants")
        _, plans = league_plans(game, entrants, n, seed, options, workers, tournament, seats,
                                records)

        def grow_league(games: int, prev: League | None, tick: Tick, hook: Hook) -> League:
            return league(game, entrants, games, seed, options, workers, tournament, seats,
                          offsetting(tick, prev.pairings[0].n if prev else 0, len(plans)),
                          records, estimate=hook,
                          before=list(prev.pairings) if prev else None, **where)
        return Mode(plans, grow_league, of_league)
    if sweep_option is not None:
        name, values = parse_sweep(sweep_option)
        plans = [plan(game, entrants, n, seed, {**options, name: value}, workers, records)
                 for value in values]  # every value checked before anything is played

        def grow_sweep(games: int, prev: list[tuple[str, SimResult]] | None, tick: Tick,
                       hook: Hook) -> list[tuple[str, SimResult]]:
            return sweep(game, entrants, name, values, games, seed, options, workers,
                         offsetting(tick, prev[0][1].n if prev else 0, len(plans)), records,
                         estimate=hook, before=[r for _, r in prev] if prev else None, **where)
        return Mode(plans, grow_sweep, lambda runs, z: of_sweep(name, runs, z))
    p = plan(game, entrants, n, seed, options, workers, records)

    def grow_run(games: int, prev: SimResult | None, tick: Tick, hook: Hook) -> SimResult:
        return execute_many([replace(p, n=games)], offsetting(tick, prev.n if prev else 0, 1),
                            before=[prev] if prev else None, estimate=hook, **where)[0]
    return Mode([p], grow_run, of_run)


def as_json(outcome: Any, sweep_option: str | None, verdict: Verdict | None) -> dict[str, Any]:
    """The outcome as `tiergarten simulate --json` prints it."""
    from .display import sweep_figures, sweep_notes

    if isinstance(outcome, list):
        data: dict[str, Any] = {"sweep": sweep_option,
                                "runs": [{"value": v, **r.to_dict()} for v, r in outcome],
                                "differs": {f.name: f.differs for f in sweep_figures(outcome)},
                                "notes": sweep_notes(sweep_option or "", outcome)}
    else:
        data = outcome.to_dict()
    if verdict is not None:
        data["until_separated"] = verdict.to_dict()
    return data


def labelled(outcome: Any, sweep_option: str | None) -> list[tuple[str, SimResult]]:
    """The outcome's results, each with the label the report gives it."""
    if isinstance(outcome, League):
        return [(" v ".join(dict.fromkeys(r.players)) + f" ({','.join(r.players)})", r)
                for r in outcome.pairings]
    if isinstance(outcome, list):
        name = (sweep_option or "").partition("=")[0]
        return [(f"{name}={value}", r) for value, r in outcome]
    return [("run", outcome)]


def write_html(folder: Path, game: str, outcome: Any, verdict: Verdict | None,
               sweep_option: str | None = None) -> Path:
    """Write the HTML report of `--report` into `folder`; return the page's path."""
    from .report import write_report

    runs = labelled(outcome, sweep_option)
    title = f"{game_class(game).info.title}: " + (
        f"{outcome.format} of {', '.join(outcome.entrants)}" if isinstance(outcome, League)
        else ", ".join(runs[0][1].players))
    kwargs: dict[str, Any] = {"verdict": verdict}
    if isinstance(outcome, League):
        kwargs.update(ratings=outcome.ratings, head_to_head=outcome.head_to_head)
    if isinstance(outcome, list):
        kwargs["sweep"] = (sweep_option or "").partition("=")[0]
    return write_report(folder, title, runs, **kwargs)


def split_names(players: Sequence[str] | None) -> list[str] | None:
    """Accept ["heuristic", "random"] as well as ["heuristic,random"]."""
    if not players:
        return None
    names = [name.strip() for item in players for name in item.split(",")]
    return [name for name in names if name] or None


__all__ = ["Hook", "Mode", "Tick", "as_json", "check", "labelled", "split_names",
           "write_html"]
