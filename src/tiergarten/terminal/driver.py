"""The terminal match: seats people and bots, runs the shared match loop, draws each person's
screen from their own observation, and saves the game as a record.

The loop is `tiergarten.core.match.next_move`, the one the simulator uses; a person is a
`Human` agent whose `propose` is the prompt. Nothing here decides a rule: legality and the
reasons for a refusal come from the engine.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from rich.columns import Columns
from rich.console import Console, RenderableType
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from tiergarten import bots
from tiergarten.core import (
    Action,
    Game,
    IllegalAction,
    NotationError,
    OptionError,
    State,
    game_class,
    load,
)
from tiergarten.core.game import fresh_seed
from tiergarten.core.match import Agent, NoProposal, Proposal, SeatView, next_move

from .human import REACTION, Human, LineReader, Quit, Reader
from .render import Observation, Renderer, can_show_unicode, renderer_for, renderer_module

PERSON = "me"
COMMANDS = ("help", "quit")
LONG_MENU = 24  # more legal moves than this are listed in columns


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


def seat_names(kinds: Sequence[str]) -> list[str]:
    """How each seat is called on screen.

    >>> seat_names(["me", "heuristic", "random"])
    ['You', 'Heuristic 1', 'Random 2']
    >>> seat_names(["me", "me", "random"])
    ['Player 0', 'Player 1', 'Random 2']
    """
    people = list(kinds).count(PERSON)
    return [("You" if people == 1 else f"Player {seat}") if who == PERSON
            else f"{who.capitalize()} {seat}" for seat, who in enumerate(kinds)]


# -- the terminal -------------------------------------------------------------------------------

class Table:
    """The terminal a match is shown on: draws screens, shows the menu, reads moves."""

    def __init__(self, game: Game, names: Sequence[str], seed: int, console: Console,
                 read: Reader, people: Sequence[int], live: bool | None = None) -> None:
        self.game = game
        self.names = list(names)
        self.seed = seed
        self.console = console
        self.read = read
        self.people = list(people)
        self.live = console.is_terminal if live is None else live  # redraw in place
        self.renderer: Renderer = renderer_for(game.id, can_show_unicode(console))
        self.state: State | None = None  # the live game, used only to ask the engine why
        self._shown_to: int | None = None

    # -- drawing ----------------------------------------------------------------------------

    def frame(self, obs: Observation) -> Panel:
        seat = obs.get("seat")
        title = f"{self.game.info.title} · seed {self.seed}"
        if isinstance(seat, int) and len(self.people) > 1:
            title += f" · {self.names[seat]}'s view"
        return Panel(self.renderer.screen(obs, self.names), title=title, title_align="left")

    def show(self, obs: Observation) -> int:
        """Draw `obs`'s screen (in place in a live terminal); return how many lines it took."""
        frame = self.frame(obs)
        if self.live:
            self.console.clear()
        self.console.print(frame)
        return len(self.console.render_lines(frame, pad=False)) if self.live else 0

    def say(self, text: str | Text, style: str | None = None) -> None:
        """One line, never wrapped into several."""
        self.console.print(text, style=style, soft_wrap=True, markup=False, highlight=False)

    def interlude(self, what: RenderableType, last: bool = False, hold: float = 0.0) -> None:
        """Stop between rounds: show the summary; in a live terminal wait for the person
        (or, with only bots playing, for `hold` seconds)."""
        title = "Game over" if last else "Round over"
        self.console.print(Panel(what, title=title, title_align="left"))
        if not self.live or last:
            return
        if self.people:
            with contextlib.suppress(EOFError):
                self.read("Press Enter to go on ", ())
        else:
            time.sleep(hold)

    # -- asking a person ----------------------------------------------------------------------

    def ask(self, view: SeatView, reaction: float = REACTION) -> Proposal | None:
        """Show `view`'s seat its screen and the legal moves; return the move it types and
        when (None: it lets the moment pass). Raises Quit when the person stops.

        A move in turn is timed at the person's `reaction`, an out-of-turn call at once: so at
        a hot-seat table `next_move` goes on to ask the others who may call out of turn (catch
        a missing Mau), and a call they make comes before the move of the person in turn.
        """
        seat, obs, legal = view.seat, view.observation, view.legal
        self._hand_over(seat)
        used = self.show(obs)
        wait = self.renderer.may_wait(obs, seat)
        self._menu(legal, obs, wait, room=self.console.height - used - 3 if self.live else None)
        prompt = "> " if len(self.people) == 1 else f"{self.names[seat]} > "
        extra = self.renderer.commands()
        completions = [str(a) for a in legal] + list(COMMANDS) + list(extra)
        while True:
            text = " ".join(self._line(prompt, completions).split())
            if not text:
                if wait:
                    return None
                self.say("It is your move: type a number or a move (help for help).")
                continue
            if text.lower() in ("quit", "exit"):
                raise Quit("quit")
            if text.lower() in ("help", "?"):
                self._help(len(legal), wait)
                continue
            if text.lower() in extra:
                self.console.print(self.renderer.command(text.lower(), obs))
                continue
            action = self._read_move(text, legal)
            if action is None:
                continue
            if action in legal:
                return (0.0 if wait else reaction, action)
            self.say(self.refusal(seat, action), style="red")

    def _line(self, prompt: str, completions: Sequence[str]) -> str:
        try:
            return self.read(prompt, completions)
        except EOFError:
            raise Quit("the input ended") from None

    def _read_move(self, text: str, legal: Sequence[Action]) -> Action | None:
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.say(f"there is no move {number}: type a number from 1 to {len(legal)}, "
                     "or a move", style="red")
            return None
        try:
            return self.game.parse_action(text)
        except NotationError as exc:
            self.say(str(exc), style="red")
            return None

    def refusal(self, seat: int, action: Action) -> str:
        """The engine's own one-line reason for refusing `action` (its message lists the
        legal moves); asked of a copy, so the game is untouched."""
        if self.state is None:
            return f"{action} is not legal now"
        try:
            self.state.clone().apply(seat, action)
        except IllegalAction as exc:
            return str(exc)
        return f"{action} is not legal now"

    def _menu(self, legal: Sequence[Action], obs: Observation, wait: bool,
              room: int | None = None) -> None:
        """The numbered legal moves: one per line with their notation, or in columns when
        there are many (or, in a live terminal, more than fit below the screen)."""
        labels = [self.renderer.label(str(a), obs, self.names) for a in legal]
        limit = LONG_MENU if room is None else min(LONG_MENU, max(room - wait, 6))
        if len(legal) > limit:
            cells = [Text.assemble((f"{n:>3} ", "bold cyan"), label)
                     for n, label in enumerate(labels, 1)]
            self.console.print(Columns(cells, padding=(0, 3), column_first=True))
        else:
            menu = RichTable.grid(padding=(0, 2))
            menu.add_column(justify="right", style="bold cyan")
            menu.add_column()
            menu.add_column(style="dim")
            for number, (action, label) in enumerate(zip(legal, labels, strict=True), 1):
                same = label.plain == str(action)
                menu.add_row(str(number), label, "" if same else str(action))
            self.console.print(menu)
        if wait:
            self.say("Enter  do nothing, let play go on", style="bold cyan")
        self.say("Type a number or a move (Tab completes), help, or quit.", style="dim")

    def _help(self, count: int, wait: bool) -> None:
        lines = [
            f"Type a number from 1 to {count} to make that move, or the move itself.",
            f"Moves: {self.game.notation_hint()}.",
            "Tab completes a move as you type it (in a terminal).",
        ]
        if wait:
            lines.append("An empty line lets the moment pass: you are not obliged to act now.")
        lines += [f"{word}: {what}." for word, what in self.renderer.commands().items()]
        lines.append("quit stops the game and saves it so far.")
        for line in lines:
            self.say(line)

    def _hand_over(self, seat: int) -> None:
        """Hot-seat: before a different person's hand is shown, let the keyboard change hands."""
        if len(self.people) < 2 or seat == self._shown_to:
            return
        self._shown_to = seat
        if self.live:
            self.console.clear()
            self.say(f"{self.names[seat]}, your move. Others, look away.", style="bold")
            self._line("Press Enter when ready ", ())
        else:
            self.console.rule(f"{self.names[seat]}")


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
        self.table = Table(self.game, self.names, self.seed, console or Console(highlight=False),
                           read or LineReader(), people, live)
        self.agents: list[Agent] = [
            Human(seat, self.table, reaction) if who == PERSON else
            bots.make(who, self.game, seat, random.Random(f"{self.seed}:{seat}:{who}"))
            for seat, who in enumerate(self.kinds)]
        self.state = self.game.new_state(self.seed)
        self.table.state = self.state
        self.people = people
        # whose screen to keep up to date between moves: the one person, else a spectator's
        self.viewer = people[0] if len(people) == 1 else None

    def run(self) -> str:
        """Play until the game ends ("over") or the person stops ("quit")."""
        state, table = self.state, self.table
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
                pause = table.renderer.interlude(before, after, self.names)
                if pause is not None:
                    table.interlude(pause, last=state.is_over(), hold=5 * self.pace)
                before = after
        except (Quit, KeyboardInterrupt):
            table.say("")
            table.say("Stopped.", style="bold")
            return "quit"
        self._finish(before)
        return "over"

    def _moved(self, obs: Observation, by_person: bool) -> None:
        if not self.table.live:
            return
        self.table.show(obs)
        if not by_person and self.pace > 0:
            time.sleep(self.pace)

    def _finish(self, obs: Observation) -> None:
        if not self.table.live:
            self.table.console.print(self.table.frame(obs))
        result = obs.get("result") or self.state.result().to_dict()
        self.table.console.print(self.table.renderer.outcome(result, self.names))

    def save(self, path: Path | None = None) -> Path:
        """Write the game so far as a JSON record (to `path`, or ./records/...); return where."""
        if path is None:
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
            path = Path("records") / f"{self.game.id}-{self.seed}-{stamp}.json"
        return save_record(self.state, self.kinds, path)


class MatchLike(Protocol):
    """What `tiergarten play` needs of a match: run it, then save it."""

    def run(self) -> str: ...

    def save(self, path: Path | None = None) -> Path: ...


def start_match(game_id: str, players: Sequence[str] | None = None, seed: int | None = None,
                options: Mapping[str, Any] | None = None, pace: float = 0.6,
                console: Console | None = None) -> MatchLike:
    """A terminal match of `game_id`: the turn-based `Match`, unless the game's terminal module
    brings its own match class as `MATCH` (a real-time game), which is called with the
    keywords players, seed, options and console. Bad players or options raise OptionError."""
    game_class(game_id)  # an unknown game raises OptionError naming the known ones
    own = getattr(renderer_module(game_id), "MATCH", None)
    if own is not None:
        match: MatchLike = own(players=players, seed=seed, options=options, console=console)
        return match
    return Match(game_id, players, seed, options, pace=pace, console=console)


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
