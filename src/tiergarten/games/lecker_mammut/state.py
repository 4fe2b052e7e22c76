"""Lecker Mammut!'s state machine (docs/games/lecker_mammut.md): deal, flips, hits, top choices,
passes, returns.

The engine is discrete: it applies actions in the order it is given them. Who was faster is
decided outside (by arrival at a server, by sampled reaction times in a simulation); the stale-
hit rule keeps that fair: `version` grows whenever the visible cards change, and a hit that
names a version a good hit has changed since is void. The game alone judges this
(`is_void`): whoever orders simultaneous acts says only what each player had seen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from tiergarten.core import Action, IllegalAction, Result, State, Termination, ViewModule

from . import view
from .actions import (
    FLIP,
    FLIP_KIND,
    HIT_KIND,
    HITS,
    MISS,
    MISS_KIND,
    PASS,
    PASS_KIND,
    RETURN_KIND,
    RETURNS,
    TOP_KIND,
    TOPS,
    LeckerAction,
    hit_at,
)
from .cards import DECK, GOOD_HIT, shows, shows_three
from .terms import LeckerMammutTermination

if TYPE_CHECKING:
    from .game import LeckerMammut

_FLIP_AND_HITS = (FLIP, *HITS)
_HITS_AND_PASS = (*HITS, PASS)
# rules 3: wherever a seat may hit it may also press the club and call nothing (`miss`)
_HITS_3 = (*HITS, MISS)
_FLIP_AND_HITS_3 = (FLIP, *HITS, MISS)
_HITS_AND_PASS_3 = (*HITS, PASS, MISS)


_ORDERS: dict[int, tuple[tuple[int, ...], ...]] = {}  # players -> to_move by its first seat


def _orders(players: int) -> tuple[tuple[int, ...], ...]:
    """Per seat: every seat, that one first and the others in seat order (built once)."""
    orders = _ORDERS[players] = tuple((first, *(s for s in range(players) if s != first))
                                      for first in range(players))
    return orders


class LeckerMammutState(State):
    """One game of Lecker Mammut!: as many rounds as players (or the `rounds` option)."""

    __slots__ = (
        "round", "starter", "scores", "piles", "middle", "prizes", "penalties", "penalty_cards",
        "flipper", "choosing", "passed", "returning", "version", "stale_upto", "replaced_at",
        "changed_at", "idle", "_legal", "_public",
    )
    view: ClassVar[ViewModule] = view
    action_type: ClassVar[type[Action]] = LeckerAction
    _CLONE_KEEP = ("round", "starter", "flipper", "version", "stale_upto", "replaced_at",
                   "changed_at", "idle", "_public")  # _public: replaced, never changed in place
    _CLONE_COPY = ("scores", "middle", "penalties", "passed", "returning", "_legal")
    _CLONE_COPY_EACH = ("piles", "penalty_cards")

    def __init__(self, game: LeckerMammut, seed: int) -> None:
        super().__init__(game, seed)
        self.scores = [0] * game.players
        self.round = 1
        self.starter = 0
        self.version = -1  # the first deal makes it 0
        self._deal()

    # -- set-up -----------------------------------------------------------------------------

    def _deal(self) -> None:
        """Shuffle all 49 cards and deal them one by one from the round's starter."""
        n = self.game.players
        deck = list(DECK)
        self.rng.shuffle(deck)
        self.piles: list[list[int]] = [[] for _ in range(n)]  # face down; the top card is last
        for i, c in enumerate(deck):
            self.piles[(self.starter + i) % n].append(c)
        self.middle: list[int] = []  # face up, in the order flipped
        self.prizes: list[list[list[int]]] = [[] for _ in range(n)]  # per seat; top card last
        self.penalties = [0] * n
        self.penalty_cards: list[list[int]] = [[] for _ in range(n)]
        self.flipper = self.starter
        self.choosing: dict[int, tuple[int, list[int]]] = {}  # seat -> (feature, cards taken)
        self.passed = [False] * n
        self.returning: list[int] = []  # seats that must choose a prize pile to give back
        self.stale_upto = self.version  # a hit seen on an older table is void
        # history lengths at the last good hit or deal (a hit made seeing fewer actions is
        # void) and at the last change of the visible cards (so is such a flip)
        self.replaced_at = self.changed_at = len(self.history)
        self.version += 1
        self.idle = 0
        self._legal: list[tuple[LeckerAction, ...] | None] = [None] * n
        self._public: dict[str, Any] | None = None  # the observation, built once per position
        self.events.append(("deal", self.round, self.starter))

    # -- queries ----------------------------------------------------------------------------

    def to_move(self) -> tuple[int, ...]:
        """Anyone may hit at any moment (during returns only the returning seats act). The
        first seat is the one the game waits on: a seat that must give a pile back, else the
        first seat choosing a top card, else the flipper, else the first seat clockwise from
        the starter that has not passed; the others follow in seat order."""
        if self.over:
            return ()
        if self.returning:
            return tuple(self.returning)  # in seat order: the first is waited on first
        if self.choosing:
            first = next(iter(self.choosing))  # the earliest good hit still choosing
        elif self.flipper >= 0:
            first = self.flipper
        else:
            n, start = self.game.players, self.starter
            waiting = [(start + i) % n for i in range(n) if not self.passed[(start + i) % n]]
            first = waiting[0] if waiting else start  # all passed ends the round at once
        return (_ORDERS.get(self.game.players) or _orders(self.game.players))[first]

    def legal_actions(self, seat: int) -> tuple[LeckerAction, ...]:
        if self.over or not 0 <= seat < self.game.players:
            return ()
        legal = self._legal[seat]
        if legal is None:
            legal = self._legal[seat] = self._actions_of(seat)
        return legal

    def _actions_of(self, seat: int) -> tuple[LeckerAction, ...]:
        if self.returning:
            if seat in self.returning:
                return RETURNS[:len(self.prizes[seat])]
            return ()
        choice = self.choosing.get(seat)
        if choice is not None:
            f, taken = choice
            return tuple(TOPS[c] for c in sorted(taken) if shows(c, f))
        old = self.game.rules < 3
        if self.choosing:  # flipping and passing pause while a top card is chosen
            return HITS if old else _HITS_3
        if seat == self.flipper:
            return _FLIP_AND_HITS if old else _FLIP_AND_HITS_3
        if self.flipper < 0 and not self.passed[seat]:
            return _HITS_AND_PASS if old else _HITS_AND_PASS_3
        return HITS if old else _HITS_3

    def visible(self) -> list[int]:
        """The visible cards: the middle, then the top of every prize pile (seat by seat)."""
        return self.middle + [pile[-1] for piles in self.prizes for pile in piles]

    def count(self, f: int) -> int:
        """How many visible cards show feature `f`."""
        return sum(1 for c in self.visible() if shows(c, f))

    def verdict(self, seat: int, action: LeckerAction, seen: int | None = None) -> str:
        """How a legal hit by `seat` would be judged now: "good", "mistake" or "void"."""
        if action.kind != HIT_KIND:
            raise ValueError(f"{action} is not a hit")
        if self.is_void(seat, action, seen):
            return "void"
        return "good" if self.count(action.feature) >= GOOD_HIT else "mistake"

    def is_void(self, seat: int, action: Action, seen: int | None = None) -> bool:
        """The stale-hit rule: a hit is void if a good hit or a new deal came after what its
        player saw — the version it names (`hit boar @17`) or the first `seen` actions of the
        history; a flip is void if the visible cards changed after the first `seen` actions
        (two flips on one sight of the table flip one card). Nothing else is ever void."""
        if not isinstance(action, LeckerAction):
            return False
        if action.kind == MISS_KIND:  # a press: void like a hit on what its player saw
            return seen is not None and seen < self.replaced_at
        if action.kind == HIT_KIND:
            return ((action.version is not None and action.version <= self.stale_upto)
                    or (seen is not None and seen < self.replaced_at))
        return action.kind == FLIP_KIND and seen is not None and seen < self.changed_at

    def takes_moment(self, action: Action) -> bool:
        """Only a hit is the call of a press of the club."""
        return isinstance(action, LeckerAction) and action.kind == HIT_KIND

    def moment_cost(self, seat: int, seen: int, *, lapsed: bool) -> Action | None:
        """Rules 3: a press of the club is a commitment. Pressed with no feature showing three
        visible cards (`lapsed` False: the press has just been made), or not followed by a
        call (`lapsed`: withdrawn, or the call window passed), it is a mistake: `miss`. It
        costs nothing if it is void (a good hit came after the `seen` actions its player had
        seen: a slower hand), or if `seat` may not hit now."""
        if (self.game.rules < 3 or HITS[0] not in self.legal_actions(seat)
                or self.is_void(seat, MISS, seen)):
            return None
        return MISS if lapsed or not shows_three(self.visible()) else None

    def _result(self, reason: Termination) -> Result:
        return Result.from_scores(self.scores, reason)

    # -- transitions ------------------------------------------------------------------------

    def apply(self, seat: int, action: Action | str) -> None:
        """Check and apply `action` for `seat`; a hit may name a version (`hit boar @17`)."""
        if isinstance(action, str):
            action = self.game.parse_action(action)
        if not (isinstance(action, LeckerAction) and action.version is not None):
            super().apply(seat, action)
            return
        n = self.game.players
        if type(seat) is not int or not 0 <= seat < n:
            raise IllegalAction(f"there is no seat {seat!r}", range(n), code="not_to_move")
        if hit_at(action.feature, action.version) is not action:
            raise IllegalAction(f"{action!r} is not an action of lecker_mammut", code="notation")
        legal = self.legal_actions(seat)
        if HITS[action.feature] not in legal:
            raise IllegalAction(self.why_illegal(seat, action), legal)
        if action.version > self.version:
            raise IllegalAction(f"the table has not reached version {action.version} yet; it "
                                f"is at version {self.version}", legal, code="version_ahead",
                                params={"version": action.version, "at": self.version})
        self.apply_unchecked(seat, action)

    def _act(self, seat: int, action: LeckerAction) -> None:  # type: ignore[override]
        kind = action.kind
        if kind == HIT_KIND and action.version is not None and action.version <= self.stale_upto:
            return  # void: a slower hand on a table a good hit has changed since; only recorded
        self._dirty()
        if kind == PASS_KIND:
            self._pass(seat)
            return
        self.passed = [False] * self.game.players  # any other action clears all passes
        if kind == FLIP_KIND:
            self._flip(seat)
        elif kind == HIT_KIND:
            self._hit(seat, action.feature)
        elif kind == MISS_KIND:
            self._penalise(seat, -1, 0)
        elif kind == TOP_KIND:
            self._top(seat, action.card)
        elif kind == RETURN_KIND:
            self._return(seat, action.pile)

    def _changed(self) -> None:
        """The visible cards changed: a new version, and the table's timer starts again."""
        self.version += 1
        self.changed_at = len(self.history)
        self.idle = 0

    def _flip(self, seat: int) -> None:
        c = self.piles[seat].pop()
        self.middle.append(c)
        self.events.append(("flip", seat, c))
        self._changed()
        self._advance_flipper()

    def _advance_flipper(self) -> None:
        """When the flipper's pile is empty the next non-empty pile clockwise is flipped."""
        n = self.game.players
        for step in range(n):
            s = (self.flipper + step) % n
            if self.piles[s]:
                self.flipper = s
                return
        self.flipper = -1
        self.idle = 0  # every pile is flipped: the table's timer starts

    def _hit(self, seat: int, f: int) -> None:
        seen = self.count(f)
        if seen >= GOOD_HIT:
            self._take(seat, f)
        else:
            self._penalise(seat, f, seen)

    def _take(self, seat: int, f: int) -> None:
        """A good hit: the middle cards and whole prize piles showing `f` form one new pile."""
        taken = [c for c in self.middle if shows(c, f)]
        self.middle = [c for c in self.middle if not shows(c, f)]
        robbed: list[list[int]] = []
        for s, piles in enumerate(self.prizes):
            for pile in [p for p in piles if shows(p[-1], f)]:
                piles.remove(pile)
                taken.extend(pile)
                robbed.append([s, len(pile)])
        self.choosing[seat] = (f, taken)
        self.events.append(("hit", seat, f, sorted(taken), robbed))
        self.stale_upto = self.version  # a hit seen on this table or older is now void
        self.replaced_at = len(self.history)
        self._changed()

    def _penalise(self, seat: int, f: int, seen: int) -> None:
        """A mistake (a hit on `f`, which `seen` visible cards show; -1: a `miss`): the next
        card that would be flipped goes to `seat` face down, if any.
        Every mistake counts in `penalties`; only under rules 1 does one with no card left to
        take decide a return (`_end_round`)."""
        self.penalties[seat] += 1
        got = self.flipper >= 0
        if got:
            self.penalty_cards[seat].append(self.piles[self.flipper].pop())
            self._advance_flipper()
        self.events.append(("mistake", seat, f, seen, got) if f >= 0 else ("miss", seat, got))
        self._tick()

    def _top(self, seat: int, c: int) -> None:
        f, taken = self.choosing.pop(seat)
        pile = sorted(x for x in taken if x != c)
        pile.append(c)
        self.prizes[seat].append(pile)
        self.events.append(("top", seat, c, len(pile)))
        self._changed()

    def _pass(self, seat: int) -> None:
        self.passed[seat] = True
        self.events.append(("pass", seat))
        if all(self.passed):
            self._end_round()
        else:
            self._tick()

    def _tick(self) -> None:
        """An action that changed no visible card; once every pile is flipped the table's
        timer (option `idle_limit`) passes for every seat, ending the round, after that many
        in a row — from rules 2 only while no feature shows three visible cards: while one
        does, someone may still want to hit, and acts that change nothing never end the round
        by themselves (under rules 1 the timer ran out on mistakes beside a triple too)."""
        self.idle += 1
        limit = self.game.options["idle_limit"]
        if (limit and self.idle >= limit and self.flipper < 0 and not self.choosing
                and (self.game.rules < 2 or not shows_three(self.visible()))):
            self.events.append(("timer", self.idle))
            self._end_round()

    # -- round end --------------------------------------------------------------------------

    def _end_round(self) -> None:
        """Those with the most penalty cards give a prize pile back (by itself if they have
        one). Under rules 1 the most penalties did, a mistake made when no face-down card was
        left counting as one; from rules 2 only the penalty cards held count (the seed: "the
        player(s) with the most penalty cards")."""
        if self.game.rules >= 2:
            held = [len(cards) for cards in self.penalty_cards]
        else:
            held = self.penalties
        most = max(held)
        for s in range(self.game.players):
            if most and held[s] == most:
                if len(self.prizes[s]) == 1:
                    self._give_back(s, 0)
                elif len(self.prizes[s]) > 1:
                    self.returning.append(s)
        if not self.returning:
            self._score_round()

    def _return(self, seat: int, index: int) -> None:
        self.returning.remove(seat)
        self._give_back(seat, index)
        if not self.returning:
            self._score_round()

    def _give_back(self, seat: int, index: int) -> None:
        pile = self.prizes[seat].pop(index)
        self.middle.extend(pile)  # pushed back into the middle; it scores nothing
        self.events.append(("return", seat, index, len(pile)))
        self._changed()

    def _score_round(self) -> None:
        points = [sum(len(p) for p in piles) for piles in self.prizes]
        self.scores = [a + b for a, b in zip(self.scores, points, strict=True)]
        event: tuple[Any, ...] = ("round", self.round, points, list(self.penalties))
        if self.game.rules >= 2:  # the penalty cards that decided the returns
            event += ([len(cards) for cards in self.penalty_cards],)
        self.events.append(event)
        rounds = self.game.options["rounds"] or self.game.players
        if self.round >= rounds:
            self._finish(LeckerMammutTermination.ROUNDS)
            return
        self.round += 1
        self.starter = (self.starter + 1) % self.game.players
        self._deal()

    def _finish(self, reason: Termination) -> None:
        super()._finish(reason)
        self._dirty()

    def _dirty(self) -> None:
        """Forget what was computed for the old position."""
        self._legal = [None] * self.game.players
        self._public = None

    # -- copies -----------------------------------------------------------------------------

    def _copy_into(self, new: LeckerMammutState) -> None:
        new.prizes = [[p.copy() for p in piles] for piles in self.prizes]
        new.choosing = {s: (f, taken.copy()) for s, (f, taken) in self.choosing.items()}
