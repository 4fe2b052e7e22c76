"""Mucca Pazza standard at expert level: the greedy turn, minus what it leaves the next player.

The greedy bot (`MuccaBot`) plays the turn that wins the most displayed cards now and ignores
the board it leaves. `MuccaExpert` looks one turn further (two plies). For every end of its
turn it can reach — every stop or first completion within its free slides, and every first
completion that wins cards with stars as well (the turn ends at a completion; the solver's
search, `Positions`, finds them all) — it scores

    cards won now + `STAR_VALUE` per star kept
                  − `REPLY_WEIGHT` × the cards the next player is expected to win on that board

The next player's turn is solved exactly (its best first completion within its three free
slides and its stars, at least one slide: an animal left complete is remade by sliding there
and back) on the landing place that remains, refilled from the cards nobody has seen yet. The
refills are sampled (`SAMPLES` draws of the unseen cards, the same draws for every candidate,
so the candidates are compared on equal terms); the unseen cards are known as a multiset from
the observation — every animal has three cards, and the displayed and won ones are public —
only their order is hidden. On the last turn of the game no one moves after it and the turn is
the greedy one (ties by stars kept).

The turn is planned once, at its first slide, and then followed slide by slide (re-planned if
the board is not the one expected); a plan that ends in a completion ends the turn by itself,
one that ends elsewhere stops there. After `QUIET_TURNS` turns in a row that won nothing (both
sides denying), it plays the greedy turn until a card is won, so games do not stall. The
weights were tuned against greedy (docs/bots.md). In junior the expert plays as `MuccaBot`.

>>> import random, tiergarten
>>> from tiergarten.core.match import SeatView
>>> state = tiergarten.load("mucca_pazza").new_state(seed=3)
>>> bot = MuccaExpert(state.game, 0, random.Random(1))
>>> str(bot.choose(SeatView(state, 0, state.legal_actions(0))))[:6]
'slide '
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tiergarten.core import Action, Game
from tiergarten.games.mucca_pazza.actions import STOP, slide_action
from tiergarten.games.mucca_pazza.board import slide
from tiergarten.games.mucca_pazza.cards import (
    ANIMALS,
    CARDS_PER_ANIMAL,
    FREE_SLIDES,
    LANDING_SIZE,
    animal,
)
from tiergarten.games.mucca_pazza.solver import Offsets, Positions

from .mucca_pazza_heuristic import MuccaBot, _counts, _rows

SAMPLES = 16  # refills drawn per decision
STAR_VALUE = 1.0  # a star kept, in cards (a star spent for one card is no gain)
LAST_STAR_VALUE = 0.01  # on the game's last turn a star only breaks ties
REPLY_WEIGHT = 0.6  # how much a card the next player wins counts against one won now
QUIET_TURNS = 4  # turns in a row that won nothing, after which the expert takes what it can

Rows = list[list[int]]


def shifted(rows: Sequence[Sequence[int]], offsets: Offsets) -> Rows:
    """The board after shifting each row right by its offset (cyclically)."""
    out = []
    for row, o in zip(rows, offsets, strict=True):
        o %= len(row)
        out.append(list(row[-o:]) + list(row[:-o]) if o else list(row))
    return out


def unseen(obs: dict[str, Any]) -> list[int]:
    """The cards not on display and not won: the pile, as a multiset (its order is hidden)."""
    left = [CARDS_PER_ANIMAL] * len(ANIMALS)
    for name in obs["landing"]:
        left[animal(name)] -= 1
    for won in obs["won"]:
        for name in won:
            left[animal(name)] -= 1
    return [a for a, k in enumerate(left) for _ in range(k)]


def candidates(rows: Sequence[Sequence[int]], landing: Sequence[int], free: int, stars: int,
               must_slide: bool) -> list[tuple[Offsets, int]]:
    """Every end of turn worth weighing: (offsets, slides). Every end within the free slides
    (a stop, or a first completion), and the completions beyond them (stars) that win cards."""
    board = Positions(rows)
    ends, depth, _ = board.search(0, free + stars, must_slide)
    return [(board.offsets(p), depth[p]) for p in _worth(board, ends, depth, landing, free)]


def _worth(board: Positions, ends: list[int], depth: list[int], landing: Sequence[int],
           free: int) -> list[int]:
    """The ends of a search that `candidates` keeps: within the free slides, or winning cards."""
    return [p for p in ends if depth[p] <= free or any(landing[a] for a in board.done[p])]


def quiet(log: Sequence[dict[str, Any]]) -> int:
    """How many turns in a row (the latest ones in `log`) won no card."""
    count = 0
    for event in reversed(log):
        if event["act"] == "score":
            if event["cards"]:
                break
            count += 1
    return count


class MuccaExpert(MuccaBot):
    """Two plies in standard: the cards won now against the next player's expected reply."""

    name = "expert"
    samples = SAMPLES
    star_value = STAR_VALUE
    reply_weight = REPLY_WEIGHT

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        super().__init__(game, seat, rng)
        self._plan: list[tuple[int, int]] = []
        self._expect: list[Rows] = []  # the board expected at each later decision

    def _standard(self, obs: dict[str, Any]) -> Action:
        if quiet(obs["log"]) >= QUIET_TURNS:  # both sides deny: play greedy till a card is won
            self._plan, self._expect = [], []
            return super()._standard(obs)
        rows = _rows(obs)
        made = obs["slides_made"]
        if made and self._expect and self._expect[0] == rows:
            self._expect.pop(0)
            return slide_action(*self._plan.pop(0)) if self._plan else STOP
        steps = self.plan(obs)
        self._plan, self._expect = steps, []
        board = [r.copy() for r in rows]
        for row, direction in steps:
            self._expect.append([r.copy() for r in board])
            slide(board, row, direction)
        self._expect.append(board)
        self._expect.pop(0)
        if not steps:
            return STOP
        return slide_action(*self._plan.pop(0))

    def plan(self, obs: dict[str, Any]) -> list[tuple[int, int]]:
        """The slides of the best end of this turn."""
        rows = _rows(obs)
        landing = _counts(obs["landing"])
        me = self.seat
        free, stars, made = obs["slides_left"], obs["stars"][me], obs["slides_made"]
        players = obs["players"]
        final = obs["final_round"]
        last = final is not None and final <= 1
        nxt = (me + 1) % players
        opp_budget = FREE_SLIDES + obs["stars"][nxt]
        pile = unseen(obs)
        draws = []
        if not last and pile:
            for _ in range(self.samples):
                order = pile.copy()
                self.rng.shuffle(order)
                draws.append(order)
        star_value = LAST_STAR_VALUE if last else self.star_value
        board = Positions(rows)
        ends, depth, parent = board.search(0, free + stars, not made)
        best: tuple[float, int, int] | None = None
        best_end = 0
        for p in _worth(board, ends, depth, landing, free):
            done, c = board.done[p], depth[p]
            gain = sum(landing[a] for a in done)
            spent = max(0, c - free)
            value = gain + star_value * (stars - spent)
            if not last:
                left = landing.copy()
                for a in done:
                    left[a] = 0
                value -= self.reply_weight * self._reply(board, p, left, draws, opp_budget)
            key = (value, -spent, -c)
            if best is None or key > best:
                best, best_end = key, p
        if best is None:  # no slide left and none demanded
            return []
        return board.steps(best_end, depth, parent)

    def _reply(self, board: Positions, start: int, left: list[int], draws: list[list[int]],
               budget: int) -> float:
        """The next player's expected best gain from position `start` with `left` refilled:
        the best of its first completions within `budget` slides."""
        ends, _, _ = board.search(start, budget, True)
        opts = {board.done[p] for p in ends if board.done[p]}
        if not opts:
            return 0.0
        need = LANDING_SIZE - sum(left)
        if not draws or need <= 0:
            return float(max(sum(left[a] for a in animals) for animals in opts))
        total = 0
        for order in draws:
            shown = left.copy()
            for a in order[:need]:
                shown[a] += 1
            total += max(sum(shown[a] for a in animals) for animals in opts)
        return total / len(draws)


class MuccaMaster(MuccaExpert):
    """The master level: two plies in standard; in junior the exact slider with a perfect
    memory (it wins every playable card it reveals, and reveals a card it knows first)."""

    name = "master"
    recall = 1.0


__all__ = ["MuccaExpert", "MuccaMaster", "candidates", "shifted", "unseen"]
