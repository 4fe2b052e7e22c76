"""A MammuZ heuristic that counts cards, from its seat's observation only.

It knows how many cards of each species are still in the game, what it holds, what it has
seen go into other hands (its own cards in herds they took, turned-up cards), and its own lays
in the herd. From that it judges how likely the previous lay holds a lie (positions in a lay are
shuffled, so every card of it is equally likely to be the lie: it turns the first). It lays the
species it holds most of, pads lays with cards that cost nothing if turned (dinosaurs whose power
spares the layer) or with dead weight, lies when it cannot add truthfully and the claim looks
sound, lays out its last cards when they are likely to stand, extinguishes at once, and gives a
Pterosaurus herd to the leader (or back to a player who would otherwise win).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tiergarten.core import Action, Game
from tiergarten.core.match import Proposal, SeatView
from tiergarten.games.mammuz.actions import (
    DOUBT_KIND,
    EXTINCT_KIND,
    GIVE_KIND,
    LAY_BY,
    LAY_KIND,
    MULTISET_INDEX,
    MammuZAction,
)
from tiergarten.games.mammuz.cards import (
    BY_NAME,
    DINOSAUR_NAMES,
    DINOSAURS,
    KINDS,
    SPECIES,
    SPECIES_NAMES,
)

from .base import Bot, RandomBot
from .ismcts import Belief
from .levels import Factory, searching
from .mammuz_belief import LayBelief

QUICK = 0.1  # extinguishing is done at once
SAFE_POWERS = {"doubter_takes", "remove", "jackpot"}  # a turned card that spares the layer
TRUST = 0.7  # how far a claim is believed when enough cards of its species are unplaced
PAD, PAD_ABOVE = 4, 4  # with more than PAD_ABOVE cards, pad a lay with plausible lies to PAD


def _counts(names: list[str]) -> list[int]:
    out = [0] * KINDS
    for name in names:
        out[BY_NAME[name]] += 1
    return out


class MammuZHeuristic(Bot):
    name = "heuristic"

    def propose(self, view: SeatView) -> Proposal | None:
        legal: Sequence[MammuZAction] = view.legal  # type: ignore[assignment]
        for extinct in legal:
            if extinct.kind == EXTINCT_KIND:
                return (QUICK, extinct)
        if view.observation["turn"] != self.seat:
            return None
        action = self.choose(view)
        return None if action is None else (self.think, action)

    def choose(self, view: SeatView) -> Action | None:
        legal: Sequence[MammuZAction] = view.legal  # type: ignore[assignment]
        obs = view.observation
        kinds = {a.kind for a in legal}
        if EXTINCT_KIND in kinds:
            return next(a for a in legal if a.kind == EXTINCT_KIND)
        if GIVE_KIND in kinds:
            return self._give(legal, obs)
        hand = _counts(obs["hand"])
        safe = self._safe_dinosaurs(obs)
        if obs["species"] is None:
            return self._open(hand, safe, obs)
        doubts = [a for a in legal if a.kind == DOUBT_KIND]
        if LAY_KIND not in kinds:
            return doubts[0]
        species = BY_NAME[obs["species"]]
        p_true = self._claim_odds(species, hand, obs)
        honest = hand[species] > 0 or any(hand[d] for d in safe)
        if p_true < (0.3 if honest else 0.55):
            return doubts[0]
        return self._lay(species, hand, safe, obs, opening=False)

    # -- judging a claim ----------------------------------------------------------------------

    def _claim_odds(self, species: int, hand: list[int], obs: dict[str, Any]) -> float:
        """How likely a card of the previous lay is truly `species`."""
        free = self._unaccounted(species, hand, obs)
        unseen = sum(obs["hand_sizes"]) - sum(hand) + obs["herd_size"] + obs["jackpot_size"]
        density = free / max(1, unseen)
        return float(min(1.0, free / obs["herd"][-1]["count"]) * TRUST + (1 - TRUST) * density)

    def _unaccounted(self, species: int, hand: list[int], obs: dict[str, Any]) -> int:
        """Cards of `species` in the game that this seat cannot place: they may be anywhere."""
        name = SPECIES_NAMES[species]
        accounted: int = hand[species] + obs["jackpot_known"].get(name, 0)
        for lay in obs["herd"]:
            if lay["cards"] is not None:
                accounted += lay["cards"].count(name)
        for cards in obs["known"].values():
            accounted += cards.get(name, 0)
        return max(0, int(obs["in_game"][name]) - int(accounted))

    def _safe_dinosaurs(self, obs: dict[str, Any]) -> set[int]:
        powers: dict[str, str] = obs["dinosaur_powers"]
        return {DINOSAURS[i] for i, name in enumerate(DINOSAUR_NAMES)
                if powers[name] in SAFE_POWERS}

    # -- laying -------------------------------------------------------------------------------

    def _open(self, hand: list[int], safe: set[int], obs: dict[str, Any]) -> Action:
        declarable = [BY_NAME[name] for name in obs["in_game"] if name not in obs["extinct"]]
        species = max(declarable, key=lambda s: (hand[s], -obs["in_game"][SPECIES_NAMES[s]]))
        return self._lay(species, hand, safe, obs, opening=True)

    def _lay(self, species: int, hand: list[int], safe: set[int], obs: dict[str, Any],
             opening: bool) -> Action:
        """Lay true cards and safe dinosaurs first; pad with dead weight when it pays."""
        good = [species] * min(4, hand[species])
        for d in sorted(safe):
            if hand[d] and len(good) < 4:
                good.append(d)
        size = sum(hand)
        rest = self._dead_weight(hand, species, safe)
        room = self._unaccounted(species, hand, obs)  # lies a card-counter cannot rule out
        if size <= 4 and len(good) + len(rest) == size and len(rest) <= len(good) // 2:
            cards = good + rest  # lay out: the next player must doubt, and most cards stand
        elif size > PAD_ABOVE and rest and len(good) < PAD:
            cards = good + rest[:max(1 - len(good), min(PAD - len(good), room))]
        else:
            cards = good or rest[:1]  # a plain bluff of one card if nothing is true
        return LAY_BY[species][MULTISET_INDEX[tuple(sorted(cards))]]

    def _dead_weight(self, hand: list[int], species: int, safe: set[int]) -> list[int]:
        """Cards to be rid of by lying: dinosaurs that cannot be declared first, then the
        species held least."""
        unsafe = [d for d in DINOSAURS if hand[d] and d not in safe]
        animals = sorted((s for s in SPECIES if hand[s] and s != species),
                         key=lambda s: (hand[s], s))
        return unsafe + [s for s in animals for _ in range(hand[s])]

    # -- choosing a taker ----------------------------------------------------------------------

    def _give(self, legal: Sequence[MammuZAction], obs: dict[str, Any]) -> Action:
        sizes: list[int] = obs["hand_sizes"]
        empty = [s for s, n in enumerate(sizes) if n == 0]
        if empty:
            target = empty[0]  # otherwise that player wins at once
        else:
            others = [s for s in range(len(sizes)) if s != self.seat]
            target = min(others, key=lambda s: (sizes[s], s))
        return next(a for a in legal if a.kind == GIVE_KIND and a.n == target)


class MammuZWary(MammuZHeuristic):
    """The heuristic, but it never lies with the last cards of its hand (at most `reach`):
    near the end a lie is doubted and costs the whole herd, while a doubt that catches a
    liar lets this seat open the next herd, with its last cards, truthfully. With chance
    `attention` it sees the danger."""

    name = "wary"
    reach = 1
    attention = 1.0

    def choose(self, view: SeatView) -> Action | None:
        legal: tuple[MammuZAction, ...] = view.legal  # type: ignore[assignment]
        obs = view.observation
        if obs["species"] is not None and self._cornered(legal, obs):
            return next(a for a in legal if a.kind == DOUBT_KIND)
        return super().choose(view)

    def _cornered(self, legal: tuple[MammuZAction, ...], obs: dict[str, Any]) -> bool:
        """Only a lie can be added, with at most `reach` cards in hand (and it notices)."""
        kinds = {a.kind for a in legal}
        if kinds & {EXTINCT_KIND, GIVE_KIND} or LAY_KIND not in kinds:
            return False
        hand = _counts(obs["hand"])
        honest = hand[BY_NAME[obs["species"]]] > 0 or any(hand[d]
                                                           for d in self._safe_dinosaurs(obs))
        return (not honest and sum(hand) <= self.reach
                and (self.attention >= 1 or self.rng.random() < self.attention))


class MammuZCareful(MammuZWary):
    """Wary with its last two cards, but it sees the danger only seven times in ten."""

    name = "careful"
    reach = 2
    attention = 0.7


class MammuZWatchful(MammuZWary):
    """Wary with its last two cards, always (the master's model of every player)."""

    name = "watchful"
    reach = 2


def prune_doubts(legal: Sequence[Action]) -> tuple[Action, ...]:
    """One doubt of the previous lay: the engine shuffles a lay's cards, so every position is
    as likely to hold the lie."""
    return tuple(a for a in legal
                 if a.kind != DOUBT_KIND or a.n == 1)  # type: ignore[attr-defined]


def _lay_belief(game: Game, seat: int) -> Belief:
    return LayBelief()


WIDENING = 0.5  # a search node holds at most 2 sqrt(visits + 1) of its hundreds of lays
MASTER_ITERATIONS = 150  # per move once some hand is down to ENDGAME cards; half before
ENDGAME = 4


def master_budget(obs: dict[str, Any]) -> int:
    """The whole budget once the end is near (some hand holds `ENDGAME` cards or fewer): the
    game is decided there; half before, when rollouts are long and matter less."""
    return MASTER_ITERATIONS if min(obs["hand_sizes"]) <= ENDGAME else MASTER_ITERATIONS // 2

BOTS: dict[str, Factory] = {"heuristic": MammuZHeuristic}
LEVELS: dict[str, Factory] = {
    "easy": RandomBot,
    "normal": MammuZHeuristic,
    "hard": MammuZWary,
    "expert": MammuZCareful,
    "master": searching(MASTER_ITERATIONS, MammuZWatchful, widening=WIDENING,
                        rollouts=MammuZWatchful, belief=_lay_belief, prune=prune_doubts,
                        budget=master_budget),
}
