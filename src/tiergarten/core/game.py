"""The contract every game meets: a `Game` (facts, options, action space) and its `State`."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, cast

from .errors import IllegalAction, NotationError, OptionError, Refusal
from .options import Option, resolve
from .rules import FIRST, RulesVersion, check_versions, pick

RECORD_FORMAT = 2  # 2: the record names its rules version; 1 (before) did not
DECISION_LIMIT = "decision_limit"  # the reason every game has: the engine's bound was reached


class Action:
    """A small immutable value naming one move; games intern one instance per action.

    `str(action)` is its notation and `game.parse_action(str(action))` gives it back. Actions
    are interned (one object per action of a game), so `==` and hashing are by identity: a
    fast membership test in the hot loop of random playouts and search.
    """

    __slots__ = ("id", "text")
    id: int
    text: str

    def __init__(self, id: int, text: str) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "text", text)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.text!r}>"

    def __reduce__(self) -> tuple[Any, ...]:
        raise TypeError("actions are stored as notation: use str(action) and game.parse_action()")


class Termination(StrEnum):
    """Why a game ended. Each game declares its reasons once, as a subclass named by its
    `GameInfo.reasons` (docs/architecture.md lists them); every game has `DECISION_LIMIT`.

    Members are strings: `result.reason == "target_score"`, JSON and records read them as
    their text, and `str(reason)` is that text.
    """


@dataclass(frozen=True)
class GameInfo:
    """The facts of a game that adapters read instead of guessing."""

    id: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    options: tuple[Option, ...]
    max_decisions: int  # hard bound: the engine ends any game that reaches it
    reasons: type[Termination]  # every way a game can end (`Result.reason`)
    chance: bool = True
    perfect_information: bool = False
    real_time: bool = False
    summary: str = ""
    rules: tuple[RulesVersion, ...] = FIRST  # every version of the rules, oldest first

    @property
    def rules_version(self) -> int:
        """The newest rules version: the one new games are played under."""
        return self.rules[-1].number

    def __post_init__(self) -> None:
        check_versions(self.id, self.rules)
        if DECISION_LIMIT not in {reason.value for reason in self.reasons}:
            raise TypeError(f"{self.id}: {self.reasons.__name__} lacks {DECISION_LIMIT!r}, "
                            "the reason every game ends with at max_decisions")


@dataclass(frozen=True)
class Result:
    """How a finished game ended: per-seat scores, ranks (1 = best, ties share) and winners.

    >>> Result.from_scores((10, 30, 30), reason="target_score")
    Result(scores=(10, 30, 30), ranks=(3, 1, 1), winners=(1, 2), reason='target_score')
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    reason: Termination  # a member of the game's `GameInfo.reasons` (and so a str)

    @classmethod
    def from_scores(cls, scores: Sequence[float], reason: Termination,
                    higher_is_better: bool = True) -> Result:
        """Rank seats by score; ties share a rank and share the win."""
        sign = 1 if higher_is_better else -1
        ranks = tuple(1 + sum(1 for o in scores if sign * o > sign * s) for s in scores)
        winners = tuple(i for i, r in enumerate(ranks) if r == 1)
        return cls(tuple(scores), ranks, winners, reason)

    def to_dict(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "ranks": list(self.ranks),
                "winners": list(self.winners), "reason": str(self.reason)}


