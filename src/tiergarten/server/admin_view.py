"""How `tiergarten admin` (admin.py) shows what it found: a Rich table, or JSON for scripts.

>>> in_seconds(2150), in_seconds(-1)
('2.1 s', 'no expiry')
>>> iso(dt.datetime(2026, 12, 1, 21, 0, 5, 123, tzinfo=dt.timezone(dt.timedelta(hours=1))))
'2026-12-01T20:00:05+00:00'
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import typer
from rich.console import Console
from rich.table import Table


def show(rows: list[dict[str, Any]], as_json: bool, title: str, columns: dict[str, str],
         empty: str) -> None:
    """`rows` as JSON (a list of objects), or as a table of `columns` (key -> heading) under
    `title`; `empty` says there is nothing."""
    if as_json:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    console = Console(highlight=False)
    if not rows:
        console.print(empty)
        return
    table = Table(title=title, title_justify="left")
    for key, heading in columns.items():
        table.add_column(heading, no_wrap=key in ("id", "table", "worker"))
    for row in rows:
        table.add_row(*("–" if row.get(key) is None else str(row[key]) for key in columns))
    console.print(table)


def iso(at: dt.datetime | None) -> str | None:
    """A time as the JSON says it: UTC, to the second."""
    return None if at is None else at.astimezone(dt.UTC).isoformat(timespec="seconds")


def when(text: str | None) -> str | None:
    """A time (`iso`'s) as the tables show it: UTC to the second, and how long ago."""
    if text is None:
        return None
    at = dt.datetime.fromisoformat(text)
    return f"{at:%Y-%m-%d %H:%M:%S} ({ago(at)} ago)"


def ago(at: dt.datetime) -> str:
    seconds = max(0.0, (dt.datetime.now(dt.UTC) - at).total_seconds())
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f} {unit}"
    return f"{seconds:.0f} s"


def in_seconds(ms: int) -> str:
    """Milliseconds until a key runs out (Redis's PTTL; -1: none)."""
    return f"{ms / 1000:.1f} s" if ms >= 0 else "no expiry"
