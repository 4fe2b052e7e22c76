"""Game options declared as data: name, default, allowed values, and how text is read.

>>> spec = (Option("target_score", 150, "points that end the match", kind=int, minimum=1),
...         Option("jack_on_jack", True, "a Jack may be played on a Jack"))
>>> resolve(spec, {"jack_on_jack": "false"})
{'target_score': 150, 'jack_on_jack': False}
>>> resolve(spec, {"jack_on_jak": True})
Traceback (most recent call last):
...
tiergarten.core.errors.OptionError: unknown option 'jack_on_jak'; allowed: target_score, ...
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import OptionError

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Option:
    """One named option of a game, with its default and the values it allows."""

    name: str
    default: Any
    doc: str
    kind: type = bool
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    check: Callable[[Any], Any] | None = field(default=None, compare=False)

    def allowed(self) -> str:
        """Say in words which values this option takes."""
        if self.choices is not None:
            text = ", ".join(str(c) for c in self.choices)
        elif self.kind is bool:
            text = "true, false"
        elif self.kind is int:
            low, high = self.minimum, self.maximum
            text = "a whole number" + (
                f" from {low} to {high}" if low is not None and high is not None
                else f" of {low} or more" if low is not None
                else f" up to {high}" if high is not None else "")
        else:
            text = f"a {self.kind.__name__}"
        return text + (" or none" if self.nullable else "")

    def coerce(self, value: Any) -> Any:
        """Return the value this option takes for `value` (text from a command line is read)."""
        if value is None or (self.nullable and isinstance(value, str)
                             and value.lower() in {"none", "null"}):
            if self.nullable:
                return None
            raise self._bad(value)
        if self.check is not None:
            try:
                return self.check(_read_json(value) if isinstance(value, str) else value)
            except (ValueError, TypeError) as exc:
                raise OptionError(f"option {self.name!r}: {exc}", option=self.name) from None
        if self.kind is bool:
            value = _read_bool(value)
        elif self.kind is int:
            value = _read_int(value)
        if not isinstance(value, self.kind) or (self.kind is int and isinstance(value, bool)):
            raise self._bad(value)
        if self.choices is not None and value not in self.choices:
            raise self._bad(value)
        number: Any = value
        if self.minimum is not None and number < self.minimum:
            raise self._bad(value)
        if self.maximum is not None and number > self.maximum:
            raise self._bad(value)
        return value

    def _bad(self, value: Any) -> OptionError:
        return OptionError(f"option {self.name!r} cannot be {value!r}; it takes {self.allowed()}",
                           option=self.name)


def _read_bool(value: Any) -> Any:
    if isinstance(value, str):
        low = value.strip().lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
    return value


def _read_int(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            return value
    return value


def _read_json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def resolve(spec: Sequence[Option], given: Mapping[str, Any],
            defaults: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Check `given` against `spec`; return every option with its value, the rest at their
    defaults (`defaults` overrides some: an older rules version's)."""
    names = {o.name: o for o in spec}
    for name in given:
        if name not in names:
            raise OptionError(f"unknown option {name!r}", names)
    defaults = defaults or {}
    return {o.name: o.coerce(given[o.name]) if o.name in given
            else defaults.get(o.name, o.default) for o in spec}


def parse_assignments(pairs: Sequence[str]) -> dict[str, str]:
    """Read `name=value` strings (as typed on a command line) into a mapping.

    >>> parse_assignments(["jack_on_jack=false", "target_score=100"])
    {'jack_on_jack': 'false', 'target_score': '100'}
    """
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"option {pair!r} is not of the form name=value")
        out[name.strip()] = value.strip()
    return out
