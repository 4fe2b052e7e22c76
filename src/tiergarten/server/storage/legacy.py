"""The rules version of a table stored before tables named theirs (docs/deploy.md, "Upgrades").

Tables have named their rules version since migration 0005. For the tables stored before, the
migration settles it once (`settle`), from what is certain first:
- a database that was not under Alembic yet (a release up to 0.1.0) was only ever played under
  each game's rules 1;
- a table created before `RULES_2_SINCE` was played under rules 1: no release had rules 2 yet;
- any other is replayed under the versions released before versions were named, newest first,
  and takes the first its log replays under (a finished table's log must end the game, an
  unfinished one's may have, if the status was not stored after its last act).
A table none of them replays (a corrupted log) is left unsettled (`rules` NULL): it is shown
with its stored moves and a message, and `tiergarten records check` reports it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from tiergarten.core import game_class, replay
from tiergarten.core.rules import unversioned

# The first rules 2 change (MammuZ, 2026-12-01 08:26 UTC) was made after this moment
RULES_2_SINCE = dt.datetime(2026, 12, 1, 8, 0, tzinfo=dt.UTC)


def candidates(game: str, created: dt.datetime, under_alembic: bool) -> Sequence[int]:
    """The versions an unversioned table of `game` may have been played under, likeliest
    first."""
    if created.tzinfo is None:
        created = created.replace(tzinfo=dt.UTC)  # SQLite hands back naive UTC times
    if not under_alembic or created < RULES_2_SINCE:
        return [1]
    return unversioned(game_class(game).info.rules)[::-1]  # 0.2.0's were the newest


def settle(record: Mapping[str, Any], finished: bool, versions: Sequence[int]) -> int | None:
    """The first of `versions` under which `record` (format 1, no version) replays, to the
    end of the game if `finished`; None if none does."""
    for rules in versions:
        try:
            state = replay({**record, "format": 2, "rules": rules})
        except ValueError:  # an illegal action, a bad option, a bad record
            continue
        if state.is_over() or not finished:
            return rules
    return None
