// Small helpers shared by the pages: DOM building, the JSON API, SVG.

export const SVG_NS = "http://www.w3.org/2000/svg";

// el("div", {class: "x", onclick: f}, child, "text", ...)
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
}

function append(node, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export async function api(path, options = {}) {
  const init = { headers: { "content-type": "application/json" }, ...options };
  if (init.body && typeof init.body !== "string") init.body = JSON.stringify(init.body);
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({ message: response.statusText }));
  if (!response.ok) throw new Error(data.message || `HTTP ${response.status}`);
  return data;
}

export function seatName(seats, seat) {
  if (seat === -1 || seat === null || seat === undefined) return "chance";
  const s = seats && seats[seat];
  return s ? s.name : `seat ${seat}`;
}

export function titleCase(text) {
  return String(text).replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}

// A board element that acts like a button: clickable, focusable, Enter or Space to press,
// labelled for screen readers; data-move carries the move string when it plays one.
export function pressable(node, label, handler, move) {
  node.classList.add("playable");
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  node.setAttribute("aria-label", label);
  if (move) node.dataset.move = move;
  node.addEventListener("click", handler);
  node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); handler(); } });
  return node;
}

// A board element that plays ``move``; the press stays with it (a playable element inside
// another one does not press its parent too).
export function clickable(node, move, onMove, label) {
  pressable(node, label || move.text, () => onMove(move.action), move.text);
  node.addEventListener("click", (e) => e.stopPropagation());
  node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") e.stopPropagation(); });
  return node;
}
