"""Lecker Mammut! drawn in the terminal, from observations: cards as `green boar` on their
colour (readable without colour), one row per seat with the penalty cards it holds, the log in
words. The real-time match that plays it at the keyboard is `lecker_mammut_match.py`.

>>> r = LeckerMammutRenderer(unicode=False)
>>> str(r.event({"act": "mistake", "seat": 1, "feature": "boar", "showing": 2,
...              "penalty_card": True}, ["You", "Hard 1"], 0))
'Hard 1 hit boar wrongly (only 2 showing): a penalty card'
>>> str(r.event({"act": "deal", "round": 1, "starter": 0}, ["You", "Hard 2"], 0))
'Round 1 dealt; You flip first'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .render import Observation, Renderer, says, their, whose

STYLE = {"red": "red", "orange": "dark_orange", "yellow": "yellow", "green": "green",
         "blue": "blue", "purple": "magenta", "pink": "hot_pink"}


class LeckerMammutRenderer(Renderer):
    """Cards as `green boar` on their colour (readable without colour); one row per seat."""

    log_lines = 5

    def card(self, name: str) -> Text:
        colour, animal = name.split("-")
        return Text(f" {colour} {animal} ", style=f"bold black on {STYLE[colour]}")

    def screen(self, obs: Observation, names: Sequence[str], log: bool = True) -> RenderableType:
        head = (f"Round {obs['round']} of {obs['rounds']} · version {obs['version']} · "
                f"{obs['phase']}")
        middle = Text(" ").join([self.card(c) for c in obs["middle"]]) or Text("(empty)")
        parts: list[RenderableType] = [Text(head, style="bold"), Text("Middle:", style="bold"),
                                       middle, Text(""), self._seats(obs, names)]
        parts += self._situation(obs, names)
        if log:
            parts += [Text(""), Text("Recent:", style="bold"), *self.events(obs, names)]
        return Group(*parts)

    def _seats(self, obs: Observation, names: Sequence[str]) -> Table:
        table = Table(box=None, padding=(0, 1))
        for title in ("", "player", "to flip", "prize piles (top, size)", "penalty cards",
                      "score"):
            table.add_column(title)
        for seat, name in enumerate(names):
            piles = Text(" ").join([Text.assemble(self.card(p["top"]), f"×{p['size']}")
                                    for p in obs["prize_piles"][seat]]) or Text("—")
            mark = self.marker if obs["flipper"] == seat else ""
            table.add_row(mark, name, str(obs["face_down"][seat]), piles,
                          str(obs["penalty_cards"][seat]), str(obs["scores"][seat]))
        return table

    def _situation(self, obs: Observation, names: Sequence[str]) -> list[RenderableType]:
        lines: list[RenderableType] = []
        for choice in obs["choosing"]:
            tops = Text("  ").join([Text.assemble(f"{i}:", self.card(c))
                                    for i, c in enumerate(choice["tops"], 1)])
            lines.append(Text.assemble(says(names[choice["seat"]], "chooses the top card")
                                       + f" ({choice['feature']}): ", tops))
        if obs["returning"]:
            who = ", ".join(names[s] for s in obs["returning"])
            lines.append(Text(f"Most penalty cards: {who} must give a prize pile back "
                              "(1, 2, …)."))
        if obs["phase"] == "ending":
            done = ", ".join(names[s] for s in obs["passed"]) or "nobody yet"
            lines.append(Text(f"Every pile is flipped: hit or pass (.). Passed: {done}."))
        return lines

    def event(self, event: Any, names: Sequence[str], viewer: Any) -> Text:
        act = event.get("act")
        who = names[event["seat"]] if isinstance(event.get("seat"), int) else ""
        if act == "flip":
            return Text.assemble(f"{who} flipped ", self.card(event["card"]))
        if act == "hit":
            robbed = "".join(
                f", with {their(who)} own pile of {r['size']}" if r["seat"] == event["seat"]
                else f", stealing {whose(names[r['seat']])} pile of {r['size']}"
                for r in event["robbed"])
            return Text(f"{who} hit {event['feature']}: {count_cards(len(event['cards']))}{robbed}")
        if act == "mistake":
            tail = "a penalty card" if event["penalty_card"] else "no card left to take"
            shown = f"only {event['showing']}" if event["showing"] else "none"
            return Text(f"{who} hit {event['feature']} wrongly ({shown} showing): {tail}")
        if act == "miss":
            tail = "a penalty card" if event["penalty_card"] else "no card left to take"
            return Text(f"{who} hit the club and called nothing: {tail}")
        if act == "top":
            return Text.assemble(f"{who} laid ", self.card(event["card"]),
                                 f" on a pile of {event['size']}")
        if act == "pass":
            return Text(f"{who} passed")
        if act == "return":
            return Text(f"{who} gave back pile {event['pile']} ({event['size']} cards)")
        if act == "timer":
            return Text("The table's timer ended the round")
        if act == "deal":
            return Text(f"Round {event['round']} dealt; "
                        f"{says(names[event['starter']], 'flips first')}")
        if act == "round_over":
            points = ", ".join(f"{names[s]} {p}" for s, p in enumerate(event["points"]))
            return Text(f"Round {event['round']} over: {points}", style="bold")
        return super().event(event, names, viewer)

    def label(self, action: str, obs: Observation, names: Sequence[str]) -> Text:
        word, _, rest = action.partition(" ")
        if word == "hit":
            return Text(f"hit the club: {rest}")
        if word == "top":
            return Text.assemble("lay on top: ", self.card(rest))
        return Text(action)

    def may_wait(self, obs: Observation, seat: int) -> bool:
        return True  # nobody ever has to act at once: hits are optional, flips at your pace

    def echo(self, event: Mapping[str, Any], action: str) -> bool:
        return event.get("act") == "pass"  # a flip's event shows the card: never an echo

    def why_over(self, result: Mapping[str, Any], names: Sequence[str],
                 obs: Observation | None = None) -> str:
        if result.get("reason") == "rounds" and obs is not None:
            rounds = obs["rounds"]
            played = f"all {rounds} rounds were" if rounds != 1 else "its one round was"
            return f"{played} played; the most points won"
        return super().why_over(result, names, obs)


def count_cards(n: int) -> str:
    """ "1 card", "3 cards"."""
    return f"{n} card{'s' if n != 1 else ''}"


RENDERER = LeckerMammutRenderer()


__all__ = ["RENDERER", "STYLE", "LeckerMammutRenderer", "count_cards"]
