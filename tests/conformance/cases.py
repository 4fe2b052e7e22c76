"""What the conformance suite needs to know per game: option sets and a card-conservation check.

Every registered game must have an entry here (a test fails otherwise). Conservation is checked
on the spectator's observation, so it holds without looking at hidden state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Observation = dict[str, Any]


@dataclass(frozen=True)
class Case:
    players: int
    options: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.players}p" + (f"-{opts}" if opts else "")


@dataclass(frozen=True)
class GameCases:
    cases: tuple[Case, ...]
    conserved: Callable[[Observation], bool]  # on observe(None), after every action
    waited_on: Callable[[Observation], int]  # to_move()[0], by the game's page, from observe(None)


def _maumau_conserved(obs: Observation) -> bool:
    return sum(obs["hand_sizes"]) + obs["stock_size"] + obs["discard_size"] == 32


def _mucca_pazza_conserved(obs: Observation) -> bool:
    won = sum(obs["cards"])
    if obs["variant"] == "junior":
        return won + sum(1 for g in obs["grid"] if g != "taken") == 16
    return won + len(obs["landing"]) + obs["pile_size"] == 30


_MAMMUZ_DINOSAURS = {3: 3, 4: 5, 5: 5, 6: 4, 7: 5}  # dealt, by players (docs/games/mammuz.md)
_DINOSAUR_NAMES = {"stegosaurus", "triceratops", "pterosaurus", "brontosaurus", "plesiosaurus",
                   "tyrannosaurus"}


def _mammuz_conserved(obs: Observation) -> bool:
    held = sum(obs["hand_sizes"]) + obs["herd_size"] + obs["jackpot_size"]
    dinosaurs_stay = (obs["dinosaurs"] == _MAMMUZ_DINOSAURS[obs["players"]]  # never leave
                      and not _DINOSAUR_NAMES & set(obs["removed"]))  # the game
    return held + obs["out_of_game"] == obs["cards"] and dinosaurs_stay


def _lecker_mammut_conserved(obs: Observation) -> bool:
    piles = sum(p["size"] for seat in obs["prize_piles"] for p in seat)
    limbo = sum(len(c["cards"]) for c in obs["choosing"])  # taken, the top not yet chosen
    held = sum(obs["face_down"]) + len(obs["middle"]) + sum(obs["penalty_cards"])
    return held + piles + limbo == 49


def _turn(obs: Observation) -> int:
    """The turn-based games wait on the seat whose turn it is."""
    return int(obs["turn"])


def _lecker_mammut_waited_on(obs: Observation) -> int:
    """docs/games/lecker_mammut.md: a seat giving a pile back, else the first seat choosing a
    top card, else the flipper, else the first seat from the starter that has not passed."""
    if obs["returning"]:
        return int(obs["returning"][0])
    if obs["choosing"]:
        return int(obs["choosing"][0]["seat"])
    if obs["flipper"] is not None:
        return int(obs["flipper"])
    n, start = obs["players"], obs["starter"]
    return next((start + i) % n for i in range(n) if (start + i) % n not in obs["passed"])


GAMES: dict[str, GameCases] = {
    "maumau": GameCases(
        cases=(
            Case(2), Case(3), Case(4),
            Case(3, {"jack_on_jack": False}),
            Case(2, {"two_player_nine": "none", "target_score": 60}),
            Case(4, {"first_card_effects": False, "mau_penalty": 0}),
            Case(3, {"rounds": 1}),
            Case(2, {"target_score": 50, "mau_penalty": 4}),
        ),
        conserved=_maumau_conserved,
        waited_on=_turn,
    ),
    "mucca_pazza": GameCases(
        cases=(Case(2), Case(4), Case(2, {"variant": "junior"}), Case(4, {"variant": "junior"})),
        conserved=_mucca_pazza_conserved,
        waited_on=_turn,
    ),
    "mammuz": GameCases(
        cases=(
            Case(3), Case(4), Case(5), Case(6), Case(7),
            Case(4, {"next_starter": "taker"}),
            Case(5, {"next_starter": "next"}),
            Case(4, {"dinosaur_powers": {"stegosaurus": "jackpot", "triceratops": "deal_out",
                                         "plesiosaurus": "doubter_chooses"}}),
            Case(6, {"dinosaur_powers": {"stegosaurus": "remove", "triceratops": "remove"}}),
        ),
        conserved=_mammuz_conserved,
        waited_on=_turn,
    ),
    "lecker_mammut": GameCases(
        cases=(Case(2), Case(4), Case(6, {"rounds": 2}), Case(3, {"rounds": 1, "idle_limit": 3})),
        conserved=_lecker_mammut_conserved,
        waited_on=_lecker_mammut_waited_on,
    ),
}
