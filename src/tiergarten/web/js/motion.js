// Motion as decoration: a move is applied at once (the board is drawn in its new state) and an
// animation may then show where things went, never for longer than MAX_MS and never in the way
// of the pointer. With `prefers-reduced-motion: reduce` nothing moves (the stylesheet switches
// CSS animations off; the animations made here are not started at all).
//
// Flights: a game's board module may name, for the log entries a new state brings, what flew
// where (`flights(events, ctx)` → [{ from, to }], CSS selectors within the table's view: a card
// from the hand to the pile, a herd to its taker). Before the board is drawn anew, takeOff()
// copies each source where it is; after, land() flies the copy to the target's place (FLIP:
// the copy starts where the source was and moves, by a transform only, to where the target is
// now) and removes it. The copy is inert, hidden from assistive technology and lets every
// click through: input is never blocked or delayed by it.
export const MAX_MS = 300;
export const FLIGHT_MS = 260;

const query = window.matchMedia?.("(prefers-reduced-motion: reduce)");
export const reduced = () => Boolean(query?.matches);

// el.animate, capped at MAX_MS and skipped under reduced motion; returns the Animation or null.
export function animate(el, keyframes, options = {}) {
  if (reduced() || !el?.animate) return null;
  try {
    return el.animate(keyframes, { easing: "ease-out", ...options, duration: Math.min(options.duration ?? 200, MAX_MS) });
  } catch {
    return null;
  }
}

const MAX_SOURCES = 4;  // a flight copies at most this many elements (a lay of four cards)

// The flights' sources, copied where they are now (before the board is drawn anew).
export function takeOff(root, flights) {
  if (reduced() || !flights?.length || !root) return [];
  const out = [];
  for (const { from, to } of flights) {
    for (const el of [...root.querySelectorAll(from)].slice(0, MAX_SOURCES)) {
      const rect = el.getBoundingClientRect();
      if (rect.width && rect.height) out.push({ rect, ghost: ghostOf(el, rect), to });
    }
  }
  return out;
}

// Each copy flies from where its source was to where its target is now, then goes.
export function land(root, taken) {
  for (const { rect, ghost, to } of taken) {
    const target = root.querySelector(to);
    const end = target?.getBoundingClientRect();
    if (!end || !end.width) continue;
    document.body.append(ghost);
    const dx = end.left + end.width / 2 - (rect.left + rect.width / 2);
    const dy = end.top + end.height / 2 - (rect.top + rect.height / 2);
    const scale = Math.max(0.35, Math.min(1, end.height / rect.height));
    const flight = animate(ghost, [{ transform: "none", opacity: 1 },
      { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.35 }],
    { duration: FLIGHT_MS, easing: "ease-in-out", fill: "forwards" });
    if (!flight) { ghost.remove(); continue; }
    flight.id = "flight";
    const done = () => ghost.remove();
    flight.addEventListener("finish", done);
    flight.addEventListener("cancel", done);
  }
}

// A copy to fly: the source's look without its parts' ids, names, data or controls (a button
// becomes a box), so that nothing in the page or a test takes it for the real thing.
function ghostOf(el, rect) {
  const ghost = document.createElement("div");
  ghost.className = el.className?.baseVal ?? el.className ?? "";
  const parts = el instanceof SVGElement ? [el] : [...el.childNodes];
  ghost.append(...parts.map((node) => plain(node.cloneNode(true))));
  ghost.classList.add("motion-ghost");
  ghost.setAttribute("aria-hidden", "true");
  ghost.inert = true;
  Object.assign(ghost.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` });
  return ghost;
}

const CONTROLS = new Set(["BUTTON", "A", "INPUT", "SELECT", "TEXTAREA", "LABEL"]);

function plain(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return node;
  if (node instanceof SVGElement) {  // a card's face: drawn by its own attributes
    for (const one of [node, ...node.querySelectorAll("[id]")]) one.removeAttribute("id");
    return node;
  }
  const box = CONTROLS.has(node.nodeName) ? document.createElement("span") : node;
  if (box !== node) box.append(...node.childNodes);
  for (const { name } of [...box.attributes]) if (name !== "style") box.removeAttribute(name);
  for (const child of [...box.childNodes]) box.replaceChild(plain(child), child);
  return box;
}
