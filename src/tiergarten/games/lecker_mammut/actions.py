"""Lecker Mammut!'s actions and notation: one interned value per action id, plus versioned hits.

The fixed table (ids never change) holds `flip`, the 14 hits `hit boar` … `hit pink`, the 49
choices `top green-boar`, `pass` and `return 1` … `return 16`; from rules 3 also `miss` (id 81),
a press of the club with no call: a mistake. A hit may also name the table
version its player saw, `hit boar @17`: such a hit is not in the table (it cannot hold every
version), but reading it gives one interned object per text that carries the version and has the
id of its unversioned hit, so action ids stay fixed for learning code. `legal_actions` lists the
unversioned hits; `apply` accepts the versioned ones.

>>> str(ACTIONS[0]), str(HITS[1]), str(TOPS[10]), str(PASS), str(RETURNS[1])
('flip', 'hit boar', 'top green-boar', 'pass', 'return 2')
>>> late = parse("Hit  BOAR @ 17")
>>> str(late), late.version, late.id == HITS[1].id, late is parse("hit boar @17")
('hit boar @17', 17, True, True)
>>> len(ACTIONS), len(ACTIONS_3), str(MISS), MISS.id
(81, 82, 'miss', 81)
"""

from __future__ import annotations

import re

from tiergarten.core import Action, NotationError

from .cards import CARD_HINT, DECK, FEATURE_NAMES, NAMES, NUM_FEATURES, card, feature

FLIP_KIND, HIT_KIND, TOP_KIND, PASS_KIND, RETURN_KIND, MISS_KIND = 0, 1, 2, 3, 4, 5
MAX_PILES = 16  # a prize pile holds at least 3 of the 49 cards, so nobody has more than 16


class LeckerAction(Action):
    """`flip`, `hit boar`, `hit green @17`, `top green-boar`, `pass`, `return 2`, `miss`."""

    __slots__ = ("kind", "feature", "card", "pile", "version")
    kind: int
    feature: int  # the called animal or colour of a hit, else -1
    card: int  # the chosen top card, else -1
    pile: int  # the 0-based prize pile given back, else -1
    version: int | None  # the version (of the visible cards) a hit names; None = the table now

    def __init__(self, id: int, text: str, kind: int, feature: int = -1, card: int = -1,
                 pile: int = -1, version: int | None = None) -> None:
        super().__init__(id, text)
        for name, value in (("kind", kind), ("feature", feature), ("card", card),
                            ("pile", pile), ("version", version)):
            object.__setattr__(self, name, value)


def _build() -> tuple[LeckerAction, ...]:
    out: list[LeckerAction] = []

    def add(text: str, kind: int, **fields: int) -> None:
        out.append(LeckerAction(len(out), text, kind, **fields))

    add("flip", FLIP_KIND)
    for f in range(NUM_FEATURES):
        add(f"hit {FEATURE_NAMES[f]}", HIT_KIND, feature=f)
    for c in DECK:
        add(f"top {NAMES[c]}", TOP_KIND, card=c)
    add("pass", PASS_KIND)
    for i in range(MAX_PILES):
        add(f"return {i + 1}", RETURN_KIND, pile=i)
    return tuple(out)


ACTIONS = _build()  # the table of rules 1 and 2
# Rules 3: the club pressed with no call (withdrawn, too late, or with no three alike in sight)
MISS = LeckerAction(len(ACTIONS), "miss", MISS_KIND)
ACTIONS_3 = (*ACTIONS, MISS)
FLIP = ACTIONS[0]
HITS = ACTIONS[1:1 + NUM_FEATURES]
TOPS = ACTIONS[1 + NUM_FEATURES:1 + NUM_FEATURES + len(DECK)]
PASS = ACTIONS[1 + NUM_FEATURES + len(DECK)]
RETURNS = ACTIONS[2 + NUM_FEATURES + len(DECK):]
_BY_TEXT = {a.text: a for a in ACTIONS}
_VERSIONED: dict[tuple[int, int], LeckerAction] = {}
_HIT_AT = re.compile(r"hit ([a-z]+) ?@ ?(\d+)")

NOTATION_HINT = ("write flip, hit <animal or colour> [@<version>], top <card>, pass, "
                 "return <n> or (rules 3) miss — animals: bear boar tiger sloth deer mammoth "
                 "rhino; colours: red orange yellow green blue purple pink; " + CARD_HINT)


def hit_at(f: int, version: int) -> LeckerAction:
    """The hit on feature `f` judged against version `version` (one object per text)."""
    key = (f, version)
    action = _VERSIONED.get(key)
    if action is None:
        base = HITS[f]
        action = LeckerAction(base.id, f"{base.text} @{version}", HIT_KIND, feature=f,
                              version=version)
        action = _VERSIONED.setdefault(key, action)
    return action


def unversioned(action: LeckerAction) -> LeckerAction:
    """The table's action for `action` (a versioned hit becomes its plain hit)."""
    return ACTIONS[action.id]


def parse(text: str, rules: int = 3) -> LeckerAction:
    """Read notation (case and spacing free) into an action of rules version `rules`; raises
    NotationError."""
    if not isinstance(text, str):
        raise NotationError(repr(text), "notation is text")
    key = " ".join(text.lower().split())
    action = _BY_TEXT.get(key)
    if action is not None:
        return action
    if key == MISS.text:
        if rules >= 3:
            return MISS
        raise NotationError(text, f"'miss' is an act from rules 3 on; this game plays rules "
                            f"{rules}")
    match = _HIT_AT.fullmatch(key)
    if match:
        try:
            f = feature(match.group(1))
        except ValueError as exc:
            raise NotationError(text, str(exc)) from None
        return hit_at(f, int(match.group(2)))
    return _explain(text, key)


def _explain(text: str, key: str) -> LeckerAction:
    word, _, rest = key.partition(" ")
    try:
        if word == "hit":
            name, at, _ = rest.partition("@")
            if not name.strip():
                raise ValueError("hit names an animal or a colour: 'hit boar', 'hit green @17'")
            feature(name)
            if at:
                raise ValueError("a version is a whole number: 'hit boar @17'")
        elif word == "top":
            card(rest)
        elif word == "return" and not (rest.isdigit() and 1 <= int(rest) <= MAX_PILES):
            raise ValueError(f"return takes a prize pile number 1 to {MAX_PILES}")
    except ValueError as exc:
        raise NotationError(text, str(exc)) from None
    raise NotationError(text, NOTATION_HINT)


__all__ = ["ACTIONS", "ACTIONS_3", "FLIP", "HITS", "MISS", "PASS", "RETURNS", "TOPS",
           "LeckerAction", "hit_at",
           "parse", "unversioned"]
