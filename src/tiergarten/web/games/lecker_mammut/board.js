// Lecker Mammut!: the middle and the prize piles drawn big; a flip button (space), the club
// (a key per person at this screen) and then the call of an animal (1–7) or a colour (Q–U).
// The club is the moment of the hit, as in the real game: pressing it tells the server at once
// (a `press`, credited like any act), and the call that follows counts from that moment and on
// the table seen then. The call dialog closes by itself when the table changes under it.
// Each colour also has its own shape and name on the card, so no card depends on colour vision.
import { h, svg, toast } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { fitLabel } from "../../js/labels.js";
import { play } from "../../js/sound.js";
import { sounds } from "./feedback.js";

// Where the lobby lists this game (the easiest first), and the parameters of its refusals
// that name seats (the table shows them as the players' names).
// its sounds and motions (docs/web.md, "Sound and motion")
export { sounds, soundOf, flights } from "./feedback.js";
export const playOrder = 3;
export const seatParams = ["flipper", "waiting"];

export const realTime = true;

export const ANIMALS = ["bear", "boar", "tiger", "sloth", "deer", "mammoth", "rhino"];
export const COLOURS = ["red", "orange", "yellow", "green", "blue", "purple", "pink"];
const EMOJI = { bear: "🐻", boar: "🐗", tiger: "🐯", sloth: "🦥", deer: "🦌", mammoth: "🦣", rhino: "🦏" };
const PAINT = { red: ["#d32f2f", "●"], orange: ["#ef6c00", "▲"], yellow: ["#f9c80e", "★"],
  green: ["#2e7d32", "✚"], blue: ["#1565c0", "◆"], purple: ["#6a1b9a", "■"], pink: ["#e75a9b", "♥"] };
const ANIMAL_KEYS = ["1", "2", "3", "4", "5", "6", "7"];
const COLOUR_KEYS = ["Q", "W", "E", "R", "T", "Y", "U"];            // by position: event.code KeyQ…
const COLOUR_CODES = ["KeyQ", "KeyW", "KeyE", "KeyR", "KeyT", "KeyY", "KeyU"];
const CLUB_KEYS = ["A", "L", "V", "M", "S", "K"];                   // hot-seat: one per person

const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

// A card's words: the catalogue agrees the colour with the animal's grammatical gender
// ("roter Höhlenbär", "rotes Wildschwein"); `hue`, `beast` (the codes) and `gender` let a
// message choose its article ("an orange …", "uno smilodonte …").
export function cardWords(code) {
  const [colour, animal] = String(code).split("-");
  const gender = t(`lm.gender.${animal}`);
  const card = t("lm.card", { colour: t(`lm.colour_of.${colour}`, { gender }), animal: t(`lm.animal.${animal}`) });
  return { card, hue: colour, beast: animal, gender };
}

export function card(code, big = true, label = null) {
  const [colour, animal] = code.split("-");
  const [paint, shape] = PAINT[colour];
  const ink = colour === "yellow" ? "#222" : "#fff";
  return svg(`<svg class="lm-card${big ? "" : " small"}" viewBox="0 0 80 110" role="img" aria-label="${escape(label ?? cardWords(code).card)}" data-card="${code}">
    <rect x="1" y="1" width="78" height="108" rx="8" fill="${paint}" stroke="#222" stroke-width="2"/>
    <circle cx="40" cy="52" r="27" fill="#fffdf7"/>
    <text x="40" y="63" font-size="30" text-anchor="middle" font-family="Noto Color Emoji, sans-serif">${EMOJI[animal]}</text>
    <text x="8" y="18" font-size="15" fill="${ink}">${shape}</text>
    <text x="72" y="18" font-size="15" fill="${ink}" text-anchor="end">${shape}</text>
    ${fitLabel(t(`lm.animal.${animal}`), { x: 40, y: 89.5, width: 72, height: 19, size: 11, min: 7, weight: 700, fill: ink })}
    ${fitLabel(t(`lm.colour.${colour}`), { x: 40, y: 104.5, width: 72, height: 10, size: 8, min: 6, lines: 1, fill: ink })}</svg>`);
}

