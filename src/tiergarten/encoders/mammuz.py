"""MammuZ's observation vector (see docs/research.md for the table)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tiergarten.games.mammuz.cards import COUNTS, DINOSAUR_NAMES, NAMES, POWER_NAMES, SPECIES_NAMES

from .base import Encoder

K = len(NAMES)  # 14 kinds: 8 species then 6 dinosaurs
S = len(SPECIES_NAMES)
_KIND = {name: k for k, name in enumerate(NAMES)}
_PHASES = ("open", "respond", "give")
_STARTERS = ("doubter", "taker", "next")
_OUTCOMES = ("taken", "dealt", "removed", "jackpot", "won")
MAX_LAY = 4
MAX_CARDS = 60  # a hand or the herd rarely nears this; counts are scaled by it


class MammuZEncoder(Encoder):
    game_id = "mammuz"

    def layout(self) -> None:
        p = self.slots
        kinds = " ".join(NAMES)
        self.add("hand", K, f"cards held per kind / that kind's count in the box ({kinds})")
        self.add("hand_sizes", p, "cards in each hand / 60, relative seats")
        self.add("species", S, "one-hot: the open herd's declared species")
        self.add("phase", 3, "one-hot: open, respond, give")
        self.add("turn", p, "one-hot relative seat whose turn it is")
        self.add("must_doubt", 1, "1 if the previous player laid their last card")
        self.add("to_move", p, "1 for each relative seat the observation says may act")
        self.add("herd_size", 1, "cards in the herd / 60")
        self.add("lays", 1, "lays in the herd / 20")
        self.add("last_lay_seat", p, "one-hot relative seat of the last lay")
        self.add("last_lay_count", MAX_LAY, "one-hot: cards in the last lay (1-4)")
        self.add("my_herd_cards", K, "cards this seat laid into the open herd, per kind / count")
        self.add("extinct", S, "1 for each extinct species")
        self.add("in_game", S, "cards of each species still in the game / its count")
        self.add("dinosaurs", 1, "dinosaurs in the game (those dealt: they never leave it) / 6")
        self.add("removed", K, "cards removed face up, per kind / count (dinosaurs stay 0)")
        self.add("out_of_game", 1, "cards out of the game / 60")
        self.add("jackpot_size", 1, "cards in the jackpot / 60")
        self.add("known", p * K, "cards this seat knows each other hand holds: slot*14 + kind, "
                 "/ count (slot 0, this seat, stays 0)")
        self.add("jackpot_known", K, "cards this seat knows the jackpot holds / count")
        self.add("revealed", K, "turned-up cards so far, per kind / count")
        self.add("last_revealed", K + len(_OUTCOMES), "the last turned-up card: one-hot kind, "
                 "then one-hot outcome (taken, dealt, removed, jackpot, won)")
        self.add("powers", len(DINOSAUR_NAMES) * len(POWER_NAMES), "option: one-hot power of "
                 "each dinosaur: dinosaur*6 + power (" + " ".join(POWER_NAMES) + ")")
        self.add("next_starter", 3, "option: one-hot doubter, taker, next")
        self.add("winner", p, "one-hot relative seat that won")
        self.add("over", 1, "1 once the game is over")

    def fill(self, out: np.ndarray, obs: dict[str, Any]) -> None:
        at = self.at
        for name in obs["hand"] or ():
            out[_KIND[name]] += 1 / COUNTS[_KIND[name]]
        self.seats(out, "hand_sizes", obs, obs["hand_sizes"], MAX_CARDS)
        if obs["species"] is not None:
            out[at("species") + SPECIES_NAMES.index(obs["species"])] = 1.0
        if obs["phase"] in _PHASES:
            out[at("phase") + _PHASES.index(obs["phase"])] = 1.0
        self.one_seat(out, "turn", obs, obs["turn"])
        out[at("must_doubt")] = 1.0 if obs["must_doubt"] else 0.0
        for s in obs["to_move"]:
            self.one_seat(out, "to_move", obs, s)
        herd = obs["herd"]
        out[at("herd_size")] = obs["herd_size"] / MAX_CARDS
        out[at("lays")] = len(herd) / 20
        if herd:
            self.one_seat(out, "last_lay_seat", obs, herd[-1]["seat"])
            out[at("last_lay_count") + herd[-1]["count"] - 1] = 1.0
        mine = at("my_herd_cards")
        for lay in herd:
            for name in lay["cards"] or ():
                out[mine + _KIND[name]] += 1 / COUNTS[_KIND[name]]
        for name in obs["extinct"]:
            out[at("extinct") + SPECIES_NAMES.index(name)] = 1.0
        for name, count in obs["in_game"].items():
            k = _KIND[name]
            out[at("in_game") + k] = count / COUNTS[k]
        out[at("dinosaurs")] = obs["dinosaurs"] / len(DINOSAUR_NAMES)
        self._kinds(out, "removed", obs["removed"])
        out[at("out_of_game")] = obs["out_of_game"] / MAX_CARDS
        out[at("jackpot_size")] = obs["jackpot_size"] / MAX_CARDS
        known = at("known")
        for seat, counts in obs["known"].items():
            base = known + self.rel(obs, int(seat)) * K
            for name, c in counts.items():
                out[base + _KIND[name]] = c / COUNTS[_KIND[name]]
        for name, c in obs["jackpot_known"].items():
            out[at("jackpot_known") + _KIND[name]] = c / COUNTS[_KIND[name]]
        self._kinds(out, "revealed", [r["card"] for r in obs["revealed"]])
        if obs["revealed"]:
            last = obs["revealed"][-1]
            out[at("last_revealed") + _KIND[last["card"]]] = 1.0
            if last["outcome"] in _OUTCOMES:
                out[at("last_revealed") + K + _OUTCOMES.index(last["outcome"])] = 1.0
        powers = at("powers")
        for d, name in enumerate(DINOSAUR_NAMES):
            out[powers + d * len(POWER_NAMES) + POWER_NAMES.index(obs["dinosaur_powers"][name])] = 1
        out[at("next_starter") + _STARTERS.index(obs["next_starter"])] = 1.0
        self.one_seat(out, "winner", obs, obs["winner"])
        out[at("over")] = 1.0 if obs["over"] else 0.0

    def _kinds(self, out: np.ndarray, field: str, names: list[str]) -> None:
        base = self.at(field)
        for name in names:
            out[base + _KIND[name]] += 1 / COUNTS[_KIND[name]]


ENCODER = MammuZEncoder  # found by convention: encoders/<game id>.py exports ENCODER
