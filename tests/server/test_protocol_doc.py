"""docs/protocol.md's tables of messages say what the models are: every documented field is a
field of its model, in the model's order, and every field of a model is documented; a field
marked `?` (there only where it applies) is one the writer leaves out when it is not given."""

from __future__ import annotations

import re
import types
from pathlib import Path
from typing import Any, Union, get_args, get_origin

import pytest
from pydantic import BaseModel

from tiergarten.server.edge.protocol import CLIENT_MESSAGES, SERVER_MESSAGES

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")


def table(header: str) -> dict[str, list[str]]:
    """The rows of the table whose header row is `header`: first cell -> the fields named."""
    block = DOC.split(header + "\n", 1)[1].split("\n\n", 1)[0]
    rows = {}
    for line in block.splitlines()[1:]:  # after the |---| line
        first, fields = line.strip("|").split("|", 1)
        rows[first.strip().strip("`")] = re.findall(r"`(\w+)`(\??)", fields.split("(")[0])
    return {name: [f + mark for f, mark in found] for name, found in rows.items()}


def optional(model: type[BaseModel]) -> set[str]:
    """The fields the writer leaves out unless given: optional, null by default."""
    return {n for n, f in model.model_fields.items() if not f.is_required() and f.default is None}


def documented(model: type[BaseModel], fields: list[str]) -> None:
    assert [f.rstrip("?") for f in fields] == list(model.model_fields), model.__name__
    assert {f[:-1] for f in fields if f.endswith("?")} == optional(model), model.__name__


def inner(annotation: Any) -> type[BaseModel]:
    """The model a field holds: itself, in a list, or or-null."""
    if get_origin(annotation) in (list, Union, types.UnionType):
        (found,) = [inner(a) for a in get_args(annotation) if a is not type(None)]
        return found
    assert isinstance(annotation, type) and issubclass(annotation, BaseModel), annotation
    return annotation


SENT = table("| message | fields |")
PARTS = table("| part | fields |")
RECEIVED = table("| key | fields |")


def test_the_tables_are_read() -> None:
    assert SENT["state"][-1] == "coach?" and PARTS["hello.limits"] == ["max_message", "rate",
                                                                        "burst"]


@pytest.mark.parametrize("name", sorted(SERVER_MESSAGES))
def test_every_server_message_is_documented_field_by_field(name: str) -> None:
    assert set(SENT) == set(SERVER_MESSAGES)
    documented(SERVER_MESSAGES[name], SENT[name])


@pytest.mark.parametrize("part", sorted(PARTS))
def test_every_part_of_a_message_is_documented_field_by_field(part: str) -> None:
    message, field = part.removesuffix("[]").split(".")
    model = inner(SERVER_MESSAGES[message].model_fields[field].annotation)
    documented(model, PARTS[part])


def test_every_part_that_is_a_model_is_documented() -> None:
    parts = {f"{name}.{field}" for name, message in SERVER_MESSAGES.items()
             for field, info in message.model_fields.items()
             if _holds_model(info.annotation)}
    assert parts == {p.removesuffix("[]") for p in PARTS}


def _holds_model(annotation: Any) -> bool:
    try:
        inner(annotation)
    except (AssertionError, ValueError):
        return False
    return True


@pytest.mark.parametrize("key", sorted(CLIENT_MESSAGES))
def test_every_client_message_is_documented_field_by_field(key: str) -> None:
    assert list(RECEIVED) == list(CLIENT_MESSAGES)  # in the order they are told apart
    documented(CLIENT_MESSAGES[key], RECEIVED[key])


QUICK = table("| quick match | fields |")


def test_the_quick_match_bodies_and_answers_are_documented_field_by_field() -> None:
    from tiergarten.server.edge.protocol import QUICK_MATCH

    assert set(QUICK) == set(QUICK_MATCH)
    for name, model in QUICK_MATCH.items():
        assert [f.rstrip("?") for f in QUICK[name]] == list(model.model_fields), name