const featureName = (f) => (ANIMALS.includes(f) ? t(`lm.animal.${f}`) : t(`lm.colour.${f}`));

export function describe(event, names) {
  const who = names[event.seat] ?? "";
  const feature = featureName;
  const kind = (f) => (ANIMALS.includes(f) ? "animal" : "colour");
  switch (event.act) {
    case "deal": return t("lm.log.deal", { round: event.round, name: names[event.starter] });
    case "flip": return t("lm.log.flip", { name: who, ...cardWords(event.card) });
    case "hit": return t("lm.log.hit", { name: who, feature: feature(event.feature), kind: kind(event.feature), n: event.cards.length });
    case "mistake": {
      const words = { name: who, feature: feature(event.feature), kind: kind(event.feature), showing: event.showing };
      return event.penalty_card === false ? t("lm.log.mistake_no_card", words) : t("lm.log.mistake", words);
    }
    case "miss": return t(event.penalty_card === false ? "lm.log.miss_no_card" : "lm.log.miss", { name: who });
    case "top": return t("lm.log.top", { name: who, ...cardWords(event.card), size: event.size });
    case "pass": return t("lm.log.pass", { name: who });
    case "timer": return t("lm.log.timer");
    case "return": return t("lm.log.return", { name: who, size: event.size });
    case "round_over": return t("lm.log.round_over", { round: event.round });
    default: return null;
  }
}

// The move log's line before each deal.
export function separator(entry) {
  return entry.act === "deal" ? t("lm.log.round_start", { round: entry.round }) : null;
}

// The people this browser seats who may hit now (one for an ordinary table, several hot-seat).
function hitters(ctx) {
  return (ctx.locals || []).filter((l) => l.legal.some((a) => a.startsWith("hit ")));
}

const calling = (ui) => ui.calling !== null && ui.calling !== undefined;

// The club: the moment of the hit. The server hears of it at once; the call that follows is
// judged on the table seen now (its version is fixed here), however long the call takes.
function press(ctx, local) {
  const { ui } = ctx;
  if (calling(ui)) return;  // one call at a time at this screen
  ui.calling = local.seat;
  ui.pressed = { version: ctx.version, game: ctx.obs.version };
  local.press?.(ctx.version);
  play("thwack", sounds.thwack);  // the club's sound at the press itself, not when the hit is told
  const window = (local.callWindow ?? 3) * 1000;
  clearTimeout(ui.expiry);
  ui.expiry = setTimeout(() => { if (ui.pressed) { close(ctx, true); ctx.refresh(); } }, window);
}

// Close the call dialog; `withdraw`: tell the server the press will not be followed by a call.
function close(ctx, withdraw) {
  const { ui } = ctx;
  const local = (ctx.locals || []).find((l) => l.seat === ui.calling);
  if (withdraw && ui.pressed) local?.unpress?.(ui.pressed.version);
  clearTimeout(ui.expiry);
  ui.calling = null;
  ui.pressed = null;
}

function hit(ctx, local, feature) {
  const { pressed } = ctx.ui;
  close(ctx, false);
  if (pressed) local.act(`hit ${feature} @${pressed.game}`, pressed.version);
}

// The table changed under an open call. The press stands (rules 3: it is a commitment, judged
// on the table as it is when the call comes) unless someone else's good hit came first (the call
// would be void: the dialog closes and says so) or the press was judged by itself (a `miss`:
// nothing to call was in sight, or the call came too late).
function closeIfChanged(ctx) {
  const { ui } = ctx;
  if (!calling(ui)) return;
  const events = ctx.events || [];
  const stillHitting = hitters(ctx).some((l) => l.seat === ui.calling);
  const beaten = events.some((e) => e.act === "hit" && e.seat !== ui.calling);
  const missed = events.some((e) => e.act === "miss" && e.seat === ui.calling);
  if (stillHitting && !beaten && !missed) return;
  close(ctx, !missed);
  if (missed) toast(t("lm.missed"), "error");
  else if (beaten) toast(t("error.code.void"), "info");
}

