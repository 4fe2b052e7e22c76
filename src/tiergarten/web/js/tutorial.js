// Guided first games: #/learn lists a tutorial per game (and per Mucca Pazza variant); each
// is a real table against gentle bots where a coach explains each step and only the move
// being taught can be pressed (the server sends only those as legal), then the game goes on.
import { call, saveToken } from "./api.js";
import { inPlayOrder } from "./games.js";
import { h, clear, toast } from "./dom.js";
import { t, tOr } from "./i18n.js";

export function showLearn(main, game) {
  const view = h("div.learn-screen");
  main.append(view);
  let tutorials = null;

  async function start() {
    try { tutorials = await call("GET", "/api/tutorials"); } catch (err) {
      view.append(h("p.error", {}, err.message));
      return;
    }
    render();
  }

  async function begin(id) {
    try {
      const started = await call("POST", `/api/tutorials/${id}`);
      saveToken(started.table, started.seat, started.token);
      location.hash = `#/t/${started.table}`;
    } catch (err) {
      toast(err.message, "error");
    }
  }

  function render() {
    if (!tutorials) return;
    clear(view);
    const shown = inPlayOrder(tutorials.filter((tu) => !game || tu.game === game), (tu) => tu.game);
    view.append(h("section.panel", {}, h("h1", {}, t("tutorial.title")), h("p.lead", {}, t("tutorial.lead")),
      h("div.tutorial-list", {}, shown.map((tu) => h("button.tutorial-choice", { type: "button",
        dataset: { tutorial: tu.id }, onclick: () => begin(tu.id) },
      h("strong", {}, t(`tutorial.${tu.id}.title`)),
      h("span", {}, tOr(`tutorial.${tu.id}.about`, tOr(`game.${tu.game}.summary`, ""))))))));
  }

  start();
  return { refresh: render };
}

// The coach's panel above a tutorial table's board; `update(state)` with each state message.
export function mountCoach(main) {
  const box = h("section#coach.panel.coach", { role: "status", "aria-live": "polite", hidden: true });
  main.prepend(box);
  let last = null;

  function render() {
    clear(box);
    if (!last) { box.hidden = true; return; }
    box.hidden = false;
    box.dataset.step = String(last.step);
    box.dataset.done = String(last.done);
    box.dataset.waiting = String(!!last.waiting);
    box.append(h("strong", {}, "🦉 ", t("tutorial.coach")), " ",
      h("span.coach-count", {}, t("tutorial.step", { step: Math.min(last.step + 1, last.steps), steps: last.steps })));
    // another's turn: the coach says so first, then what comes on the learner's turn
    if (last.waiting && !last.done) box.append(h("p.coach-wait", {}, t("tutorial.waiting")));
    box.append(h("p#coach-text", {}, last.done ? t("tutorial.done") : t(last.key)));
  }

  return {
    update(state) {
      if (!state.coach) return;
      last = state.coach;
      render();
      document.querySelector(".board")?.classList.toggle("coached", !last.done);
    },
    render,
    stop() { box.remove(); },
  };
}
