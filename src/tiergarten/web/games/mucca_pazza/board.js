// Mucca Pazza: three rows of tiles (heads, bodies, legs) that slide left or right, by the arrows
// at both ends of a row or by dragging the row; complete animals glow. Standard shows the
// landing place and the stars (a standard turn ends as soon as a slide completes an animal, so
// nothing glows in the middle of a turn), junior the grid of face-down cards. A hint button
// asks the server for the solver's advice (from this seat's observation only); it can be
// switched off per table in this browser.
import { h } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { api, tokensFor } from "../../js/api.js";
import { breakable } from "../../js/labels.js";

// Where the lobby lists this game (the easiest first); none of its refusals names a seat.
// its sounds and motions (docs/web.md, "Sound and motion")
export { sounds, soundOf, flights } from "./feedback.js";
export const playOrder = 4;

const ROWS = ["heads", "bodies", "legs"];
// Original art: an emoji per animal (the part of the row is shown by clipping it) and a colour.
const ANIMALS = {
  frog: ["🐸", "#5fa84a"], dragon: ["🐉", "#2f8f7f"], monkey: ["🐒", "#a0673a"],
  cockatoo: ["🦜", "#e0b92a"], pig: ["🐖", "#ee8fa8"], turtle: ["🐢", "#6f8f2f"],
  dog: ["🐕", "#c08a56"], zebra: ["🦓", "#7d7d85"], cat: ["🐈", "#e58a2e"],
  horse: ["🐎", "#8a5530"], ghost: ["👻", "#9aa7b8"],
};
const HINTS = "tiergarten.mucca.hints";  // {tableId: false} for tables with hints switched off

const name = (animal) => t(`mucca.animal.${animal}`);
const emoji = (animal) => ANIMALS[animal]?.[0] ?? "❔";
const colour = (animal) => ANIMALS[animal]?.[1] ?? "#777";

function hintsOn(tableId) {
  try { return (JSON.parse(localStorage.getItem(HINTS)) || {})[tableId] !== false; } catch { return true; }
}

function setHints(tableId, on) {
  let all = {};
  try { all = JSON.parse(localStorage.getItem(HINTS)) || {}; } catch { /* start afresh */ }
  if (on) delete all[tableId]; else all[tableId] = false;
  localStorage.setItem(HINTS, JSON.stringify(all));
}

// "slide bodies left" -> "Bodies ◀", in words for people.
function actionText(notation) {
  const [verb, a, b] = notation.split(" ");
  if (verb === "slide") return t("mucca.act.slide", { row: t(`mucca.row.${a}`), part: a, dir: t(`mucca.dir.${b}`) });
  if (verb === "reveal") return t("mucca.act.reveal", { k: a });
  return t("mucca.act.stop");
}

// A refusal's animal cards in words.
export function refusalWords(params) {
  return typeof params.card === "string" ? { ...params, card: name(params.card) } : params;
}

export function describe(event, names) {
  const who = names[event.seat] ?? "";
  switch (event.act) {
    case "slide": return t(event.star ? "mucca.log.slide_star" : "mucca.log.slide",
      { name: who, row: t(`mucca.row.${event.row}`), part: event.row, dir: t(`mucca.dir.${event.direction}`) });
    case "stop": return t("mucca.log.stop", { name: who });
    case "reveal": return t("mucca.log.reveal", { name: who, k: event.position, card: name(event.card) });
    case "back": return t("mucca.log.back", { name: who, k: event.position, card: name(event.card) });
    case "take": return t("mucca.log.take", { name: who, card: name(event.card) });
    case "fail": return t("mucca.log.fail", { name: who, card: name(event.card) });
    case "last": return t("mucca.log.last", { name: who, card: name(event.card) });
    case "score": return t("mucca.log.score", { name: who, cards: Object.entries(event.cards)
      .map(([a, n]) => (n > 1 ? `${n} × ${name(a)}` : name(a))).join(", ") });
    case "refill": return t("mucca.log.refill", { cards: event.cards.map(name).join(", ") });
    case "final": return t("mucca.log.final", { name: who });
    case "over": return t("mucca.log.over");
    default: return null;
  }
}

// The move log's line where another player's turn starts (at that player's first move).
const MOVES = new Set(["slide", "reveal", "stop"]);
export function separator(entry, _prev, names, before) {
  if (!MOVES.has(entry.act)) return null;
  const last = before.findLast((e) => MOVES.has(e.act));
  return !last || last.seat !== entry.seat ? t("mucca.log.turn", { name: names[entry.seat] ?? "" }) : null;
}

