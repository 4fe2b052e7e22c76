"""The menu a person picks a move from: numbered choices, each a move or the first of a few
guided steps (a game with hundreds of legal moves asks "which cards?", then "as what?").

A step only turns what the person types into a move's notation; whether that move is legal is
the engine's to say, so the driver checks the notation it gets as it checks a typed move.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import RenderableType
from rich.text import Text


class Wrong(ValueError):
    """An answer to a step that cannot be used; the message says why in one line."""


class Step(ABC):
    """One question of a guided move."""

    prompt = "> "  # what the person's line starts with while this step asks

    @abstractmethod
    def lines(self) -> list[RenderableType]:
        """The question and its options, shown in place of the menu."""

    @abstractmethod
    def answer(self, text: str) -> str | Step:
        """The move's notation, or the next question; raises Wrong."""

    def completions(self) -> Sequence[str]:
        """Words Tab offers while this step asks."""
        return ()


@dataclass(frozen=True)
class Choice:
    """A numbered menu line: `move` is made at once, or `step` asks how."""

    label: Text
    move: str | None = None
    step: Step | None = None


def pick(text: str, options: Sequence[str], what: str) -> str:
    """The option `text` names by number (from 1) or by (the start of) its name. The options
    are on screen above the prompt (see `numbered`), so a wrong answer points there.

    >>> pick("2", ["hare", "mouse"], "species"), pick("MO", ["hare", "mouse"], "species")
    ('mouse', 'mouse')
    >>> pick("7", ["hare", "mouse"], "species")
    Traceback (most recent call last):
    ...
    tiergarten.terminal.menu.Wrong: no species 7: type 1 to 2 or one of the names above
    """
    word = text.strip().lower()
    if word.isdigit() and 1 <= int(word) <= len(options):
        return options[int(word) - 1]
    found = [o for o in options if o.lower() == word] or [
        o for o in options if word and o.lower().startswith(word)]
    if len(found) == 1:
        return found[0]
    shown = word if word.isdigit() else repr(text.strip())
    raise Wrong(f"no {what} {shown}: type 1 to {len(options)} or one of the names above")


def numbered(options: Sequence[str | Text]) -> Text:
    """Options on one line, each after its number: ` 1 mammoth   2 bear`."""
    line = Text()
    for number, option in enumerate(options, 1):
        if number > 1:
            line.append("   ")
        line.append(f"{number} ", style="bold cyan")
        line.append_text(option if isinstance(option, Text) else Text(option))
    return line
