// The form to sit down at an open seat: a name (a signed-in player's user name) and a seat; a
// second one at the same screen makes a hot-seat table.
import { api, playerName, rememberName, saveToken } from "../api.js";
import { h, toast } from "../dom.js";
import { t } from "../i18n.js";
import { me } from "../account.js";

// `another`: this browser holds a seat already; `joined()` after the server gave the seat.
export function joinForm(tableId, info, another, joined) {
  const account = another ? null : me;  // a signed-in player sits under their user name
  const name = h("input", { id: "join-name", value: account ? account.name : another ? "" : playerName(),
    maxlength: "40", required: true, readonly: !!account, placeholder: t("lobby.your_name") });
  const free = info.seats.filter((s) => !s.taken).map((s) => s.seat);
  const seat = h("select", { id: "join-seat" }, free.map((s) => new Option(t("lobby.seat_n", { n: s + 1 }), String(s))));
  return h("form#join.panel.join", { onsubmit: (event) => submit(event, tableId, another, joined) },
    h("h2", {}, another ? t("table.join_another") : t("table.join")),
    h("label.field", {}, h("span", {}, t("lobby.name")), name),
    h("label.field", {}, h("span", {}, t("table.seat")), seat),
    h("button.primary", { type: "submit" }, t("table.sit_down")));
}

async function submit(event, tableId, another, joined) {
  event.preventDefault();
  // Read the form on screen: a re-render may have built (and discarded) a newer copy.
  const form = event.currentTarget;
  const chosenName = form.querySelector("#join-name").value.trim();
  if (!chosenName) { toast(t("lobby.need_name"), "error"); return; }
  try {
    const given = await api.join(tableId, chosenName, Number(form.querySelector("#join-seat").value));
    if (!another) rememberName(chosenName);
    saveToken(tableId, given.seat, given.token);
    joined();
  } catch (err) {
    toast(t("error.join", { detail: err.message }), "error");
  }
}
