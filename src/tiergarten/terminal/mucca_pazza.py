"""Mucca Pazza in the terminal: the board as three rows, complete animals marked, the landing
place or the card grid, stars and cards, the log in words, and the adviser's hint.

Built from one seat's observation only (see `tiergarten.games.mucca_pazza.view.observe`).
The screen of the seat whose turn it is has a hint line (`show_hints`, on by default) telling
how far the goal is without saying which slides reach it; the `hint` command names them. Where
an 80x24 terminal is short of lines (`tight`), the screen leaves out its blank lines, the won
cards' names (their number stays), the headings, an empty row of ✓ and the hint line.

>>> r = MuccaPazzaRenderer(unicode=False)
>>> str(r.label("slide legs right", {"variant": "standard", "slides_left": 0}, ["You", "Bot"]))
'push the legs row right (a star)'
>>> str(r.event({"seat": 1, "act": "reveal", "position": 3, "card": "pig"}, ["You", "Bot"], 0))
'Bot revealed card 3: pig'
>>> str(r.tile("cockatoo"))
'cockatoo'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from tiergarten.bots.mucca_pazza import advise
from tiergarten.games.mucca_pazza.cards import GRID_COLUMNS

from .render import Observation, Renderer, whose

EMOJI = {"frog": "🐸", "dragon": "🐉", "monkey": "🐒", "cockatoo": "🦜", "pig": "🐷",
         "turtle": "🐢", "dog": "🐶", "zebra": "🦓", "cat": "🐱", "horse": "🐴", "ghost": "👻"}
ROW_NAMES = ("heads", "bodies", "legs")
ARROWS = {"left": "←", "right": "→"}
COMPACT_ABOVE = 5  # boards wider than this show 3-letter names, to fit 80 columns
ENDINGS = {
    "all_cards_taken": "all 16 cards were taken",
    "final_round": "the pile ran out and everyone had one more turn",
    "no_cards_left": "no card was left to win, on display or in the pile",
}


class MuccaPazzaRenderer(Renderer):
    """Tiles as emoji and name (name only without Unicode); complete columns in green."""

    show_hints = True

    # -- pieces ------------------------------------------------------------------------------

    def tile(self, name: str, compact: bool = False) -> Text:
        """An animal as emoji and name; `compact` (ten columns) shortens the name to 3 letters."""
        if not (self.unicode and name in EMOJI):
            return Text(name[:3] if compact else name)
        return Text(f"{EMOJI[name]}{name[:3]}" if compact else f"{EMOJI[name]} {name}")

    def _board(self, obs: Observation) -> Table:
        board, complete = obs["board"], set(obs["complete"])
        columns = len(board["heads"])
        compact = columns > COMPACT_ABOVE
        table = Table(box=None, padding=(0, 0, 0, 1) if compact else (0, 1), show_edge=False)
        table.add_column("", style="bold", no_wrap=True)
        for c in range(columns):
            table.add_column(str(c + 1), justify="center", no_wrap=True)
        for row in ROW_NAMES:
            cells = []
            for c, name in enumerate(board[row]):
                whole = board["heads"][c] in complete
                cells.append(Text(self.tile(name, compact).plain,
                                  style="bold green" if whole else ""))
            table.add_row(row, *cells)
        marks = [Text("✓" if self.unicode else "ok", style="bold green")
                 if board["heads"][c] in complete else Text("") for c in range(columns)]
        if complete or not self.tight:
            table.add_row("", *marks)
        return table

    def _seats(self, obs: Observation, names: Sequence[str]) -> Table:
        table = Table(box=None, padding=(0, 1), show_edge=False)
        table.add_column("", no_wrap=True)
        table.add_column("Player", no_wrap=True)
        table.add_column("Cards", justify="right")
        if obs["stars"] is not None:
            table.add_column("Stars", justify="right")
        if not self.tight:
            table.add_column("Won")
        for seat, name in enumerate(names):
            mover = seat == obs.get("turn")
            row: list[str | Text] = [self.marker if mover else "",
                                     Text(name, style="bold" if mover else ""),
                   str(obs["cards"][seat])]
            if obs["stars"] is not None:
                star = "★" if self.unicode else "*"
                row.append(star * obs["stars"][seat] or "-")
            if not self.tight:
                row.append(", ".join(_grouped(obs["won"][seat])) or "-")
            table.add_row(*row)
        return table

    def _landing(self, obs: Observation) -> Text:
        shown = ", ".join(_grouped(obs["landing"])) or "(empty)"
        line = Text.assemble(("Landing place: ", "bold"), shown, f"   pile {obs['pile_size']}")
        left = obs["final_round"]
        if left and not obs.get("over"):  # the last turns are being played
            line.append(f"   last round: {left} turn{'s' if left != 1 else ''} left",
                        style="bold red")
        return line

    def _grid(self, obs: Observation) -> Table:
        table = Table.grid(padding=(0, 2))
        for _ in range(GRID_COLUMNS):
            table.add_column(no_wrap=True)
        cells = []
        for p, card in enumerate(obs["grid"]):
            label = f"{p + 1:>2} "
            if card is None:
                cells.append(Text(label + ("▒▒" if self.unicode else "##"), style="cyan"))
            elif card == "taken":
                cells.append(Text(label + "  ", style="dim"))
            else:
                cells.append(Text(label + self.tile(card).plain, style="bold yellow"))
        for start in range(0, len(cells), GRID_COLUMNS):
            table.add_row(*cells[start:start + GRID_COLUMNS])
        return table

    def hint(self, obs: Observation) -> Text | None:
        """How far the goal is (not which slides reach it), for the seat whose turn it is."""
        seat, turn = obs.get("seat"), obs.get("turn")
        if (not self.show_hints or self.tight or seat is None or seat != turn
                or obs.get("phase") != "slide"):
            return None
        params = advise(obs)["params"]
        n = params.get("slides", 0)
        if obs["variant"] == "junior":
            if "animal" not in params:
                return Text("Hint: this card cannot be won now.", style="dim")
            goal = "an animal for the ghost" if obs["target"] == "ghost" else obs["target"]
            return Text(f"Hint: {goal} can be completed in {n} more slide{_s(n)}.", style="dim")
        cards, stars = params["cards"], params["stars"]
        if not cards:
            return Text("Hint: no card can be won this turn.", style="dim")
        spend = f", spending {stars} star{_s(stars)}" if stars else ""
        return Text(f"Hint: the best turn wins {cards} card{_s(cards)} in {n} more slide{_s(n)}"
                    f"{spend}.", style="dim")

    def commands(self) -> dict[str, str]:
        return {"hint": "what the adviser would do now, and why"}

    def command(self, word: str, obs: Observation) -> Text:
        if word != "hint":
            raise KeyError(word)
        seat, turn = obs.get("seat"), obs.get("turn")
        if seat is None or seat != turn or obs.get("phase") != "slide":
            return Text("Hint: there is nothing to slide for now.", style="dim")
        advice = advise(obs)
        reason, params = advice["reason"], advice["params"]
        if reason == "win":
            stars = params["stars"]
            spend = f", spending {stars} star{_s(stars)}" if stars else ""
            what = f"wins {params['cards']} card{_s(params['cards'])}{spend}"
        elif reason == "complete":
            what = f"completes the {params['animal']}"
        elif reason == "nothing_stop":
            return Text("Hint: nothing can be won this turn — stop.", style="dim")
        elif reason == "nothing_slide":
            return Text("Hint: nothing can be won this turn — make one slide and stop.",
                        style="dim")
        else:
            return Text(f"Hint: {advice['hint']} — {advice['why']}.", style="dim")
        return Text(f"Hint: {'; '.join(advice['plan'])} — {what}.", style="dim")

    # -- the screen --------------------------------------------------------------------------

    def screen(self, obs: Observation, names: Sequence[str], log: bool = True) -> RenderableType:
        junior = obs["variant"] == "junior"
        title = "Mucca Pazza — junior" if junior else "Mucca Pazza"
        gap = [] if self.tight else [Text("")]
        heading = [] if self.tight else [Text(title, style="bold")]  # the frame's title says it
        parts: list[RenderableType] = [*heading, self._seats(obs, names), *gap,
                                       self._board(obs), *gap]
        if junior:
            heading = [] if self.tight else [Text("Cards:", style="bold")]
            parts += [*heading, Padding(self._grid(obs), (0, 0, 0, 2))]
        else:
            parts.append(self._landing(obs))
        parts += self._situation(obs, names)
        if log:
            parts += self.recent(obs, names)
        return Group(*parts)

    def _situation(self, obs: Observation, names: Sequence[str]) -> list[Text]:
        out: list[Text] = []
        seat, turn = obs.get("seat"), obs.get("turn")
        if turn is None:
            return out
        owner = "your" if turn == seat else whose(names[turn])
        owner = owner[0].upper() + owner[1:]
        if obs.get("phase") == "reveal":
            out.append(Text(f"{owner} turn: reveal a face-down card.", style="bold"))
        else:
            left = obs["slides_left"]
            text = f"{owner} turn: {left} free slide{'s' if left != 1 else ''} left"
            if obs["target"] is not None:
                targets = ", ".join(obs["targets"])
                text = (f"{owner} turn: complete the {obs['target']}"
                        + (f" (any of {targets})" if obs["target"] == "ghost" else "")
                        + f" — {left} slide{'s' if left != 1 else ''} left")
            elif obs["stars"] is not None and not left:
                text += " (each further slide spends a star)"
            out.append(Text(text + ".", style="bold"))
        hint = self.hint(obs)
        if hint is not None:
            out.append(hint)
        return out

    # -- the log in words --------------------------------------------------------------------

    def event(self, event: Any, names: Sequence[str], viewer: Any) -> Text:
        act = event.get("act", "")
        seat = event.get("seat")
        who = self.seat_name(seat, names)
        if act == "slide":
            arrow = ARROWS[event["direction"]] if self.unicode else event["direction"]
            star = " (spent a star)" if event["star"] else ""
            return Text(f"{who} pushed the {event['row']} {arrow}{star}")
        if act == "stop":
            return Text(f"{who} stopped")
        card = event.get("card")
        if act == "reveal":
            return Text(f"{who} revealed card {event['position']}: {card}")
        if act == "back":
            return Text(f"{who} turned card {event['position']} back: the {card} is complete")
        if act == "take":
            return Text(f"{who} completed the animal and won the {card}", style="bold green")
        if act == "fail":
            return Text(f"{who} did not make it: card {event['position']} is face down again")
        if act == "last":
            return Text(f"{who} took the {card}: no other card could be played for")
        if act == "score":
            won = event["cards"]
            if not won:
                return Text(f"{who} won nothing")
            listed = ", ".join(f"{n} {a}" for a, n in won.items())
            return Text(f"{who} won {listed}", style="bold green")
        if act == "refill":
            return Text(f"New on the landing place: {', '.join(event['cards'])}")
        if act == "final":
            return Text("The last pile card is out: everyone has one more turn", style="bold")
        if act == "over":
            return Text(f"The game is over ({event['reason'].replace('_', ' ')})", style="bold")
        return super().event(event, names, viewer)

    def echo(self, event: Mapping[str, Any], action: str) -> bool:
        if event.get("act") == "slide":
            return not event.get("star")  # the slide is the move itself; a star spent is news
        return super().echo(event, action)

    def why_over(self, result: Mapping[str, Any], names: Sequence[str],
                 obs: Observation | None = None) -> str:
        return ENDINGS.get(result.get("reason", ""), "") or super().why_over(result, names, obs)

    # -- moves -------------------------------------------------------------------------------

    def label(self, action: str, obs: Observation, names: Sequence[str]) -> Text:
        words = action.split()
        if words[0] == "slide":
            arrow = f" {ARROWS[words[2]]}" if self.unicode else ""
            star = ((" (★)" if self.unicode else " (a star)")  # said on the line above
                    if obs.get("variant") == "standard" and not obs.get("slides_left") else "")
            return Text(f"push the {words[1]} row {words[2]}{arrow}{star}")
        if action == "stop":
            if obs.get("variant") == "standard":
                return Text("stop (wins nothing)")  # nothing stands whole mid-turn
            return Text("stop (the card goes back face down)")
        if words[0] == "reveal":
            return Text(f"reveal card {words[1]}")
        return Text(action)


def _grouped(names: Sequence[str]) -> list[str]:
    """['dog', 'dog', 'cat'] -> ['2 dog', '1 cat'], in order of first appearance."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return [f"{n} {name}" for name, n in counts.items()]


RENDERER = MuccaPazzaRenderer()


def _s(n: int) -> str:
    return "" if n == 1 else "s"