class Game(ABC):
    """A game with its player count, options and rules version fixed; makes states and reads
    actions. `rules` is a version of `info.rules` (None: the newest); under an older one the
    options' defaults are that version's, and the state plays its rules.

    >>> import tiergarten
    >>> tiergarten.load("maumau", 2, rules=2).options["two_player_nine"]
    'skip'
    """

    info: ClassVar[GameInfo]

    def __init__(self, players: int | None = None, rules: int | None = None,
                 **options: Any) -> None:
        info = self.info
        version = pick(info.id, info.rules, rules)
        if players is None:
            players = info.default_players
        if isinstance(players, bool) or not isinstance(players, int) or not (
                info.min_players <= players <= info.max_players):
            raise OptionError(
                f"{info.id} is for {info.min_players} to {info.max_players} players, "
                f"not {players!r}",
                range(info.min_players, info.max_players + 1))
        self.players = players
        self.rules: int = version.number
        self.options: dict[str, Any] = resolve(info.options, options, version.defaults)
        self.actions: tuple[Action, ...] = self._make_actions()
        self._by_text: dict[str, Action] | None = None  # built on the first parse_action

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def num_actions(self) -> int:
        """Size of the fixed integer action space."""
        return len(self.actions)

    def action_id(self, action: Action) -> int:
        """The fixed integer of `action`."""
        return action.id

    def action_from_id(self, index: int) -> Action:
        """The action with integer `index`."""
        if isinstance(index, bool) or not isinstance(index, int) or not (
                0 <= index < len(self.actions)):
            raise IllegalAction(
                f"no action has id {index!r}; ids run from 0 to {len(self.actions) - 1}",
                code="notation")
        return self.actions[index]

    def parse_action(self, text: str) -> Action:
        """Read notation (case and spacing are free) into the game's action."""
        if not isinstance(text, str):
            raise NotationError(repr(text), "notation is text")
        key = " ".join(text.lower().split())
        if self._by_text is None:
            self._by_text = {a.text.lower(): a for a in self.actions}
        action = self._by_text.get(key)
        if action is None:
            raise NotationError(text, self.notation_hint())
        return action

    def notation_hint(self) -> str:
        """One line on how this game's actions are written."""
        return "see the game's notation"

    @abstractmethod
    def _make_actions(self) -> tuple[Action, ...]:
        """Every action of the game, in id order."""

    @abstractmethod
    def new_state(self, seed: int | None = None) -> State:
        """A fresh game; the same seed and the same actions always give the same game."""

    def __repr__(self) -> str:
        defaults = self.info.rules[self.rules - 1].defaults
        changed = {k: v for k, v in self.options.items()
                   if v != defaults.get(k, next(o.default for o in self.info.options
                                               if o.name == k))}
        extra = "".join(f", {k}={v!r}" for k, v in changed.items())
        rules = "" if self.rules == self.info.rules_version else f", rules={self.rules}"
        return f"tiergarten.load({self.id!r}, players={self.players}{rules}{extra})"


def fresh_seed() -> int:
    """A seed for callers that gave none, so every game can still be recorded and replayed."""
    return random.SystemRandom().randrange(2**63)


class ViewModule(Protocol):
    """A game's view module (games/<id>/view.py): the one place hidden information is
    removed. Its functions take that game's state."""

    def observe(self, state: Any, seat: int | None) -> dict[str, Any]:
        """Exactly what `seat` may see now."""

    def resample(self, state: Any, seat: int, rng: random.Random) -> State:
        """A full state `seat` cannot tell from `state`."""

    def explain(self, state: Any, seat: int, action: Any) -> Refusal:
        """Why the game's `action` is refused for `seat`, who may act now: the English reason
        with its code and parameters (`core.errors.Refusal`)."""

    def log_since(self, state: Any, seat: int | None, start: int) -> list[dict[str, Any]]:
        """The log entries `seat` may see from position `start` on, uncapped: the observation's
        `log` is the tail of these."""


