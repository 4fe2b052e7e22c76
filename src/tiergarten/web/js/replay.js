// The replay of a finished game: step through every move with every hand revealed. A move is
// told in the same words as the live move log (from the log entries the server says it added);
// the arrow keys step, Home and End jump to the deal and the end.
import { api } from "./api.js";
import { h, morphChildren } from "./dom.js";
import { t, tOr } from "./i18n.js";
import { gameModule, describeEvent } from "./games.js";
import { chatUpTo } from "./chat.js";
import { isUnreplayable, unreplayablePanel } from "./unreplayable.js";
import { seatNames } from "./table/seats.js";

export function showReplay(main, tableId) {
  const view = h("div.replay-screen");
  main.append(view);
  let data = null;
  let game = null;
  let index = 0;
  let timer = null;

  async function start() {
    try {
      const loaded = await api.replay(tableId);
      game = await gameModule(loaded.game);
      data = loaded;  // only now: a render (a key, a new language) may come at any await
    } catch (err) {
      const back = h("a", { href: `#/t/${tableId}` }, t("replay.back"));
      view.append(isUnreplayable(err) ? unreplayablePanel(err, back)
        : h("section.panel", {}, h("h1", {}, t("replay.title")), h("p.error", {}, err.message), back));
      return;
    }
    index = data.steps.length - 1;
    render();
  }

  function names() {
    return seatNames(data.seats);
  }

  function go(to) {
    index = Math.max(0, Math.min(data.steps.length - 1, to));
    render();
  }

  function play() {
    if (timer) { clearInterval(timer); timer = null; render(); return; }
    if (index >= data.steps.length - 1) index = 0;
    timer = setInterval(() => {
      if (index >= data.steps.length - 1) { clearInterval(timer); timer = null; }
      go(index + 1);
    }, 700);
    render();
  }

  const KEYS = { ArrowLeft: () => go(index - 1), ArrowRight: () => go(index + 1),
    Home: () => go(0), End: () => go(data.steps.length - 1) };
  function onKey(event) {
    if (!data || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, select, textarea")) return;  // the slider steps itself
    const step = KEYS[event.key];
    if (!step) return;
    event.preventDefault();
    step();
  }
  document.addEventListener("keydown", onKey);

  // What the step's act did, in the live log's words: one line per log entry it added.
  function moveLines(step, seatNames) {
    if (step.act === null && !(step.events || []).length) return [t("replay.start")];
    const lines = (step.events || []).map((e) => describeEvent(data.game, e, seatNames)).filter(Boolean);
    if (lines.length) return lines;
    return [t("replay.unchanged", { name: seatNames[step.seat] ?? "" })];
  }

  function render() {
    const step = data.steps[index];
    const seatNames = names();
    const prev = index > 0 ? data.steps[index - 1].view : null;
    // every hand is revealed in a replay: a game may show the board with them (MammuZ's lays)
    const obs = game.revealed ? game.revealed(step.view, step.seats) : step.view;
    const ctx = { obs, legal: [], seat: null, events: step.events || [], version: index, prev, table: data,
      names: seatNames, ui: {}, t, act: () => {}, refresh: render, replay: true };
    const last = data.steps.length - 1;
    const next = h("div", {},
      h("section.table-head", {}, h("h1", {}, t("replay.title"), " · ", tOr(`game.${data.game}.title`, data.game)),
        h("a.button", { href: `#/t/${tableId}` }, t("replay.back"))),
      h("section.panel.replay-controls", { "aria-label": t("replay.controls") },
        // each button says what it does in words, its symbol beside them (play ▶ is not "next")
        control("button#replay-first", () => go(0), "⏮", t("replay.first")),
        control("button#replay-prev", () => go(index - 1), "‹", t("replay.previous")),
        control(`button#replay-play${timer ? ".on" : ""}`, play, timer ? "⏸" : "▶", timer ? t("replay.pause") : t("replay.play")),
        control("button#replay-next", () => go(index + 1), "›", t("replay.next"), true),
        control("button#replay-last", () => go(last), "⏭", t("replay.last"), true),
        h("input#replay-range", { type: "range", min: 0, max: last, value: index, "aria-label": t("replay.position"),
          oninput: (e) => go(Number(e.target.value)) }),
        h("span#replay-step", {}, t("replay.step", { n: index, total: last })),
        h("p.muted.replay-keys", {}, t("replay.keys")),
        h("div#replay-event.replay-event", { "aria-live": "polite" }, moveLines(step, seatNames).map((line) => h("p", {}, line)))),
      h("section.board", { dataset: { game: data.game, seat: "replay", version: index } }, game.render(ctx)),
      chatUpTo(data.chat, index),
      h("section.panel.hands", {}, h("h2", {}, t("replay.hands")),
        step.seats.map((seatObs, s) => h("div.revealed-hand", { dataset: { seat: s } },
          h("strong", {}, seatNames[s]),
          game.handOf ? game.handOf(seatObs) : h("code", {}, JSON.stringify(seatObs.hand ?? ""))))));
    morphChildren(view, next);
  }

  start();
  return {
    stop: () => { clearInterval(timer); document.removeEventListener("keydown", onKey); },
    refresh: () => data && render(),
  };
}

// A replay control: its words, and its symbol before them (after them for the forward ones).
function control(spec, onclick, symbol, words, after = false) {
  const mark = h("span.replay-symbol", { "aria-hidden": "true" }, symbol);
  return h(spec, { type: "button", onclick }, after ? [words, " ", mark] : [mark, " ", words]);
}
