"""A table's spec (server/table/spec.py): checked once at creation, stored as one versioned
document, and every stored row — of this release, and of the releases 0.1.0 and 0.2.0
(tests/data/upgrade/) — read back as the same spec."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tiergarten.core import OptionError
from tiergarten.server.edge.protocol import CreateTable, SeatSpec
from tiergarten.server.storage.store import SeatRow, TableRow
from tiergarten.server.table.spec import (
    PlayerClock,
    TableSpec,
    TurnTimer,
    document,
    read,
    requested,
    settle,
    timer_column,
)

UPGRADE = Path(__file__).resolve().parents[1] / "data" / "upgrade"
T0 = dt.datetime(2026, 12, 1, 21, 37, 55, tzinfo=dt.UTC)


def row(extra: Any = None, timer: float | None = None, hints: bool = True) -> TableRow:
    return TableRow("t", "maumau", 2, {"rounds": 1}, 7, T0, "open", timer=timer,
                    seats=[SeatRow(0, "human"), SeatRow(1, "bot", bot="random")], hints=hints,
                    extra=dict(extra or {}), rules=3)


def spec(**settings: Any) -> TableSpec:
    return TableSpec(game="maumau", players=2, options={"rounds": 1}, rules=3, seed=7,
                     seats=[None, SeatSpec(bot="random")], **settings)


@pytest.mark.parametrize(("extra", "timer", "hints", "expected", "started"), [
    (None, None, True, spec(), None),  # 0.1.0: no extra at all
    (None, 30.0, False, spec(time=TurnTimer(seconds=30), hints=False), None),
    ({"chat": True}, None, True, spec(), None),  # 0.2.0 and after, unversioned
    ({"chat": False}, 45.0, True, spec(chat=False, time=TurnTimer(seconds=45)), None),
    ({"chat": True, "clock": {"bank": 900.0, "increment": 5.0},
      "started": "2026-12-01T21:37:55+00:00"}, None, True,
     spec(time=PlayerClock(bank=900, increment=5)), T0),
    ({"clock": {"bank": 60}}, None, True, spec(time=PlayerClock(bank=60)), None),
    ({"tutorial": "maumau", "chat": False}, None, True, spec(tutorial="maumau", chat=False),
     None),
])
def test_every_old_shape_of_a_row_reads_as_its_spec(
        extra: Any, timer: float | None, hints: bool, expected: TableSpec,
        started: dt.datetime | None) -> None:
    assert read(row(extra, timer, hints)) == (expected, started)


@pytest.mark.parametrize("settings", [
    {}, {"time": TurnTimer(seconds=20)}, {"time": PlayerClock(bank=300, increment=2)},
    {"chat": False, "hints": False}, {"tutorial": "maumau", "chat": False}])
def test_a_spec_stored_as_its_document_reads_back_the_same(settings: dict[str, Any]) -> None:
    wanted = spec(**settings)
    for started in (None, T0):
        stored = row(document(wanted, started), timer_column(wanted), wanted.hints)
        assert stored.extra["v"] == 1
        assert read(stored) == (wanted, started)


def test_a_new_spec_is_settled_once_against_its_game() -> None:
    settled = settle(TableSpec(game="maumau", seats=[SeatSpec(bot="random")]), False)
    assert settled.players == 3 and settled.rules is not None  # the default count
    assert settled.options["target_score"] == 150  # every option, as the game decided it
    assert settled.seats == [SeatSpec(bot="random"), None, None]  # a seat for each player
    refusals = {
        "not 5": TableSpec(game="maumau", players=5),
        "unknown game": TableSpec(game="chess"),
        "real time": TableSpec(game="lecker_mammut", time=PlayerClock(bank=60)),
        "3 seats given": TableSpec(game="maumau", players=2, seats=[None, None, None]),
        "seed": TableSpec(game="maumau", seed=3),
        "nobody": TableSpec(game="maumau", seats=[SeatSpec(bot="nobody")]),
    }
    for words, wrong in refusals.items():
        with pytest.raises(OptionError, match=words):
            settle(wrong, allow_seeds=False)
    assert settle(TableSpec(game="maumau", seed=3, tutorial="maumau"), False).seed == 3


def test_a_request_asks_for_one_time_control() -> None:
    timed = requested(CreateTable(game="maumau", timer=30))
    assert timed.time == TurnTimer(seconds=30)
    clocked = requested(CreateTable.model_validate({"game": "maumau", "clock": {"bank": 60}}))
    assert clocked.time == PlayerClock(bank=60, increment=0)
    with pytest.raises(OptionError, match="not both"):
        requested(CreateTable.model_validate({"game": "maumau", "timer": 30,
                                              "clock": {"bank": 60}}))


@pytest.mark.parametrize("release", ["d3755b4", "4cf5905"])
def test_every_row_a_release_wrote_reads_as_the_spec_it_was_made_with(release: str) -> None:
    with sqlite3.connect(UPGRADE / release / "tiergarten.db") as db:
        db.row_factory = sqlite3.Row
        tables = [dict(t) for t in db.execute("SELECT * FROM tables")]
        seats = [dict(s) for s in db.execute("SELECT * FROM seats ORDER BY seat")]
    assert tables
    for t in tables:
        extra = json.loads(t.get("extra") or "{}")  # 0.1.0 had no such column
        stored = TableRow(t["id"], t["game"], t["players"], json.loads(t["options"]), t["seed"],
                          T0, t["status"], t["timer"], hints=bool(t["hints"]), extra=extra,
                          seats=[SeatRow(s["seat"], s["kind"], s["bot"]) for s in seats
                                 if s["table_id"] == t["id"]])
        found, started = read(stored)
        clock = extra.get("clock")
        assert found.chat is extra.get("chat", True)
        assert found.hints is bool(t["hints"]) and found.tutorial == extra.get("tutorial")
        assert found.time == (PlayerClock(**clock) if clock else
                              None if t["timer"] is None else TurnTimer(seconds=t["timer"]))
        assert [s.bot if s else None for s in found.seats] == [
            s.bot for s in stored.seats]
        assert (started is None) == ("started" not in extra)
        again = TableRow(**{**vars(stored), "extra": document(found, started),
                            "timer": timer_column(found)})
        assert read(again) == (found, started)
