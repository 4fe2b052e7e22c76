"""What a seat may know of a Mucca Pazza state: its observation, sampling, and refusal reasons.

Hidden information is removed here and only here. The board, the landing place, stars and won
cards are public. Hidden are the face-down junior cards (every card ever revealed was seen by
everyone, but the observation shows the table as it is now: a card turned back is face down
again, and remembering it is the player's skill) and the order of the standard pile.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from tiergarten.core import Refusal

from .actions import REVEAL_KIND, SLIDE_KIND, STOP_KIND, MuccaAction
from .board import complete
from .cards import ANIMALS, CARD_NAMES, DIRECTIONS, ROWS
from .terms import DOWN, TAKEN, UP

if TYPE_CHECKING:
    from .junior import JuniorState
    from .standard import StandardState
    from .state import MuccaState

LOG_LENGTH = 32  # enough to see every reveal of a full round of four players


def observe(state: MuccaState, seat: int | None) -> dict[str, Any]:
    """Exactly what `seat` may see now (a spectator, `None`, sees the same public table)."""
    junior = state.variant == "junior"
    obs: dict[str, Any] = {
        "game": "mucca_pazza",
        "variant": state.variant,
        "seat": seat,
        "players": state.game.players,
        "board": {name: [ANIMALS[a] for a in row] for name, row in zip(ROWS, state.rows,
                                                                       strict=True)},
        "complete": [ANIMALS[a] for a in complete(state.rows)],
        "turn": None if state.over else state.turn,
        "to_move": list(state.to_move()),  # every right to act in Mucca Pazza is public
        "slides_left": state.free_left,
        "slides_made": state.slides_made,
        "cards": state.cards(),
        "won": [[CARD_NAMES[c] for c in w] for w in state.won],
    }
    if junior:
        obs.update(_junior(state))  # type: ignore[arg-type]
    else:
        obs.update(_standard(state))  # type: ignore[arg-type]
    obs["log"] = log_since(state, seat, max(0, len(state.events) - LOG_LENGTH))
    obs["over"] = state.over
    obs["result"] = state.result().to_dict() if state.over else None
    return obs


def _junior(state: JuniorState) -> dict[str, Any]:
    grid = [None if f == DOWN else "taken" if f == TAKEN else CARD_NAMES[c]
            for c, f in zip(state.grid, state.face, strict=True)]
    playing = state.target >= 0
    return {
        "phase": None if state.over else "slide" if playing else "reveal",
        "landing": None,
        "pile_size": state.face_down(),
        "grid": grid,
        "target": CARD_NAMES[state.grid[state.target]] if playing else None,
        "targets": [ANIMALS[a] for a in state.targets] if playing else None,
        "turned_back": [p + 1 for p in state.tried],
        "stars": None,
        "final_round": None,
    }


def _standard(state: StandardState) -> dict[str, Any]:
    return {
        "phase": None if state.over else "slide",
        "landing": [ANIMALS[a] for a in state.landing_cards()],
        "pile_size": len(state.pile),
        "grid": None,
        "target": None,
        "targets": None,
        "turned_back": None,
        "stars": list(state.stars),
        "final_round": state.final_left if state.final_left >= 0 else None,
    }



def log_since(state: MuccaState, seat: int | None, start: int) -> list[dict[str, Any]]:
    """The log from position `start` on, uncapped (`observe` shows its last LOG_LENGTH
    entries), each entry numbered `n` by its position. Every entry is public, the same for
    each seat and spectator."""
    return [_event(i, e) for i, e in enumerate(state.events[start:], start)]

def _event(index: int, event: tuple[Any, ...]) -> dict[str, Any]:
    """One public happening as a JSON-safe dict; `n` numbers events from the start."""
    what, seat = event[0], event[1]
    if what == "slide":
        return {"n": index, "seat": seat, "act": what, "row": ROWS[event[2]],
                "direction": DIRECTIONS[event[3]], "star": event[4]}
    if what in _CARD_EVENTS:
        return {"n": index, "seat": seat, "act": what, "position": event[2] + 1,
                "card": CARD_NAMES[event[3]]}
    if what == "score":
        return {"n": index, "seat": seat, "act": what,
                "cards": {ANIMALS[a]: n for a, n in event[2]}}
    if what == "refill":
        return {"n": index, "seat": None, "act": what, "cards": [ANIMALS[a] for a in event[2]]}
    if what == "over":
        return {"n": index, "seat": None, "act": what, "reason": str(event[2])}
    return {"n": index, "seat": seat, "act": what}


_CARD_EVENTS = frozenset(("reveal", "back", "take", "fail", "last"))


def resample(state: MuccaState, seat: int, rng: random.Random) -> MuccaState:
    """A full state that `seat` cannot tell from this one.

    Junior: every card that was ever revealed stays where it is; the never-seen cards are
    shuffled among their positions. Standard: the pile is shuffled.
    """
    new = state.clone()
    if state.variant == "junior":
        junior: JuniorState = new  # type: ignore[assignment]
        unseen = [p for p, s in enumerate(junior.seen) if not s]
        cards = [junior.grid[p] for p in unseen]
        rng.shuffle(cards)
        for p, c in zip(unseen, cards, strict=True):
            junior.grid[p] = c
    else:
        standard: StandardState = new  # type: ignore[assignment]
        rng.shuffle(standard.pile)
    new.rng = random.Random(rng.getrandbits(64))
    new._legal = None
    return new


def explain(state: MuccaState, seat: int, action: MuccaAction) -> Refusal:
    """Why `action` is refused for `seat`, whose turn it is (each reason's code and
    parameters: docs/games/mucca_pazza.md, Refusals)."""
    if state.variant == "standard":
        if action.kind == REVEAL_KIND:
            moves = "slide a row or stop" if state.slides_made else "slide a row"
            return Refusal(f"the standard game has no card grid to reveal from: {moves}",
                           "no_grid", slides=state.slides_made)
        if action.kind == STOP_KIND:
            return Refusal("a turn must contain at least one slide before you stop",
                           "stop_after_slide")
        return Refusal(f"{action} is not legal now", "not_legal")
    return _why_not_junior(state, action)  # type: ignore[arg-type]


def _why_not_junior(junior: JuniorState, action: MuccaAction) -> Refusal:
    # every card named here was turned face up this turn, in everyone's sight
    if junior.target >= 0:
        if action.kind == REVEAL_KIND:
            position, card = junior.target + 1, CARD_NAMES[junior.grid[junior.target]]
            return Refusal(f"you have revealed {card} at position {position} this turn: "
                           "slide a row or stop", "revealed_already", position=position,
                           card=card)
        return Refusal(f"{action} is not legal now", "not_legal")
    if action.kind in (SLIDE_KIND, STOP_KIND):
        return Refusal("reveal a face-down card first", "reveal_first")
    p = action.position
    if junior.face[p] == TAKEN:
        return Refusal(f"the card at position {p + 1} has been taken", "card_taken",
                       position=p + 1)
    if junior.face[p] == UP:
        return Refusal(f"the card at position {p + 1} is already face up", "card_up",
                       position=p + 1)
    if p in junior.tried:
        card = CARD_NAMES[junior.grid[p]]
        return Refusal(f"you turned position {p + 1} ({card}, already complete) back this "
                       "turn: reveal another card", "turned_back", position=p + 1, card=card)
    return Refusal(f"{action} is not legal now", "not_legal")
