"""What a seat may know of a MammuZ state: its observation, sampling, and reasons for refusals.

Hidden information (other hands, the cards in other seats' lays, the jackpot, which dinosaurs
stayed in the box) is removed here and only here.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from tiergarten.core import Refusal

from . import knowledge
from .actions import DOUBT_KIND, EXTINCT_KIND, GIVE_KIND, MAX_LAY, MammuZAction
from .cards import COUNTS, DINOSAURS, KINDS, NAMES, SETUP, SPECIES, SPECIES_NAMES, in_play
from .terms import GIVE_PHASE, OPEN, RESPOND

if TYPE_CHECKING:
    from .state import MammuZState

LOG_LENGTH = 12


def _names(counts: list[int] | tuple[int, ...]) -> list[str]:
    return [NAMES[k] for k in range(KINDS) for _ in range(counts[k])]


def _counted(counts: list[int]) -> dict[str, int]:
    return {NAMES[k]: c for k, c in enumerate(counts) if c}


def observe(state: MammuZState, seat: int | None) -> dict[str, Any]:
    """Exactly what `seat` may see now (a spectator, `None`, sees no hand)."""
    n = state.n
    own = seat is not None and 0 <= seat < n
    me = seat if own and seat is not None else n
    row = knowledge.row(state.known, me)
    setup = SETUP[n]
    out_of_game = sum(state.removed) + sum(
        COUNTS[s] - state.removed[s] for s in SPECIES if state.extinct[s])
    to_move = [] if state.over else [state.turn]
    if own and not state.over and me != state.turn and me in state.extinctions():
        to_move.append(me)
    return {
        "game": "mammuz",
        "seat": seat,
        "players": n,
        "hand": _names(state.hands[me]) if own else None,
        "hand_sizes": list(state.sizes),
        "species": SPECIES_NAMES[state.species] if state.species >= 0 else None,
        "herd": [{"seat": s, "count": len(cards),
                  "cards": [NAMES[k] for k in cards] if s == me else None}
                 for s, cards in state.lays],
        "herd_size": state.herd_size,
        "phase": state.phase,
        "turn": None if state.over else state.turn,
        "must_doubt": state.phase == RESPOND and not state.sizes[(state.turn - 1) % n],
        "chooser": state.turn if state.phase == GIVE_PHASE else None,
        "to_move": to_move,
        "extinct": [SPECIES_NAMES[s] for s in SPECIES if state.extinct[s]],
        "in_game": {SPECIES_NAMES[s]: state.in_game[s] for s in in_play(n)},
        # they never leave the game (under rules 1 a removed herd took its own with it)
        "dinosaurs": setup.dinosaurs - sum(state.removed[d] for d in DINOSAURS),
        "removed": _names(state.removed),
        "cards": setup.cards,
        "out_of_game": out_of_game,
        "jackpot_size": state.jackpot_size,
        "known": {str(h): _counted(row[h * KINDS:(h + 1) * KINDS])
                  for h in range(n) if h != me and any(row[h * KINDS:(h + 1) * KINDS])},
        "jackpot_known": _counted(row[n * KINDS:]),
        "revealed": [{"seat": layer, "card": NAMES[card], "doubter": doubter,
                      "position": position + 1, "outcome": outcome, "taker": taker}
                     for layer, card, doubter, position, outcome, taker in state.revealed],
        "dinosaur_powers": dict(state.game.options["dinosaur_powers"]),
        "next_starter": state.game.options["next_starter"],
        "winner": state.winner if state.winner >= 0 else None,
        "log": log_since(state, seat, max(0, len(state.events) - LOG_LENGTH)),
        "over": state.over,
        "result": state.result().to_dict() if state.over else None,
    }



def log_since(state: MammuZState, seat: int | None, start: int) -> list[dict[str, Any]]:
    """The log from position `start` on, uncapped (`observe` shows its last LOG_LENGTH
    entries). Every entry is public, the same for each seat and spectator."""
    return [_event(e) for e in state.events[start:]]

def _event(event: tuple[Any, ...]) -> dict[str, Any]:
    """One public happening as a JSON-safe dict."""
    seat, what = event[0], event[1]
    if what == "lay":
        return {"seat": seat, "act": "lay", "count": event[2], "species": SPECIES_NAMES[event[3]]}
    if what == "doubt":
        return {"seat": seat, "act": "doubt", "of": event[2], "position": event[3],
                "card": NAMES[event[4]]}
    if what == "give":
        return {"seat": seat, "act": "give", "to": event[2]}
    if what in ("take", "jackpot"):
        return {"seat": seat, "act": "take" if what == "take" else "take_jackpot",
                "cards": event[2]}
    if what == "jackpot_grows":
        return {"seat": None, "act": "to_jackpot", "cards": event[2], "jackpot": event[3]}
    if what == "deal_out":
        return {"seat": seat, "act": "deal_out", "dealt": list(event[2]),
                "turned_card_to": event[3]}
    if what == "removed" and seat < 0:  # rules 1: the whole herd left the game
        return {"seat": None, "act": "removed", "cards": _names(event[2])}
    if what == "removed":
        herd = event[2]  # the animals left the game; the dinosaurs went to the doubter
        return {"seat": None, "act": "removed",
                "cards": [NAMES[k] for k in SPECIES for _ in range(herd[k])],
                "dinosaurs": [NAMES[d] for d in DINOSAURS if herd[d]], "to": seat}
    if what == "extinct":
        return {"seat": seat, "act": "extinct", "species": SPECIES_NAMES[event[2]],
                "cards": event[3]}
    if what == "win":
        return {"seat": seat, "act": "win", "reason": str(event[2])}
    return {"seat": seat, "act": what}


def resample(state: MammuZState, seat: int, rng: random.Random) -> MammuZState:
    """A full state that `seat` cannot tell from this one: unseen cards are dealt anew.

    `seat` keeps its hand, its own lays in the herd, every turned-up card, and every card it
    knows another hand or the jackpot holds. The rest — other hands, other seats' lays, the
    jackpot, and which dinosaurs stayed in the box — is drawn from what `seat` has not seen.
    Other seats are left knowing only what is public (what they knew beyond it is hidden).
    """
    n = state.n
    new = state.clone()
    row = knowledge.row(state.known, seat)
    turned = (len(state.lays) - 1, state.revealed[-1][3]) if state.phase == GIVE_PHASE else None
    seen = state.hands[seat].copy()
    for h in range(n + 1):
        if h != seat:
            for k in range(KINDS):
                seen[k] += row[h * KINDS + k]
    for i, (s, cards) in enumerate(state.lays):
        for p, k in enumerate(cards):
            if s == seat or (i, p) == turned:
                seen[k] += 1
    unseen = [d for d in DINOSAURS if not seen[d] and not state.removed[d]]  # rules 1 removed
    rng.shuffle(unseen)
    boxed = len(state.box)
    new.box = sorted(unseen[:boxed])
    pool = [k for k in SPECIES for _ in range(state.in_game[k] - seen[k])] + unseen[boxed:]
    rng.shuffle(pool)
    draw = iter(pool).__next__
    for h in range(n):
        if h != seat:
            hand = new.hands[h] = row[h * KINDS:(h + 1) * KINDS]
            for _ in range(state.sizes[h] - sum(hand)):
                hand[draw()] += 1
    new.lays = [(s, cards) if s == seat else
                (s, tuple(k if (i, p) == turned else draw() for p, k in enumerate(cards)))
                for i, (s, cards) in enumerate(state.lays)]
    jackpot = new.jackpot = row[n * KINDS:]
    for _ in range(state.jackpot_size - sum(jackpot)):
        jackpot[draw()] += 1
    new.herd = [0] * KINDS
    for _, cards in new.lays:
        for k in cards:
            new.herd[k] += 1
    for d in DINOSAURS:
        new.in_game[d] = 0 if d in new.box or state.removed[d] else 1
    public = knowledge.row(state.known, n)
    new.known = knowledge.table(n)  # settled counts: nothing laid since
    for o in range(n + 1):
        new.known[o] = row.copy() if o == seat else public.copy()
        new.known[o][o * KINDS:(o + 1) * KINDS] = [0] * KINDS
    new.rng = random.Random(rng.getrandbits(64))
    new._clear()
    return new


def explain(state: MammuZState, seat: int, action: MammuZAction) -> Refusal:
    """Why `action` is refused for `seat`, who may act now (each reason's code and parameters:
    docs/games/mammuz.md, Refusals)."""
    kind = action.kind
    if kind == EXTINCT_KIND:
        return _why_not_extinct(state, seat, action.species)
    if seat != state.turn:
        return Refusal(f"it is seat {state.turn}'s turn; out of turn you may only extinguish a "
                       "species you hold completely", "not_your_turn", turn=state.turn)
    if state.phase == GIVE_PHASE:
        return Refusal("a Pterosaurus was turned: name the seat that takes the herd with "
                       "'give <seat>'", "give_now")
    if kind == GIVE_KIND:
        return Refusal("give is only for choosing who takes the herd after a Pterosaurus",
                       "give_only")
    if kind == DOUBT_KIND:
        if state.phase == OPEN:
            return Refusal("there is nothing to doubt: open a herd with 'lay <cards> as "
                           "<species>'", "nothing_to_doubt")
        size = len(state.lays[-1][1])  # how many cards were laid is public
        return Refusal(f"the previous lay has {size} card(s): doubt 1 to {size}", "doubt_range",
                       n=size)
    return _why_not_lay(state, seat, action)


def _why_not_lay(state: MammuZState, seat: int, action: MammuZAction) -> Refusal:
    if state.phase != OPEN:
        layer = (seat - 1) % state.n
        if not state.sizes[layer]:
            return Refusal(f"seat {layer} laid their last card: you must doubt", "must_doubt",
                           layer=layer)
        if action.species != state.species:
            name = SPECIES_NAMES[state.species]
            return Refusal(f"this herd is declared as {name}: every lay repeats that species",
                           "same_species", species=name)
    elif action.species not in state.declarable:
        name = SPECIES_NAMES[action.species]
        reason = "is extinct" if state.extinct[action.species] else "is not in play"
        declarable = [SPECIES_NAMES[s] for s in state.declarable]
        return Refusal(f"{name} {reason}; declare one of " + ", ".join(declarable),
                       "not_declarable", species=name, declarable=declarable)
    hand = state.hands[seat]  # the refused seat's own hand
    for k in sorted(set(action.cards)):
        if action.cards.count(k) > hand[k]:
            if not hand[k]:
                return Refusal(f"you hold no {NAMES[k]}", "hold_none", card=NAMES[k])
            return Refusal(f"you hold {hand[k]} {NAMES[k]}, not {action.cards.count(k)}",
                           "hold_fewer", card=NAMES[k], held=hand[k], n=action.cards.count(k))
    return Refusal(f"{action} is not legal now (a lay has 1 to {MAX_LAY} cards)", "not_legal")


def _why_not_extinct(state: MammuZState, seat: int, species: int) -> Refusal:
    name = SPECIES_NAMES[species]
    if state.extinct[species]:
        return Refusal(f"{name} is already extinct", "extinct_already", species=name)
    if species not in in_play(state.n):
        return Refusal(f"{name} is not in play with {state.n} players", "extinct_not_in_play",
                       species=name, players=state.n)
    # the seat's own holding, and how many are still in the game (public: `in_game`)
    held, left = state.hands[seat][species], state.in_game[species]
    if not left:
        return Refusal(f"no {name} card is left in the game", "extinct_none_left", species=name)
    return Refusal(f"you hold {held} of the {left} {name} cards still in the game; you need "
                   "them all", "extinct_need_all", species=name, held=held, left=left)

