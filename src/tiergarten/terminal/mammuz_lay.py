"""A MammuZ lay asked in two steps: which cards, then (opening a herd) which species.

A hand of ten offers hundreds of legal lays; the steps ask for the few words a lay is made of
instead, from the seat's hand and the species its legal lays may declare. The move they spell
is checked by the engine like any typed move.

>>> step = Cards(["mammoth", "bear", "hare", "hare"], None, ["bear", "hare"])
>>> species = step.answer("3 3 1")
>>> species.answer("2")
'lay hare hare mammoth as hare'
>>> step.answer("mammoth mammoth")
Traceback (most recent call last):
...
tiergarten.terminal.menu.Wrong: you hold 1 mammoth, not 2
>>> step.answer("tiger")
Traceback (most recent call last):
...
tiergarten.terminal.menu.Wrong: you hold no tiger
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich.console import RenderableType
from rich.text import Text

from .menu import Step, Wrong, numbered, pick

KINDS = ("mammoth", "bear", "deer", "tiger", "hare", "squirrel", "marmot", "mouse",
         "stegosaurus", "triceratops", "pterosaurus", "brontosaurus", "plesiosaurus",
         "tyrannosaurus")  # every card name, so a card not held is named as such
MAX_LAY = 4


def species_of(lays: Sequence[str]) -> list[str]:
    """The species the legal lays may be declared as, in the order they come."""
    return list(dict.fromkeys(lay.rsplit(" as ", 1)[1] for lay in lays))


class Cards(Step):
    """Which cards to lay: by their number in the hand's list or by name."""

    prompt = "cards> "

    def __init__(self, hand: Sequence[str], species: str | None,
                 declarable: Sequence[str]) -> None:
        self.held = Counter(hand)
        self.kinds = list(dict.fromkeys(hand))
        self.species = species  # the open herd's species, or None: the opener names one
        self.declarable = list(declarable)

    def lines(self) -> list[RenderableType]:
        ask = f"Which cards, as {self.species}?" if self.species else "Which cards?"
        then = "" if self.species else "; the species comes next"
        cards = [Text.assemble(k, (f"×{self.held[k]}", "dim")) for k in self.kinds]
        return [Text(f"{ask} 1 to {MAX_LAY} numbers or names, e.g. 1 1 2{then}.", style="bold"),
                numbered(cards)]

    def completions(self) -> Sequence[str]:
        return self.kinds

    def answer(self, text: str) -> str | Step:
        words = text.replace(",", " ").split()
        if not 1 <= len(words) <= MAX_LAY:
            raise Wrong(f"a lay has 1 to {MAX_LAY} cards, not {len(words)}")
        cards = [self._card(w) for w in words]
        for kind, count in Counter(cards).items():
            if count > self.held[kind]:
                held = self.held[kind]
                raise Wrong(f"you hold {held} {kind}, not {count}" if held else
                            f"you hold no {kind}")
        if self.species is not None:
            return lay(cards, self.species)
        return Species(cards, self.declarable)

    def _card(self, word: str) -> str:
        """A card by its number in the hand's list, or any card by (the start of) its name."""
        low = word.lower()
        if low.isdigit() and 1 <= int(low) <= len(self.kinds):
            return self.kinds[int(low) - 1]
        found = [k for k in KINDS if k == low] or [k for k in KINDS if k.startswith(low)]
        if len(found) == 1 and not low.isdigit():
            return found[0]
        raise Wrong(f"no card {word!r}: type numbers from 1 to {len(self.kinds)} or the names "
                    "above")  # the list is on the line above: repeating it would wrap


class Species(Step):
    """Which species the opener declares the chosen cards as."""

    prompt = "species> "

    def __init__(self, cards: Sequence[str], declarable: Sequence[str]) -> None:
        self.cards = list(cards)
        self.declarable = list(declarable)

    def lines(self) -> list[RenderableType]:
        counts = Counter(self.cards)
        shown = ", ".join(f"{n} {k}" for k, n in counts.items())
        return [Text(f"Declare {shown} as which species?", style="bold"),
                numbered(self.declarable)]

    def completions(self) -> Sequence[str]:
        return self.declarable

    def answer(self, text: str) -> str | Step:
        return lay(self.cards, pick(text, self.declarable, "species"))


def lay(cards: Sequence[str], species: str) -> str:
    """The notation of laying `cards` as `species` (the engine reads the cards in any order)."""
    return f"lay {' '.join(cards)} as {species}"
