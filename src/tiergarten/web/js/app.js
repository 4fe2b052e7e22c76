// The single page: #/ is the lobby, #/t/<id> a table, #/t/<id>/replay the replay of a game,
// #/lab the lab and #/lab/<id> one of its runs.
import { LANGUAGES, preferredLanguage, setLanguage, language } from "./i18n.js";
import { clear, hideToast } from "./dom.js";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";
import { showReplay } from "./replay.js";
import { loadGames } from "./games.js";
import { loadMe, renderAccountBar, showAccount } from "./account.js";
import { showProfile, showLeaderboard } from "./profile.js";
import { showLearn } from "./tutorial.js";
import { showLab } from "./lab.js";
import { decideMode } from "./offline/mode.js";
import { renderMode } from "./offline/badge.js";
import { uploadKept } from "./offline/records.js";
import { renderSoundSwitch } from "./sound.js";

let current = null;  // the screen shown now; has stop() to close its sockets

function route() {
  current?.stop?.();
  hideToast();  // a message about the page before does not stay on this one
  const main = clear(document.getElementById("main"));
  const [, kind, id, sub] = location.hash.replace(/^#/, "").split("/");
  if (kind === "account") current = showAccount(main);
  else if (kind === "learn") current = showLearn(main, id);
  else if (kind === "lab") current = showLab(main, id && decodeURIComponent(id));
  else if (kind === "p" && id) current = showProfile(main, decodeURIComponent(id));
  else if (kind === "leaderboard" && id) current = showLeaderboard(main, id);
  else if (kind === "t" && id && sub === "replay") current = showReplay(main, id);
  else if (kind === "t" && id) current = showTable(main, id);
  else current = showLobby(main);
}

async function start() {
  const select = document.getElementById("language");
  for (const [code, name] of Object.entries(LANGUAGES)) {
    select.append(new Option(name, code));
  }
  await decideMode();  // online, or offline: this device plays (js/offline/)
  await loadGames();  // every game's words and board (js/games.js)
  await setLanguage(preferredLanguage());
  select.value = language;
  renderMode();
  renderSoundSwitch();
  await loadMe();
  // online and signed in: the games played offline join the player's history
  uploadKept().then((added) => { if (added) current?.refresh?.(); });
  select.addEventListener("change", async () => {
    await setLanguage(select.value);
    renderAccountBar();
    renderMode();
    renderSoundSwitch();
    current?.refresh ? current.refresh() : route();
  });
  window.addEventListener("hashchange", route);
  route();
}

start();
