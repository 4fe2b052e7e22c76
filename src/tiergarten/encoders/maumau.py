"""Mau Mau's observation vector (see docs/research.md for the table)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tiergarten.games.maumau.cards import NAMES, SUITS

from .base import Encoder

_CARD = {name: c for c, name in enumerate(NAMES)}


class MauMauEncoder(Encoder):
    game_id = "maumau"

    def layout(self) -> None:
        p = self.slots
        self.add("hand", 32, "1 for each card held (card = suit*8 + rank; suits c d h s, "
                 "ranks 7 8 9 10 J Q K A)")
        self.add("top", 32, "one-hot: the discard pile's top card")
        self.add("suit", 4, "one-hot: the suit in force (c d h s); all 0 after a first Jack")
        self.add("pending_draw", 1, "cards the 7-chain makes the next player draw / 8")
        self.add("direction", 1, "1 if play goes clockwise")
        self.add("turn", p, "one-hot relative seat whose turn it is")
        self.add("drawn", 32, "one-hot: the card this seat just drew, until it plays it or passes")
        self.add("catchable", p, "one-hot relative seat that may be caught (missed Mau)")
        self.add("hand_sizes", p, "cards in each hand / 32, relative seats")
        self.add("stock_size", 1, "cards in the stock / 32")
        self.add("discard_size", 1, "cards in the discard pile / 32")
        self.add("scores", p, "match points / target_score, relative seats")
        self.add("to_move", p, "1 for each relative seat the observation says may act")
        self.add("over", 1, "1 once the match is over")

    def fill(self, out: np.ndarray, obs: dict[str, Any]) -> None:
        at = self.at
        for name in obs["hand"] or ():
            out[_CARD[name]] = 1.0
        out[at("top") + _CARD[obs["top"]]] = 1.0
        if obs["suit"] is not None:
            out[at("suit") + SUITS.index(obs["suit"])] = 1.0
        out[at("pending_draw")] = obs["pending_draw"] / 8
        out[at("direction")] = 1.0 if obs["direction"] == 1 else 0.0
        self.one_seat(out, "turn", obs, obs["turn"])
        if obs["drawn"] is not None:
            out[at("drawn") + _CARD[obs["drawn"]]] = 1.0
        self.one_seat(out, "catchable", obs, obs["catchable"])
        self.seats(out, "hand_sizes", obs, obs["hand_sizes"], 32)
        out[at("stock_size")] = obs["stock_size"] / 32
        out[at("discard_size")] = obs["discard_size"] / 32
        self.seats(out, "scores", obs, obs["scores"], obs["target_score"])
        for s in obs["to_move"]:
            self.one_seat(out, "to_move", obs, s)
        out[at("over")] = 1.0 if obs["over"] else 0.0


    def sparse(self, state: Any, seat: int) -> tuple[list[int], list[float]]:
        """The vector's non-zero entries read from the state itself, as `fill` writes them from
        `state.observe(seat)`: the same numbers (tests/rl/test_vector.py), without building the
        observation dict (the batched env's hot path)."""
        n = self.n
        idx: list[int] = []
        val: list[float] = []
        mask = state.masks[seat]
        while mask:
            low = mask & -mask
            idx.append(low.bit_length() - 1)
            mask ^= low
        val.extend([1.0] * len(idx))
        idx.append(32 + state.discard[-1])
        val.append(1.0)
        if state.suit >= 0:
            idx.append(64 + state.suit)
            val.append(1.0)
        if state.pending:
            idx.append(68)
            val.append(min(state.pending / 8, 1.0))
        if state.direction == 1:
            idx.append(69)
            val.append(1.0)
        over = state.over
        if not over:
            idx.append(70 + (state.turn - seat) % n)
            val.append(1.0)
            if seat == state.turn and state.drawn >= 0:
                idx.append(74 + state.drawn)
                val.append(1.0)
        if state.catchable >= 0:
            idx.append(106 + (state.catchable - seat) % n)
            val.append(1.0)
        for s, m in enumerate(state.masks):
            if m:
                idx.append(110 + (s - seat) % n)
                val.append(min(m.bit_count() / 32, 1.0))
        if state.stock:
            idx.append(114)
            val.append(len(state.stock) / 32)
        idx.append(115)
        val.append(len(state.discard) / 32)
        target = state.game.options["target_score"]
        for s, score in enumerate(state.scores):
            if score:
                idx.append(116 + (s - seat) % n)
                val.append(min(score / target, 1.0))
        for s in state.to_move():
            idx.append(120 + (s - seat) % n)
            val.append(1.0)
        if over:
            idx.append(124)
            val.append(1.0)
        return idx, val


ENCODER = MauMauEncoder  # found by convention: encoders/<game id>.py exports ENCODER
