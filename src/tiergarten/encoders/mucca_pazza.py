"""Mucca Pazza's observation vector, both variants (see docs/research.md for the table)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tiergarten.games.mucca_pazza.actions import GRID_SIZE
from tiergarten.games.mucca_pazza.cards import ANIMALS, CARD_NAMES, FREE_SLIDES, ROWS, STARS_EACH

from .base import Encoder

_ANIMAL = {name: a for a, name in enumerate(ANIMALS)}
_CARDNAME = {name: c for c, name in enumerate(CARD_NAMES)}
A = len(ANIMALS)
WIDTH = A  # the standard board is 10 columns; junior uses the first 5
GRID_STATES = 2 + len(CARD_NAMES)  # face down, taken, or face up showing a card


class MuccaPazzaEncoder(Encoder):
    game_id = "mucca_pazza"

    def layout(self) -> None:
        p = self.slots
        self.add("variant", 1, "1 for junior, 0 for standard")
        self.add("board", 3 * WIDTH * A, "one-hot animal per row (heads, bodies, legs) and "
                 "column: index row*100 + column*10 + animal (animals: " + " ".join(ANIMALS)
                 + "); junior columns 5-9 stay 0")
        self.add("complete", A, "1 for each animal standing whole on the board")
        self.add("turn", p, "one-hot relative seat whose turn it is")
        self.add("slides_left", 1, "free slides left this turn / 3")
        self.add("slides_made", 1, "slides made this turn / 10")
        self.add("cards", p, "cards won / 15, relative seats")
        self.add("won", p * A, "cards won per relative seat and animal / 3: slot*10 + animal")
        self.add("phase", 2, "one-hot: slide, reveal (junior)")
        self.add("landing", A, "standard: landing-place cards per animal / 3")
        self.add("pile_size", 1, "cards left in the pile (standard) or face down (junior) / 30")
        self.add("stars", p, "standard: stars spent / 3, relative seats")
        self.add("final_round", 2, "standard: [final round running, turns left in it / 4]")
        self.add("grid", GRID_SIZE * GRID_STATES, "junior: per grid position one-hot of "
                 "(face down, taken, frog … horse, ghost): position*13 + state")
        self.add("target", len(CARD_NAMES), "junior: one-hot card revealed this turn")
        self.add("targets", A, "junior: animals that would win the revealed card")
        self.add("turned_back", GRID_SIZE, "junior: positions turned back this turn")
        self.add("over", 1, "1 once the game is over")

    def fill(self, out: np.ndarray, obs: dict[str, Any]) -> None:
        at = self.at
        out[at("variant")] = 1.0 if obs["variant"] == "junior" else 0.0
        board = at("board")
        for r, row in enumerate(ROWS):
            for col, name in enumerate(obs["board"][row]):
                out[board + (r * WIDTH + col) * A + _ANIMAL[name]] = 1.0
        for name in obs["complete"]:
            out[at("complete") + _ANIMAL[name]] = 1.0
        self.one_seat(out, "turn", obs, obs["turn"])
        out[at("slides_left")] = obs["slides_left"] / FREE_SLIDES
        out[at("slides_made")] = obs["slides_made"] / 10
        self.seats(out, "cards", obs, obs["cards"], 15)
        won = at("won")
        for s, cards in enumerate(obs["won"]):
            base = won + self.rel(obs, s) * A
            for name in cards:
                if name in _ANIMAL:
                    out[base + _ANIMAL[name]] += 1 / 3
        if obs["phase"] is not None:
            out[at("phase") + (0 if obs["phase"] == "slide" else 1)] = 1.0
        for name in obs["landing"] or ():
            out[at("landing") + _ANIMAL[name]] += 1 / 3
        out[at("pile_size")] = obs["pile_size"] / 30
        if obs["stars"] is not None:
            self.seats(out, "stars", obs, obs["stars"], STARS_EACH)
        if obs["final_round"] is not None:
            out[at("final_round")] = 1.0
            out[at("final_round") + 1] = obs["final_round"] / 4
        if obs["grid"] is not None:
            grid = at("grid")
            for pos, cell in enumerate(obs["grid"]):
                code = 0 if cell is None else 1 if cell == "taken" else 2 + _CARDNAME[cell]
                out[grid + pos * GRID_STATES + code] = 1.0
        if obs["target"] is not None:
            out[at("target") + _CARDNAME[obs["target"]]] = 1.0
        for name in obs["targets"] or ():
            out[at("targets") + _ANIMAL[name]] = 1.0
        for pos in obs["turned_back"] or ():
            out[at("turned_back") + pos - 1] = 1.0
        out[at("over")] = 1.0 if obs["over"] else 0.0


ENCODER = MuccaPazzaEncoder  # found by convention: encoders/<game id>.py exports ENCODER