// One tile: the whole animal faint, its row's part (top, middle or bottom third) bright on a
// band of its own, so the row's part shows at a glance; its name may wrap, never cut.
function tile(animal, part, glow, extra = "") {
  return h(`div.mp-tile${glow ? ".complete" : ""}${extra}`, { dataset: { animal, part }, style: `--c: ${colour(animal)}`,
    title: t("mucca.tile", { animal: name(animal), part }) },
  h(`span.mp-pic.${part}`, { "aria-hidden": "true" }, h("span.mp-emoji.faint", {}, emoji(animal)), h(`span.mp-emoji.part.${part}`, {}, emoji(animal))),
  h("span.mp-name", { "aria-hidden": "true" }, breakable(name(animal))),
  h("span.sr-only", {}, t("mucca.tile", { animal: name(animal), part })));
}

// A small face-up card (landing place, won cards, grid).
export function card(animal, extra = "", title = null) {
  return h(`div.mp-card${extra}`, { dataset: { animal }, style: `--c: ${colour(animal)}`, title },
    h("span.mp-card-pic", { "aria-hidden": "true" }, emoji(animal)), h("span.mp-card-name", {}, breakable(name(animal))));
}

function rotated(row, by) {
  const n = row.length;
  return row.map((_, i) => row[(i + by + n) % n]);
}

// How the row moved since the last observation this seat saw: "left", "right" or null.
function slidOf(prev, now) {
  if (!prev || !now || prev.length !== now.length || prev.join() === now.join()) return null;
  if (rotated(prev, 1).join() === now.join()) return "left";
  if (rotated(prev, -1).join() === now.join()) return "right";
  return null;
}

