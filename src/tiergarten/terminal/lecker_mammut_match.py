"""Lecker Mammut! at the terminal, in real time: the table drawn by its renderer
(lecker_mammut.py), one key per hit, bots on their own clocks
(`tiergarten.core.realtime.RealTimeTable`). `tiergarten play lecker_mammut` plays it (`MATCH`).

Keys (one person): space flips your pile; an animal key `1`–`7` (bear boar tiger sloth deer
mammoth rhino) or a colour key `r o y g b v p` (red orange yellow green blue purple pink) hits the
club and calls it; after a good hit a digit picks the top card from the numbered list; `.` passes
at the end of a round; a digit gives a pile back when you must; `Q` or Esc quits. Hot-seat
(`--players me:q,me:m,hard`): each person first presses their own hit key (the screen says whose
it was at once), then the call key (or `.` or a digit); space flips for whoever's pile it is. The
foot of the screen says whose hit key is which. A hit is sent with the version of the table
on screen, so a hand that lands after a faster one is void, not a mistake. A person who stays
silent at the end of a round passes by the table's timer (`patience` seconds), but never while
three visible cards share a feature (rules 2 on: someone may still want to hit; the bots will).
The table shows the penalty cards each seat holds: the most of them give a prize pile back.

>>> keys = Keys({0: None})
>>> keys.press("g", {"version": 4, "phase": "flipping", "choosing": [], "returning": [],
...                  "flipper": 1})
([(0, 'hit green @4')], '')
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.panel import Panel
from rich.text import Text

from tiergarten import bots
from tiergarten.bots.lecker_mammut import safest_top
from tiergarten.core import Action, IllegalAction, OptionError, State, load
from tiergarten.core.game import fresh_seed
from tiergarten.core.match import Proposal, SeatView
from tiergarten.core.realtime import Clock, Move, RealTimeTable
from tiergarten.games.lecker_mammut.actions import PASS, RETURNS, TOPS
from tiergarten.games.lecker_mammut.cards import CARD_BY_NAME, shows_three

from .driver import save_record
from .lecker_mammut import LeckerMammutRenderer, count_cards
from .render import PERSON, Observation, frame, named, seat_names

ANIMAL_KEYS = {"1": "bear", "2": "boar", "3": "tiger", "4": "sloth", "5": "deer", "6": "mammoth",
               "7": "rhino"}
COLOUR_KEYS = {"r": "red", "o": "orange", "y": "yellow", "g": "green", "b": "blue",
               "v": "purple", "p": "pink"}
FEATURE_KEYS = {**ANIMAL_KEYS, **COLOUR_KEYS}
KEY_OF = {feature: key for key, feature in FEATURE_KEYS.items()}
QUIT_KEYS = ("Q", "\x1b", "\x03")


# -- keys -----------------------------------------------------------------------------------------

Submission = tuple[int, str]


class Keys:
    """Turns key presses into actions, given the observation on screen.

    `people` maps each person's seat to their hit key (None: the only person, who calls at once);
    `names` are how the seats are called in messages.
    """

    def __init__(self, people: Mapping[int, str | None],
                 names: Sequence[str] | None = None) -> None:
        self.people = dict(people)
        self.names = list(names) if names is not None else [f"Player {s + 1}" for s in
                                                             range(max(self.people) + 1)]
        self.by_key = {key: seat for seat, key in self.people.items() if key is not None}
        self.armed: int | None = None  # hot-seat: whose hit key was pressed last

    def press(self, key: str, obs: Observation) -> tuple[list[Submission], str]:
        """The submissions `key` makes, and a message for the screen ('' if none)."""
        if key == " ":
            self.armed = None
            flipper = obs["flipper"]
            if flipper in self.people:
                return [(flipper, "flip")], ""
            return [], "it is not your pile that is being flipped"
        if self.by_key:
            if self.armed is None:
                if key in self.by_key:
                    self.armed = self.by_key[key]
                    return [], (f"{self.names[self.armed]}: now the animal 1-7 or colour "
                                "r o y g b v p (or . to pass)")
                return [], f"press your hit key first ({', '.join(self.by_key)})"
            seat, self.armed = self.armed, None
        else:
            seat = next(iter(self.people))
        return self._second(seat, key, obs)

    def _second(self, seat: int, key: str, obs: Observation) -> tuple[list[Submission], str]:
        if key == ".":
            return [(seat, "pass")], ""
        if key.isdigit():
            number = int(key)
            if seat in obs["returning"]:
                return [(seat, f"return {number}")], ""
            mine = [c for c in obs["choosing"] if c["seat"] == seat]
            if mine:
                tops = mine[0]["tops"]
                if 1 <= number <= len(tops):
                    return [(seat, f"top {tops[number - 1]}")], ""
                return [], f"choose a top card 1 to {len(tops)}"
        feature = FEATURE_KEYS.get(key.lower())
        if feature is None:
            return [], (f"no key {key!r}: animals 1-7, colours r o y g b v p, space flips, "
                        ". passes, Q quits")
        return [(seat, f"hit {feature} @{obs['version']}")], ""


# -- people at a real-time table ---------------------------------------------------------------

def visible(obs: Observation) -> list[str]:
    """The visible cards of an observation: the middle, then every prize pile's top."""
    return [*obs["middle"], *(p["top"] for piles in obs["prize_piles"] for p in piles)]