class State(ABC):
    """A game in progress. Mutable: `apply` changes it in place; `clone` copies it.

    What every game does alike is done here, once: recording and counting each action (and
    ending a game at `GameInfo.max_decisions`), refusing `result()` before the end, handing
    observations, resampling and refusal reasons to the game's `view` module, and the first
    reasons a move is refused (the game is over, the seat may not act, it is another game's
    action), and copying (`clone`). A game writes its own part: `to_move`, `legal_actions`,
    `_act`, `_finish`, `_result`, what `clone` copies (`_CLONE_*`) and its `view`.
    """

    __slots__ = ("game", "seed", "history", "events", "rng", "over", "reason", "decisions",
                 "_limit")
    view: ClassVar[ViewModule]  # the game's view module
    action_type: ClassVar[type[Action]]  # the class of the game's actions
    # What `clone` does with the game's own attributes, by name: values kept as they are
    # (immutable, or replaced rather than changed in place), containers copied (`.copy()`),
    # and lists of containers copied one by one; `_copy_into` copies anything deeper.
    _CLONE_KEEP: ClassVar[tuple[str, ...]] = ()
    _CLONE_COPY: ClassVar[tuple[str, ...]] = ()
    _CLONE_COPY_EACH: ClassVar[tuple[str, ...]] = ()
    game: Game
    seed: int
    history: list[tuple[int, Action]]
    events: list[tuple[Any, ...]]  # public happenings, for the observation's log
    rng: random.Random  # every random draw of the rules comes from here
    over: bool
    reason: Termination | None  # why the game ended; None while it goes on
    decisions: int  # actions applied
    _limit: int  # the engine's bound, GameInfo.max_decisions (read once: apply is hot)

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.seed = seed
        self.history = []
        self.events = []
        self.rng = random.Random(seed)
        self.over = False
        self.reason = None
        self.decisions = 0
        self._limit = game.info.max_decisions

    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """Seats that may act now (several where someone may act out of turn)."""

    @abstractmethod
    def legal_actions(self, seat: int) -> Sequence[Action]:
        """What `seat` may do now, in a fixed order; empty if it may not act. A tuple, or a
        sequence that behaves as the tuple of the same actions (`len`, indexing, slicing,
        iteration, `in`, `==` with a tuple, hashing): a game with many actions per decision
        may build them only when asked."""

    def apply_unchecked(self, seat: int, action: Action) -> None:
        """Apply a legal action without checking it: the fast path for bots and search.

        The game's own part is `_act`; every action is recorded and counted, and a game that
        reaches `GameInfo.max_decisions` ends (`decision_limit`) with its result as it stands.
        """
        self.history.append((seat, action))
        self._act(seat, action)
        decisions = self.decisions = self.decisions + 1
        if decisions >= self._limit and not self.over:
            self._finish(self.game.info.reasons(DECISION_LIMIT))

    @abstractmethod
    def _act(self, seat: int, action: Action) -> None:
        """The rules of a legal `action` by `seat` (already recorded in `history`)."""

    def _finish(self, reason: Termination) -> None:
        """End the game now, for `reason` (a game extends this to settle its own state)."""
        self.over = True
        self.reason = reason

    def observe(self, seat: int | None) -> dict[str, Any]:
        """A JSON-safe dict of exactly what `seat` may see; `None` is a spectator."""
        return self.view.observe(self, seat)

    def log_since(self, seat: int | None, start: int = 0) -> list[dict[str, Any]]:
        """Every entry of the game's log that `seat` may see, from position `start` on, in the
        same shape as the observation's `log` (which keeps only the last few).

        The log has one entry per public happening (`events`) and entry i is the same
        happening for every seat, so positions number it alike for all; what an entry shows
        is filtered for `seat` exactly as its observation is."""
        size = len(self.events)
        if type(start) is not int or not 0 <= start <= size:
            raise ValueError(f"the log has {size} entries: start is a position from 0 to "
                             f"{size}, not {start!r}")
        return self.view.log_since(self, seat, start)

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.over

    def result(self) -> Result:
        """Scores, ranks and winners of a finished game, and why it ended."""
        reason = self.reason
        if not self.over or reason is None:
            raise ValueError("the game is not over yet; result() is for finished games")
        return self._result(reason)

    @abstractmethod
    def _result(self, reason: Termination) -> Result:
        """The result of the game, which has ended for `reason`."""

    def clone(self) -> Self:
        """An independent copy: what every state has, then the game's own attributes as its
        `_CLONE_*` names say, then `_copy_into`."""
        cls = type(self)
        new = cls.__new__(cls)
        new.game = self.game
        new.seed = self.seed
        new.history = self.history.copy()
        new.events = self.events.copy()
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.over = self.over
        new.reason = self.reason
        new.decisions = self.decisions
        new._limit = self._limit
        for name in cls._CLONE_KEEP:
            setattr(new, name, getattr(self, name))
        for name in cls._CLONE_COPY:
            setattr(new, name, getattr(self, name).copy())
        for name in cls._CLONE_COPY_EACH:
            setattr(new, name, [inner.copy() for inner in getattr(self, name)])
        self._copy_into(new)
        return new

    def _copy_into(self, new: Self) -> None:
        """Copy into `new` what the `_CLONE_*` names leave out (deeper containers)."""
        return None  # most games have nothing deeper

    def resample(self, seat: int, rng: random.Random) -> Self:
        """A full state consistent with everything `seat` has seen, hidden parts drawn by `rng`."""
        return cast(Self, self.view.resample(self, seat, rng))

    def why_illegal(self, seat: int, action: Action) -> Refusal:
        """A short reason why `action` is not legal for `seat` now, with its reason code and
        parameters: what every game says alike, else the game's own reason (its view's
        `explain`)."""
        if self.over:
            return Refusal("the game is over", "game_over")
        if seat not in self.to_move():
            # who may act as `seat` sees it: a right to act may hang on hidden cards (MammuZ)
            movers = self.observe(seat)["to_move"]
            return Refusal(f"seat {seat} may not act now (to move: "
                           f"{', '.join(map(str, movers))})", "not_to_move")
        if not isinstance(action, self.action_type):
            return Refusal(f"{action} is not a {self.game.info.title} action", "notation")
        return self.view.explain(self, seat, action)

    def is_void(self, seat: int, action: Action, seen: int | None = None) -> bool:
        """Whether `action` by `seat` no longer counts, because someone else was first and
        changed what it was made on. `seen` is how many actions of `history` its player had
        seen (None: only what the action itself names counts, e.g. `hit boar @17`).

        Only real-time games have void acts (Lecker Mammut: a slower hand landing on a faster
        one); the rest never do. Whoever orders simultaneous acts (a server, a Parallel env)
        asks this before applying one: a void act is not applied, and it is neither legal nor
        illegal — nothing happens. An act that is not void is judged by `apply` on the state
        as it is now."""
        return False

    def takes_moment(self, action: Action) -> bool:
        """Whether `action` may be the act of a reserved moment: whoever orders simultaneous
        acts takes a seat's next such act as its open moment's (Lecker Mammut!: a hit is the
        call after the press of the club; a flip is not). By default every act may."""
        return True

    def moment_cost(self, seat: int, seen: int, *, lapsed: bool) -> Action | None:
        """What the moment of a real-time act costs `seat` by itself: the act to apply for it,
        or None (nothing). Whoever orders simultaneous acts asks when a player reserves the
        moment of an act before saying what it is (`lapsed` False, `seen` as for `is_void`)
        and when that moment ends with no act (`lapsed`: given up, or too late). Only a game
        whose moments are commitments has a cost (Lecker Mammut!, rules 3: a press of the club
        with no call is a mistake); in the others a moment costs nothing."""
        return None

    def apply(self, seat: int, action: Action | str) -> None:
        """Check and apply `action` (or its notation) for `seat`; an illegal one raises and
        changes nothing."""
        if type(seat) is int and 0 <= seat < self.game.players:
            if isinstance(action, Action) and action in self.legal_actions(seat):
                self.apply_unchecked(seat, action)
                return
        else:
            raise IllegalAction(f"there is no seat {seat!r}", range(self.game.players),
                                code="not_to_move")
        if isinstance(action, str):
            action = self.game.parse_action(action)
        elif not (isinstance(action, Action) and action.id < len(self.game.actions)
                  and self.game.actions[action.id] is action):  # another game's, or version's
            raise IllegalAction(f"{action!r} is not an action of {self.game.id} (rules "
                                f"{self.game.rules})", code="notation")
        legal = self.legal_actions(seat)
        if action not in legal:
            raise IllegalAction(self.why_illegal(seat, action), legal)
        self.apply_unchecked(seat, action)

    def record(self) -> dict[str, Any]:
        """Everything needed to replay this game: game, rules version, players, options, seed,
        actions."""
        return {
            "format": RECORD_FORMAT,
            "game": self.game.id,
            "rules": self.game.rules,
            "players": self.game.players,
            "options": dict(self.game.options),
            "seed": self.seed,
            "actions": [[seat, action.text] for seat, action in self.history],
        }