export function render(ctx) {
  const { obs, legal, seat, ui } = ctx;
  const tableId = ctx.table?.id;
  const junior = obs.variant === "junior";
  const myTurn = seat !== null && legal.length > 0;
  if (ui.hint && ui.hint.version !== ctx.version) ui.hint = null;
  const hinted = ui.hint?.hint;
  const act = (notation) => { ui.hint = null; ctx.act(notation); };

  // -- the three rows ------------------------------------------------------------------------
  const complete = new Set(obs.complete);
  const rows = h("div.mp-rows", { role: "group", "aria-label": t("mucca.board") }, ROWS.map((row) => {
    const tiles = obs.board[row];
    const left = `slide ${row} left`;
    const right = `slide ${row} right`;
    const slid = ctx.prev && ctx.prev.board ? slidOf(ctx.prev.board[row], tiles) : null;
    const arrow = (dir, notation, symbol) => h(`button.mp-arrow.${dir}${hinted === notation ? ".hinted" : ""}`, {
      type: "button", disabled: !legal.includes(notation), dataset: { act: notation },
      "aria-label": actionText(notation), onclick: () => act(notation) }, symbol);
    // The tile that fell off one end comes back at the other: while the row moves, a copy of it
    // leaves by the end it fell off, as the tile itself comes in at the other end.
    const wrapped = slid === "left" ? tiles[tiles.length - 1] : slid === "right" ? tiles[0] : null;
    const ghost = wrapped ? tile(wrapped, row, false, `.mp-ghost.${slid}`) : null;
    if (ghost) ghost.setAttribute("aria-hidden", "true");
    const track = h(`div.mp-track${slid ? `.slid-${slid}.v${ctx.version % 2}` : ""}`, { style: `--n: ${tiles.length}` },
      tiles.map((animal) => tile(animal, row, complete.has(animal))), ghost);
    const wrap = h(`div.mp-track-wrap${legal.includes(left) ? ".draggable" : ""}`,
      dragHandlers(legal.includes(left) ? left : null, legal.includes(right) ? right : null, act), track);
    return h("div.mp-row", { dataset: { row, tiles: tiles.join(" ") }, role: "group", "aria-label": t(`mucca.row_of.${row}`) },
      h("span.mp-row-caption", { "aria-hidden": "true" }, t(`mucca.row_of.${row}`)),
      arrow("left", left, "◀"), wrap, arrow("right", right, "▶"));
  }));

  // -- players: stars and cards --------------------------------------------------------------
  const players = h("div.mp-players", {}, [...Array(obs.players).keys()].map((s) => h(
    `div.mp-player${obs.to_move.includes(s) && !obs.over ? ".to-move" : ""}${s === seat ? ".me" : ""}`, { dataset: { seat: s } },
    h("div.mp-player-name", {}, ctx.names[s] ?? t("mucca.seat", { n: s + 1 })),
    h("div.mp-player-facts", {},
      obs.stars ? h("span.mp-stars", { title: t("mucca.stars", { n: obs.stars[s] }) }, "★".repeat(obs.stars[s]) || "–",
        h("span.sr-only", {}, ` ${t("mucca.stars", { n: obs.stars[s] })}`)) : null,
      h("span.mp-cards", {}, t("mucca.cards", { n: obs.cards[s] }))),
    h("div.mp-won", {}, obs.won[s].map((a) => h("span.mp-chip", { title: name(a), style: `--c: ${colour(a)}` }, emoji(a)))))));

  // -- whose turn, what to do ----------------------------------------------------------------
  let line;
  if (obs.over) line = t("table.game_over");
  else if (!myTurn) line = t("table.waiting_for", { name: obs.to_move.map((s) => ctx.names[s]).join(", ") });
  else if (junior && obs.phase === "reveal") line = t("mucca.turn.reveal");
  else if (junior) line = t("mucca.turn.complete", { card: name(obs.target), n: obs.slides_left });
  else if (obs.slides_left > 0) line = t("mucca.turn.slides", { n: obs.slides_left });
  else line = t("mucca.turn.stars", { n: obs.stars[seat] });
  const turnLine = h("p.turn-line.mp-turn", {}, line,
    !obs.over && !junior ? h("span.mp-slides", {}, ` · ${t("mucca.slides_left", { n: obs.slides_left })}`) : null);

  // -- stop, hint and the hint switch --------------------------------------------------------
  const tableHints = ctx.table?.hints !== false;  // the table's creator may switch hints off
  const hintsAllowed = seat !== null && tableId && tableHints && hintsOn(tableId);
  async function askHint() {
    const entry = tokensFor(tableId).find((e) => e.seat === seat);
    if (!entry) return;
    ui.hintError = null;
    try {
      const data = await api.hint(tableId, entry.token);
      ui.hint = { ...data, version: ctx.version };
    } catch (err) {
      ui.hintError = err.message;
    }
    ctx.refresh();
  }
  const actions = h("div.actions.mp-actions", {},
    legal.includes("stop") ? h(`button.action.stop${hinted === "stop" ? ".hinted" : ""}`, { type: "button", dataset: { act: "stop" },
      onclick: () => act("stop") }, t("mucca.stop")) : null,
    hintsAllowed && myTurn ? h("button.mp-hint-button", { type: "button", onclick: askHint }, `💡 ${t("mucca.hint")}`) : null,
    seat !== null && tableId && tableHints && !obs.over ? h("label.mp-hint-switch", {},
      h("input", { type: "checkbox", checked: hintsOn(tableId), onchange: (e) => {
        setHints(tableId, e.target.checked);
        ui.hint = null;
        ctx.refresh();
      } }), ` ${t("mucca.hints_on")}`) : null);
  const hintBox = hintsAllowed && ui.hint ? h("p.mp-hint", { role: "status", dataset: { hint: ui.hint.hint } },
    h("strong", {}, `${t("mucca.hint")}: ${actionText(ui.hint.hint)}`), " — ", whyText(ui.hint))
    : hintsAllowed && ui.hintError ? h("p.mp-hint.error", { role: "status" }, ui.hintError) : null;

  // -- standard: landing place; junior: the grid ---------------------------------------------
  const side = junior ? gridPanel(obs, legal, hinted, act) : landingPanel(obs, complete);

  return h(`div.mucca${junior ? ".junior" : ".standard"}`, {}, players, turnLine, rows, actions, hintBox, side);
}

function whyText(hint) {
  const p = { ...(hint.params || {}) };
  if (Array.isArray(p.animals)) p.animals = p.animals.map(name).join(", ");
  for (const key of ["animal", "card"]) if (p[key]) p[key] = name(p[key]);
  return t(`mucca.why.${hint.reason}`, p);
}

