// MammuZ: the herd in the middle (every lay face down, the declared species above it), your hand
// grouped by animal. Pick cards and a species to lay, a face-down card of the last lay to doubt,
// an animal to make extinct, or a seat to give the herd to after a Pterosaurus.
import { h } from "../../js/dom.js";
import { t, tOr } from "../../js/i18n.js";
import { cardBack, handBacks } from "../../js/cards.js";
import { SPECIES, animalCard, animalEmoji } from "./animals.js";
import { othersInOrder } from "../../js/games.js";

// Where the lobby lists this game (the easiest first), and the parameters of its refusals
// that name seats (the table shows them as the players' names).
// its sounds and motions (docs/web.md, "Sound and motion")
export { sounds, soundOf, flights } from "./feedback.js";
export const playOrder = 2;
export const seatParams = ["turn", "layer"];

const name = (animal) => t(`animal.${animal}`);

// "lay tiger hare as deer" -> "hare tiger|deer": the same key for any order of the cards.
function layKey(cards, species) {
  return `${[...cards].sort().join(" ")}|${species}`;
}

function legalLays(legal) {
  const lays = new Map();
  for (const a of legal) {
    if (!a.startsWith("lay ")) continue;
    const [cards, species] = a.slice(4).split(" as ");
    lays.set(layKey(cards.split(" "), species), a);
  }
  return lays;
}

// A removed herd: its animals left the game, its dinosaurs (which never do) went to the doubter.
function removedLine(event, names) {
  const params = { n: event.cards.length, to: names[event.to] ?? event.to, dinosaurs: event.dinosaurs.map(name).join(", ") };
  return event.cards.length ? t("mammuz.log.removed", params) : t("mammuz.log.removed_no_animals", params);
}

// A key of a mapping option in words, for the lobby's form (dinosaur_powers: the dinosaurs).
export function optionKeyWord(_option, key) {
  return tOr(`animal.${key}`, key);
}

// A refusal's animals in words.
export function refusalWords(params) {
  const out = { ...params };
  for (const key of ["species", "card"]) if (typeof out[key] === "string") out[key] = name(out[key]);
  if (Array.isArray(out.declarable)) out.declarable = out.declarable.map(name).join(", ");
  return out;
}

export function describe(event, names) {
  const who = names[event.seat] ?? "";
  switch (event.act) {
    case "start": return t("mammuz.log.start", { name: who });
    case "lay": return t("mammuz.log.lay", { name: who, n: event.count, species: name(event.species) });
    case "doubt": return t("mammuz.log.doubt", { name: who, of: names[event.of], k: event.position, card: name(event.card) });
    case "take": return t("mammuz.log.take", { name: who, n: event.cards });
    case "extinct": return t("mammuz.log.extinct", { name: who, species: name(event.species) });
    case "give": return t("mammuz.log.give", { name: who, to: names[event.to] ?? event.to });
    case "take_jackpot": return t("mammuz.log.take_jackpot", { name: who, n: event.cards });
    case "to_jackpot": return t("mammuz.log.to_jackpot", { n: event.cards, jackpot: event.jackpot });
    case "deal_out": return t("mammuz.log.deal_out", { to: names[event.turned_card_to] ?? "" });
    case "removed": return removedLine(event, names);
    case "win": return t("mammuz.log.win", { name: who });
    default: return null;
  }
}

// The move log's line before each new herd.
export function separator(entry) {
  return entry.act === "start" ? t("mammuz.log.herd") : null;
}

