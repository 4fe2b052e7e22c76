// A table: seats and invitation, the game board of the seat(s) this browser holds, the move
// log, results and rematch. Several seats in one browser make a hot-seat table.
import { api, here, tokensFor, saveToken, forgetToken, playerName, rememberName } from "./api.js";
import { h, morphChildren, toast } from "./dom.js";
import { t, tOr, has, language } from "./i18n.js";
import { TableSocket } from "./net.js";
import { gameModule, describeEvent } from "./games.js";
import { me, syncSeats } from "./account.js";
import { mountChat, carryOwner } from "./chat.js";
import { noteClock, clockBadge, tickClocks, resetClocks } from "./clock.js";
import { mountCoach } from "./tutorial.js";
import { isUnreplayable, unreplayablePanel } from "./unreplayable.js";

// Parameters of a refusal that name seats, shown as the players' names: `seat` in any game,
// and those each game's board declares (its `seatParams`).
const SEAT_PARAMS = ["seat"];

export function showTable(main, tableId) {
  const view = h("div.table-screen", { dataset: { table: tableId } });
  main.append(view);
  const sockets = new Map();   // seat (or "watch") -> TableSocket
  const states = new Map();    // seat (or "watch") -> last state message
  const logs = new Map();      // seat (or "watch") -> every log entry so far, by position
  const ui = {};               // the game module's own memory (selections, toggles)
  let info = null;             // the last table message
  let invite = null;           // the invite link and its QR code (GET /api/tables/<id>/invite)
  let game = null;             // the game module
  let shown = null;            // the seat whose view is on screen
  let revealed = null;         // hot-seat: the seat that confirmed it holds the device
  let lastRendered = null;
  let currentCtx = null;       // what the board shows now, for the game's keyboard keys
  let changedAt = Date.now();  // when the game last moved, for the turn timer's countdown

  // The turn timer counts down from the last move; at zero the server lets a bot move.
  function timerText() {
    if (!info?.timer || info.status !== "playing") return t("table.timer_per_move", { seconds: info?.timer ?? 0 });
    return `${Math.max(0, Math.ceil(info.timer - (Date.now() - changedAt) / 1000))} s`;
  }
  const ticker = setInterval(() => {
    const el = view.querySelector("#turn-timer");
    if (el) el.textContent = timerText();
    tickClocks(view);
  }, 500);
  resetClocks();
  let chat = null;             // the table chat beside the board (js/chat.js)
  let coach = null;            // a tutorial's coach above it (js/tutorial.js)

  function onKey(event) {
    if (currentCtx && game?.onKey?.(event, currentCtx)) event.preventDefault();
  }
  document.addEventListener("keydown", onKey);

  async function start() {
    try {
      info = await api.table(tableId);
    } catch (err) {
      const back = h("a", { href: "#/" }, t("table.back"));
      view.append(isUnreplayable(err) ? unreplayablePanel(err, back)
        : h("section.panel", {}, h("h1", {}, t("table.not_found")), h("p", {}, err.message), back));
      return;
    }
    // Without the invite answer the link is this page's own address (and no QR code shows).
    [game, invite] = await Promise.all([gameModule(info.game), api.invite(tableId).catch(() => null),
      syncSeats()]);  // a signed-in player's seats, from whichever device they sat down on
    if (info.tutorial) coach = mountCoach(main);
    // the chat beside the board; none at a tutorial table: nobody there to talk to
    chat = info.tutorial ? null : mountChat(main, tableId, { info: () => info, mine: () => [...sockets.keys()].filter((k) => k !== "watch"),
      send: (message) => [...sockets.values()].some((s) => s.send(message)) });
    connectAll();
    render();
  }

  function connectAll() {
    const tokens = tokensFor(tableId);
    const wanted = new Set(tokens.map((e) => e.seat));
    for (const [key, socket] of sockets) {
      if (!wanted.has(key) && !(key === "watch" && !tokens.length)) { socket.close(); sockets.delete(key); states.delete(key); logs.delete(key); }
    }
    for (const { seat, token } of tokens) {
      if (!sockets.has(seat)) sockets.set(seat, socketFor(seat, token));
    }
    if (!tokens.length && !sockets.has("watch")) sockets.set("watch", socketFor("watch", null));
  }

  function socketFor(key, token) {
    return new TableSocket(tableId, token, {
      table: (message) => { info = message; render(); chat?.render(); },
      chat: (line) => chat?.add(line),
      chat_log: (message) => chat?.load(message.lines),
      state: (message) => {
        noteClock(message);
        if (message.version !== states.get(key)?.version) changedAt = Date.now();
        states.set(key, message);
        if (!keepLog(key, message)) socket().sync();  // a gap in the log: ask for all of it
        render();
        coach?.update(message);
      },
      error: (message) => {
        toast(errorText(message), "error");
        if (message.code === "stale") socket().sync();
      },
      status: (status) => view.classList.toggle("offline", status === "offline"),
      closed: (code) => {
        if (code === 4401 || code === 4403) { forgetToken(tableId, key); connectAll(); render(); }
        else if (code === 4404) toast(t("table.not_found"), "error");
      },
    });
    function socket() { return sockets.get(key); }
  }

  // The whole log of the game as this seat may see it: the greeting (and a sync) bring every
  // entry so far (`log_from` 0), each update the new ones, numbered by their real position.
  // Returns false when entries are missing (then the client asks for the whole log again).
  function keepLog(key, message) {
    if (!Array.isArray(message.log)) {  // a server without the whole log: the recent entries
      logs.set(key, (message.observation?.log || []).map((e, i) => ({ n: e.n ?? i, ...e })));
      return true;
    }
    const from = message.log_from ?? 0;
    const known = from === 0 ? [] : logs.get(key) || [];
    if (from > known.length) return false;
    logs.set(key, [...known.slice(0, from), ...message.log.map((e, i) => ({ ...e, n: from + i }))]);
    return true;
  }

  // A refusal in the page's language: the game's reason code and parameters (seats as names,
  // cards and animals in words: the game module's refusalWords); the English reason if the
  // catalogue has no words for that code.
  function errorText(message) {
    const text = tOr(`error.code.${message.code}`, message.code);
    if (message.code !== "illegal") return text;
    const key = [`refusal.${info?.game}.${message.reason}`, `refusal.${message.reason}`].find((k) => message.reason && has(k));
    if (!key) return `${text}: ${message.message}`;
    const params = { ...(message.params || {}) };
    for (const name of [...SEAT_PARAMS, ...(game?.seatParams ?? [])]) {
      if (typeof params[name] === "number") params[name] = names()[params[name]] ?? params[name];
      else if (Array.isArray(params[name])) params[name] = params[name].map((s) => names()[s] ?? s).join(", ");
    }
    return t(key, game?.refusalWords ? game.refusalWords(params) : params);
  }

  function names() {
    return (info?.seats || []).map((s) => s.name
      || (s.bot ? t("table.bot_name", { n: s.seat + 1, bot: tOr(`bot.${s.bot}`, s.bot) }) : t("table.open_seat")));
  }

  // Which of this browser's seats to show: the one to move if any (hot-seat), else the first.
  function chooseSeat() {
    const mine = [...states.keys()].filter((k) => k !== "watch");
    if (!mine.length) return states.has("watch") ? "watch" : null;
    const any = states.get(mine[0]);
    const toMove = any?.observation?.to_move || [];
    const due = mine.filter((s) => toMove.includes(s) && states.get(s)?.legal?.length);
    if (due.length && !due.includes(shown)) return due[0];
    return mine.includes(shown) ? shown : mine[0];
  }

  function render() {
    if (!info) return;
    const state = states.get((shown = chooseSeat()));
    const mine = [...sockets.keys()].filter((k) => k !== "watch");
    const next = h("div", {}, header(), seatsBar(mine));
    if (info.status === "open" && info.seats.some((s) => !s.taken)) {
      if (invite) next.append(invitePanel());
      next.append(joinForm(mine.length > 0));
    }
    // Hot-seat (several people at this screen, taking turns): a hand shows only to its owner,
    // after the hand-off screen; while nobody here is due, the table shows without any hand.
    const hotSeat = mine.length > 1 && !game.realTime && state && info.status !== "over";
    const due = hotSeat && state.legal.length > 0;
    currentCtx = null;
    if (hotSeat && !due) next.append(board(hidden(state)));
    else if (hotSeat && revealed !== shown) next.append(handOffScreen(shown));
    else if (state) next.append(board(state));
    else next.append(h("p.muted", {}, t("table.connecting")));
    next.append(h("details#rules.panel.rules", {}, h("summary", {}, t("table.how_to_play")),
      t(`rules.${info.game}`).split("\n").map((line) => h("p", {}, line)),
      h("a.learn-link", { href: `#/learn/${info.game}` }, t("tutorial.learn"))));
    if (state) next.append(logPanel());
    if (info.status === "over" && state) next.append(resultsPanel(state));
    const list = view.querySelector("#log-list");
    const atEnd = !list || list.scrollHeight - list.scrollTop - list.clientHeight < 24;
    morphChildren(view, next);
    followLog(atEnd);
    lastRendered = state;
  }

  function header() {
    const link = invite?.url || here(`/#/t/${tableId}`);
    return h("section#head.table-head", {},
      h("h1", {}, tOr(`game.${info.game}.title`, info.game)),
      h("span.status", { dataset: { status: info.status } }, t(`table.status.${info.status}`)),
      info.tutorial ? null : h("div.invite", {},
        h("label", { for: "invite" }, t("table.invite")),
        h("input#invite", { value: link, readonly: true, onclick: (e) => e.target.select() }),
        h("button", { type: "button", onclick: async () => {
          try { await navigator.clipboard.writeText(link); toast(t("table.copied")); } catch { toast(link); }
        } }, t("table.copy"))),
      info.timer ? h("span.timer", { title: t("table.timer_help", { seconds: info.timer }) }, "⏱ ",
        h("span#turn-timer", {}, timerText())) : null,
      h("span.conn", {}, t("table.offline")));
  }

  function seatsBar(mine) {
    return h("ol#seats.seats", {}, info.seats.map((s, i) => h(`li.seat${mine.includes(i) ? ".mine" : ""}`, {
      dataset: { seat: i, taken: String(s.taken), kind: s.kind } },
    clockBadge(info, i),
    h("span.seat-name", {}, s.account ? h("a", { href: `#/p/${encodeURIComponent(s.account)}` }, names()[i]) : names()[i]),
    s.kind === "bot" ? h("span.badge", {}, t("table.bot")) : null,
    s.away ? h("span.badge.away", {}, t("table.away")) : null,
    s.kind === "human" && s.taken && !s.connected && !s.away ? h("span.badge", {}, t("table.disconnected")) : null,
    mine.includes(i) && info.status !== "over" ? h("button.link", { type: "button", onclick: () => leave(i) }, t("table.leave")) : null)));
  }

  // While seats are open: the invite's QR code for a phone's camera (an SVG the server draws),
  // or, when the link opens on this computer only, how to let the others in.
  function invitePanel() {
    if (invite.loopback) return h("p#invite-note.panel.invite-note", {}, t("table.invite_loopback"));
    return h("figure#invite-qr.panel.invite-qr", {},
      h("img", { src: here(invite.qr), alt: t("table.qr_alt"), width: "176", height: "176" }),
      h("figcaption", {}, t("table.qr_caption")));
  }

  function joinForm(another) {
    const account = another ? null : me;  // a signed-in player sits under their user name
    const name = h("input", { id: "join-name", value: account ? account.name : another ? "" : playerName(),
      maxlength: "40", required: true, readonly: !!account, placeholder: t("lobby.your_name") });
    const free = info.seats.filter((s) => !s.taken).map((s) => s.seat);
    const seat = h("select", { id: "join-seat" }, free.map((s) => new Option(t("lobby.seat_n", { n: s + 1 }), String(s))));
    async function submit(event) {
      event.preventDefault();
      // Read the form on screen: a re-render may have built (and discarded) a newer copy.
      const form = event.currentTarget;
      const chosenName = form.querySelector("#join-name").value.trim();
      if (!chosenName) { toast(t("lobby.need_name"), "error"); return; }
      try {
        const joined = await api.join(tableId, chosenName, Number(form.querySelector("#join-seat").value));
        if (!another) rememberName(chosenName);
        saveToken(tableId, joined.seat, joined.token);
        connectAll();
      } catch (err) {
        toast(t("error.join", { detail: err.message }), "error");
      }
    }
    return h("form#join.panel.join", { onsubmit: submit },
      h("h2", {}, another ? t("table.join_another") : t("table.join")),
      h("label.field", {}, h("span", {}, t("lobby.name")), name),
      h("label.field", {}, h("span", {}, t("table.seat")), seat),
      h("button.primary", { type: "submit" }, t("table.sit_down")));
  }

  function hidden(state) {
    const { hand: _hand, ...observation } = state.observation;
    return { ...state, seat: null, legal: [], observation };
  }

  function handOffScreen(seat) {
    return h("section#handoff.panel.handoff", {},
      h("p", {}, t("table.pass_device", { name: names()[seat] })),
      h("button.primary", { type: "button", onclick: () => { revealed = seat; render(); } },
        t("table.i_am", { name: names()[seat] })));
  }

  function board(state) {
    const seat = state.seat;
    const locals = [...states.entries()].filter(([key]) => key !== "watch").map(([key, own]) => ({
      seat: key, legal: own.legal, act: (notation, version) => sockets.get(key)?.act(notation, version),
      press: (version) => sockets.get(key)?.press(version), unpress: (version) => sockets.get(key)?.unpress(version),
      callWindow: sockets.get(key)?.callWindow }));
    const ctx = currentCtx = {
      obs: state.observation, legal: state.legal, seat, events: state.events, version: state.version, locals,
      prev: lastRendered && lastRendered.seat === seat ? lastRendered.observation : null,
      table: info, names: names(), ui, t, refresh: () => render(),
      act: (notation) => {
        const socket = sockets.get(seat);
        if (!socket?.act(notation)) toast(t("table.offline"), "error");
        if (sockets.size > 1) revealed = null;  // hot-seat: hide this hand after the move
      },
    };
    return h("section#board.board", { dataset: { game: info.game, seat: seat ?? "watch", version: state.version } },
      game.render(ctx));
  }

  // Every move of the game, numbered by its position in the game, oldest first, with a line
  // where a new round (or herd) starts; it keeps to the newest entry unless the reader scrolled.
  function logPanel() {
    const entries = logs.get(shown) || [];
    // focusable: a keyboard can scroll the log too
    const list = h("ol#log-list.log-list", { "aria-label": t("table.log"), tabindex: "0" });
    entries.forEach((e, i) => {
      const line = game.separator?.(e, entries[i - 1], names(), entries.slice(0, i));
      if (line) list.append(h("li.round", { "aria-hidden": "true" }, line));
      const text = describeEvent(info.game, e, names());
      if (text) list.append(h("li", { value: e.n + 1, dataset: { n: e.n } }, text));
    });
    return h("details#log.panel.log", { open: window.innerWidth > 800 },
      h("summary", {}, t("table.log_count", { n: entries.length })), list);
  }

  // After a render: keep the log scrolled to its newest entry if the reader was there.
  function followLog(atEnd) {
    const list = view.querySelector("#log-list");
    if (list && atEnd) list.scrollTop = list.scrollHeight;
  }

  // The end: who won (you, or by name), why, then every seat once by rank (ties share one).
  function resultsPanel(state) {
    const result = state.observation.result;
    const seatOf = [...sockets.keys()].find((k) => k !== "watch");
    const order = result ? info.seats.map((s) => s.seat).sort((a, b) => result.ranks[a] - result.ranks[b]) : [];
    return h("section#results.panel.results", { role: "region", "aria-label": t("table.game_over") },
      h("h2.banner", {}, result ? winnerLine(result) : t("table.game_over")),
      result ? h("p.reason", {}, tOr(`reason.${result.reason}`, result.reason)) : null,
      result ? h("ul.ranking", {}, order.map((s) => h(`li${result.winners.includes(s) ? ".winner" : ""}`, { dataset: { seat: s } },
        h("span.rank", {}, t("table.rank", { rank: result.ranks[s] })), " ", h("strong", {}, names()[s]), " ",
        h("span", {}, t("table.points", { points: result.scores[s], n: result.scores[s] }))))) : null,
      h("div.buttons", {},
        seatOf !== undefined ? h("button#rematch.primary", { type: "button", onclick: rematch }, t("table.rematch")) : null,
        info.rematch ? h("a.button", { href: `#/t/${info.rematch}` }, t("table.to_rematch")) : null,
        h("a.button", { href: `#/t/${tableId}/replay` }, t("table.replay")),
        h("a.button", { href: "#/" }, t("table.back"))));
  }

  function winnerLine(result) {
    const mine = [...sockets.keys()].filter((k) => k !== "watch");
    const list = (seats) => new Intl.ListFormat(language, { type: "conjunction" }).format(seats.map((s) => names()[s]));
    const won = result.winners;
    if (mine.length === 1 && won.includes(mine[0])) {
      const others = won.filter((s) => s !== mine[0]);
      return others.length ? t("table.you_share", { names: list(others), n: others.length }) : t("table.you_won");
    }
    return t("table.won", { names: list(won), n: won.length });
  }

  async function rematch() {
    try {
      let table = null;
      for (const { seat, token } of tokensFor(tableId)) {
        table = await api.rematch(tableId, token);
        saveToken(table.id, seat, table.token || token);  // an account's token is new there
      }
      carryOwner(tableId, table.id);
      location.hash = `#/t/${table.id}`;
    } catch (err) {
      toast(t("error.rematch", { detail: err.message }), "error");
    }
  }

  // Before the game a seat given up opens again; during it a bot stands in until this browser
  // comes back through the link (the token is kept for that).
  async function leave(seat) {
    if (!confirm(t("table.leave_confirm"))) return;
    const entry = tokensFor(tableId).find((e) => e.seat === seat);
    try {
      await api.leave(tableId, entry.token);
    } catch (err) {
      toast(err.message, "error");
    }
    if (info.status !== "open") {
      location.hash = "#/";
      return;
    }
    forgetToken(tableId, seat);
    sockets.get(seat)?.close();
    sockets.delete(seat);
    states.delete(seat);
    logs.delete(seat);
    connectAll();
    render();
  }

  start();
  window.__tiergarten = { sockets: () => [...sockets.values()] };  // for the browser tests
  return {
    stop: () => {
      document.removeEventListener("keydown", onKey);
      clearInterval(ticker);
      chat?.stop();
      coach?.stop();
      for (const socket of sockets.values()) socket.close();
    },
    refresh: render,
  };
}
