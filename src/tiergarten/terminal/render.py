"""How a game looks in a terminal: one renderer per game, and a generic one for any game.

A renderer turns observations (`state.observe(seat)`) into Rich renderables; it never sees the
raw state, so it cannot show a seat anything the engine hides from it. The base `Renderer` is
also the generic fallback: it prints any observation readably, so a newly registered game is
playable in the terminal before it has a renderer of its own.

Adding a game's renderer is a one-module job: write `tiergarten/terminal/<game id>.py` with a
module attribute `RENDERER` (an instance of a `Renderer` subclass). `renderer_for` finds it by
module name; `register` is the one-line alternative for renderers that live elsewhere.

This module and the renderers are drawing only: no input, no match, nothing interactive (that
is the driver's, the screen's and the human's). So the screen as text (`screen_text`, framed as
`tiergarten play` frames it with `frame`) is shared: the terminal draws it, and the RL envs'
`render_mode="ansi"` returns it (`tiergarten.rl.render`), without loading the terminal's driver.

>>> renderer_for("maumau").__class__.__name__
'MauMauRenderer'
>>> renderer_for("no_such_game").__class__.__name__
'Renderer'
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import io
import json
import re
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .menu import Choice

Observation = Mapping[str, Any]
SEAT_KEYS = frozenset({"seat", "turn", "dealer", "catchable", "starter", "leader"})
SEAT_LIST_KEYS = frozenset({"to_move", "winners"})
HIDDEN_KEYS = frozenset({"game", "log", "result"})


class Renderer:
    """The generic renderer: every method works from observations alone; games override some.

    `names[seat]` is how a seat is called on screen ("You", "Heuristic 2", ...); sentences
    about a seat agree with "You" through `says`, `whom` and `whose`.
    """

    log_lines = 6  # how many recent events a screen shows
    tight = False  # short of lines even without the log: leave out spacing and extras

    def __init__(self, unicode: bool = True) -> None:
        self.unicode = unicode  # False: plain ASCII for terminals that cannot show symbols

    @property
    def marker(self) -> str:
        """What points at the seat whose turn it is."""
        return "▶" if self.unicode else ">"

    @staticmethod
    def seat_name(seat: Any, names: Sequence[str]) -> str:
        """How an event's seat is called on screen ("?" if the event names no seat)."""
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    @staticmethod
    def turn_line(turn: int, seat: Any, names: Sequence[str]) -> Text:
        """"It is your turn." or "It is Heuristic 2's turn." for the seat whose turn it is."""
        owner = "your" if turn == seat else whose(names[turn])
        return Text(f"It is {owner} turn.", style="bold")

    def menu(self, legal: Sequence[Any], obs: Observation, names: Sequence[str],
             ) -> list[Choice]:
        """The numbered choices offered for the legal moves: one per move by default; a game
        with many moves offers fewer, some leading to guided steps (see `menu.Step`)."""
        return [Choice(self.label(str(a), obs, names), move=str(a)) for a in legal]

    def commands(self) -> dict[str, str]:
        """Extra words a person may type at this game's prompt, with what each does."""
        return {}

    def command(self, word: str, obs: Observation) -> RenderableType:
        """The answer to one of `commands()`, from the asking seat's observation."""
        raise KeyError(word)

    # -- the screen one seat sees ------------------------------------------------------------

    def screen(self, obs: Observation, names: Sequence[str], log: bool = True) -> RenderableType:
        """Everything `obs` lets its seat see, laid out for a terminal."""
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for key, value in obs.items():
            if key not in HIDDEN_KEYS:
                table.add_row(key.replace("_", " "), self.value(key, value, names))
        parts: list[RenderableType] = [table]
        if log:
            parts += self.recent(obs, names)
        return Group(*parts)

    def recent(self, obs: Observation, names: Sequence[str]) -> list[RenderableType]:
        """The last few events in words, under a "Recent:" heading (nothing if there are none)."""
        lines = self.events(obs, names)
        if not lines:
            return []
        recent = Table.grid()
        recent.add_column()
        for line in lines:
            recent.add_row(line)
        return [Text(""), Text("Recent:", style="bold"), Padding(recent, (0, 0, 0, 2))]

    def value(self, key: str, value: Any, names: Sequence[str]) -> Text:
        """One observation entry in words; seat numbers are shown by name."""
        if key in SEAT_KEYS and _is_seat(value, names):
            return Text(names[value])
        if key in SEAT_LIST_KEYS and isinstance(value, list) and all(
                _is_seat(v, names) for v in value):
            return Text(", ".join(names[v] for v in value) or "—")
        if isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
            return Text(" ".join(str(v) for v in value) or "—")
        if value is None:
            return Text("—")
        if isinstance(value, str | int | float | bool):
            return Text(str(value))
        return Text(json.dumps(value, separators=(", ", ": ")))

    def events(self, obs: Observation, names: Sequence[str]) -> list[Text]:
        """The last few public happenings of `obs["log"]` (if the game keeps one), in words."""
        log = obs.get("log")
        if not isinstance(log, list) or self.log_lines <= 0:
            return []
        viewer = obs.get("seat")
        return [self.event(e, names, viewer) for e in log[-self.log_lines:]]

    def happened(self, before: Observation, after: Observation, names: Sequence[str],
                 seat: Any, action: str) -> list[Text]:
        """What a move did beyond itself, in words (for replays): the events it added to the
        log, less the one that only repeats the move (see `echo`)."""
        added = new_events(before.get("log"), after.get("log"))
        return [self.event(e, names, None) for e in added
                if not (e.get("seat") == seat and self.echo(e, action))]

    def echo(self, event: Mapping[str, Any], action: str) -> bool:
        """Does `event` (by the seat that made `action`) only repeat the move itself?"""
        return event.get("act") == action

    def event(self, event: Any, names: Sequence[str], viewer: Any) -> Text:
        """One log event in words; the generic version names the seat and shows the rest."""
        if isinstance(event, dict) and _is_seat(event.get("seat"), names):
            rest = {k: v for k, v in event.items() if k != "seat"}
            return Text(f"{names[event['seat']]}: {json.dumps(rest)}")
        return Text(json.dumps(event))

    def hand(self, obs: Observation) -> Text | None:
        """The seat's own hand in one line, if the observation has one."""
        hand = obs.get("hand")
        if isinstance(hand, list):
            return Text(" ".join(str(c) for c in hand) or "(empty)")
        return None

    # -- moves -------------------------------------------------------------------------------

    def label(self, action: str, obs: Observation, names: Sequence[str]) -> Text:
        """A legal action in words for the menu (the notation itself by default)."""
        return Text(action)

    def may_wait(self, obs: Observation, seat: int) -> bool:
        """May this seat let the moment pass (it may act only out of turn)?"""
        turn = obs.get("turn")
        if isinstance(turn, int):
            return turn != seat
        return any(s != seat for s in obs.get("to_move", ()))

    # -- between moves and at the end --------------------------------------------------------

    def interlude(self, before: Observation, after: Observation, names: Sequence[str],
                  ) -> RenderableType | None:
        """Something worth stopping for between two observations (a round ended), or None."""
        if before.get("round") != after.get("round") and after.get("round") is not None:
            return Text(f"Round {before.get('round')} is over.", style="bold")
        return None

    def outcome(self, result: Mapping[str, Any], names: Sequence[str],
                obs: Observation | None = None, brief: bool = False) -> RenderableType:
        """The final scores, ranks and winners, and why the game ended (`obs`: the last
        observation, for the words). `brief` puts the ranking in a line or two instead of a
        table, for a last screen that has no room for both the table of the game and it."""
        scores, ranks = result["scores"], result["ranks"]
        order = sorted(range(len(scores)), key=lambda s: (ranks[s], s))
        if brief:
            ranking: RenderableType = Text("Result: " + " · ".join(
                f"{ranks[s]}. {names[s]} {_number(scores[s])}" for s in order))
        else:
            table = Table(title="Result", title_justify="left", box=box.SIMPLE_HEAD,
                          show_edge=False)  # compact: the last screen keeps the table above
            table.add_column("Rank", justify="right")
            table.add_column("Player")
            table.add_column("Score", justify="right")
            for seat in order:
                table.add_row(str(ranks[seat]), names[seat], _number(scores[seat]))
            ranking = table
        return Group(ranking, Text(winners_line(result["winners"], names), style="bold"),
                     Text(f"The game ended: {self.why_over(result, names, obs)}."))

    def why_over(self, result: Mapping[str, Any], names: Sequence[str],
                 obs: Observation | None = None) -> str:
        """Why the game ended, from its result's `reason` (games put it in words)."""
        reason = str(result.get("reason") or "it is over")
        if reason == "decision_limit":
            return "it reached the engine's limit of decisions; ranked as it stood"
        return reason.replace("_", " ")

    def revealed(self, observations: Sequence[Observation], names: Sequence[str],
                 spectator: Observation) -> RenderableType:
        """Every seat's view at once (for replays of finished games): the public part, then
        what each seat alone could see."""
        parts: list[RenderableType] = [self.screen(spectator, names, log=False)]
        for seat, obs in enumerate(observations):
            own = {k: v for k, v in obs.items()
                   if k not in HIDDEN_KEYS and k != "seat" and spectator.get(k) != v}
            if own:
                shown = ", ".join(f"{k.replace('_', ' ')} {self.value(k, v, names)}"
                                  for k, v in own.items())
                parts.append(Text(f"{names[seat]}: {shown}"))
        return Group(*parts)


