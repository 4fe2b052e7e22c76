"""What a seat may know of a Mau Mau state: its observation, sampling, and reasons for refusals.

Hidden information (other hands, the stock's order, a card just drawn by another) is removed
here and only here.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from tiergarten.core import Refusal

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
        if new.game.rules >= 2:
            new.drawn = pool.pop()
        else:  # rules 1: only a card that fits kept the turn, so the drawn card fits
            new.drawn = pool.pop(rng.choice([i for i, c in enumerate(pool) if new.fits(c)]))
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


def explain(state: MauMauState, seat: int, action: MauMauAction) -> Refusal:
    """Why `action` is refused for `seat`, who may act now (each reason's code and parameters:
    docs/games/maumau.md, Refusals)."""
    if action.kind == CATCH_KIND:
        if state.catchable == seat:
            return Refusal("you cannot catch yourself", "catch_self")
        return Refusal("nobody can be caught now: catch is for a missing Mau or Mau Mau call",
                       "nobody_to_catch")
    if seat != state.turn:
        return Refusal(f"it is seat {state.turn}'s turn; you may only catch", "not_your_turn",
                       turn=state.turn)
    caught = state.catchable
    if caught >= 0 and not state.masks[caught]:
        return Refusal(f"seat {caught} went out on a Jack without Mau Mau: catch or pass",
                       "catch_or_pass", caught=caught)
    if action.kind == PASS_KIND:
        return Refusal("pass is only for ending your turn after you have drawn a card",
                       "pass_after_draw")
    drawn = state.drawn  # only the seat on turn drew it, and it is that seat who is refused
    if drawn >= 0 and not state.fits(drawn):
        return Refusal(f"you have drawn {NAMES[drawn]}, which does not fit: pass",
                       "drawn_misfit", card=NAMES[drawn])
    if action.kind == DRAW_KIND:
        return Refusal(f"you have drawn {NAMES[drawn]}: play it or pass", "drawn_play_or_pass",
                       card=NAMES[drawn])
    return _why_not_play(state, seat, action)


def _why_not_play(state: MauMauState, seat: int, action: MauMauAction) -> Refusal:
    c, drawn = action.card, state.drawn
    if c not in state.hands[seat]:
        return Refusal(f"you do not hold {NAMES[c]}", "not_held", card=NAMES[c])
    if drawn >= 0 and c != drawn:
        return Refusal(f"after drawing, only the drawn card {NAMES[drawn]} may be played",
                       "only_drawn", card=NAMES[drawn])
    if state.pending and RANK_OF[c] != SEVEN:
        return Refusal(f"a 7-chain is live: answer with a 7 or draw {state.pending}",
                       "seven_chain", n=state.pending)
    if not state.fits(c):
        return _mismatch(state, c)
    if action.call == MAU:
        return Refusal("Mau is said with the second-to-last card only", "mau_when")
    if action.call == MAUMAU:
        return Refusal("Mau Mau is said only when the last card is a Jack", "maumau_when")
    return Refusal(f"{action} is not legal now", "not_legal")


def _mismatch(state: MauMauState, c: int) -> Refusal:
    top = NAMES[state.discard[-1]]
    if RANK_OF[c] == JACK:
        return Refusal(f"a Jack may not be played on a Jack ({top}) at this table "
                       "(jack_on_jack=false)", "jack_on_jack", top=top)
    suit = SUITS[state.suit] if state.suit >= 0 else "any"
    name = SUIT_NAMES[state.suit] if state.suit >= 0 else "any"
    return Refusal(f"{NAMES[c]} matches neither the suit in force ({name}) nor the rank of "
                   f"{top}", "mismatch", card=NAMES[c], suit=suit, top=top)


__all__ = ["SUITS", "explain", "log_since", "observe", "resample"]
