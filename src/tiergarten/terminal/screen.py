"""The screen a turn-based match is shown on in a terminal: it draws a seat's view, offers the
menu, reads what the person types and says in one line what was wrong.

In a live terminal every question redraws the whole screen in place, fitted to the terminal's
height (the log gives up lines first), so the table and the hand never scroll away. Piped
input (tests, scripts) gets the same screens printed one after another.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence

from rich.columns import Columns
from rich.console import Console, RenderableType
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from tiergarten.core import Action, Game, IllegalAction, NotationError, State
from tiergarten.core.match import Proposal, SeatView

from .human import REACTION, Quit, Reader
from .menu import Choice, Step, Wrong
from .render import Observation, Renderer, can_show_unicode, frame, named, renderer_for, whose

COMMANDS = ("help", "quit")
LONG_MENU = 24  # more choices than this are listed in columns
LIST_LIMIT = 8  # a refusal lists the legal moves only when there are at most this many
HINTS = ("see the menu, or press Tab twice for every move", "see the menu")
UNREADABLE = "cannot read '{}' as a move: help shows how moves are written"


class Screen:
    """The screen a match is shown on in a terminal: draws a seat's view, shows the menu, reads
    moves."""

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
        self.shown: Observation | None = None  # the observation on screen now
        self._shown_to: int | None = None

    # -- drawing ----------------------------------------------------------------------------

    def frame(self, obs: Observation) -> Panel:
        seat = obs.get("seat")
        title = f"{self.game.info.title} · seed {self.seed}"
        if isinstance(seat, int) and len(self.people) > 1:
            title += f" · {whose(self.names[seat])} view"
        return frame(self.renderer.screen(obs, self.names), title)

    def fitted(self, obs: Observation, room: int) -> Panel:
        """The frame of `obs` in at most `room` lines if it can be: fewer log lines first,
        then (none left) the renderer's tight layout, without spacing and extras."""
        renderer = self.renderer
        full = lines = renderer.log_lines
        try:
            while True:
                renderer.log_lines = lines
                frame = self.frame(obs)
                over = self.height(frame) - room
                if over <= 0 or renderer.tight:
                    return frame
                if lines == 0:
                    renderer.tight = True
                lines = max(0, lines - over)  # a log line is a row, unless it wraps
        finally:
            renderer.log_lines, renderer.tight = full, False

    def height(self, what: RenderableType) -> int:
        return len(self.console.render_lines(what, pad=False))

    def show(self, obs: Observation, below: Sequence[RenderableType] = (), spare: int = 1,
             ) -> None:
        """Draw `obs`'s screen and what goes `below` it; in a live terminal in place, with
        `spare` lines left under it (the prompt's)."""
        self.shown = obs
        if self.live:
            room = self.console.height - spare - sum(self.height(r) for r in below)
            frame = self.fitted(obs, room)
            self.console.clear()
        else:
            frame = self.frame(obs)
        self.console.print(frame)
        for part in below:
            self.console.print(part)

    def say(self, text: str | Text, style: str | None = None) -> None:
        """One line, never wrapped into several."""
        self.console.print(text, style=style, soft_wrap=True, markup=False, highlight=False)

    def interlude(self, what: RenderableType, last: bool = False, hold: float = 0.0) -> None:
        """Stop between rounds: show the summary; in a live terminal wait for the person
        (or, with only bots playing, for `hold` seconds)."""
        title = "Game over" if last else "Round over"
        panel = frame(what, title)
        if self.live and self.shown is not None:  # the screen redrawn with room for the panel
            self.show(self.shown, [panel])
        else:
            self.console.print(panel)
        if not self.live or last:
            return
        if self.people:
            with contextlib.suppress(EOFError):
                self.read("Press Enter to go on ", ())
        else:
            time.sleep(hold)

    # -- asking a person ----------------------------------------------------------------------

    def ask(self, view: SeatView, reaction: float = REACTION) -> Proposal | None:
        """Show `view`'s seat its screen and the menu; return the move it makes and when (None:
        it lets the moment pass). Raises Quit when the person stops.

        A move in turn is timed at the person's `reaction`, an out-of-turn call at once: so at
        a hot-seat table `next_move` goes on to ask the others who may call out of turn (catch
        a missing Mau), and a call they make comes before the move of the person in turn.
        """
        seat, obs, legal = view.seat, view.observation, view.legal
        self._hand_over(seat)
        asking = Asking(self, obs, legal, self.renderer.may_wait(obs, seat))
        while True:
            asking.draw()
            text = " ".join(self._line(asking.prompt(self.names[seat]),
                                       asking.completions()).split())
            action = asking.answer(text)
            if action is None:
                continue
            if isinstance(action, Wait):
                return None
            if action in legal:
                return (0.0 if asking.wait else reaction, action)
            asking.note(self.refusal(seat, action), style="red")

    def _line(self, prompt: str, completions: Sequence[str]) -> str:
        try:
            return self.read(prompt, completions)
        except EOFError:
            raise Quit("the input ended") from None

    def parse(self, text: str) -> Action:
        """A typed move (NotationError if it spells none)."""
        return self.game.parse_action(text)

    def refusal(self, seat: int, action: Action) -> str:
        """The engine's own reason for refusing `action` in one line of the terminal: with the
        legal moves when they are few and fit, else how to find them; asked of a copy, so the
        game is untouched."""
        if self.state is None:
            return f"{action} is not legal now"
        try:
            self.state.clone().apply(seat, action)
        except IllegalAction as exc:
            reason = named(exc.reason, self.names)
            tails = [f"legal now: {', '.join(exc.allowed) or 'nothing'}"] if len(
                exc.allowed) <= LIST_LIMIT else []
            room = self.room()
            return next((f"{reason}; {tail}" for tail in [*tails, *HINTS]
                         if len(reason) + 2 + len(tail) <= room), reason)
        return f"{action} is not legal now"

    def room(self) -> int:
        """The width a note under the menu may take without wrapping (the prompt's "> " when
        the input is not echoed)."""
        return self.console.width - 2

    def menu(self, choices: Sequence[Choice], obs: Observation, wait: bool,
             compact: bool = False) -> list[RenderableType]:
        """The numbered choices: one per line (with the move's notation when the label says
        it in words), or in columns when there are many (or `compact`: the screen is full)."""
        parts: list[RenderableType] = []
        if len(choices) > LONG_MENU or compact:
            cells = [Text.assemble((f"{n:>3} ", "bold cyan"), c.label)
                     for n, c in enumerate(choices, 1)]
            parts.append(Columns(cells, padding=(0, 3), column_first=True))
        else:
            menu = RichTable.grid(padding=(0, 2))
            menu.add_column(justify="right", style="bold cyan")
            menu.add_column()
            menu.add_column(style="dim")
            for number, choice in enumerate(choices, 1):
                same = choice.move is None or choice.label.plain == choice.move
                menu.add_row(str(number), choice.label, "" if same else choice.move)
            parts.append(menu)
        if wait:
            parts.append(Text("Enter  do nothing, let play go on", style="bold cyan"))
        parts.append(Text("Type a number or a move (Tab completes), help, or quit.", style="dim"))
        return parts

    def help_lines(self, count: int, wait: bool) -> list[Text]:
        lines = [
            f"Type {_numbers(count)} to pick from the menu, or the move itself.",
            f"Moves: {self.game.notation_hint()}.",
            "Tab completes a move as you type it (in a terminal); Tab twice lists the moves.",
        ]
        if wait:
            lines.append("An empty line lets the moment pass: you are not obliged to act now.")
        lines += [f"{word}: {what}." for word, what in self.renderer.commands().items()]
        lines.append("quit stops the game and saves it so far.")
        return [Text(line) for line in lines]

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


