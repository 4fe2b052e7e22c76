"""The advice behind `GET /api/tables/{id}/hint?token=...` (server/routes/hints.py).

The advice is computed from that seat's observation and legal actions only (the project's
rule: bots and hints see what their seat sees, never the state). Games without an adviser
answer 409, and so does a table created with `"hints": false`. A browser may also hide its own
hint button (the Mucca Pazza board keeps that switch per table in the browser).

Mucca Pazza standard: the exact solver's best turn for the free slides and stars left (the
first completion worth the most cards: the turn ends there) — the first of its slides; with
nothing to win, one slide then `stop`.
Junior: while sliding, the fewest slides to the revealed card's animal(s); when revealing, a
card the log shows was revealed earlier and can be completed now, else a card not seen yet.

>>> obs = {"variant": "standard", "seat": 0, "slides_made": 0, "slides_left": 3,
...        "stars": [3, 3], "landing": ["frog"], "board": {
...        "heads": ["frog", "dragon", "monkey"], "bodies": ["dragon", "monkey", "frog"],
...        "legs": ["monkey", "frog", "dragon"]}}
>>> advise_mucca(obs, ["slide bodies right", "slide legs left"])["hint"]
'slide bodies right'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

Advice = dict[str, Any]  # {"hint": notation, "why": English, "reason": code, "params": {...}}


# -- Mucca Pazza --------------------------------------------------------------------------

def advise_mucca(obs: dict[str, Any], legal: Sequence[str]) -> Advice:
    """The advice for a Mucca Pazza seat from its observation and legal actions only."""
    advice = _junior(obs, legal) if obs["variant"] == "junior" else _standard(obs, legal)
    if advice["hint"] not in legal:  # never advise what the rules refuse
        advice = {"hint": legal[0], "why": "any move will do", "reason": "any", "params": {}}
    return advice


def _standard(obs: dict[str, Any], legal: Sequence[str]) -> Advice:
    from tiergarten.games.mucca_pazza import solve

    seat = obs["seat"]
    plan = solve(obs["board"], landing=obs["landing"], slides=obs["slides_left"],
                 stars=obs["stars"][seat], must_slide=not obs["slides_made"])
    won = [a for a in plan.complete if a in obs["landing"]]
    params = {"cards": plan.cards, "slides": len(plan.slides), "stars": plan.stars,
              "animals": won}
    animals = ", ".join(won)
    if plan.cards:  # the turn ends by itself at the completion: never a stop to collect
        star = f", spending {plan.stars} star(s)" if plan.stars else ""
        return {"hint": plan.slides[0], "reason": "win", "params": params,
                "why": f"{len(plan.slides)} slide(s){star} win {plan.cards} card(s): {animals}"}
    if "stop" in legal:
        return {"hint": "stop", "reason": "nothing_stop", "params": params,
                "why": "nothing can be won this turn: stop"}
    return {"hint": plan.slides[0] if plan.slides else legal[0], "reason": "nothing_slide",
            "params": params, "why": "nothing can be won this turn: make one slide and stop"}


def _junior(obs: dict[str, Any], legal: Sequence[str]) -> Advice:
    from tiergarten.games.mucca_pazza import solve

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


ADVISERS: dict[str, Callable[[dict[str, Any], Sequence[str]], Advice]] = {
    "mucca_pazza": advise_mucca}