class Person:
    """A person's seat: their keys go to the table directly; the seat itself proposes only what
    the table does for a silent person after `patience` seconds (pass at the end of a round,
    give back the smallest pile; after twice that, lay the safest top card). From rules 2 the
    timer never passes while three visible cards share a feature: the round then waits for a
    hit (a bot's, or a person's), or for the people to pass themselves."""

    interactive = False  # asked like a bot, but it only ever proposes the table's timer

    def __init__(self, seat: int, patience: float) -> None:
        self.seat = seat
        self.patience = patience
        self.since: tuple[Any, float] | None = None  # (what it waits on, since when)

    def propose(self, view: SeatView) -> Proposal | None:
        now: float = getattr(view, "now", 0.0)
        obs = view.observation
        key = (obs["version"], tuple(obs["passed"]), obs["phase"])
        if self.since is None or self.since[0] != key:
            self.since = (key, now)
        due = self.since[1] + self.patience - now
        legal = view.legal
        if PASS in legal:
            if view.game.rules >= 2 and shows_three(
                    CARD_BY_NAME[name] for name in visible(obs)):
                return None  # someone may still want to hit: the timer does not pass
            return (due, PASS)
        mine = [c for c in obs["choosing"] if c["seat"] == self.seat]
        if mine:
            return (due + self.patience, TOPS[safest_top(obs, mine[0])])
        if obs["returning"] and legal:
            sizes = [p["size"] for p in obs["prize_piles"][self.seat]]
            return (due, RETURNS[sizes.index(min(sizes))])
        return None

    def __repr__(self) -> str:
        return f"me@{self.seat}"


def parse_players(players: Sequence[str] | None) -> tuple[list[str], dict[int, str | None]]:
    """Seat kinds and the people's hit keys from `me`, `me:q` and bot names.

    >>> parse_players(["me:q", "me:m", "hard"])
    (['me', 'me', 'hard'], {0: 'q', 1: 'm'})
    >>> parse_players(None)
    (['me', 'normal', 'hard'], {0: None})
    """
    given = list(players) if players else [PERSON, "normal", "hard"]
    known = bots.names("lecker_mammut")
    kinds: list[str] = []
    people: dict[int, str | None] = {}
    for seat, who in enumerate(given):
        name, _, key = who.partition(":")
        if name == PERSON:
            people[seat] = key or None
        elif name not in known or key:
            raise OptionError(f"no player {who!r} for lecker_mammut", (PERSON, "me:<key>",
                                                                       *known))
        kinds.append(name)
    keys = [k for k in people.values() if k is not None]
    if len(people) > 1 and len(keys) != len(people):
        raise OptionError("at one keyboard each person needs a hit key: me:q,me:m,...")
    if len(set(keys)) != len(keys) or any(len(k) != 1 or k in (" ", ".") for k in keys):
        raise OptionError("hit keys are single, different keys (not space or .)")
    return kinds, people