A = TypeVar("A", bound=Action)


class TurnState(State, Generic[A]):
    """A state with one seat on turn at a time (`turn`): its legal actions are worked out once
    per position by `_turn_actions` and kept in `_legal` (an action sets it back to None);
    what another seat may do meanwhile is `_off_turn_actions` (nothing, unless the game says).
    """

    __slots__ = ("turn", "_legal")
    turn: int
    _legal: Sequence[A] | None

    def apply(self, seat: int, action: Action | str) -> None:
        """Check and apply; the common case (the seat on turn, one of its listed actions) is
        applied at once, the rest goes through `State.apply`. `is` only decides whether the
        quick way is taken: a seat it does not know for the seat on turn (True is not the seat
        1 it equals) is checked in full there."""
        if seat is self.turn and not self.over:
            legal = self._legal
            if legal is None:
                legal = self._legal = self._turn_actions()
            if action in legal:  # apply_unchecked, written out: one call less, every step
                self.history.append((seat, action))  # type: ignore[arg-type]
                self._act(seat, action)  # type: ignore[arg-type]
                decisions = self.decisions = self.decisions + 1
                if decisions >= self._limit and not self.over:
                    self._finish(self.game.info.reasons(DECISION_LIMIT))
                return
        super().apply(seat, action)

    def legal_actions(self, seat: int) -> Sequence[A]:
        if self.over:
            return ()
        if seat == self.turn:
            legal = self._legal
            if legal is None:
                legal = self._legal = self._turn_actions()
            return legal
        return self._off_turn_actions(seat)

    @abstractmethod
    def _turn_actions(self) -> Sequence[A]:
        """The legal actions of the seat on turn, in id order."""

    def _off_turn_actions(self, seat: int) -> Sequence[A]:
        """What `seat`, not on turn, may do now (the game is not over)."""
        return ()


