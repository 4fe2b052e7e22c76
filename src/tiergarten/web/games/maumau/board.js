// Mau Mau: opponents' hands as card backs, stock and discard pile, your hand with the playable
// cards lifted; the Jack's suit chooser and the Mau / Mau Mau / catch buttons appear when they
// matter. Everything comes from this seat's observation and legal actions.
import { h, toast } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { frenchCard, cardBack, handBacks, suitSymbol, suitColour, splitCard, SUIT_ORDER } from "../../js/cards.js";
import { othersInOrder } from "../../js/games.js";

// Where the lobby lists this game (the easiest first), and the parameters of its refusals
// that name seats (the table shows them as the players' names).
// its sounds and motions (docs/web.md, "Sound and motion")
export { sounds, soundOf, flights } from "./feedback.js";
export const playOrder = 1;
export const seatParams = ["turn", "caught"];

// The legal plays of one card: [{notation, suit, say}] ("play Jd s mau" -> suit s, say mau).
function playsOf(legal, card) {
  return legal.filter((a) => a.split(" ")[0] === "play" && a.split(" ")[1] === card).map((a) => {
    const rest = a.split(" ").slice(2);
    return { notation: a, suit: rest.find((w) => SUIT_ORDER.includes(w)) ?? null,
      say: rest.find((w) => w === "mau" || w === "maumau") ?? null };
  });
}

function cardLabel(code) {
  const { rank, suit } = splitCard(code);
  return t("maumau.card", { rank: t(`maumau.rank.${rank}`), suit: t(`maumau.suit.${suit}`) });
}

// A refusal's cards and suits in words (its parameters are notation: "7h", "h").
export function refusalWords(params) {
  const out = { ...params };
  for (const key of ["card", "top"]) if (typeof out[key] === "string") out[key] = cardLabel(out[key]);
  if (typeof out.suit === "string") out.suit = out.suit in { c: 1, d: 1, h: 1, s: 1 } ? t(`maumau.suit.${out.suit}`) : t("maumau.any_suit");
  return out;
}

export function describe(event, names) {
  const who = names[event.seat] ?? "";
  const words = event.act.split(" ");
  if (words[0] === "play") {
    const say = words.includes("maumau") ? ` ${t("maumau.log.maumau")}` : words.includes("mau") ? ` ${t("maumau.log.mau")}` : "";
    const suit = words.length > 2 && SUIT_ORDER.includes(words[2]) ? ` ${t("maumau.wishes", { suit: t(`maumau.suit.${words[2]}`) })}` : "";
    return `${who}: ${t("maumau.log.play", { card: cardLabel(words[1]) })}${suit}${say}`;
  }
  if (event.act === "draw") return `${who}: ${t("maumau.log.draw", { n: event.cards ?? 1 })}`;
  if (event.act === "pass") return `${who}: ${t("maumau.log.pass")}`;
  if (event.act === "catch") return t("maumau.log.catch", { name: who, caught: names[event.caught] ?? "", n: event.cards });
  if (event.act === "stands") return t("maumau.log.stands", { name: who });
  if (event.act === "reshuffle") return t("maumau.log.reshuffle", { n: event.cards });
  if (event.act === "round_over") return t("maumau.log.round_over", { name: who, round: event.round, points: event.points });
  return null;
}

// The move log's line before the first move of each round.
export function separator(entry, prev) {
  if (!prev) return t("maumau.log.round_start", { round: 1 });
  return prev.act === "round_over" ? t("maumau.log.round_start", { round: prev.round + 1 }) : null;
}

