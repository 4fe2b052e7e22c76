"""A table's record (whole once the game is over) and the replay of a finished game.

Only a finished table's record is shown whole: it holds the seed, which fixes every shuffle.
Both read the log as the store holds it, not the table's memory; a finished table that no
process holds in memory (forgotten once nobody watched it, or moving between workers) is
answered from the store alone.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from tiergarten.core import State
from tiergarten.core import replay as replay_record

from ..edge.settings import Refused
from ..edge.writer import wire
from ..storage.store import TableRow
from ..table.features.chat import TableChat, stored_lines
from ..table.manager import TableManager, is_table_id
from ..table.replay import replay_steps
from ..table.seats import Seats
from ..table.unreplayable import Unreplayable
from .deps import Tables, need

router = APIRouter()


@router.get("/api/tables/{table_id}/record")
async def record(table_id: str, tables: Tables) -> dict[str, Any]:
    """The whole record once the game is over; before that only what a spectator sees."""
    row = await _finished(tables, table_id)
    if row is not None:
        record = row.record()
        return {"status": "over", "record": record,
                "result": _replayed(row).result().to_dict(),
                "seats": _seats(row)}
    table = need(tables, table_id)
    seats = wire(table.info())["seats"]
    if table.status == "over":
        return {"status": "over", "record": stored_record(tables, table_id),
                "result": table.state.result().to_dict(), "seats": seats}
    return {"status": table.status, "version": table.version,
            "observation": table.state.observe(None), "seats": seats}


@router.get("/api/tables/{table_id}/replay")
async def replay(table_id: str, tables: Tables) -> dict[str, Any]:
    """Every position of a finished game with every hand revealed (409 before the end)."""
    row = await _finished(tables, table_id)
    if row is not None:
        record = row.record()
        return {"game": row.game, "players": row.players, "seats": _seats(row),
                "result": _replayed(row).result().to_dict(),
                "steps": await asyncio.to_thread(replay_steps, record),
                "chat": await asyncio.to_thread(stored_lines, tables.store, table_id)}
    table = need(tables, table_id)
    if table.status != "over":
        raise Refused(409, "not_over", "a game can be replayed once it is over; this one is "
                                       f"{table.status}", {"status": table.status})
    chat = table.feature(TableChat)
    return {"game": table.row.game, "players": table.state.game.players,
            "seats": wire(table.info())["seats"], "result": table.state.result().to_dict(),
            "steps": await asyncio.to_thread(replay_steps, stored_record(tables, table_id)),
            "chat": list(chat.lines) if chat is not None else []}


def _seats(row: TableRow) -> list[dict[str, Any]]:
    """The seats of a stored table, as its `table` message shows them (nobody connected)."""
    return [wire(seat) for seat in Seats(row.seats).info(())]


def _replayed(row: TableRow) -> State:
    """The finished game of `row` replayed; Unreplayable if its log does not replay."""
    try:
        return replay_record(row.record())
    except ValueError as exc:
        raise Unreplayable(row, exc) from None


async def _finished(tables: TableManager, table_id: str) -> TableRow | None:
    """The stored row of a finished table that is not live in this process, else None."""
    if table_id in tables.tables or not is_table_id(table_id):
        return None
    row = await asyncio.to_thread(tables.store.load_table, table_id)
    return row if row is not None and row.status == "over" else None


def stored_record(tables: TableManager, table_id: str) -> dict[str, Any]:
    """A finished table's record as the log in the store holds it (not memory)."""
    stored = tables.store.load_table(table_id)
    assert stored is not None
    return stored.record()
