"""The coach of a tutorial table (a table feature): the learner, at seat 0, is offered only the
moves the tutorial's step teaches, any other legal move is refused (`tutorial`, naming those
taught), and each of their `state` messages carries the step (`coach`). The tutorials and
their steps are data (tutorial.py); the coach counts the learner's moves as they are made.
"""

from __future__ import annotations

from typing import Any

from ...edge.protocol import CoachView
from ..feature import Feature, Refusal, Table
from ..spec import TableSpec
from ..table_log import Entry
from ..tutorial import TUTORIALS, Coach, moves_made


class Coaching(Feature):
    """A tutorial's coach at its table; None at any other."""

    def __init__(self, table: Table, coach: Coach) -> None:
        super().__init__(table)
        self.coach = coach
        self.made = moves_made(table.state.history, coach.seat)  # the learner's moves so far

    @classmethod
    def attach(cls, table: Table) -> Coaching | None:
        tutorial = table.spec.tutorial
        if tutorial not in TUTORIALS:
            return None
        return cls(table, Coach(tutorial, TUTORIALS[tutorial]))  # the learner is seat 0

    @classmethod
    def describe(cls, spec: TableSpec) -> dict[str, Any]:
        return {"tutorial": spec.tutorial}

    def permits(self, seat: int, act: str) -> Refusal | None:
        if seat != self.coach.seat:
            return None
        legal = [a.text for a in self.table.state.legal_actions(seat)]
        if self.coach.permits(self.made, legal, act):
            return None
        return Refusal("tutorial", f"this step of the tutorial teaches another move: one of "
                                   f"{', '.join(self.coach.filter(self.made, legal))}")

    def offer(self, seat: int, legal: list[str]) -> list[str]:
        if seat != self.coach.seat or not legal:
            return legal
        return self.coach.filter(self.made, legal)

    def adds(self, seat: int | None) -> dict[str, Any]:
        if seat != self.coach.seat:
            return {}
        return {"coach": CoachView(**self.coach.view(self.made))}

    def published(self, entry: Entry | None) -> None:
        if entry is None:  # the log was read back from the store: count it again
            self.made = moves_made(self.table.state.history, self.coach.seat)
        elif entry.seat == self.coach.seat:
            self.made += 1
