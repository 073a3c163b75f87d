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

// ``name`` in at most ``max`` characters, keeping what tells seats apart: a bot's number
// ("Greedy (medium) 2") is never cut, its level is shortened first ("Greedy (med.) 2"),
// then left out ("Greedy 2"), and only then is the name cut, before the number.
export function short(name, max) {
  const text = String(name);
  if (text.length <= max) return text;
  const [, base, level, number = ""] = text.match(/^(.*?)(?: \(([^)]*)\))?( \d+)?$/);
  const tries = level ? [`${base} (${level.slice(0, 3)}.)${number}`, `${base}${number}`] : [];
  const fits = tries.find((t) => t.length <= max);
  if (fits) return fits;
  const head = level ? base : text.slice(0, text.length - number.length);
  return head.slice(0, Math.max(1, max - 1 - number.length)) + "…" + number;
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
// ("=1st"), "" for a seat that takes no part. The engine ranks the seats by the game's own
// rules (``result.placings``: who was knocked out last, rounds won, points); games stored
// before it did are ranked by their returns, and a resigned game puts the one who resigned
// last.
export function placings(result, n) {
  if (!result) return null;
  let place = result.placings;
  if (!place) {
    const score = result.returns
      ? result.returns
      : Array.from({ length: n }, (_, s) => (s === result.resigned ? 0 : 1));
    place = score.map((mine) => 1 + score.filter((other) => other > mine).length);
  }
  return place.map((mine, s) => {
    if (mine === null || mine === undefined) return "";
    const tied = place.some((other, t) => other === mine && t !== s);
    return `${tied ? "=" : ""}${ordinal(mine)}`;
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

// Every line of words drawn on a board fits where it is drawn: a line wider than the box
// behind it (a banner, a card, a button) or than the board is drawn smaller, as far as it
// must, so that nothing runs past its box on a phone (a name or a sentence is never cut
// here: ``short`` keeps what tells seats apart). Measured once the board is on the page.
export function fitWords(root) {
  // Every line is measured first, then the ones too wide are changed: a change between two
  // measures would make the browser lay the board out again for each line.
  const tooWide = [];
  for (const words of root.querySelectorAll("svg text")) {
    const drawn = words.getBoundingClientRect();
    if (!drawn.width) continue;
    const room = roomFor(words, drawn);
    if (drawn.width > room + 1) tooWide.push([words, room / drawn.width]);
  }
  const sizes = tooWide.map(([words]) => parseFloat(getComputedStyle(words).fontSize));
  tooWide.forEach(([words, scale], i) => {
    words.style.fontSize = `${(sizes[i] * scale).toFixed(2)}px`;
  });
}

// The width a line of words may take on the screen: the box drawn behind it (the first
// shape of its group, if the words are inside it) less a margin, and never past the board.
function roomFor(words, drawn) {
  const board = words.ownerSVGElement.getBoundingClientRect();
  const middle = (drawn.left + drawn.right) / 2;
  const anchor = words.getAttribute("text-anchor") || getComputedStyle(words).textAnchor;
  const fromStart = anchor === "end" ? drawn.right - board.left : board.right - drawn.left;
  let room =
    anchor === "middle" ? 2 * Math.min(middle - board.left, board.right - middle) : fromStart;
  const box = words.parentNode.querySelector(":scope > rect:not(.press)");
  if (box) {
    const b = box.getBoundingClientRect(),
      y = (drawn.top + drawn.bottom) / 2;
    if (b.width && b.left <= middle && middle <= b.right && b.top <= y && y <= b.bottom) {
      const margin = Math.min(8, b.width / 20);
      const inBox =
        anchor === "middle"
          ? 2 * Math.min(middle - b.left, b.right - middle) - 2 * margin
          : anchor === "end"
            ? drawn.right - b.left - margin
            : b.right - drawn.left - margin;
      room = Math.min(room, inBox);
    }
  }
  return Math.max(room, 1);
}
