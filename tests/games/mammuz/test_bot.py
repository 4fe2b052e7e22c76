"""The MammuZ heuristic: it plays legal moves, takes the obvious chances, and beats random play."""

from __future__ import annotations

import random

import tiergarten
from tiergarten.bots import make
from tiergarten.core.match import SeatView, play_match

from .positions import position

GAMES = 160  # a few seconds; the margin below is about three standard deviations


def choose(state: tiergarten.State, seat: int) -> str:
    bot = make("heuristic", state.game, seat, random.Random(0))
    proposal = bot.propose(SeatView(state, seat, state.legal_actions(seat)))
    assert proposal is not None
    return str(proposal[1])


def test_the_heuristic_wins_clearly_more_than_its_share_against_random_play() -> None:
    game = tiergarten.load("mammuz", players=4)
    wins = 0
    for g in range(GAMES):
        seat = g % 4
        agents = [make("heuristic" if s == seat else "random", game, s, random.Random(g * 7 + s))
                  for s in range(4)]
        wins += seat in play_match(game, agents, seed=1000 + g).result().winners
    assert wins / GAMES > 0.25 + 0.11, f"won {wins} of {GAMES}"


def test_it_extinguishes_at_once_even_out_of_turn() -> None:
    state = position(["deer tiger", "hare tiger", "mammoth mammoth hare deer"], turn=0)
    assert choose(state, 2) == "extinct mammoth"
    proposal = make("heuristic", state.game, 1, random.Random(0)).propose(
        SeatView(state, 1, state.legal_actions(1)))
    assert proposal is None  # not its turn and nothing to extinguish


def test_it_lays_out_true_last_cards() -> None:
    state = position(["hare hare hare", "hare tiger deer", "deer tiger bear"], turn=0)
    assert choose(state, 0) == "lay hare hare hare as hare"


def test_it_doubts_a_claim_that_cannot_be_true() -> None:
    state = position(["mammoth tiger deer", "hare tiger deer", "deer tiger bear"],
                     species="mammoth", lays=[(0, "hare hare")], turn=1)
    assert choose(state, 1) == "doubt 1"  # one mammoth is unplaced, two were claimed


def test_it_gives_a_pterosaurus_herd_back_to_a_player_who_would_otherwise_win() -> None:
    state = position(["pterosaurus", "hare tiger deer", "deer tiger hare"], turn=0)
    state.apply(0, "lay pterosaurus as hare")
    state.apply(1, "doubt 1")
    assert choose(state, 1) == "give 0"


def test_it_gives_a_pterosaurus_herd_to_the_leader_otherwise() -> None:
    state = position(["pterosaurus bear", "hare tiger deer", "deer tiger bear hare"], turn=0)
    state.apply(0, "lay pterosaurus as hare")
    state.apply(1, "doubt 1")
    assert choose(state, 1) == "give 0"
    state = position(["pterosaurus bear deer hare", "hare tiger deer", "tiger deer"], turn=0)
    state.apply(0, "lay pterosaurus as hare")
    state.apply(1, "doubt 1")
    assert choose(state, 1) == "give 2"
