"""Lecker Mammut! bots with human reaction times, from their seat's view only.

A bot's level is a reaction-time model (`Reflexes`): how long it takes to see a triple and hit
(a log-normal time, longer when the triple includes a prize pile's top card: stealing is harder
to spot), a chance of a false hit on a feature that shows only twice after a new card, and a
flipping pace. The last `motor` seconds of a reaction are the hand moving: a hit that far along
lands even if the triple has gone, naming the table version its player last saw (so landing on a
faster hand is void, not a mistake). After a good hit the bot lays on top the card least likely
to be stolen next; at the end of a round it passes only while it plans no hit — never while a
triple shows, which it hits first (so, under rules 2, where the table's timer waits while a
triple shows, a round with a bot at the table always ends) — and gives back its smallest prize
pile when it holds the most penalty cards.

The bots keep their own clocks with `view.now` (see `tiergarten.core.realtime`): run them with
`realtime.run_virtual` or a `realtime.RealTimeTable`. Without `now` every question starts a fresh
reaction.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tiergarten.core import Action, Game
from tiergarten.core.match import Proposal, SeatView
from tiergarten.games.lecker_mammut.actions import FLIP, PASS, RETURNS, TOPS, hit_at
from tiergarten.games.lecker_mammut.cards import (
    ANIMAL_OF,
    CARD_BY_NAME,
    COLOUR_OF,
    FEATURE_BY_NAME,
    NUM_FEATURES,
    WITH_FEATURE,
    other_feature,
    shows,
)

from .base import Bot
from .levels import Factory

DONE = 1e-9  # a plan due this close to now has been carried out
GOOD = 3  # visible cards showing a feature that make a hit good


@dataclass(frozen=True)
class Reflexes:
    """One level's reaction-time model (all times in seconds)."""

    median: float  # median time from a triple appearing to the hand landing
    spread: float  # sigma of the log-normal reaction time
    steal: float  # extra time when the triple includes a prize pile's top card
    false_hit: float  # chance, per new card, of hitting a feature that shows only twice
    pace: float  # mean seconds between flips of its own pile
    choose: float  # mean seconds to choose a top card or a pile to give back
    motor: float = 0.15  # last part of a reaction that can no longer be stopped
    pause: float = 0.8  # extra wait before flipping on after a good hit


FLOOR = 0.6  # seconds: no level reacts faster than a quick person


def _level(median: float, steal: float, false_hit: float, pace: float, choose: float,
           spread: float = 0.25) -> Reflexes:
    return Reflexes(median=median, spread=spread, steal=steal, false_hit=false_hit, pace=pace,
                    choose=choose)


# The ladder, from a child's pace to a quick teenager's: the median reaction roughly halves
# from `easy` to `master`, and none is quicker than `FLOOR` (docs/games/lecker_mammut.md).
REFLEXES: dict[str, Reflexes] = {
    "easy": _level(3.00, steal=0.60, false_hit=0.05, pace=1.6, choose=1.5),
    "normal": _level(2.20, steal=0.45, false_hit=0.04, pace=1.4, choose=1.2),
    "hard": _level(1.50, steal=0.30, false_hit=0.03, pace=1.2, choose=0.9),
    "expert": _level(1.00, steal=0.20, false_hit=0.015, pace=1.0, choose=0.7, spread=0.22),
    "master": _level(0.75, steal=0.15, false_hit=0.01, pace=0.9, choose=0.6, spread=0.20),
}
REFLEXES["slow"] = REFLEXES["easy"]  # the bots of 0.1 by their old names
REFLEXES["fast"] = REFLEXES["expert"]


@dataclass
class _Plan:
    due: float  # when the hand lands
    version: int  # the table version last seen before the hand committed
    false: bool  # a false alarm: valid only while the table is unchanged


