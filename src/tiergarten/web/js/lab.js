// The lab in the browser (#/lab, #/lab/<run id>; docs/lab.md): a game, its options, a bot per
// seat, games and seed, or a sweep of one option, run by the server (POST /api/lab/runs, in
// its queue); the run's progress, then the tables and plots of `tiergarten simulate --report`,
// which the server writes and sends as a fragment (GET /api/lab/runs/<id>/report). The page's
// address shows the run to whoever opens it. Every number is the server's: this screen
// computes none.
import { api, call, here } from "./api.js";
import { inPlayOrder } from "./games.js";
import { h, clear, toast } from "./dom.js";
import { t, tOr } from "./i18n.js";
import { optionField } from "./lobby.js";

const POLL = 1000;  // ms between looks at a run that is queued or running
const ACTIVE = ["queued", "running"];

export function showLab(main, runId) {
  const view = h("div.lab");
  main.append(view);
  let timer = null;
  let stopped = false;
  let redraw = () => {};
  const later = (next) => { if (stopped) clearTimeout(next); else timer = next; };

  async function start() {
    try {
      if (runId) await showRun(view, runId, (r) => { redraw = r; }, later);
      else redraw = await showForm(view);
    } catch (err) {
      view.append(h("p.error", {}, t("error.server", { detail: err.message })));
    }
  }

  start();
  return { stop: () => { stopped = true; clearTimeout(timer); }, refresh: () => redraw() };
}

// -- the form ------------------------------------------------------------------------------

async function showForm(view) {
  const [games, bounds] = await Promise.all([api.games().then(inPlayOrder), call("GET", "/api/lab")]);
  const state = { game: games[0].id };

  function render() {
    const game = games.find((g) => g.id === state.game);
    const pick = h("select#lab-game", { onchange: (e) => { state.game = e.target.value; render(); } },
      games.map((g) => new Option(tOr(`game.${g.id}.title`, g.title), g.id, false, g.id === game.id)));
    const players = h("select#lab-players", {});
    for (let n = game.min_players; n <= game.max_players; n++) {
      players.append(new Option(String(n), String(n), false, n === game.default_players));
    }
    const seats = h("div.seats-setup");
    const preferred = ["heuristic", "normal", "random"].find((b) => game.bots.includes(b)) || game.bots[0];
    const drawSeats = () => {
      clear(seats);
      for (let seat = 0; seat < Number(players.value); seat++) {
        const id = `lab-seat-${seat}`;
        const select = h("select", { id, dataset: { labSeat: seat } },
          game.bots.map((b) => new Option(tOr(`bot.${b}`, b), b, false,
            b === (seat === 0 ? preferred : game.bots.includes("random") ? "random" : preferred))));
        seats.append(h("label.seat-setup", { for: id }, h("span", {}, t("lobby.seat_n", { n: seat + 1 })), select));
      }
    };
    players.addEventListener("change", drawSeats);
    drawSeats();
    const count = h("input#lab-games", { type: "number", min: "1", max: String(bounds.games), value: "200", required: true });
    const seed = h("input#lab-seed", { type: "number", min: "0", value: "1", required: true });
    const options = game.options.map((o) => optionField(game, o));
    const sweepOption = h("select#lab-sweep-option", {}, new Option(t("lab.sweep_none"), ""),
      game.options.map((o) => new Option(tOr(`option.${game.id}.${o.name}`, o.name.replaceAll("_", " ")), o.name)));
    const sweepValues = h("input#lab-sweep-values", { type: "text", placeholder: t("lab.sweep_values"),
      "aria-label": t("lab.sweep_values") });

    async function submit(event) {
      event.preventDefault();
      const button = event.currentTarget.querySelector("button[type=submit]");
      const body = {
        game: game.id,
        players: [...seats.querySelectorAll("select")].map((s) => s.value),
        games: Number(count.value),
        seed: Number(seed.value),
        options: Object.fromEntries(options.map((o) => o.read()).filter(Boolean)),
        sweep: sweepOption.value ? `${sweepOption.value}=${sweepValues.value.trim()}` : null,
      };
      button.disabled = true;
      try {
        const run = await call("POST", "/api/lab/runs", body);
        location.hash = `#/lab/${run.id}`;
      } catch (err) {
        toast(t("lab.refused", { detail: err.message }), "error");
        button.disabled = false;
      }
    }

    clear(view);
    view.append(h("section.panel", {},
      h("h1", {}, t("lab.title")),
      h("p.lead", {}, t("lab.lead")),
      h("form#lab-form.create-form", { onsubmit: submit },
        h("label.field", { for: "lab-game" }, h("span", {}, t("lobby.game")), pick),
        h("label.field", { for: "lab-players" }, h("span", {}, t("lobby.players")), players),
        h("fieldset", {}, h("legend", {}, t("lab.bots")), seats),
        h("label.field", { for: "lab-games" }, h("span", {}, t("lab.games")), count,
          h("small", {}, t("lab.games_help", { max: bounds.games.toLocaleString() }))),
        h("label.field", { for: "lab-seed" }, h("span", {}, t("lab.seed")), seed),
        options.length ? h("details.options", {}, h("summary", {}, t("lobby.options")), options.map((o) => o.el)) : null,
        h("fieldset.lab-sweep", {}, h("legend", {}, t("lab.sweep")),
          h("label.field", { for: "lab-sweep-option" }, h("span", {}, t("lab.sweep_option")), sweepOption),
          sweepValues, h("small", {}, t("lab.sweep_help"))),
        h("button.primary", { type: "submit" }, t("lab.run")))));
  }

  render();
  return render;
}

