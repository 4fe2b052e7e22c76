"""Small option sets that keep every game short in the RL tests."""

from __future__ import annotations

from typing import Any

import tiergarten
from tiergarten.core import game_class

CASES: dict[str, list[dict[str, Any]]] = {
    "maumau": [{"players": 3, "rounds": 1}, {"players": 2, "rounds": 1}],
    "mammuz": [{"players": 3}, {"players": 5}],
    "mucca_pazza": [{"players": 2}, {"players": 3, "variant": "junior"}],
    "lecker_mammut": [{"players": 2, "rounds": 1}, {"players": 3, "rounds": 1}],
}


def turn_based() -> list[str]:
    return [g for g in tiergarten.games() if not game_class(g).info.real_time]


def every_case(ids: list[str]) -> list[tuple[str, dict[str, Any]]]:
    return [(g, kw) for g in ids for kw in CASES[g]]


def case_id(value: Any) -> str:
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items())
    return str(value)
