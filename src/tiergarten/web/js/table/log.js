// The move log: every entry of the game as a seat may see it, kept from the server's messages,
// and its panel, numbered by the entries' positions in the game, oldest first, with a line
// where a new round (or herd) starts; it keeps to the newest entry unless the reader scrolled.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { describeEvent } from "../games.js";

// The greeting (and a sync) bring every entry so far (`log_from` 0), each update the new ones,
// numbered by their real position. `known`: the entries kept so far. Returns the entries now,
// or null when some are missing (then the client asks for the whole log again).
export function keptLog(known, message) {
  if (!Array.isArray(message.log)) {  // a server without the whole log: the recent entries
    return (message.observation?.log || []).map((e, i) => ({ n: e.n ?? i, ...e }));
  }
  const from = message.log_from ?? 0;
  const before = from === 0 ? [] : known || [];
  if (from > before.length) return null;
  return [...before.slice(0, from), ...message.log.map((e, i) => ({ ...e, n: from + i }))];
}

export function logPanel(entries, info, game, names) {
  if (!entries.length) return null;  // no "Moves (0)" box before the first move
  // focusable: a keyboard can scroll the log too
  const list = h("ol#log-list.log-list", { "aria-label": t("table.log"), tabindex: "0" });
  entries.forEach((e, i) => {
    const line = game.separator?.(e, entries[i - 1], names, entries.slice(0, i));
    if (line) list.append(h("li.round", { "aria-hidden": "true" }, line));
    const text = describeEvent(info.game, e, names);
    if (text) list.append(h("li", { value: e.n + 1, dataset: { n: e.n } }, text));
  });
  return h("details#log.panel.log", { open: window.innerWidth > 800 },
    h("summary", {}, t("table.log_count", { n: entries.length })), list);
}

// Before a render: whether the reader is at the log's newest entry (or there is no log yet).
export function logAtEnd(view) {
  const list = view.querySelector("#log-list");
  return !list || list.scrollHeight - list.scrollTop - list.clientHeight < 24;
}

// After a render: keep the log scrolled to its newest entry if the reader was there.
export function followLog(view, atEnd) {
  const list = view.querySelector("#log-list");
  if (list && atEnd) list.scrollTop = list.scrollHeight;
}