function landingPanel(obs, complete) {
  return h("section.mp-landing", { "aria-label": t("mucca.landing") },
    h("h3", {}, t("mucca.landing")),
    // A card glows while its animal stands whole. That is never in the middle of a turn (a
    // completion ends it); a new turn's first slide breaks the animal, and remaking it wins.
    h("div.mp-landing-cards", {}, obs.landing.map((a) => (complete.has(a)
      ? card(a, ".complete", `${name(a)}: ${t("mucca.whole_card")}`) : card(a)))),
    h("p.mp-pile", {}, t("mucca.pile", { n: obs.pile_size }),
      obs.final_round !== null && obs.final_round !== undefined ? h("strong.mp-final", {}, ` · ${t("mucca.final_round", { n: obs.final_round })}`) : null));
}

function gridPanel(obs, legal, hinted, act) {
  const target = obs.target && !obs.over ? h("div.mp-target", {},
    h("span", {}, t("mucca.target")), card(obs.target, ".target"),
    obs.target === "ghost" ? h("span.mp-targets", {}, t("mucca.ghost_targets", { animals: (obs.targets || []).map(name).join(", ") })) : null)
    : null;
  const grid = h("div.mp-grid", { role: "group", "aria-label": t("mucca.grid") }, obs.grid.map((value, i) => {
    const k = i + 1;
    const notation = `reveal ${k}`;
    if (value === "taken") return h("div.mp-slot.taken", { dataset: { k } }, h("span.sr-only", {}, t("mucca.taken")));
    if (value !== null) return h(`div.mp-slot.up${obs.target && value === obs.target ? ".target" : ""}`, { dataset: { k } }, card(value));
    const back = (obs.turned_back || []).includes(k);
    const attrs = { type: "button", dataset: { k, act: notation }, disabled: !legal.includes(notation),
      "aria-label": t("mucca.reveal_k", { k }), onclick: () => act(notation) };
    return h(`button.mp-slot.down${legal.includes(notation) ? ".legal" : ""}${back ? ".turned-back" : ""}${hinted === notation ? ".hinted" : ""}`, attrs,
      h("span.mp-k", {}, String(k)), back ? h("span.mp-back-note", {}, t("mucca.turned_back")) : null);
  }));
  return h("section.mp-grid-panel", {}, target, grid,
    h("p.mp-pile", {}, t("mucca.face_down", { n: obs.pile_size })));
}

// Drag a row sideways: the tiles follow the pointer; past half a tile the slide is sent. The
// handlers are attributes (table.js morphs a new render onto the elements on screen), so they
// work on the element the event reached and keep the drag's state on it.
function dragHandlers(left, right, act) {
  if (!left && !right) return {};
  const trackOf = (wrap) => wrap.firstElementChild;
  const tileWidth = (wrap) => trackOf(wrap)?.firstElementChild?.getBoundingClientRect().width || 40;
  const end = (e, cancelled) => {
    const wrap = e.currentTarget;
    const drag = wrap.__drag;
    if (!drag || e.pointerId !== drag.id) return;
    wrap.__drag = null;
    const track = trackOf(wrap);
    track.classList.remove("dragging");
    const w = tileWidth(wrap);
    const notation = cancelled ? null : drag.dx > w / 2 ? right : drag.dx < -w / 2 ? left : null;
    if (notation) {
      track.classList.add("sent");
      act(notation);
    } else {
      track.style.transform = "";
    }
  };
  return {
    onpointerdown: (e) => {
      if (e.button > 0) return;
      const wrap = e.currentTarget;
      wrap.__drag = { x: e.clientX, id: e.pointerId, dx: 0 };
      wrap.setPointerCapture?.(e.pointerId);
      trackOf(wrap).classList.add("dragging");
    },
    onpointermove: (e) => {
      const wrap = e.currentTarget;
      const drag = wrap.__drag;
      if (!drag || e.pointerId !== drag.id) return;
      const w = tileWidth(wrap);
      drag.dx = Math.max(-1.2 * w, Math.min(1.2 * w, e.clientX - drag.x));
      trackOf(wrap).style.transform = `translateX(${drag.dx}px)`;
    },
    onpointerup: (e) => end(e, false),
    onpointercancel: (e) => end(e, true),
  };
}

// The replay's "every hand": the cards this seat has won, and its stars.
export function handOf(obs) {
  const s = obs.seat ?? 0;
  return h("div.mp-hand", {},
    obs.stars ? h("span.mp-stars", {}, "★".repeat(obs.stars[s]) || "–") : null,
    h("span.mp-cards", {}, t("mucca.cards", { n: obs.cards[s] })),
    (obs.won[s] || []).map((a) => h("span.mp-chip", { title: name(a), style: `--c: ${colour(a)}` }, emoji(a))));
}