class RealTimeMatch:
    """One game at the terminal in real time; `run` plays it, `save` writes the record."""

    def __init__(self, players: Sequence[str] | None = None, seed: int | None = None,
                 options: Mapping[str, Any] | None = None, console: Console | None = None,
                 clock: Clock | None = None, patience: float = 6.0) -> None:
        self.kinds, people = parse_players(players)
        self.game = load("lecker_mammut", len(self.kinds), **dict(options or {}))
        self.seed = fresh_seed() if seed is None else seed
        self.names = seat_names(self.kinds)
        self.console = console or Console(highlight=False)
        self.renderer = LeckerMammutRenderer(unicode=(self.console.encoding or "").startswith(
            "utf"))
        self.keys = Keys(people, self.names)
        self.state: State = self.game.new_state(self.seed)
        agents = [Person(s, patience) if s in people else
                  bots.make(who, self.game, s, random.Random(f"{self.seed}:{s}:{who}"))
                  for s, who in enumerate(self.kinds)]
        self.table = RealTimeTable(self.state, agents, clock, on_step=self._step,
                                   on_refused=self._refused)
        self.viewer = next(iter(people)) if len(people) == 1 else None
        self.obs = self.state.observe(self.viewer)
        self.message = ""
        self.style = "bold red"  # the message's: red for a mistake, else news
        self.quit = False
        self.interrupted = False  # Ctrl-C: `run` says "interrupted"
        self._live: Live | None = None
        self._lock = threading.Lock()

    # -- input ------------------------------------------------------------------------------

    def press(self, key: str) -> None:
        """A key from the keyboard (any thread): submitted to the table as actions."""
        if key in QUIT_KEYS:
            self.quit = True
            self.interrupted = key == "\x03"  # Ctrl-C read as a key
            self.table.stop.set()
            return
        submissions, message = self.keys.press(key, self.obs)
        for seat, text in submissions:
            self.table.submit(seat, text)
        if message:  # a hit key just pressed is news, not a mistake
            self._say(message, "bold cyan" if self.keys.armed is not None else "bold red")

    # -- output -----------------------------------------------------------------------------

    def frame(self) -> Panel:
        body = Group(self.renderer.screen(self.obs, self.names), Text(""),
                     Text(self.message, style=self.style), Text(self.help(), style="dim"))
        return frame(body, f"Lecker Mammut! · seed {self.seed}")

    def help(self) -> str:
        if self.keys.by_key:
            owners = " · ".join(f"{self.names[s]} {k}" for s, k in self.keys.people.items())
            return (f"Hit keys: {owners}. Your hit key, then: animal 1-7 · colour r o y g b v p "
                    "· digit = top/pile · . pass   space flips   Q quits")
        return ("1 bear 2 boar 3 tiger 4 sloth 5 deer 6 mammoth 7 rhino · r o y g b v p colours "
                "· space flip · . pass · digit = top/pile · Q quit")

    def _draw(self) -> None:
        if self._live is not None:
            self._live.update(self.frame(), refresh=True)

    def _say(self, message: str, style: str = "bold red") -> None:
        with self._lock:
            self.message, self.style = message, style
            self._draw()

    def _step(self, state: State, move: Move) -> None:
        before, self.obs = self.obs, state.observe(self.viewer)
        text = str(move.action)
        message, style = "", "bold red"
        if text.startswith("hit") and move.seat in self.keys.people:
            message = self._hit_message(before, move.seat)
            style = "bold green" if "a good hit" in message else style
        elif self.keys.armed is not None:  # someone's hit key is pressed: keep saying so
            message, style = self.message, self.style
        with self._lock:
            self.message, self.style = message, style
            self._draw()

    def _hit_message(self, before: Observation, seat: int) -> str:
        """What a person's hit did: too late, a mistake, or a good hit (and what comes next)."""
        name = self.names[seat]
        last = self.obs["log"][-1] if self.obs["log"] else {}
        if before == self.obs:
            return f"{name}: too late — someone was faster (no penalty)"
        if last.get("seat") != seat:
            return ""
        if last.get("act") == "mistake":
            showing = last["showing"]
            shows = ("no card shows" if not showing else "only 1 card shows" if showing == 1
                     else f"only {showing} cards show")
            tail = "a penalty card" if last.get("penalty_card", True) else "no card left to take"
            return f"{name}: {shows} {last['feature']} — {tail}"
        if last.get("act") == "hit":
            mine = [c for c in self.obs["choosing"] if c["seat"] == seat]
            then = f" — choose the top card: 1 to {len(mine[0]['tops'])}" if mine else ""
            return f"{name}: a good hit, {count_cards(len(last['cards']))}{then}"
        return ""

    def _refused(self, seat: int, action: Action | str, exc: IllegalAction) -> None:
        self._say(f"{self.names[seat]}: {named(exc.reason, self.names)}")

    # -- running ----------------------------------------------------------------------------

    def run(self, keys: Iterator[str] | None = None) -> str:
        """Play until the game ends ("over"), a person quits ("quit") or presses Ctrl-C
        ("interrupted"). Keys come from the
        terminal (raw mode) unless an iterator of keys is given."""
        reader = threading.Thread(target=self._read, args=(keys,), daemon=True)
        with Live(self.frame(), console=self.console, auto_refresh=False,
                  transient=False) as live:
            self._live = live
            reader.start()
            try:
                self.table.run()
            except KeyboardInterrupt:
                self.quit = self.interrupted = True
            finally:
                self.table.stop.set()
                self._live = None
        reader.join(timeout=1.0)  # lets the keyboard reader put the terminal back as it was
        if self.state.is_over():
            self.console.print(self.renderer.outcome(self.state.result().to_dict(), self.names,
                                                     self.obs))
            return "over"
        return "interrupted" if self.interrupted else "quit"

    def _read(self, keys: Iterator[str] | None) -> None:
        source = keys if keys is not None else terminal_keys(self.table.stop)
        for key in source:
            if self.table.stop.is_set():
                break
            self.press(key)

    def save(self, path: Path | None = None) -> Path:
        """Write the game so far as a JSON record (to `path`, or ./records/...); return where."""
        if path is None:
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
            path = Path("records") / f"lecker_mammut-{self.seed}-{stamp}.json"
        return save_record(self.state, self.kinds, path)


def terminal_keys(stop: threading.Event) -> Iterator[str]:
    """Single key presses from stdin, without Enter (cbreak mode) while stdin is a terminal;
    line by line otherwise. Ends when `stop` is set or the input ends."""
    if not sys.stdin.isatty():
        for line in sys.stdin:
            yield from line.rstrip("\n")
            if stop.is_set():
                return
        return
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        while not stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.1)
            if ready:
                data = os.read(fd, 1)
                if not data:
                    return
                yield data.decode(errors="replace")
    finally:
        with contextlib.suppress(termios.error):
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)


__all__ = ["MATCH", "Keys", "Person", "RealTimeMatch", "parse_players", "terminal_keys",
           "visible"]


MATCH = RealTimeMatch  # `tiergarten play lecker_mammut` runs in real time
