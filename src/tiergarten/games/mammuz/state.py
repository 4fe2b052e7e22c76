"""MammuZ's state machine (docs/games/mammuz.md): deal, herds, doubts, dinosaurs, extinction, win.

The state is mutable and cheap to copy. Hands are count vectors over the fourteen kinds. Who may
act and what they may do are computed once per position and cached.

What each seat knows of other hands is tracked as counts (`known`, see `knowledge.py`); the
lays a hand can make are found in `lays.py`; the shuffles, draw for draw as CPython's, are in
`shuffles.py`. Where a function has a faster twin (the optional C kernel), the one this module
calls is chosen in `kernel.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import add
from typing import TYPE_CHECKING, Any, ClassVar

from tiergarten.core import Action, Result, State, Termination, TurnState, ViewModule

from . import knowledge, view
from .actions import (
    DOUBT,
    DOUBT_KIND,
    EXTINCT,
    EXTINCT_KIND,
    GIVE,
    GIVE_KIND,
    LAY_KIND,
    MAX_LAY,
    MAX_SEATS,
    MammuZAction,
)
from .cards import (
    COUNTS,
    DEAL_OUT,
    DINOSAURS,
    DOUBTED_TAKES,
    DOUBTER_CHOOSES,
    DOUBTER_TAKES,
    KINDS,
    REMOVE,
    SETUP,
    SPECIES,
    in_play,
)
from .kernel import deal, learn_herd, legal_lays, move_lay, shuffle
from .shuffles import below
from .terms import (
    DEALT,
    GIVE_PHASE,
    OPEN,
    OVER,
    REMOVED,
    RESPOND,
    TAKEN,
    TO_JACKPOT,
    WON,
    MammuZTermination,
)

if TYPE_CHECKING:
    from .game import MammuZ

_DOUBTS = tuple(DOUBT[:size] for size in range(MAX_LAY + 1))  # by the last lay's size
_ALONE = tuple((seat,) for seat in range(MAX_SEATS))  # to_move without an extinction
_ONE = tuple((s,) for s in SPECIES)  # a herd's species, as legal_lays takes it


# Per player count, what every deal starts from: the species in play, the cards of each kind
# in play before the dinosaurs are drawn, and those species' cards in kind order.
_IN_PLAY = {n: in_play(n) for n in SETUP}
_SPECIES_IN_GAME = {n: [COUNTS[k] if k in _IN_PLAY[n] else 0 for k in SPECIES]
                    + [0] * len(DINOSAURS) for n in SETUP}
_SPECIES_DECK = {n: [k for k in SPECIES for _ in range(_SPECIES_IN_GAME[n][k])] for n in SETUP}


def _after_lay(ext: dict[int, tuple[MammuZAction, ...]],
               laid: tuple[int, ...]) -> dict[int, tuple[MammuZAction, ...]]:
    """The extinctions open after a lay, given those open before it: a lay only moves cards
    from a hand into the herd, and a species in the herd cannot die out, so the laid species
    drop out and nothing else changes. (After an extinction, likewise: only that species'
    cards left the game.)"""
    if not ext:
        return ext
    after = {}
    for seat, actions in ext.items():
        kept = [a for a in actions if a.species not in laid]
        if kept:
            after[seat] = tuple(kept)
    return after


def _after_take(ext: dict[int, tuple[MammuZAction, ...]], taker: int, hand: list[int],
                in_game: list[int], declarable: tuple[int, ...],
                ) -> dict[int, tuple[MammuZAction, ...]]:
    """The extinctions open after `taker` took the herd (and any jackpot: both are empty now),
    given those open before: only the taker got cards. Another seat that could extinguish a
    species still can (none of it was in the herd or the jackpot), and one that could not still
    cannot (what it lacked is in the taker's hand now)."""
    after = {seat: actions for seat, actions in ext.items() if seat != taker} if ext else {}
    mine = [EXTINCT[s] for s in declarable if in_game[s] and hand[s] == in_game[s]]
    if mine:
        after[taker] = tuple(mine)
    return after


class MammuZState(TurnState[MammuZAction]):
    """One game of MammuZ, from the deal to the first player out of cards."""

    __slots__ = (
        "n", "powers", "hands", "sizes", "box", "in_game", "removed", "extinct", "declarable",
        "species", "lays", "herd", "herd_size", "phase", "doubter", "jackpot", "jackpot_size",
        "known", "revealed", "winner", "_movers", "_ext",
    )
    view: ClassVar[ViewModule] = view
    action_type: ClassVar[type[Action]] = MammuZAction
    _CLONE_KEEP = ("n", "powers", "box", "declarable", "species", "herd_size", "turn", "phase",
                   "doubter", "jackpot_size", "winner", "_legal", "_movers", "_ext")
    _CLONE_COPY = ("revealed", "lays", "sizes", "in_game", "removed", "extinct", "herd",
                   "jackpot")
    _CLONE_COPY_EACH = ("hands", "known")

    def __init__(self, game: MammuZ, seed: int) -> None:
        super().__init__(game, seed)
        n = self.n = game.players
        self.powers = game.powers
        self.species = -1  # the declared species of the open herd
        self.lays: list[tuple[int, tuple[int, ...]]] = []  # (seat, cards in position order)
        self.herd = [0] * KINDS
        self.herd_size = 0
        self.jackpot = [0] * KINDS
        self.jackpot_size = 0
        self.removed = [0] * KINDS  # cards that left the game face up (removed herds)
        self.extinct = [False] * len(SPECIES)
        self.declarable = _IN_PLAY[n]
        self.known = knowledge.table(n)  # what each seat knows of other hands (knowledge.py)
        # turned-up cards: (layer, kind, doubter, position, outcome, taker); the taker is who
        # got the turned card (the doubter, when the herd is removed)
        self.revealed: list[tuple[Any, ...]] = []
        self.doubter = -1
        self.winner = -1
        self._clear()
        self._deal()

    # -- set-up -----------------------------------------------------------------------------

    def _deal(self) -> None:
        """Take out the removed species, shuffle in unseen dinosaurs, deal all, pick a starter."""
        n = self.n
        setup = SETUP[n]
        rng = self.rng
        dinos = list(DINOSAURS)
        shuffle(rng, dinos)
        shown = sorted(dinos[:setup.dinosaurs])  # shuffled in, unseen
        self.box = sorted(dinos[setup.dinosaurs:])  # dinosaurs left in the box, never seen
        in_game = self.in_game = _SPECIES_IN_GAME[n].copy()
        for d in shown:
            in_game[d] = 1
        deck = _SPECIES_DECK[n] + shown  # every card in play, in kind order
        self.hands = deal(rng, deck, n, setup.hand)
        self.sizes = [setup.hand] * n
        self.turn = below(rng, n)
        self.phase = OPEN
        self.events.append((self.turn, "start"))

    # -- queries ----------------------------------------------------------------------------

    def _clear(self) -> None:
        self._legal: Sequence[MammuZAction] | None = None
        self._movers: tuple[int, ...] | None = None
        self._ext: dict[int, tuple[MammuZAction, ...]] | None = None

    def extinctions(self) -> dict[int, tuple[MammuZAction, ...]]:
        """Seat -> the `extinct` actions open to it now (only seats that have one)."""
        ext = self._ext
        if ext is None:
            ext = {}
            herd, jackpot, in_game, hands = self.herd, self.jackpot, self.in_game, self.hands
            for s in self.declarable:
                count = in_game[s]
                if count and not herd[s] and not jackpot[s]:
                    for seat in range(self.n):
                        if hands[seat][s] == count:
                            ext[seat] = (*ext.get(seat, ()), EXTINCT[s])
                            break
            self._ext = ext
        return ext

    def to_move(self) -> tuple[int, ...]:
        if self.over:
            return ()
        movers = self._movers
        if movers is None:
            turn = self.turn
            ext = self._ext
            if ext is None:
                ext = self.extinctions()
            if ext:
                others = sorted(ext)
                if turn in ext:
                    others.remove(turn)
                movers = (turn, *others)
            else:
                movers = _ALONE[turn]
            self._movers = movers
        return movers

    def legal_actions(self, seat: int) -> Sequence[MammuZAction]:
        """A tuple, or where lays are open the lazy `legal_lays` (lays.py; kernel.py), which
        behaves as the tuple of the same actions but builds one only when it is indexed or
        iterated. (Not TurnState's: it is asked on every decision, and so found in one call.)"""
        if self.over:
            return ()
        ext = self._ext
        if ext is None:
            ext = self.extinctions()
        if seat != self.turn:
            return ext.get(seat, ())
        legal = self._legal
        if legal is None:
            mine = ext.get(seat, ()) if ext else ()
            phase = self.phase
            if phase == OPEN:
                legal = legal_lays(self.declarable, self.hands[seat], mine)
            elif phase == GIVE_PHASE:
                legal = mine + GIVE[:self.n]
            else:
                doubts = _DOUBTS[len(self.lays[-1][1])]
                if not self.sizes[(seat - 1) % self.n]:  # the previous player laid their last
                    legal = doubts + mine  # card: doubt is forced
                else:
                    legal = legal_lays(_ONE[self.species], self.hands[seat], doubts + mine)
            self._legal = legal
        return legal

    def _turn_actions(self) -> Sequence[MammuZAction]:
        return self.legal_actions(self.turn)

    def apply(self, seat: int, action: Action | str) -> None:
        """TurnState's quick way, for an extinction off turn too (one decision in ten of random
        play): an action in the seat's legal actions is applied at once; anything else is
        checked in full (and refused with its reason) by State.apply."""
        if not self.over:
            if seat is self.turn:
                legal = self._legal
                if legal is None:
                    legal = self.legal_actions(seat)
            elif type(seat) is int:
                legal = self.extinctions().get(seat, ())
            else:
                legal = ()
            if action in legal:
                self.apply_unchecked(seat, action)  # type: ignore[arg-type]
                return
        State.apply(self, seat, action)

    def _result(self, reason: Termination) -> Result:
        """The winner scores 1; everyone else minus the cards left in hand. A game stopped
        without a winner (no species left to declare, or the decision limit) ranks everyone
        by cards left; a tie for fewest shares the win."""
        scores = [1 if s == self.winner else -size for s, size in enumerate(self.sizes)]
        return Result.from_scores(scores, reason)

    # -- transitions ------------------------------------------------------------------------

    def _act(self, seat: int, action: MammuZAction) -> None:  # type: ignore[override]
        ext = self._ext
        self._legal = None
        self._movers = None
        self._ext = None
        kind = action.kind
        if kind == LAY_KIND:
            self._lay(seat, action)
            if ext is not None:  # known before the lay: no need to look at every hand again
                self._ext = _after_lay(ext, action.cards) if ext else ext
        elif kind == DOUBT_KIND:
            self._doubt(seat, action.n - 1)
            if ext is not None:
                self._ext = self._after_doubt(ext)
        elif kind == EXTINCT_KIND:
            self._extinguish(seat, action.species)
            if ext is not None and not self.over:  # only that species' extinctions close
                self._ext = _after_lay(ext, (action.species,)) if ext else ext
        elif kind == GIVE_KIND:
            self.events.append((seat, "give", action.n))
            self._resolve(action.n)
            if ext is not None:
                self._ext = self._after_doubt(ext)
        if not self.over and self.phase == OPEN and not self.declarable:
            self._finish(MammuZTermination.NO_SPECIES)  # every species is extinct: none opens

    def _after_doubt(self, ext: dict[int, tuple[MammuZAction, ...]],
                     ) -> dict[int, tuple[MammuZAction, ...]] | None:
        """The extinctions open after a doubt (or a give) was resolved, from those open before
        it where only a taker's hand changed; None (look at every hand) where cards were dealt
        out or left the game."""
        if self.over:
            return None
        if self.phase == GIVE_PHASE:  # nothing moved yet
            return ext
        outcome, taker = self.revealed[-1][4:]
        if outcome == TO_JACKPOT:  # the herd went face down to the jackpot: no hand changed
            return ext
        if outcome == TAKEN:
            return _after_take(ext, taker, self.hands[taker], self.in_game, self.declarable)
        return None

    def _lay(self, seat: int, action: MammuZAction) -> None:
        cards = move_lay(self.rng, action.cards, self.hands[seat], self.herd)
        count = len(cards)
        self.sizes[seat] -= count
        self.herd_size += count
        if self.phase == OPEN:
            self.species = action.species
        self.lays.append((seat, cards))
        self.known[-1][seat] += count  # knowledge.forget, inlined: every lay forgets
        self.events.append((seat, "lay", count, self.species))
        self.turn = (seat + 1) % self.n
        self.phase = RESPOND

    def _doubt(self, seat: int, position: int) -> None:
        """Turn card `position` (0-based) of the previous lay; decide who takes the herd."""
        layer, cards = self.lays[-1]
        card = cards[position]
        self.doubter = seat
        self.revealed.append((layer, card, seat, position, None, None))
        self.events.append((seat, "doubt", layer, position + 1, card))
        if card in SPECIES:
            if card != self.species:
                self._resolve(layer)
            elif not self.sizes[layer]:
                self._close(WON, layer)
                self._finish(MammuZTermination.DOUBT, layer)
            else:
                self._resolve(seat)
            return
        power = self.powers[card - DINOSAURS[0]]
        if power == DOUBTER_TAKES:
            self._resolve(seat)
        elif power == DOUBTED_TAKES:
            self._resolve(layer)
        elif power == DOUBTER_CHOOSES:
            self.phase = GIVE_PHASE
            self.turn = seat
        elif power == DEAL_OUT:
            self._deal_out(seat)
            self._resolve(-1)
        elif power == REMOVE:
            if self.game.rules >= 2:
                self._remove(seat)
            else:
                self._remove_all()
            self._resolve(-1)
        else:  # JACKPOT
            self._close(TO_JACKPOT, None)
            self._to_jackpot()
            self._resolve(-1)

    def _close(self, outcome: str, taker: int | None) -> None:
        """Complete the entry of the last turned card in `revealed`."""
        layer, card, doubter, position, _, _ = self.revealed[-1]
        self.revealed[-1] = (layer, card, doubter, position, outcome, taker)

    def _resolve(self, taker: int) -> None:
        """`taker` takes the herd (-1: nobody did); then a win is checked and a herd opens."""
        doubter = self.doubter
        if taker >= 0:
            self._close(TAKEN, taker)
            self._take(taker)
        layer = self.revealed[-1][0]
        self.lays = []
        self.herd = [0] * KINDS
        self.herd_size = 0
        self.species = -1
        if not self.sizes[layer]:
            self._finish(MammuZTermination.DINOSAUR, layer)
            return
        rule = self.game.options["next_starter"]
        if rule == "next" or (rule == "doubter" and taker == doubter):
            starter = (doubter + 1) % self.n
        elif rule == "taker" and taker >= 0:
            starter = taker
        else:
            starter = doubter
        self.turn = starter
        self.phase = OPEN

    def _take(self, taker: int) -> None:
        """`taker` picks up the herd (and the jackpot, if any): each seat learns what it knew."""
        layer, card = self.revealed[-1][0], self.revealed[-1][1]
        hand = self.hands[taker]
        got = self.herd_size
        hand[:] = map(add, hand, self.herd)
        learn_herd(self.known, taker, self.lays, layer, card, taker)  # skip: taker
        if self.jackpot_size:
            got += self.jackpot_size
            hand[:] = map(add, hand, self.jackpot)
            knowledge.move_jackpot(self.known, taker)
            self.events.append((taker, "jackpot", self.jackpot_size))
            self.jackpot = [0] * KINDS
            self.jackpot_size = 0
        self.sizes[taker] += got
        self.events.append((taker, "take", got))

    def _to_jackpot(self) -> None:
        """The herd joins the jackpot face down; each seat knows its own cards went there."""
        layer, card = self.revealed[-1][0], self.revealed[-1][1]
        for k in range(KINDS):
            self.jackpot[k] += self.herd[k]
        self.jackpot_size += self.herd_size
        learn_herd(self.known, self.n, self.lays, layer, card, -1)  # skip: none
        self.events.append((-1, "jackpot_grows", self.herd_size, self.jackpot_size))

    def _remove(self, doubter: int) -> None:
        """The herd's animals leave the game face up. Dinosaurs never leave it: every dinosaur
        in the herd, the turned one too, is shown and goes to the doubter's hand. The herd is
        not taken (the jackpot waits, the next herd opens as if nobody took it)."""
        herd, hand = self.herd, self.hands[doubter]
        for k in SPECIES:
            if herd[k]:
                self.removed[k] += herd[k]
                self.in_game[k] -= herd[k]
        got = 0
        for d in DINOSAURS:
            if herd[d]:  # one card of each dinosaur at most
                hand[d] += 1
                got += 1
                knowledge.learn_card(self.known, doubter, d)
        self.sizes[doubter] += got
        self._close(REMOVED, doubter)
        self.events.append((doubter, "removed", tuple(herd)))

    def _remove_all(self) -> None:
        """Rules 1: the whole herd, its dinosaurs too, left the game."""
        self._close(REMOVED, None)
        for k in range(KINDS):
            if self.herd[k]:
                self.removed[k] += self.herd[k]
                self.in_game[k] -= self.herd[k]
        self.events.append((-1, "removed", tuple(self.herd)))

    def _deal_out(self, doubter: int) -> None:
        """Shuffle the herd and deal it one card at a time from the doubter on. The turned-up
        card lies face up, so everyone sees who gets it."""
        n, rng = self.n, self.rng
        card = self.revealed[-1][1]
        pile = [k for _, cards in self.lays for k in cards]
        pile.remove(card)
        shuffle(rng, pile)
        at = below(rng, len(pile) + 1)
        pile.insert(at, card)
        dealt = [0] * n
        for i, k in enumerate(pile):
            seat = (doubter + i) % n
            self.hands[seat][k] += 1
            dealt[seat] += 1
        for seat in range(n):
            self.sizes[seat] += dealt[seat]
        getter = (doubter + at) % n
        knowledge.learn_card(self.known, getter, card)
        self._close(DEALT, getter)
        self.events.append((doubter, "deal_out", dealt, getter))

    def _extinguish(self, seat: int, species: int) -> None:
        count = self.hands[seat][species]
        self.hands[seat][species] = 0
        self.sizes[seat] -= count
        self.in_game[species] = 0
        self.extinct[species] = True
        declarable = list(self.declarable)
        declarable.remove(species)
        self.declarable = tuple(declarable)
        knowledge.forget_species(self.known, species)
        self.events.append((seat, "extinct", species, count))
        if not self.sizes[seat]:
            self._finish(MammuZTermination.EXTINCTION, seat)

    def _finish(self, reason: Termination, winner: int = -1) -> None:
        super()._finish(reason)
        self.phase = OVER
        self.winner = winner
        self._clear()
        if winner >= 0:
            self.events.append((winner, "win", reason))

    # -- copies -----------------------------------------------------------------------------

