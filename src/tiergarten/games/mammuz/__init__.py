"""MammuZ (`mammuz`): the bluffing game of docs/games/mammuz.md. Standard library only.

`knowledge`, `lays` and `state` may run compiled (see `tiergarten.core.native`)."""

from tiergarten.core import native

native.load(__name__, __path__[0])

from .game import INFO, MammuZ  # noqa: E402 (after choosing compiled or source modules)
from .state import MammuZState  # noqa: E402

__all__ = ["INFO", "MammuZ", "MammuZState"]
