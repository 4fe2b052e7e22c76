"""`tiergarten records check`: does every stored table replay under this release?

Operators run it before and after an upgrade (docs/deploy.md, "Upgrades"). Each table's log is
replayed under the rules version the table names (an unsettled one, from before versions were
named, under the versions released then); a finished table must end exactly at its last act.
Nothing is written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from tiergarten.core import replay

from .store import TableRow


@dataclass(frozen=True)
class Finding:
    """One table that does not replay as stored, and why."""

    table: str
    game: str
    status: str
    problem: str


@dataclass
class Report:
    """How many tables replayed, by game and rules version, and every one that did not."""

    replayed: Counter[tuple[str, int]] = field(default_factory=Counter)
    unsettled: int = 0  # replayed, but the table names no rules version (see server/legacy.py)
    problems: list[Finding] = field(default_factory=list)

    @property
    def checked(self) -> int:
        return sum(self.replayed.values()) + len(self.problems)


def check_row(row: TableRow) -> tuple[int | None, str | None]:
    """The rules version `row` replays under, or the reason it does not."""
    try:
        state = replay(row.record())
    except ValueError as exc:  # an illegal recorded act, a bad option, an unknown game
        return None, str(exc)
    if row.status == "over" and not state.is_over():
        return None, (f"the table is over but its {len(row.actions)} stored acts do not end "
                      "the game")
    return state.game.rules, None


def check(ids: Iterable[str], load: Callable[[str], TableRow | None],
          step: Callable[[], None] = lambda: None) -> Report:
    """Replay every table of `ids` as `load` reads it; `step` is called after each one."""
    report = Report()
    for table_id in ids:
        row = load(table_id)
        if row is not None:
            rules, problem = check_row(row)
            if problem is not None:
                report.problems.append(Finding(row.id, row.game, row.status, problem))
            else:
                assert rules is not None
                report.replayed[(row.game, rules)] += 1
                report.unsettled += row.rules is None
        step()
    return report
