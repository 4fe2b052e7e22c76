"""Mau Mau's state machine (docs/games/maumau.md): deal, plays, powers, draws, calls, scoring.

The state is mutable and cheap to copy. Hands are bitmasks (bit c = card c), so the cards a
player may lay are one AND with a table row, and the legal-action tuple for that set of cards is
looked up in a cache shared by all states (its contents depend on nothing else).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from tiergarten.core import Action, Result, Termination, TurnState, ViewModule

from . import view
from .actions import (
    CATCH,
    CATCH_KIND,
    DRAW,
    DRAW_KIND,
    MAU,
    MAUMAU,
    PASS,
    PASS_KIND,
    PLAY,
    PLAY_KIND,
    PLAY_LAST,
    PLAY_SECOND_LAST,
    MauMauAction,
)
from .cards import DECK, EIGHT, JACK, NAMES, NINE, RANK_OF, SEVEN, SUIT_OF, SUITS, hand_value
from .terms import MauMauTermination

if TYPE_CHECKING:
    from .game import MauMau

HAND_SIZE = 5
_ALONE = tuple((seat,) for seat in range(16))  # to_move when only the turn's player may act
_CATCH_ONLY = (CATCH,)


def _fit_table(jack_on_jack: bool) -> tuple[tuple[tuple[bool, ...], ...], ...]:
    """FIT[suit in force + 1][top card's rank][card]: may the card be laid (no 7-chain live)?"""
    return tuple(tuple(tuple(
        (top_rank != JACK or jack_on_jack) if RANK_OF[c] == JACK
        else suit < 0 or SUIT_OF[c] == suit or RANK_OF[c] == top_rank
        for c in DECK) for top_rank in range(8)) for suit in range(-1, 4))


_FIT_JJ, _FIT_NO_JJ = _fit_table(True), _fit_table(False)


def _as_masks(fit: tuple[tuple[tuple[bool, ...], ...], ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sum(1 << c for c in DECK if row[c]) for row in by_top) for by_top in fit)


_FITMASK_JJ, _FITMASK_NO_JJ = _as_masks(_FIT_JJ), _as_masks(_FIT_NO_JJ)
_SEVENS = sum(1 << c for c in DECK if RANK_OF[c] == SEVEN)
_TABLES = (PLAY, PLAY_SECOND_LAST, PLAY_LAST)  # by hand-size class: 3+, 2, 1 cards
_LEGAL: dict[int, tuple[MauMauAction, ...]] = {}  # key: playable mask, size class, flags


def cards_of(mask: int) -> list[int]:
    """The cards in a hand bitmask, in card order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _legal_for(key: int) -> tuple[MauMauAction, ...]:
    """Build the legal actions that `key` (see `_turn_actions`) stands for."""
    drawn, catch, size_class, playable = key & 1, key >> 1 & 1, key >> 2 & 3, key >> 4
    table = _TABLES[size_class]
    out = [a for c in cards_of(playable) for a in table[c]]
    if drawn:
        out.append(PASS)
    else:
        out.append(DRAW)
        if catch:
            out.append(CATCH)
    legal = _LEGAL[key] = tuple(out)
    return legal


def _steps_after(nine_skips: bool) -> tuple[int, ...]:
    """By rank: how many seats the turn moves on after that card (an 8 skips one)."""
    return tuple(2 if r == EIGHT or (r == NINE and nine_skips) else 1 for r in range(8))


class MauMauState(TurnState[MauMauAction]):
    """One Mau Mau match: rounds are dealt until the target score (or round count) is reached."""

    __slots__ = (
        "masks", "stock", "discard", "suit", "pending", "direction", "drawn", "catchable",
        "scores", "round", "dealer", "_movers", "_n", "_fit", "_fitmask", "_steps",
        "_keeps_turn",
    )
    view: ClassVar[ViewModule] = view
    action_type: ClassVar[type[Action]] = MauMauAction
    _CLONE_KEEP = ("_n", "_fit", "_fitmask", "_steps", "_keeps_turn", "suit", "pending",
                   "direction", "turn", "drawn", "catchable", "round", "dealer", "_legal",
                   "_movers")
    _CLONE_COPY = ("masks", "stock", "discard", "scores")

    def __init__(self, game: MauMau, seed: int) -> None:
        super().__init__(game, seed)
        self._n = game.players
        self._fit = _FIT_JJ if game.options["jack_on_jack"] else _FIT_NO_JJ
        self._fitmask = _FITMASK_JJ if game.options["jack_on_jack"] else _FITMASK_NO_JJ
        nine_skips = game.players == 2 and game.options["two_player_nine"] == "skip"
        self._steps = _steps_after(nine_skips)
        self._keeps_turn = game.rules >= 2  # a plain draw keeps the turn (rules 2 on)
        self.scores = [0] * game.players
        self.round = 1
        self.dealer = 0
        self._deal()

    # -- set-up -----------------------------------------------------------------------------

    def _deal(self) -> None:
        """Shuffle, deal five each, turn up the first card and let it act as the dealer's play."""
        n = self.game.players
        deck = list(DECK)
        self.rng.shuffle(deck)
        self.masks = [sum(1 << c for c in deck[i * HAND_SIZE:(i + 1) * HAND_SIZE])
                      for i in range(n)]
        self.stock = deck[n * HAND_SIZE:]
        self.discard = [self.stock.pop()]
        self.direction = 1
        self.pending = 0
        self.drawn = -1
        self.catchable = -1
        self._legal: tuple[MauMauAction, ...] | None = None
        self._movers: tuple[int, ...] | None = None
        up = self.discard[0]
        self.suit = SUIT_OF[up]
        self.turn = self.dealer
        if not self.game.options["first_card_effects"]:
            self.turn = self._next(1)
            return
        rank = RANK_OF[up]
        if rank == JACK:
            self.suit = -1  # no suit in force until the next card
        if rank == SEVEN:
            self.pending = 2
        self._after_power(rank)

    # -- queries ----------------------------------------------------------------------------

    def to_move(self) -> tuple[int, ...]:
        if self.over:
            return ()
        movers = self._movers
        if movers is None:
            turn, caught = self.turn, self.catchable
            if caught < 0:
                movers = _ALONE[turn]  # the common case: no tuple, no generator built
            else:
                movers = (turn, *(s for s in range(self._n) if s != turn and s != caught))
            self._movers = movers
        return movers

    def _off_turn_actions(self, seat: int) -> tuple[MauMauAction, ...]:
        if self.catchable >= 0 and seat != self.catchable and 0 <= seat < self._n:
            return _CATCH_ONLY
        return ()

    def _turn_actions(self) -> tuple[MauMauAction, ...]:
        mask = self.masks[self.turn]
        caught = self.catchable
        if caught >= 0 and not self.masks[caught]:
            return (PASS, CATCH)  # went out on a Jack without "Mau Mau": catch or let it stand
        size = mask.bit_count()
        key = 0 if size > 2 else 4 if size == 2 else 8
        drawn = self.drawn
        if drawn >= 0:  # after a plain draw: pass, or play the drawn card if it fits
            fitting = 1 << drawn & self._fitmask[self.suit + 1][RANK_OF[self.discard[-1]]]
            key |= 1 | fitting << 4
        else:
            if caught >= 0 and caught != self.turn:
                key |= 2
            if self.pending:
                key |= (mask & _SEVENS) << 4
            else:
                key |= (mask & self._fitmask[self.suit + 1][RANK_OF[self.discard[-1]]]) << 4
        return _LEGAL.get(key) or _legal_for(key)

    def fits(self, c: int) -> bool:
        """May card `c` be laid on the discard pile now (ignoring a live 7-chain)?"""
        return self._fit[self.suit + 1][RANK_OF[self.discard[-1]]][c]

    def _result(self, reason: Termination) -> Result:
        return Result.from_scores(self.scores, reason)

    # -- transitions ------------------------------------------------------------------------

    def _act(self, seat: int, action: MauMauAction) -> None:  # type: ignore[override]
        self._legal = None
        self._movers = None
        kind = action.kind
        if kind == CATCH_KIND:
            self._catch(seat)
        else:
            caught = self.catchable
            self.catchable = -1  # the next player has acted: nobody can be caught any more
            if caught >= 0 and not self.masks[caught]:
                self.events.append((caught, "stands"))
                self._end_round(caught)
            elif kind == PLAY_KIND:
                self._play(seat, action)
            elif kind == DRAW_KIND:
                self._draw(seat)
            elif kind == PASS_KIND:
                self.events.append((seat, "pass"))
                self.drawn = -1
                self.turn = self._next(1)

    def _play(self, seat: int, action: MauMauAction) -> None:
        c = action.card
        hand = self.masks[seat] ^ 1 << c
        self.masks[seat] = hand
        self.discard.append(c)
        self.drawn = -1
        self.events.append((seat, action.text))
        rank = RANK_OF[c]
        self.suit = action.suit if rank == JACK else SUIT_OF[c]
        if not hand:
            if rank == JACK and action.call != MAUMAU:
                self.catchable = seat  # out, unless an opponent catches the missing "Mau Mau"
                self.turn = self._next(1)
                return
            self._end_round(seat)
            return
        if hand & (hand - 1) == 0 and action.call != MAU:  # one card left
            self.catchable = seat
        if rank == SEVEN:
            self.pending += 2
        elif rank == NINE:
            self.direction = -self.direction
        self.turn = (self.turn + self._steps[rank] * self.direction) % self._n

    def _after_power(self, rank: int) -> None:
        """Pass the turn on after a card of `rank` was played (by a player or as the up-card)."""
        if rank == NINE:
            self.direction = -self.direction
        self.turn = (self.turn + self._steps[rank] * self.direction) % self._n

    def _draw(self, seat: int) -> None:
        if self.pending:
            got = self._give(seat, self.pending)
            self.events.append((seat, "draw", len(got)))
            self.pending = 0
            self.turn = self._next(1)
            return
        stock = self.stock
        if stock:  # the usual case, without the general `_give`
            c = stock.pop()
            self.masks[seat] |= 1 << c
            self.events.append((seat, "draw", 1))
        else:
            got = self._give(seat, 1)
            self.events.append((seat, "draw", len(got)))
            c = got[0] if got else -1
        if c >= 0 and (self._keeps_turn or self.fits(c)):
            # The turn stays with the drawer whether or not the card fits: nobody else may
            # learn which (docs/games/maumau.md, "A turn"); only a draw of nothing moves on.
            # Under rules 1 a card that did not fit passed the turn at once.
            self.drawn = c
        else:
            self.turn = (self.turn + self.direction) % self._n

    def _catch(self, seat: int) -> None:
        caught = self.catchable
        self.catchable = -1
        got = self._give(caught, self.game.options["mau_penalty"])
        self.events.append((seat, "catch", caught, len(got)))
        if not self.masks[caught]:  # no penalty card could be given: the player is out after all
            self._end_round(caught)
        elif caught == self.turn:  # a player who draws penalty cards may play no card that turn
            self.drawn = -1
            self.turn = self._next(1)

    def _give(self, seat: int, count: int) -> list[int]:
        """Draw up to `count` cards into `seat`'s hand, reshuffling the discards when needed."""
        got: list[int] = []
        stock = self.stock
        for _ in range(count):
            if not stock:
                if len(self.discard) < 2:
                    break  # not enough cards anywhere: the rest is forgiven
                top = self.discard.pop()
                stock.extend(self.discard)
                self.rng.shuffle(stock)
                self.discard = [top]
                self.events.append((-1, "reshuffle", len(stock)))
            c = stock.pop()
            self.masks[seat] |= 1 << c
            got.append(c)
        return got

    def _next(self, steps: int) -> int:
        return (self.turn + steps * self.direction) % self._n

    def _end_round(self, winner: int) -> None:
        points = sum(hand_value(h) for s, h in enumerate(self.hands) if s != winner)
        self.scores[winner] += points
        shown = {s: [NAMES[c] for c in h] for s, h in enumerate(self.hands) if h}
        self.events.append((winner, "round", self.round, points, shown))
        options = self.game.options
        if options["rounds"] is not None:
            if self.round >= options["rounds"]:
                self._finish(MauMauTermination.ROUNDS)
                return
        elif max(self.scores) >= options["target_score"]:
            self._finish(MauMauTermination.TARGET_SCORE)
            return
        self.round += 1
        self.dealer = (self.dealer + 1) % self._n
        self._deal()

    def _finish(self, reason: Termination) -> None:
        super()._finish(reason)
        self.catchable = -1
        self.drawn = -1  # nobody moves any more: no drawn card waits to be played,
        self.pending = 0  # no 7-chain waits to be paid (the decision bound cut a turn short)
        self._legal = None
        self._movers = None

    # -- copies -----------------------------------------------------------------------------

    @property
    def hands(self) -> list[list[int]]:
        """Every hand as a list of cards, in card order (a copy: set `hands` to change them)."""
        return [cards_of(m) for m in self.masks]

    @hands.setter
    def hands(self, hands: list[list[int]]) -> None:
        self.masks = [sum(1 << c for c in set(h)) for h in hands]

    def suit_name(self) -> str | None:
        return None if self.suit < 0 else SUITS[self.suit]
