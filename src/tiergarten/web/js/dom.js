// A tiny element builder: h("button#go.primary", {onclick}, "Play") -> <button id="go" class="primary">.
// Handlers are listeners and styles go through the style object, never attributes: the server's
// Content-Security-Policy allows no inline script and no inline style (server/edge/headers.py).
export function h(spec, attrs = {}, ...children) {
  const [head, ...classes] = spec.split(".");
  const [tag, id] = head.split("#");
  const el = document.createElement(tag || "div");
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) listen(el, key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style") el.style.cssText = value;  // the style object: allowed by the CSP
    else if (key === "html") el.innerHTML = value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, value);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// Parse an SVG string into an element (for card faces).
export function svg(markup) {
  const template = document.createElement("template");
  template.innerHTML = markup.trim();
  return template.content.firstElementChild;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

let toastTimer = null;
let toastForNext = false;  // the toast is about the page being opened (a welcome), not this one
// A short message; `forNext`: it stays when the page changes next (it is shown just before).
export function toast(message, kind = "info", forNext = false) {
  toastForNext = forNext;
  const el = document.getElementById("toast");
  el.textContent = message;
  el.className = kind;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, kind === "error" ? 6000 : 3000);
}

// The toast goes with the page it was about (app.js: on every change of route).
export function hideToast() {
  if (toastForNext) { toastForNext = false; return; }
  clearTimeout(toastTimer);
  const el = document.getElementById("toast");
  if (el) el.hidden = true;
}

// Handlers live in el.__on and one dispatcher per event type calls them, so that `morph` can
// move the handlers of a freshly built element onto the element already on screen.
function dispatch(event) {
  this.__on?.[event.type]?.call(this, event);
}

function listen(el, type, handler) {
  el.__on = el.__on || {};
  if (!el.__on[type]) el.addEventListener(type, dispatch);
  el.__on[type] = handler;
}

// Make the children of `target` look like the children of `source`, reusing the elements on
// screen: a button under the pointer survives a new state arriving mid-click (real-time games
// send several a second), and running animations are not restarted.
export function morphChildren(target, source) {
  const next = [...source.childNodes];
  next.forEach((node, i) => {
    const old = target.childNodes[i];
    if (!old) target.append(node);
    else morph(old, node);
  });
  while (target.childNodes.length > next.length) target.lastChild.remove();
}

function morph(from, to) {
  // Elements with ids are different things (the rules panel is not the log): never morph one
  // into the other, or the reader's open/closed choice of one would carry over to the other.
  if (from.nodeType !== to.nodeType || from.nodeName !== to.nodeName || (from.id || "") !== (to.id || "")) {
    from.replaceWith(to);
    return;
  }
  if (from.nodeType !== Node.ELEMENT_NODE) {
    if (from.nodeValue !== to.nodeValue) from.nodeValue = to.nodeValue;
    return;
  }
  const keepOpen = from.nodeName === "DETAILS";                  // the reader opened or closed it
  const typing = from === document.activeElement && "value" in from;
  for (const { name } of [...from.attributes]) {
    if (!to.hasAttribute(name) && !(keepOpen && name === "open")) from.removeAttribute(name);
  }
  for (const { name, value } of [...to.attributes]) {
    if (keepOpen && name === "open") continue;
    if (typing && name === "value") continue;
    if (name === "style") {  // a style attribute set directly is refused by the CSP
      if (from.style.cssText !== to.style.cssText) from.style.cssText = to.style.cssText;
      continue;
    }
    if (from.getAttribute(name) !== value) from.setAttribute(name, value);
  }
  if ("value" in to && !typing && from.value !== to.value) from.value = to.value;
  if ("checked" in to && from.checked !== to.checked) from.checked = to.checked;
  for (const type of Object.keys(from.__on || {})) if (!to.__on?.[type]) delete from.__on[type];
  for (const [type, handler] of Object.entries(to.__on || {})) listen(from, type, handler);
  if (from.nodeName === "SELECT" && from === document.activeElement) return;
  morphChildren(from, to);
}
