"""Mucca Pazza's bots and levels, found by convention (docs/architecture.md): the heuristics
of `mucca_pazza_heuristic`, the two-ply search of `mucca_pazza_expert`, and the hint adviser."""

from __future__ import annotations

from .base import RandomBot
from .levels import Factory
from .mucca_pazza_advice import advise  # the hint adviser, found by convention
from .mucca_pazza_expert import MuccaMaster
from .mucca_pazza_heuristic import (
    ChildBot,
    MemoryBot,
    MuccaBot,
    MuccaNovice,
    MuccaSaver,
    MuccaSharp,
)

BOTS: dict[str, Factory] = {"greedy": MuccaBot, "heuristic": MuccaBot, "memory": MemoryBot,
                            "child": ChildBot, "saver": MuccaSaver}
LEVELS: dict[str, Factory] = {"easy": RandomBot, "normal": MuccaNovice, "hard": MuccaSaver,
                              "expert": MuccaSharp, "master": MuccaMaster}

__all__ = ["BOTS", "LEVELS", "ChildBot", "MemoryBot", "MuccaBot", "MuccaNovice", "MuccaSaver",
           "MuccaSharp", "advise"]