// -- a run ---------------------------------------------------------------------------------

async function showRun(view, runId, setRedraw, setTimer) {
  let run = null;
  let report = null;  // the report's HTML, once the run is done

  async function look() {
    try {
      run = await call("GET", `/api/lab/runs/${encodeURIComponent(runId)}`);
    } catch (err) {
      clear(view).append(h("section.panel", {}, h("h1", {}, t("lab.title")),
        h("p.error", {}, err.status === 404 ? t("lab.not_found") : err.message),
        h("a.button", { href: "#/lab" }, t("lab.new"))));
      return;
    }
    if (run.status === "done" && report === null) {
      const response = await fetch(here(`/${run.report}`));
      report = response.ok ? await response.text() : "";
    }
    render();
    if (ACTIVE.includes(run.status)) setTimer(setTimeout(look, POLL));
  }

  async function cancel() {
    try {
      run = await call("POST", `/api/lab/runs/${encodeURIComponent(runId)}/cancel`);
      render();
    } catch (err) {
      toast(err.message, "error");
    }
  }

  function render() {
    if (!run) return;
    const r = run.request;
    const status = run.status === "queued" ? t("lab.status.queued", { n: run.position ?? 1 })
      : t(`lab.status.${run.status}`);
    clear(view);
    view.append(h("section#lab-run.panel", { dataset: { status: run.status } },
      h("h1", {}, t("lab.run_title", { game: tOr(`game.${r.game}.title`, r.game) })),
      h("p", {}, t("lab.command")), h("pre.lab-command", {}, h("code", {}, command(r))),
      h("p#lab-status", {}, h("strong", {}, status)),
      h("progress#lab-progress", { max: String(run.total), value: String(run.done),
        "aria-label": t("lab.progress", { done: run.done, total: run.total }) }),
      h("p.muted", {}, t("lab.progress", { done: run.done.toLocaleString(), total: run.total.toLocaleString() }),
        run.estimate ? ` · ${run.estimate}` : null),
      run.error ? h("p.error", {}, run.error) : null,
      h("p.lab-actions", {},
        run.mine && ACTIVE.includes(run.status) ? h("button#lab-cancel.danger", { type: "button", onclick: cancel }, t("lab.cancel")) : null,
        " ", h("a.button", { href: "#/lab" }, t("lab.new"))),
      h("p.muted", {}, t("lab.share"), " ", h("a#lab-link", { href: location.href }, location.href))));
    if (report) {
      view.append(h("section#lab-report.panel", { "aria-label": t("lab.report"), tabindex: "0", html: report }));
    }
  }

  setRedraw(render);
  await look();
}

// The same run as a command line: what `tiergarten simulate` needs to print the same figures.
function command(r) {
  const word = (v) => (v === null ? "none" : typeof v === "object" ? JSON.stringify(v) : String(v));
  const quote = (s) => (/^[\w.,=:-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);
  const parts = ["tiergarten", "simulate", r.game, "--players", r.players.join(","), "-n", String(r.games),
    "--seed", String(r.seed)];
  for (const [name, value] of Object.entries(r.options)) parts.push("-o", quote(`${name}=${word(value)}`));
  if (r.sweep) parts.push("--sweep", quote(r.sweep));
  return parts.join(" ");
}
