// Mucca Pazza's sounds and motions (the shared machinery: js/sound.js, js/motion.js,
// js/table/feedback.js): a row slid, a card turned, a cow's moo for a card won, a soft "no"
// for a miss; a won card flies to its winner. A slid row slides (style.css).

// Each a recipe of js/sound.js: voices of an oscillator or of filtered noise.
export const sounds = {
  slide: [{ wave: "noise", filter: "bandpass", f: 900, to: 1800, d: 0.09, g: 0.3, q: 1.2 }],
  turn: [{ wave: "noise", filter: "highpass", f: 1800, to: 4200, d: 0.1, g: 0.2 }],
  moo: [{ wave: "sawtooth", f: 150, to: 118, d: 0.45, g: 0.13 }, { wave: "sine", f: 300, to: 236, d: 0.45, g: 0.12 }],
  miss: [{ wave: "triangle", f: 330, to: 247, d: 0.22, g: 0.2 }],
};

export function soundOf(event) {
  switch (event.act) {
    case "slide": return "slide";
    case "reveal": case "back": return "turn";
    case "take": case "score": case "last": return "moo";
    case "fail": return "miss";
    default: return null;
  }
}

export function flights(events) {
  const out = [];
  for (const event of events) {
    const to = `.mp-player[data-seat="${event.seat}"] .mp-won`;
    if (event.act === "take" || event.act === "last") out.push({ from: `.mp-slot[data-k="${event.position}"]`, to });
    else if (event.act === "score") out.push({ from: ".mp-landing-cards .mp-card.complete", to });
  }
  return out;
}
