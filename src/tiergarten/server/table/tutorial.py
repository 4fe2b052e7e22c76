"""Guided first games: a tutorial table is a real table of the real engine (you and gentle
bots, from a fixed seed), with a coach whose steps come from data files (server/table/tutorials/
<id>.json: game, players, options, seed, bots, and steps). A step has an i18n `key`, the moves
it teaches (`allow`: notation prefixes; null: any), and may say:

- `until`: patterns (regular expressions) of the learner's move that ends the step — it waits
  for that move, however many other moves come first; without it any move of the learner's
  ends the step;
- `only`: a pattern narrowing the taught moves further whenever one of them matches it (Mau
  Mau's second-to-last card: only the plays that say "Mau");
- `same`: `[pattern, key]`: when every taught move legal now shares the pattern's first group
  (MammuZ's herd whose animal is fixed: every lay is "as <that animal>"), the coach says `key`
  instead;
- `hold`: the table's bots wait while the step is on (a real-time game: the learner is not
  raced while learning to hit).

While a step is on, the learner's legal moves are only those it teaches (all of them if none
would be left, so a game never sticks); while the learner has no move (another's turn) the
coach says so (`waiting`). After the last step the game goes on freely against the gentle bots.

>>> coach = Coach("maumau", TUTORIALS["maumau"], seat=0)
>>> coach.filter(0, ["play 7h", "draw"]), coach.filter(5, ["play 7h", "draw"])
(['play 7h'], ['play 7h', 'draw'])
>>> coach.filter(4, ["play 7h", "play 7h mau", "draw"])
['play 7h mau']
>>> coach.next_step(4, "play 8h"), coach.next_step(4, "play 7h mau")
(4, 5)
"""

from __future__ import annotations

import json
import re
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


class Coach:
    """The coach of one tutorial table, for the learner's seat; a step is an index into the
    script's steps (`len(steps)`: the script is over)."""

    def __init__(self, tutorial: str, script: dict[str, Any], seat: int = 0) -> None:
        self.tutorial, self.steps, self.seat = tutorial, list(script["steps"]), seat

    def next_step(self, step: int, act: str) -> int:
        """The step after the learner made `act` during `step`: the next one if `act` is the
        move the step waits for (`until`; any move without it), else the same."""
        if step >= len(self.steps):
            return step
        until: list[str] | None = self.steps[step].get("until")
        if until is None or any(re.search(pattern, act) for pattern in until):
            return step + 1
        return step

    def step_of(self, history: Sequence[Any]) -> int:
        """The step reached after `history` (pairs of seat and action)."""
        step = 0
        for who, action in history:
            if who == self.seat:
                step = self.next_step(step, str(action))
        return step

    def allow(self, step: int) -> list[str] | None:
        """What `step` teaches (None: anything, the script is over)."""
        if step >= len(self.steps):
            return None
        allowed: list[str] | None = self.steps[step]["allow"]
        return allowed

    def holds(self, step: int) -> bool:
        """Whether the bots wait while `step` is on."""
        return step < len(self.steps) and bool(self.steps[step].get("hold"))

    def filter(self, step: int, legal: list[str]) -> list[str]:
        allow = self.allow(step)
        if allow is None:
            return legal
        taught = [a for a in legal if any(a.startswith(p) for p in allow)]
        only: str | None = self.steps[step].get("only")
        if only is not None:
            taught = [a for a in taught if re.search(only, a)] or taught
        return taught or legal

    def permits(self, step: int, legal: list[str], act: str) -> bool:
        text = " ".join(act.split())
        return text in self.filter(step, legal) or not any(
            " ".join(a.split()) == text for a in legal)  # an illegal act: the game says why

    def view(self, step: int, legal: list[str]) -> dict[str, Any]:
        """The coach's words at `step`, with `legal` the learner's moves now."""
        shown = min(step, len(self.steps) - 1)
        key: str = self.steps[shown]["key"]
        same = self.steps[shown].get("same")
        taught = self.filter(step, legal) if legal else []
        if same is not None and taught:
            found = [re.search(same[0], a) for a in taught]
            if all(found) and len({m.group(1) for m in found if m}) == 1:
                key = same[1]
        return {"tutorial": self.tutorial, "step": shown, "steps": len(self.steps),
                "key": key, "allow": self.allow(step), "done": step >= len(self.steps),
                "waiting": not legal and step < len(self.steps)}
