"""`POST /api/records`: a game played offline (on the player's own device, docs/web.md
"Offline") joins the signed-in player's history.

The server believes nothing it is sent but the moves: it replays the record with the game's
own rules (every act checked, to the end), stores it as a finished table of its own — the
uploader at the seat they name, the bots as bots, the other people by name, as guests — and
records the player's result. It is never rated (`extra.offline`; `ratings.record_game` and
`tiergarten ratings rebuild` skip it): a device can replay any seed until it likes the deal,
and nobody else was there to see the game, so a rating would measure nothing. The same record
sent twice is the same table.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from tiergarten.core import IllegalAction, OptionError
from tiergarten.offline import finished

from ..edge.protocol import clean_name
from ..edge.settings import Refused
from ..storage.store import SeatRow
from .account import need_user
from .deps import Tables

router = APIRouter()


class UploadSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"]
    bot: str | None = None
    name: str | None = Field(default=None, max_length=200)


class Upload(BaseModel):
    model_config = ConfigDict(extra="forbid")
    record: dict[str, Any]
    seat: int = Field(ge=0)
    seats: list[UploadSeat]


def upload_id(user_id: int, record: dict[str, Any]) -> str:
    """The same player's same record: the same table id (12 characters, as the server's)."""
    text = json.dumps([user_id, record], sort_keys=True, separators=(",", ":"))
    return base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest())[:12].decode()


def _name(text: str | None) -> str | None:
    try:
        return clean_name(text) if text else None
    except ValueError:
        return None


@router.post("/api/records", status_code=201)
async def upload(body: Upload, request: Request, tables: Tables) -> dict[str, Any]:
    user = need_user(request)
    try:
        state = await asyncio.to_thread(finished, body.record)
    except (ValueError, KeyError, TypeError, OptionError, IllegalAction) as exc:
        raise Refused(400, "bad_record", f"the record does not replay to its end: {exc}"
                      ) from None
    record = state.record()
    players = record["players"]
    if len(body.seats) != players or body.seat >= players or body.seats[body.seat].kind != "human":
        raise Refused(400, "bad_record", f"seats: {players} expected, and `seat` a person's")
    table_id = upload_id(user.id, record)
    store = tables.store
    if await asyncio.to_thread(store.load_table, table_id) is None:
        rows = [SeatRow(i, s.kind, bot=s.bot if s.kind == "bot" else None,
                        name=user.name if i == body.seat else _name(s.name),
                        user_id=user.id if i == body.seat else None,
                        account=user.name if i == body.seat else None)
                for i, s in enumerate(body.seats)]

        def store_it() -> None:
            store.create_table(table_id, record["game"], players, record["options"],
                               record["seed"], rows, extra={"offline": True},
                               rules=record["rules"])
            for index, (seat, notation) in enumerate(record["actions"]):
                store.append_action(table_id, index, seat, notation)
            store.set_status(table_id, "over")
            row = store.load_table(table_id)
            if row is not None and tables.game_over is not None:
                tables.game_over(row, state)  # the player's result, unrated

        await asyncio.to_thread(store_it)
    result = state.result()
    return {"table": table_id, "game": record["game"], "rated": False,
            "result": result.to_dict()}
