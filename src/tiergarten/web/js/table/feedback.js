// What a table sounds and shows moving when its game moves (js/sound.js, js/motion.js): the
// shared sounds (the chime when a seat of this browser gets a move to make, a win) and the
// game's own, named by its board module for each log entry a state brings (`soundOf`), and the
// board's flights (`flights`). Neither waits: the state is drawn at once and these follow.
import { play } from "../sound.js";
import { takeOff, land } from "../motion.js";

const MAX_SOUNDS = 3;  // a state that brings many entries still sounds only a few

export class Feedback {
  constructor() {
    this.seen = new Map();  // socket key -> the state before the newest
  }

  // A state for the socket `key`: its sounds. `screen`: the table screen (game, connection).
  heard(key, state, screen) {
    const before = this.seen.get(key);
    this.seen.set(key, state);
    if (!before || before.version === state.version || !screen.game) return;  // a greeting, a repeat
    const game = screen.game;
    const mine = screen.conn.mine();
    const names = [];
    if (key === [...screen.conn.sockets.keys()][0]) {  // a hot-seat table hears each entry once
      for (const event of state.events || []) {
        const name = game.soundOf?.(event, { seat: key === "watch" ? null : key, mine });
        if (name && game.sounds?.[name]) names.push(name);
      }
    }
    const seat = key === "watch" ? null : key;
    if (seat !== null && !game.realTime && !before.legal?.length && state.legal?.length && !state.observation?.over) names.push("chime");
    const result = state.observation?.result;
    if (seat !== null && result && !before.observation?.result && result.winners?.includes(seat)) names.push("win");
    for (const name of [...new Set(names)].slice(0, MAX_SOUNDS)) play(name, game.sounds?.[name]);
  }

  // Around drawing the board anew: the flights the game names for the entries `state` brings.
  beforeDraw(view, game, state, last) {
    const fresh = state && last && state !== last && state.seat === last.seat && state.version !== last.version;
    if (!fresh || !game?.flights) return [];
    let flights = [];
    try {
      flights = game.flights(state.events || [], { seat: state.seat ?? null, obs: state.observation, prev: last.observation }) || [];
    } catch {
      flights = [];
    }
    return takeOff(view.querySelector("#board") ?? view, flights);
  }

  afterDraw(view, taken) {
    if (taken.length) land(view.querySelector("#board") ?? view, taken);
  }
}
