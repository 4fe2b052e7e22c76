"""Build a Mau Mau position by hand, for scenario tests: one place that knows the state's fields.

Cards are written in notation ("7h 10s Jd"). The stock is written in draw order: its first card
is the next one drawn. Left out, the stock is every card not placed elsewhere, in deck order.

>>> state = position(hands=["7h 8h", "9c Kd"], top="Qh")
>>> state.observe(0)["hand"], state.observe(0)["top"], state.observe(0)["suit"], state.to_move()
(['7h', '8h'], 'Qh', 'h', (0,))
"""

from __future__ import annotations

from typing import Any

import tiergarten
from tiergarten.games.maumau.cards import DECK, SUIT_OF, SUITS, card
from tiergarten.games.maumau.state import MauMauState


def cards(text: str) -> list[int]:
    """The cards written in `text`, separated by spaces, in the order given."""
    return [card(word) for word in text.split()]


def position(hands: list[str], top: str, *, under: str = "", stock: str | None = None,
             suit: str | None = "top", pending: int = 0, turn: int = 0, direction: int = 1,
             drawn: str | None = None, catchable: int = -1, dealer: int = 0,
             scores: list[int] | None = None, round: int = 1, decisions: int = 0,
             seed: int = 0, **options: Any) -> MauMauState:
    """A state of `len(hands)` players with exactly these hands and piles.

    `top` is the top discard and `under` the cards beneath it (bottom first). `suit` is the suit
    in force: the top card's suit unless given ("h"), or None for no suit (a first Jack).
    """
    game = tiergarten.load("maumau", players=len(hands), **options)
    state = game.new_state(seed)
    state.hands = [sorted(cards(h)) for h in hands]
    state.discard = [*cards(under), card(top)]
    placed = {c for pile in (*state.hands, state.discard) for c in pile}
    if stock is None:
        state.stock = [c for c in reversed(DECK) if c not in placed]
    else:
        state.stock = list(reversed(cards(stock)))
    used = [c for pile in (*state.hands, state.discard, state.stock) for c in pile]
    if len(used) != len(set(used)):
        raise ValueError("a card is placed twice")
    if suit == "top":
        state.suit = SUIT_OF[card(top)]
    else:
        state.suit = -1 if suit is None else SUITS.index(suit)
    state.pending = pending
    state.turn = turn
    state.direction = direction
    state.drawn = -1 if drawn is None else card(drawn)
    state.catchable = catchable
    state.dealer = dealer
    state.scores = list(scores) if scores is not None else [0] * len(hands)
    state.round = round
    state.decisions = decisions
    state.events = []
    state._legal = None
    state._movers = None
    return state


def legal(state: MauMauState, seat: int | None = None) -> list[str]:
    """The legal actions of `seat` (the player to move if None) in notation."""
    return [str(a) for a in state.legal_actions(state.turn if seat is None else seat)]


def hand(state: MauMauState, seat: int) -> list[str]:
    """What `seat` holds, as its own observation shows it."""
    held: list[str] = state.observe(seat)["hand"]
    return held


def last_event(state: MauMauState) -> dict[str, Any]:
    """The newest entry of the public log."""
    event: dict[str, Any] = state.observe(None)["log"][-1]
    return event


def twins(state: MauMauState) -> tuple[MauMauState, MauMauState] | None:
    """Two copies of `state` whose next stock card fits in one and does not in the other (two
    stock cards swapped), or None when the stock does not hold one card of each kind."""
    stock = state.stock
    fitting = [i for i, c in enumerate(stock) if state.fits(c)]
    other = [i for i, c in enumerate(stock) if not state.fits(c)]
    if not fitting or not other:
        return None
    out = []
    for i in (fitting[-1], other[-1]):
        twin = state.clone()
        twin.stock[i], twin.stock[-1] = twin.stock[-1], twin.stock[i]  # the stock pops its end
        out.append(twin)
    return out[0], out[1]


def dealt_with_up_card(rank: str, players: int, **options: Any) -> MauMauState:
    """A freshly dealt match (the first seed from 0 up) whose first up-card has `rank`."""
    game = tiergarten.load("maumau", players=players, **options)
    for seed in range(1000):
        state = game.new_state(seed)
        if state.observe(None)["top"][:-1] == rank:
            return state
    raise LookupError(f"no seed below 1000 turns up a {rank}")
