// A table waiting for people shows no game yet (no cards, no log): who is there, who is
// missing, and how to bring them (the invite link above, the QR code below).
import { h } from "../dom.js";
import { t } from "../i18n.js";

export function waitingPanel(info, mine, names) {
  const open = info.seats.filter((s) => !s.taken).length;
  return h("section#waiting.panel.waiting-room", { "aria-labelledby": "waiting-title" },
    h("h2#waiting-title", {}, t("table.waiting_title", { taken: info.seats.length - open, players: info.seats.length })),
    h("ul.waiting-seats", {}, info.seats.map((s, i) => h(`li${s.taken ? ".here" : ".missing"}`, { dataset: { seat: i } },
      h("span.waiting-mark", { "aria-hidden": "true" }, s.kind === "bot" ? "🤖" : s.taken ? "🙂" : "…"),
      h("span", {}, s.taken ? names[i] : t("table.waiting_open", { n: i + 1 })),
      mine.includes(i) ? h("span.badge", {}, t("table.waiting_you")) : null,
      s.kind === "human" && s.taken && !s.connected ? h("span.badge", {}, t("table.disconnected")) : null))),
    h("p.waiting-hint", {}, t("table.waiting_hint", { n: open })));
}
