// A table: its head and seats, the invitation and the form to sit down while seats are open, the
// game board of the seat(s) this browser holds (several seats make a hot-seat table), the
// rules, the move log, the results and the rematch. Each part is a module of js/table/; this
// one keeps the screen's state and draws the parts anew on every message.
import { api, forgetToken, tokensFor } from "./api.js";
import { h, morphChildren, toast } from "./dom.js";
import { t } from "./i18n.js";
import { gameModule } from "./games.js";
import { syncSeats } from "./account.js";
import { mountChat, spectatorLabel } from "./chat.js";
import { noteClock, resetClocks } from "./clock.js";
import { mountCoach } from "./tutorial.js";
import { isUnreplayable, unreplayablePanel } from "./unreplayable.js";
import { TableConnection } from "./table/connection.js";
import { isLocalTable } from "./offline/local.js";
import { tableHead, timerText, startTicker } from "./table/head.js";
import { seatNames, seatsBar } from "./table/seats.js";
import { fetchInvite, inviteLink, invitePanel } from "./table/invite.js";
import { joinForm } from "./table/join.js";
import { chooseSeat, hotSeatStage, withoutHand, handOffScreen } from "./table/handoff.js";
import { boardSection } from "./table/board.js";
import { rulesPanel } from "./table/rules.js";
import { logPanel, logAtEnd, followLog } from "./table/log.js";
import { resultsPanel } from "./table/results.js";
import { waitingPanel } from "./table/waiting.js";
import { errorText } from "./table/refusal.js";
import { dialogFocus } from "./focus.js";
import { Feedback } from "./table/feedback.js";
import { setSoundPlace } from "./sound.js";

export function showTable(main, tableId) {
  const screen = new TableScreen(main, tableId);
  screen.start();
  window.__tiergarten = { sockets: () => [...screen.conn.sockets.values()],  // for the browser tests
    seats: () => [...screen.conn.sockets.entries()], states: () => [...screen.conn.states.entries()] };
  // a switch of language draws the screen again, the chat and a tutorial's coach beside it too
  return { stop: () => screen.stop(), refresh: () => { screen.render(); screen.chat?.render(); screen.coach?.render(); } };
}

class TableScreen {
  constructor(main, tableId) {
    this.main = main;
    this.tableId = tableId;
    this.view = h("div.table-screen", { dataset: { table: tableId } });
    main.append(this.view);
    this.conn = new TableConnection(tableId, this.events());
    this.ui = {};               // the game module's own memory (selections, toggles)
    this.info = null;           // the last table message
    this.invite = null;         // the invite link and its QR code
    this.game = null;           // the game's board module
    this.shown = null;          // the seat whose view is on screen
    this.revealed = null;       // hot-seat: the seat that confirmed it holds the device
    this.lastRendered = null;   // the state drawn last (the board's `prev`)
    this.currentCtx = null;     // what the board shows now, for the game's keyboard keys
    this.changedAt = Date.now();  // when the game last moved, for the turn timer's countdown
    this.chat = null;           // the table chat beside the board (js/chat.js)
    this.spectator = null;      // watching: this connection's number at the table (hello)
    this.coach = null;          // a tutorial's coach above it (js/tutorial.js)
    this.feedback = new Feedback();  // sounds and flights as the game moves (js/table/feedback.js)
    this.ticker = startTicker(this.view, () => timerText(this.info, this.changedAt));
    resetClocks();
    this.dialogs = dialogFocus(this.view);  // a board's dialog takes the focus and gives it back
    this.onKey = (event) => {
      if (this.currentCtx && this.game?.onKey?.(event, this.currentCtx)) event.preventDefault();
    };
    document.addEventListener("keydown", this.onKey);
  }

  async start() {
    try {
      this.info = await api.table(this.tableId);
    } catch (err) {
      this.view.append(notFound(err));
      return;
    }
    [this.game, this.invite] = await Promise.all([gameModule(this.info.game), fetchInvite(this.tableId),
      syncSeats()]);  // a signed-in player's seats, from whichever device they sat down on
    if (this.info.tutorial) this.coach = mountCoach(this.main);
    setSoundPlace(this.info.tutorial ? "tutorial" : "play");  // a tutorial has its own switch, off at first
    // the chat beside the board; none at a tutorial table or on this device: nobody to talk to
    this.chat = this.info.tutorial || isLocalTable(this.tableId) ? null : mountChat(this.main, this.tableId,
      { info: () => this.info, mine: () => this.conn.mine(), send: (message) => this.conn.send(message),
        spectator: () => (this.conn.mine().length ? null : this.spectator) });
    this.conn.connectAll();
    this.render();
  }

