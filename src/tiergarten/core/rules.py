"""Rules versions: what a game does with a given seed and actions, numbered.

Every change to what a game does with the same seed and the same actions is a new rules
version of that game (its `GameInfo.rules`, oldest first). A record names the version it was
played under, and `replay` plays it under that version for ever: an older version stays in the
game as a small documented switch (`state.game.rules < N`) beside the newest rule, and its
golden traces, made by the release that played it, keep it honest (docs/architecture.md,
"Rules versions"). New games use the newest version.

Records from before versions were named (record format 1) carry no version; the versions that
were released then are marked `unversioned`, and such a record is replayed under the oldest of
them it replays under (`unversioned`): 0.1.0 wrote such records for weeks, 0.2.0 for a day. The
server knows more of its stored tables and settles them once (server/storage/legacy.py).

>>> v = RulesVersion(2, "a plain draw keeps the turn")
>>> v.number, v.defaults
(2, {})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import OptionError


@dataclass(frozen=True)
class RulesVersion:
    """One version of a game's rules: its number, what it changed, and the option defaults
    that differ under it from the options' own (the newest) defaults."""

    number: int
    changes: str  # one line: what this version changed from the one before
    defaults: Mapping[str, Any] = field(default_factory=dict)
    unversioned: bool = False  # released before records named their rules version


FIRST = (RulesVersion(1, "the first rules"),)


def check_versions(game_id: str, versions: Sequence[RulesVersion]) -> None:
    """Refuse a version list that is not numbered 1, 2, 3, ... in order."""
    numbers = [v.number for v in versions]
    if numbers != list(range(1, len(numbers) + 1)):
        raise TypeError(f"{game_id}: rules versions must be numbered 1, 2, ... in order, "
                        f"not {numbers}")


def pick(game_id: str, versions: Sequence[RulesVersion], rules: Any) -> RulesVersion:
    """The version `rules` names (None: the newest); anything else raises OptionError."""
    if rules is None:
        return versions[-1]
    if type(rules) is int and 1 <= rules <= len(versions):
        return versions[rules - 1]
    newest = len(versions)
    known = "only version 1" if newest == 1 else f"versions 1 to {newest}"
    raise OptionError(f"{game_id} has rules {known}, not {rules!r}"
                      + (" (a newer tiergarten may know it)"
                         if type(rules) is int and rules > newest else ""),
                      range(1, newest + 1))


def unversioned(versions: Sequence[RulesVersion]) -> list[int]:
    """The versions a record without one may have been played under, oldest first."""
    return [v.number for v in versions if v.unversioned] or [versions[0].number]
