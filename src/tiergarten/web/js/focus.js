// Dialogs drawn on a screen (role="dialog": Mau Mau's suit chooser, Lecker Mammut!'s call) take
// the focus when they appear and give it back when they go: to the element that opened them
// (the Jack, the club) when it is still there and enabled, else to the board. Tab stays inside
// an open dialog; Escape presses its cancel button ([data-dialog-close]), where closing is safe.
const FOCUSABLE = "button:not([disabled]), [href], input:not([disabled]), select, [tabindex]:not([tabindex='-1'])";

export function dialogFocus(root) {
  let open = null;     // the dialog on screen
  let opener = null;   // what had the focus when it appeared
  const onKey = (event) => {
    if (!open || !open.isConnected) return;
    if (event.key === "Escape") {
      const close = open.querySelector("[data-dialog-close]");
      if (close) { event.preventDefault(); event.stopPropagation(); close.click(); }
    } else if (event.key === "Tab") {
      const items = [...open.querySelectorAll(FOCUSABLE)];
      if (!items.length) return;
      const at = items.indexOf(document.activeElement);
      const next = event.shiftKey ? (at <= 0 ? items.length - 1 : at - 1) : (at + 1) % items.length;
      event.preventDefault();
      items[next].focus();
    }
  };
  root.addEventListener("keydown", onKey, true);
  // After each drawing of the screen; `before`: what had the focus before it was drawn (drawing
  // may have replaced that element: the focus then goes to the element in its place).
  return function update(before) {
    const dialog = root.querySelector("[role=dialog]");
    if (dialog === open) {
      // a redraw replaced the focused element (the club after a penalty): its successor
      if (!dialog && before && !before.isConnected && lostFocus()) again(root, before)?.focus();
      return;
    }
    if (dialog) {
      if (!open) opener = before;
      open = dialog;
      if (!dialog.contains(document.activeElement)) dialog.querySelector(FOCUSABLE)?.focus();
      return;
    }
    const lost = lostFocus() || (open && open.contains(document.activeElement));
    open = null;
    if (!lost) { opener = null; return; }
    const back = opener && opener !== document.body ? again(root, opener) : null;
    if (back) back.focus();
    else root.querySelector(".board")?.focus();
    opener = null;
  };
}

const lostFocus = () => !document.activeElement || document.activeElement === document.body
  || !document.activeElement.isConnected;

// The opener itself, or (the screen was drawn anew) the element now in its place: the same tag
// and first class with the same data-* attributes (the Jack's data-card, the club's data-seat); none if it went
// (the card was played) or cannot be used now.
function again(root, opener) {
  const usable = (el) => el && el.isConnected && !el.disabled;
  if (usable(opener)) return opener;
  const data = Object.entries(opener.dataset || {});
  if (!data.length) return null;
  const kind = opener.classList[0] ? `.${CSS.escape(opener.classList[0])}` : "";
  const selector = opener.tagName.toLowerCase() + kind + data.map(([key, value]) =>
    `[data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${CSS.escape(value)}"]`).join("");
  const found = root.querySelector(selector);
  return usable(found) ? found : null;
}
