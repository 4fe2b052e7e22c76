"""Mau Mau's state machine (RULES.md §1): deal, plays, powers, draws, Mau calls, scoring.

The state is mutable and cheap to copy; `legal_actions` is computed once per position.
"""

from __future__ import annotations

import random
from bisect import insort
from typing import TYPE_CHECKING, Any

from tiergarten.core import Action, Result, State

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

if TYPE_CHECKING:
    from .game import MauMau

HAND_SIZE = 5
MAX_DECISIONS = 20_000  # the engine's safety bound on one match (GameInfo.max_decisions)
_CATCH_ONLY = (CATCH,)


def _fit_table(jack_on_jack: bool) -> tuple[tuple[tuple[bool, ...], ...], ...]:
    """FIT[suit in force + 1][top card's rank][card]: may the card be laid (no 7-chain live)?"""
    return tuple(tuple(tuple(
        (top_rank != JACK or jack_on_jack) if RANK_OF[c] == JACK
        else suit < 0 or SUIT_OF[c] == suit or RANK_OF[c] == top_rank
        for c in DECK) for top_rank in range(8)) for suit in range(-1, 4))


_FIT_JJ, _FIT_NO_JJ = _fit_table(True), _fit_table(False)


class MauMauState(State):
    """One Mau Mau match: rounds are dealt until the target score (or round count) is reached."""

    __slots__ = (
        "game", "seed", "history", "events", "rng", "hands", "stock", "discard", "suit",
        "pending", "direction", "turn", "drawn", "catchable", "scores", "round", "dealer",
        "over", "reason", "decisions", "_legal", "_movers", "_n", "_fit",
    )

    def __init__(self, game: MauMau, seed: int) -> None:
        self.game = game
        self.seed = seed
        self._n = game.players
        self._fit = _FIT_JJ if game.options["jack_on_jack"] else _FIT_NO_JJ
        self.history: list[tuple[int, Action]] = []
        self.events: list[tuple[Any, ...]] = []  # public happenings, for the observation's log
        self.rng = random.Random(seed)
        self.scores = [0] * game.players
        self.round = 1
        self.dealer = 0
        self.over = False
        self.reason = ""
        self.decisions = 0
        self._deal()

    # -- set-up -----------------------------------------------------------------------------

    def _deal(self) -> None:
        """Shuffle, deal five each, turn up the first card and let it act as the dealer's play."""
        n = self.game.players
        deck = list(DECK)
        self.rng.shuffle(deck)
        self.hands = [sorted(deck[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i in range(n)]
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
            others = (s for s in range(self._n) if s != turn and s != caught)
            movers = self._movers = (turn,) if caught < 0 else (turn, *others)
        return movers

    def legal_actions(self, seat: int) -> tuple[MauMauAction, ...]:
        if self.over:
            return ()
        if seat == self.turn:
            legal = self._legal
            if legal is None:
                legal = self._legal = self._turn_actions()
            return legal
        if self.catchable >= 0 and seat != self.catchable and 0 <= seat < self._n:
            return _CATCH_ONLY
        return ()

    def _turn_actions(self) -> tuple[MauMauAction, ...]:
        hand = self.hands[self.turn]
        caught = self.catchable
        if caught >= 0 and not self.hands[caught]:
            return (PASS, CATCH)  # went out on a Jack without "Mau Mau": catch or let it stand
        table = PLAY if len(hand) > 2 else PLAY_SECOND_LAST if len(hand) == 2 else PLAY_LAST
        if self.drawn >= 0:
            return (*table[self.drawn], PASS)
        out: list[MauMauAction] = []
        if self.pending:
            for c in hand:
                if RANK_OF[c] == SEVEN:
                    out.extend(table[c])
        else:
            fit = self._fit[self.suit + 1][RANK_OF[self.discard[-1]]]
            for c in hand:
                if fit[c]:
                    out.extend(table[c])
        out.append(DRAW)
        if caught >= 0 and caught != self.turn:
            out.append(CATCH)
        return tuple(out)

    def fits(self, c: int) -> bool:
        """May card `c` be laid on the discard pile now (ignoring a live 7-chain)?"""
        return self._fit[self.suit + 1][RANK_OF[self.discard[-1]]][c]

    def is_over(self) -> bool:
        return self.over

    def result(self) -> Result:
        if not self.over:
            raise ValueError("the game is not over yet; result() is for finished games")
        return Result.from_scores(self.scores, self.reason)

    def observe(self, seat: int | None) -> dict[str, Any]:
        return view.observe(self, seat)

    def resample(self, seat: int, rng: random.Random) -> MauMauState:
        return view.resample(self, seat, rng)

    # -- transitions ------------------------------------------------------------------------

    def apply(self, seat: int, action: Action | str) -> None:
        """Check and apply; the common case (the turn's player, a listed action) is inlined."""
        if seat == self.turn and not self.over:
            legal = self._legal
            if legal is None:
                legal = self._legal = self._turn_actions()
            if action in legal:
                self.apply_unchecked(seat, action)
                return
        super().apply(seat, action)

    def apply_unchecked(self, seat: int, action: MauMauAction) -> None:  # type: ignore[override]
        self.history.append((seat, action))
        self._legal = None
        self._movers = None
        kind = action.kind
        if kind == CATCH_KIND:
            self._catch(seat)
        else:
            caught = self.catchable
            self.catchable = -1  # the next player has acted: nobody can be caught any more
            if caught >= 0 and not self.hands[caught]:
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
        self.decisions += 1
        if self.decisions >= MAX_DECISIONS and not self.over:
            self._finish("decision_limit")

    def _play(self, seat: int, action: MauMauAction) -> None:
        c = action.card
        hand = self.hands[seat]
        hand.remove(c)
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
        if len(hand) == 1 and action.call != MAU:
            self.catchable = seat
        if rank == SEVEN:
            self.pending += 2
        self._after_power(rank)

    def _after_power(self, rank: int) -> None:
        """Pass the turn on after a card of `rank` was played (by a player or as the up-card)."""
        if rank == EIGHT:
            self.turn = self._next(2)
        elif rank == NINE:
            self.direction = -self.direction
            two_skip = self.game.players == 2 and self.game.options["two_player_nine"] == "skip"
            self.turn = self._next(2 if two_skip else 1)
        else:
            self.turn = self._next(1)

    def _draw(self, seat: int) -> None:
        if self.pending:
            got = self._give(seat, self.pending)
            self.events.append((seat, "draw", len(got)))
            self.pending = 0
            self.turn = self._next(1)
            return
        got = self._give(seat, 1)
        self.events.append((seat, "draw", len(got)))
        if got and self.fits(got[0]):
            self.drawn = got[0]  # the player may lay this card, and only this one
        else:
            self.turn = self._next(1)

    def _catch(self, seat: int) -> None:
        caught = self.catchable
        self.catchable = -1
        got = self._give(caught, self.game.options["mau_penalty"])
        self.events.append((seat, "catch", caught, len(got)))
        if not self.hands[caught]:  # no penalty card could be given: the player is out after all
            self._end_round(caught)
        elif caught == self.turn:  # a player who draws penalty cards may play no card that turn
            self.drawn = -1
            self.turn = self._next(1)

    def _give(self, seat: int, count: int) -> list[int]:
        """Draw up to `count` cards into `seat`'s hand, reshuffling the discards when needed."""
        got: list[int] = []
        stock, hand = self.stock, self.hands[seat]
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
            insort(hand, c)
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
                self._finish("rounds")
                return
        elif max(self.scores) >= options["target_score"]:
            self._finish("target_score")
            return
        self.round += 1
        self.dealer = (self.dealer + 1) % self.game.players
        self._deal()

    def _finish(self, reason: str) -> None:
        self.over = True
        self.reason = reason
        self.catchable = -1
        self._legal = None
        self._movers = None

    # -- copies -----------------------------------------------------------------------------

    def clone(self) -> MauMauState:
        new = MauMauState.__new__(MauMauState)
        for name in ("game", "seed", "_n", "_fit", "suit", "pending", "direction", "turn", "drawn",
                     "catchable", "round", "dealer", "over", "reason", "decisions", "_legal",
                     "_movers"):
            setattr(new, name, getattr(self, name))
        new.history = self.history.copy()
        new.events = self.events.copy()
        new.hands = [h.copy() for h in self.hands]
        new.stock = self.stock.copy()
        new.discard = self.discard.copy()
        new.scores = self.scores.copy()
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        return new

    def why_illegal(self, seat: int, action: Action) -> str:
        if self.over or seat not in self.to_move():
            return super().why_illegal(seat, action)
        if not isinstance(action, MauMauAction):
            return f"{action} is not a Mau Mau action"
        return view.explain(self, seat, action)

    def suit_name(self) -> str | None:
        return None if self.suit < 0 else SUITS[self.suit]
