// Hot-seat play, several people at one screen taking turns: which of this browser's seats to
// show, and what of it: a hand shows only to its owner, after the hand-off screen; while
// nobody here is due, the table shows without any hand.
import { h } from "../dom.js";
import { t } from "../i18n.js";

// The seat to show: the one to move if any, else the one shown so far, else the first
// ("watch" for a spectator, null before any state).
export function chooseSeat(states, shown) {
  const mine = [...states.keys()].filter((k) => k !== "watch");
  if (!mine.length) return states.has("watch") ? "watch" : null;
  const toMove = states.get(mine[0])?.observation?.to_move || [];
  const due = mine.filter((s) => toMove.includes(s) && states.get(s)?.legal?.length);
  if (due.length && !due.includes(shown)) return due[0];
  return mine.includes(shown) ? shown : mine[0];
}

// What the board shows of `state`: "board" (all of it), "hidden" (no hand: nobody here is
// due) or "handoff" (the shown seat has not confirmed it holds the device: `revealed`).
export function hotSeatStage({ mine, game, info, state, shown, revealed }) {
  const hotSeat = mine.length > 1 && !game.realTime && state && info.status !== "over";
  if (hotSeat && !state.legal.length) return "hidden";
  if (hotSeat && revealed !== shown) return "handoff";
  return "board";
}

// A state without the hand and without moves: the table as anyone at the screen may see it.
export function withoutHand(state) {
  const { hand: _hand, ...observation } = state.observation;
  return { ...state, seat: null, legal: [], observation };
}

// "Pass the device to Ann" and her button; `ready()` when she holds it.
export function handOffScreen(name, ready) {
  return h("section#handoff.panel.handoff", {},
    h("p", {}, t("table.pass_device", { name })),
    h("button.primary", { type: "button", onclick: ready }, t("table.i_am", { name })));
}
