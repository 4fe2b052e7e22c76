"""Mucca Pazza's heuristic bots, from their seat's observation only.

- `greedy` plays the solver's best standard turn: the first completion that wins the most
  displayed cards within its free slides and stars (the turn ends there), spending a star
  only when it wins more; with nothing to win it makes one random slide and stops. (A
  defensive choice — the slide that leaves the next player least to win — made games between
  two greedy bots stall for thousands of turns.)
- `memory` (junior) remembers every card it has seen revealed, from successive observations
  and their log of public events, and reveals a card it knows it can complete; `child`
  remembers each sighting only with a probability.

On a five-column junior board every animal is at most three slides from complete, so an exact
slider wins every card it reveals (unless its animal is already complete) and memory would be
worth nothing. The junior memory bots are therefore modelled on young players: they spot
solutions of at most `sight` slides (one) and fiddle (slide at random) while they see none.
Every bot plays both variants: in standard all three play greedy; in junior `greedy` slides
exactly but remembers nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tiergarten.core import Action, Game
from tiergarten.core.match import SeatView
from tiergarten.games.mucca_pazza.actions import SLIDES, STOP, slide_action
from tiergarten.games.mucca_pazza.cards import ANIMALS, FREE_SLIDES, GHOST_NAME, animal
from tiergarten.games.mucca_pazza.solver import best_turn, fewest, moves

from .base import Bot

CHILD_RECALL = 0.5  # the chance that the child remembers a card it has seen
NOVICE_RECALL = 0.25  # ... and the novice (the normal level)
YOUNG_SIGHT = 1  # the longest solution the junior bots spot
SHARP_GLIMPSE = 0.5  # the chance that the sharp bot (junior expert) spots two slides ahead
NOVICE_REACH = 2  # standard: the slides a novice looks ahead (and makes) in a turn
_SIGHTINGS = ("reveal",)
_GONE = ("take", "last")


def _rows(obs: dict[str, Any]) -> list[list[int]]:
    board = obs["board"]
    return [[animal(n) for n in board[r]] for r in ("heads", "bodies", "legs")]


class MuccaBot(Bot):
    """Greedy in standard; in junior, reveals what it remembers it can complete."""

    name = "greedy"
    recall = 0.0  # chance of remembering a sighted card (junior)
    sight = FREE_SLIDES  # the longest solution it spots (junior)

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        super().__init__(game, seat, rng)
        self.memory: dict[int, str] = {}  # 0-based grid position -> card name
        self.last_event = -1

    def choose(self, view: SeatView) -> Action | None:
        obs = view.observation
        if obs["variant"] == "junior":
            return self._junior(obs, view.legal)
        return self._standard(obs)

    # -- standard ---------------------------------------------------------------------------

    def _standard(self, obs: dict[str, Any]) -> Action:
        rows = _rows(obs)
        landing = _counts(obs["landing"])
        made = obs["slides_made"]
        gain, _, steps = best_turn(rows, landing, obs["slides_left"], obs["stars"][self.seat],
                                   not made)
        if not gain or not steps:  # nothing to win, or (rules 1) it stands complete: stop
            return STOP if made else self.rng.choice(SLIDES)
        return slide_action(*steps[0])  # the turn ends by itself at the completion

    # -- junior -----------------------------------------------------------------------------

    def _junior(self, obs: dict[str, Any], legal: Sequence[Action]) -> Action:
        self._remember(obs)
        rows = _rows(obs)
        if obs["phase"] == "slide":
            targets = [animal(a) for a in obs["targets"]]
            cost, offsets = fewest(rows, targets)
            if cost > min(obs["slides_left"], self.sight):
                return self.rng.choice(SLIDES)  # no solution in sight: fiddle and look again
            return slide_action(*moves(offsets, len(rows[0]))[0])
        return self._pick(rows, legal)

    def _pick(self, rows: list[list[int]], legal: Sequence[Action]) -> Action:
        """A known card that can be completed now, else an unknown one, else the nearest."""
        known, unknown = [], []
        for action in legal:
            card = self.memory.get(action.position)  # type: ignore[attr-defined]
            if card is None:
                unknown.append(action)
            else:
                known.append((self._cost(rows, card), self.rng.random(), action))
        known.sort(key=lambda k: (k[0], k[1]))
        if known and known[0][0] <= self.sight:
            return known[0][2]
        if unknown:
            return self.rng.choice(unknown)
        return known[0][2]

    @staticmethod
    def _cost(rows: list[list[int]], card: str) -> int:
        """Slides needed to win `card` now (a card of a complete animal: worst)."""
        board_animals = rows[0]
        complete = {a for a in board_animals if rows[1][rows[0].index(a)] == a ==
                    rows[2][rows[0].index(a)]}
        wanted = ([a for a in board_animals if a not in complete] if card == GHOST_NAME
                  else [animal(card)] if animal(card) not in complete else [])
        if not wanted:
            return 99
        return fewest(rows, wanted)[0]

    def _remember(self, obs: dict[str, Any]) -> None:
        """Take in every public event since the last look (a new game forgets everything)."""
        log = obs["log"]
        if log and log[-1]["n"] < self.last_event:
            self.memory.clear()
            self.last_event = -1
        for event in log:
            if event["n"] <= self.last_event:
                continue
            if event["act"] in _SIGHTINGS and self.rng.random() < self.recall:
                self.memory[event["position"] - 1] = event["card"]
            elif event["act"] in _GONE:
                self.memory.pop(event["position"] - 1, None)
        if log:
            self.last_event = log[-1]["n"]
        for p, card in enumerate(obs["grid"]):
            if card == "taken":
                self.memory.pop(p, None)


class MemoryBot(MuccaBot):
    """Junior with perfect memory of every card revealed; spots one-slide solutions."""

    name = "memory"
    recall = 1.0
    sight = YOUNG_SIGHT


class ChildBot(MuccaBot):
    """Junior remembering each sighted card with probability `CHILD_RECALL`; sight one."""

    name = "child"
    recall = CHILD_RECALL
    sight = YOUNG_SIGHT


def _counts(names: list[str]) -> list[int]:
    counts = [0] * len(ANIMALS)
    for name in names:
        counts[animal(name)] += 1
    return counts


class MuccaNovice(MuccaBot):
    """The normal level. Standard: the greedy turn without stars, seeing only two slides
    ahead (it stops after two). Junior: remembers one sighted card in four, sight one."""

    name = "novice"
    recall = NOVICE_RECALL
    sight = YOUNG_SIGHT
    reach = NOVICE_REACH

    def _standard(self, obs: dict[str, Any]) -> Action:
        left = self.reach - obs["slides_made"]
        if left <= 0:
            return STOP
        return super()._standard({**obs, "stars": [0] * len(obs["stars"]),
                                  "slides_left": min(obs["slides_left"], left)})


class MuccaSaver(MuccaBot):
    """The hard level. Standard: the greedy turn that never spends a star (stars buy extra
    slides: the greedy bot's edge). Junior: perfect memory, sight one (`memory`)."""

    name = "saver"
    recall = 1.0
    sight = YOUNG_SIGHT

    def _standard(self, obs: dict[str, Any]) -> Action:
        return super()._standard({**obs, "stars": [0] * len(obs["stars"])})


class MuccaSharp(MuccaBot):
    """The expert level. Standard: greedy. Junior: perfect memory, and a solution of two
    slides is spotted one time in two (else only one of one slide)."""

    name = "sharp"
    recall = 1.0
    glimpse = SHARP_GLIMPSE

    @property
    def sight(self) -> int:  # type: ignore[override]
        return YOUNG_SIGHT + (self.rng.random() < self.glimpse)
