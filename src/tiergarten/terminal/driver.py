"""The terminal match: seats people and bots, runs the shared match loop, draws each person's
screen from their own observation, and saves the game as a record.

The loop is `tiergarten.core.match.next_move`, the one the simulator uses; a person is a
`Human` agent whose `propose` is the prompt. Nothing here decides a rule: legality and the
reasons for a refusal come from the engine.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from rich.console import Console

from tiergarten import bots
from tiergarten.core import OptionError, State, game_class, load
from tiergarten.core.game import fresh_seed
from tiergarten.core.match import Agent, NoProposal, next_move

from .human import REACTION, Human, LineReader, Quit, Reader
from .render import PERSON, Observation, game_module, seat_names
from .screen import Screen

SAVED = 3  # lines under the last screen: "Game saved to ..." (wrapped) and the shell's prompt


# -- who sits where ---------------------------------------------------------------------------

def lineup(game_id: str, players: Sequence[str] | None = None) -> list[str]:
    """The players of a table by kind (`me` or a bot name); by default `me` plus bots
    (the game's heuristic if it has one, else random) up to its usual table size.

    >>> lineup("maumau")
    ['me', 'heuristic', 'heuristic']
    >>> lineup("maumau", ["me", "rnd"])
    Traceback (most recent call last):
    ...
    tiergarten.core.errors.OptionError: no player 'rnd' for maumau; allowed: me, ..., random
    """
    info = game_class(game_id).info
    known = bots.names(game_id)
    if not players:
        bot = "heuristic" if "heuristic" in known else "random"
        return [PERSON] + [bot] * (info.default_players - 1)
    allowed = (PERSON, *known)
    for who in players:
        if who not in allowed:
            raise OptionError(f"no player {who!r} for {game_id}", allowed)
    return list(players)


# -- the match ----------------------------------------------------------------------------------

class Match:
    """One game at the terminal: set up (bad players or options raise OptionError), then run."""

    def __init__(self, game_id: str, players: Sequence[str] | None = None,
                 seed: int | None = None, options: Mapping[str, Any] | None = None,
                 pace: float = 0.6, console: Console | None = None, read: Reader | None = None,
                 reaction: float = REACTION, live: bool | None = None) -> None:
        self.kinds = lineup(game_id, players)
        self.game = load(game_id, len(self.kinds), **dict(options or {}))
        self.seed = fresh_seed() if seed is None else seed
        self.names = seat_names(self.kinds)
        self.pace = pace
        people = [s for s, who in enumerate(self.kinds) if who == PERSON]
        self.screen = Screen(self.game, self.names, self.seed, console or Console(highlight=False),
                             read or LineReader(), people, live)
        self.agents: list[Agent] = [
            Human(seat, self.screen, reaction) if who == PERSON else
            bots.make(who, self.game, seat, random.Random(f"{self.seed}:{seat}:{who}"))
            for seat, who in enumerate(self.kinds)]
        self.state = self.game.new_state(self.seed)
        self.screen.state = self.state
        self.people = people
        # whose screen to keep up to date between moves: the one person, else a spectator's
        self.viewer = people[0] if len(people) == 1 else None

    def run(self) -> str:
        """Play until the game ends ("over"), the person stops ("quit") or presses Ctrl-C
        ("interrupted")."""
        state, screen = self.state, self.screen
        before = state.observe(self.viewer)
        try:
            while not state.is_over():
                try:
                    seat, action, _ = next_move(state, self.agents)
                except NoProposal:
                    continue  # every person let the moment pass and no bot may act: ask again
                state.apply(seat, action)
                after = state.observe(self.viewer)
                self._moved(after, self.agents[seat].interactive)
                pause = screen.renderer.interlude(before, after, self.names)
                if pause is not None:
                    screen.interlude(pause, last=state.is_over(), hold=5 * self.pace)
                before = after
        except (Quit, KeyboardInterrupt) as stop:
            screen.say("")
            screen.say("Stopped.", style="bold")
            return "quit" if isinstance(stop, Quit) else "interrupted"
        self._finish(before)
        return "over"

    def _moved(self, obs: Observation, by_person: bool) -> None:
        if not self.screen.live:
            return
        self.screen.show(obs)
        if not by_person and self.pace > 0:
            time.sleep(self.pace)

    def _finish(self, obs: Observation) -> None:
        """The last screen with the result below it (fitted to a live terminal, with room for
        the lines saying where the game was saved and the shell's prompt: `SAVED`); the
        ranking in brief where the table of the game and a ranking table do not both fit."""
        table, renderer = self.screen, self.screen.renderer
        result = obs.get("result") or self.state.result().to_dict()
        outcome = renderer.outcome(result, self.names, obs)
        if table.live and table.height(table.fitted(obs, 0)) + table.height(outcome) + SAVED > \
                table.console.height:
            outcome = renderer.outcome(result, self.names, obs, brief=True)
        table.show(obs, [outcome], spare=SAVED)

    def save(self, path: Path | None = None) -> Path:
        """Write the game so far as a JSON record (to `path`, or ./records/...); return where."""
        if path is None:
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
            path = Path("records") / f"{self.game.id}-{self.seed}-{stamp}.json"
        return save_record(self.state, self.kinds, path)


class MatchLike(Protocol):
    """What `tiergarten play` needs of a match: run it ("over", "quit" or "interrupted"),
    then save it."""

    def run(self) -> str: ...

    def save(self, path: Path | None = None) -> Path: ...


def start_match(game_id: str, players: Sequence[str] | None = None, seed: int | None = None,
                options: Mapping[str, Any] | None = None, pace: float = 0.6,
                console: Console | None = None) -> MatchLike:
    """A terminal match of `game_id`: the turn-based `Match`, unless the game brings its own
    match class as `MATCH` in `match_module` (a real-time game), which is called with the
    keywords players, seed, options and console. Bad players or options raise OptionError."""
    game_class(game_id)  # an unknown game raises OptionError naming the known ones
    own = getattr(match_module(game_id), "MATCH", None)
    if own is not None:
        match: MatchLike = own(players=players, seed=seed, options=options, console=console)
        return match
    return Match(game_id, players, seed, options, pace=pace, console=console)


def match_module(game_id: str) -> ModuleType | None:
    """The module `tiergarten.terminal.<game_id>_match`, if there is one: where a game that is
    not played turn by turn keeps its own match (its renderer stays drawing only)."""
    return game_module(game_id, "_match")


def save_record(state: State, kinds: Sequence[str], path: Path) -> Path:
    """Write `state.record()` (plus who sat where, as `agents`) to `path` as JSON."""
    record = state.record()
    record["agents"] = list(kinds)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(record_text(record), encoding="utf-8")
    return path


def record_text(record: Mapping[str, Any]) -> str:
    """A record as readable JSON: the header indented, one action per line.

    >>> print(record_text({"game": "maumau", "actions": [[1, "draw"], [2, "play 7h"]]}))
    {
      "game": "maumau",
      "actions": [
        [1, "draw"],
        [2, "play 7h"]
      ]
    }
    """
    actions = record.get("actions", [])
    head = json.dumps({**record, "actions": "@ACTIONS@"}, indent=2)
    rows = ",\n".join(f"    {json.dumps(a)}" for a in actions)
    body = f"[\n{rows}\n  ]" if actions else "[]"
    return head.replace('"@ACTIONS@"', body) + "\n"