  // What the connection hears, for the screen.
  events() {
    return {
      hello: (key, message) => {
        this.spectator = key === "watch" ? message.spectator ?? null : this.spectator;
        this.render();
        this.chat?.render();
      },
      table: (message) => { this.info = message; this.render(); this.chat?.render(); },
      chat: (line) => this.chat?.add(line),
      chatLog: (lines) => this.chat?.load(lines),
      state: (key, message, changed) => this.onState(key, message, changed),
      error: (message) => toast(errorText(message, this.info, this.game, this.names()), "error"),
      offline: (yes) => this.view.classList.toggle("offline", yes),
      closed: (key, code) => this.onClosed(key, code),
    };
  }

  onState(key, message, changed) {
    noteClock(message);
    if (changed) this.changedAt = Date.now();
    this.render();
    this.coach?.update(message);
    this.feedback.heard(key, message, this);  // after the move is drawn: its sounds
  }

  // A token the server refuses (a seat given up elsewhere, a table gone) is forgotten here.
  onClosed(key, code) {
    if (code === 4401 || code === 4403) {
      forgetToken(this.tableId, key);
      this.conn.connectAll();
      this.render();
    } else if (code === 4404) toast(t("table.not_found"), "error");
    else if (code === 4410) toast(t("table.closed"), "error");
  }

  names() {
    return seatNames(this.info?.seats);
  }

  render() {
    if (!this.info) return;
    const state = this.conn.states.get((this.shown = chooseSeat(this.conn.states, this.shown)));
    const next = h("div", {}, ...this.parts(state));
    const atEnd = logAtEnd(this.view);
    const focused = document.activeElement;
    const flights = this.feedback.beforeDraw(this.view, this.game, state, this.lastRendered);
    morphChildren(this.view, next);
    this.feedback.afterDraw(this.view, flights);
    followLog(this.view, atEnd);
    this.dialogs(focused);
    this.lastRendered = state;
  }

  parts(state) {
    const { info } = this;
    const mine = this.conn.mine();
    return [
      tableHead(info, isLocalTable(this.tableId) ? null : inviteLink(this.invite, this.tableId),
        () => timerText(info, this.changedAt)),
      seatsBar(info, mine, (seat) => this.leave(seat)),
      mine.length ? null : watchingNotice(this.spectator),
      info.status === "open" ? this.waiting(mine) : null,
      ...this.invitation(mine),
      info.status === "open" ? null : this.boardPart(state, mine),
      rulesPanel(info.game),
      state && info.status !== "open" ? logPanel(this.conn.logs.get(this.shown) || [], info, this.game, this.names()) : null,
      info.status === "over" && state ? resultsPanel(state, info, this.names(), mine, this.tableId) : null,
    ];
  }

  // While seats are open: the QR code (when the server gave one) and the form to sit down.
  invitation(mine) {
    if (this.info.status !== "open" || !this.info.seats.some((s) => !s.taken)) return [];
    const join = joinForm(this.tableId, this.info, mine.length > 0, () => this.conn.connectAll());
    return [this.invite ? invitePanel(this.invite) : null, join];
  }

  // Before the game: who is there and who is missing, no board (js/table/waiting.js).
  waiting(mine) {
    this.currentCtx = null;
    return waitingPanel(this.info, mine, this.names());
  }

  boardPart(state, mine) {
    this.currentCtx = null;
    if (!state) return h("p.muted", {}, t("table.connecting"));
    const stage = hotSeatStage({ mine, game: this.game, info: this.info, state, shown: this.shown, revealed: this.revealed });
    if (stage === "handoff") return handOffScreen(this.names()[this.shown], () => this.reveal(this.shown));
    const { section, ctx } = boardSection(this, stage === "hidden" ? withoutHand(state) : state);
    this.currentCtx = ctx;
    return section;
  }

  reveal(seat) {
    this.revealed = seat;
    this.render();
  }

  // Before the game a seat given up opens again; during it a bot stands in until this browser
  // comes back through the link (the token is kept for that).
  async leave(seat) {
    if (!confirm(t("table.leave_confirm"))) return;
    const entry = tokensFor(this.tableId).find((e) => e.seat === seat);
    try {
      await api.leave(this.tableId, entry.token);
    } catch (err) {
      toast(err.message, "error", this.info.status !== "open");  // shown on the lobby, if it goes there
    }
    if (this.info.status !== "open") {
      location.hash = "#/";
      return;
    }
    forgetToken(this.tableId, seat);
    this.conn.drop(seat);
    this.conn.connectAll();
    this.render();
  }

  stop() {
    document.removeEventListener("keydown", this.onKey);
    clearInterval(this.ticker);
    this.chat?.stop();
    this.coach?.stop();
    setSoundPlace("play");
    this.conn.close();
  }
}

// A spectator is told so, under the label everyone else sees in the chat.
function watchingNotice(number) {
  const who = number === null ? t("table.a_spectator") : spectatorLabel(number);
  return h("p#watching.notice.watching", { role: "status" }, "👀 ", t("table.watching", { who }));
}

function notFound(err) {
  const back = h("a", { href: "#/" }, t("table.back"));
  return isUnreplayable(err) ? unreplayablePanel(err, back)
    : h("section.panel", {}, h("h1", {}, t("table.not_found")), h("p", {}, err.message), back);
}
