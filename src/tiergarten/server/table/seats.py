"""Who sits where: the seat rows, the tokens that claim them (only hashes), and who is away.

Plain data with no clock and no storage: the table stores what changes here, and the bot
driver decides when someone goes away (a timer, a leave) or comes back (connecting, acting).

>>> from ..edge.settings import hash_token
>>> seats = Seats([SeatRow(0, "bot", bot="random"), SeatRow(1, "human"), SeatRow(2, "human")])
>>> seats.open()
[1, 2]
>>> seats.claim(1, "Ann", hash_token("secret"))
>>> seats.seat_of("secret"), seats.seat_of("guess"), seats.open()
(1, None, [2])
>>> seats.go_away(1), seats.go_away(1), seats.played_by_bots()
(True, False, [0, 1])
"""

from __future__ import annotations

import dataclasses
import hmac
from collections.abc import Callable, Collection

from ..edge.protocol import SeatInfo
from ..edge.settings import hash_token
from ..storage.store import SeatRow


class Seats:
    """A table's seats: rows as stored, plus the people a bot plays for now (`away`)."""

    def __init__(self, rows: list[SeatRow]) -> None:
        self.rows = rows
        self.away: set[int] = set()

    def seat_of(self, token: str) -> int | None:
        """The seat a token claims, or None."""
        digest = hash_token(token)
        for row in self.rows:
            if row.token_hash is not None and hmac.compare_digest(row.token_hash, digest):
                return row.seat
        return None

    def open(self) -> list[int]:
        """Seats for people that nobody has claimed yet."""
        return [s.seat for s in self.rows if s.kind == "human" and s.token_hash is None]

    def people(self) -> list[int]:
        return [s.seat for s in self.rows if s.kind == "human"]

    def is_person(self, seat: int) -> bool:
        return self.rows[seat].kind == "human"

    def claim(self, seat: int, name: str, token_hash: str, user_id: int | None = None,
              account: str | None = None) -> None:
        row = self.rows[seat]
        row.name, row.token_hash, row.user_id, row.account = name, token_hash, user_id, account

    def freed(self, seat: int) -> SeatRow:
        """The row of `seat` as it is once freed (to store before `free`)."""
        return dataclasses.replace(self.rows[seat], name=None, token_hash=None, user_id=None,
                                   account=None)

    def free(self, seat: int) -> SeatRow:
        """Open a seat again (before the game); the row to store."""
        row = self.rows[seat]
        row.name, row.token_hash, row.user_id, row.account = None, None, None, None
        return row

    def passes_for(self, name: str, same: Callable[[str, str], bool]) -> bool:
        """Whether `name` passes for a seated account's (`same`: whether two names are one
        person's, by their look-alike skeleton)."""
        return any(r.account is not None and same(name, r.account) for r in self.rows)

    def played_by_bots(self) -> list[int]:
        """Bots' seats, and the seats of people who are away."""
        return [s.seat for s in self.rows if s.kind == "bot" or s.seat in self.away]

    def go_away(self, seat: int) -> bool:
        """A bot plays for the person at `seat` from now on; False if one already did."""
        if seat in self.away:
            return False
        self.away.add(seat)
        return True

    def come_back(self, seat: int) -> bool:
        """The person plays their seat again; False if they were not away."""
        if seat not in self.away:
            return False
        self.away.discard(seat)
        return True

    def info(self, connected: Collection[int | None]) -> list[SeatInfo]:
        """Each seat as the `table` message shows it (`connected`: seats with a connection)."""
        return [SeatInfo(seat=s.seat, kind=s.kind, bot=s.bot, name=s.name,  # type: ignore[arg-type]
                         taken=s.kind == "bot" or s.token_hash is not None,
                         connected=s.kind == "bot" or s.seat in connected,
                         away=s.seat in self.away, account=s.account) for s in self.rows]
