// The top bar says which mode the page is in: online (the server plays), online with new
// tables on this device, or offline (this device plays everything); online, a button switches
// where new tables are played.
import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import { manifest, offline, playHere, playingHere } from "./mode.js";

export function renderMode() {
  const badge = document.getElementById("mode");
  if (!badge) return;
  clear(badge);
  const here = offline || playingHere();
  badge.dataset.mode = offline ? "offline" : here ? "here" : "online";
  badge.append(h("span.mode-text", {}, offline ? t("mode.offline") : here ? t("mode.here") : t("mode.online")));
  if (!offline && manifest?.ready) {
    badge.append(" ", h("button#mode-switch.link", { type: "button", onclick: () => {
      playHere(!playingHere());
      renderMode();
    } }, playingHere() ? t("mode.play_online") : t("mode.play_here")));
  }
}
