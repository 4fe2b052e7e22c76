// Small sounds made in the page with the Web Audio API: no sound file, nothing to license. A
// sound is a recipe, a list of voices, each an oscillator (or white noise through a filter)
// under a short envelope: { wave, f, to?, at?, d, g?, filter?, q? } — the wave ("sine",
// "triangle", "square", "sawtooth" or "noise"), its frequency in Hz (gliding to `to`), when it
// starts after the sound does (`at`, s), how long it rings (`d`, s), its loudness (`g`, 0–1)
// and, for noise, the filter ("lowpass", "bandpass", "highpass") at `f`.
//
// The shared sounds are here (the turn's chime, a win); each game's board module brings its own
// (`sounds`, and `soundOf(event, ctx)` naming one of them for a log entry: docs/web.md).
//
// Nothing sounds before the person has touched the page (browsers' autoplay policy): the audio
// context is made on the first pointer or key press. play() never waits and never throws: it
// schedules a few nodes and returns, so no sound delays a move. Whether sound is on is kept per
// browser in localStorage, apart for tutorials, which start silent (a classroom of laptops).
import { h } from "./dom.js";
import { t } from "./i18n.js";

export const SHARED = {
  chime: [{ wave: "sine", f: 880, d: 0.22, g: 0.35 }, { wave: "sine", f: 1318.5, at: 0.09, d: 0.3, g: 0.3 }],
  win: [523.25, 659.25, 783.99, 1046.5].map((f, i) => ({ wave: "triangle", f, at: i * 0.09, d: i === 3 ? 0.5 : 0.18, g: 0.35 })),
};

const KEYS = { play: "tiergarten.sound", tutorial: "tiergarten.sound.tutorial" };
const DEFAULTS = { play: "on", tutorial: "off" };  // tutorials are silent until switched on
const MAX_LOG = 200;

let where = "play";     // "play", or "tutorial" at a tutorial table
let audio = null;       // the AudioContext, made on the first gesture
let master = null;
let noise = null;       // a second of white noise, made once
let touched = false;    // the person has pressed a key or a pointer on the page

// What was asked to sound, newest last, for the browser tests: { name, heard, why?, at, voices }.
export const played = [];
window.__tiergartenSound = { played, state: () => audio?.state ?? "none", on: () => isOn() };

export function isOn() {
  return (localStorage.getItem(KEYS[where]) ?? DEFAULTS[where]) === "on";
}

// "tutorial" at a tutorial table, "play" everywhere else: each has its own switch position.
export function setSoundPlace(place) {
  where = place === "tutorial" ? "tutorial" : "play";
  renderSoundSwitch();
}

export function setSoundOn(on) {
  localStorage.setItem(KEYS[where], on ? "on" : "off");
  if (on) wake();
  renderSoundSwitch();
}

// The switch in the top bar: a toggle button, its state in aria-pressed and its icon.
export function renderSoundSwitch() {
  const slot = document.getElementById("sound");
  if (!slot) return;
  const on = isOn();
  const button = h("button#sound-switch.sound-switch", { type: "button", "aria-pressed": String(on),
    title: t(where === "tutorial" ? "sound.tutorial_hint" : on ? "sound.on_hint" : "sound.off_hint"),
    onclick: () => setSoundOn(!isOn()) },
  h("span", { "aria-hidden": "true" }, on ? "🔊" : "🔇"), " ", h("span.sound-label", {}, t("sound.label")));
  const old = slot.firstElementChild;
  if (old) {  // keep the element (and its focus): only its parts change
    old.setAttribute("aria-pressed", button.getAttribute("aria-pressed"));
    old.title = button.title;
    old.replaceChildren(...button.childNodes);
  } else slot.append(button);
}

function wake() {
  if (!touched) return;
  try {
    if (!audio) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      audio = new Context();
      master = audio.createGain();
      master.gain.value = 0.5;
      master.connect(audio.destination);
    }
    if (audio.state === "suspended") audio.resume().catch(() => {});
  } catch {
    audio = null;
  }
}

function onGesture() {
  touched = true;
  if (isOn()) wake();
}
for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, onGesture, { capture: true, passive: true });

function note(entry) {
  played.push({ at: Math.round(performance.now()), ...entry });
  if (played.length > MAX_LOG) played.splice(0, played.length - MAX_LOG);
}

// Sound `name` (SHARED's, or the recipe given: a game's own). Returns at once.
export function play(name, recipe = SHARED[name]) {
  if (!recipe) return;
  if (!isOn()) { note({ name, heard: false, why: "muted" }); return; }
  if (!touched) { note({ name, heard: false, why: "untouched" }); return; }
  wake();
  if (!audio || audio.state === "closed") { note({ name, heard: false, why: "no audio" }); return; }
  try {
    const start = audio.currentTime + 0.01;
    for (const voice of recipe) sound(voice, start);
    note({ name, heard: true, voices: recipe.length, state: audio.state });
  } catch (err) {
    note({ name, heard: false, why: String(err) });
  }
}

function sound(voice, start) {
  const at = start + (voice.at ?? 0);
  const end = at + voice.d;
  const gain = audio.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(voice.g ?? 0.3, at + 0.006);
  gain.gain.exponentialRampToValueAtTime(0.0001, end);
  gain.connect(master);
  let source;
  if (voice.wave === "noise") {
    source = audio.createBufferSource();
    source.buffer = noiseBuffer();
    const filter = audio.createBiquadFilter();
    filter.type = voice.filter ?? "bandpass";
    filter.frequency.setValueAtTime(voice.f, at);
    if (voice.to) filter.frequency.exponentialRampToValueAtTime(voice.to, end);
    filter.Q.value = voice.q ?? 1;
    source.connect(filter).connect(gain);
  } else {
    source = audio.createOscillator();
    source.type = voice.wave;
    source.frequency.setValueAtTime(voice.f, at);
    if (voice.to) source.frequency.exponentialRampToValueAtTime(voice.to, end);
    source.connect(gain);
  }
  source.start(at);
  source.stop(end + 0.02);
  source.onended = () => gain.disconnect();
}

function noiseBuffer() {
  if (!noise) {
    noise = audio.createBuffer(1, audio.sampleRate, audio.sampleRate);
    const data = noise.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  }
  return noise;
}
