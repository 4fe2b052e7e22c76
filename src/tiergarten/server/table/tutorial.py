"""Guided first games: a tutorial table is a real table of the real engine (you and gentle
bots, from a fixed seed), with a coach whose steps come from data files (server/table/tutorials/
<id>.json: game, players, options, seed, bots, and steps with an i18n key and the moves they
allow). While a step is on, the learner's legal moves are only those it teaches (notations
starting with one of `allow`; all of them if none would be left, so a game never sticks);
after the last step the game goes on freely against the gentle bots.

>>> coach = Coach("maumau", TUTORIALS["maumau"], seat=0)
>>> coach.filter(0, ["play 7h", "draw"]), coach.filter(2, ["play 7h", "draw"])
(['play 7h'], ['play 7h', 'draw'])
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tiergarten.core.registry import game_class

HERE = Path(__file__).resolve().parent / "tutorials"


def _load() -> dict[str, dict[str, Any]]:
    """Every tutorial by id, each game's in turn, the one of its usual rules first (Mucca
    Pazza's standard before its junior variant)."""
    found = [(path.stem, json.loads(path.read_text(encoding="utf-8")))
             for path in HERE.glob("*.json")]
    return dict(sorted(found, key=lambda item: (item[1]["game"], _unusual(item[1]), item[0])))


def _unusual(script: dict[str, Any]) -> bool:
    """Whether a tutorial plays a variant: an option that the game has a choice of, changed."""
    info = game_class(script["game"]).info
    return any(o.choices is not None and script["options"].get(o.name, o.default) != o.default
               for o in info.options)


TUTORIALS = _load()


def moves_made(history: Sequence[Any], seat: int) -> int:
    return sum(1 for who, _action in history if who == seat)


class Coach:
    """The coach of one tutorial table, for the learner's seat."""

    def __init__(self, tutorial: str, script: dict[str, Any], seat: int = 0) -> None:
        self.tutorial, self.steps, self.seat = tutorial, list(script["steps"]), seat

    def allow(self, made: int) -> list[str] | None:
        """What the step after `made` moves teaches (None: anything, the script is over)."""
        if made >= len(self.steps):
            return None
        allowed: list[str] | None = self.steps[made]["allow"]
        return allowed

    def filter(self, made: int, legal: list[str]) -> list[str]:
        allow = self.allow(made)
        if allow is None:
            return legal
        taught = [a for a in legal if any(a.startswith(p) for p in allow)]
        return taught or legal

    def permits(self, made: int, legal: list[str], act: str) -> bool:
        text = " ".join(act.split())
        return text in self.filter(made, legal) or not any(
            " ".join(a.split()) == text for a in legal)  # an illegal act: the game says why

    def view(self, made: int) -> dict[str, Any]:
        step = min(made, len(self.steps) - 1)
        return {"tutorial": self.tutorial, "step": step, "steps": len(self.steps),
                "key": self.steps[step]["key"], "allow": self.allow(made),
                "done": made >= len(self.steps)}