class LeckerBot(Bot):
    """A player of one level: sees triples after a sampled reaction time, sometimes falsely."""

    name = "normal"

    def __init__(self, game: Game, seat: int, rng: random.Random,
                 reflexes: Reflexes | None = None) -> None:
        super().__init__(game, seat, rng)
        self.reflexes = reflexes if reflexes is not None else REFLEXES[self.name]
        self.plans: dict[int, _Plan] = {}  # feature -> planned hit
        self.seen = -1  # the last table version looked at
        self.timers: dict[str, tuple[Any, float]] = {}  # flip/pass/top/return: (key, due)

    def propose(self, view: SeatView) -> Proposal | None:
        now: float | None = getattr(view, "now", None)
        if now is None:  # no clock: every question starts afresh
            now = 0.0
            self.plans.clear()
            self.timers.clear()
        obs = view.observation
        legal = view.legal
        if obs["returning"]:
            return self._return(obs, legal, now)
        mine = next((c for c in obs["choosing"] if c["seat"] == self.seat), None)
        if mine is not None:
            return self._top(obs, mine, now)
        options: list[tuple[float, Action]] = []
        hit = self._hit(obs, now)
        if hit is not None:
            options.append(hit)
        if FLIP in legal:
            options.append(self._flip(obs, now))
        if PASS in legal and not self.plans:
            options.append((self._timer("pass", obs["version"], now, self.reflexes.choose * 1.5),
                            PASS))
        if not options:
            return None
        due, action = min(options, key=lambda o: o[0])
        return (max(0.0, due - now), action)

    # -- hitting ----------------------------------------------------------------------------

    def _hit(self, obs: dict[str, Any], now: float) -> tuple[float, Action] | None:
        version: int = obs["version"]
        counts, stolen = _features(obs)
        for f, plan in list(self.plans.items()):
            if plan.due <= now + DONE:
                del self.plans[f]  # carried out (or beaten to it at the same instant)
            elif now < plan.due - self.reflexes.motor:  # still only a thought: check it
                if (version != plan.version) if plan.false else counts[f] < GOOD:
                    del self.plans[f]
                else:
                    plan.version = version
        for f in range(NUM_FEATURES):
            if counts[f] >= GOOD and f not in self.plans:
                delay = self._reaction() + (self.reflexes.steal if stolen[f] else 0.0)
                self.plans[f] = _Plan(now + delay, version, False)
        if version != self.seen:
            self.seen = version
            pairs = [f for f in range(NUM_FEATURES) if counts[f] == 2 and f not in self.plans]
            if pairs and obs["phase"] == "flipping" and self.rng.random() < self.reflexes.false_hit:
                self.plans[self.rng.choice(pairs)] = _Plan(now + self._reaction(), version, True)
        if not self.plans or obs["phase"] in ("returns", "over"):
            return None
        f, plan = min(self.plans.items(), key=lambda item: item[1].due)
        if not plan.false and counts[f] >= GOOD:
            f = self.call(obs, f, counts)
        return (plan.due, hit_at(f, plan.version))

    def call(self, obs: dict[str, Any], f: int, counts: list[int]) -> int:
        """The feature to call when the hand lands for the triple on `f` (this level: `f`)."""
        return f

    def _reaction(self) -> float:
        """A sampled reaction time: log-normal about the level's median, never under `FLOOR`."""
        r = self.reflexes
        return max(FLOOR, r.median * math.exp(r.spread * self.rng.gauss(0.0, 1.0)))

    # -- flipping, passing, choosing --------------------------------------------------------

    def _flip(self, obs: dict[str, Any], now: float) -> tuple[float, Action]:
        r = self.reflexes
        after_hit = bool(obs["log"]) and obs["log"][-1]["act"] == "top"
        mean = r.pace + (r.pause if after_hit else 0.0)
        return (self._timer("flip", obs["version"], now, mean), FLIP)

    def _timer(self, what: str, key: Any, now: float, mean: float) -> float:
        """The due time of an action that waits `mean` seconds (jittered) after `key` changed."""
        current = self.timers.get(what)
        if current is None or current[0] != key or current[1] <= now + DONE:
            due = now + mean * self.rng.uniform(0.7, 1.3)
            self.timers[what] = (key, due)
            return due
        return current[1]

    def _top(self, obs: dict[str, Any], mine: dict[str, Any], now: float) -> Proposal:
        due = self._timer("top", (obs["version"], obs["round"]), now, self.reflexes.choose)
        return (max(0.0, due - now), TOPS[self.top(obs, mine)])

    def top(self, obs: dict[str, Any], choice: dict[str, Any]) -> int:
        """The card to lay on top of the new pile (this level: `safest_top`)."""
        return safest_top(obs, choice)

    def _return(self, obs: dict[str, Any], legal: Sequence[Action], now: float,
                ) -> Proposal | None:
        if not legal:
            return None
        piles = obs["prize_piles"][self.seat]
        smallest = min(range(len(piles)), key=lambda i: (piles[i]["size"], i))
        due = self._timer("return", (obs["round"], obs["version"]), now, self.reflexes.choose)
        return (max(0.0, due - now), RETURNS[smallest])


