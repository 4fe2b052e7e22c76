// Lecker Mammut!'s sounds and motions (the shared machinery: js/sound.js, js/motion.js,
// js/table/feedback.js): a card flipped, the club's thwack (at once when this screen's club is
// pressed; another's when their hit is told), a wrong hit; the cards of a good hit fly from the
// middle to the hitter. A flipped card turns over on its slot (style.css).

// Each a recipe of js/sound.js: voices of an oscillator or of filtered noise.
export const sounds = {
  flip: [{ wave: "noise", filter: "highpass", f: 1500, to: 6000, d: 0.07, g: 0.3 }],
  thwack: [{ wave: "sine", f: 170, to: 48, d: 0.2, g: 0.9 },
    { wave: "noise", filter: "lowpass", f: 1400, to: 300, d: 0.07, g: 0.8 },
    { wave: "square", f: 95, to: 60, d: 0.05, g: 0.12 }],
  mistake: [{ wave: "sawtooth", f: 150, to: 110, d: 0.28, g: 0.12 }],
};

// `ctx.mine`: the seats of this screen, whose thwack sounded at their press already.
export function soundOf(event, ctx) {
  switch (event.act) {
    case "flip": return "flip";
    case "hit": return ctx.mine.includes(event.seat) ? null : "thwack";
    case "mistake": case "miss": return "mistake";
    default: return null;
  }
}

export function flights(events) {
  return events.filter((e) => e.act === "hit").map((e) => ({ from: ".lm-middle .lm-slot", to: `.lm-seat[data-seat="${e.seat}"]` }));
}
