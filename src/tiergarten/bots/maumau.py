"""Mau Mau bots and levels, from their seat's observation only.

- `heuristic` (level `expert`) plays to win: it sheds high-value cards first, keeps a Jack as
  an escape, answers 7s with 7s, aims 7/8/9 at a player about to go out, always says Mau, and
  always catches.
- `hard` and `normal` are that heuristic forgetting to say Mau one time in five (`careless`)
  and one time in two (`novice`): a forgotten Mau can be caught, which costs cards.
- `master` searches (ISMCTS, `bots/maumau_search.py`) guarded by the heuristic: match-aware
  rollouts and worlds weighted by what the others' draws showed (`bots/maumau_belief.py`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tiergarten.core import Action, Game
from tiergarten.core.match import Proposal, SeatView
from tiergarten.games.maumau.actions import CATCH_KIND, PLAY_KIND, MauMauAction, play
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
    forget = 0.0  # the chance of forgetting to call Mau (or Mau Mau) when it is due

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
        best = max(plays, key=lambda a: self._score(a, hand, obs))
        if best.call and self.forget and self.rng.random() < self.forget:
            return play(best.card, best.suit)  # the same card, without the call
        return best

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
        if len(sizes) == 2:  # a reversal changes nothing between two, unless a 9 skips
            return bool(self.game.options["two_player_nine"] == "skip")
        return sizes[(self.seat - int(obs["direction"])) % len(sizes)] > 2


def _tracker(game: Game, seat: int) -> Tracker:
    return Tracker(seat, game.players, game.options["jack_on_jack"])


class MauMauCareless(MauMauHeuristic):
    """The heuristic, but it forgets to call Mau one time in five."""

    name = "careless"
    forget = 0.2


class MauMauNovice(MauMauHeuristic):
    """The heuristic, but it forgets to call Mau one time in two."""

    name = "novice"
    forget = 0.5


MASTER_ITERATIONS = 400  # per move once a hand is down to LATE cards; fewer before


def master_budget(obs: dict[str, Any]) -> int:
    """Iterations for a move: the whole budget once some hand holds 3 cards or fewer (the
    round is being decided), half with 4 or 5, a quarter before."""
    smallest = min(obs["hand_sizes"])
    if smallest <= 3:
        return MASTER_ITERATIONS
    return MASTER_ITERATIONS // (2 if smallest <= 5 else 4)


BOTS: dict[str, Factory] = {"heuristic": MauMauHeuristic}
LEVELS: dict[str, Factory] = {
    "easy": RandomBot,
    "normal": MauMauNovice,
    "hard": MauMauCareless,
    "expert": MauMauHeuristic,
    "master": searching(MASTER_ITERATIONS, MauMauHeuristic, evaluator=search.MatchRound,
                        prune=search.prune, rollouts=search.greedy_policy, belief=_tracker,
                        budget=master_budget),
}
