// MammuZ's sounds and motions (the shared machinery: js/sound.js, js/motion.js, js/table/
// feedback.js): cards laid face down, a doubted card turned, the rumble of a herd taken, an
// animal made extinct; a lay flies from the hand (or the player's backs) to the herd, a taken
// herd to its taker.

// Each a recipe of js/sound.js: voices of an oscillator or of filtered noise.
export const sounds = {
  card: [{ wave: "noise", filter: "bandpass", f: 1800, to: 700, d: 0.08, g: 0.45, q: 0.8 },
    { wave: "noise", filter: "bandpass", f: 1600, to: 700, at: 0.05, d: 0.07, g: 0.3, q: 0.8 }],
  turn: [{ wave: "noise", filter: "highpass", f: 1800, to: 4200, d: 0.12, g: 0.22 }],
  herd: [{ wave: "noise", filter: "lowpass", f: 520, to: 160, d: 0.42, g: 0.7 },
    { wave: "sine", f: 92, to: 52, d: 0.4, g: 0.45 }, { wave: "sine", f: 70, to: 45, at: 0.12, d: 0.3, g: 0.35 }],
  extinct: [{ wave: "triangle", f: 440, to: 220, d: 0.35, g: 0.25 }],
};

export function soundOf(event) {
  switch (event.act) {
    case "lay": return "card";
    case "doubt": return "turn";
    case "take": case "take_jackpot": return "herd";
    case "extinct": return "extinct";
    default: return null;
  }
}

const place = (seat, ctx) => (seat === ctx.seat ? ".hand" : `.opponent[data-seat="${seat}"]`);

export function flights(events, ctx) {
  const out = [];
  for (const event of events) {
    if (event.act === "lay") {
      out.push({ from: event.seat === ctx.seat ? ".hand .card.selected" : `.opponent[data-seat="${event.seat}"] .backs > :last-child`,
        to: ".herd .lay.last" });
    } else if (event.act === "take") out.push({ from: ".herd .lay", to: place(event.seat, ctx) });
  }
  return out;
}
