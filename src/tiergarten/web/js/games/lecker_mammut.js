// Lecker Mammut!: the middle and the prize piles drawn big; a flip button (space), the club
// (a key per person at this screen) and then the call of an animal (1–7) or a colour (Q–U).
// Each colour also has its own shape and name on the card, so no card depends on colour vision.
import { h, svg } from "../dom.js";
import { t } from "../i18n.js";

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

export function card(code, big = true) {
  const [colour, animal] = code.split("-");
  const [paint, shape] = PAINT[colour];
  const ink = colour === "yellow" ? "#222" : "#fff";
  const label = t("lm.card", { colour: t(`lm.colour.${colour}`), animal: t(`lm.animal.${animal}`) });
  return svg(`<svg class="lm-card${big ? "" : " small"}" viewBox="0 0 80 110" role="img" aria-label="${label}" data-card="${code}">
    <rect x="1" y="1" width="78" height="108" rx="8" fill="${paint}" stroke="#222" stroke-width="2"/>
    <circle cx="40" cy="52" r="27" fill="#fffdf7"/>
    <text x="40" y="63" font-size="30" text-anchor="middle" font-family="Noto Color Emoji, sans-serif">${EMOJI[animal]}</text>
    <text x="8" y="18" font-size="15" fill="${ink}">${shape}</text>
    <text x="72" y="18" font-size="15" fill="${ink}" text-anchor="end">${shape}</text>
    <text x="40" y="96" font-size="11" font-weight="700" text-anchor="middle" fill="${ink}">${t(`lm.animal.${animal}`)}</text>
    <text x="40" y="106" font-size="8" text-anchor="middle" fill="${ink}">${t(`lm.colour.${colour}`)}</text></svg>`);
}

export function describe(event, names) {
  const who = names[event.seat] ?? "";
  const feature = (f) => (ANIMALS.includes(f) ? t(`lm.animal.${f}`) : t(`lm.colour.${f}`));
  switch (event.act) {
    case "deal": return t("lm.log.deal", { round: event.round, name: names[event.starter] });
    case "flip": return t("lm.log.flip", { name: who, card: cardName(event.card) });
    case "hit": return t("lm.log.hit", { name: who, feature: feature(event.feature), n: event.cards.length });
    case "mistake": return t("lm.log.mistake", { name: who, feature: feature(event.feature), showing: event.showing });
    case "top": return t("lm.log.top", { name: who, card: cardName(event.card), size: event.size });
    case "pass": return t("lm.log.pass", { name: who });
    case "timer": return t("lm.log.timer");
    case "return": return t("lm.log.return", { name: who, size: event.size });
    case "round_over": return t("lm.log.round_over", { round: event.round });
    default: return null;
  }
}

function cardName(code) {
  const [colour, animal] = code.split("-");
  return t("lm.card", { colour: t(`lm.colour.${colour}`), animal: t(`lm.animal.${animal}`) });
}

// The people this browser seats who may hit now (one for an ordinary table, several hot-seat).
function hitters(ctx) {
  return (ctx.locals || []).filter((l) => l.legal.some((a) => a.startsWith("hit ")));
}

function hit(ctx, local, feature) {
  ctx.ui.calling = null;
  local.act(`hit ${feature} @${ctx.obs.version}`);
}

export function onKey(event, ctx) {
  if (event.target.closest("input, select, textarea")) return false;
  const { ui } = ctx;
  const locals = ctx.locals || [];
  if (ui.calling !== null && ui.calling !== undefined) {
    const local = locals.find((l) => l.seat === ui.calling);
    const animal = ANIMAL_KEYS.indexOf(event.key);
    const colour = COLOUR_CODES.indexOf(event.code);
    if (event.key === "Escape") ui.calling = null;
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
    ui.calling = local.seat;
    ctx.refresh();
    return true;
  }
  return false;
}

