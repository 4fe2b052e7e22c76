// Accounts (optional; guests play as before): the bar in the header, the sign-in / sign-up
// screen (#/account), and the seats that follow a signed-in player to every device.
import { call, allTokens, saveToken } from "./api.js";
import { h, clear, toast } from "./dom.js";
import { t } from "./i18n.js";
import { uploadKept } from "./offline/records.js";

export let me = null;  // {name} when signed in, else null

export async function loadMe() {
  try { me = (await call("GET", "/api/account")).user; } catch { me = null; }
  renderAccountBar();
  return me;
}

// The header's corner: sign in, or the player's name (their profile) and sign out.
export function renderAccountBar() {
  const bar = document.getElementById("account");
  if (!bar) return;
  clear(bar);
  if (!me) {
    bar.append(h("a#sign-in-link", { href: "#/account" }, t("account.sign_in")));
    return;
  }
  bar.append(h("a#me", { href: `#/p/${encodeURIComponent(me.name)}` }, me.name), " ",
    h("a", { href: "#/account" }, t("account.settings")), " ",
    h("button#sign-out.link", { type: "button", onclick: signOut }, t("account.sign_out")));
}

async function signOut() {
  await call("POST", "/api/account/logout").catch(() => null);
  me = null;
  renderAccountBar();
  location.hash = "#/";
}

// This browser's guest seats become the account's (their tokens are re-made), then every
// seat of the account is remembered here, so its tables open from this device too.
async function adoptSeats() {
  const seats = Object.entries(allTokens()).flatMap(([table, list]) =>
    list.map(({ token }) => ({ table, token })));
  if (seats.length) {
    for (const claimed of await call("POST", "/api/account/claim", { seats })) {
      saveToken(claimed.table, claimed.seat, claimed.token);
    }
  }
  await syncSeats();
}

// The signed-in player's seats at tables not over (with their tokens) into this browser.
export async function syncSeats() {
  if (!me) return [];
  let seats = [];
  try { seats = await call("GET", "/api/account/seats"); } catch { return []; }
  for (const { table, seat, token } of seats) saveToken(table, seat, token);
  return seats;
}

// The lobby's list of the signed-in player's open tables (from any device).
export function yourTables() {
  const box = h("section#my-tables.panel", { hidden: true });
  if (!me) return box;
  syncSeats().then((seats) => {
    if (!seats.length) return;
    box.hidden = false;
    box.append(h("h2", {}, t("account.your_tables")),
      ...seats.map((s) => h("a.open-table.my-table", { href: `#/t/${s.table}`, dataset: { table: s.table } },
        h("strong", {}, t(`game.${s.game}.title`)),
        h("span", {}, t("lobby.seat_n", { n: s.seat + 1 })),
        h("span.muted", {}, t(`table.status.${s.status}`)))));
  });
  return box;
}

export function showAccount(main) {
  const view = h("div.account-screen");
  main.append(view);

  // A labelled input; `rule` (sign-up, a new password) says what is allowed, in the page's
  // language, before the server has to refuse it in English.
  function field(id, label, type, autocomplete, rule = null) {
    const fresh = autocomplete === "new-password" || id === "up-name";
    return h("label.field", {}, h("span", {}, label),
      h("input", { id, name: id, type, autocomplete, required: true,
        minlength: fresh ? (type === "password" ? "8" : "3") : null,
        maxlength: type === "password" ? "200" : "24", "aria-describedby": rule ? `${id}-rule` : null }),
      rule ? h("small.muted.rule", { id: `${id}-rule` }, rule) : null);
  }

  async function submit(event, path, body, done) {
    event.preventDefault();
    try {
      const form = event.currentTarget;
      const answer = await call("POST", path, body(form));
      await done(answer, form);
    } catch (err) {
      toast(err.message, "error");
    }
  }

  async function signedIn(answer) {
    me = answer.user;
    await adoptSeats();
    await uploadKept();  // the games played on this device join the history (unrated)
    // the bar shows the account once signing in is done: a click on it then is not undone
    // by the move to the lobby below
    renderAccountBar();
    toast(t("account.welcome", { name: me.name }), "info", true);  // on the lobby it opens
    location.hash = "#/";
  }

  const read = (form, id) => form.querySelector(`#${id}`).value;

  function render() {
    clear(view);
    if (!me) {
      view.append(
        h("form#sign-in.panel", { onsubmit: (e) => submit(e, "/api/account/login",
          (f) => ({ name: read(f, "in-name"), password: read(f, "in-password") }), signedIn) },
        h("h1", {}, t("account.sign_in")),
        field("in-name", t("account.name"), "text", "username"),
        field("in-password", t("account.password"), "password", "current-password"),
        h("button.primary", { type: "submit" }, t("account.sign_in"))),
        h("form#sign-up.panel", { onsubmit: (e) => submit(e, "/api/account/signup",
          (f) => ({ name: read(f, "up-name"), password: read(f, "up-password") }), signedIn) },
        h("h2", {}, t("account.sign_up")),
        h("p.muted", {}, t("account.why")),
        field("up-name", t("account.name"), "text", "username", t("account.name_rule")),
        field("up-password", t("account.password"), "password", "new-password", t("account.password_rule")),
        h("button.primary", { type: "submit" }, t("account.sign_up"))));
      return;
    }
    view.append(
      h("form#change-password.panel", { onsubmit: (e) => submit(e, "/api/account/password",
        (f) => ({ old: read(f, "old-password"), new: read(f, "new-password") }),
        (_answer, form) => { toast(t("account.password_changed")); form.reset(); }) },
      h("h1", {}, t("account.signed_in_as", { name: me.name })),
      field("old-password", t("account.old_password"), "password", "current-password"),
      field("new-password", t("account.new_password"), "password", "new-password", t("account.password_rule")),
      h("button", { type: "submit" }, t("account.change_password"))),
      h("form#delete-account.panel", { onsubmit: (e) => {
        if (!confirm(t("account.delete_confirm"))) { e.preventDefault(); return; }
        submit(e, "/api/account/delete", (f) => ({ password: read(f, "delete-password") }),
          () => { me = null; renderAccountBar(); location.hash = "#/"; });
      } },
      h("h2", {}, t("account.delete")),
      h("p.muted", {}, t("account.delete_help")),
      field("delete-password", t("account.password"), "password", "current-password"),
      h("button.danger", { type: "submit" }, t("account.delete"))));
  }

  render();
  return { refresh: render };
}
