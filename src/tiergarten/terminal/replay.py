"""Replaying a saved game at the terminal, action by action, with every hand shown.

The game is over, so nothing is secret any more: the full picture is put together from every
seat's own observation (never from the state's private attributes).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from tiergarten.core import IllegalAction, State, game_class, load, replay
from tiergarten.core.game import check_record
from tiergarten.core.rules import unversioned

from .render import Renderer, can_show_unicode, renderer_for, seat_names


class RecordError(ValueError):
    """A record file that cannot be replayed; the message says why in one line."""


def read_record(path: Path) -> dict[str, Any]:
    """The record stored at `path`, checked for shape (RecordError otherwise)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"no file {str(path)!r}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read {str(path)!r}: {exc}") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{str(path)!r} is not JSON ({exc})") from None
    if not isinstance(record, dict):
        raise RecordError(f"{str(path)!r} is not a game record: expected a JSON object")
    try:
        check_record(record)
    except ValueError as exc:
        raise RecordError(f"{str(path)!r} is not a game record: {exc}") from None
    if not isinstance(record["options"], dict) or not isinstance(record["actions"], list):
        raise RecordError(f"{str(path)!r} is not a game record: options must be an object "
                          "and actions a list")
    return record


def start(record: Mapping[str, Any], rules: int | None = None) -> State:
    """The game a record describes, before its first action, under the rules version `rules`,
    else the one the record names, else (a record from before versions) the one it replays
    under (`tiergarten.replay`)."""
    try:
        game = load(record["game"], record["players"], rules=rules_of(record, rules),
                    **record["options"])
    except (ValueError, TypeError) as exc:
        raise RecordError(f"the record's game cannot be set up: {exc}") from None
    return game.new_state(record["seed"])


def rules_of(record: Mapping[str, Any], asked: int | None) -> int:
    """The rules version to replay `record` under (see `start`)."""
    if asked is not None:
        return asked
    if record.get("format", 1) != 1:
        return int(record["rules"])
    try:
        return replay(record).game.rules
    except ValueError:  # it replays under none: show where it fails under the oldest
        return unversioned(game_class(record["game"]).info.rules)[0]


def names_of(record: Mapping[str, Any], players: int) -> list[str]:
    """Seat names from the record's `agents` (written by `tiergarten play`), else Seat N."""
    kinds = record.get("agents")
    if isinstance(kinds, list) and len(kinds) == players and all(
            isinstance(k, str) for k in kinds):
        return seat_names(kinds)
    return [f"Seat {s + 1}" for s in range(players)]


def replay_record(record: Mapping[str, Any], console: Console, step: bool = False,
                  read: Callable[[str], str] = input, rules: int | None = None) -> int:
    """Print the game of `record` action by action in fixed columns (number from 1, player,
    move, the hand held before it), each followed by what it did (a doubt's card, a skipped turn, a
    good hit or a mistake); with `step`, wait for Enter before each action and show every
    hand. Ends with the result and why the game ended. Returns the number of actions
    replayed. `rules` replays under that rules version instead of the record's."""
    state = start(record, rules)
    names = names_of(record, state.game.players)
    renderer = renderer_for(state.game.id, can_show_unicode(console))
    actions: Sequence[Any] = record["actions"]
    console.print(Text(f"{state.game.info.title} · rules {state.game.rules} · seed "
                       f"{record['seed']} · {len(actions)} actions · {', '.join(names)}",
                       style="bold"))
    rows = Rows(console, names, actions, renderer.hand(state.observe(0)) is not None)
    console.print(rows.header())
    before = state.observe(None)
    for index, item in enumerate(actions):
        number = index + 1  # moves are counted from 1, as seats are and as the browser does
        if not (isinstance(item, list) and len(item) == 2):
            raise RecordError(f"move {number} of the record is not a [seat, action] pair: "
                              f"{item!r}")
        seat, text = item
        if step:
            console.print(Panel(_picture(state, names, renderer),
                                title=f"before move {number}"))
            try:
                if read("Enter: next action, q: stop ").strip().lower() == "q":
                    return index
            except EOFError:
                step = False
        hand = _hand(state, seat, renderer)
        try:
            state.apply(seat, text)
        except (IllegalAction, TypeError) as exc:
            raise RecordError(f"move {number} of the record ({seat!r}, {text!r}) cannot be "
                              f"replayed: {exc}") from None
        after = state.observe(None)
        console.print(rows.row(number, names[seat], str(text), hand))
        for line in renderer.happened(before, after, names, seat, str(text)):
            console.print(rows.outcome(line))
        pause = renderer.interlude(before, after, names)
        if pause is not None:
            console.print(Panel(pause, title="Round over", title_align="left"))
        if after.get("round") != before.get("round") and not state.is_over():
            console.rule(f"Round {after.get('round')}")
        before = after
    _ending(state, names, console, renderer)
    return len(actions)


