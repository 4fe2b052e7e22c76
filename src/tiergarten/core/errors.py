"""Errors every game raises: each names what was wrong and what would have been allowed."""

from __future__ import annotations

from collections.abc import Iterable


def _listing(allowed: Iterable[object], limit: int = 30) -> str:
    items = [str(a) for a in allowed]
    if not items:
        return "nothing"
    shown = ", ".join(items[:limit])
    return shown + (f", … ({len(items) - limit} more)" if len(items) > limit else "")


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the state is left unchanged.

    >>> str(IllegalAction("7h does not match 8s", ["draw", "play 8c"]))
    '7h does not match 8s; legal now: draw, play 8c'
    """

    def __init__(self, reason: str, allowed: Iterable[object] = ()) -> None:
        self.reason = reason
        self.allowed = tuple(str(a) for a in allowed)
        super().__init__(f"{reason}; legal now: {_listing(self.allowed)}")


class NotationError(IllegalAction):
    """Text that does not spell an action of the game."""

    def __init__(self, text: str, hint: str) -> None:
        self.text = text
        ValueError.__init__(self, f"cannot read {text!r} as an action: {hint}")
        self.reason = hint
        self.allowed = ()


class OptionError(ValueError):
    """An unknown option, a bad value, or a player count outside the game's range.

    >>> str(OptionError("unknown option 'x'", ["a", "b"]))
    "unknown option 'x'; allowed: a, b"
    """

    def __init__(self, reason: str, allowed: Iterable[object] = ()) -> None:
        self.reason = reason
        self.allowed = tuple(str(a) for a in allowed)
        tail = f"; allowed: {_listing(self.allowed)}" if self.allowed else ""
        super().__init__(reason + tail)