# -- sentences that agree with "You" ------------------------------------------------------------

YOU = "You"
_IRREGULAR = {"is": "are", "has": "have", "was": "were", "does": "do", "goes": "go"}


def says(name: str, verb: str) -> str:
    """`name` and a present-tense `verb` phrase in agreement (past tenses need no help).

    >>> says("Heuristic 2", "opens the first herd"), says("You", "opens the first herd")
    ('Heuristic 2 opens the first herd', 'You open the first herd')
    >>> says("You", "flips first"), says("You", "chooses"), says("You", "has won")
    ('You flip first', 'You choose', 'You have won')
    """
    if name != YOU:
        return f"{name} {verb}"
    first, space, rest = verb.partition(" ")
    if first in _IRREGULAR:
        first = _IRREGULAR[first]
    elif first.endswith(("ches", "shes", "sses", "xes")):
        first = first[:-2]
    elif first.endswith("ies"):
        first = first[:-3] + "y"
    elif first.endswith("s") and not first.endswith("ss"):
        first = first[:-1]
    return f"{name} {first}{space}{rest}"


def whom(name: str) -> str:
    """A seat's name as an object: "doubted you", "gave the herd to Random 3"."""
    return "you" if name == YOU else name


def whose(name: str) -> str:
    """A seat's name as an owner: "your", "Random 3's"."""
    return "your" if name == YOU else f"{name}'s"


