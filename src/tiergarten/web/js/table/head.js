// The table's head: the game's name, the table's status, the invite link (not at a tutorial,
// nor at a table on this device: `link` null),
// the turn timer and the note shown while the connection is down (the screen's .offline).
import { h } from "../dom.js";
import { t, tOr } from "../i18n.js";
import { tickClocks } from "../clock.js";
import { inviteField } from "./invite.js";

// `timer()`: the turn timer's text now (timerText).
export function tableHead(info, link, timer) {
  return h("section#head.table-head", {},
    h("h1", {}, tOr(`game.${info.game}.title`, info.game)),
    h("span.status", { dataset: { status: info.status } }, t(`table.status.${info.status}`)),
    info.tutorial || !link ? null : inviteField(link),
    info.timer ? h("span.timer", { title: t("table.timer_help", { seconds: info.timer }) }, "⏱ ",
      h("span#turn-timer", {}, timer())) : null,
    h("span.conn", {}, t("table.offline")));
}

// The turn timer counts down from the last move (at `changedAt`, ms); at zero the server lets
// a bot move.
export function timerText(info, changedAt) {
  if (!info?.timer || info.status !== "playing") return t("table.timer_per_move", { seconds: info?.timer ?? 0 });
  return `${Math.max(0, Math.ceil(info.timer - (Date.now() - changedAt) / 1000))} s`;
}

// Twice a second: the turn timer's text and the players' clocks; returns the interval's id.
export function startTicker(view, timer) {
  return setInterval(() => {
    const el = view.querySelector("#turn-timer");
    if (el) el.textContent = timer();
    tickClocks(view);
  }, 500);
}
