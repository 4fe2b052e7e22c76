"""Mucca Pazza advice for a person: the server's hint (`GET /api/tables/{id}/hint`) and the
terminal's `hint` command both ask `advise`.

The advice is computed from the seat's observation (and its legal actions, when known) only:
advisers, like bots, see what their seat sees, never the state. It is found by convention as
`tiergarten.bots.mucca_pazza.advise` (`tiergarten.bots.adviser(game_id)`).

Mucca Pazza standard: the exact solver's best turn for the free slides and stars left (the
first completion worth the most cards: the turn ends there) — the first of its slides; with
nothing to win, one slide then `stop`.
Junior: while sliding, the fewest slides to the revealed card's animal(s); when revealing, a
card the log shows was revealed earlier and can be completed now, else a card not seen yet.

>>> obs = {"variant": "standard", "seat": 0, "slides_made": 0, "slides_left": 3,
...        "stars": [3, 3], "landing": ["frog"], "board": {
...        "heads": ["frog", "dragon", "monkey"], "bodies": ["dragon", "monkey", "frog"],
...        "legs": ["monkey", "frog", "dragon"]}}
>>> advise(obs, ["slide bodies right", "slide legs left"])["hint"]
'slide bodies right'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tiergarten.games.mucca_pazza import solve
from tiergarten.games.mucca_pazza.cards import DIRECTIONS, ROWS

# {"hint": notation, "why": English, "reason": code, "params": {...}}, and for a winning turn
# "plan": all of its slides
Advice = dict[str, Any]


# -- Mucca Pazza --------------------------------------------------------------------------

def advise(obs: Mapping[str, Any], legal: Sequence[str] | None = None) -> Advice:
    """The advice for a Mucca Pazza seat from its observation and legal actions only (without
    `legal`, what the observation says the seat may do: slides, and stop once it has slid)."""
    if legal is None:
        legal = _legal_from(obs)
    advice = _junior(obs, legal) if obs["variant"] == "junior" else _standard(obs, legal)
    if legal and advice["hint"] not in legal:  # never advise what the rules refuse
        advice = {"hint": legal[0], "why": "any move will do", "reason": "any", "params": {}}
    return advice


def _standard(obs: Mapping[str, Any], legal: Sequence[str]) -> Advice:
    seat = obs["seat"]
    plan = solve(obs["board"], landing=obs["landing"], slides=obs["slides_left"],
                 stars=obs["stars"][seat], must_slide=not obs["slides_made"])
    won = [a for a in plan.complete if a in obs["landing"]]
    params = {"cards": plan.cards, "slides": len(plan.slides), "stars": plan.stars,
              "animals": won}
    animals = ", ".join(won)
    if plan.cards:  # the turn ends by itself at the completion: never a stop to collect
        star = f", spending {plan.stars} star(s)" if plan.stars else ""
        return {"hint": plan.slides[0], "reason": "win", "params": params, "plan": plan.slides,
                "why": f"{len(plan.slides)} slide(s){star} win {plan.cards} card(s): {animals}"}
    if "stop" in legal:
        return {"hint": "stop", "reason": "nothing_stop", "params": params,
                "why": "nothing can be won this turn: stop"}
    return {"hint": plan.slides[0] if plan.slides else legal[0], "reason": "nothing_slide",
            "params": params, "why": "nothing can be won this turn: make one slide and stop"}


def _junior(obs: Mapping[str, Any], legal: Sequence[str]) -> Advice:
    if obs["phase"] == "slide":
        targets = [a for a in obs["targets"] or () if a not in obs["complete"]]
        if not targets:
            return {"hint": "stop", "reason": "cannot", "params": {"card": obs["target"]},
                    "why": "this card cannot be won now: stop"}
        plan = solve(obs["board"], targets)
        done = [a for a in plan.complete if a in targets]
        params = {"card": obs["target"], "animal": done[0] if done else targets[0],
                  "slides": len(plan.slides)}
        if plan.slides and len(plan.slides) <= obs["slides_left"]:
            return {"hint": plan.slides[0], "reason": "complete", "params": params,
                    "plan": plan.slides,
                    "why": f"{len(plan.slides)} slide(s) complete the {params['animal']}"}
        return {"hint": "stop", "reason": "cannot", "params": params,
                "why": "this card cannot be won with the slides left: stop"}
    # Reveal: what the log shows was revealed earlier at a card still face down.
    seen: dict[int, str] = {}
    for event in obs["log"]:
        if event["act"] in ("reveal", "back", "fail"):
            seen[event["position"]] = event["card"]
    complete = set(obs["complete"])
    open_animals = [a for a in obs["board"]["heads"] if a not in complete]
    best: tuple[int, int, str] | None = None
    for action in legal:
        if not action.startswith("reveal "):
            continue
        position = int(action.split()[1])
        card = seen.get(position)
        if card is None or obs["grid"][position - 1] is not None:
            continue
        wanted = open_animals if card == "ghost" else [card] if card not in complete else []
        if wanted:
            cost = len(solve(obs["board"], wanted).slides)
            if best is None or (cost, position) < best[:2]:
                best = (cost, position, card)
    if best is not None and best[0] <= obs["slides_left"]:
        return {"hint": f"reveal {best[1]}", "reason": "remembered",
                "params": {"position": best[1], "card": best[2], "slides": best[0]},
                "why": f"card {best[1]} is a {best[2]} (you saw it), {best[0]} slide(s) away"}
    unseen = [a for a in legal if a.startswith("reveal ") and int(a.split()[1]) not in seen]
    if unseen:
        position = int(unseen[0].split()[1])
        return {"hint": unseen[0], "reason": "unknown", "params": {"position": position},
                "why": f"card {position} has not been seen yet"}
    return {"hint": legal[0], "reason": "any", "params": {}, "why": "any card will do"}


def _legal_from(obs: Mapping[str, Any]) -> list[str]:
    """The legal actions an observation implies for the seat whose turn it is."""
    if obs.get("phase") == "reveal":
        return [f"reveal {p + 1}" for p, card in enumerate(obs["grid"]) if card is None
                and p + 1 not in (obs["turned_back"] or ())]
    slides = [f"slide {row} {way}" for row in ROWS for way in DIRECTIONS]
    may_stop = obs["variant"] == "junior" or obs["slides_made"]
    return [*slides, "stop"] if may_stop else slides
