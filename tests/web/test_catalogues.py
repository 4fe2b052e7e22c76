"""The language catalogues, the shared words (src/tiergarten/web/i18n/<lang>.json) and each
game's (web/games/<id>/i18n/<lang>.json), checked without a browser: every message is
well-formed (the ICU MessageFormat subset js/i18n.js reads: {name}, {n, plural, ...},
{x, select, ...}), every catalogue has every key of its English one in every language, with the
same parameters, plural forms are those of the language, no key is in two catalogues, every key
the JavaScript asks for exists (a shared script's among the shared words, a game's among those
and its own), and the keys built from game data cover what each game really uses."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from tests.webparts import (
    LANGUAGES,
    WEB,
    catalogue_files,
    game_folder,
    game_scripts,
    shared_scripts,
    string_literals,
)
from tests.webparts import catalogue as merged

import tiergarten
from tiergarten.core.registry import game_class
from tiergarten.offline.facts import describe_game

ROOT = Path(__file__).resolve().parents[2]
PLACES = ("", *tiergarten.games())  # "": the shared catalogue, else a game's
# The plural categories of Intl.PluralRules for each language (integers and fractions alike).
CATEGORIES = {"en": {"one", "other"}, "de": {"one", "other"},
              "pl": {"one", "few", "many", "other"}, "it": {"one", "many", "other"}}
LITERAL_CALL = re.compile(r"""\bt(?:Or)?\(\s*(["'])([^"'`$]+?)\1""")


def catalogue(lang: str) -> dict[str, str]:
    """Every word of a language: the shared ones and every game's."""
    data = merged(lang)
    assert all(isinstance(v, str) for v in data.values()), f"{lang}: every value is text"
    return data


def words_of(place: str, lang: str) -> dict[str, str]:
    return catalogue_files(lang)[place]


class Message:
    """The parts of one message that the checks need: its parameters and its choices."""

    def __init__(self, text: str) -> None:
        self.text, self.i = text, 0
        self.params: set[str] = set()
        self.printed: set[str] = set()  # parameters whose value is shown, not only chosen by
        self.plural_keys: set[str] = set()
        self._message(branch=False)

    def _message(self, branch: bool) -> None:
        while self.i < len(self.text):
            c = self.text[self.i]
            if c == "}" and branch:
                return
            if c == "}":
                raise ValueError(f"a }} without its {{ at {self.i}")
            if c == "{":
                self._argument()
            else:
                self.i += 1
        if branch:
            raise ValueError("a choice's {text} is not closed")

    def _argument(self) -> None:
        match = re.compile(r"\{\s*(\w+)\s*(?:,\s*(\w+)\s*,)?\s*").match(self.text, self.i)
        if not match:
            raise ValueError(f"a bad {{argument}} at {self.i}")
        self.params.add(match.group(1))
        self.i = match.end()
        kind = match.group(2)
        if kind is None:
            self.printed.add(match.group(1))
            if self.text[self.i:self.i + 1] != "}":
                raise ValueError(f"{{{match.group(1)}}} is not closed")
            self.i += 1
            return
        if kind not in ("plural", "select"):
            raise ValueError(f"unknown kind {kind!r} (plural or select)")
        keys = set()
        while True:
            choice = re.compile(r"\s*(=?\w+)\s*\{|\s*\}").match(self.text, self.i)
            if not choice:
                raise ValueError(f"a bad choice in {{{match.group(1)}, {kind}}} at {self.i}")
            self.i = choice.end()
            if choice.group(1) is None:
                break
            keys.add(choice.group(1))
            self._message(branch=True)
            self.i += 1
        if "other" not in keys:
            raise ValueError(f"{{{match.group(1)}, {kind}}} has no 'other' choice")
        if kind == "plural":
            self.plural_keys |= {k for k in keys if not k.startswith("=")}


def placeholders(text: str) -> set[str]:
    return Message(text).params


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_well_formed_with_the_plural_forms_of_its_language(lang: str) -> None:
    bad = {}
    for key, text in catalogue(lang).items():
        try:
            extra = Message(text).plural_keys - CATEGORIES[lang]
        except ValueError as exc:
            bad[key] = str(exc)
        else:
            if extra:
                bad[key] = f"plural forms {sorted(extra)} are not {lang}'s"
    assert bad == {}


def test_the_language_list_matches_the_catalogues() -> None:
    js = (WEB / "js" / "i18n.js").read_text(encoding="utf-8")
    listed = re.search(r"LANGUAGES = \{([^}]*)\}", js)
    assert listed
    assert set(re.findall(r"(\w+):", listed.group(1))) == set(LANGUAGES)
    assert {p.stem for p in (WEB / "i18n").glob("*.json")} == set(LANGUAGES)
    for game in tiergarten.games():
        assert {p.stem for p in (game_folder(game) / "i18n").glob("*.json")} == set(LANGUAGES)


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_language_has_every_key(lang: str, place: str) -> None:
    en, other = words_of(place, "en"), words_of(place, lang)
    assert sorted(set(en) - set(other)) == [], f"{lang} lacks these keys of {place or 'shared'}"
    assert sorted(set(other) - set(en)) == [], f"{lang} has keys English does not have"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_key_is_in_two_catalogues(lang: str) -> None:
    places: dict[str, list[str]] = {}
    for place, words in catalogue_files(lang).items():
        for key in words:
            places.setdefault(key, []).append(place or "shared")
    assert {k: p for k, p in places.items() if len(p) > 1} == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_parameters_are_those_of_english(lang: str) -> None:
    en, other = catalogue("en"), catalogue(lang)
    wrong = {}
    for key, text in other.items():
        mine, english = Message(text), Message(en[key])
        # a language may choose a form by a parameter English does not need (a count for a
        # plural, a grammatical gender), but shows no value English lacks, and drops none
        strays = mine.printed - english.params
        # (a value English shows may be worded by a choice instead: "i corpi" from {part})
        dropped = set() if mine.params - mine.printed - english.params else (
            english.printed - mine.params)
        if strays or dropped:
            wrong[key] = {"unknown": sorted(strays), "dropped": sorted(dropped)}
    assert wrong == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_translation_is_empty(lang: str) -> None:
    assert [k for k, v in catalogue(lang).items() if not v.strip()] == []


def literal_keys(paths: list[Path]) -> dict[str, str]:
    """The keys scripts ask for in so many words: t("key") or tOr("key", ...)."""
    used: dict[str, str] = {}
    for path in paths:
        code = re.sub(r"^\s*//.*$", "", path.read_text(encoding="utf-8"), flags=re.M)
        for match in LITERAL_CALL.finditer(code):
            used.setdefault(match.group(2), path.name)
    return used


@pytest.mark.parametrize("place", PLACES)
def test_every_literal_key_in_the_javascript_exists(place: str) -> None:
    """A shared script finds its keys among the shared words, a game's among those and its
    own: never among another game's, which a page may not have loaded."""
    known = set(words_of("", "en")) | (set(words_of(place, "en")) if place else set())
    used = literal_keys(game_scripts(place) if place else shared_scripts())
    assert len(used) > (100 if not place else 10)
    assert {k: f for k, f in used.items() if k not in known} == {}


def test_the_key_finder_reads_what_the_scripts_say() -> None:
    """LITERAL_CALL finds each key a script writes as a string literal in t(...)."""
    code = 't("a.b", {n: 1}) + tOr(\'c.d\', x) + t(`e.${f}`) + hat("g.h")'
    assert [m.group(2) for m in LITERAL_CALL.finditer(code)] == ["a.b", "c.d"]
    assert "a.b" in string_literals(code) and "e. " in string_literals(code)


def shipped_bots() -> dict[str, list[str]]:
    """The bot names the package offers, asked of a fresh interpreter: lab studies register
    bots of their own (e.g. "median 0.80 s") when imported, which need no translation."""
    code = ("import json, tiergarten; from tiergarten import bots; "
            "print(json.dumps({g: bots.names(g) for g in tiergarten.games()}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60)
    names: dict[str, list[str]] = json.loads(out.stdout)
    return names


def source(*parts: str) -> str:
    return (ROOT / "src" / "tiergarten" / Path(*parts)).read_text(encoding="utf-8")


def error_codes() -> set[str]:
    """From server/edge/protocol.py if it lists the codes, else from docs/protocol.md's table."""
    protocol = source("server", "edge", "protocol.py")
    listed = re.search(r"ERROR_CODES\s*=\s*[({\[]([^)}\]]*)", protocol)
    if listed:
        return set(re.findall(r"""["'](\w+)["']""", listed.group(1)))
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    table = doc.split("### Error codes", 1)[1].split("\n\n", 2)[1]
    return set(re.findall(r"^\| `(\w+)` \|", table, re.M))


def rest_error_codes() -> set[str]:
    """The codes of REST refusals, from docs/protocol.md's table "REST error codes"."""
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = doc.split("### REST error codes", 1)[1].split("\n## ", 1)[0]
    table = section[section.index("| code |"):].split("\n\n", 1)[0]
    return set(re.findall(r"^\| `(\w+)` \|", table, re.M))


def shared_dynamic_keys() -> set[str]:
    """Keys the shared scripts build from the server's data, whatever the game: the words of
    every websocket and REST error code (js/api.js, js/table/refusal.js)."""
    keys = {f"error.code.{code}" for code in error_codes() | rest_error_codes()}
    return keys | {f"table.status.{status}" for status in ("open", "playing", "over",
                                                           "closed")}


def dynamic_keys(game: str) -> set[str]:
    """Keys the JavaScript builds from a game's data, for the values the game really has."""
    from tiergarten.games.lecker_mammut import cards as lm
    from tiergarten.games.mammuz import cards as mz
    from tiergarten.games.mammuz import terms as mzs
    from tiergarten.games.maumau import cards as mm
    from tiergarten.games.mucca_pazza import cards as mp

    keys = {f"game.{game}.title", f"game.{game}.summary", f"rules.{game}"}
    keys |= {f"reason.{reason}" for reason in game_class(game).info.reasons}
    keys |= {f"bot.{name}" for name in shipped_bots()[game]}
    # the lobby's line on how each level plays this game (GET /api/games: `levels`)
    keys |= {f"game.{game}.level.{level}" for level in describe_game(game)["levels"]}
    for option in game_class(game).info.options:
        keys |= {f"option.{game}.{option.name}", f"option.{game}.{option.name}.doc"}
        keys |= {f"choice.{choice}" for choice in option.choices or ()}
    if game == "maumau":
        keys |= {f"maumau.rank.{r}" for r in mm.RANKS} | {f"maumau.suit.{s}" for s in mm.SUITS}
    if game == "mammuz":
        keys |= {f"animal.{a}" for a in mz.NAMES}
        keys |= {f"mammuz.outcome.{o}"
                 for o in (mzs.TAKEN, mzs.DEALT, mzs.REMOVED, mzs.TO_JACKPOT, mzs.WON)}
    if game == "lecker_mammut":
        keys |= {f"lm.animal.{a}" for a in lm.ANIMALS} | {f"lm.colour.{c}" for c in lm.COLOURS}
    if game == "mucca_pazza":
        keys |= {f"mucca.animal.{a}" for a in mp.CARD_NAMES}
        keys |= {f"mucca.row.{r}" for r in mp.ROWS} | {f"mucca.dir.{d}" for d in mp.DIRECTIONS}
        hints = source("bots", "mucca_pazza_advice.py")
        keys |= {f"mucca.why.{r}" for r in re.findall(r'"reason": "(\w+)"', hints)}
    return keys


def test_the_dynamic_keys_cover_the_games() -> None:
    """The shared scripts' keys are among the shared words; a game's among those and its own."""
    keys = shared_dynamic_keys() | {k for g in tiergarten.games() for k in dynamic_keys(g)}
    assert {"error.code.wrong_login", "error.code.no_player", "error.code.no_table"} <= keys
    assert len(rest_error_codes()) > 40
    assert {"error.code.void", "error.code.stale", "reason.no_species", "animal.mouse",
            "mammuz.outcome.jackpot", "mucca.why.remembered", "bot.heuristic"} <= keys
    assert len(tiergarten.games()) == 4
    for lang in LANGUAGES:
        shared = set(words_of("", lang))
        assert sorted(shared_dynamic_keys() - shared) == [], f"{lang} lacks shared keys"
        for game in tiergarten.games():
            have = shared | set(words_of(game, lang))
            assert sorted(dynamic_keys(game) - have) == [], f"{lang} lacks keys {game} uses"


def test_every_rule_summary_has_paragraphs() -> None:
    for lang in LANGUAGES:
        for game in tiergarten.games():
            paragraphs = catalogue(lang)[f"rules.{game}"].split("\n")
            assert 4 <= len(paragraphs) <= 10 and all(p.strip() for p in paragraphs), (lang, game)
