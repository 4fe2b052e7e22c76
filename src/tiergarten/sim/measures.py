"""What a designer asks after "who wins": lead changes, comebacks, kingmaking, downtime, and
how often each card or action is used — per game, then over a run (docs/lab.md defines each).

Every measure is read from a finished game by replaying its record (seed and actions) and
looking at the *public* observation (`state.observe(None)`: what every player and a spectator
see) at the end of each turn, where a turn is a run of consecutive decisions by one seat.

- The **standing** of a seat is public: Mau Mau its match points, then the fewest cards in
  hand; MammuZ the fewest cards in hand; Mucca Pazza its cards, then its stars left; Lecker
  Mammut! its points. Higher is better; a game without a standing gets no lead figures.
- The **leader** after a turn is the one seat whose standing is strictly the best; a tie
  leads no one. A **lead change** is a turn after which a leader differs from the last one.
- A **comeback**: a winner was alone in last place after some turn.
- **Kingmaking** (three or more seats): the turn after which the eventual winner led for the
  last time from behind — its final lead change — was a third seat's: neither the winner's
  nor that of the seat who lost the lead. (At two seats there is no third: not counted.)
- **Downtime** of a seat: the decisions the others took between two of its turns; a game's
  figure is the mean over that seat's gaps, the run's the mean over games.
- **Usage**: every decision counted under its kind (the first word of the notation) and, for
  cards, the card: Mau Mau `play 7` (ranks, suits folded) and `mau`, MammuZ `lay tiger` per
  card laid — that is the designer's view: the cards a player lays face down are hidden from
  the others — Lecker Mammut! `hit bear`.

>>> from tiergarten import load
>>> from tiergarten.sim import play_game
>>> game = load("maumau", 3, rounds=1)
>>> out = play_game(game, ["heuristic"] * 3, 1, 0)
>>> m = out.measures
>>> m.lead_changes, m.comeback, m.kingmade, m.waits[0]
(3, False, False, (11, 4, 5))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tiergarten.core import Action, Game

from .stats import Summary, wilson

Standing = Callable[[Mapping[str, Any]], list[tuple[float, ...]]]


def _maumau(obs: Mapping[str, Any]) -> list[tuple[float, ...]]:
    return [(float(s), -float(h)) for s, h in zip(obs["scores"], obs["hand_sizes"],
                                                  strict=True)]


def _mammuz(obs: Mapping[str, Any]) -> list[tuple[float, ...]]:
    return [(-float(h),) for h in obs["hand_sizes"]]


def _mucca(obs: Mapping[str, Any]) -> list[tuple[float, ...]]:
    stars = obs["stars"] or [0] * len(obs["cards"])  # the junior variant has no stars
    return [(float(c), float(s)) for c, s in zip(obs["cards"], stars, strict=True)]


def _scores(obs: Mapping[str, Any]) -> list[tuple[float, ...]]:
    return [(float(s),) for s in obs["scores"]]


STANDINGS: dict[str, Standing] = {"maumau": _maumau, "mammuz": _mammuz,
                                  "mucca_pazza": _mucca, "lecker_mammut": _scores}
STANDING_WORDS = {"maumau": "match points, then fewest cards in hand",
                  "mammuz": "fewest cards in hand",
                  "mucca_pazza": "cards won, then stars left",
                  "lecker_mammut": "points"}


def usage_keys(game_id: str, text: str) -> list[str]:
    """The counters one decision adds to: its kind, and the card where a card is played.

    >>> usage_keys("maumau", "play Jc c"), usage_keys("maumau", "play 10d mau")
    (['play', 'play J'], ['play', 'play 10', 'mau'])
    >>> usage_keys("mammuz", "lay tiger tiger deer as tiger")
    ['lay', 'lay tiger', 'lay tiger', 'lay deer']
    >>> usage_keys("lecker_mammut", "hit tiger @11"), usage_keys("mucca_pazza", "stop")
    (['hit', 'hit tiger'], ['stop'])
    """
    words = text.split()
    kind = words[0]
    keys = [kind]
    if game_id == "maumau" and kind == "play":
        keys.append(f"play {words[1][:-1]}")
        if words[-1] == "mau":
            keys.append("mau")
    elif game_id == "mammuz" and kind in ("lay", "extinct"):
        cards = words[1:words.index("as")] if "as" in words else words[1:]
        keys += [f"{kind} {card}" for card in cards]
    elif game_id == "lecker_mammut" and kind == "hit":
        keys.append(f"hit {words[1]}")
    elif game_id == "mucca_pazza" and kind == "slide":
        keys.append(f"slide {words[1]}")
    return keys


@dataclass(frozen=True)
class Measures:
    """One game's designer figures (see the module's docstring)."""

    lead_changes: int | None  # None: the game has no public standing
    comeback: bool | None
    kingmade: bool | None  # None: fewer than three seats, or no standing
    waits: tuple[tuple[int, int, int], ...]  # per seat: (others' decisions waited, gaps, longest)
    usage: tuple[tuple[str, int], ...]  # counter -> uses, sorted by name

    def to_dict(self) -> dict[str, Any]:
        return {"lead_changes": self.lead_changes, "comeback": self.comeback,
                "kingmade": self.kingmade,
                "waits": [{"waited": w, "gaps": g, "longest": m} for w, g, m in self.waits],
                "usage": dict(self.usage)}


def _sole_best(standing: Sequence[tuple[float, ...]]) -> int | None:
    best = max(standing)
    top = [s for s, v in enumerate(standing) if v == best]
    return top[0] if len(top) == 1 else None


def _sole_worst(standing: Sequence[tuple[float, ...]]) -> int | None:
    worst = min(standing)
    bottom = [s for s, v in enumerate(standing) if v == worst]
    return bottom[0] if len(bottom) == 1 else None


def measure(game: Game, seed: int, actions: Sequence[tuple[int, Any]],
            winners: Sequence[int]) -> Measures:
    """Replay a finished game (its seed and `(seat, action)` pairs) and measure it."""
    usage: dict[str, int] = {}
    for _, action in actions:
        for key in usage_keys(game.id, str(action)):
            usage[key] = usage.get(key, 0) + 1
    standing = STANDINGS.get(game.id)
    leads: int | None = None
    comeback: bool | None = None
    kingmade: bool | None = None
    if standing is not None:
        leads, comeback, kingmade = _leads(game, seed, actions, winners, standing)
    return Measures(leads, comeback, kingmade, waits(actions, game.players),
                    tuple(sorted(usage.items())))


def waits(actions: Sequence[tuple[int, Any]], k: int) -> tuple[tuple[int, int, int], ...]:
    """Per seat: (the others' decisions it waited between two of its turns, in all; how many
    such gaps; the longest).

    >>> waits([(0, "a"), (1, "b"), (1, "c"), (2, "d"), (2, "e"), (0, "f")], 3)
    ((4, 1, 4), (0, 0, 0), (0, 0, 0))
    """
    waited, gaps, longest = [0] * k, [0] * k, [0] * k
    since: list[int | None] = [None] * k
    last: int | None = None
    for seat, _ in actions:
        if seat != last:  # a new turn of `seat`
            gap = since[seat]
            if gap is not None:
                waited[seat] += gap
                gaps[seat] += 1
                longest[seat] = max(longest[seat], gap)
            since[seat] = 0
        for other in range(k):
            if other != seat and since[other] is not None:
                since[other] = (since[other] or 0) + 1
        last = seat
    return tuple(zip(waited, gaps, longest, strict=True))


def _leads(game: Game, seed: int, actions: Sequence[tuple[int, Any]],
           winners: Sequence[int], standing: Standing) -> tuple[int, bool, bool | None]:
    """Lead changes, comeback and kingmaking from the standings after every turn."""
    state = game.new_state(seed)
    turns: list[tuple[int, list[tuple[float, ...]]]] = []
    for j, (seat, action) in enumerate(actions):
        if isinstance(action, Action):
            state.apply_unchecked(seat, action)  # the game's own history: legal already
        else:
            state.apply(seat, action)
        if j + 1 < len(actions) and actions[j + 1][0] == seat:
            continue  # the turn goes on
        turns.append((seat, standing(state.observe(None))))
    return lead_figures(turns, winners, game.players)


def lead_figures(turns: Sequence[tuple[int, Sequence[tuple[float, ...]]]],
                 winners: Sequence[int], players: int) -> tuple[int, bool, bool | None]:
    """From (the turn's seat, every seat's standing after it) per turn: the lead changes,
    whether a winner came back from alone in last place, and (three or more seats) whether
    the winner's final taking of the lead was a third seat's turn.

    >>> lead_figures([(0, [(1,), (0,), (0,)]), (1, [(1,), (2,), (0,)]),
    ...               (2, [(0,), (2,), (3,)])], (2,), 3)
    (2, True, False)
    >>> lead_figures([(0, [(2,), (1,), (0,)]), (2, [(0,), (1,), (0,)])], (1,), 3)
    (1, False, True)
    """
    leader: int | None = None
    changes = 0
    was_last: set[int] = set()
    final_take: tuple[int, int | None] | None = None  # (turn's seat, previous leader)
    for seat, now in turns:
        best = _sole_best(now)
        worst = _sole_worst(now)
        if worst is not None:
            was_last.add(worst)
        if best is not None and best != leader:
            if leader is not None:
                changes += 1
            if best in winners:
                final_take = (seat, leader)
            elif final_take is not None:
                final_take = None  # someone else led after the winner: not final yet
            leader = best
        elif best is not None and best not in winners:
            final_take = None
    comeback = any(w in was_last for w in winners)
    kingmade: bool | None = None
    if players >= 3:
        kingmade = final_take is not None and final_take[0] not in winners and \
            final_take[0] != final_take[1]
    return changes, comeback, kingmade


# -- over a run -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Rate:
    """How many of `games` had a property, with its 95% Wilson interval."""

    count: int
    games: int
    low: float
    high: float

    @classmethod
    def of(cls, flags: Sequence[bool]) -> Rate:
        count = sum(1 for f in flags if f)
        low, high = wilson(count, len(flags))
        return cls(count, len(flags), low, high)

    @property
    def rate(self) -> float:
        return self.count / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"count": self.count, "games": self.games, "rate": self.rate,
                "interval": [self.low, self.high]}


@dataclass(frozen=True)
class Use:
    """One usage counter over a run: uses in all, per game (95%), and its share of decisions."""

    key: str
    uses: int
    per_game: Summary
    share: float  # of all decisions
    games_used: float  # share of games in which it was used at least once

    def to_dict(self) -> dict[str, Any]:
        return {"uses": self.uses, "per_game": self.per_game.to_dict(), "share": self.share,
                "games_used": self.games_used}


@dataclass(frozen=True)
class Designer:
    """A run's designer figures: lead changes per game, comeback and kingmaking rates,
    downtime per seat (others' decisions between one's turns, mean per game) and usage."""

    standing: str | None  # what the standing is, in words (None: no lead figures)
    lead_changes: Summary | None
    comebacks: Rate | None
    kingmaking: Rate | None
    downtime: tuple[Summary | None, ...]  # per seat (None: the seat never waited)
    longest_wait: int
    usage: tuple[Use, ...]  # most used first

    def to_dict(self) -> dict[str, Any]:
        return {"standing": self.standing,
                "lead_changes": None if self.lead_changes is None
                else self.lead_changes.to_dict(),
                "comebacks": None if self.comebacks is None else self.comebacks.to_dict(),
                "kingmaking": None if self.kingmaking is None else self.kingmaking.to_dict(),
                "downtime": [None if d is None else {"seat": s, **d.to_dict()}
                             for s, d in enumerate(self.downtime)],
                "longest_wait": self.longest_wait,
                "usage": {u.key: u.to_dict() for u in self.usage}}


def designer(game_id: str, players: int, games: Sequence[Measures],
             decisions: int) -> Designer | None:
    """The figures of a run from its games' measures (None when no game was measured)."""
    if not games:
        return None
    leads = [m.lead_changes for m in games if m.lead_changes is not None]
    comebacks = [m.comeback for m in games if m.comeback is not None]
    kings = [m.kingmade for m in games if m.kingmade is not None]
    downtime: list[Summary | None] = []
    for seat in range(players):
        means = [m.waits[seat][0] / m.waits[seat][1] for m in games if m.waits[seat][1]]
        downtime.append(Summary.of(means) if means else None)
    longest = max((w[2] for m in games for w in m.waits), default=0)
    totals: dict[str, list[int]] = {}
    for j, m in enumerate(games):
        for key, count in m.usage:
            totals.setdefault(key, [0] * len(games))[j] = count
    usage = tuple(sorted(
        (Use(key, sum(counts), Summary.of([float(c) for c in counts]),
             sum(counts) / decisions if decisions else 0.0,
             sum(1 for c in counts if c) / len(games))
         for key, counts in totals.items()), key=lambda u: (-u.uses, u.key)))
    return Designer(STANDING_WORDS.get(game_id) if leads else None,
                    Summary.of([float(x) for x in leads]) if leads else None,
                    Rate.of(comebacks) if comebacks else None,
                    Rate.of(kings) if kings else None,
                    tuple(downtime), longest, usage)


def mean_downtime(d: Designer) -> float:
    """The mean downtime over the seats that waited."""
    values = [s.mean for s in d.downtime if s is not None]
    return math.fsum(values) / len(values) if values else 0.0


__all__ = ["STANDINGS", "Designer", "Measures", "Rate", "Use", "designer", "lead_figures",
           "mean_downtime", "measure", "usage_keys", "waits"]
