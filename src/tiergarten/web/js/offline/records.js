// The games played on this device (kept in IndexedDB by the engine's worker, js/offline/store.js):
// in the lobby, each finished one with its replay, a download of its record (the JSON
// `tiergarten replay` reads) and, online and signed in, "Add to my history" (POST
// /api/records: the server replays it to check; it is kept unrated, docs/web.md "Offline").
import { call } from "../api.js";
import { h, clear, toast } from "../dom.js";
import { language, t, tOr } from "../i18n.js";
import { me } from "../account.js";
import { seatNames } from "../table/seats.js";
import { offline } from "./mode.js";
import { keptTables, markTable } from "./store.js";

async function finished() {
  const all = await keptTables().catch(() => []);
  return all.filter((table) => table.status === "over").sort((a, b) => (a.created < b.created ? 1 : -1));
}

export function devicePanel() {
  const box = h("section#device-games.panel", { hidden: true }, h("h2", {}, t("records.title")));
  fill(box);
  return box;
}

async function fill(box) {
  const games = await finished();
  if (!games.length) return;
  clear(box);
  box.hidden = false;
  box.append(h("h2", {}, t("records.title")));
  if (!offline && !me) box.append(h("p.muted", {}, t("records.sign_in")));
  box.append(h("ul.records-list", {}, games.map((table) => line(table, box))));
}

function line(table, box) {
  const names = seatNames(table.seats);
  const date = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" })
    .format(new Date(table.created));
  const text = t("records.line", { game: tOr(`game.${table.game}.title`, table.game), date,
    players: new Intl.ListFormat(language, { type: "conjunction" }).format(names) });
  const upload = table.uploaded  // the server's copy, replayed there
    ? h("a.uploaded", { href: `#/t/${table.uploaded}/replay` }, t("records.uploaded"))
    : !offline && me ? h("button.upload", { type: "button", onclick: async () => {
      await uploadOne(table);
      fill(box);
    } }, t("records.upload")) : null;
  return h("li", { dataset: { table: table.id } }, h("span.record-line", {}, text),
    h("a.button", { href: `#/t/${table.id}/replay` }, t("records.replay")),
    h("button.download", { type: "button", onclick: () => download(table) }, t("records.download")),
    upload);
}

function download(table) {
  const blob = new Blob([JSON.stringify(table.record, null, 2)], { type: "application/json" });
  const link = h("a", { href: URL.createObjectURL(blob), download: `tiergarten-${table.game}-${table.id}.json` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// The first person's seat is the player's (the one who created the table here).
async function uploadOne(table) {
  const seat = table.seats.find((s) => s.kind === "human")?.seat ?? 0;
  try {
    const stored = await call("POST", "/api/records", { record: table.record, seat,
      seats: table.seats.map(({ kind, bot, name }) => ({ kind, bot, name })) });
    await markTable(table.id, { uploaded: stored.table });
    return true;
  } catch (err) {
    toast(t("records.upload_failed", { detail: err.message }), "error");
    return false;
  }
}

// Online and signed in: every finished game of this device not in the player's history yet.
export async function uploadKept() {
  if (offline || !me) return 0;
  let done = 0;
  for (const table of await finished()) {
    if (!table.uploaded && await uploadOne(table)) done += 1;
  }
  return done;
}
