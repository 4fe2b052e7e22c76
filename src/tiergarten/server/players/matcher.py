"""Quick match ("Play now"): who sits down with whom, as a pure function of the queue and the
time (`pair`); no server, no clock of its own, no randomness.

Every person waiting is one `Entry`, keyed by account (`u:<id>`) or guest (`g:<hash>`), so a
person in two tabs is one entry. The oldest entry comes first (its *anchor*'s turn): the people
who fit it (the same game, a player count and options they both accept, and both accounts or
both guests) join it nearest rating first, while the spread of their ratings stays within the
anchor's *window*, which widens with the anchor's wait (`Rules.window`). A rating is the
account's openskill ordinal (mu - 3 sigma) in that game, a guest's the mu of the level they
picked (bot_levels.py), so guests meet guests who picked a level like theirs.

- The group fills a table of people when it reaches the largest player count all of them
  accept, or any count they accept once the anchor has waited `Rules.patience`.
- Otherwise the people of the group who accept bots (`bot_wait` not None: "never" is None) get
  the remaining seats filled with bots as soon as one of them has waited their `bot_wait`: at
  the game's default count if all accept it and it has room for them, else the smallest count
  with room. The bots are of the level nearest the people's mean mu (`level_for`), a guest
  anchor's own pick among guests.

>>> e = lambda key, rating, since, **kw: Entry(key, "maumau", (3,), None, rating, 25.0,
...                                            since=since, **kw)
>>> [m.people for m in pair([e("u:1", 0.0, 0.0), e("u:2", 0.5, 1.0), e("u:3", 9.0, 2.0)], 3.0)]
[]
>>> [m.people for m in pair([e("u:1", 0.0, 0.0), e("u:2", 0.5, 1.0), e("u:3", 0.9, 2.0)], 3.0)]
[('u:1', 'u:2', 'u:3')]
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .bot_levels import nearest_level


@dataclass(frozen=True)
class Rules:
    """How fast the rating window widens and how long a partial table of people waits."""

    base: float = 1.0  # the window at once (ordinal points; a new account's sigma is 8.3)
    widen: float = 0.25  # points more per second waited
    widest: float = 30.0  # no wider than this
    patience: float = 45.0  # seconds after which a group of people plays at a smaller count

    def window(self, waited: float) -> float:
        """The window after `waited` seconds.

        >>> Rules().window(0), Rules().window(20), Rules().window(1000)
        (1.0, 6.0, 30.0)
        """
        return min(self.widest, self.base + self.widen * max(0.0, waited))


RULES = Rules()


@dataclass(frozen=True)
class Entry:
    """One person in the queue: what they asked for and who they are."""

    key: str  # "u:<account id>" or "g:<guest hash>": one entry per person
    game: str
    counts: tuple[int, ...]  # the player counts accepted ("any": all the game allows)
    options: str | None  # the game's options as canonical JSON (`canonical`); None: any
    rating: float  # openskill ordinal (accounts), the picked level's mu (guests)
    mu: float  # what the bots' level is chosen by
    guest: bool = False
    level: str | None = None  # the level a guest picked
    bot_wait: float | None = None  # seconds before bots fill the table; None: never
    since: float = 0.0  # when they joined (seconds, the queue's clock)
    default: int = 0  # the game's default player count (0: the smallest accepted)
    name: str = ""
    user_id: int | None = None

    def to_json(self) -> str:
        return json.dumps(self.__dict__, sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> Entry:
        data = json.loads(text)
        data["counts"] = tuple(data["counts"])
        return cls(**data)


@dataclass(frozen=True)
class Match:
    """A table to make: the people in seat order, then the bots' levels."""

    game: str
    players: int
    options: dict[str, Any]
    people: tuple[str, ...]
    bots: tuple[str, ...]
    gap: float  # the spread of the people's ratings (0 alone)
    waited: tuple[float, ...] = field(default=())  # each person's wait, seat order


def canonical(options: dict[str, Any] | None) -> str | None:
    """Options as one comparable text (None: any).

    >>> canonical({"b": 1, "a": 2})
    '{"a":2,"b":1}'
    """
    return None if options is None else json.dumps(options, sort_keys=True,
                                                   separators=(",", ":"))


def _fits(anchor: Entry, other: Entry) -> bool:
    return (other.game == anchor.game and other.guest == anchor.guest
            and bool(set(other.counts) & set(anchor.counts))
            and (anchor.options is None or other.options is None
                 or anchor.options == other.options))


def pair(entries: Sequence[Entry], now: float, rules: Rules = RULES,
         level_for: Callable[[str, float], str | None] = nearest_level) -> list[Match]:
    """The tables to make now from the queue `entries` at time `now` (see the module doc).
    Nobody is in two matches; an entry given twice (two tabs) counts once, the latest."""
    latest: dict[str, Entry] = {}
    for entry in entries:
        if entry.key not in latest or entry.since >= latest[entry.key].since:
            latest[entry.key] = entry
    ordered = sorted(latest.values(), key=lambda e: (e.since, e.key))
    used: set[str] = set()
    matches: list[Match] = []
    for anchor in ordered:
        if anchor.key in used:
            continue
        match = _match_for(anchor, [e for e in ordered if e.key not in used], now, rules,
                           level_for)
        if match is not None:
            used.update(match.people)
            matches.append(match)
    return matches


def _match_for(anchor: Entry, free: list[Entry], now: float, rules: Rules,
               level_for: Callable[[str, float], str | None]) -> Match | None:
    window = rules.window(now - anchor.since)
    pool = sorted((e for e in free if e is not anchor and _fits(anchor, e)),
                  key=lambda e: (abs(e.rating - anchor.rating), e.since, e.key))
    group, counts, options = [anchor], set(anchor.counts), anchor.options
    for other in pool:
        if len(group) >= max(counts):
            break
        both = {n for n in counts & set(other.counts) if n > len(group)}
        ratings = [m.rating for m in group] + [other.rating]
        if not both or (options is not None and other.options not in (None, options)) \
                or max(ratings) - min(ratings) > window:
            continue
        group.append(other)
        counts = {n for n in counts & set(other.counts) if n >= len(group)}
        options = options if options is not None else other.options
    if len(group) > 1 and (len(group) == max(counts) or (
            len(group) in counts and now - anchor.since >= rules.patience)):
        return _made(group, len(group), options, (), now)
    takers = [m for m in group if m.bot_wait is not None]
    if not takers or not any(now - m.since >= (m.bot_wait or 0.0) for m in takers):
        return None
    room = sorted(n for n in set.intersection(*(set(m.counts) for m in takers))
                  if n >= len(takers))
    if not room:
        return None
    first = takers[0]
    players = first.default if first.default in room else room[0]
    if first.guest and first.level is not None:
        level = first.level
    else:
        level = level_for(first.game, sum(m.mu for m in takers) / len(takers)) or "normal"
    chosen = next((m.options for m in takers if m.options is not None), None)
    return _made(takers, players, chosen, (level,) * (players - len(takers)), now)


def _made(group: list[Entry], players: int, options: str | None, bots: tuple[str, ...],
          now: float) -> Match:
    ratings = [m.rating for m in group]
    return Match(group[0].game, players, json.loads(options) if options else {},
                 tuple(m.key for m in group), bots, max(ratings) - min(ratings),
                 tuple(now - m.since for m in group))
