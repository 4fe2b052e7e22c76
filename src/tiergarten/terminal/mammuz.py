"""MammuZ in the terminal: the seats, the species overview, the herd, the seat's own hand
grouped by species, the log in words, and a short menu (a lay is asked for in two steps, see
`mammuz_lay`; a doubt, an extinction or a give is one line each).

Built from one seat's observation only (see `tiergarten.games.mammuz.view.observe`).

>>> r = MammuZRenderer(unicode=False)
>>> str(r.label("doubt 2", {"herd": [{"seat": 1, "count": 3, "cards": None}]}, ["You", "Bot"]))
"doubt: turn card 2 of Bot's 3"
>>> str(r.event({"seat": 0, "act": "start"}, ["You", "Bot"], 0))
'You open the first herd'
>>> str(r.event({"seat": 1, "act": "lay", "count": 2, "species": "hare"}, ["You", "Bot"], 0))
'Bot laid 2 cards as hare'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .mammuz_lay import Cards, species_of
from .menu import Choice
from .render import Observation, Renderer, says, their, whom, whose

DINOSAURS = ("stegosaurus", "triceratops", "pterosaurus", "brontosaurus", "plesiosaurus",
             "tyrannosaurus")
POWER_WORDS = {
    "doubter_takes": "the doubter takes the herd",
    "doubted_takes": "the doubted player takes the herd",
    "doubter_chooses": "the doubter chooses who takes the herd",
    "deal_out": "the herd is dealt out",
    "remove": "the herd's animals leave the game, its dinosaurs go to the doubter",
    "jackpot": "the herd becomes a jackpot",
}
REASONS = {"doubt": "{their} last lay was true",
           "dinosaur": "a dinosaur left {whom} without cards",
           "extinction": "an extinction emptied {their} hand"}
ENDINGS = {
    "doubt": "{whose} last lay was doubted and found true",
    "dinosaur": "a dinosaur's power left {whom} without cards",
    "extinction": "an extinction left {whom} without cards",
    "no_species": "every species in play is extinct, so no herd could open; fewest cards won",
}
SHORT_MENU = 4  # at most this many legal lays are listed as they are, not asked in steps


def _plural(n: int, word: str = "card") -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


class MammuZRenderer(Renderer):
    """Species in plain words (dinosaurs in magenta); counts next to every group."""

    # -- pieces ------------------------------------------------------------------------------

    def kind(self, name: str) -> Text:
        return Text(name, style="bold magenta" if name in DINOSAURS else "bold")

    def grouped(self, names: Sequence[str]) -> Text:
        """`mouse mouse hare` as `2 mouse, 1 hare`, in the order given."""
        if not names:
            return Text("(none)")
        counts = Counter(names)
        parts = [Text.assemble(f"{counts[n]} ", self.kind(n)) for n in dict.fromkeys(names)]
        return Text(", ").join(parts)

    def hand(self, obs: Observation) -> Text | None:
        hand = obs.get("hand")
        return None if hand is None else self.grouped(hand)

    # -- the screen --------------------------------------------------------------------------

    def screen(self, obs: Observation, names: Sequence[str], log: bool = True) -> RenderableType:
        parts: list[RenderableType] = [
            Text(f"MammuZ — {obs['players']} players", style="bold"),
            self._seats(obs, names), self._species(obs), self._herd(obs, names)]
        parts += self._situation(obs, names)
        if obs.get("hand") is not None:
            parts.append(Text.assemble(("Your hand:  ", "bold"), self.grouped(obs["hand"])))
        if log:
            parts += self.recent(obs, names)
        return Group(*parts)

    def _seats(self, obs: Observation, names: Sequence[str]) -> Table:
        table = Table(box=None, padding=(0, 1), show_edge=False)
        for title, justify in (("", "left"), ("Player", "left"), ("Cards", "right"),
                               ("You know they hold", "left")):
            table.add_column(title, justify=justify, no_wrap=True)  # type: ignore[arg-type]
        known: Mapping[str, Mapping[str, int]] = obs.get("known", {})
        for seat, name in enumerate(names):
            mover = seat == obs.get("turn")
            held = known.get(str(seat), {})
            seen = Text(", ").join(Text(f"{c} {k}") for k, c in held.items()) if held else Text("")
            table.add_row(self.marker if mover else "", Text(name, style="bold" if mover else ""),
                          str(obs["hand_sizes"][seat]), seen)
        return table

    def _species(self, obs: Observation) -> Text:
        line = Text("In the game: ", style="bold")
        items = []
        for name, left in obs["in_game"].items():
            if name in obs["extinct"]:
                items.append(Text(f"{name} extinct", style="dim strike"))
            else:
                items.append(Text(f"{name} {left}"))
        line.append_text(Text(" · ").join(items))
        line.append(f" · dinosaurs {obs['dinosaurs']}")
        if obs.get("jackpot_size"):
            line.append(f"   Jackpot: {_plural(obs['jackpot_size'])}", style="bold yellow")
        return line

    def _herd(self, obs: Observation, names: Sequence[str]) -> Text:
        if obs.get("species") is None:
            return Text("No herd is open.", style="dim")
        lays = []
        for lay in obs["herd"]:
            text = Text(f"{names[lay['seat']]} {lay['count']}")
            if lay["cards"] is not None:
                text.append(" (")
                text.append_text(Text(" ").join(self.kind(c) for c in lay["cards"]))
                text.append(")")
            lays.append(text)
        return Text.assemble(("Herd of ", "bold"), (obs["species"], "bold green"),
                             (f" ({_plural(obs['herd_size'])}): ", "bold"),
                             Text(", ").join(lays))

    def _situation(self, obs: Observation, names: Sequence[str]) -> list[Text]:
        out: list[Text] = []
        seat, turn = obs.get("seat"), obs.get("turn")
        revealed = obs.get("revealed") or []
        if revealed and obs.get("phase") == "give":
            card = revealed[-1]["card"]
            out.append(Text(f"A {card} was turned: {POWER_WORDS['doubter_chooses']}.",
                            style="bold magenta"))
        if obs.get("must_doubt") and turn is not None:
            who = "you" if seat == turn else whom(names[turn])
            layer = names[(turn - 1) % len(names)]
            out.append(Text(f"{layer} laid {their(layer)} last card: {who} must doubt.",
                            style="bold red"))
        if turn is not None:
            out.append(self.turn_line(turn, seat, names))
        return out

    # -- the log in words --------------------------------------------------------------------

    def event(self, event: Any, names: Sequence[str], viewer: Any) -> Text:
        act = event.get("act", "")
        seat = event.get("seat")
        who = self.seat_name(seat, names)
        if act == "start":
            return Text(says(who, "opens the first herd"))
        if act == "lay":
            return Text(f"{who} laid {_plural(event['count'])} as {event['species']}")
        if act == "doubt":
            return Text.assemble(f"{who} doubted {whom(names[event['of']])}: card "
                                 f"{event['position']} was ", self.kind(event["card"]))
        if act == "give":
            return Text(f"{who} gave the herd to {whom(names[event['to']])}")
        if act == "take":
            return Text(f"{who} took the herd ({_plural(event['cards'])})")
        if act == "take_jackpot":
            return Text(f"{who} took the jackpot ({_plural(event['cards'])})", style="yellow")
        if act == "to_jackpot":
            return Text(f"The herd ({_plural(event['cards'])}) went to the jackpot, now "
                        f"{_plural(event['jackpot'])}", style="yellow")
        if act == "deal_out":
            dealt = ", ".join(f"{names[s]} {n}" for s, n in enumerate(event["dealt"]) if n)
            return Text(f"The herd was dealt out ({dealt}); "
                        f"{names[event['turned_card_to']]} got the turned card")
        if act == "removed":
            return self._removed(event, names)
        if act == "extinct":
            return Text(f"{who} made {event['species']} extinct ({_plural(event['cards'])})",
                        style="bold")
        if act == "win":
            return Text(f"{says(who, 'wins')}: {self.words(REASONS, event['reason'], who)}",
                        style="bold")
        return super().event(event, names, viewer)

    def _removed(self, event: Any, names: Sequence[str]) -> Text:
        """The herd's animals left the game; its dinosaurs, which never do, went to the doubter."""
        got = Text.assemble(f"its dinosaurs went to {whom(names[event['to']])}: ",
                            self.grouped(event["dinosaurs"]))
        if not event["cards"]:
            return Text.assemble("The herd held no animal; ", got)
        return Text.assemble("The herd's animals left the game: ", self.grouped(event["cards"]),
                             "; ", got)

    # -- moves -------------------------------------------------------------------------------

    def label(self, action: str, obs: Observation, names: Sequence[str]) -> Text:
        words = action.split()
        if words[0] == "doubt":
            last = obs["herd"][-1]
            return Text(f"doubt: turn card {words[1]} of {whose(names[last['seat']])} "
                        f"{last['count']}")
        if words[0] == "give":
            return Text(f"give the herd to {whom(names[int(words[1])])}")
        if words[0] == "extinct":
            return Text(f"make {words[1]} extinct (show them all)")
        return Text(action)

    def menu(self, legal: Sequence[Any], obs: Observation, names: Sequence[str],
             ) -> list[Choice]:
        """Every doubt, extinction and give as it is; the lays as one entry asking which
        cards (and, opening a herd, which species) unless they are only a few."""
        moves = [str(a) for a in legal]
        lays = [m for m in moves if m.startswith("lay ")]
        if len(lays) <= SHORT_MENU or obs.get("hand") is None:
            return super().menu(legal, obs, names)
        herd = obs.get("species")
        label = (f"lay 1 to 4 cards as {herd} (you pick them next)" if herd else
                 "open a herd: lay 1 to 4 cards, then name their species")
        step = Cards(obs["hand"], herd, species_of(lays))
        return [Choice(Text(label), step=step),
                *(Choice(self.label(m, obs, names), move=m) for m in moves if m not in lays)]

    def echo(self, event: Mapping[str, Any], action: str) -> bool:
        return event.get("act") in ("lay", "give")

    @staticmethod
    def words(table: Mapping[str, str], reason: str, who: str) -> str:
        """A reason's words about the seat `who`, agreeing with "You"."""
        return table.get(reason, reason.replace("_", " ")).format(
            who=who, whom=whom(who), their=their(who), whose=whose(who))

    def why_over(self, result: Mapping[str, Any], names: Sequence[str],
                 obs: Observation | None = None) -> str:
        winners = result.get("winners") or []
        who = names[winners[0]] if len(winners) == 1 else "?"
        if result.get("reason") in ENDINGS:
            return self.words(ENDINGS, result["reason"], who)
        return super().why_over(result, names, obs)

    # -- between moves and at the end --------------------------------------------------------

    def interlude(self, before: Observation, after: Observation, names: Sequence[str],
                  ) -> RenderableType | None:
        return None

    def revealed(self, observations: Sequence[Observation], names: Sequence[str],
                 spectator: Observation) -> RenderableType:
        table = Table(box=None, padding=(0, 1), show_edge=False)
        for title in ("", "Player", "Hand"):
            table.add_column(title, no_wrap=title != "Hand")
        for seat, obs in enumerate(observations):
            mover = seat == spectator.get("turn")
            table.add_row(self.marker if mover else "", names[seat], self.grouped(obs["hand"]))
        return Group(Text(f"MammuZ — {spectator['players']} players", style="bold"), table,
                     self._species(spectator), self._herd(spectator, names),
                     *self._situation(spectator, names))


RENDERER = MammuZRenderer()
