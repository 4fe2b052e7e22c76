"""Errors every game raises: each names what was wrong and what would have been allowed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def _listing(allowed: Iterable[object], limit: int = 30) -> str:
    items = [str(a) for a in allowed]
    if not items:
        return "nothing"
    shown = ", ".join(items[:limit])
    return shown + (f", … ({len(items) - limit} more)" if len(items) > limit else "")


class Refusal(str):
    """A refusal's English reason that also carries a reason code and its parameters, so that
    a client can word it in its own language (the catalogues' `refusal.<game>.<code>` and
    `refusal.<code>` keys, docs/protocol.md). Parameters are JSON values: seats as ints, cards
    in the game's notation, and only what the refused seat sees already.

    >>> r = Refusal("you do not hold 7h", "not_held", card="7h")
    >>> (r, r.code, r.params)
    ('you do not hold 7h', 'not_held', {'card': '7h'})
    """

    code: str
    params: dict[str, object]

    def __new__(cls, text: str, code: str, **params: object) -> Refusal:
        refusal = super().__new__(cls, text)
        refusal.code = code
        refusal.params = params
        return refusal

    def __reduce__(self) -> tuple[object, ...]:
        return _refusal, (str(self), self.code, self.params)


def _refusal(text: str, code: str, params: dict[str, object]) -> Refusal:
    return Refusal(text, code, **params)


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the state is left unchanged.

    `code` and `params` say why in words a client can translate (docs/protocol.md); a reason
    that is a `Refusal` gives them unless they are given.

    >>> str(IllegalAction("7h does not match 8s", ["draw", "play 8c"]))
    '7h does not match 8s; legal now: draw, play 8c'
    >>> IllegalAction(Refusal("the game is over", "game_over")).code
    'game_over'
    >>> import pickle; again = pickle.loads(pickle.dumps(NotationError("x9", "write a card")))
    >>> str(again), again.code, again.text
    ("cannot read 'x9' as an action: write a card", 'notation', 'x9')
    """

    def __init__(self, reason: str, allowed: Iterable[object] = (), *, code: str | None = None,
                 params: Mapping[str, object] | None = None) -> None:
        if code is None and isinstance(reason, Refusal):
            code, params = reason.code, reason.params
        self.reason = str(reason)
        self.allowed = tuple(str(a) for a in allowed)
        self.code = code
        self.params: dict[str, object] = dict(params or {})
        super().__init__(f"{self.reason}; legal now: {_listing(self.allowed)}")

    def __reduce__(self) -> tuple[object, ...]:
        # the same error again in another process (a lab worker's, Ray's), text and all
        return _illegal, (type(self), str(self), dict(self.__dict__))


def _illegal(kind: type[IllegalAction], text: str, fields: dict[str, object]) -> IllegalAction:
    error = kind.__new__(kind)
    ValueError.__init__(error, text)
    error.__dict__.update(fields)
    return error


class NotationError(IllegalAction):
    """Text that does not spell an action of the game (reason code `notation`)."""

    def __init__(self, text: str, hint: str) -> None:
        self.text = text
        ValueError.__init__(self, f"cannot read {text!r} as an action: {hint}")
        self.reason = hint
        self.allowed = ()
        self.code = "notation"
        self.params = {}


class OptionError(ValueError):
    """An unknown option, a bad value, or a player count outside the game's range.

    >>> str(OptionError("unknown option 'x'", ["a", "b"]))
    "unknown option 'x'; allowed: a, b"
    """

    def __init__(self, reason: str, allowed: Iterable[object] = (),
                 option: str | None = None) -> None:
        self.reason = reason
        self.allowed = tuple(str(a) for a in allowed)
        self.option = option  # the option whose value cannot be had, if it is one's
        tail = f"; allowed: {_listing(self.allowed)}" if self.allowed else ""
        super().__init__(reason + tail)