export function render(ctx) {
  const { obs, legal, seat, ui } = ctx;
  const me = seat ?? null;
  if (ui.version !== ctx.version) {
    ui.version = ctx.version;
    ui.selected = (ui.selected || []).filter((i) => i < (obs.hand?.length ?? 0));
    if (ctx.prev && JSON.stringify(ctx.prev.hand) !== JSON.stringify(obs.hand)) ui.selected = [];
  }
  const lays = legalLays(legal);
  const declarable = [...new Set([...lays.keys()].map((k) => k.split("|")[1]))];
  if (obs.species) ui.species = obs.species;
  else if (!declarable.includes(ui.species)) ui.species = null;

  const order = othersInOrder(me, obs.players);
  const opponents = h("div.opponents", {}, order.map((s) => h(`div.opponent${obs.to_move.includes(s) ? ".to-move" : ""}`, { dataset: { seat: s } },
    h("div.name", {}, ctx.names[s]),
    h("div.backs", {}, handBacks(obs.hand_sizes[s])),
    h("div.count", {}, t("mammuz.cards", { n: obs.hand_sizes[s] })),
    legal.includes(`give ${s}`) ? giveButton(s) : null)));

  function giveButton(s) {
    return h("button.action.give", { type: "button", dataset: { act: `give ${s}` }, onclick: () => ctx.act(`give ${s}`) },
      t("mammuz.give_to", { name: ctx.names[s] }));
  }

  // The herd: one stack per lay; the last one's cards can be turned to doubt.
  const last = obs.herd.length - 1;
  const herd = h("div.herd", { role: "group", "aria-label": t("mammuz.herd") }, obs.herd.map((lay, i) => h(`div.lay${i === last ? ".last" : ""}`, {
    dataset: { seat: lay.seat }, role: "group", "aria-label": t("mammuz.lay_of", { name: ctx.names[lay.seat], n: lay.count }) },
    h("div.lay-cards", {}, Array.from({ length: lay.count }, (_, k) => {
      const card = lay.cards?.[k];
      const doubt = i === last ? `doubt ${k + 1}` : null;
      const face = card ? animalCard(card, name(card)) : cardBack(t("mammuz.face_down"));
      if (doubt && legal.includes(doubt)) {
        return h("button.card.legal.doubt", { type: "button", dataset: { act: doubt },
          "aria-label": t("mammuz.doubt_k", { k: k + 1, name: ctx.names[lay.seat] }),
          onclick: () => ctx.act(doubt) }, face);
      }
      return h("div.card", {}, face);
    })),
    h("div.lay-who", { "aria-hidden": "true" }, `${ctx.names[lay.seat]} · ${lay.count}`))));

  const revealed = obs.revealed?.[obs.revealed.length - 1];
  const freshReveal = revealed && ctx.prev && (ctx.prev.revealed?.length ?? 0) < obs.revealed.length;
  const middle = h("div.centre.mammuz-centre", {},
    h("div.declared", {}, obs.species
      ? [h("span.big", {}, animalEmoji(obs.species)), h("span", {}, t("mammuz.herd_of", { species: name(obs.species), n: obs.herd_size }))]
      : h("span", {}, t("mammuz.no_herd"))),
    herd,
    revealed ? h(`div.revealed${freshReveal ? ".flip" : ""}`, {},
      animalCard(revealed.card, name(revealed.card)),
      h("span", {}, t(`mammuz.outcome.${revealed.outcome ?? "choose"}`, { name: ctx.names[revealed.taker] ?? "", doubter: ctx.names[revealed.doubter], card: name(revealed.card) }))) : null,
    h("div.facts", {},
      obs.jackpot_size ? h("div", {}, t("mammuz.jackpot", { n: obs.jackpot_size })) : null,
      obs.extinct.length ? h("div.extinct", {}, t("mammuz.extinct"), " ", obs.extinct.map((s) => h("s", {}, `${animalEmoji(s)} ${name(s)} `))) : null,
      h("div.in-game", {}, SPECIES.filter((s) => obs.in_game[s] !== undefined && !obs.extinct.includes(s))
        .map((s) => h("span.count-chip", { title: name(s) }, h("span", { "aria-hidden": "true" }, `${animalEmoji(s)} ${obs.in_game[s]}`),
          h("span.sr-only", {}, t("mammuz.in_game", { species: name(s), n: obs.in_game[s] })))))));

  const turnLine = h("p.turn-line", {}, obs.over ? t("table.game_over")
    : obs.chooser !== null && obs.chooser === me ? t("mammuz.choose_taker")
      : me !== null && obs.to_move.includes(me) && legal.length ? (obs.must_doubt ? t("mammuz.must_doubt") : t("table.your_turn"))
        : t("table.waiting_for", { name: obs.to_move.map((s) => ctx.names[s]).join(", ") }));

  const selectedCards = (ui.selected || []).map((i) => obs.hand[i]);
  const chosenLay = ui.species && selectedCards.length ? lays.get(layKey(selectedCards, ui.species)) : undefined;
  const actions = h("div.actions", {},
    !obs.species && declarable.length ? h("div.species-picker", { role: "radiogroup", "aria-label": t("mammuz.declare") },
      h("span", {}, t("mammuz.declare")),
      declarable.map((s) => h(`button.species${ui.species === s ? ".chosen" : ""}`, { type: "button", dataset: { species: s },
        "aria-checked": String(ui.species === s), role: "radio",
        onclick: () => { ui.species = s; ctx.refresh(); } }, `${animalEmoji(s)} ${name(s)}`))) : null,
    lays.size ? h("button.action.primary.lay", { type: "button", disabled: !chosenLay, dataset: { act: chosenLay ?? "" },
      onclick: () => { ui.selected = []; ctx.act(chosenLay); } },
    selectedCards.length && ui.species ? t("mammuz.lay_as", { n: selectedCards.length, species: name(ui.species) }) : t("mammuz.pick_cards")) : null,
    legal.filter((a) => a.startsWith("extinct ")).map((a) => h("button.action.extinct", { type: "button", dataset: { act: a },
      onclick: () => ctx.act(a) }, t("mammuz.make_extinct", { species: name(a.split(" ")[1]) }))),
    me !== null && legal.includes(`give ${me}`) ? giveButton(me) : null);

  const fresh = freshCards(ctx.prev?.hand, obs.hand);  // a herd taken: its cards slide in
  const hand = obs.hand ? h("div.hand", { role: "group", "aria-label": t("mammuz.your_hand") }, obs.hand.map((card, i) => {
    const selected = (ui.selected || []).includes(i);
    return h(`button.card${lays.size ? ".legal" : ""}${selected ? ".selected" : ""}${fresh[i] ? ".fresh" : ""}`, { type: "button", disabled: !lays.size,
      dataset: { card, index: i }, "aria-pressed": String(selected), "aria-label": name(card),
      onclick: () => {
        ui.selected = selected ? ui.selected.filter((j) => j !== i) : [...(ui.selected || []), i].slice(-4);
        ctx.refresh();
      } }, animalCard(card, name(card)));
  })) : null;

  return h("div.mammuz", {}, opponents, middle, turnLine, actions, hand);
}

// Which cards of the hand are new since the hand before (by animal: the hand is sorted).
function freshCards(before, hand) {
  if (!before || !hand) return [];
  const left = {};
  for (const card of before) left[card] = (left[card] ?? 0) + 1;
  return hand.map((card) => !(left[card]-- > 0));
}

// The replay shows every hand: each lay of the herd face up, as its layer saw it.
export function revealed(view, seats) {
  const herd = view.herd.map((lay, i) => ({ ...lay, cards: seats[lay.seat]?.herd?.[i]?.cards ?? lay.cards }));
  return { ...view, herd };
}

// A seat's hand face up (the replay shows every hand).
export function handOf(obs) {
  return h("div.hand.small", {}, (obs.hand || []).map((card) => h("div.card", { dataset: { card } }, animalCard(card, name(card)))));
}