class Rows:
    """The replay's fixed columns: number, player, move (wrapped in its column), the hand
    held before the move (wrapped in the rest); a move's outcomes go under its move."""

    GAP = 2
    INDEX = 5
    MOVE = 34  # widest move column; a longer move wraps inside it

    def __init__(self, console: Console, names: Sequence[str], actions: Sequence[Any],
                 hands: bool) -> None:
        self.console = console
        self.unicode = can_show_unicode(console)
        self.hands = hands
        self.name = max(len(n) for n in names)
        longest = max((len(str(a[1])) for a in actions if isinstance(a, list) and len(a) == 2),
                      default=4)
        room = console.width - self.INDEX - self.name - 3 * self.GAP
        self.move = max(4, min(longest, self.MOVE, room // 2 if hands else room))

    def _grid(self) -> RichTable:
        grid = RichTable.grid(padding=(0, self.GAP, 0, 0), expand=self.hands)
        grid.add_column(width=self.INDEX, justify="right", no_wrap=True)
        grid.add_column(width=self.name, no_wrap=True)
        grid.add_column(width=self.move, overflow="fold")
        if self.hands:
            grid.add_column(ratio=1, overflow="fold")
        return grid

    def header(self) -> RichTable:
        grid = self._grid()
        cells = ["#", "Player", "Move"] + (["Hand before the move"] if self.hands else [])
        grid.add_row(*(Text(c, style="bold dim") for c in cells))
        return grid

    def row(self, number: int, name: str, move: str, hand: Text | None) -> RichTable:
        grid = self._grid()
        cells: list[Text] = [Text(str(number), style="dim"), Text(name, style="bold"),
                             Text(move)]
        if self.hands:
            cells.append(_unbroken(hand, self.unicode) if hand is not None else Text(""))
        grid.add_row(*cells)
        return grid

    def outcome(self, line: Text) -> Padding:
        """`line` under the move column, after an arrow."""
        text = Text("→ " if self.unicode else "-> ", style="dim")
        text.append_text(line)
        return Padding(text, (0, 0, 0, self.INDEX + self.name + 2 * self.GAP))


def _unbroken(hand: Text, unicode: bool) -> Text:
    """`hand` with each count joined to what it counts ("2×hare"), so the column never wraps
    between them; one character for one, so the styles stay where they were."""
    kept = hand.copy()
    kept.plain = re.sub(r"(?<=\d) (?=[^\W\d])", "×" if unicode else "x", kept.plain)
    return kept


def _hand(state: State, seat: Any, renderer: Renderer) -> Text | None:
    """The hand `seat` held before acting (the game is over: every hand may be shown)."""
    if isinstance(seat, int) and 0 <= seat < state.game.players:
        return renderer.hand(state.observe(seat))
    return None


def _picture(state: State, names: Sequence[str], renderer: Renderer) -> Any:
    seats = [state.observe(s) for s in range(state.game.players)]
    return renderer.revealed(seats, names, state.observe(None))


def _ending(state: State, names: Sequence[str], console: Console, renderer: Renderer) -> None:
    console.print(Panel(_picture(state, names, renderer), title="End of the record"))
    if state.is_over():
        console.print(renderer.outcome(state.result().to_dict(), names, state.observe(None)))
    else:
        console.print(Text("The record stops before the end of the game.", style="bold"))
