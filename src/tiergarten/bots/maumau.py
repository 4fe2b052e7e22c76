"""Mau Mau bots and levels, from their seat's observation only.

- `heuristic` (level `hard`) plays to win: it sheds high-value cards first, keeps a Jack as an
  escape, answers 7s with 7s, aims 7/8/9 at a player about to go out, always says Mau, and
  always catches.
- `beginner` (level `normal`) plays any card that fits, at random, and draws only when nothing
  fits; it names the suit it holds most of, says Mau and catches.
- `expert` and `master` search (ISMCTS, `bots/maumau_search.py`): match-aware rollouts, and for
  `master` worlds weighted by what the others' draws showed (`bots/maumau_belief.py`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tiergarten.core import Action, Game
from tiergarten.core.match import Proposal, SeatView
from tiergarten.games.maumau.actions import CATCH_KIND, PLAY_KIND, MauMauAction
from tiergarten.games.maumau.cards import (
    EIGHT,
    JACK,
    NINE,
    RANK_OF,
    SEVEN,
    SUIT_OF,
    VALUE_OF,
    card,
)

from . import maumau_search as search
from .base import Bot, RandomBot
from .levels import Factory, searching
from .maumau_belief import Tracker

CATCH_DELAY = 0.1  # quick to spot a missing Mau


class MauMauHeuristic(Bot):
    name = "heuristic"

    def propose(self, view: SeatView) -> Proposal | None:
        action = self.choose(view)
        if action is None:
            return None
        return (CATCH_DELAY if action.kind == CATCH_KIND else self.think, action)  # type: ignore[attr-defined]

    def choose(self, view: SeatView) -> Action | None:
        legal: tuple[MauMauAction, ...] = view.legal  # type: ignore[assignment]
        for action in legal:
            if action.kind == CATCH_KIND:
                return action
        plays = [a for a in legal if a.kind == PLAY_KIND]
        rest = [a for a in legal if a.kind != PLAY_KIND]
        obs = view.observation
        hand = [card(n) for n in obs["hand"]]
        if obs["drawn"] is not None and plays and RANK_OF[plays[0].card] == JACK and len(hand) > 2:
            return rest[0]  # a freshly drawn Jack is worth keeping as an escape
        if not plays:
            return rest[0]
        return max(plays, key=lambda a: self._score(a, hand, obs))

    def _score(self, action: MauMauAction, hand: list[int], obs: dict[str, Any]) -> float:
        c = action.card
        rank = RANK_OF[c]
        suits = Counter(SUIT_OF[h] for h in hand if h != c and RANK_OF[h] != JACK)
        score = float(VALUE_OF[c]) + 2 * suits[SUIT_OF[c]] + 100 * action.call
        if rank == JACK:
            score = -50 + 100 * action.call if len(hand) > 2 else score
            score += suits[action.suit]  # name the suit we hold most of
        elif self._threatened(obs) and rank in (SEVEN, EIGHT, NINE):
            score += 40 if rank != NINE or self._reverse_helps(obs) else 0
        elif rank == SEVEN:
            score += 5
        return score

    def _threatened(self, obs: dict[str, Any]) -> bool:
        sizes: list[int] = obs["hand_sizes"]
        return sizes[(self.seat + int(obs["direction"])) % len(sizes)] <= 2

    def _reverse_helps(self, obs: dict[str, Any]) -> bool:
        sizes: list[int] = obs["hand_sizes"]
        return len(sizes) == 2 or sizes[(self.seat - int(obs["direction"])) % len(sizes)] > 2


class MauMauBeginner(Bot):
    """Any card that fits, at random; a Jack names the suit held most; says Mau, catches."""

    name = "beginner"

    def propose(self, view: SeatView) -> Proposal | None:
        action = self.choose(view)
        if action is None:
            return None
        return (CATCH_DELAY if action.kind == CATCH_KIND else self.think, action)  # type: ignore[attr-defined]

    def choose(self, view: SeatView) -> Action | None:
        legal: tuple[MauMauAction, ...] = search.prune(view.legal)  # type: ignore[assignment]
        for action in legal:
            if action.kind == CATCH_KIND:
                return action
        plays = [a for a in legal if a.kind == PLAY_KIND]
        if not plays:
            return legal[0]
        hand = [card(n) for n in view.observation["hand"]]
        suits = Counter(SUIT_OF[h] for h in hand if RANK_OF[h] != JACK)
        c = self.rng.choice(sorted({a.card for a in plays}))
        return max((a for a in plays if a.card == c), key=lambda a: suits[a.suit])


def _tracker(game: Game, seat: int) -> Tracker:
    return Tracker(seat, game.players, game.options["jack_on_jack"])


EXPERT_ITERATIONS = 200
MASTER_ITERATIONS = 400

BOTS: dict[str, Factory] = {"heuristic": MauMauHeuristic, "beginner": MauMauBeginner}
LEVELS: dict[str, Factory] = {
    "easy": RandomBot,
    "normal": MauMauBeginner,
    "hard": MauMauHeuristic,
    "expert": searching(EXPERT_ITERATIONS, MauMauHeuristic, evaluator=search.MatchRound,
                        prune=search.prune),
    "master": searching(MASTER_ITERATIONS, MauMauHeuristic, evaluator=search.MatchRound,
                        prune=search.prune, rollouts=search.greedy_policy, belief=_tracker),
}
