"""What a seat may know of a Lecker Mammut! state: its observation, sampling, refusal reasons.

Hidden information is removed here and only here. Unseen by everyone: the face-down piles and
the penalty cards (taken face down, never looked at). Everything else was face up at some
moment, so the whole table is public to a player with a perfect memory; the observation shows
the table as it lies (a prize pile as its top card and size) and a log of recent events.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from tiergarten.core import Refusal

from .actions import FLIP_KIND, MISS_KIND, PASS_KIND, RETURN_KIND, TOP_KIND, LeckerAction
from .cards import FEATURE_NAMES, NAMES, shows
from .terms import CHOOSING, ENDING, FLIPPING, OVER, RETURNS

if TYPE_CHECKING:
    from .state import LeckerMammutState

LOG_LENGTH = 12


def phase(state: LeckerMammutState) -> str:
    """`flipping`, `choosing` (a top card is awaited), `ending` (every pile is flipped: hit or
    pass), `returns` (the most penalised give a pile back) or `over`."""
    if state.over:
        return OVER
    if state.returning:
        return RETURNS
    if state.choosing:
        return CHOOSING
    return FLIPPING if state.flipper >= 0 else ENDING


def observe(state: LeckerMammutState, seat: int | None) -> dict[str, Any]:
    """Exactly what `seat` may see now; every seat sees the same table (`None`: a spectator).

    The table part is built once per position and shared by every observation of that
    position: each call returns a new dict, but its lists are shared; treat them as read-only.
    """
    public = state._public
    if public is None:
        public = state._public = _table(state)
    return {"game": "lecker_mammut", "seat": seat, **public}


def _table(state: LeckerMammutState) -> dict[str, Any]:
    """Everything every seat sees alike."""
    game = state.game
    return {
        "players": game.players,
        "round": state.round,
        "rounds": game.options["rounds"] or game.players,
        "starter": state.starter,
        "phase": phase(state),
        "version": state.version,
        "middle": [NAMES[c] for c in state.middle],
        "prize_piles": [[{"top": NAMES[p[-1]], "size": len(p)} for p in piles]
                        for piles in state.prizes],
        "face_down": [len(p) for p in state.piles],
        "flipper": state.flipper if state.flipper >= 0 else None,
        "choosing": [_choice(s, f, taken) for s, (f, taken) in state.choosing.items()],
        "penalties": list(state.penalties),
        "penalty_cards": [len(p) for p in state.penalty_cards],
        "passed": [s for s, done in enumerate(state.passed) if done],
        "returning": list(state.returning),
        "scores": list(state.scores),
        "to_move": list(state.to_move()),  # every right to act in this game is public
        "log": log_since(state, None, max(0, len(state.events) - LOG_LENGTH)),
        "over": state.over,
        "result": state.result().to_dict() if state.over else None,
    }


def _choice(seat: int, f: int, taken: list[int]) -> dict[str, Any]:
    return {"seat": seat, "feature": FEATURE_NAMES[f], "cards": [NAMES[c] for c in sorted(taken)],
            "tops": [NAMES[c] for c in sorted(taken) if shows(c, f)]}



def log_since(state: LeckerMammutState, seat: int | None, start: int) -> list[dict[str, Any]]:
    """The log from position `start` on, uncapped (`observe` shows its last LOG_LENGTH
    entries). Every entry is public, the same for each seat and spectator."""
    return [_event(e) for e in state.events[start:]]

def _event(event: tuple[Any, ...]) -> dict[str, Any]:
    """One public happening as a JSON-safe dict."""
    what = event[0]
    if what == "deal":
        return {"act": "deal", "round": event[1], "starter": event[2]}
    if what == "flip":
        return {"act": "flip", "seat": event[1], "card": NAMES[event[2]]}
    if what == "hit":
        return {"act": "hit", "seat": event[1], "feature": FEATURE_NAMES[event[2]],
                "cards": [NAMES[c] for c in event[3]],
                "robbed": [{"seat": s, "size": k} for s, k in event[4]]}
    if what == "mistake":
        return {"act": "mistake", "seat": event[1], "feature": FEATURE_NAMES[event[2]],
                "showing": event[3], "penalty_card": event[4]}
    if what == "miss":
        return {"act": "miss", "seat": event[1], "penalty_card": event[2]}
    if what == "top":
        return {"act": "top", "seat": event[1], "card": NAMES[event[2]], "size": event[3]}
    if what == "pass":
        return {"act": "pass", "seat": event[1]}
    if what == "timer":
        return {"act": "timer", "idle": event[1]}
    if what == "return":
        return {"act": "return", "seat": event[1], "pile": event[2] + 1, "size": event[3]}
    over = {"act": "round_over", "round": event[1], "points": list(event[2]),
            "penalties": list(event[3])}
    if len(event) > 4:  # rules 2 on: the penalty cards held, which decided the returns
        over["penalty_cards"] = list(event[4])
    return over


def resample(state: LeckerMammutState, seat: int, rng: random.Random) -> LeckerMammutState:
    """A full state that `seat` cannot tell from this one: the unseen cards dealt anew.

    The face-down piles and every penalty card form one unseen pool (a penalty card is taken
    face down, unseen even by its taker); it is shuffled and dealt back to the same sizes.
    Future rounds are reshuffled by a fresh generator drawn from `rng`.
    """
    new = state.clone()
    pool = [c for pile in new.piles for c in pile]
    pool += [c for cards in new.penalty_cards for c in cards]
    rng.shuffle(pool)
    for stacks in (new.piles, new.penalty_cards):
        for i, stack in enumerate(stacks):
            stacks[i] = pool[:len(stack)]
            del pool[:len(stack)]
    new.rng = random.Random(rng.getrandbits(64))
    return new


def explain(state: LeckerMammutState, seat: int, action: LeckerAction) -> Refusal:
    """Why `action` is refused for `seat`, who may act now (each reason's code and parameters:
    docs/games/lecker_mammut.md, Refusals); everything named here is on the table for all."""
    kind = action.kind
    if kind == MISS_KIND and state.game.rules < 3:
        return Refusal(f"'miss' is an act from rules 3 on; this game plays rules "
                       f"{state.game.rules}", "notation")
    if state.returning:
        if seat not in state.returning:
            return Refusal("the round is over: only the most penalised players give a prize "
                           "pile back", "returns_only")
        if kind == RETURN_KIND:
            n = len(state.prizes[seat])
            return Refusal(f"you have {n} prize piles: return 1 to {n}", "return_range", n=n)
        return Refusal("the round is over: choose a prize pile to give back (return <n>)",
                       "choose_return")
    if seat in state.choosing:
        return Refusal("choose the top card of your new prize pile first (top <card>)",
                       "choose_top_first")
    if kind == RETURN_KIND:
        return Refusal("piles are given back only at the end of a round, by the most penalised",
                       "return_at_round_end")
    if kind == TOP_KIND:
        return Refusal("a top card is chosen only by the player who has just made a good hit",
                       "top_after_hit")
    if kind == FLIP_KIND:
        return _why_not_flip(state)
    if kind == PASS_KIND:
        return _why_not_pass(state)
    return Refusal(f"{action} is not legal now", "not_legal")


def _why_not_flip(state: LeckerMammutState) -> Refusal:
    waiting = list(state.choosing)
    if waiting:
        return Refusal(f"flipping pauses while seat {_seats(waiting)} chooses a top card",
                       "flip_paused", waiting=waiting)
    if state.flipper < 0:
        return Refusal("every pile is flipped: hit or pass", "all_flipped")
    return Refusal(f"it is seat {state.flipper}'s pile that is being flipped", "not_your_pile",
                   flipper=state.flipper)


def _why_not_pass(state: LeckerMammutState) -> Refusal:
    waiting = list(state.choosing)
    if waiting:
        return Refusal(f"no passing while seat {_seats(waiting)} chooses a top card",
                       "pass_paused", waiting=waiting)
    if state.flipper >= 0:
        left = sum(len(p) for p in state.piles)
        return Refusal(f"pass only once every pile is flipped ({left} cards are face down)",
                       "pass_when_flipped", left=left)
    return Refusal("you have passed already; pass again after someone else acts",
                   "passed_already")


def _seats(seats: list[int]) -> str:
    return ", ".join(str(s) for s in seats)


__all__ = ["explain", "log_since", "observe", "phase", "resample"]
