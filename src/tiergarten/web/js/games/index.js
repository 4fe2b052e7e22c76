// Each game draws its own board, found by convention: js/games/<game id>.js. A game without
// one gets the generic board (every legal action as a button), so a new game is playable in
// the browser from its first day and adds its module without editing this file.
import { tOr } from "../i18n.js";

const GAME_ID = /^[a-z][a-z0-9_]*$/; // ids are package names: nothing else is ever imported
const loaded = {};

export async function gameModule(gameId) {
  if (!loaded[gameId]) {
    try {
      loaded[gameId] = GAME_ID.test(gameId) ? await import(`./${gameId}.js`) : await import("./generic.js");
    } catch {
      loaded[gameId] = await import("./generic.js");
    }
  }
  return loaded[gameId];
}

// The other seats in playing order, starting after `me` (every seat for a spectator: me null).
export function othersInOrder(me, players) {
  return [...Array(players).keys()].map((i) => ((me ?? -1) + 1 + i) % players).filter((s) => s !== me);
}

// One line of the move log: "Ann: play 7h", with the game's own wording when it has one.
export function describeEvent(gameId, event, names) {
  const module = loaded[gameId];
  const own = module?.describe?.(event, names);
  if (own) return own;
  const who = event.seat === null || event.seat === undefined ? "" : `${names[event.seat] ?? event.seat}: `;
  const extra = Object.entries(event).filter(([k]) => !["seat", "act", "n"].includes(k))
    .map(([k, v]) => `${tOr(`log.${k}`, k)} ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
  return `${who}${event.act}${extra ? ` (${extra})` : ""}`;
}
