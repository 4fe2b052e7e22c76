// The players' clocks (a table option): each seat's time left, counted down on screen between
// the server's states, which carry {"left": [seconds per seat], "running": [seats]}.
import { h } from "./dom.js";
import { t } from "./i18n.js";

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

// Low: under 30 seconds, or under a tenth of the time each player started with.
function low(seat, bank) {
  const left = leftOf(seat);
  return left !== null && (left < 30 || (bank > 0 && left < bank / 10));
}

// Every seat's clock in the seats bar (nothing at a table without a clock); a bot plays
// without one, and its badge says so. Red only when the time is low.
export function clockBadge(info, seat) {
  if (!info?.clock) return null;
  if (info.seats[seat]?.kind !== "human") {
    return h("span.clock.none", { title: t("table.clock_none"), "aria-label": t("table.clock_none") }, "⏱ –");
  }
  return h("span.clock", { dataset: { clockSeat: seat, bank: info.clock.bank, running: String(!!last?.running.includes(seat)),
    low: String(low(seat, info.clock.bank)) }, title: t("table.clock_left") }, "⏱ ", clockText(seat));
}

// Called by the table's ticker: count the running clocks down.
export function tickClocks(view) {
  for (const el of view.querySelectorAll(".clock[data-clock-seat]")) {
    const seat = Number(el.dataset.clockSeat);
    el.lastChild.textContent = clockText(seat);
    el.dataset.low = String(low(seat, Number(el.dataset.bank)));
  }
}

export function resetClocks() {
  last = null;
}
