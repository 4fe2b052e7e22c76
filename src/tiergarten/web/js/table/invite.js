// The invitation: the link to copy in the table's head, and while seats are open the link's QR
// code for a phone's camera (an SVG the server draws), or, when the link opens on this
// computer only, how to let the others in.
import { api, here } from "../api.js";
import { h, toast } from "../dom.js";
import { t } from "../i18n.js";

// GET /api/tables/<id>/invite; without its answer the link is this page's own address (and
// no QR code shows).
export function fetchInvite(tableId) {
  return api.invite(tableId).catch(() => null);
}

export function inviteLink(invite, tableId) {
  return invite?.url || here(`/#/t/${tableId}`);
}

export function inviteField(link) {
  return h("div.invite", {},
    h("label", { for: "invite" }, t("table.invite")),
    h("input#invite", { value: link, readonly: true, onclick: (e) => e.target.select() }),
    h("button", { type: "button", onclick: () => copy(link) }, t("table.copy")));
}

async function copy(link) {
  try { await navigator.clipboard.writeText(link); toast(t("table.copied")); } catch { toast(link); }
}

export function invitePanel(invite) {
  if (invite.loopback) return h("p#invite-note.panel.invite-note", {}, t("table.invite_loopback"));
  return h("figure#invite-qr.panel.invite-qr", {},
    h("img", { src: here(invite.qr), alt: t("table.qr_alt"), width: "176", height: "176" }),
    h("figcaption", {}, t("table.qr_caption")));
}