def replay_into(state: State, actions: Sequence[Sequence[Any]]) -> State:
    """Apply recorded `[seat, notation]` pairs to `state`, checking each one."""
    for step, item in enumerate(actions):
        if not (isinstance(item, Sequence) and len(item) == 2):
            raise ValueError(f"record action {step} is not a [seat, action] pair: {item!r}")
        seat, text = item
        try:
            state.apply(seat, text)
        except IllegalAction as exc:
            raise IllegalAction(f"record action {step} ({seat}, {text!r}): {exc.reason}",
                                exc.allowed, code=exc.code, params=exc.params) from None
    return state


def check_record(record: Mapping[str, Any]) -> None:
    """Refuse a record that is not a mapping of the expected shape.

    >>> check_record({"format": 3, "game": "maumau", "players": 2, "options": {}, "seed": 1,
    ...               "actions": []})
    Traceback (most recent call last):
    ...
    ValueError: record format 3 is not known; this version reads formats 1 and 2
    """
    if not isinstance(record, Mapping):
        raise ValueError(f"a record is a mapping, not {type(record).__name__}")
    missing = [k for k in ("game", "players", "options", "seed", "actions") if k not in record]
    if missing:
        raise ValueError(f"record lacks {', '.join(missing)}")
    fmt = record.get("format", 1)  # records from before the field were format 1
    if fmt not in (1, RECORD_FORMAT) or isinstance(fmt, bool):
        raise ValueError(f"record format {fmt!r} is not known; this version reads formats 1 "
                         f"and {RECORD_FORMAT}")
    if fmt == RECORD_FORMAT:
        rules = record.get("rules")
        if type(rules) is not int:
            raise ValueError(f"a format {RECORD_FORMAT} record names its rules version as a "
                             f"whole number, not {rules!r}")
    seed = record["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"record seed must be an integer, not {seed!r}")
    if not isinstance(record["options"], Mapping):
        raise ValueError(f"record options must be a mapping, not {record['options']!r}")
    if not isinstance(record["actions"], Sequence) or isinstance(record["actions"], str):
        raise ValueError("record actions must be a list of [seat, action] pairs")
