"""What every route needs: the table manager the app runs, and a table that must exist."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from ..edge.settings import Refused
from ..table import closing
from ..table.manager import TableManager
from ..table.tables import LiveTable


def manager(request: Request) -> TableManager:
    """The manager the app's lifespan made (`app.state.manager`)."""
    found: TableManager = request.app.state.manager
    return found


Tables = Annotated[TableManager, Depends(manager)]


def need(tables: TableManager, table_id: str) -> LiveTable:
    """The live table `table_id`, or 404."""
    table = tables.get(table_id)
    if table is None:
        raise Refused(404, "no_table", f"there is no table {table_id!r}", {"table": table_id})
    return table


def need_unclosed(tables: TableManager, table_id: str) -> LiveTable:
    """The live table `table_id`, or 404; 409 if it is closed (nothing changes at it)."""
    table = need(tables, table_id)
    if table.status == "closed":
        reason = table.row.close_reason
        raise Refused(409, "closed", closing.words(reason), {"reason": reason})
    return table
