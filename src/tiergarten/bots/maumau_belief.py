"""Belief-weighted worlds for Mau Mau: infer the others' hands from what they did.

`view.resample` deals every unseen card uniformly. But a player who draws instead of playing
shows that nothing in hand fitted: no card of the suit in force, none of the top card's rank,
no Jack; one who pays a 7-chain shows no 7; one who passes after a plain draw shows that the
drawn card did not fit (or was a Jack worth keeping). `Tracker` keeps, for every other seat,
one *slot* per card in hand: the set of cards that slot may still be, narrowed by such public
events. A new card (drawn, penalty, new deal) is a fresh slot; a played card takes the slot it
most likely was (the narrowest one that allows it). `Tracker.sample` then re-deals a uniform
world's unseen cards so that each slot gets a card it allows (narrowest slots first; with
chance `slack` a slot takes any card, as people do draw with a card that fits).

The tracker reads only the seat's observations (their 12-event `log`, `top`, `suit`,
`pending_draw`, `hand_sizes`, `round`), one after another as the bot is asked to move: the
events new since the last look are found by overlapping the two logs. If events were missed
(the log moved on by more than its length) it forgets what it inferred.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from tiergarten.core import State
from tiergarten.games.maumau.cards import DECK, JACK, RANK_OF, SEVEN, SUIT_OF, SUITS, card
from tiergarten.games.maumau.state import HAND_SIZE, MauMauState, cards_of

SLACK = 0.1  # chance that a slot ignores what was inferred (a player may draw with a fit)
ANY = (1 << len(DECK)) - 1
_SUIT = tuple(sum(1 << c for c in DECK if SUIT_OF[c] == s) for s in range(len(SUITS)))
_RANK = tuple(sum(1 << c for c in DECK if RANK_OF[c] == r) for r in range(8))
_JACKS = _RANK[JACK]
_SEVENS = _RANK[SEVEN]

Table = tuple[int, int, int]  # the top card's rank, the suit in force (-1: none), pending draw


class Tracker:
    """What one seat infers about the other hands from the public events it has seen."""

    def __init__(self, seat: int, players: int, jack_on_jack: bool) -> None:
        self.seat = seat
        self.jack_on_jack = jack_on_jack
        self.slots: dict[int, list[int]] = {s: [] for s in range(players) if s != seat}
        self.log: list[dict[str, Any]] = []
        self.round: int | None = None
        self.table: Table | None = None  # before the next event; None when not known
        self.drew: dict[int, Table] = {}  # a seat's plain draw not yet followed by its move

    # -- reading observations ---------------------------------------------------------------

    def update(self, obs: dict[str, Any]) -> None:
        """Take in the events since the last observation, then the table as it is now."""
        log: list[dict[str, Any]] = obs["log"]
        top = card(obs["top"])
        now: Table = (RANK_OF[top], -1 if obs["suit"] is None else SUITS.index(obs["suit"]),
                      obs["pending_draw"])
        if obs["round"] != self.round:  # a new deal: fresh hands, this round's events only
            self.round = obs["round"]
            ends = [i for i, e in enumerate(log) if e["act"] == "round_over"]
            new = log[ends[-1] + 1:] if ends else log
            self._forget([HAND_SIZE] * (len(self.slots) + 1))
            if now[0] != SEVEN and not any(e["act"].startswith("play ") for e in new):
                self.table = (now[0], now[1], 0)  # still the first up-card
        else:
            new = log[self._overlap(log):]
            if len(new) == len(log) == len(self.log) and self.log:
                self._forget(obs["hand_sizes"])  # events were missed: start afresh
                new = []
        for event in new:
            self._event(event)
        self.log = list(log)
        for seat, slots in self.slots.items():  # agree with the public hand sizes
            size = obs["hand_sizes"][seat]
            if len(slots) > size:
                slots.sort(key=int.bit_count)
                del slots[size:]
            slots.extend([ANY] * (size - len(slots)))
        self.table = now

    def _overlap(self, log: list[dict[str, Any]]) -> int:
        """How many leading events of `log` the last log ended with."""
        for k in range(min(len(self.log), len(log)), 0, -1):
            if self.log[-k:] == log[:k]:
                return k
        return 0

    def _forget(self, sizes: list[int]) -> None:
        for seat in self.slots:
            self.slots[seat] = [ANY] * sizes[seat]
        self.table = None
        self.drew = {}

    def _event(self, event: dict[str, Any]) -> None:
        act, seat = event["act"], event["seat"]
        if act.startswith("play "):
            self._played(seat, act.split())
        elif act == "draw":
            self._drew(seat, event["cards"])
        elif act == "pass":
            table = self.drew.pop(seat, None)
            slots = self.slots.get(seat)
            if table is not None and slots:  # it kept the drawn card: no fit, or a Jack
                slots[-1] &= ~(self.fitting(table) & ~_JACKS)
        elif act == "catch":
            self.slots.get(event["caught"], []).extend([ANY] * event["cards"])

    def _played(self, seat: int, words: list[str]) -> None:
        c = card(words[1])
        if seat in self.slots:
            self._take(self.slots[seat], c)
        named = SUITS.index(words[2]) if RANK_OF[c] == JACK and len(words) > 2 \
            and words[2] in SUITS else SUIT_OF[c]
        pending = self.table[2] if self.table is not None else 0
        self.table = (RANK_OF[c], named, pending + 2 if RANK_OF[c] == SEVEN else 0)
        self.drew.pop(seat, None)

    def _drew(self, seat: int, count: int) -> None:
        slots = self.slots.get(seat)
        if slots is not None and self.table is not None:
            if self.table[2]:  # paid a 7-chain: held no 7
                ruled_out = _SEVENS
            else:  # a plain draw: held nothing that fitted
                ruled_out = self.fitting(self.table)
                self.drew[seat] = self.table
            for i, slot in enumerate(slots):
                slots[i] = slot & ~ruled_out
        if slots is not None:
            slots.extend([ANY] * count)
        if self.table is not None:
            self.table = (self.table[0], self.table[1], 0)

    @staticmethod
    def _take(slots: list[int], c: int) -> None:
        """Remove the slot card `c` most likely came from: the narrowest that allows it."""
        if not slots:
            return
        fits = [i for i, slot in enumerate(slots) if slot >> c & 1]
        pool = fits or range(len(slots))
        slots.pop(min(pool, key=lambda i: slots[i].bit_count()))

    def fitting(self, table: Table) -> int:
        """The cards that may be laid on `table` (no 7-chain live)."""
        rank, suit, _ = table
        mask = _RANK[rank] | (_SUIT[suit] if suit >= 0 else ANY & ~_JACKS)
        if rank != JACK or self.jack_on_jack:
            mask |= _JACKS
        return mask

    # -- sampling -----------------------------------------------------------------------------

    def sample(self, resample: Callable[[random.Random], State], rng: random.Random,
               slack: float = SLACK) -> State:
        """A uniform world with its unseen cards (other hands and stock) re-dealt to fit the
        slots."""
        state = resample(rng)
        assert isinstance(state, MauMauState)
        if state.drawn >= 0 and state.turn != self.seat:
            return state  # another seat holds a fresh card: leave the uniform world
        pool = [c for s in self.slots for c in cards_of(state.masks[s])] + state.stock
        rng.shuffle(pool)
        order = sorted((slot.bit_count(), rng.random(), s, slot)
                       for s, slots in self.slots.items() for slot in slots)
        hands = dict.fromkeys(self.slots, 0)
        for _, _, seat, slot in order:
            pick = len(pool) - 1
            if slot != ANY and rng.random() >= slack:
                pick = next((i for i, c in enumerate(pool) if slot >> c & 1), pick)
            hands[seat] |= 1 << pool.pop(pick)
        for seat, hand in hands.items():
            state.masks[seat] = hand
        state.stock = pool
        state._legal = None
        return state


__all__ = ["SLACK", "Tracker"]
