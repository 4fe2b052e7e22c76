// The seats strip above the board: each seat's name (an account's links to its profile), its
// clock, the bot / away / disconnected badges, and "leave" on this browser's own seats.
import { h } from "../dom.js";
import { t, tOr } from "../i18n.js";
import { clockBadge } from "../clock.js";

// Every seat's name as a table shows it: the player's, a bot's, or "open seat".
export function seatNames(seats) {
  return (seats || []).map((s) => s.name
    || (s.bot ? t("table.bot_name", { n: s.seat + 1, bot: tOr(`bot.${s.bot}`, s.bot) }) : t("table.open_seat")));
}

// `mine`: the seats this browser holds; `leave(seat)` gives one up.
export function seatsBar(info, mine, leave) {
  const names = seatNames(info.seats);
  return h("ol#seats.seats", {}, info.seats.map((s, i) => seatItem(info, i, names[i], mine.includes(i), leave)));
}

function seatItem(info, i, name, own, leave) {
  const s = info.seats[i];
  return h(`li.seat${own ? ".mine" : ""}`, { dataset: { seat: i, taken: String(s.taken), kind: s.kind } },
    clockBadge(info, i),
    h("span.seat-name", {}, s.account ? h("a", { href: `#/p/${encodeURIComponent(s.account)}` }, name) : name),
    s.kind === "bot" ? h("span.badge", {}, t("table.bot")) : null,
    s.away ? h("span.badge.away", {}, t("table.away")) : null,
    s.kind === "human" && s.taken && !s.connected && !s.away ? h("span.badge", {}, t("table.disconnected")) : null,
    own && info.status !== "over" ? h("button.link", { type: "button", onclick: () => leave(i) }, t("table.leave")) : null);
}
