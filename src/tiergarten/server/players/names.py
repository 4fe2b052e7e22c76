"""When two names are the same person's: compared by their confusable skeleton (UTS #39).

`аlice01` (a Cyrillic а), `alice０1` (a fullwidth digit) and `aIice01` (a capital I) all look
like `alice01`; a second account under one of them could pass for the first. So a name is
compared by its `skeleton`: Unicode NFKC (fullwidth and compatibility forms become the plain
ones), white space collapsed, then the UTS #39 skeleton (each character by the prototype it is
confusable with, as the Unicode Consortium's confusables.txt says; ICU's `SpoofChecker`
through PyICU computes it), case-folded, and the skeleton of that again. The skeleton comes
before the folding so that a capital I counts as the l it looks like (`aIice01`); folding
first would make it an i. So `ALICE01` and `alice01` have different skeletons (its I became
an l): they are one name because case never counted in user names (`accounts.name_key`), and
`same_person_name` asks both.

An account's skeleton is kept with it (`users.name_skeleton`, migration 0006): a new account
whose skeleton is taken is refused (`Accounts.sign_up`). A guest may not sit or chat at a table
under the name of an account seated there (`same_person_name`).

>>> skeleton("alice01") == skeleton("\\u0430lice01") == skeleton("alice\\uff101")
True
>>> skeleton("aIice01") == skeleton("Alice01") == skeleton("alice01"), skeleton("Ann  Lee")
(True, 'ann lee')
>>> same_person_name("ALICE01", "alice01"), same_person_name("Bob", "Rob")
(True, False)
"""

from __future__ import annotations

import functools
import threading
import unicodedata

import icu

_LOCAL = threading.local()  # a SpoofChecker is not to be shared between threads


def _checker() -> icu.SpoofChecker:
    checker = getattr(_LOCAL, "checker", None)
    if checker is None:
        checker = _LOCAL.checker = icu.SpoofChecker()
    return checker


@functools.lru_cache(maxsize=4096)
def skeleton(text: str) -> str:
    """The key by which two names are the same name (see the module doc)."""
    name = " ".join(unicodedata.normalize("NFKC", text).split())
    checker = _checker()
    folded = str(checker.getSkeleton(0, name)).casefold()
    return str(checker.getSkeleton(0, folded))


def same_person_name(a: str | None, b: str | None) -> bool:
    """Whether two display names would pass for one another (neither empty)."""
    if not a or not b:
        return False
    return skeleton(a) == skeleton(b) or _folded(a) == _folded(b)


def _folded(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())
