"""A person at the keyboard: the `Human` agent and the line reader behind its prompt.

The reader offers tab completion of the legal moves' notation when stdin is a terminal
(readline); piped input (tests, scripts) is read line by line the same way.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from tiergarten.core.match import Proposal, SeatView

if TYPE_CHECKING:
    from .screen import Screen

Reader = Callable[[str, Sequence[str]], str]  # (prompt, completions) -> line; EOFError at end

REACTION = 0.5  # seconds: a bot that would act sooner than this pre-empts the person


class Quit(Exception):
    """The person asked to stop (typed quit, or the input ended)."""


class Human:
    """An agent whose moves are typed at the terminal; `propose` shows the seat's screen and
    asks. It is asked only when no bot would act within `reaction` seconds."""

    interactive = True

    def __init__(self, seat: int, screen: Screen, reaction: float = REACTION) -> None:
        self.seat = seat
        self.screen = screen
        self.reaction = reaction

    def propose(self, view: SeatView) -> Proposal | None:
        return self.screen.ask(view, self.reaction)

    def __repr__(self) -> str:
        return f"me@{self.seat}"


class LineReader:
    """`input()` with tab completion over the words it is given (when stdin is a terminal)."""

    def __init__(self) -> None:
        self._choices: Sequence[str] = ()
        self._readline: Any = None
        if sys.stdin is not None and sys.stdin.isatty():
            self._readline = _setup_readline(self._complete)

    def __call__(self, prompt: str, completions: Sequence[str] = ()) -> str:
        self._choices = completions
        try:
            return input(prompt)
        finally:
            self._choices = ()

    def _complete(self, text: str, index: int) -> str | None:
        low = text.lower()
        matches = [c for c in self._choices if c.lower().startswith(low)]
        return matches[index] if index < len(matches) else None


def _setup_readline(completer: Callable[[str, int], str | None]) -> Any:
    try:
        import readline
    except ImportError:  # no readline (e.g. Windows): numbers and typed moves still work
        return None
    readline.set_completer(completer)
    readline.set_completer_delims("")  # complete the whole line: "play 7h m" -> "play 7h mau"
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
    return readline
