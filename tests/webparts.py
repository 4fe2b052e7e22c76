"""The browser client's files as the tests read them without a browser (docs/web.md, "Files"):
the shared catalogues (web/i18n/<lang>.json) and each game's (web/games/<id>/i18n/<lang>.json),
which key is one game's, and the words a script or the selectors a stylesheet holds."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import tiergarten
from tiergarten import bots
from tiergarten.core.registry import game_class

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "src" / "tiergarten" / "web"
LANGUAGES = ("en", "de", "pl", "it")
# Namespaces that several games fill, each entry told apart by the game id or by the game's
# data after the namespace: `game.<id>.title`, `bot.<name>`, `reason.<reason>`, ... Any other
# first part of a key in a game's catalogue is that game's own (`lm.`, `mucca.`, `animal.`).
PER_GAME = ("game", "rules", "option", "refusal", "tutorial", "bot", "reason", "choice")


def game_folder(game: str) -> Path:
    return WEB / "games" / game


def _read(path: Path) -> dict[str, str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), path
    return data


def shared_catalogue(lang: str) -> dict[str, str]:
    return _read(WEB / "i18n" / f"{lang}.json")


def game_catalogue(game: str, lang: str) -> dict[str, str]:
    return _read(game_folder(game) / "i18n" / f"{lang}.json")


def catalogue_files(lang: str) -> dict[str, dict[str, str]]:
    """Every catalogue of a language: "" for the shared words, then one per game."""
    return {"": shared_catalogue(lang)} | {g: game_catalogue(g, lang) for g in tiergarten.games()}


def catalogue(lang: str) -> dict[str, str]:
    """All the words the browser has in a language: the shared ones and every game's."""
    merged: dict[str, str] = {}
    for words in catalogue_files(lang).values():
        merged |= words
    return merged


# -- which key is one game's ------------------------------------------------------------------

@cache
def own_namespaces(game: str) -> frozenset[str]:
    """The first parts of the game's keys outside PER_GAME (and its id in any case)."""
    keys = game_catalogue(game, "en") if (game_folder(game) / "i18n" / "en.json").is_file() else {}
    return frozenset({k.split(".")[0] for k in keys} - set(PER_GAME)) | {game}


@cache
def _data() -> dict[str, dict[str, set[str]]]:
    """For each game: its bots, end reasons, option names and option choices."""
    out = {}
    for game in tiergarten.games():
        info = game_class(game).info
        out[game] = {"bot": set(bots.names(game)), "reason": {str(r) for r in info.reasons},
                     "option": {o.name for o in info.options},
                     "choice": {str(c) for o in info.options for c in o.choices or ()}}
    return out


def _only(kind: str, value: str) -> str | None:
    """The game whose data alone has `value` (a bot, a reason, ...), if only one does."""
    having = [g for g, data in _data().items() if value in data[kind]]
    return having[0] if len(having) == 1 else None


def owner(key: str) -> str | None:
    """The game a key belongs to (None: a shared word)."""
    first, _, rest = key.partition(".")
    second = rest.split(".")[0]
    for game in tiergarten.games():
        if first in own_namespaces(game):
            return game
        if first in ("game", "rules", "option", "refusal") and second == game:
            return game
        if first == "tutorial" and re.fullmatch(rf"{game}([-_]\w+)?", second):
            return game  # a tutorial id: the game's, or the game's and a variant's
    if first in ("bot", "reason"):
        return _only(first, rest)
    if first == "choice":  # choice.<value> or choice.<option name>.<value>
        return _only("option", second) if "." in rest else _only("choice", rest)
    return None


# -- scripts and stylesheets ------------------------------------------------------------------

REGEX_AFTER = set("(,=:[!&|?{};") | {""}  # a / after these starts a regular expression


def string_literals(code: str) -> list[str]:
    """The text of every string literal of a script, a template's and those within its
    `${...}` too, without comments: where a script names classes, keys and game ids."""
    out: list[str] = []
    _code(code, 0, out, nested=False)
    return out


def _code(code: str, i: int, out: list[str], nested: bool) -> int:
    """Read code from `i` to its end (or, nested, to the `}` closing a `${`)."""
    n, last, depth = len(code), "", 0
    while i < n:
        c = code[i]
        if code.startswith("//", i):
            j = code.find("\n", i)
            i = n if j < 0 else j
            continue
        if code.startswith("/*", i):
            i = code.index("*/", i) + 2
            continue
        if c in "\"'":
            j = _closing(code, i + 1, c)
            out.append(code[i + 1:j])
            i, last = j + 1, c
            continue
        if c == "`":
            i, last = _template(code, i + 1, out), c
            continue
        if c == "/" and last in REGEX_AFTER:
            i, last = _regex(code, i + 1), "/"
            continue
        if nested and c == "}" and depth == 0:
            return i + 1
        depth += (c == "{") - (c == "}") if nested else 0
        last = last if c.isspace() else c
        i += 1
    return i


def _closing(code: str, i: int, quote: str) -> int:
    while i < len(code) and code[i] != quote:
        i += 2 if code[i] == "\\" else 1
    return i


def _template(code: str, i: int, out: list[str]) -> int:
    text = []
    while i < len(code) and code[i] != "`":
        if code[i] == "\\":
            text.append(code[i:i + 2])
            i += 2
        elif code.startswith("${", i):
            i = _code(code, i + 2, out, nested=True)
            text.append(" ")
        else:
            text.append(code[i])
            i += 1
    out.append("".join(text))
    return i + 1


def _regex(code: str, i: int) -> int:
    in_class = False
    while i < len(code) and (code[i] != "/" or in_class):
        if code[i] == "\\":
            i += 2
            continue
        in_class = (in_class or code[i] == "[") and code[i] != "]"
        i += 1
    return i + 1


def script_words(*paths: Path) -> set[str]:
    """The words of the scripts' string literals (class names among them)."""
    return {w for p in paths for text in string_literals(p.read_text(encoding="utf-8"))
            for w in re.findall(r"[A-Za-z_][\w-]*", text)}


def css_selectors(css: str) -> list[str]:
    """Every selector of a stylesheet (one per comma), none of @keyframes' steps."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    css = re.sub(r"@keyframes[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}", "", css)
    css = re.sub(r"@media[^{]*\{", "", css)
    heads = re.findall(r"([^{}]+)\{[^{}]*\}", css)
    return [s.strip() for head in heads for s in head.split(",") if s.strip()]


def css_classes(selector: str) -> set[str]:
    return set(re.findall(r"\.(-?[A-Za-z_][\w-]*)", selector))


def shared_scripts() -> list[Path]:
    return sorted((WEB / "js").rglob("*.js"))


def game_scripts(game: str) -> list[Path]:
    return sorted(game_folder(game).rglob("*.js"))
