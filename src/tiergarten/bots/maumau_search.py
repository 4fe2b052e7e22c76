"""What the Mau Mau search levels add to ISMCTS: a match-aware evaluation, pruning and a fast
rollout policy.

A match is won by points (the first to `target_score`), not by going out once: the seat that
goes out scores every card the others still hold. So a rollout stops at the end of the round
(or after `depth` steps) and every seat is paid its chance of winning the match from the
scores then (`MatchOdds`), not a plain win or loss of the round. A rollout cut short is judged
by who is likely to go out first (fewer cards, more likely) and what that seat would score:
the cards the others hold in the sampled world.

Everything here runs inside a sampled world (`view.resample`), never on the real state: the
rollout policy plays each seat from that seat's hand in that world and the public table, as
the heuristic does.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from tiergarten.core import Action, Game, State
from tiergarten.games.maumau.actions import CATCH_KIND, PASS_KIND, PLAY_KIND, MauMauAction
from tiergarten.games.maumau.cards import DECK, EIGHT, JACK, NINE, RANK_OF, SEVEN, SUIT_OF, VALUE_OF
from tiergarten.games.maumau.state import MauMauState

from .ismcts import win_shares

DEPTH = 30  # rollout steps before a position is judged without playing the round out
HAND_WEIGHT = 0.35  # how strongly one card fewer counts towards going out first
# What a round's winner scores per opponent (2-player matches between heuristics, 3,037
# rounds, in buckets of 10 points): (points, share)
ROUND_POINTS = ((5, .054), (15, .241), (25, .237), (35, .167), (45, .121), (55, .073),
                (65, .045), (75, .028), (85, .018), (95, .007), (105, .004), (115, .002),
                (125, .002))
GRID = 40  # the odds tables are kept in steps of about target / GRID points (at least 5)


def _gains(opponents: int, step: int) -> list[tuple[int, float]]:
    """The points of one round, in steps, with their chances (the bucket table scaled by the
    number of hands that pay)."""
    total = sum(w for _, w in ROUND_POINTS)
    return [(max(1, round(p * opponents / step)), w / total) for p, w in ROUND_POINTS]


@lru_cache(maxsize=32)
def race(target_steps: int, opponents: int, step: int) -> tuple[tuple[float, ...], ...]:
    """odds[a][b]: the chance that a player still needing `a` steps of points reaches the
    target before one needing `b`, each round won by either with even chances."""
    gains = _gains(opponents, step)
    top = target_steps
    odds = [[0.0] * (top + 1) for _ in range(top + 1)]
    for total in range(2, 2 * top + 1):
        for a in range(max(1, total - top), min(top, total - 1) + 1):
            b = total - a
            v = 0.0
            for x, w in gains:
                v += w * ((1.0 if x >= a else odds[a - x][b]) + (0.0 if x >= b else odds[a][b - x]))
            odds[a][b] = v / 2
    return tuple(tuple(row) for row in odds)


@lru_cache(maxsize=32)
def lead_odds(rounds: int, opponents: int, step: int) -> tuple[dict[int, float], ...]:
    """odds[k][d]: the chance of finishing ahead with a lead of `d` steps and `k` rounds to
    play (a tie counts half), each round won by either with even chances."""
    gains = _gains(opponents, step)
    span = rounds * max(x for x, _ in gains) + 1
    table = [{d: 1.0 if d > 0 else 0.5 if d == 0 else 0.0 for d in range(-span, span + 1)}]
    for _ in range(rounds):
        last = table[-1]

        def at(d: int, last: dict[int, float] = last) -> float:
            return last[max(-span, min(span, d))]
        table.append({d: sum(w * (at(d + x) + at(d - x)) for x, w in gains) / 2
                      for d in range(-span, span + 1)})
    return tuple(table)


class MatchOdds:
    """Each seat's chance of winning the match from the scores after a round.

    Two seats: an exact race between even players over the table of round points. More
    seats: each seat's pairwise chances multiplied and normalised (a close approximation)."""

    def __init__(self, game: Game) -> None:
        options = game.options
        self.players = game.players
        self.rounds: int | None = options["rounds"]
        self.target: int = options["target_score"]
        base = self.target if self.rounds is None else 40 * self.rounds
        self.step = max(5, -(-base // GRID))

    def odds(self, scores: Sequence[int], round_no: int) -> list[float]:
        """Per seat, from the scores once round `round_no` has ended."""
        n = self.players
        pair = self._pair_rounds(round_no) if self.rounds is not None else self._pair_target()
        if n == 2:
            p = pair(scores[0], scores[1])
            return [p, 1.0 - p]
        weights = [math.prod(pair(scores[i], scores[j]) for j in range(n) if j != i)
                   for i in range(n)]
        total = sum(weights)
        return [w / total for w in weights] if total > 0 else [1.0 / n] * n

    def _pair_target(self) -> Any:
        step = self.step
        top = -(-self.target // step)
        table = race(top, self.players - 1, step)

        def pair(a: int, b: int) -> float:
            need_a = max(1, -(-(self.target - a) // step))
            need_b = max(1, -(-(self.target - b) // step))
            return float(table[min(top, need_a)][min(top, need_b)])
        return pair

    def _pair_rounds(self, round_no: int) -> Any:
        assert self.rounds is not None
        left = max(0, self.rounds - round_no)
        table = lead_odds(self.rounds, self.players - 1, self.step)[left]
        span = max(table)

        def pair(a: int, b: int) -> float:
            return table[max(-span, min(span, round((a - b) / self.step)))]
        return pair


class MatchRound:
    """Rollouts to the end of the round or `depth` steps, paid by match odds (see above)."""

    def __init__(self, game: Game, depth: int = DEPTH) -> None:
        self.depth = depth
        self.match = MatchOdds(game)

    def begin(self, state: State) -> Any:
        return state.round  # type: ignore[attr-defined]

    def is_done(self, state: State, start: Any, steps: int) -> bool:
        return state.round != start or steps >= self.depth  # type: ignore[attr-defined]

    def values(self, state: State, start: Any) -> Sequence[float]:
        assert isinstance(state, MauMauState)
        if state.over:
            return win_shares(state)
        if state.round != start:
            return self.match.odds(state.scores, start)
        masks = state.masks
        held = [_points(m) for m in masks]
        total = sum(held)
        weights = [math.exp(-HAND_WEIGHT * m.bit_count()) for m in masks]
        norm = sum(weights)
        out = [0.0] * len(masks)
        for winner, weight in enumerate(weights):
            scores = list(state.scores)
            scores[winner] += total - held[winner]
            for seat, p in enumerate(self.match.odds(scores, start)):
                out[seat] += weight / norm * p
        return out


def _points(mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += VALUE_OF[low.bit_length() - 1]
        mask ^= low
    return total


# -- pruning --------------------------------------------------------------------------------

_PRUNED: dict[Sequence[Action], tuple[Action, ...]] = {}


def prune(legal: Sequence[Action]) -> tuple[Action, ...]:
    """`legal` without the plays that forget Mau (or Mau Mau) where the same play with the
    call is legal: forgetting only risks a penalty. (The engine interns its legal tuples, so
    the cache stays small.)"""
    out = _PRUNED.get(legal)
    if out is None:
        called = {(a.card, a.suit) for a in legal  # type: ignore[attr-defined]
                  if a.kind == PLAY_KIND and a.call}  # type: ignore[attr-defined]
        out = tuple(a for a in legal if not (
            a.kind == PLAY_KIND and not a.call  # type: ignore[attr-defined]
            and (a.card, a.suit) in called))  # type: ignore[attr-defined]
        _PRUNED[legal] = out
    return out


# -- rollouts ---------------------------------------------------------------------------------

_SUIT = tuple(sum(1 << c for c in DECK if SUIT_OF[c] == s) for s in range(4))
_JACKS = sum(1 << c for c in DECK if RANK_OF[c] == JACK)
_STOPPERS = (SEVEN, EIGHT, NINE)


def greedy_policy(state: State, seat: int, legal: Sequence[Action],
                  rng: random.Random) -> Action:
    """The heuristic's taste, cheaply, from `seat`'s hand in the sampled world and the public
    table: catch; play rather than draw; shed high cards and keep suits together; keep Jacks
    for the end (a freshly drawn one too); aim 7s, 8s and 9s at a player about to go out;
    always call Mau. Ties are broken at random."""
    if len(legal) == 1:
        return legal[0]
    legal = prune(legal)
    if len(legal) == 1:
        return legal[0]
    assert isinstance(state, MauMauState)
    hand = state.masks[seat]
    size = hand.bit_count()
    threat = state.masks[(seat + state.direction) % state._n].bit_count() <= 2
    # between two a 9 stops the other player only under the house rule (two_player_nine)
    skips = state.game.options["two_player_nine"] == "skip"
    stoppers = _STOPPERS if state._n > 2 or skips else _STOPPERS[:2]
    best, best_score = legal[0], -math.inf
    for a in legal:
        assert isinstance(a, MauMauAction)
        kind = a.kind
        if kind == CATCH_KIND:
            return a
        if kind != PLAY_KIND:
            score = -5.0
            if kind == PASS_KIND and size > 2 and state.drawn >= 0 and RANK_OF[state.drawn] == JACK:
                score = 1000.0  # keep a freshly drawn Jack
        else:
            c = a.card
            rank = RANK_OF[c]
            rest = hand & ~(1 << c) & ~_JACKS
            if rank == JACK:
                score = (-50.0 if size > 2 else 20.0) + (rest & _SUIT[a.suit]).bit_count()
            else:
                score = VALUE_OF[c] + 2.0 * (rest & _SUIT[SUIT_OF[c]]).bit_count()
                if threat and rank in stoppers:
                    score += 40.0
                elif rank == SEVEN:
                    score += 5.0
            score += 100.0
        score += rng.random()
        if score > best_score:
            best, best_score = a, score
    return best


__all__ = ["DEPTH", "MatchOdds", "MatchRound", "greedy_policy", "prune", "race"]