def safest_top(obs: dict[str, Any], choice: dict[str, Any]) -> int:
    """The card of `choice` (an entry of the observation's `choosing`) least likely to be
    stolen next: its other feature shows least, then has fewest cards still to turn up."""
    f = FEATURE_BY_NAME[choice["feature"]]
    taken = {CARD_BY_NAME[name] for name in choice["cards"]}
    visible = [CARD_BY_NAME[name] for name in _visible(obs)]
    return min((CARD_BY_NAME[name] for name in choice["tops"]),
               key=lambda c: (*_risk(c, f, visible, taken), c))


def _visible(obs: dict[str, Any]) -> list[str]:
    middle: list[str] = obs["middle"]
    return middle + [p["top"] for piles in obs["prize_piles"] for p in piles]


def _features(obs: dict[str, Any]) -> tuple[list[int], list[bool]]:
    """Per feature: how many visible cards show it, and whether a prize pile's top is one."""
    counts = [0] * NUM_FEATURES
    stolen = [False] * NUM_FEATURES
    for name in obs["middle"]:
        c = CARD_BY_NAME[name]
        counts[ANIMAL_OF[c]] += 1
        counts[COLOUR_OF[c]] += 1
    for piles in obs["prize_piles"]:
        for pile in piles:
            c = CARD_BY_NAME[pile["top"]]
            a, k = ANIMAL_OF[c], COLOUR_OF[c]
            counts[a] += 1
            counts[k] += 1
            stolen[a] = stolen[k] = True
    return counts, stolen


def _risk(top: int, f: int, visible: list[int], taken: set[int]) -> tuple[int, int]:
    """How exposed `top` would be: visible cards sharing its other feature, then how many cards
    with that feature are neither visible nor in the new pile (they may still turn up)."""
    other = other_feature(top, f)
    shown = sum(1 for c in visible if other in (ANIMAL_OF[c], COLOUR_OF[c]))
    unseen = sum(1 for c in WITH_FEATURE[other] if c not in taken and c not in visible)
    return shown, unseen


class SlowBot(LeckerBot):
    name = "slow"


class NormalBot(LeckerBot):
    name = "normal"


class FastBot(LeckerBot):
    name = "fast"


class HardBot(LeckerBot):
    name = "hard"


class EasyBot(LeckerBot):
    name = "easy"


class ExpertBot(LeckerBot):
    """A quicker, steadier hand than `hard`."""

    name = "expert"


