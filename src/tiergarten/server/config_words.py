"""What the configuration (config.py) says about its settings: their variables and flags, what
each allows in words, a line for each error pydantic found, secrets masked, and the settings'
list of docs/deploy.md. Each function is given the model's fields it speaks of.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

import annotated_types
from pydantic.fields import FieldInfo

PREFIX = "TIERGARTEN_"
SECRET = "***"
Fields = Mapping[str, FieldInfo]


class Refused(ValueError):
    """A value a validator refuses: the message says why (after the name and the value)."""


def env_name(name: str) -> str:
    return PREFIX + name.upper()


def extra(field: FieldInfo) -> dict[str, Any]:
    found = field.json_schema_extra
    return found if isinstance(found, dict) else {}


def flags(name: str, field: FieldInfo) -> list[str]:
    return list(extra(field).get("flags", ["--" + name.replace("_", "-")]))


def unknown(env: Mapping[str, str], known: Iterable[str]) -> list[str]:
    """A line for each `TIERGARTEN_*` variable of `env` not `known`."""
    known = set(known)
    out = []
    for name in sorted(env):
        upper = name.upper()
        if not upper.startswith(PREFIX) or upper in known:
            continue
        close = difflib.get_close_matches(upper, sorted(known), n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]}?)" if close else ""
        out.append(f"{name} is not a setting{hint}; `tiergarten config` and "
                   "docs/deploy.md list every setting")
    return out


_PART = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(d|h|min|m|s)\s*")
_UNIT = {"d": 86400.0, "h": 3600.0, "min": 60.0, "m": 60.0, "s": 1.0}


def duration(value: Any) -> Any:
    """A duration such as 30m, 2h, 1h30m, 90s or 1d as seconds; anything else as it is (a
    number of seconds is read as the number it is).

    >>> duration("30m"), duration("1h 30min"), duration("1d"), duration(" 90 "), duration("x")
    (1800.0, 5400.0, 86400.0, ' 90 ', 'x')
    """
    if not isinstance(value, str) or not value.strip():
        return value
    parts = _PART.findall(value)
    if not parts or "".join(_PART.sub("", value).split()):
        return value
    return sum(float(n) * _UNIT[unit] for n, unit in parts)


def allowed(field: FieldInfo) -> str:
    """What a setting may be, in words (the errors and the docs say it)."""
    said = extra(field)
    if "allowed" in said:
        return str(said["allowed"])
    annotation = field.annotation
    choices = getattr(annotation, "__args__", ())
    if getattr(annotation, "__origin__", None) is Literal:
        return "one of " + ", ".join(map(str, choices))
    if annotation is bool:
        return "true or false (also 1/0, yes/no, on/off)"
    low: Any = None
    high: Any = None
    above = False
    for rule in field.metadata:
        if isinstance(rule, annotated_types.Ge):
            low = rule.ge
        elif isinstance(rule, annotated_types.Gt):
            low, above = rule.gt, True
        elif isinstance(rule, annotated_types.Le):
            high = rule.le
    kind = "a whole number" if annotation is int else "a number"
    if said.get("unit"):
        kind += f" of {said['unit']}"
    if low is not None and high is not None:
        return f"{kind} from {low:g} to {high:g}" if not above else \
            f"{kind} above {low:g}, at most {high:g}"
    if low is not None:
        return f"{kind} above {low:g}" if above else f"{kind}, at least {low:g}"
    return "text" if annotation in (str, str | None) else kind


def explain(error: Any, fields: Fields, given: Mapping[str, Any],
            env: Mapping[str, str]) -> str:
    """One error of pydantic's as a line naming the flag or variable and what is allowed."""
    name = str(error["loc"][0]) if error.get("loc") else ""
    cause = (error.get("ctx") or {}).get("error")
    if name not in fields:  # the model's own check (several settings)
        return str(cause) if isinstance(cause, Refused) else error["msg"]
    value = given[name] if name in given else next(
        (v for k, v in env.items() if k.upper() == env_name(name)), error.get("input"))
    where = flags(name, fields[name])[0] if name in given else env_name(name)
    said = f"{where} {value!r}" if name in given else f"{where}={value!r}"
    if isinstance(cause, Refused):
        return f"{said} {cause}"
    return f"{said} is not allowed; allowed: {allowed(fields[name])}"


def mask(url: str) -> str:
    """A URL with its password (or a DSN's key) hidden.

    >>> mask("postgresql://tiergarten:s3cret@127.0.0.1/tiergarten")
    'postgresql://tiergarten:***@127.0.0.1/tiergarten'
    >>> mask("https://abc123@o1.ingest.sentry.io/42"), mask("/var/lib/tiergarten/t.db")
    ('https://***@o1.ingest.sentry.io/42', '/var/lib/tiergarten/t.db')
    """
    parts = urlsplit(url)
    if "://" not in url or "@" not in parts.netloc:
        return url
    user, _, host = parts.netloc.rpartition("@")
    name, colon, _password = user.partition(":")
    hidden = f"{name}:{SECRET}" if colon else SECRET
    return urlunsplit(parts._replace(netloc=f"{hidden}@{host}"))


def markdown(groups: Mapping[str, str], fields: Fields) -> str:
    """The settings of `fields`, by group, as docs/deploy.md lists them."""
    lines = []
    for group, title in groups.items():
        lines += [f"**{title}**", "", "| variable | flag | default | allowed | what |",
                  "|---|---|---|---|---|"]
        for name, field in fields.items():
            if extra(field).get("group") != group:
                continue
            default = field.default
            shown = ("none" if default is None else ("true" if default else "false")
                     if isinstance(default, bool) else f"{default:g}"
                     if isinstance(default, float) else str(default))
            named = ", ".join(f"`{f}`" for f in flags(name, field))
            lines.append(f"| `{env_name(name)}` | {named} | `{shown}` | {allowed(field)} | "
                         f"{field.description} |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
