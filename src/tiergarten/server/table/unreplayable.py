"""A stored table that no rules version of this release replays (docs/deploy.md, "Upgrades").

It is never an error page: every route about it answers 409 with the reason and the table as
stored (its game, options, rules version and moves), a connection to it is closed with the
reason, and `tiergarten records check` lists it for the operator.
"""

from __future__ import annotations

from typing import Any

from ..edge.settings import TableError
from ..storage.store import TableRow

CLOSE_CODE = 4409  # a websocket to such a table (docs/protocol.md)


class Unreplayable(TableError):
    """The log of `row` does not replay: `reason` says at which action and why."""

    def __init__(self, row: TableRow, reason: Exception) -> None:
        self.row = row
        self.reason = str(reason)
        super().__init__(f"table {row.id} cannot be replayed by this version of tiergarten: "
                         f"{self.reason}. Its stored moves are shown as they are.", 409,
                         "unreplayable")

    def body(self) -> dict[str, Any]:
        """The answer to any request about the table: the reason and what is stored."""
        row = self.row
        return {"detail": str(self), "code": "unreplayable",
                "table": {"id": row.id, "game": row.game, "players": row.players,
                          "options": row.options, "rules": row.rules, "status": row.status,
                          "moves": [[seat, text] for seat, text in row.actions]}}
