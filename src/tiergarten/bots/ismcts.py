"""Information-set Monte Carlo tree search (single-observer ISMCTS) over any registered game.

The bot sees only its `SeatView`. Each iteration draws one full state the seat cannot tell from
the real one (`view.resample(rng)`: the other hands, the stock and every other hidden part are
sampled, never read), walks the shared tree down that *determinization* choosing actions by UCB
among those legal in it, adds one node, plays on with a rollout policy, and backs the outcome up.
Nodes are keyed by (seat, action), so one tree gathers statistics over every sampled world; an
edge's exploration term counts how often it was *available*, not how often its parent was
visited (Cowling, Powley & Whitehouse 2012).

Several seats may act at once (`to_move()` holds more than one: catching a missed Mau,
extinguishing in MammuZ). Inside the search the acting seat is then drawn uniformly from those
seats with the search's rng — a chance event, like a race whose winner is unknown. At the root
the seat is always the bot's own, with the legal actions of its view.

Rollouts run to the end of the game unless an `Evaluator` stops them earlier (at the end of a
round, say) and scores the position; the default scores a finished game by win shares (1 to a
lone winner, 1/k to each of k tied winners, 0 otherwise). Rewards are per seat in [0, 1]; each
edge keeps the reward of the seat that took it, so every seat is assumed to play for itself.

The budget is a number of iterations (repeatable: the same rng gives the same move) or seconds
per move (not repeatable), or both — whichever runs out first.

>>> import random, tiergarten
>>> game = tiergarten.load("maumau", players=2, rounds=1)
>>> state = game.new_state(seed=4)
>>> bot = ISMCTSBot(game, state.to_move()[0], random.Random(1), Search(iterations=40))
>>> from tiergarten.core.match import SeatView
>>> seat = state.to_move()[0]
>>> action = bot.choose(SeatView(state, seat, state.legal_actions(seat)))
>>> action in state.legal_actions(seat), bot.stats.iterations
(True, 40)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from tiergarten.core import Action, Game, State
from tiergarten.core.match import Proposal, SeatView

from .base import Bot

QUICK = 0.1  # seconds before an out-of-turn action (as quick as the heuristics)

Policy = Callable[[State, int, Sequence[Action], random.Random], Action]
Prune = Callable[[Sequence[Action]], Sequence[Action]]
Budget = Callable[[dict[str, Any]], int]  # iterations for a move, from the seat's observation


def random_policy(state: State, seat: int, legal: Sequence[Action],
                  rng: random.Random) -> Action:
    """The default rollout policy: any legal action, uniformly."""
    return legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]


class Evaluator(Protocol):
    """Where a rollout stops and what the position is worth to each seat (in [0, 1])."""

    def begin(self, state: State) -> Any:
        """Remember what the evaluation needs from the state the rollout starts from."""

    def is_done(self, state: State, start: Any, steps: int) -> bool:
        """True when the rollout should stop here (checked after every step)."""

    def values(self, state: State, start: Any) -> Sequence[float]:
        """Per-seat rewards in [0, 1] of a stopped or finished rollout."""


def win_shares(state: State) -> list[float]:
    """Per seat: 1/k if it is one of k winners of the finished `state`, else 0."""
    winners = state.result().winners
    shares = [0.0] * state.game.players
    for seat in winners:
        shares[seat] = 1.0 / len(winners)
    return shares


class ToTheEnd:
    """The default evaluator: rollouts play the game out; a finished game pays win shares.

    `max_steps` bounds a rollout: one cut short scores every seat alike (1/players).
    """

    def __init__(self, max_steps: int = 5000) -> None:
        self.max_steps = max_steps

    def begin(self, state: State) -> Any:
        return None

    def is_done(self, state: State, start: Any, steps: int) -> bool:
        return steps >= self.max_steps

    def values(self, state: State, start: Any) -> Sequence[float]:
        if state.is_over():
            return win_shares(state)
        return [1.0 / state.game.players] * state.game.players


@dataclass(frozen=True)
class Search:
    """How hard to think: a budget (iterations and/or seconds per move), the UCB constant `c`,
    the rollout policy and where rollouts stop (`evaluator`, default: the end of the game)."""

    iterations: int | None = 200
    seconds: float | None = None
    c: float = 0.7
    policy: Policy = random_policy
    evaluator: Evaluator | None = None
    guard: float | None = None  # see ISMCTS.best: keep a default move unless clearly beaten
    widening: float | None = None  # progressive widening: at most 2 (visits + 1) ** widening
    # children per node, so a node with hundreds of actions (MammuZ lays) is searched deeply
    # among a few rather than once each
    prune: Prune | None = None  # drops dominated actions (say, a play that forgets to call
    # Mau when the same play with the call is legal) at the root and inside the tree

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a search needs a budget: iterations, seconds or both")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {self.iterations!r}")


class _Edge:
    """An action of one seat and the node it leads to: visits, reward sum, availability."""

    __slots__ = ("action", "seat", "visits", "reward", "available", "children")

    def __init__(self, seat: int, action: Action) -> None:
        self.seat = seat
        self.action = action
        self.visits = 0
        self.reward = 0.0
        self.available = 1
        self.children: dict[int, _Edge] = {}


@dataclass
class SearchStats:
    """What the last search did: iterations, rollout steps, seconds, and root visits."""

    iterations: int = 0
    rollout_steps: int = 0
    seconds: float = 0.0
    visits: dict[str, int] | None = None


class ISMCTS:
    """The search itself, usable without a bot: `best(view, rng)` returns an action of
    `view.legal`."""

    def __init__(self, search: Search) -> None:
        self.search = search
        self.evaluator: Evaluator = search.evaluator or ToTheEnd()
        self.stats = SearchStats()
        self._prefer: Action | None = None

    def best(self, view: SeatView, rng: random.Random, default: Action | None = None,
             ) -> Action:
        """The most visited root action after the budget is spent.

        With `default` (a heuristic's move) and `Search.guard` set, the search's choice
        replaces the default only when its mean reward is higher by more than `guard` standard
        errors: with a small budget the search then never plays worse than the heuristic by
        mere noise."""
        legal = view.legal
        prune = self.search.prune
        if prune is not None:
            legal = prune(legal)
        if len(legal) == 1:
            self.stats = SearchStats(visits={str(legal[0]): 0})
            return legal[0]
        n = view.game.num_actions
        root = _Edge(-1, legal[0])
        self._prefer = default  # expanded first at the root
        s = self.search
        started = time.perf_counter()
        deadline = math.inf if s.seconds is None else started + s.seconds
        limit = s.iterations if s.iterations is not None else 1 << 62
        stats = SearchStats()
        while stats.iterations < limit and (stats.iterations == 0
                                            or time.perf_counter() < deadline):
            self._iterate(root, view, n, rng, stats)
            stats.iterations += 1
        stats.seconds = time.perf_counter() - started
        allowed = {a.id for a in legal}
        edges = [e for k, e in root.children.items()
                 if k % n in allowed and k // n == view.seat]
        stats.visits = {str(e.action): e.visits for e in edges}
        self.stats = stats
        if not edges:
            return legal[0] if default is None else default
        chosen = max(edges, key=lambda e: (e.visits, e.reward, -e.action.id))
        if default is None or s.guard is None or chosen.action is default:
            return chosen.action
        other = next((e for e in edges if e.action is default), None)
        if other is None or other.visits == 0:
            return chosen.action
        return chosen.action if _beats(chosen, other, s.guard) else default

    def _iterate(self, root: _Edge, view: SeatView, n: int, rng: random.Random,
                 stats: SearchStats) -> None:
        state = view.resample(rng)
        node, path = root, []
        seat: int | None = view.seat  # the root decision is always the bot's own
        c = self.search.c
        alpha = self.search.widening
        prune = self.search.prune
        while not state.is_over():
            if seat is None:
                movers = state.to_move()
                seat = movers[0] if len(movers) == 1 else movers[rng.randrange(len(movers))]
            legal = state.legal_actions(seat)
            if prune is not None:
                legal = prune(legal)
            untried: list[Action] = []
            best: _Edge | None = None
            best_score = -math.inf
            children = node.children
            for a in legal:
                edge = children.get(seat * n + a.id)
                if edge is None:
                    untried.append(a)
                    continue
                edge.available += 1
                score = (edge.reward / edge.visits
                         + c * math.sqrt(math.log(edge.available) / edge.visits))
                if score > best_score:
                    best, best_score = edge, score
            if untried and (best is None or alpha is None
                            or len(children) < 2 * (node.visits + 1) ** alpha):
                a = untried[rng.randrange(len(untried))]
                if node is root and self._prefer in untried:
                    a = self._prefer
                edge = children[seat * n + a.id] = _Edge(seat, a)
                state.apply_unchecked(seat, a)
                path.append(edge)
                break
            assert best is not None
            state.apply_unchecked(seat, best.action)
            path.append(best)
            node = best
            seat = None
        values = self._rollout(state, rng, stats)
        root.visits += 1
        for edge in path:
            edge.visits += 1
            edge.reward += values[edge.seat]

    def _rollout(self, state: State, rng: random.Random, stats: SearchStats) -> Sequence[float]:
        ev, policy = self.evaluator, self.search.policy
        start = ev.begin(state)
        steps = 0
        while not state.is_over() and not ev.is_done(state, start, steps):
            movers = state.to_move()
            seat = movers[0] if len(movers) == 1 else movers[rng.randrange(len(movers))]
            state.apply_unchecked(seat, policy(state, seat, state.legal_actions(seat), rng))
            steps += 1
        stats.rollout_steps += steps
        return ev.values(state, start)


class Belief(Protocol):
    """What a seat infers from the public history, used to weight the sampled worlds."""

    def update(self, observation: dict[str, Any]) -> None:
        """Take in the seat's newest observation (called before every search)."""

    def sample(self, resample: Callable[[random.Random], State], rng: random.Random) -> State:
        """A world for the search: drawn with `resample` (the view's, uniform over what the
        seat cannot tell apart) and reshaped or chosen among several to fit what was
        inferred."""


class _WeightedView:
    """A seat's view whose sampled worlds are reshaped by a `Belief`."""

    __slots__ = ("game", "seat", "legal", "observation", "_view", "_belief")

    def __init__(self, view: SeatView, belief: Belief) -> None:
        self.game = view.game
        self.seat = view.seat
        self.legal = view.legal
        self.observation = view.observation
        self._view = view
        self._belief = belief

    def resample(self, rng: random.Random) -> State:
        return self._belief.sample(self._view.resample, rng)


def _beats(a: _Edge, b: _Edge, z: float) -> bool:
    """True when edge a's mean reward exceeds b's by more than z standard errors."""
    pa, pb = a.reward / a.visits, b.reward / b.visits
    var = pa * (1 - pa) / a.visits + pb * (1 - pb) / b.visits
    return pa - pb > z * math.sqrt(max(var, 1e-12))


class ISMCTSBot(Bot):
    """A bot that searches with ISMCTS from its own view.

    Out-of-turn rights (the observation names whose `turn` it is and it is not this seat's)
    go to `fallback` when one is given — a heuristic that knows when such a right is worth
    taking — and are otherwise searched and taken quickly. A single legal action is taken
    without searching. With a `belief`, every search first shows it the observation and then
    samples its worlds through it (belief-weighted determinization); with a `budget`, the
    iterations of each move are chosen from the observation (say, fewer early in a round).
    """

    name = "ismcts"

    def __init__(self, game: Game, seat: int, rng: random.Random,
                 search: Search | None = None, fallback: Bot | None = None,
                 belief: Belief | None = None, budget: Budget | None = None) -> None:
        super().__init__(game, seat, rng)
        self.engine = ISMCTS(search or Search())
        self.fallback = fallback
        self.belief = belief
        self.budget = budget
        self._searches: dict[int, Search] = {}

    @property
    def stats(self) -> SearchStats:
        return self.engine.stats

    def propose(self, view: SeatView) -> Proposal | None:
        turn = view.observation.get("turn")
        out_of_turn = isinstance(turn, int) and turn != self.seat
        if out_of_turn and self.fallback is not None:
            return self.fallback.propose(view)
        action = self.choose(view)
        if action is None:
            return None
        return (QUICK if out_of_turn else self.think, action)

    def choose(self, view: SeatView) -> Action | None:
        default = None
        if self.fallback is not None and self.engine.search.guard is not None:
            default = self.fallback.choose(view)
        if self.budget is not None:
            self._spend(self.budget(view.observation))
        if self.belief is not None:
            self.belief.update(view.observation)
            view = _WeightedView(view, self.belief)  # type: ignore[assignment]
        return self.engine.best(view, self.rng, default)

    def _spend(self, iterations: int) -> None:
        """Search `iterations` this move (the rest of the search settings unchanged)."""
        search = self._searches.get(iterations)
        if search is None:
            search = self._searches[iterations] = replace(self.engine.search,
                                                          iterations=iterations)
        self.engine.search = search

    def __repr__(self) -> str:
        return f"{self.name}@{self.seat}"


__all__ = ["ISMCTS", "Belief", "Budget", "Evaluator", "ISMCTSBot", "Policy", "Prune", "Search",
           "SearchStats", "ToTheEnd", "random_policy", "win_shares"]
