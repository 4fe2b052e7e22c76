"""docs/research.md's observation tables are the encoders' layouts, index by index."""

from __future__ import annotations

import re
from pathlib import Path

import tiergarten
from tiergarten.encoders import encoder

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
HEADER = re.compile(r"^### .*\(`(\w+)`\): (\d+) entries$")
ROW = re.compile(r"^\| (\d+)(?:–(\d+))? \| `(\w+)` \| (.*) \|$")


def _tables() -> dict[str, tuple[int, list[tuple[int, int, str, str]]]]:
    tables: dict[str, tuple[int, list[tuple[int, int, str, str]]]] = {}
    current = None
    for line in DOC.read_text().splitlines():
        head = HEADER.match(line)
        if head:
            current = head.group(1)
            tables[current] = (int(head.group(2)), [])
            continue
        row = ROW.match(line)
        if row and current is not None:
            first = int(row.group(1))
            last = int(row.group(2)) if row.group(2) else first
            tables[current][1].append((first, last, row.group(3), row.group(4)))
    return tables


def test_every_game_has_its_layout_documented() -> None:
    tables = _tables()
    assert set(tables) == set(tiergarten.games())
    for game_id, (size, rows) in tables.items():
        enc = encoder(tiergarten.load(game_id))
        assert size == enc.size, game_id
        assert rows == [(a, b, name, doc) for name, a, b, doc in enc.describe()], game_id
