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

// Makes an SVG node a button for a legal move: click, Enter or Space plays it.
export function clickable(node, move, onMove, label) {
  node.classList.add("playable");
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  node.setAttribute("aria-label", label || move.text);
  node.dataset.move = move.text;
  node.addEventListener("click", (e) => { e.stopPropagation(); onMove(move.action); });
  node.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); onMove(move.action); }
  });
  return node;
}
