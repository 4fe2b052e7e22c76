// Table chat (players and spectators, marked as such), plain text only, quick reactions that
// need no typing, muting per reader (kept in this browser), the creator's on/off switch, and
// the chat beside a replay. Lives beside the table's board, outside its re-rendered view.
import { call } from "./api.js";
import { h, clear, toast } from "./dom.js";
import { t } from "./i18n.js";

export const REACTIONS = { thumbs: "👍", smile: "😀", wow: "😮", sad: "😢", clap: "👏", gg: "🤝" };
const OWNER = "tiergarten.owner.";
const MUTE = "tiergarten.mute.";

export function saveOwner(tableId, owner) {
  if (owner) localStorage.setItem(OWNER + tableId, owner);
}

// A rematch keeps its creator (the server gives it the same owner): so does this browser.
export function carryOwner(fromTable, toTable) {
  saveOwner(toTable, localStorage.getItem(OWNER + fromTable));
}

function muted(tableId) {
  try { return new Set(JSON.parse(localStorage.getItem(MUTE + tableId)) || []); } catch { return new Set(); }
}

function setMuted(tableId, set) {
  localStorage.setItem(MUTE + tableId, JSON.stringify([...set]));
}

// Whose a line is, for muting: a seat, a spectator by its number, or (lines said before
// spectators were numbered) a spectator by name.
const who = (line) => (line.seat !== null ? `p:${line.seat}` : line.spectator != null ? `w:${line.spectator}` : `s:${line.name}`);

// "Spectator 2" in the page's language: the public label the server's number gives a watcher.
export function spectatorLabel(n) {
  return t("chat.spectator_n", { n });
}

// The name a line shows, and whether it needs the role beside it: a spectator who gave no
// name is shown by its label, which says it all; one who did, by that name and the role.
function speaker(line) {
  if (line.seat !== null || line.spectator == null) return { name: line.name, role: true };
  const plain = line.name === "spectator" || line.name === `spectator ${line.spectator}`;
  return plain ? { name: spectatorLabel(line.spectator), role: false }
    : { name: `${line.name} (${spectatorLabel(line.spectator)})`, role: true };
}

function lineHead(line) {
  const { name, role } = speaker(line);
  return [h("strong.chat-name", {}, name), " ", role ? [h("span.chat-role", {}, t(`chat.role.${line.role}`)), " "] : null];
}

function lineText(line) {
  return line.kind === "reaction" ? `${REACTIONS[line.text] || ""} ${t(`chat.reaction.${line.text}`)}` : line.text;
}

// mountChat(main, tableId, {info, send, mine, spectator}): info() the last table message,
// send(msg) over any of this browser's sockets, mine() this browser's seats, spectator() this
// browser's number as a spectator (null: seated). Returns {add, load, render, stop}.
export function mountChat(main, tableId, { info, send, mine, spectator = () => null }) {
  const lines = new Map();  // n -> line
  const box = h("section#chat.panel.chat", { "aria-label": t("chat.title") });
  main.append(box);
  const input = h("input#chat-input", { maxlength: "200", autocomplete: "off", placeholder: t("chat.placeholder"),
    "aria-label": t("chat.placeholder") });
  const list = h("ol#chat-lines.chat-lines", { "aria-live": "polite" });

  function say(event) {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (send({ chat: text })) input.value = "";
    else toast(t("table.offline"), "error");
  }

  function toggleMute(key) {
    const set = muted(tableId);
    if (set.has(key)) set.delete(key); else set.add(key);
    setMuted(tableId, set);
    renderLines();
  }

  function renderLines() {
    const hidden = muted(tableId);
    const own = new Set(mine());
    const watching = spectator();
    clear(list);
    for (const line of [...lines.values()].sort((a, b) => a.n - b.n)) {
      const key = who(line);
      const self = line.seat !== null ? own.has(line.seat) : watching !== null && line.spectator === watching;
      if (hidden.has(key)) continue;
      list.append(h(`li.chat-line.${line.role}${self ? ".own" : ""}`, { dataset: { n: line.n, seat: line.seat ?? "",
        role: line.role, spectator: line.spectator ?? "" } },
        lineHead(line),
        h("span.chat-text", {}, lineText(line)), " ",
        self ? null : h("button.link.mute", { type: "button", onclick: () => toggleMute(key),
          "aria-label": t("chat.mute", { name: speaker(line).name }) }, t("chat.mute_short"))));
    }
    list.scrollTop = list.scrollHeight;
    renderMuted(hidden);
  }

  const mutedBox = h("p#chat-muted.muted");
  function renderMuted(hidden) {
    clear(mutedBox);
    const names = new Map([...lines.values()].map((l) => [who(l), speaker(l).name]));
    for (const key of hidden) {
      mutedBox.append(h("button.link.unmute", { type: "button", onclick: () => toggleMute(key) },
        t("chat.unmute", { name: names.get(key) || key })), " ");
    }
  }

  // Everything in the page's language, drawn again after a switch of language too (the
  // input keeps what is being typed).
  function render() {
    const table = info();
    if (!table) return;
    const on = table.chat !== false;
    const owner = localStorage.getItem(OWNER + tableId);
    box.setAttribute("aria-label", t("chat.title"));
    input.placeholder = t("chat.placeholder");
    input.setAttribute("aria-label", t("chat.placeholder"));
    clear(box);
    box.append(...[h("h2", {}, t("chat.title")),
      list, mutedBox,
      on ? h("div.reactions", { role: "group", "aria-label": t("chat.reactions") },
        Object.entries(REACTIONS).map(([name, emoji]) => h("button.reaction", { type: "button",
          dataset: { react: name }, title: t(`chat.reaction.${name}`), "aria-label": t(`chat.reaction.${name}`),
          onclick: () => send({ react: name }) }, emoji))) : h("p#chat-off.muted", {}, t("chat.off")),
      on ? h("form#chat-form.chat-form", { onsubmit: say }, input,
        h("button", { type: "submit" }, t("chat.send"))) : null,
      owner ? h("button#chat-switch.link", { type: "button", onclick: async () => {
        try { await call("POST", `/api/tables/${tableId}/chat`, { owner, on: !on }); } catch (err) { toast(err.message, "error"); }
      } }, on ? t("chat.switch_off") : t("chat.switch_on")) : null].filter(Boolean));
    renderLines();
  }

  return {
    add(line) { lines.set(line.n, line); renderLines(); },
    load(all) { for (const line of all) lines.set(line.n, line); renderLines(); },
    render,
    stop() { box.remove(); },
  };
}

// The chat said up to a replay's step (a line carries the version it was said at).
export function chatUpTo(chat, version) {
  const said = (chat || []).filter((line) => line.version <= version);
  if (!said.length) return null;
  return h("section#replay-chat.panel.chat", {}, h("h2", {}, t("chat.title")),
    h("ol.chat-lines", {}, said.map((line) => h(`li.chat-line.${line.role}`, { dataset: { spectator: line.spectator ?? "" } },
      lineHead(line), h("span.chat-text", {}, lineText(line))))));
}