export function onKey(event, ctx) {
  if (event.target.closest("input, select, textarea")) return false;
  const { ui } = ctx;
  const locals = ctx.locals || [];
  if (calling(ui)) {
    const local = locals.find((l) => l.seat === ui.calling);
    const animal = ANIMAL_KEYS.indexOf(event.key);
    const colour = COLOUR_CODES.indexOf(event.code);
    if (event.key === "Escape") close(ctx, true);
    else if (local && animal >= 0) hit(ctx, local, ANIMALS[animal]);
    else if (local && colour >= 0) hit(ctx, local, COLOURS[colour]);
    else return false;
    ctx.refresh();
    return true;
  }
  if (event.code === "Space") {
    const flipper = locals.find((l) => l.legal.includes("flip"));
    if (flipper) { flipper.act("flip"); return true; }
    return false;
  }
  const key = event.key.toUpperCase();
  const index = locals.length > 1 ? CLUB_KEYS.indexOf(key) : (key === "H" || key === "ENTER" ? 0 : -1);
  const local = locals[index];
  if (local && local.legal.some((a) => a.startsWith("hit "))) {
    press(ctx, local);
    ctx.refresh();
    return true;
  }
  return false;
}

export function render(ctx) {
  const { obs, ui } = ctx;
  const locals = ctx.locals || [];
  const mine = new Set(locals.map((l) => l.seat));
  closeIfChanged(ctx);
  noteOops(ctx);
  const oops = ui.oops;

  const seats = h("div.lm-seats", {}, [...Array(obs.players).keys()].map((s) => h(`div.lm-seat${obs.flipper === s ? ".flipper" : ""}${mine.has(s) ? ".mine" : ""}`, { dataset: { seat: s } },
    h("div.name", {}, ctx.names[s], obs.flipper === s ? h("span.badge", {}, t("lm.flipper")) : null),
    h("div.lm-facts", {},
      h("span", { title: t("lm.face_down") }, `🂠 ${obs.face_down[s]}`),
      h(`span${oops?.event.seat === s ? ".lm-fresh" : ""}`, { title: t("lm.penalty_cards") }, `⚠ ${obs.penalty_cards[s]}`),
      h("span", { title: t("lm.score") }, `★ ${obs.scores[s]}`)),
    prizes(obs.prize_piles[s], ctx.names[s]),
    oops?.event.seat === s && oops.event.penalty_card !== false ? penaltyCard() : null)));

  const middle = h("div.lm-middle", { role: "group", "aria-label": t("lm.middle") },
    obs.middle.length ? obs.middle.map((c, i) => h(`div.lm-slot${ctx.prev && i >= (ctx.prev.middle?.length ?? 0) ? ".land" : ""}`, {}, card(c)))
      : h("p.muted", {}, t("lm.middle_empty")));

  const controls = h("div.lm-controls", {});
  for (const local of locals) {
    const who = locals.length > 1 ? ` — ${ctx.names[local.seat]}` : "";
    if (local.legal.includes("flip")) {
      controls.append(h("button.lm-flip", { type: "button", dataset: { act: "flip", seat: local.seat }, onclick: () => local.act("flip") },
        t("lm.flip"), who, h("kbd", {}, t("lm.key_space"))));
    }
    if (local.legal.some((a) => a.startsWith("hit "))) {
      const key = locals.length > 1 ? CLUB_KEYS[locals.indexOf(local)] : "H";
      controls.append(h(`button.lm-club${ui.calling === local.seat ? ".on" : ""}`, { type: "button", dataset: { seat: local.seat },
        "aria-pressed": String(ui.calling === local.seat),
        onclick: () => { if (ui.calling === local.seat) close(ctx, true); else press(ctx, local); ctx.refresh(); } },
      "🦴 ", t("lm.club"), who, h("kbd", {}, key)));
    }
    if (local.legal.includes("pass")) {
      controls.append(h("button.action", { type: "button", dataset: { act: "pass", seat: local.seat }, onclick: () => local.act("pass") }, t("lm.pass"), who));
    }
  }

  const caller = locals.find((l) => l.seat === ui.calling);
  const call = caller ? h("div.lm-call", { role: "dialog", "aria-label": t("lm.call") },
    h("p", {}, t("lm.call_who", { name: ctx.names[caller.seat] })),
    h("div.lm-features", {}, ANIMALS.map((a, i) => h("button.lm-feature", { type: "button", dataset: { feature: a }, onclick: () => { hit(ctx, caller, a); ctx.refresh(); } },
      h("span.emoji", {}, EMOJI[a]), t(`lm.animal.${a}`), h("kbd", {}, ANIMAL_KEYS[i])))),
    h("div.lm-features", {}, COLOURS.map((c, i) => h("button.lm-feature", { type: "button", dataset: { feature: c },
      style: `border-color:${PAINT[c][0]}`, onclick: () => { hit(ctx, caller, c); ctx.refresh(); } },
    h("span.swatch", { style: `background:${PAINT[c][0]}` }, PAINT[c][1]), t(`lm.colour.${c}`), h("kbd", {}, COLOUR_KEYS[i])))),
    h("button.link", { type: "button", dataset: { dialogClose: "" }, onclick: () => { close(ctx, true); ctx.refresh(); } }, t("table.cancel"), " ", h("kbd", {}, "Esc"))) : null;

  const choices = [];
  for (const local of locals) {
    const tops = local.legal.filter((a) => a.startsWith("top "));
    if (tops.length) {
      choices.push(h("div.lm-choose", {}, h("p", {}, t("lm.choose_top", { name: ctx.names[local.seat] })),
        h("div.lm-row", {}, tops.map((a) => h("button.lm-pick", { type: "button", dataset: { act: a }, onclick: () => local.act(a) }, card(a.slice(4), false))))));
    }
    const returns = local.legal.filter((a) => a.startsWith("return "));
    if (returns.length) {
      const piles = obs.prize_piles[local.seat];
      choices.push(h("div.lm-choose", {}, h("p", {}, t("lm.choose_return", { name: ctx.names[local.seat] })),
        h("div.lm-row", {}, returns.map((a) => {
          const pile = piles[Number(a.split(" ")[1]) - 1];
          return h("button.lm-pick", { type: "button", dataset: { act: a }, onclick: () => local.act(a) },
            pile ? card(pile.top, false, t("lm.prize_pile", { ...cardWords(pile.top), n: pile.size })) : a,
            pile ? h("span.lm-size", { "aria-hidden": "true" }, pile.size) : null);
        }))));
    }
  }

  return h("div.lecker-mammut", {},
    h("p.turn-line", {}, obs.over ? t("table.game_over") : t("lm.round", { round: obs.round, rounds: obs.rounds })),
    roundSummary(ctx), seats, middle, oopsBanner(ctx), call, ...choices, controls);
}

