// The game's board for one seat's state, drawn by the game's module from a context (docs/web.md:
// the observation, the legal moves, the seat, the table, the names, every seat this screen
// holds as `locals` for real-time games, `act` to move).
import { h, toast } from "../dom.js";
import { t } from "../i18n.js";

// `screen`: the table screen (its connection, info, game, names, ui, last state drawn);
// returns the board's section and the context it was drawn from.
export function boardSection(screen, state) {
  const ctx = boardContext(screen, state);
  const section = h("section#board.board", { tabindex: "-1", dataset: { game: screen.info.game, seat: state.seat ?? "watch", version: state.version } },
    screen.game.render(ctx));
  return { section, ctx };
}

function boardContext(screen, state) {
  const seat = state.seat;
  const last = screen.lastRendered;
  return {
    obs: state.observation, legal: state.legal, seat, events: state.events, version: state.version,
    locals: locals(screen.conn), prev: last && last.seat === seat ? last.observation : null,
    table: screen.info, names: screen.names(), ui: screen.ui, t, refresh: () => screen.render(),
    act: (notation) => {
      const sockets = screen.conn.sockets;
      if (!sockets.get(seat)?.act(notation)) toast(t("table.offline"), "error");
      if (sockets.size > 1) screen.revealed = null;  // hot-seat: hide this hand after the move
    },
  };
}

// Every seat this screen holds, with its moves and its socket's acts.
function locals(conn) {
  const socket = (key) => conn.sockets.get(key);
  return [...conn.states.entries()].filter(([key]) => key !== "watch").map(([key, own]) => ({
    seat: key, legal: own.legal, act: (notation, version) => socket(key)?.act(notation, version),
    press: (version) => socket(key)?.press(version), unpress: (version) => socket(key)?.unpress(version),
    callWindow: socket(key)?.callWindow }));
}
