"""Mau Mau in the terminal: the table, the seat's own hand, the log in words (an 8 says who
is skipped, a 9 that play reversed), menu labels.

Built from one seat's observation only (see `tiergarten.games.maumau.view.observe`).

>>> r = MauMauRenderer(unicode=False)
>>> str(r.label("play Jd s maumau", {}, ["You", "Bot 1"]))
'play Jd, wish spades, say Mau Mau'
>>> str(r.event({"seat": 1, "act": "play 7h mau"}, ["You", "Heuristic 2"], 0))
'Heuristic 2 played 7h and said Mau'
>>> obs = {"players": 3, "direction": 1, "seat": 0, "log": [{"seat": 1, "act": "play 8h"}]}
>>> [str(line) for line in r.events(obs, ["You", "Heuristic 2", "Random 3"])]
['Heuristic 2 played 8h: Random 3 is skipped']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .render import Observation, Renderer, new_events, says, whom

SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
WORDS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
COLOURS = {"c": "bold green", "d": "bold yellow", "h": "bold red", "s": "bold blue"}
ENDINGS = {"target_score": "{who} reached {target} points, the target score",
           "rounds": "all {rounds} rounds were played", "one_round": "its one round was played"}


class MauMauRenderer(Renderer):
    """Cards as rank + suit symbol (suits coloured, the symbol readable without colour)."""

    # -- pieces ------------------------------------------------------------------------------

    def card(self, name: str) -> Text:
        """`7h` as a coloured `7♥` (or `7h` without symbols)."""
        rank, suit = name[:-1], name[-1].lower()
        return Text(rank + (SYMBOLS[suit] if self.unicode else suit), style=COLOURS[suit])

    def cards(self, names: Sequence[str]) -> Text:
        return Text(" ").join(self.card(n) for n in names) if names else Text("(none)")

    def suit(self, suit: str) -> Text:
        text = f"{SYMBOLS[suit]} {WORDS[suit]}" if self.unicode else WORDS[suit]
        return Text(text, style=COLOURS[suit])

    def hand(self, obs: Observation) -> Text | None:
        hand = obs.get("hand")
        return None if hand is None else self.cards(hand)

    # -- the screen --------------------------------------------------------------------------

    def screen(self, obs: Observation, names: Sequence[str], log: bool = True) -> RenderableType:
        parts: list[RenderableType] = [self._heading(obs), self._seats(obs, names),
                                       self._pile(obs, names)]
        parts += self._situation(obs, names)
        if obs.get("hand") is not None:
            parts.append(Text.assemble(("Your hand:  ", "bold"), self.cards(obs["hand"])))
        if log:
            parts += self.recent(obs, names)
        return Group(*parts)

    def _heading(self, obs: Observation) -> Text:
        rounds = obs.get("rounds")
        goal = (f"round {obs['round']} of {rounds}" if rounds else
                f"round {obs['round']} · first to {obs['target_score']} points")
        return Text(f"Mau Mau — {goal}", style="bold")

    def _seats(self, obs: Observation, names: Sequence[str]) -> Table:
        table = Table(box=None, padding=(0, 1), show_edge=False)
        for title, justify in (("", "left"), ("Player", "left"), ("Cards", "right"),
                               ("Score", "right"), ("", "left")):
            table.add_column(title, justify=justify, no_wrap=True)  # type: ignore[arg-type]
        for seat, name in enumerate(names):
            notes = []
            if seat == obs.get("dealer"):
                notes.append("dealer")
            if seat == obs.get("catchable"):
                notes.append("forgot to call Mau!")
            mover = seat == obs.get("turn")
            table.add_row(self.marker if mover else "", Text(name, style="bold" if mover else ""),
                          str(obs["hand_sizes"][seat]), str(obs["scores"][seat]),
                          ", ".join(notes))
        return table

    def _pile(self, obs: Observation, names: Sequence[str]) -> Text:
        line = Text.assemble(("Top card: ", "bold"), self.card(obs["top"]))
        top_rank = obs["top"][:-1]
        if top_rank == "J":
            line.append("   suit in force: ", style="bold")
            line.append_text(self.suit(obs["suit"]) if obs.get("suit") else Text("any"))
        line.append(f"   stock {obs['stock_size']}")
        if obs["players"] > 2:  # between two players no card changes who is next
            direction = "clockwise" if obs["direction"] == 1 else "anticlockwise"
            line.append(f"   play runs {direction}")
        return line

    def _situation(self, obs: Observation, names: Sequence[str]) -> list[Text]:
        out: list[Text] = []
        seat, turn = obs.get("seat"), obs.get("turn")
        if obs.get("pending_draw"):
            who = "You" if seat == turn else names[turn] if turn is not None else "—"
            out.append(Text(f"7-chain: {who} must answer with a 7 or draw {obs['pending_draw']}",
                            style="bold red"))
        caught = obs.get("catchable")
        if caught is not None:
            out.append(Text(f"{names[caught]} did not call Mau"
                            f"{' Mau' if obs['hand_sizes'][caught] == 0 else ''}: "
                            "anyone else may catch", style="bold magenta"))
        if obs.get("drawn"):
            out.append(self._drawn_line(obs))
        if turn is not None:
            out.append(self.turn_line(turn, seat, names))
        return out

    def _drawn_line(self, obs: Observation) -> Text:
        """What this seat drew with its plain draw, and what it may do now."""
        if obs.get("drawn_fits"):
            return Text.assemble("You drew ", self.card(obs["drawn"]),
                                 ": play it, or keep it and pass")
        return Text.assemble("You drew ", self.card(obs["drawn"]),
                             (": it does not fit, so pass (your turn ends)", "bold"))

    # -- the log in words --------------------------------------------------------------------

    def events(self, obs: Observation, names: Sequence[str]) -> list[Text]:
        log = obs.get("log")
        if not isinstance(log, list) or self.log_lines <= 0:
            return []
        effects = self.effects(obs, names)
        lines = []
        for index in range(max(0, len(log) - self.log_lines), len(log)):
            line = self.event(log[index], names, obs.get("seat"))
            if index in effects:
                line.append(f": {effects[index]}")
            lines.append(line)
        return lines

    def effects(self, obs: Observation, names: Sequence[str]) -> dict[int, str]:
        """What the 8s and 9s in `obs`'s log did, by log index: "Random 3 is skipped", "play
        reversed (anticlockwise)". The direction each one met is found by walking back from
        the one in force now (each 9 reversed it); before a round's end it is not known."""
        log, players = obs.get("log") or [], obs.get("players", len(names))
        direction: int | None = obs.get("direction")
        out: dict[int, str] = {}
        for index in range(len(log) - 1, -1, -1):
            act, seat = log[index].get("act", ""), log[index].get("seat")
            if act == "round_over":
                direction = None
            rank = act.split()[1][:-1] if act.startswith("play ") else ""
            after = log[index + 1].get("act") if index + 1 < len(log) else None
            if rank not in ("8", "9") or after == "round_over" or not isinstance(seat, int):
                continue  # a power card played as the last card does nothing
            if rank == "9" and players > 2:
                way = {1: " (clockwise)", -1: " (anticlockwise)"}.get(direction or 0, "")
                out[index] = f"play reversed{way}"
                direction = -direction if direction else None
            elif rank == "8" or self._again(log, index, obs):
                skipped = (seat + (direction or 1)) % players
                out[index] = (_clause(names[skipped], "is skipped")
                              if players == 2 or direction else "the next player is skipped")
        return out

    @staticmethod
    def _again(log: Sequence[Mapping[str, Any]], index: int, obs: Observation) -> bool:
        """Did a two-player 9 give its player another turn (option `two_player_nine`)?
        Seen from who moved next: the next move in the log, else whose turn it is now."""
        seat = log[index]["seat"]
        for event in log[index + 1:]:
            if event.get("act") != "catch":
                return bool(event.get("seat") == seat)
        return bool(obs.get("turn") == seat)

    def happened(self, before: Observation, after: Observation, names: Sequence[str],
                 seat: Any, action: str) -> list[Text]:
        log = after.get("log") or []
        added = new_events(before.get("log"), log)
        effects = self.effects(after, names)
        lines = []
        for index in range(len(log) - len(added), len(log)):
            event, effect = log[index], effects.get(index)
            if event.get("act") == "round_over":
                continue  # the round's summary (`interlude`) says it, with the scores
            if event.get("seat") == seat and self.echo(event, action):
                if effect:
                    lines.append(Text(effect[0].upper() + effect[1:]))
                continue
            line = self.event(event, names, None)
            if effect:
                line.append(f": {effect}")
            lines.append(line)
        return lines

    def echo(self, event: Mapping[str, Any], action: str) -> bool:
        if event.get("act") == "draw":
            return action == "draw" and event.get("cards") == 1
        if event.get("act") == "catch":
            return False  # it says who was caught and how many cards it cost
        return event.get("act") == action

    def event(self, event: Any, names: Sequence[str], viewer: Any) -> Text:
        act = event.get("act", "")
        seat = event.get("seat")
        who = self.seat_name(seat, names)
        if act.startswith("play "):
            return Text(f"{who} played ") + self._play_words(act.split()[1:])
        if act == "draw":
            n = event["cards"]
            return Text(f"{who} drew {n} card{'s' if n != 1 else ''}")
        if act == "pass":
            return Text(f"{who} passed")  # whether the drawn card fitted is nobody else's business
        if act == "catch":
            caught = event["caught"]
            if caught == viewer:
                return Text(f"You were caught by {who}: +{event['cards']}", style="bold red")
            return Text(f"{who} caught {whom(names[caught])} without Mau: +{event['cards']}")
        if act == "stands":
            return Text(f"{who} went out on a Jack and nobody caught the missing Mau Mau")
        if act == "reshuffle":
            return Text(f"The discards were shuffled into a new stock ({event['cards']} cards)")
        if act == "round_over":
            return self._round_words(event, names)
        return super().event(event, names, viewer)

    def _play_words(self, words: list[str]) -> Text:
        text = self.card(words[0])
        rest = words[1:]
        if rest and rest[0] in SYMBOLS:
            text = text + Text(", wished for ") + self.suit(rest[0])
            rest = rest[1:]
        if rest == ["mau"]:
            text.append(" and said Mau")
        elif rest == ["maumau"]:
            text.append(" and said Mau Mau")
        return text

    def _round_words(self, event: Mapping[str, Any], names: Sequence[str]) -> Text:
        text = Text(f"Round {event['round']} over: {names[event['seat']]} went out "
                    f"and scored {event['points']}", style="bold")
        shown = [(int(s), h) for s, h in event["hands"].items()]
        for seat, hand in sorted(shown):
            text.append(f"; {names[seat]} held ")
            text.append_text(self.cards(hand))
        return text

    # -- moves -------------------------------------------------------------------------------

    def label(self, action: str, obs: Observation, names: Sequence[str]) -> Text:
        words = action.split()
        if words[0] == "play":
            text = Text("play ") + self.card(words[1])
            rest = words[2:]
            if rest and rest[0] in SYMBOLS:
                wish = SYMBOLS[rest[0]] if self.unicode else WORDS[rest[0]]
                text = text + Text(", wish ") + Text(wish, style=COLOURS[rest[0]])
                rest = rest[1:]
            if rest == ["mau"]:
                text.append(" and say Mau")
            elif rest == ["maumau"]:
                text.append(", say Mau Mau")
            return text
        if action == "draw":
            pending = obs.get("pending_draw")
            return Text(f"draw {pending} cards (take the 7s)" if pending else "draw a card")
        if action == "pass":
            if obs.get("drawn") and not obs.get("drawn_fits"):
                return Text.assemble("pass: ", self.card(obs["drawn"]),
                                     " does not fit (end your turn)")
            if obs.get("drawn"):
                return Text("keep the drawn card (end your turn)")
            return Text("let the Jack stand (the round ends)")
        if action == "catch":
            caught = obs.get("catchable")
            if isinstance(caught, int) and 0 <= caught < len(names):
                return Text(f"catch {whom(names[caught])}: no Mau called (+penalty)")
        return Text(action)

    # -- between moves and at the end --------------------------------------------------------

    def interlude(self, before: Observation, after: Observation, names: Sequence[str],
                  ) -> RenderableType | None:
        if before.get("round") == after.get("round") and not after.get("over"):
            return None
        if after.get("over") and before.get("over"):
            return None
        ends = [e for e in after.get("log", []) if e.get("act") == "round_over"]
        if not ends:
            return None
        return Group(self._round_words(ends[-1], names), self._scores(after, names))

    def why_over(self, result: Mapping[str, Any], names: Sequence[str],
                 obs: Observation | None = None) -> str:
        reason = result.get("reason")
        if reason == "rounds" and obs is not None and obs.get("rounds") == 1:
            reason = "one_round"
        if reason in ENDINGS and obs is not None:
            who = " and ".join(names[s] for s in result["winners"])
            return ENDINGS[reason].format(who=who, target=obs.get("target_score"),
                                          rounds=obs.get("rounds"))
        return super().why_over(result, names, obs)

    def _scores(self, obs: Observation, names: Sequence[str]) -> Text:
        pairs = ", ".join(f"{n} {s}" for n, s in zip(names, obs["scores"], strict=True))
        goal = "" if obs.get("rounds") else f" (first to {obs['target_score']})"
        return Text(f"Scores: {pairs}{goal}")

    def revealed(self, observations: Sequence[Observation], names: Sequence[str],
                 spectator: Observation) -> RenderableType:
        table = Table(box=None, padding=(0, 1), show_edge=False)
        for title in ("", "Player", "Score", "Hand"):
            table.add_column(title, no_wrap=title != "Hand")
        for seat, obs in enumerate(observations):
            mover = seat == spectator.get("turn")
            table.add_row(self.marker if mover else "", names[seat], str(obs["scores"][seat]),
                          self.cards(obs["hand"]))
        parts: list[RenderableType] = [self._heading(spectator), table,
                                       self._pile(spectator, names),
                                       *self._situation(spectator, names)]
        for seat, obs in enumerate(observations):
            if obs.get("drawn"):
                then = ": may play it or pass" if obs.get("drawn_fits") else ": must pass"
                parts.append(Text.assemble(f"{names[seat]} drew ", self.card(obs["drawn"]), then))
        return Group(*parts)


def _clause(name: str, verb: str) -> str:
    """`says` inside a sentence: "Random 3 is skipped", "you are skipped"."""
    words = says(name, verb)
    return "you" + words[3:] if name == "You" else words


RENDERER = MauMauRenderer()