def their(name: str) -> str:
    """The possessive pronoun for a seat: "your" for You, else "their"."""
    return "your" if name == YOU else "their"


def named(reason: str, names: Sequence[str]) -> str:
    """An engine's reason with its "seat 2" (seats count from 0 there) as the name on screen.

    >>> named("it is seat 1's turn; seat 2 laid their last card", ["You", "Bot 2", "Bot 3"])
    "it is Bot 2's turn; Bot 3 laid their last card"
    >>> named("it is seat 0's pile that is being flipped", ["You", "Bot 2"])
    'it is your pile that is being flipped'
    """
    def name(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        if not 0 <= seat < len(names):
            return match.group(0)
        return whose(names[seat]) if match.group(2) else whom(names[seat])
    return re.sub(r"\bseat (\d+)('s)?", name, reason)


def winners_line(winners: Sequence[int], names: Sequence[str]) -> str:
    """ "You win.", "Random 2 wins.", "Heuristic 2 and you win."

    >>> winners_line([0], ["You", "Bot 2"]), winners_line([1, 0], ["You", "Bot 2"])
    ('You win.', 'Bot 2 and you win.')
    """
    who = [names[s] if i == 0 else whom(names[s]) for i, s in enumerate(winners)]
    if len(who) == 1:
        return f"{says(who[0], 'wins')}."
    return f"{', '.join(who[:-1])} and {who[-1]} win."


def new_events(before: Any, after: Any) -> list[Any]:
    """The events `after`'s log window has that `before`'s had not: both are the last few
    events of one game, so `after` starts with the end of `before` (the longest such overlap
    is taken; a window of one event repeated throughout could hide a repeat).

    >>> new_events([1, 2, 3], [2, 3, 4, 5]), new_events([], [1]), new_events([1], [1])
    ([4, 5], [1], [])
    """
    if not isinstance(after, list):
        return []
    old = before if isinstance(before, list) else []
    for overlap in range(min(len(old), len(after)), 0, -1):
        if old[-overlap:] == after[:overlap]:
            return after[overlap:]
    return list(after)


def _is_seat(value: Any, names: Sequence[str]) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names)