export function render(ctx) {
  const { obs, ui } = ctx;
  const locals = ctx.locals || [];
  const mine = new Set(locals.map((l) => l.seat));
  if (ui.calling !== null && ui.calling !== undefined && !hitters(ctx).some((l) => l.seat === ui.calling)) ui.calling = null;

  const seats = h("div.lm-seats", {}, [...Array(obs.players).keys()].map((s) => h(`div.lm-seat${obs.flipper === s ? ".flipper" : ""}${mine.has(s) ? ".mine" : ""}`, { dataset: { seat: s } },
    h("div.name", {}, ctx.names[s], obs.flipper === s ? h("span.badge", {}, t("lm.flipper")) : null),
    h("div.lm-facts", {},
      h("span", { title: t("lm.face_down") }, `🂠 ${obs.face_down[s]}`),
      h("span", { title: t("lm.penalties") }, `⚠ ${obs.penalties[s]}`),
      h("span", { title: t("lm.score") }, `★ ${obs.scores[s]}`)),
    h("div.lm-prizes", {}, obs.prize_piles[s].map((pile) => h("div.lm-prize", {}, card(pile.top, false), h("span.lm-size", {}, pile.size)))))));

  const middle = h("div.lm-middle", { "aria-label": t("lm.middle") },
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
        onclick: () => { ui.calling = ui.calling === local.seat ? null : local.seat; ctx.refresh(); } },
      "🦴 ", t("lm.club"), who, h("kbd", {}, key)));
    }
    if (local.legal.includes("pass")) {
      controls.append(h("button.action", { type: "button", dataset: { act: "pass", seat: local.seat }, onclick: () => local.act("pass") }, t("lm.pass"), who));
    }
  }

  const calling = locals.find((l) => l.seat === ui.calling);
  const call = calling ? h("div.lm-call", { role: "dialog", "aria-label": t("lm.call") },
    h("p", {}, t("lm.call_who", { name: ctx.names[calling.seat] })),
    h("div.lm-features", {}, ANIMALS.map((a, i) => h("button.lm-feature", { type: "button", dataset: { feature: a }, onclick: () => { hit(ctx, calling, a); ctx.refresh(); } },
      h("span.emoji", {}, EMOJI[a]), t(`lm.animal.${a}`), h("kbd", {}, ANIMAL_KEYS[i])))),
    h("div.lm-features", {}, COLOURS.map((c, i) => h("button.lm-feature", { type: "button", dataset: { feature: c },
      style: `border-color:${PAINT[c][0]}`, onclick: () => { hit(ctx, calling, c); ctx.refresh(); } },
    h("span.swatch", { style: `background:${PAINT[c][0]}` }, PAINT[c][1]), t(`lm.colour.${c}`), h("kbd", {}, COLOUR_KEYS[i])))),
    h("button.link", { type: "button", onclick: () => { ui.calling = null; ctx.refresh(); } }, t("table.cancel"), " ", h("kbd", {}, "Esc"))) : null;

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
            pile ? card(pile.top, false) : a, pile ? h("span.lm-size", {}, pile.size) : null);
        }))));
    }
  }

  return h("div.lecker-mammut", {},
    h("p.turn-line", {}, obs.over ? t("table.game_over") : t("lm.round", { round: obs.round, rounds: obs.rounds })),
    roundSummary(ctx), seats, middle, call, ...choices, controls);
}

// Between rounds: the round's points, penalties and the piles given back, until the first flip.
function roundSummary(ctx) {
  const log = ctx.obs.log || [];
  const end = log.map((e) => e.act).lastIndexOf("round_over");
  if (end < 0 || log.slice(end).some((e) => e.act === "flip")) return null;
  const over = log[end];
  const start = log.slice(0, end).map((e) => e.act).lastIndexOf("deal");
  const returns = log.slice(start + 1, end).filter((e) => e.act === "return");
  return h("section.lm-summary", {},
    h("h2", {}, t("lm.round_over", { round: over.round })),
    h("table", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("lm.points")), h("th", {}, t("lm.penalties"))),
      over.points.map((p, s) => h("tr", {}, h("td", {}, ctx.names[s]), h("td", {}, p), h("td", {}, over.penalties[s])))),
    returns.length ? h("ul", {}, returns.map((r) => h("li", {}, t("lm.log.return", { name: ctx.names[r.seat], size: r.size })))) : h("p", {}, t("lm.no_returns")));
}

export function handOf(obs) {
  return h("div.lm-prizes", {}, (obs.prize_piles?.[obs.seat] || []).map((pile) => h("div.lm-prize", {}, card(pile.top, false), h("span.lm-size", {}, pile.size))));
}