export function render(ctx) {
  const { obs, legal, seat, ui } = ctx;
  const me = seat === null || seat === undefined ? null : seat;
  if (ui.version !== ctx.version) { ui.version = ctx.version; ui.chooser = null; }
  const order = othersInOrder(me, obs.players);
  const drawLegal = legal.includes("draw");
  const mustSay = legal.some((a) => a.endsWith(" mau")) ? "mau" : legal.some((a) => a.endsWith(" maumau")) ? "maumau" : null;

  const opponents = h("div.opponents", {}, order.map((s) => h(`div.opponent${obs.to_move.includes(s) ? ".to-move" : ""}`, { dataset: { seat: s } },
    h("div.name", {}, ctx.names[s], obs.turn === s ? h("span.turn-dot", { title: t("table.their_turn") }) : null),
    h("div.backs", {}, handBacks(obs.hand_sizes[s])),
    h("div.count", {}, t("maumau.cards", { n: obs.hand_sizes[s] }), obs.hand_sizes[s] === 1 ? h("span.badge.mau", {}, "Mau!") : null),
    h("div.score", {}, t("maumau.score", { points: obs.scores[s] })))));

  const changedTop = ctx.prev && ctx.prev.top !== obs.top;
  const stock = h(`button.stock${drawLegal ? ".legal" : ""}`, {
    type: "button", disabled: !drawLegal, dataset: { act: "draw" },
    "aria-label": t(drawLegal ? "maumau.stock_draw" : "maumau.stock", { n: obs.stock_size }),
    onclick: () => ctx.act("draw") }, cardBack(), h("span.stock-count", { "aria-hidden": "true" }, obs.stock_size));
  const topCard = h(`div.discard${changedTop ? ".land" : ""}`, { dataset: { top: obs.top }, role: "img",
    "aria-label": t("maumau.discard", { card: cardLabel(obs.top) }) }, frenchCard(obs.top, cardLabel(obs.top)));
  // a wished suit (after a Jack); none in force (null) when a Jack was the first up-card
  const suitNote = !obs.suit || obs.top.endsWith(obs.suit) ? null
    : h("div.wish", { style: `color:${suitColour(obs.suit)}` }, t("maumau.wished", { suit: `${suitSymbol(obs.suit)} ${t(`maumau.suit.${obs.suit}`)}` }));
  const centre = h("div.centre", {}, stock, topCard,
    h("div.facts", {}, suitNote,
      obs.pending_draw ? h("div.pending", {}, t("maumau.pending", { n: obs.pending_draw })) : null,
      obs.players > 2 ? h("div.direction", {}, obs.direction === 1 ? t("maumau.clockwise") : t("maumau.anticlockwise")) : null,  // between two the way round changes nothing: no direction to tell
      h("div.round", {}, obs.rounds ? t("maumau.round_of", { round: obs.round, rounds: obs.rounds })
        : t("maumau.round", { round: obs.round, target: obs.target_score }))));

  const turnLine = h("p.turn-line", {}, obs.over ? t("table.game_over")
    : me !== null && obs.to_move.includes(me) ? (legal.length ? t("table.your_turn") : "")
      : t("table.waiting_for", { name: obs.to_move.map((s) => ctx.names[s]).join(", ") }));
  // After a plain draw (this seat's own observation only): what was drawn, and whether it fits.
  const misfit = obs.drawn && !obs.drawn_fits;
  const drawnNote = obs.drawn && !obs.over ? h(`p.drawn-note${misfit ? ".misfit" : ""}`, {},
    misfit ? t("maumau.drawn_misfit", { card: cardLabel(obs.drawn) })
      : t("maumau.drawn_fits", { card: cardLabel(obs.drawn) })) : null;
  const passLabel = !obs.drawn ? t("maumau.let_stand") : misfit ? t("maumau.pass_misfit") : t("maumau.pass");

  const buttons = h("div.actions", {},
    mustSay ? h(`button.say${ui.say ? ".on" : ""}`, { type: "button", "aria-pressed": String(!!ui.say), dataset: { say: mustSay },
      onclick: () => { ui.say = !ui.say; ctx.refresh(); } },
    mustSay === "mau" ? t("maumau.say_mau") : t("maumau.say_maumau")) : null,
    drawLegal ? h("button.action", { type: "button", dataset: { act: "draw" }, onclick: () => ctx.act("draw") },
      obs.pending_draw ? t("maumau.draw_n", { n: obs.pending_draw }) : t("maumau.draw")) : null,
    legal.includes("pass") ? h(`button.action${misfit ? ".primary" : ""}`, { type: "button", dataset: { act: "pass" }, onclick: () => ctx.act("pass") }, passLabel) : null,
    legal.includes("catch") ? h("button.action.catch", { type: "button", dataset: { act: "catch" }, onclick: () => ctx.act("catch") },
      t("maumau.catch", { name: ctx.names[obs.catchable] ?? "" })) : null);

  function play(card) {
    const plays = playsOf(legal, card);
    if (!plays.length) return;
    const wanted = plays.filter((p) => (ui.say ? p.say !== null : p.say === null));
    // Only plays that say Mau are offered (a tutorial's step teaching it): say it first.
    if (!ui.say && !wanted.length && plays.every((p) => p.say !== null)) {
      toast(t(plays[0].say === "mau" ? "maumau.say_first" : "maumau.say_first_maumau"), "info");
      return;
    }
    const options = wanted.length ? wanted : plays;
    if (options.some((p) => p.suit)) { ui.chooser = { card, options }; ctx.refresh(); return; }
    ui.say = false;
    ctx.act(options[0].notation);
  }

  const chooser = ui.chooser ? h("div.chooser", { role: "dialog", "aria-label": t("maumau.choose_suit") },
    h("p", {}, t("maumau.choose_suit")),
    h("div.suits", {}, ui.chooser.options.map((p) => h("button.suit", { type: "button", dataset: { suit: p.suit },
      style: `color:${suitColour(p.suit)}`, onclick: () => { ui.chooser = null; ui.say = false; ctx.act(p.notation); } },
    h("span.symbol", {}, suitSymbol(p.suit)), h("span", {}, t(`maumau.suit.${p.suit}`))))),
    h("button.link", { type: "button", dataset: { dialogClose: "" }, onclick: () => { ui.chooser = null; ctx.refresh(); } }, t("table.cancel"), " ", h("kbd", {}, "Esc"))) : null;

  const prevHand = new Set(ctx.prev?.hand ?? []);
  const myTurn = me !== null && legal.length > 0;
  const hand = obs.hand ? h(`div.hand${myTurn ? "" : ".waiting"}`, { role: "group", "aria-label": t("maumau.your_hand") }, obs.hand.map((card) => {
    const playable = playsOf(legal, card).length > 0;
    const fresh = ctx.prev && !prevHand.has(card);
    return h(`button.card${playable ? ".legal" : ""}${fresh ? ".fresh" : ""}${obs.drawn === card ? ".drawn" : ""}`, {
      type: "button", disabled: !playable, dataset: { card }, "aria-label": cardLabel(card), onclick: () => play(card) },
    frenchCard(card, cardLabel(card)));
  })) : null;

  const mine = me !== null ? h("div.me", {}, h("div.name", {}, ctx.names[me], " · ", t("maumau.score", { points: obs.scores[me] }))) : null;
  return h("div.maumau", {}, roundSummary(ctx), opponents, centre, turnLine, drawnNote, buttons, chooser, mine, hand);
}

