// Mau Mau's sounds and motions (the shared machinery: js/sound.js, js/motion.js, js/table/
// feedback.js): a card slapped on the pile, a card drawn; a played card flies from the hand
// (or the player's fan of backs) to the pile, a drawn one from the stock.

// Each a recipe of js/sound.js: voices of an oscillator or of filtered noise.
export const sounds = {
  card: [{ wave: "noise", filter: "bandpass", f: 2600, to: 900, d: 0.07, g: 0.5, q: 0.9 },
    { wave: "sine", f: 190, to: 110, d: 0.06, g: 0.3 }],
  draw: [{ wave: "noise", filter: "highpass", f: 2400, to: 5200, d: 0.1, g: 0.18 }],
};

// The sound of a log entry, if any.
export function soundOf(event) {
  if (event.act.startsWith("play ")) return "card";
  if (event.act === "draw") return "draw";
  return null;
}

const fan = (seat) => `.opponent[data-seat="${seat}"] .backs > :last-child`;

// What flew where for the entries a state brings (selectors within the board).
export function flights(events, ctx) {
  const out = [];
  for (const event of events) {
    const [act, card] = event.act.split(" ");
    const mine = event.seat === ctx.seat;
    if (act === "play") out.push({ from: mine ? `.hand .card[data-card="${card}"]` : fan(event.seat), to: ".discard" });
    else if (act === "draw") out.push({ from: ".stock svg", to: mine ? ".hand" : fan(event.seat) });
  }
  return out;
}