def _number(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


# -- who is who on screen ------------------------------------------------------------------------

PERSON = "me"  # the kind of seat a person at the keyboard takes (the others are bot names)


def seat_names(kinds: Sequence[str]) -> list[str]:
    """How each seat is called on screen: numbered by its place at the table, from 1 (as the
    browser numbers seats); the one person at the keyboard is "You".

    >>> seat_names(["me", "heuristic", "random"])
    ['You', 'Heuristic 2', 'Random 3']
    >>> seat_names(["me", "me", "random"])
    ['Player 1', 'Player 2', 'Random 3']
    """
    people = list(kinds).count(PERSON)
    return [("You" if people == 1 else f"Player {seat + 1}") if who == PERSON
            else f"{who.capitalize()} {seat + 1}" for seat, who in enumerate(kinds)]


# -- a screen, framed, and as text -----------------------------------------------------------------

def frame(screen: RenderableType, title: str) -> Panel:
    """A screen in the frame the terminal draws round it, `title` at its top left."""
    return Panel(screen, title=title, title_align="left")


def screen_text(game_id: str, obs: Observation, names: Sequence[str], title: str,
                width: int) -> str:
    """The terminal's screen of `obs` (the game's renderer), seats called `names`, framed under
    `title`, as text `width` columns wide with ANSI colour codes (256 colours): the same text
    whatever terminal, if any, runs it.

    >>> import tiergarten
    >>> state = tiergarten.load("maumau", players=2).new_state(seed=3)
    >>> text = screen_text("maumau", state.observe(0), ["You", "Random 2"], "Mau Mau", 80)
    >>> Text.from_ansi(text).plain.splitlines()[0].startswith("╭─ Mau Mau ")
    True
    """
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=True, color_system="256",
                      legacy_windows=False, _environ={})
    console.print(frame(renderer_for(game_id).screen(obs, names), title))
    return out.getvalue()


# -- finding a game's renderer -------------------------------------------------------------------

_REGISTERED: dict[str, Renderer] = {}


def register(game_id: str, renderer: Renderer) -> None:
    """Use `renderer` for `game_id` (instead of looking for `tiergarten.terminal.<game_id>`)."""
    _REGISTERED[game_id] = renderer


def renderer_module(game_id: str) -> ModuleType | None:
    """The module `tiergarten.terminal.<game_id>`, if there is one."""
    return game_module(game_id)


def game_module(game_id: str, suffix: str = "") -> ModuleType | None:
    """The module `tiergarten.terminal.<game_id><suffix>`, if there is one."""
    name = f"{__package__}.{game_id}{suffix}"
    if game_id.isidentifier() and importlib.util.find_spec(name) is not None:
        return importlib.import_module(name)
    return None


def renderer_for(game_id: str, unicode: bool = True) -> Renderer:
    """The renderer of `game_id` (a copy of it, free to configure): registered, or the module
    `tiergarten.terminal.<game_id>`'s `RENDERER`, or the generic one."""
    found: object = _REGISTERED.get(game_id)
    if found is None:
        found = getattr(renderer_module(game_id), "RENDERER", None)
    renderer = copy.copy(found) if isinstance(found, Renderer) else Renderer()
    renderer.unicode = unicode
    return renderer


def can_show_unicode(console: Console) -> bool:
    """Whether `console` can print card symbols and arrows."""
    return (console.encoding or "").lower().startswith("utf")
