"""The engine agrees, in every position of many random games, with a separate reading of
docs/games/maumau.md written here from the rules alone: the legal moves, and what each move
does."""

from __future__ import annotations

import random
from typing import Any

import pytest

import tiergarten
from tiergarten.games.maumau.cards import NAMES, SUITS
from tiergarten.games.maumau.state import MauMauState

VALUES = {"7": 7, "8": 8, "9": 9, "10": 10, "J": 20, "Q": 10, "K": 10, "A": 10}


def plays(card: str, held: int) -> set[str]:
    """Every way to play `card` from a hand of `held` cards, with the calls the rules allow."""
    jack = card[:-1] == "J"
    calls = {2: ["", " mau"], 1: ["", " maumau"] if jack else [""]}.get(held, [""])
    named = [f" {s}" for s in SUITS] if jack else [""]
    return {f"play {card}{n}{c}" for n in named for c in calls}


def fits(state: MauMauState, card: str) -> bool:
    """May `card` be laid on the pile now, a live 7-chain included?"""
    top, rank = NAMES[state.discard[-1]], card[:-1]
    suit = None if state.suit < 0 else SUITS[state.suit]
    if state.pending:
        return rank == "7"
    if rank == "J":
        return top[:-1] != "J" or bool(state.game.options["jack_on_jack"])
    return suit is None or card[-1] == suit or rank == top[:-1]


def expected(state: MauMauState, seat: int) -> set[str]:
    """What docs/games/maumau.md allows `seat` now, read from the raw position."""
    caught = state.catchable
    if seat != state.turn:
        return {"catch"} if caught >= 0 and seat != caught else set()
    hand = [NAMES[c] for c in state.hands[seat]]
    if caught >= 0 and not state.hands[caught]:
        return {"pass", "catch"}
    if state.drawn >= 0:  # after a plain draw: pass always, the drawn card only if it fits
        drawn = NAMES[state.drawn]
        return {"pass"} | (plays(drawn, len(hand)) if fits(state, drawn) else set())
    out = {"draw"} | ({"catch"} if caught >= 0 and caught != seat else set())
    for card in hand:
        if fits(state, card):
            out |= plays(card, len(hand))
    return out


def step(players: int, seat: int, direction: int, steps: int = 1) -> int:
    return (seat + steps * direction) % players


def after(state: MauMauState, seat: int, move: str) -> dict[str, Any]:
    """The public position the rules expect after `seat` makes `move`, or {"winner": seat}
    when the move ends the round."""
    n, options = state.game.players, state.game.options
    seen = state.observe(None)
    sizes, turn, direction = list(seen["hand_sizes"]), seen["turn"], seen["direction"]
    pending, suit, top, catchable = seen["pending_draw"], seen["suit"], seen["top"], None
    spare = seen["stock_size"] + seen["discard_size"] - 1  # every card but the top may be drawn
    words = move.split()
    if words[0] == "catch":
        caught = seen["catchable"]
        sizes[caught] += min(options["mau_penalty"], spare)
        if caught == turn:  # a caught player whose turn it is loses it
            turn = step(n, turn, direction)
    elif seen["catchable"] is not None and sizes[seen["catchable"]] == 0:
        return {"winner": seen["catchable"]}  # the Jack without Mau Mau stands
    elif words[0] == "pass":
        turn = step(n, turn, direction)
    elif words[0] == "draw":
        sizes[seat] += min(pending or 1, spare)
        if pending or not spare:  # a penalty, or nothing to draw: the turn moves on at once
            turn = step(n, turn, direction)  # after a card drawn, whatever it is, it stays
        pending = 0
    else:
        card, rank = words[1], words[1][:-1]
        sizes[seat] -= 1
        if sizes[seat] == 0 and (rank != "J" or words[-1] == "maumau"):
            return {"winner": seat}
        top, suit = card, words[2] if rank == "J" else card[-1]
        if sizes[seat] == 0 or (sizes[seat] == 1 and words[-1] != "mau"):
            catchable = seat
        if sizes[seat] == 0:  # out on a Jack without Mau Mau: the next player decides
            turn = step(n, turn, direction)
        else:
            pending += 2 if rank == "7" else 0
            direction = -direction if rank == "9" else direction
            skip = rank == "8" or (rank == "9" and n == 2 and options["two_player_nine"] == "skip")
            turn = step(n, turn, direction, 2 if skip else 1)
    return {"hand_sizes": sizes, "turn": turn, "direction": direction, "pending_draw": pending,
            "suit": suit, "top": top, "catchable": catchable}


def check_move(state: MauMauState, seat: int, move: str) -> None:
    """Make `move` and compare the engine's new position with what `after` expects."""
    want = after(state, seat, move)
    round_, scores = state.round, list(state.scores)
    held = [[NAMES[c] for c in h] for h in state.hands]
    state.apply(seat, move)
    if "winner" in want:
        winner = want["winner"]
        points = sum(VALUES[c[:-1]] for s, h in enumerate(held) for c in h if s != winner)
        assert state.is_over() or state.round == round_ + 1
        assert state.scores[winner] == scores[winner] + points
        return
    if state.is_over():  # only the decision bound ends a match in mid-round
        assert state.result().reason == "decision_limit"
        return
    seen = state.observe(None)
    assert {key: seen[key] for key in want} == want, (move, seen["log"][-3:])
    drawn: list[str | None] = [None] * state.game.players
    if move == "draw" and want["turn"] == seat:  # a plain draw: the drawer alone sees the card
        (drawn[seat],) = {NAMES[c] for c in state.hands[seat]} - set(held[seat])
    assert [state.observe(s)["drawn"] for s in range(state.game.players)] == drawn


OPTION_SETS: list[dict[str, Any]] = [
    {"rounds": 2},
    {"rounds": 2, "jack_on_jack": False, "two_player_nine": "none", "first_card_effects": False,
     "mau_penalty": 1},
]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTION_SETS, ids=["defaults", "house"])
def test_moves_match_the_rules_in_random_games(players: int, options: dict[str, Any]) -> None:
    game = tiergarten.load("maumau", players=players, **options)
    for seed in range(12):
        rng = random.Random(seed)
        state = game.new_state(seed)
        while not state.is_over():
            for seat in range(players):
                got = {str(a) for a in state.legal_actions(seat)}
                assert got == expected(state, seat), (seed, seat, state.observe(None)["log"])
            seat = rng.choice(state.to_move())
            check_move(state, seat, str(rng.choice(state.legal_actions(seat))))