// Between rounds: the round's points, the penalty cards held (which decided who gave a pile
// back; a round of rules 1 names only its penalties, which decided then) and the piles given
// back, until the first flip.
function roundSummary(ctx) {
  const log = ctx.obs.log || [];
  const end = log.map((e) => e.act).lastIndexOf("round_over");
  if (end < 0 || log.slice(end).some((e) => e.act === "flip")) return null;
  const over = log[end];
  const start = log.slice(0, end).map((e) => e.act).lastIndexOf("deal");
  const returns = log.slice(start + 1, end).filter((e) => e.act === "return");
  const cards = Array.isArray(over.penalty_cards);
  const counted = cards ? over.penalty_cards : over.penalties;
  return h("section.lm-summary", {},
    h("h2", {}, t("lm.round_over", { round: over.round })),
    h("table", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("lm.points")), h("th", {}, cards ? t("lm.penalty_cards") : t("lm.penalties"))),
      over.points.map((p, s) => h("tr", {}, h("td", {}, ctx.names[s]), h("td", {}, p), h("td", {}, counted[s])))),
    returns.length ? h("ul", {}, returns.map((r) => h("li", {}, t("lm.log.return", { name: ctx.names[r.seat], size: r.size })))) : h("p", {}, t("lm.no_returns")));
}