// Between rounds: who went out, the points the others' hands gave, the standings; shown until
// this seat's first move of the next round (a spectator's: until the next move).
function roundSummary(ctx) {
  const log = ctx.obs.log || [];
  const end = log.map((e) => e.act).lastIndexOf("round_over");
  const mineSince = log.slice(end + 1).some((e) => ctx.seat === null || e.seat === ctx.seat);
  if (end < 0 || mineSince || ctx.obs.over) return null;
  const over = log[end];
  return h("section.round-summary", {},
    h("h2", {}, t("maumau.log.round_over", { name: ctx.names[over.seat], round: over.round, points: over.points })),
    h("ul", {}, Object.entries(over.hands || {}).map(([seat, cards]) => h("li", {},
      h("span", {}, ctx.names[seat]), " ", h("span.small-cards", {}, cards.map((c) => frenchCard(c, cardLabel(c))))))),
    h("p", {}, t("maumau.standings", { scores: ctx.obs.scores.map((p, s) => `${ctx.names[s]} ${p}`).join(" · ") })));
}

// A seat's hand face up (the replay shows every hand).
export function handOf(obs) {
  return h("div.hand.small", {}, (obs.hand || []).map((card) => h("div.card", { dataset: { card } }, frenchCard(card, cardLabel(card)))));
}
