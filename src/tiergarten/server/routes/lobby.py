"""The lobby: tables to create, find and show; seats to join and leave; rematches."""

from __future__ import annotations

import math
from typing import Any

from fastapi import APIRouter, HTTPException, Request

from ..limits import Gate
from ..protocol import CreateTable, Join, Joined, TokenBody
from .deps import Tables, need

router = APIRouter()


@router.post("/api/tables", status_code=201,
             responses={429: {"description": "this address made too many tables just now"}})
async def create_table(body: CreateTable, tables: Tables, request: Request) -> dict[str, Any]:
    gate: Gate = request.app.state.gate
    wait = gate.create(request.client.host if request.client else "")
    if wait > 0:
        settings = tables.settings
        raise HTTPException(429, f"at most {settings.tables_burst} tables at once and "
                                 f"{settings.tables_per_minute:g} a minute from one address; "
                                 f"try again in {math.ceil(wait)} s",
                            headers={"Retry-After": str(math.ceil(wait))})
    table = tables.create(body.game, body.players, body.options, body.seats, body.timer,
                          body.seed, hints=body.hints)
    return table.info()


@router.get("/api/tables")
async def open_tables(tables: Tables) -> list[dict[str, Any]]:
    """Tables waiting for people."""
    return tables.open_tables()


@router.get("/api/tables/{table_id}")
async def show_table(table_id: str, tables: Tables) -> dict[str, Any]:
    return need(tables, table_id).info()


@router.post("/api/tables/{table_id}/join")
async def join(table_id: str, body: Join, tables: Tables) -> Joined:
    seat, token = tables.join(table_id, body.name, body.seat)
    return Joined(table=table_id, seat=seat, token=token)


@router.post("/api/tables/{table_id}/leave")
async def leave(table_id: str, body: TokenBody, tables: Tables) -> dict[str, Any]:
    seat = need(tables, table_id).leave(body.token)
    return {"table": table_id, "seat": seat}


@router.post("/api/tables/{table_id}/rematch", status_code=201)
async def rematch(table_id: str, body: TokenBody, tables: Tables) -> dict[str, Any]:
    return tables.rematch(table_id, body.token).info()