// A seat's prize piles: each its top card and size, named as one thing.
function prizes(piles, owner) {
  return h("div.lm-prizes", { role: "group", "aria-label": owner ? `${owner}: ${t("lm.prizes_of", { n: piles.length })}` : t("lm.prizes_of", { n: piles.length }) },
    piles.map((pile) => h("div.lm-prize", {}, card(pile.top, false, t("lm.prize_pile", { ...cardWords(pile.top), n: pile.size })),
      h("span.lm-size", { "aria-hidden": "true" }, pile.size))));
}

export function handOf(obs) {
  return prizes(obs.prize_piles?.[obs.seat] || [], null);
}

// A wrong hit of a person at this screen (a `mistake`, or a press with no call: `miss`) is said
// where they look, between the middle and the club, in words, for a few seconds; the penalty
// card flies face down from the middle to their seat (not with reduced motion).
const OOPS_MS = 6000;

function noteOops(ctx) {
  const { ui } = ctx;
  if (ui.oopsVersion === ctx.version) return;  // drawn again: nothing new
  ui.oopsVersion = ctx.version;
  const mine = new Set((ctx.locals || []).map((l) => l.seat));
  const events = ctx.events || [];
  if (ui.oops && events.some((e) => e.seat === ui.oops.event.seat && (e.act === "hit" || e.act === "top"))) ui.oops = null;
  const event = events.find((e) => (e.act === "mistake" || e.act === "miss") && mine.has(e.seat));
  if (!event) return;
  ui.oops = { event };
  clearTimeout(ui.oopsTimer);
  ui.oopsTimer = setTimeout(() => { ui.oops = null; ctx.refresh(); }, OOPS_MS);
}

function oopsBanner(ctx) {
  const oops = ctx.ui.oops;
  if (!oops) return null;
  const e = oops.event;
  const none = e.penalty_card === false;
  const key = e.act === "miss" ? (none ? "lm.oops.miss_no_card" : "lm.oops.miss")
    : (none ? "lm.oops.mistake_no_card" : "lm.oops.mistake");
  let text = t(key, { feature: e.feature ? featureName(e.feature) : "", showing: e.showing ?? 0 });
  if ((ctx.locals || []).length > 1) text = t("lm.oops.who", { name: ctx.names[e.seat], text });
  return h("div.lm-oops", { role: "alert", dataset: { seat: e.seat, act: e.act } },
    h("span.lm-oops-icon", { "aria-hidden": "true" }, "⚠"), h("p", {}, text));
}

function penaltyCard() {
  return h("div.lm-penalty-fly", { role: "img", "aria-label": t("lm.penalty_card_new") },
    svg(`<svg class="lm-card small lm-back" viewBox="0 0 80 110" aria-hidden="true">
    <rect x="1" y="1" width="78" height="108" rx="8" fill="#5a3a1a" stroke="#222" stroke-width="2"/>
    <rect x="8" y="8" width="64" height="94" rx="5" fill="none" stroke="#e0c090" stroke-width="3" stroke-dasharray="6 4"/>
    <text x="40" y="64" font-size="26" text-anchor="middle" font-family="Noto Color Emoji, sans-serif">🦣</text></svg>`));
}