class MasterBot(LeckerBot):
    """The quickest hand of the ladder (`REFLEXES["master"]`, still no quicker than a quick
    person), with better choices:

    - *the call*: when its hand lands for a triple and several features show three, it calls
      the one worth most: the middle cards it takes, plus twice the cards of the others' piles
      it takes (a steal is a swing), minus what the best feature still at three afterwards
      would give the other hands (they may hit it while this one chooses its top);
    - *the top*: it remembers every card it has seen face up this round (all cards pass the
      middle face up, penalty cards aside), so it knows which cards may still turn up. It never
      lays a top whose other feature would then show three (stealable at once) if it can help
      it; then it takes the top whose other feature has fewest cards still to turn up, then the
      one whose other feature shows least.

    Like every level it gives back its smallest pile (cards score one each: the least loss).
    """

    name = "master"

    def __init__(self, game: Game, seat: int, rng: random.Random) -> None:
        super().__init__(game, seat, rng, REFLEXES["master"])
        self.known: set[int] = set()  # cards seen face up this round
        self.known_round: int | None = None

    def propose(self, view: SeatView) -> Proposal | None:
        self._remember(view.observation)
        return super().propose(view)

    def _remember(self, obs: dict[str, Any]) -> None:
        if obs["round"] != self.known_round:
            self.known_round = obs["round"]
            self.known = set()
        self.known.update(CARD_BY_NAME[name] for name in _visible(obs))
        for choice in obs["choosing"]:
            self.known.update(CARD_BY_NAME[name] for name in choice["cards"])

    def call(self, obs: dict[str, Any], f: int, counts: list[int]) -> int:
        options = [g for g in range(NUM_FEATURES) if counts[g] >= GOOD]
        if len(options) < 2:
            return f
        return max(options, key=lambda g: (_worth(obs, self.seat, g, counts), g == f))

    def top(self, obs: dict[str, Any], choice: dict[str, Any]) -> int:
        f = FEATURE_BY_NAME[choice["feature"]]
        visible = [CARD_BY_NAME[name] for name in _visible(obs)]

        def exposure(c: int) -> tuple[bool, int, int, int]:
            other = other_feature(c, f)
            shown = sum(1 for v in visible if shows(v, other))
            to_come = sum(1 for x in WITH_FEATURE[other] if x not in self.known)
            return (shown + 1 >= GOOD, to_come, shown, c)
        return min((CARD_BY_NAME[name] for name in choice["tops"]), key=exposure)


def _worth(obs: dict[str, Any], seat: int, f: int, counts: list[int]) -> int:
    """What calling `f` is worth to `seat`: the middle cards taken, twice the cards of the
    others' piles taken, less the most another hand could take at once afterwards."""
    middle = [CARD_BY_NAME[name] for name in obs["middle"]]
    tops = [(s, CARD_BY_NAME[p["top"]], p["size"]) for s, piles in enumerate(obs["prize_piles"])
            for p in piles]
    gain = sum(1 for c in middle if shows(c, f))
    gain += sum(2 * size for s, top, size in tops if s != seat and shows(top, f))
    left = 0
    for g in range(NUM_FEATURES):
        remaining = counts[g] - sum(1 for c in middle if shows(c, f) and shows(c, g)) \
            - sum(1 for _, top, _ in tops if shows(top, f) and shows(top, g))
        if g == f or remaining < GOOD:
            continue
        value = sum(1 for c in middle if shows(c, g) and not shows(c, f))
        value += sum(2 * size for s, top, size in tops
                     if s == seat and shows(top, g) and not shows(top, f))
        left = max(left, value)
    return int(gain - left)


BOTS: dict[str, Factory] = {"slow": SlowBot, "normal": NormalBot, "fast": FastBot,
                            "hard": HardBot}
LEVELS: dict[str, Factory] = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot,
                              "expert": ExpertBot, "master": MasterBot}

__all__ = ["BOTS", "FLOOR", "LEVELS", "REFLEXES", "EasyBot", "ExpertBot", "FastBot", "HardBot",
           "LeckerBot", "MasterBot", "NormalBot", "Reflexes", "SlowBot", "safest_top"]
