"""Lecker Mammut!'s observation vector (see docs/research.md for the table)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tiergarten.games.lecker_mammut.cards import ANIMAL_OF, COLOUR_OF, FEATURE_NAMES, NAMES

from .base import Encoder

C = len(NAMES)  # 49 cards: animal*7 + colour
F = len(FEATURE_NAMES)  # 14 features: 7 animals then 7 colours
_CARD = {name: c for c, name in enumerate(NAMES)}
_PHASES = ("flipping", "choosing", "ending", "returns", "over")


class LeckerMammutEncoder(Encoder):
    game_id = "lecker_mammut"

    def layout(self) -> None:
        p = self.slots
        self.add("middle", C, "1 for each card face up in the middle (card = animal*7 + colour;"
                 " animals bear boar tiger sloth deer mammoth rhino; colours red orange yellow "
                 "green blue purple pink)")
        self.add("prize_tops", p * C, "top cards of each relative seat's prize piles: "
                 "slot*49 + card")
        self.add("prize_cards", p, "cards in each relative seat's prize piles / 49")
        self.add("prize_piles", p, "prize piles of each relative seat / 16")
        self.add("showing", F, "visible cards (middle and prize tops) showing each feature / 7 "
                 "(features: 7 animals then 7 colours)")
        self.add("face_down", p, "face-down cards in each relative seat's pile / 25")
        self.add("flipper", p, "one-hot relative seat whose pile is being flipped")
        self.add("phase", len(_PHASES), "one-hot: flipping, choosing, ending, returns, over")
        self.add("my_tops", C, "cards this seat may choose as the top of its new prize pile")
        self.add("choosing", p, "1 for each relative seat choosing a top card")
        self.add("penalties", p, "penalties (mistakes) this round / 10, relative seats, "
                 "counted even when no card was left to take")
        self.add("passed", p, "1 for each relative seat that has passed")
        self.add("returning", p, "1 for each relative seat that must give a prize pile back")
        self.add("scores", p, "points from finished rounds / 49, relative seats")
        self.add("round", 1, "round / rounds")
        self.add("to_move", p, "1 for each relative seat that may act")
        self.add("over", 1, "1 once the game is over")
        # last, so that the fields before keep their indices: from rules 2 these decide who
        # gives a prize pile back (under rules 1 the penalties above did)
        self.add("penalty_cards", p, "penalty cards held this round / 10, relative seats")

    def fill(self, out: np.ndarray, obs: dict[str, Any]) -> None:
        at = self.at
        showing = at("showing")
        for name in obs["middle"]:
            c = _CARD[name]
            out[c] = 1.0
            out[showing + ANIMAL_OF[c]] += 1 / 7
            out[showing + COLOUR_OF[c]] += 1 / 7
        tops = at("prize_tops")
        for s, piles in enumerate(obs["prize_piles"]):
            slot = self.rel(obs, s)
            for pile in piles:
                c = _CARD[pile["top"]]
                out[tops + slot * C + c] = 1.0
                out[showing + ANIMAL_OF[c]] += 1 / 7
                out[showing + COLOUR_OF[c]] += 1 / 7
            out[at("prize_cards") + slot] = sum(p["size"] for p in piles) / 49
            out[at("prize_piles") + slot] = len(piles) / 16
        self.seats(out, "face_down", obs, obs["face_down"], 25)
        self.one_seat(out, "flipper", obs, obs["flipper"])
        out[at("phase") + _PHASES.index(obs["phase"])] = 1.0
        for choice in obs["choosing"]:
            self.one_seat(out, "choosing", obs, choice["seat"])
            if choice["seat"] == obs["seat"]:
                for name in choice["tops"]:
                    out[at("my_tops") + _CARD[name]] = 1.0
        self.seats(out, "penalties", obs, obs["penalties"], 10)
        for s in obs["passed"]:
            self.one_seat(out, "passed", obs, s)
        for s in obs["returning"]:
            self.one_seat(out, "returning", obs, s)
        self.seats(out, "scores", obs, obs["scores"], 49)
        out[at("round")] = obs["round"] / obs["rounds"]
        for s in obs["to_move"]:
            self.one_seat(out, "to_move", obs, s)
        out[at("over")] = 1.0 if obs["over"] else 0.0
        self.seats(out, "penalty_cards", obs, obs["penalty_cards"], 10)


ENCODER = LeckerMammutEncoder  # found by convention: encoders/<game id>.py exports ENCODER
