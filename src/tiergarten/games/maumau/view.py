"""What a seat may know of a Mau Mau state: its observation, sampling, and reasons for refusals.

Hidden information (other hands, the stock's order, a card just drawn by another) is removed
here and only here.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from .actions import CATCH_KIND, DRAW_KIND, MAU, MAUMAU, PASS_KIND, MauMauAction
from .cards import JACK, NAMES, RANK_OF, SEVEN, SUIT_NAMES, SUITS

if TYPE_CHECKING:
    from .state import MauMauState

LOG_LENGTH = 12


def observe(state: MauMauState, seat: int | None) -> dict[str, Any]:
    """Exactly what `seat` may see now (a spectator, `None`, sees no hand)."""
    game = state.game
    own = seat is not None and 0 <= seat < game.players
    drew = own and seat == state.turn and state.drawn >= 0  # only the drawer knows its card
    return {
        "game": "maumau",
        "seat": seat,
        "players": game.players,
        "hand": [NAMES[c] for c in state.hands[seat]] if own and seat is not None else None,
        "hand_sizes": [m.bit_count() for m in state.masks],
        "top": NAMES[state.discard[-1]],
        "suit": state.suit_name(),
        "pending_draw": state.pending,
        "direction": state.direction,
        "turn": None if state.over else state.turn,
        "to_move": list(state.to_move()),  # every right to act in Mau Mau is public
        "drawn": NAMES[state.drawn] if drew else None,
        "drawn_fits": state.fits(state.drawn) if drew else None,
        "catchable": state.catchable if state.catchable >= 0 else None,
        "stock_size": len(state.stock),
        "discard_size": len(state.discard),
        "scores": list(state.scores),
        "round": state.round,
        "dealer": state.dealer,
        "target_score": game.options["target_score"],
        "rounds": game.options["rounds"],
        "log": log_since(state, seat, max(0, len(state.events) - LOG_LENGTH)),
        "over": state.over,
        "result": state.result().to_dict() if state.over else None,
    }



def log_since(state: MauMauState, seat: int | None, start: int) -> list[dict[str, Any]]:
    """The log from position `start` on, uncapped (`observe` shows its last LOG_LENGTH
    entries). Every entry is public, the same for each seat and spectator."""
    return [_event(e) for e in state.events[start:]]

def _event(event: tuple[Any, ...]) -> dict[str, Any]:
    """One public happening as a JSON-safe dict."""
    seat, what = event[0], event[1]
    if what == "draw":
        return {"seat": seat, "act": "draw", "cards": event[2]}
    if what == "catch":
        return {"seat": seat, "act": "catch", "caught": event[2], "cards": event[3]}
    if what == "round":
        return {"seat": seat, "act": "round_over", "round": event[2], "points": event[3],
                "hands": {str(s): h for s, h in event[4].items()}}
    if what == "reshuffle":
        return {"seat": None, "act": "reshuffle", "cards": event[2]}
    return {"seat": seat, "act": what}


def resample(state: MauMauState, seat: int, rng: random.Random) -> MauMauState:
    """A full state that `seat` cannot tell from this one: unseen cards are dealt anew.

    `seat` knows its hand, the discard pile (every card in it was laid face up) and each
    hand's size; the others' hands and the stock are one unseen pool. A card another player
    has just drawn is any card of that pool: whether it fits is as unknown as the card itself
    (the turn stays with the drawer either way), so it is simply the pool's next card.
    """
    new = state.clone()
    others = [s for s in range(state.game.players) if s != seat]
    held = new.hands
    pool = [c for s in others for c in held[s]] + new.stock
    rng.shuffle(pool)
    hands: dict[int, list[int]] = {s: [] for s in others}
    if new.drawn >= 0 and new.turn != seat:
        new.drawn = pool.pop()
        hands[new.turn].append(new.drawn)
    for s in others:
        need = len(held[s]) - len(hands[s])
        hands[s].extend(pool[:need])
        del pool[:need]
        held[s] = hands[s]
    new.hands = held
    new.stock = pool
    new.rng = random.Random(rng.getrandbits(64))
    new._legal = None
    return new


def explain(state: MauMauState, seat: int, action: MauMauAction) -> str:
    """Why `action` is refused for `seat`, who may act now."""
    if action.kind == CATCH_KIND:
        if state.catchable == seat:
            return "you cannot catch yourself"
        return "nobody can be caught now: catch is for a missing Mau or Mau Mau call"
    if seat != state.turn:
        return f"it is seat {state.turn}'s turn; you may only catch"
    hand = state.hands[seat]
    caught = state.catchable
    if caught >= 0 and not state.masks[caught]:
        return f"seat {caught} went out on a Jack without Mau Mau: catch or pass"
    if action.kind == PASS_KIND:
        return "pass is only for ending your turn after you have drawn a card"
    drawn = state.drawn
    if drawn >= 0 and not state.fits(drawn):
        return f"you have drawn {NAMES[drawn]}, which does not fit: pass"
    if action.kind == DRAW_KIND:
        return f"you have drawn {NAMES[drawn]}: play it or pass"
    c = action.card
    if c not in hand:
        return f"you do not hold {NAMES[c]}"
    if drawn >= 0 and c != drawn:
        return f"after drawing, only the drawn card {NAMES[drawn]} may be played"
    if state.pending and RANK_OF[c] != SEVEN:
        return f"a 7-chain is live: answer with a 7 or draw {state.pending}"
    if not state.fits(c):
        return _mismatch(state, c)
    if action.call == MAU:
        return "Mau is said with the second-to-last card only"
    if action.call == MAUMAU:
        return "Mau Mau is said only when the last card is a Jack"
    return f"{action} is not legal now"


def _mismatch(state: MauMauState, c: int) -> str:
    top = NAMES[state.discard[-1]]
    if RANK_OF[c] == JACK:
        return f"a Jack may not be played on a Jack ({top}) at this table (jack_on_jack=false)"
    suit = SUIT_NAMES[state.suit] if state.suit >= 0 else "any"
    return f"{NAMES[c]} matches neither the suit in force ({suit}) nor the rank of {top}"


__all__ = ["SUITS", "explain", "log_since", "observe", "resample"]
