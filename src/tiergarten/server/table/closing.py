"""A table closed before its game ended (status `closed`): why, in words, and its close code.

A table is closed when nobody came to it (`expired`: open, nobody connected and nothing done
for `open_table_ttl` seconds; expiry.py) or on purpose (`operator`: `tiergarten admin
close`). Its row stays, with its seats, log and chat; it leaves the lobby, a seat can no
longer be taken or given up, and a connection to it is refused with the error `closed` and
the close code 4410 (docs/protocol.md).

>>> words("expired")
'this table is closed: nobody played at it for a long while'
"""

from __future__ import annotations

CLOSE_CODE = 4410  # the close code of a connection to a closed table ("gone")
EXPIRED, OPERATOR = "expired", "operator"  # why: nobody came; the server's operator
REASONS = (EXPIRED, OPERATOR)

_WORDS = {EXPIRED: "nobody played at it for a long while",
          OPERATOR: "the server's operator closed it"}


def words(reason: str | None) -> str:
    """What a client is told of a table closed for `reason`."""
    return f"this table is closed: {_WORDS.get(reason or OPERATOR, reason)}"
