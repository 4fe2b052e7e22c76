"""One writer for every message the server sends: its model (protocol.py) as JSON text.

Every message is built from its model and written by `text` (orjson): every field in the
model's order, except an optional one (null by default) that was not given — `clock` and
`coach` of a `state` where they apply, `reason` and `params` of an `illegal` error. A REST
answer that is also a message (the table) is the same data (`wire`).

A `state` is written per seat per act, and building its model costs more than writing it:
`state_text` writes it straight from its fields, which are the model's, in order (refused at
import otherwise); its observation is the game's own, checked by the game's tests, and every
test client checks each message it receives against its model.

>>> from tiergarten.server.edge.protocol import ErrorMessage
>>> text(ErrorMessage(code="stale", message="too late", version=3))
'{"type":"error","code":"stale","message":"too late","version":3}'
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import orjson
from pydantic import BaseModel

from .protocol import ClockView, CoachView, StateMessage

_OPTIONAL: dict[type[BaseModel], frozenset[str]] = {}


def _fields(model: Any) -> dict[str, Any]:
    """A model as it is sent: its fields in order, an optional one (None by default) only if
    it was given (orjson asks this of every model it meets, nested ones too)."""
    if not isinstance(model, BaseModel):
        raise TypeError(f"{type(model).__name__} is not a message")
    kind = type(model)
    optional = _OPTIONAL.get(kind)
    if optional is None:
        optional = _OPTIONAL[kind] = frozenset(
            name for name, field in kind.model_fields.items()
            if not field.is_required() and field.default is None)
    given = model.model_fields_set
    return {k: v for k, v in model.__dict__.items() if k not in optional or k in given}


def state_text(version: int, seat: int | None, observation: dict[str, Any], legal: list[str],
               events: list[Any], log: list[dict[str, Any]], log_from: int,
               clock: ClockView | None = None, coach: CoachView | None = None) -> str:
    """A `state` message as the text `text(StateMessage(...))` would be, written without
    building the model: a state is written per seat per act, and building its model costs
    more than writing it. Its parameters are the model's fields, in order (checked below)."""
    data = {"type": "state", "version": version, "seat": seat, "observation": observation,
            "legal": legal, "events": events, "log": log, "log_from": log_from}
    if clock is not None:
        data["clock"] = clock
    if coach is not None:
        data["coach"] = coach
    return orjson.dumps(data, default=_fields, option=orjson.OPT_NON_STR_KEYS).decode()


def _writes(model: type[BaseModel], writer: Callable[..., str]) -> None:
    """Refuse (at import) a writer whose parameters are not `model`'s fields in order."""
    fields = [name for name in model.model_fields if name != "type"]
    if list(inspect.signature(writer).parameters) != fields:
        raise TypeError(f"{writer.__name__} does not write {model.__name__}'s fields {fields}")


_writes(StateMessage, state_text)


def text(message: BaseModel | list[BaseModel]) -> str:
    """A message (or a list of them) as the JSON text that is sent (orjson: about eight times
    quicker than json.dumps on a state, the largest share of the server's time per act after
    the websocket writes; docs/deploy.md)."""
    return orjson.dumps(message, default=_fields, option=orjson.OPT_NON_STR_KEYS).decode()


def wire(message: BaseModel) -> dict[str, Any]:
    """A message as the plain data that is sent (a REST answer that is also a message)."""
    data: dict[str, Any] = orjson.loads(text(message))
    return data
