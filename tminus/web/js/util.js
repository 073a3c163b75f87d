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

// What people call a seat: its name ("Player 2" if unknown), never the 0-based seat.
export function seatName(seats, seat) {
  if (seat === -1 || seat === null || seat === undefined) return "chance";
  const s = seats && seats[seat];
  return s ? s.name : `Player ${seat + 1}`;
}

// The mark on a seat's colour dot: the first letter of its name.
export function initial(name) {
  const letter = String(name || "")
    .trim()
    .match(/[\p{L}\p{N}]/u);
  return letter ? letter[0].toUpperCase() : "?";
}

export function short(name, max) {
  const text = String(name);
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

// 1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd".
export function ordinal(n) {
  const tens = n % 100,
    units = n % 10;
  const suffix =
    tens >= 11 && tens <= 13
      ? "th"
      : units === 1
        ? "st"
        : units === 2
          ? "nd"
          : units === 3
            ? "rd"
            : "th";
  return `${n}${suffix}`;
}

// Each seat's placing from a finished game's result: "1st", "2nd", tied seats share one
// ("=1st"); a resigned game ranks the winners first and the one who resigned last.
export function placings(result, n) {
  if (!result) return null;
  let score;
  if (result.returns) score = result.returns;
  else if (result.winners)
    score = Array.from({ length: n }, (_, s) =>
      result.winners.includes(s) ? 1 : s === result.resigned ? -1 : 0,
    );
  else return null;
  return score.map((mine, s) => {
    const better = score.filter((other) => other > mine).length;
    const tied = score.filter((other, t) => other === mine && t !== s).length > 0;
    return `${tied ? "=" : ""}${ordinal(better + 1)}`;
  });
}

export function titleCase(text) {
  return String(text)
    .replace(/_/g, " ")
    .replace(/^./, (c) => c.toUpperCase());
}

// A board element that acts like a button: clickable, focusable, Enter or Space to press,
// labelled for screen readers; data-move carries the move string when it plays one.
// ``hit`` (optional): a shape laid over the element that is the button itself, so that the
// words drawn on the element (a card's corner numbers, a pile's count) stay outside it: a
// button's name must contain the words it shows (WCAG 2.5.3), and these are decoration.
export function pressable(node, label, handler, move, hit = null) {
  node.classList.add("playable");
  if (move) node.dataset.move = move;
  const button = hit || node;
  if (hit) {
    hit.classList.add("press");
    node.append(hit); // on top of everything drawn so far: it takes the clicks
  }
  button.setAttribute("role", "button");
  button.setAttribute("tabindex", "0");
  button.setAttribute("aria-label", label);
  // Its name is the label: the text drawn inside (a card's corners, a badge) is decoration,
  // hidden from screen readers once the board is built.
  queueMicrotask(() =>
    node.querySelectorAll("text").forEach((t) => t.setAttribute("aria-hidden", "true")),
  );
  button.addEventListener("click", handler);
  button.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      handler();
    }
  });
  return node;
}

// A board element that plays ``move``; the press stays with it (a playable element inside
// another one does not press its parent too).
// Its label for people is the server's words for the move (``label``), unless the board says
// more about where it is; programs (and tests) read data-move.
export function clickable(node, move, onMove, label, hit = null) {
  pressable(node, label || move.label || move.text, () => onMove(move.action), move.text, hit);
  node.dataset.action = move.action; // (a hint marks the move it names)
  const button = hit || node;
  button.addEventListener("click", (e) => e.stopPropagation());
  button.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") e.stopPropagation();
  });
  return node;
}
