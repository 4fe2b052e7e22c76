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


ENCODER = MauMauEncoder  # found by convention: rl/encoders/<game id>.py exports ENCODER
