// The players' clocks (a table option): each seat's time left, counted down on screen between
// the server's states, which carry {"left": [seconds per seat], "running": [seats]}.
import { h } from "./dom.js";

let last = null;  // {left, running, at: when it arrived (ms)}

export function noteClock(state) {
  if (state?.clock) last = { ...state.clock, at: Date.now() };
}

function leftOf(seat) {
  if (!last || last.left[seat] === null || last.left[seat] === undefined) return null;
  const spent = last.running.includes(seat) ? (Date.now() - last.at) / 1000 : 0;
  return Math.max(0, last.left[seat] - spent);
}

export function clockText(seat) {
  const left = leftOf(seat);
  if (left === null) return "";
  const whole = Math.ceil(left);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

// A seat's clock in the seats bar (nothing at a table without a clock, or for a bot).
export function clockBadge(info, seat) {
  if (!info?.clock || info.seats[seat]?.kind !== "human") return null;
  return h("span.clock", { dataset: { clockSeat: seat, running: String(!!last?.running.includes(seat)) } },
    "⏱ ", clockText(seat));
}

// Called by the table's ticker: count the running clocks down.
export function tickClocks(view) {
  for (const el of view.querySelectorAll(".clock[data-clock-seat]")) {
    el.lastChild.textContent = clockText(Number(el.dataset.clockSeat));
  }
}

export function resetClocks() {
  last = null;
}
