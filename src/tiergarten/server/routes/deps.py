"""What every route needs: the table manager the app runs, and a table that must exist."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request

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
        raise HTTPException(404, f"there is no table {table_id!r}")
    return table


def need_unclosed(tables: TableManager, table_id: str) -> LiveTable:
    """The live table `table_id`, or 404; 409 if it is closed (nothing changes at it)."""
    table = need(tables, table_id)
    if table.status == "closed":
        raise HTTPException(409, closing.words(table.row.close_reason))
    return table
