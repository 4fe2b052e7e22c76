"""The coach of a tutorial table (a table feature): the learner, at seat 0, is offered only the
moves the tutorial's step teaches, any other legal move is refused (`tutorial`, naming those
taught), and each of their `state` messages carries the step (`coach`). The tutorials and
their steps are data (tutorial.py); the coach follows the learner's moves as they are made
(a step may wait for one kind of move), and while a step says so the table's bots wait
(`holds`, asked by the bot seats).
"""

from __future__ import annotations

from typing import Any

from ...edge.protocol import CoachView
from ..feature import Feature, Refusal, Table
from ..spec import TableSpec
from ..table_log import Entry
from ..tutorial import TUTORIALS, Coach


class Coaching(Feature):
    """A tutorial's coach at its table; None at any other."""

    def __init__(self, table: Table, coach: Coach) -> None:
        super().__init__(table)
        self.coach = coach
        self.step = coach.step_of(table.state.history)  # where the learner's moves got to

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
        if self.coach.permits(self.step, legal, act):
            return None
        return Refusal("tutorial", f"this step of the tutorial teaches another move: one of "
                                   f"{', '.join(self.coach.filter(self.step, legal))}")

    def offer(self, seat: int, legal: list[str]) -> list[str]:
        if seat != self.coach.seat or not legal:
            return legal
        return self.coach.filter(self.step, legal)

    def adds(self, seat: int | None) -> dict[str, Any]:
        if seat != self.coach.seat:
            return {}
        legal = [a.text for a in self.table.state.legal_actions(seat)]
        return {"coach": CoachView(**self.coach.view(self.step, legal))}

    def holds(self) -> bool:
        """Whether the table's bots wait now (the step teaches a race: the learner's)."""
        return self.coach.holds(self.step) and self.table.status == "playing"

    def published(self, entry: Entry | None) -> None:
        if entry is None:  # the log was read back from the store: follow it again
            self.step = self.coach.step_of(self.table.state.history)
        elif entry.seat == self.coach.seat:
            self.step = self.coach.next_step(self.step, entry.notation)