class Wait:
    """The person let the moment pass (an empty line when they need not act)."""


class Asking:
    """One question to a person: the menu or a guided step, the notes below it, the answer."""

    def __init__(self, screen: Screen, obs: Observation, legal: Sequence[Action],
                 wait: bool) -> None:
        self.screen = screen
        self.obs = obs
        self.legal = legal
        self.wait = wait
        self.choices = screen.renderer.menu(legal, obs, screen.names)
        self.step: Step | None = None
        self.notes: list[Text] = []
        self.drawn = False  # piped: the screen and menu are printed once, notes as they come

    def prompt(self, name: str) -> str:
        who = "" if len(self.screen.people) == 1 else f"{name} "
        return f"{who}{self.step.prompt if self.step is not None else '> '}"

    def completions(self) -> list[str]:
        if self.step is not None:
            return list(self.step.completions())
        return ([str(a) for a in self.legal] + list(COMMANDS)
                + list(self.screen.renderer.commands()))

    def body(self, compact: bool = False) -> list[RenderableType]:
        if self.step is not None:
            return [*self.step.lines(), Text("Enter alone goes back to the menu.", style="dim")]
        return self.screen.menu(self.choices, self.obs, self.wait, compact)

    def draw(self) -> None:
        screen = self.screen
        if screen.live:
            below = [*self.body(), *self.notes]
            used = screen.height(screen.fitted(self.obs, 0)) + 1 + sum(map(screen.height, below))
            if used > screen.console.height:  # even without the log: the menu in columns
                below = [*self.body(compact=True), *self.notes]
            screen.show(self.obs, below)
        elif not self.drawn:
            screen.show(self.obs, self.body())
        self.drawn = True

    def note(self, text: str | Text, style: str | None = None) -> None:
        """A line under the menu until the next answer (printed at once when piped)."""
        line = Text(text, style=style or "") if isinstance(text, str) else text
        if self.screen.live:
            self.notes.append(line)
        else:
            self.screen.say(line)

    def _to(self, step: Step | None) -> None:
        self.step = step
        if not self.screen.live:
            for part in self.body():
                self.screen.console.print(part)

    def answer(self, text: str) -> Action | Wait | None:
        """The move `text` makes, Wait, or None (asked again, with a note why)."""
        self.notes = []
        word = text.lower()
        if word in ("quit", "exit"):
            raise Quit("quit")
        if word in ("help", "?"):
            for line in self.screen.help_lines(len(self.choices), self.wait):
                self.note(line)
            return None
        if self.step is not None:
            return self._answer_step(text)
        if not text:
            if self.wait:
                return Wait()
            self.note("It is your move: type a number or a move (help for help).")
            return None
        renderer = self.screen.renderer
        if word in renderer.commands():
            answer = renderer.command(word, self.obs)
            if self.screen.live:
                self.notes.append(answer if isinstance(answer, Text) else Text(str(answer)))
            else:
                self.screen.console.print(answer)
            return None
        if text.isdigit():
            return self._choose(int(text))
        return self._move(text)

    def _choose(self, number: int) -> Action | None:
        if not 1 <= number <= len(self.choices):
            self.note(f"there is no move {number}: type {_numbers(len(self.choices))}, "
                      "or a move", style="red")
            return None
        choice = self.choices[number - 1]
        if choice.step is not None:
            self._to(choice.step)
            return None
        assert choice.move is not None
        return self._move(choice.move)

    def _answer_step(self, text: str) -> Action | None:
        assert self.step is not None
        if not text:
            self._to(None)
            return None
        try:
            got = self.step.answer(text)
        except Wrong as exc:
            with contextlib.suppress(NotationError):
                return self.screen.parse(text)  # a whole move typed at a step is taken too
            self.note(str(exc), style="red")
            return None
        if isinstance(got, Step):
            self._to(got)
            return None
        return self._move(got)

    def _move(self, text: str) -> Action | None:
        try:
            return self.screen.parse(text)
        except NotationError as exc:
            said = str(exc)  # the game's whole notation hint, when it fits the line
            room = self.screen.room()
            if len(said) > room:
                said = UNREADABLE.format(_cut(text, room - len(UNREADABLE.format(""))))
            self.note(said, style="red")
            return None


def _cut(text: str, width: int) -> str:
    """`text` in at most `width` characters, ending in "…" where it was cut."""
    return text if len(text) <= width else text[:max(0, width - 1)].rstrip() + "…"


def _numbers(count: int) -> str:
    """How to pick from a menu of `count` entries: "1" alone, or "a number from 1 to 5"."""
    return "1" if count == 1 else f"a number from 1 to {count}"
