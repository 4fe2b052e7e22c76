// Each game's web parts sit in a folder of its own, found by convention from the game id (as
// the Python side finds games/<id>/, bots/<id>.py, terminal/<id>.py), so that a new game adds
// its folder and edits no file here:
//   games/<id>/board.js           its board: render(ctx), describe(event) for the log, and
//                                 what the shared screens ask of it (playOrder, seatParams, …)
//   games/<id>/style.css          its styles
//   games/<id>/i18n/<lang>.json   its words
// At start-up (loadGames) the client asks the server for its games (GET /api/games) and loads
// every game's words and board module: the lobby, the profiles and the tutorials name every
// game and list them in play order. A game's stylesheet is linked when its board is first
// drawn (gameModule). A game without a board gets the generic one (every legal action as a
// button), so a new game is playable in the browser from its first day.
import { api, here } from "./api.js";
import { addCatalogues, tOr } from "./i18n.js";

const GAME_ID = /^[a-z][a-z0-9_]*$/; // ids are package names: nothing else is ever imported
const boards = {};   // game id -> its board module
const styles = {};   // game id -> the promise of its stylesheet, once linked
const own = new Set();  // the games whose board came from their folder (so has styles there)

// The folder of a game's parts, under the page's folder.
function folder(gameId) {
  return `games/${gameId}/`;
}

// Every game the server offers: their words join the catalogues, their boards are imported.
// Without an answer the screens go on with the shared words (the lobby then says what failed).
export async function loadGames() {
  let ids = [];
  try {
    ids = (await api.games()).map((g) => g.id).filter((id) => GAME_ID.test(id));
  } catch {
    return;
  }
  for (const id of ids) addCatalogues(folder(id));
  await Promise.all(ids.map(boardOf));
}

async function boardOf(gameId) {
  if (!boards[gameId]) {
    try {
      if (!GAME_ID.test(gameId)) throw new Error(`not a game id: ${gameId}`);
      boards[gameId] = await import(`../${folder(gameId)}board.js`);
      own.add(gameId);
    } catch {
      boards[gameId] = await import("./generic_board.js");
    }
  }
  return boards[gameId];
}

// A link to the game's stylesheet in the page's head, once; resolves when it applies (or
// failed to load), so that a board is never drawn without its styles.
function linkStyle(gameId) {
  styles[gameId] ??= new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = here(`/${folder(gameId)}style.css`);
    link.dataset.game = gameId;
    link.addEventListener("load", resolve);
    link.addEventListener("error", resolve);
    document.head.append(link);
  });
  return styles[gameId];
}

// The board module of a game loaded already (at start-up: every game's), if any.
export function loadedBoard(gameId) {
  return boards[gameId];
}

// The board module of a game, with its stylesheet applied.
export async function gameModule(gameId) {
  const board = await boardOf(gameId);
  if (own.has(gameId)) await linkStyle(gameId);
  return board;
}

// Games (or anything with a game id) in the order the lobby offers them: by the `playOrder`
// each board declares, the easiest first; a game without one keeps its place after these.
export function inPlayOrder(items, idOf = (item) => item.id) {
  const rank = (item) => boards[idOf(item)]?.playOrder ?? Number.MAX_SAFE_INTEGER;
  return [...items].sort((a, b) => rank(a) - rank(b));
}

// The other seats in playing order, starting after `me` (every seat for a spectator: me null).
export function othersInOrder(me, players) {
  return [...Array(players).keys()].map((i) => ((me ?? -1) + 1 + i) % players).filter((s) => s !== me);
}

// One line of the move log: "Ann: play 7h", with the game's own wording when it has one.
export function describeEvent(gameId, event, names) {
  const module = boards[gameId];
  const own = module?.describe?.(event, names);
  if (own) return own;
  const who = event.seat === null || event.seat === undefined ? "" : `${names[event.seat] ?? event.seat}: `;
  const extra = Object.entries(event).filter(([k]) => !["seat", "act", "n"].includes(k))
    .map(([k, v]) => `${tOr(`log.${k}`, k)} ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
  return `${who}${event.act}${extra ? ` (${extra})` : ""}`;
}
