// Count Down: the track of squares around the board, every rocket piece on its square, the
// space centres in service (rocket built up stage by stage, money, control card with the
// photo cards held ticked, agent cards: names for their holder, counts for the others), the
// ball, the countdown, and the current decision. Moves are clickable where they belong: the
// square to go to, the photo square to buy, a part of a rocket, a photo card of a centre,
// and the decision tray in the middle; they are always listed as buttons too.
//
// The printed board (track, cards, prices) is public data the same all game: it comes once
// from /api/games/{id}/layout and is kept here.
// The board is wider than high, the shape of a desktop's board box (about 890 × 610 px at
// 1280 × 800), so that a board unit is about 0.8 px there and the squares' words can be read.
// Centres out of service get no panel (their launch ramp says so): their room goes to the
// centres in play.
// On a phone the board sits in a frame: it fits the width as an overview (nothing to tap
// there: the moves are the buttons below), and zooms in (buttons, double-tap, pinch) inside
// the frame, which pans; zoomed, whatever is big enough for a thumb plays on the board too.
// The last move is marked: the square a rocket left, and the rocket's step along the track.
import { api, clickable, el, initial, seatName, svg } from "../util.js";

const W = 1100,
  H = 750; // the board is W × H units
const DX = 100; // the track's left and right columns are DX wide,
const DY = 92; // its top and bottom rows DY deep; the corners (launch ramps) are DX × DY
const EDGE = 8; // the coloured band on a square's inner edge
const GAP = 10;
// Inside the track: the centres in service and the middle band.
const INNER = { x: DX + GAP, y: DY + GAP, w: W - 2 * (DX + GAP), h: H - 2 * (DY + GAP) };
// A centre's panel is laid out at least PANEL_W × PANEL_H, then scaled to fill its place.
const PANEL_W = 272,
  PANEL_H = 268;
const STRIP_H = 200; // the band across the board, below a row of two or three centres
const TITLE_EM = 6.2; // a square title's average character width (13 units, condensed)
const MIDDLE = { "text-anchor": "middle" };
const KIND_LABEL = {
  ramp: "Launch ramp",
  forbidden: "Forbidden zone",
  photo: "Photo card",
  part: "Rocket part",
  saturn: "Saturn V",
  surprise: "Surprise",
  funding: "Funding",
  espionage: "Espionage: take a green agent card",
  sabotage: "Sabotage: take a red agent card",
  training: "Astronaut training",
};
const PART_SHAPES = [
  // bottom to top: stage 1, stage 2, stage 3, capsule (width, height)
  { w: 58, h: 86 },
  { w: 50, h: 62 },
  { w: 42, h: 50 },
  { w: 42, h: 46 },
];
const PART_HIT_W = 58;
const ROCKET_SCALE = 0.72; // the rocket as drawn in a panel
const ROW_H = 17; // a photo card's row on a control card, and a spare card's chip
const ROW_PITCH = 18;
const AGENT_H = 20;

const layouts = new Map(); // game id -> layout, or a promise while it loads
// In a meeting, a photo card or part clicked on the board: its offers fill the tray.
let selected = null;
let current = null; // what is drawn: { obs, ctx, layout, root }
// On a phone: how far the board is zoomed (an index into ZOOMS), where its frame was
// scrolled to, and the moment the frame last followed (so that a redraw of the same moment
// does not undo the player's own panning).
// Zoom 1 makes the shallowest squares (a side column's, 38 units) thumb-sized, the last a
// control card's row (17 units).
const ZOOMS = [0, 1.2, 1.8, 2.6]; // screen px per board unit; 0: the board fits the width
const MIN_TARGET = 44; // px: the least a thumb can hit (WCAG 2.5.5)
const zoom = { level: 0, left: 0, top: 0, followed: null, gliding: false };
let pxPerUnit = Infinity; // the scale being drawn at; on a desktop every move is clickable

// Whether a thing ``units`` board units across is big enough to tap at this scale.
function big(units) {
  return units * pxPerUnit >= MIN_TARGET;
}

function gameId() {
  return decodeURIComponent(location.pathname.split("/").pop());
}

// -- helpers -----------------------------------------------------------------------------
function text(x, y, content, cls, extra = {}) {
  return svg("text", { x, y, class: cls, ...extra }, content);
}

// A line of words that must stay within ``width`` units: drawn narrower if this screen's
// font makes it wider (see fitLines), never cut.
function line(x, y, content, cls, width, extra = {}) {
  return text(x, y, content, cls, { "data-fit": Math.floor(width), ...extra });
}

// Words wrapped to lines about ``width`` units wide (``em``: the font's average character
// width), as one text of a line each; every line but the last keeps its space, so that the
// words read whole to a screen reader. Its ``lines``: how many.
function paragraph(x, y, content, cls, width, em, pitch) {
  const lines = wrap(content, Math.max(1, Math.floor(width / em)));
  const node = text(x, y, null, cls);
  lines.forEach((words, k) =>
    node.append(
      svg(
        "tspan",
        { x, dy: k ? pitch : null, "data-fit": Math.floor(width) },
        k < lines.length - 1 ? words + " " : words,
      ),
    ),
  );
  node.lines = lines.length;
  return node;
}

// Once drawn: a line wider than its room is drawn narrower (the glyphs squeezed a little),
// so that a font wider than the one planned for keeps every word, and its size.
function fitLines(root) {
  if (!root.isConnected) return;
  for (const words of root.querySelectorAll("[data-fit]")) {
    const room = Number(words.dataset.fit);
    if (words.getComputedTextLength() > room) {
      words.setAttribute("textLength", room);
      words.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
  }
}

function wrap(content, max) {
  const lines = [];
  for (const word of String(content).split(" ")) {
    const last = lines[lines.length - 1];
    if (last !== undefined && (last + " " + word).length <= max)
      lines[lines.length - 1] = last + " " + word;
    else lines.push(word);
  }
  return lines;
}

// ``wrap``, in at most ``most`` lines (the rest joins the last).
function wrapIn(content, max, most) {
  const lines = wrap(content, max);
  return lines.length <= most
    ? lines
    : [...lines.slice(0, most - 1), lines.slice(most - 1).join(" ")];
}

function money(m) {
  return `${m < 0 ? "−" : ""}${Math.abs(m).toLocaleString("en-GB")} M`;
}

function seatClass(seat) {
  return `seat-${seat}`;
}

// The legal moves by what they touch on the board, read from each move's struct (cards by
// name, seats as seats; the game's ActionSpace.struct).
function classify(legal) {
  const m = {
    tray: [],
    track: {},
    buyPhoto: null,
    saturn: null,
    parts: {},
    photos: {},
    missions: {},
    money: [],
    offers: [],
  };
  for (const move of legal) {
    const s = move.struct;
    switch (s.kind) {
      case "forward":
      case "backward":
        m.track[s.kind] = move;
        m.tray.push(move);
        break;
      case "buy photo":
        m.buyPhoto = move;
        m.tray.push(move);
        break;
      case "buy Saturn V":
        m.saturn = move;
        m.tray.push(move);
        break;
      case "buy part":
        m.parts[`buy:${s.part}`] = move;
        m.tray.push(move);
        break;
      case "sell part":
        m.parts[`sell:${s.part}`] = move;
        break;
      case "sell photo":
        m.photos[`sell:${s.photo}`] = move;
        break;
      case "target": // what a mission hits: a photo card or a part
        if (s.photo !== undefined) m.photos[`target:${s.photo}`] = move;
        else m.parts[`target:${s.part}`] = move;
        break;
      case "ask for":
        m.photos[`ask:${s.seat}:${s.photo}`] = move;
        break;
      case "demand":
        m.parts[`demand:${s.seat}:${s.part}`] = move;
        break;
      case "mission":
        m.missions[s.agent] = move;
        break;
      case "bid":
      case "ask":
      case "counter":
        m.money.push(move);
        break;
      case "offer":
        m.offers.push(move);
        break;
      default:
        m.tray.push(move); // sell Saturn V (to pay a debt), roll, pay, done, …
    }
  }
  return m;
}

// -- the track -----------------------------------------------------------------------------
// Square i's place: the launch ramps in the corners, the squares between them along the
// sides (a top or bottom row's squares are narrow and deep, a side column's wide and
// shallow).
function geometry(n) {
  const side = Math.ceil(n / 4);
  const across = (W - 2 * DX) / (side - 1), // a top or bottom square's width
    along = (H - 2 * DY) / (side - 1); // a side square's height
  return (i) => {
    const s = Math.floor(i / side),
      t = i % side;
    if (t === 0)
      return {
        x: s === 0 || s === 3 ? 0 : W - DX,
        y: s < 2 ? 0 : H - DY,
        w: DX,
        h: DY,
        corner: true,
        side: s,
      };
    if (s === 0) return { x: DX + (t - 1) * across, y: 0, w: across, h: DY, side: s };
    if (s === 1) return { x: W - DX, y: DY + (t - 1) * along, w: DX, h: along, side: s };
    if (s === 2) return { x: W - DX - t * across, y: H - DY, w: across, h: DY, side: s };
    return { x: 0, y: H - DY - t * along, w: DX, h: along, side: s };
  };
}

// A square's coloured band on its inner edge, and the room left for its words.
function edges(r) {
  if (r.corner) return { band: null, room: { x: 0, y: 0, w: r.w, h: r.h } };
  return {
    0: { band: [0, r.h - EDGE, r.w, EDGE], room: { x: 0, y: 0, w: r.w, h: r.h - EDGE } },
    1: { band: [0, 0, EDGE, r.h], room: { x: EDGE, y: 0, w: r.w - EDGE, h: r.h } },
    2: { band: [0, 0, r.w, EDGE], room: { x: 0, y: EDGE, w: r.w, h: r.h - EDGE } },
    3: { band: [r.w - EDGE, 0, EDGE, r.h], room: { x: 0, y: 0, w: r.w - EDGE, h: r.h } },
  }[r.side];
}

function ownerSeats(obs, centre) {
  const view = obs.centres[centre - 1];
  return view && view.in_service ? view.seats : [];
}

// A square's words: its title, and a short line under it (the price, the amount).
function squareLabel(sq, layout, closed) {
  switch (sq.kind) {
    case "photo": {
      const card = layout.photo_cards.find((p) => p.name === sq.photo);
      return { title: sq.photo, sub: card ? String(card.value) : "" };
    }
    case "part":
      return { title: sq.part.replace(/^./, (c) => c.toUpperCase()), sub: "free" };
    case "saturn":
      return { title: "Saturn V", sub: String(layout.rules.saturn_price) };
    case "funding":
      return { title: "Funding", sub: `+${sq.amount}` };
    case "training":
      return { title: "Astronaut training", sub: `fine ${layout.rules.squat_fine}` };
    case "forbidden":
      return { title: `Forbidden zone ${sq.centre}`, sub: "" };
    case "ramp":
      return { title: `Centre ${sq.centre}`, sub: closed ? "out of service" : "launch ramp" };
    default: // surprise, espionage, sabotage: the picture and the colour say the rest
      return { title: (KIND_LABEL[sq.kind] || sq.kind).split(":")[0], sub: "" };
  }
}

function glyph(sq, cx, cy, scale = 1) {
  // A small picture of the square's kind (drawn, so that no emoji font is needed).
  const g = svg("g", { class: "glyph", transform: `translate(${cx},${cy}) scale(${scale})` });
  switch (sq.kind) {
    case "photo":
      g.append(
        svg("rect", { x: -10, y: -7, width: 20, height: 14, rx: 2.5 }),
        svg("rect", { x: -4, y: -10, width: 8, height: 4, rx: 1 }),
        svg("circle", { cx: 0, cy: 0, r: 4.2, class: "lens" }),
      );
      break;
    case "part":
      g.append(
        svg("path", { d: "M-6,10 L-6,-4 Q0,-14 6,-4 L6,10 Z" }),
        svg("path", { d: "M-6,4 L-10,11 L-6,10 M6,4 L10,11 L6,10" }),
      );
      break;
    case "saturn":
      g.append(
        svg("path", { d: "M-5,13 L-5,-6 Q0,-17 5,-6 L5,13 Z" }),
        svg("path", { d: "M-5,6 L-10,14 L-5,13 Z M5,6 L10,14 L5,13 Z" }),
        svg("line", { x1: -5, y1: 0, x2: 5, y2: 0, class: "cut" }),
        svg("line", { x1: -5, y1: 6, x2: 5, y2: 6, class: "cut" }),
      );
      break;
    case "surprise":
      g.append(text(0, 9, "?", "glyph-text", { "text-anchor": "middle" }));
      break;
    case "funding":
      g.append(
        svg("circle", { r: 10 }),
        text(0, 5, "$", "glyph-coin", { "text-anchor": "middle" }),
      );
      break;
    case "espionage":
    case "sabotage":
      g.append(
        svg("rect", { x: -8, y: -10, width: 16, height: 21, rx: 2.5 }),
        svg("circle", { cx: 0, cy: -2, r: 3.5, class: "lens" }),
        svg("path", { d: "M-5,7 Q0,1 5,7", class: "cut" }),
      );
      break;
    case "training":
      g.append(
        svg("circle", { cx: 0, cy: -8, r: 4 }),
        svg("path", { d: "M0,-4 L0,5 M-8,-1 L8,-1 M0,5 L-5,12 M0,5 L5,12", class: "limb" }),
      );
      break;
    case "forbidden":
      g.append(
        svg("circle", { r: 10, class: "ring" }),
        svg("line", { x1: -7, y1: 7, x2: 7, y2: -7, class: "limb" }),
      );
      break;
    case "ramp":
      g.append(
        svg("path", {
          d: "M-14,14 L14,14 M-10,14 L-10,-10 M-10,-6 L-3,-6 M-10,2 L-3,2",
          class: "limb",
        }),
        svg("path", { d: "M3,12 L3,-4 Q7,-14 11,-4 L11,12 Z" }),
      );
      break;
    default:
      break;
  }
  return g;
}

function rocketPiece(seat, x, y, mover, label, name, step) {
  const style = step ? `--dx:${step[0].toFixed(1)}px;--dy:${step[1].toFixed(1)}px` : null;
  const g = svg("g", {
    class: `piece ${seatClass(seat)} ${mover ? "mover" : ""} ${step ? "last" : ""}`,
    transform: `translate(${x},${y})`,
    style,
    "data-seat": seat,
    role: "img",
    "aria-label": label,
  });
  g.append(svg("title", {}, label));
  if (mover) g.append(svg("circle", { r: 17, class: "halo" }));
  g.append(
    svg("path", {
      class: "hull",
      d: "M0,-15 C6,-9 7,-1 6,7 L11,13 L4,12 L0,15 L-4,12 L-11,13 L-6,7 C-7,-1 -6,-9 0,-15 Z",
    }),
  );
  g.append(svg("circle", { cy: -3, r: 3, class: "window" }));
  g.append(text(0, 11, initial(name), "piece-number", { "text-anchor": "middle" }));
  return g;
}

// Where a square's picture is: the pieces on it stand there, and a move's badge, so that
// the square's words stay readable. A side column's square has a narrow one.
function squareSpots(r) {
  const { room } = edges(r);
  const mid = room.x + room.w / 2;
  if (r.corner) return { glyph: [mid, room.y + 30], row: true };
  if (r.side % 2 === 0) return { glyph: [mid, room.y + 16], row: true };
  return { glyph: [room.x + 15, room.y + 13], row: false };
}

function squareWords(cell, sq, r, label) {
  const { room } = edges(r);
  const mid = room.x + room.w / 2;
  if (r.corner) {
    cell.append(glyph(sq, mid, room.y + 30));
    cell.append(line(mid, room.y + 62, label.title, "sq-title corner-title", room.w - 10, MIDDLE));
    cell.append(line(mid, room.y + 80, label.sub, "sq-sub", room.w - 10, MIDDLE));
  } else if (r.side % 2 === 0) {
    // up to three lines of title between the picture and the sub
    const width = room.w - 6;
    const lines = wrapIn(label.title, Math.floor(width / TITLE_EM), 3);
    const first = room.y + 52 - ((lines.length - 1) * 13.5) / 2;
    cell.append(glyph(sq, mid, room.y + 16));
    lines.forEach((words, k) =>
      cell.append(line(mid, first + k * 13.5, words, "sq-title", width, MIDDLE)),
    );
    if (label.sub) cell.append(line(mid, room.y + room.h - 6, label.sub, "sq-sub", width, MIDDLE));
  } else {
    // the picture and the sub in a column on the left, two lines of title right of it
    const x = room.x + 29,
      width = room.x + room.w - x - 5;
    const lines = wrapIn(label.title, Math.floor(width / TITLE_EM), 2);
    const first = room.y + room.h / 2 + 4.5 - ((lines.length - 1) * 13.5) / 2;
    cell.append(glyph(sq, room.x + 15, room.y + 13, 0.7));
    if (label.sub) cell.append(line(room.x + 3, room.y + room.h - 4, label.sub, "sq-sub", 26));
    lines.forEach((words, k) => cell.append(line(x, first + k * 13.5, words, "sq-title", width)));
  }
}

function track(obs, ctx, layout, moves) {
  const squares = layout.track;
  const at = geometry(squares.length);
  const g = svg("g", { class: "track" });
  const myCentre = obs.centre ? obs.centres[obs.centre - 1] : null;
  const needed = new Set(myCentre ? myCentre.missing_photos : []);
  const mover = obs.mover;
  const moverPos = mover >= 0 ? obs.positions[mover] : -1;
  const n = squares.length;
  const targets = {};
  if (moverPos >= 0 && obs.roll > 0) {
    if (moves.track.forward) targets[(moverPos + obs.roll) % n] = moves.track.forward;
    if (moves.track.backward) targets[(((moverPos - obs.roll) % n) + n) % n] = moves.track.backward;
  }
  squares.forEach((sq, i) => {
    const r = at(i);
    const owner = sq.centre ? ownerSeats(obs, sq.centre) : [];
    const centre = sq.centre ? obs.centres[sq.centre - 1] : null;
    const closed = !!centre && !centre.in_service;
    const cls = [
      "square",
      sq.kind,
      sq.kind === "photo"
        ? `value-${(layout.photo_cards.find((p) => p.name === sq.photo) || {}).value}`
        : "",
      needed.has(sq.photo) ? "needed" : "",
      owner.length ? seatClass(owner[0]) : "",
      closed ? "closed" : "",
    ];
    const cell = svg("g", {
      class: cls.join(" "),
      "data-square": i,
      transform: `translate(${r.x},${r.y})`,
    });
    const label = squareLabel(sq, layout, closed);
    cell.append(
      svg(
        "title",
        {},
        `Square ${i}: ${KIND_LABEL[sq.kind] || sq.kind}${sq.photo ? ": " + sq.photo : ""}${sq.part ? ": " + sq.part : ""}${sq.amount ? " " + sq.amount : ""}${sq.centre ? " of centre " + sq.centre : ""}${closed ? " (out of service)" : ""}`,
      ),
    );
    cell.append(svg("rect", { width: r.w, height: r.h, class: "cell" }));
    if (sq.kind === "forbidden")
      cell.append(svg("rect", { width: r.w, height: r.h, class: "hatch" }));
    const { band } = edges(r); // on the inner edge, as on printed boards
    if (band)
      cell.append(
        svg("rect", { x: band[0], y: band[1], width: band[2], height: band[3], class: "band" }),
      );
    squareWords(cell, sq, r, label);
    if (needed.has(sq.photo)) {
      const { room } = edges(r);
      cell.append(
        svg("circle", { cx: room.x + room.w - 7, cy: room.y + 7, r: 4, class: "needed-dot" }),
      );
    }
    // Where a move lands.
    const play = (move, text, badge = null) => {
      cell.append(
        svg("rect", { x: 2, y: 2, width: r.w - 4, height: r.h - 4, class: "target-ring" }),
      );
      if (badge) cell.append(badge);
      cell.classList.add("target");
      cell.dataset.lands = move.text;
      if (big(Math.min(r.w, r.h))) clickable(hitArea(cell, r.w, r.h), move, ctx.onMove, text);
    };
    const move = targets[i];
    if (move) {
      const { glyph: spot, row } = squareSpots(r);
      const forward = move.struct.kind === "forward";
      const word = row ? (forward ? "fwd ▶" : "◀ back") : forward ? "fwd" : "back";
      const bw = row ? 52 : 28;
      play(
        move,
        `${move.text}: go to square ${i} (${label.title})`,
        svg(
          "g",
          { class: "target-badge", transform: `translate(${spot[0]},${spot[1]})` },
          svg("rect", { x: -bw / 2, y: -11, width: bw, height: 22, rx: 11 }),
          line(0, 4.5, word, "target-label", bw - 4, MIDDLE),
        ),
      );
    } else if (i === moverPos && sq.kind === "photo" && moves.buyPhoto) {
      play(moves.buyPhoto, `${moves.buyPhoto.text} for ${label.sub}`);
    } else if (i === moverPos && sq.kind === "saturn" && moves.saturn) {
      play(moves.saturn, moves.saturn.text);
    }
    g.append(cell);
  });
  // The squares rockets left with the last move that moved any (a card not bought after it
  // keeps the mark; the rocket flies only when that move is the one just made).
  const where = JSON.stringify(obs.positions);
  const moved = (ctx.earlier || [ctx.before]).find(
    (o) => o && o.positions && JSON.stringify(o.positions) !== where,
  );
  const before = moved && moved.positions;
  const justNow = moved === ctx.before;
  const left = {};
  if (before)
    obs.positions.forEach((pos, seat) => {
      if (pos >= 0 && before[seat] >= 0 && before[seat] !== pos) left[seat] = before[seat];
    });
  for (const from of new Set(Object.values(left))) {
    const r = at(from);
    g.append(
      svg("rect", { x: r.x + 3, y: r.y + 3, width: r.w - 6, height: r.h - 6, class: "last-from" }),
    );
  }
  // The pieces, side by side on their squares, over the square's picture (its words stay
  // readable).
  const bySquare = {};
  obs.positions.forEach((pos, seat) => {
    if (pos >= 0) (bySquare[pos] = bySquare[pos] || []).push(seat);
  });
  for (const [pos, seats] of Object.entries(bySquare)) {
    const r = at(Number(pos));
    const { glyph: spot, row } = squareSpots(r);
    const [gx, gy] = spot;
    const step = Math.min(22, (r.w - 8) / seats.length);
    seats.forEach((seat, k) => {
      const px = r.x + (row ? gx + (k - (seats.length - 1) / 2) * step : gx + k * 20);
      const py = r.y + gy;
      const name = seatName(ctx.seats, seat);
      const label = `${name}'s rocket on square ${pos}`;
      const from = left[seat] !== undefined ? at(left[seat]) : null;
      const flight = !from
        ? null
        : justNow
          ? [from.x + from.w / 2 - px, from.y + from.h / 2 - py]
          : [0, 0];
      g.append(
        rocketPiece(seat, px, py, seat === mover && obs.phase !== "over", label, name, flight),
      );
    });
  }
  return g;
}

// -- the space centres -----------------------------------------------------------------
// Where the centres in service and the middle band go inside the track. With four, centres
// 1 and 4 stand left and 2 and 3 right, each on the side of its launch ramp, the band
// between them; with two or three, the centres share a row across the top and the band
// runs below it. Centres out of service take no room.
function plan(obs) {
  const { x, y, w, h } = INNER;
  const open = obs.centres.filter((c) => c.in_service).map((c) => c.centre);
  if (open.length === 4) {
    const ph = (h - GAP) / 2,
      right = x + w - PANEL_W,
      low = y + ph + GAP;
    const at = { 1: [x, y], 2: [right, y], 3: [right, low], 4: [x, low] };
    return {
      panels: open.map((c) => ({ centre: c, x: at[c][0], y: at[c][1], w: PANEL_W, h: ph })),
      band: { x: x + PANEL_W + GAP, y, w: w - 2 * (PANEL_W + GAP), h },
    };
  }
  const count = Math.max(1, open.length);
  const pw = (w - (count - 1) * GAP) / count,
    ph = h - STRIP_H - GAP;
  return {
    panels: open.map((c, k) => ({ centre: c, x: x + k * (pw + GAP), y, w: pw, h: ph })),
    band: { x, y: y + ph + GAP, w, h: STRIP_H },
  };
}

// ``who``: the centre drawn and what its viewer may do with it ({view, moves, ctx, mine,
// target, scale}: ``mine``, the viewer's own; ``target``, a mission's; ``scale``, how much
// larger than a board unit the panel is drawn).
function rocket(layout, seat, who, x, y) {
  const { view, moves, ctx, mine, target, scale } = who;
  const g = svg("g", {
    class: `rocket ${view.rocket_complete ? "complete" : ""}`,
    transform: `translate(${x},${y}) scale(${ROCKET_SCALE})`,
  });
  g.append(svg("ellipse", { cx: 0, cy: 6, rx: 48, ry: 7, class: "pad" }));
  let bottom = 0;
  layout.parts.forEach((part, k) => {
    const shape = PART_SHAPES[k];
    const held = view.parts[part.name] || 0;
    const top = bottom - shape.h;
    const node = svg("g", {
      class: `part ${held ? "held" : "missing"} ${seat >= 0 ? seatClass(seat) : ""}`,
      "data-part": part.name,
    });
    // What a finger hits: as wide as the widest stage, so that the capsule is not a sliver;
    // laid over the part (last), it is the button, and the stage number drawn on the part
    // stays outside its name.
    const hit = svg("rect", {
      x: -PART_HIT_W / 2,
      y: top,
      width: PART_HIT_W,
      height: shape.h,
      class: "hit",
    });
    node.append(
      svg(
        "title",
        {},
        `${part.name}: ${held ? `held${held > 1 ? " ×" + held : ""}` : "missing"} (price ${part.price})`,
      ),
    );
    if (k === 3)
      node.append(
        svg("path", {
          d: `M${-shape.w / 2},${bottom} L${-shape.w / 2 + 4},${top + 16} Q0,${top - 10} ${shape.w / 2 - 4},${top + 16} L${shape.w / 2},${bottom} Z`,
          class: "body",
        }),
      );
    else
      node.append(
        svg("rect", {
          x: -shape.w / 2,
          y: top,
          width: shape.w,
          height: shape.h,
          rx: 4,
          class: "body",
        }),
      );
    if (k === 0)
      node.append(
        svg("path", {
          d: `M${-shape.w / 2},${bottom - 30} L${-shape.w / 2 - 14},${bottom} L${-shape.w / 2},${bottom} Z M${shape.w / 2},${bottom - 30} L${shape.w / 2 + 14},${bottom} L${shape.w / 2},${bottom} Z`,
          class: "body fin",
        }),
      );
    if (k === 3) node.append(svg("circle", { cx: 0, cy: top + 20, r: 6, class: "porthole" }));
    node.append(
      text(0, top + shape.h / 2 + (k === 3 ? 17 : 6), k === 3 ? "C" : String(k + 1), "part-label", {
        "text-anchor": "middle",
      }),
    );
    if (held > 1)
      node.append(
        svg(
          "g",
          { class: "dup" },
          svg("circle", { cx: shape.w / 2 + 14, cy: top + 12, r: 13 }),
          text(shape.w / 2 + 14, top + 18, `×${held}`, "dup-text", MIDDLE),
        ),
      );
    // Moves on this part: buy (Saturn V square), sell (a debt), target (a mission), demand.
    const options = [
      mine && moves.parts[`buy:${part.name}`],
      mine && moves.parts[`sell:${part.name}`],
      target && moves.parts[`target:${part.name}`],
      ...view.seats.map((s) => moves.parts[`demand:${s}:${part.name}`]),
    ];
    const move = options.find(Boolean);
    const reachable = big(Math.min(PART_HIT_W, shape.h) * ROCKET_SCALE * scale);
    if (move && reachable) clickable(node, move, ctx.onMove, `${move.text} (${part.price})`, hit);
    else {
      node.append(hit);
      if (reachable && inMeeting(view, ctx, moves)) selectable(node, part.name, moves, hit);
    }
    g.append(node);
    bottom = top;
  });
  return g;
}

// A centre's panel in its place (``slot``): laid out at least PANEL_W × PANEL_H and scaled
// to fill the place; a wider place gives the control card and the names more room.
function centrePanel(obs, ctx, layout, slot, moves) {
  const view = obs.centres[slot.centre - 1];
  const scale = Math.min(slot.w / PANEL_W, slot.h / PANEL_H);
  const pw = slot.w / scale,
    ph = slot.h / scale;
  const seats = view.seats;
  const mine = obs.centre === view.centre;
  const moving = seats.includes(obs.mover) && obs.phase !== "over";
  const won = Array.isArray(obs.winner) && seats.some((s) => obs.winner.includes(s));
  const target = !!obs.mission && obs.mission.target_centre === view.centre; // of a mission
  const who = { view, moves, ctx, mine, target, scale };
  const g = svg("g", {
    class: `centre ${mine ? "mine" : ""} ${moving ? "moving" : ""} ${won ? "winner" : ""}`,
    "data-centre": view.centre,
    transform: `translate(${slot.x},${slot.y}) scale(${scale})`,
  });
  g.append(svg("rect", { width: pw, height: ph, rx: 14, class: "panel-bg" }));
  const lead = seats[0];
  g.append(
    svg("rect", { width: pw, height: 30, rx: 14, class: `panel-head ${seatClass(lead)}` }),
    svg("rect", { y: 16, width: pw, height: 14, class: `panel-head ${seatClass(lead)}` }),
  );
  const names = seats
    .map((s) => seatName(ctx.seats, s) + (s === ctx.seat ? " (you)" : ""))
    .join(" + ");
  const room = pw - 86 - 12;
  const most = Math.floor(room / 6); // a name much longer is cut; a little longer, squeezed
  g.append(text(10, 21, `Centre ${view.centre}`, "centre-title"));
  g.append(
    line(
      86,
      21,
      names.length > most ? names.slice(0, most - 1) + "…" : names,
      "centre-names",
      room,
    ),
  );
  // The rocket's column: the money, the rocket, how far it is built.
  const body = 84; // the cards are right of it
  g.append(line(body / 2 + 2, 52, money(view.money), "money", body - 8, MIDDLE));
  g.append(rocket(layout, lead, who, body / 2, ph - 34));
  const built = won
    ? "★ winner"
    : view.rocket_complete
      ? "complete"
      : `${Object.keys(view.parts).length} of 4 parts`;
  const builtClass = won ? "winner-text" : view.rocket_complete ? "ok-text" : "small-text";
  g.append(line(body / 2, ph - 10, built, builtClass, body - 10, MIDDLE));
  // The control card: the nine photo cards, those held ticked.
  const cardW = pw - body - 6;
  const card = svg("g", { class: "control-card", transform: `translate(${body},36)` });
  const missing = new Set(view.missing_photos);
  card.append(svg("rect", { width: cardW, height: 24 + 9 * ROW_PITCH, rx: 8, class: "card-bg" }));
  card.append(text(8, 15, "Control card", "card-title"));
  card.append(
    text(
      cardW - 8,
      15,
      `${view.control_card.length - missing.size} / ${view.control_card.length}`,
      missing.size ? "card-count" : "card-count done",
      { "text-anchor": "end" },
    ),
  );
  const rowW = cardW - 8;
  view.control_card.forEach((name, k) => {
    const held = view.photos[name] || 0;
    const row = svg("g", {
      class: `photo-row ${held ? "held" : "missing"}`,
      "data-photo": name,
      transform: `translate(4,${21 + k * ROW_PITCH})`,
    });
    row.append(svg("rect", { width: rowW, height: ROW_H, rx: 4, class: "row-bg" }));
    row.append(svg("rect", { x: 4, y: 2, width: 13, height: 13, rx: 3, class: "tick-box" }));
    if (held) row.append(svg("path", { d: "M6.5,8.5 L9.5,12 L15,4.5", class: "tick" }));
    const value = (layout.photo_cards.find((p) => p.name === name) || {}).value;
    const worth = `${held > 1 ? "×" + held + "  " : ""}${value}`;
    row.append(line(22, 13, name, "row-name", rowW - 22 - worth.length * 7.5 - 10));
    row.append(text(rowW - 5, 13, worth, "row-value", { "text-anchor": "end" }));
    photoMoves(row, rowW, name, who);
    card.append(row);
  });
  g.append(card);
  // Photo cards held that the control card does not need: to sell or trade; and the agent
  // cards, at the foot of the panel.
  g.append(spareCards(view, who, body, ph - 44, pw - body - 6));
  g.append(agentCards(view, layout, who, body, ph - 24, pw - body - 6));
  return g;
}

function spareCards(view, who, x, y, width) {
  const spare = Object.entries(view.photos).filter(([name]) => !view.control_card.includes(name));
  const g = svg("g", { class: "spares", transform: `translate(${x},${y})` });
  g.append(text(0, 13, spare.length ? "Spare:" : "No spare photo cards", "small-text"));
  const chips = spare.map(([name, count]) => {
    const label = `${name}${count > 1 ? " ×" + count : ""}`;
    return { name, label, width: label.length * 6.6 + 14 };
  });
  chipRow(g, chips, 46, width, 13, (chip, at, chipW) => {
    const node = svg(
      "g",
      { class: "spare-chip", "data-photo": chip.name, transform: `translate(${at},0)` },
      svg("rect", { width: chipW, height: ROW_H, rx: 8, class: "chip-bg" }),
      line(7, 12.5, chip.label, "chip-text", chipW - 14),
    );
    photoMoves(node, chipW, chip.name, who);
    return node;
  });
  return g;
}

// Agent cards: the holder sees their names (a chip a name, ×2 for two), the others a chip a
// colour held and how many of each.
function agentCards(view, layout, who, x, y, width) {
  const { moves, ctx, mine, scale } = who;
  const g = svg("g", { class: "agents", transform: `translate(${x},${y})` });
  g.append(text(0, 14, "Agents:", "small-text"));
  const own = view.agent_cards || null;
  const cards = own
    ? Object.entries(own)
        .filter(([, count]) => count > 0)
        .map(([name, count]) => {
          const label = count > 1 ? `${name} ×${count}` : name;
          return { name, label, green: isGreen(layout, name), width: label.length * 7 + 14 };
        })
    : [
        { name: "green", green: true, count: view.green_cards, width: 14 },
        { name: "red", green: false, count: view.red_cards, width: 14 },
      ].filter((a) => a.count > 0);
  if (!cards.length) g.append(text(54, 14, "none", "small-text"));
  const end = chipRow(g, cards, 54, width, 14, (a, at, chipW) => {
    const chip = svg("g", {
      class: `agent ${a.green ? "green" : "red"} ${own ? "known" : "secret"}`,
      transform: `translate(${at},0)`,
    });
    const colour = a.green ? "green" : "red";
    chip.append(
      svg(
        "title",
        {},
        own
          ? `${a.name} (${a.green ? "green: espionage" : "red: sabotage"})`
          : `${a.count} ${colour} agent card${a.count > 1 ? "s" : ""} (secret)`,
      ),
      svg("rect", { width: chipW, height: AGENT_H, rx: 4, class: "agent-bg" }),
    );
    if (own) chip.append(line(chipW / 2, 14.5, a.label, "agent-text", chipW - 8, MIDDLE));
    const mission = mine && own && big(AGENT_H * scale) ? moves.missions[a.name] : null;
    if (mission) clickable(chip, mission, ctx.onMove, `${mission.text} (agent card)`);
    return chip;
  });
  if (!own && cards.length) {
    const counts = `${view.green_cards} green, ${view.red_cards} red`;
    g.append(line(end + 2, 14, counts, "small-text", width - end - 2));
  }
  return g;
}

// A row of chips from ``at`` to ``width``: those that fit (a little squeezed at most), in
// order, then "+2" for those that did not (its tooltip names them). ``draw(chip, x, w)``
// draws one. Returns where the row ends.
function chipRow(g, chips, at, width, y, draw) {
  const needed = chips.reduce((sum, c) => sum + c.width + 5, -5);
  const room = chips.length > 1 && at + needed > width ? width - 26 : width; // room for "+2"
  const left = [];
  let x = at;
  for (const chip of chips) {
    const w = Math.min(chip.width, room - x);
    if (w < chip.width * 0.8) {
      left.push(chip.name);
      continue;
    }
    g.append(draw(chip, x, w));
    x += w + 5;
  }
  if (left.length)
    g.append(
      svg(
        "g",
        { class: "more" },
        svg("title", {}, left.join(", ")),
        text(x, y, `+${left.length}`, "small-text"),
      ),
    );
  return x;
}

function isGreen(layout, name) {
  const card = layout.agent_cards.find((a) => a.name === name);
  return card ? card.colour === "green" : false;
}

// A photo card's row or chip, ``width`` wide: a move on it, or offers about it to pick.
function photoMoves(node, width, name, who) {
  const { view, moves, ctx, mine, target, scale } = who;
  if (!big(ROW_H * scale)) return;
  const move =
    (mine && moves.photos[`sell:${name}`]) ||
    (target && moves.photos[`target:${name}`]) ||
    view.seats.map((s) => moves.photos[`ask:${s}:${name}`]).find(Boolean);
  if (move) clickable(hitArea(node, width, ROW_H), move, ctx.onMove);
  else if (inMeeting(view, ctx, moves) && offersAbout(moves.offers, name).length) {
    selectable(node, name, moves, hitArea(node, width, ROW_H));
  }
}

// What is pressed on a drawn thing with words on it (a square, a card's row): a clear rect
// over it, named by the move. Were the thing itself the button, the words drawn on it would
// have to be part of its name (WCAG 2.5.3, axe's label-content-name-mismatch).
function hitArea(node, width, height) {
  const hit = svg("rect", { width, height, class: "hit" });
  node.append(hit);
  node.classList.add("has-move");
  return hit;
}

// A card of mine or of someone in the meeting (the mover or a player met), with offers
// about it, can be picked.
function inMeeting(view, ctx, moves) {
  const { meeting, mover } = current.obs;
  return (
    moves.offers.length > 0 &&
    (view.seats.includes(ctx.seat) ||
      view.seats.some((s) => s === mover || meeting.with.includes(s)))
  );
}

// The name of what one side of an offer trades ({photo}, {part} or {money}: null).
function traded(side) {
  return side.photo ?? side.part ?? null;
}

function offersAbout(offers, name) {
  return offers.filter((m) => traded(m.struct.give) === name || traded(m.struct.get) === name);
}

// ``node`` is marked as picked or pickable; ``button`` (the node, or a clear rect over it)
// takes the press.
function selectable(node, name, moves, button = node) {
  if (!offersAbout(moves.offers, name).length) return;
  node.classList.add("selectable");
  if (selected === name) node.classList.add("selected");
  button.setAttribute("role", "button");
  button.setAttribute("tabindex", "0");
  button.setAttribute("aria-label", `offers about ${name}`);
  node.dataset.select = name;
  const pick = (e) => {
    e.preventDefault();
    e.stopPropagation();
    selected = selected === name ? null : name;
    const { obs, ctx, layout, root } = current;
    root.replaceWith(draw(obs, ctx, layout));
    document.querySelector(".count-down .tray .pill")?.focus();
  };
  button.addEventListener("click", pick);
  button.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") pick(e);
  });
}

// Offering seat 2 Radar for 150 reads "sell for 150" in the tray, about Radar.
function offerLabel(move, name, partners) {
  const { seat, give, get } = move.struct;
  const what =
    traded(give) === name
      ? traded(get) === null
        ? `sell for ${get.money}`
        : `swap for ${traded(get)}`
      : traded(give) === null
        ? `buy for ${give.money}`
        : `give ${traded(give)}`;
  return partners > 1 ? `${what} → ${seatName(current.ctx.seats, seat)}` : what;
}

// -- the middle band: the ball, the decision, the countdown, the leader ----------------------
// On a phone a pill is as tall as a thumb needs once zoomed in.
function pillHeight(ctx) {
  return ctx.narrow ? 46 : 30;
}

// A move as a pill, at most ``most`` units wide (its words squeezed to fit, never cut).
function pill(move, x, y, ctx, label, cls = "", most = Infinity) {
  const content = label || move.text;
  const width = Math.min(most, Math.max(64, content.length * 8.2 + 24));
  const height = pillHeight(ctx);
  const g = svg(
    "g",
    { class: `pill ${cls}`, transform: `translate(${x},${y})` },
    svg("rect", { width, height, rx: height / 2 }),
    line(width / 2, height / 2 + 5, content, "pill-text", width - 16, MIDDLE),
  );
  // Its name starts with the words on it (speech input says what it sees).
  clickable(g, move, ctx.onMove, content === move.text ? move.text : `${content}: ${move.text}`);
  g.width = width;
  return g;
}

const PROMPTS = {
  "turn start": "Your rocket is ready: count down, or roll to move",
  direction: "Go forward or backward? Click a square",
  "buy photo": "Buy the photo card on your square?",
  "Saturn V": "Saturn V: buy the rocket or parts",
  training: "Astronaut training: ten squats, or the fine",
  debt: "Pay your debt: sell photo cards or parts to the leader",
  "play again": "You may play once more",
  meeting: "A meeting: pick a card or part to trade, or done",
  target: "The mission succeeds: choose what it hits",
  arrested: "Arrested! Sit out or pay the ransom",
  "count choice": "T-minus: count this roll, or wait?",
  bid: "Auction: bid or pass",
};

// What you are asked, by name: in a meeting others speak to you ("Bot 3 asks you to sell
// Radar"), and the one who arrived came to you.
function promptFor(obs, ctx) {
  const name = (s) => seatName(ctx.seats, s);
  const d = obs.deal;
  if (obs.phase === "meeting" && obs.meeting.say !== obs.mover) {
    const where = obs.meeting.forbidden_zone_of ? "your forbidden zone" : "your square";
    return `${name(obs.mover)} came to ${where}: your say (claim, offer, or done)`;
  }
  if (!d) return PROMPTS[obs.phase] || "Your move";
  if (obs.phase === "reply") return `${name(d.by)} offers you ${d.terms}`;
  if (obs.phase === "ask") return `${name(d.by)} asks you to sell ${d.photo}: name your price`;
  if (obs.phase === "counter")
    return `${name(d.to)} asks ${d.ask} for ${d.photo}: accept or counter`;
  if (obs.phase === "counter reply")
    return `${name(d.by)} counters with ${d.counter}: accept, or the midpoint`;
  return PROMPTS[obs.phase] || "Your move";
}

function ball(x, y, value, r = 30) {
  const g = svg("g", { class: "ball", transform: `translate(${x},${y})` });
  g.append(
    svg("circle", { r, class: "ball-face" }),
    svg("circle", { r: r * 0.62, class: "ball-spot" }),
  );
  g.append(
    text(0, r * 0.27, value ? String(value) : "–", "ball-number", {
      "text-anchor": "middle",
      style: `font-size:${r * 0.8}px`,
    }),
  );
  return g;
}

// The band is a column between four centres, or a strip below two or three. Its boxes (the
// countdown, the game leader's stock) stand at the foot of a column, at the end of a strip;
// the rest is for the ball, the turn, what is happening, and the decision tray.
function band(obs, ctx, layout, moves, box) {
  const g = svg("g", { class: "band", transform: `translate(${box.x},${box.y})` });
  g.append(svg("rect", { width: box.w, height: box.h, rx: 18, class: "band-bg" }));
  const column = box.w < 500;
  const leader = column
    ? { x: 10, y: box.h - 114, w: box.w - 20, h: 104 }
    : { x: box.w - 212, y: 10, w: 202, h: box.h - 20 };
  g.append(leaderBox(obs, layout, leader));
  const counting = countdownShown(obs);
  const count = column
    ? { x: 10, y: leader.y - 126, w: box.w - 20, h: 116 }
    : { x: leader.x - 250, y: 10, w: 240, h: box.h - 20 };
  if (counting) g.append(countdownBox(obs, layout, ctx, count));
  // The ball and the turn, top left.
  const bx = column ? 40 : 48;
  g.append(ball(bx, 44, obs.roll, 28));
  g.append(text(bx, 90, "the ball", "small-text", MIDDLE));
  const right = column ? box.w - 12 : (counting ? count.x : leader.x) - 12;
  const tx = bx + 42;
  g.append(text(tx, 34, `Turn ${obs.turn}`, "band-title"));
  const who = obs.mover >= 0 ? seatName(ctx.seats, obs.mover) : "—";
  let y = 56; // the next line's baseline
  const say = (content, cls, x, em, pitch) => {
    const words = paragraph(x, y, content, cls, right - x, em, pitch);
    g.append(words);
    y += words.lines * pitch;
  };
  say(
    obs.phase === "over" ? "Game over" : `${who}'s turn · ${obs.doing}`,
    "small-text",
    tx,
    7.4,
    17,
  );
  if (obs.last_surprise)
    say(`Last surprise: ${obs.last_surprise}`, "small-text surprise-text", tx, 7.4, 17);
  // What is happening, the result, the decision: under the ball in a column.
  const x = column ? 12 : tx;
  if (column) y = Math.max(y, 112);
  happening(obs, ctx).forEach((words, k) =>
    say(words, k ? "small-text" : "info-text", x, k ? 7.4 : 8.6, 18),
  );
  if (obs.phase === "over" || ctx.ended) say(result(obs, ctx), "result-text", x, 10.5, 23);
  const bottom = column ? (counting ? count.y : leader.y) - 8 : box.h - 8;
  tray(g, obs, ctx, moves, { x, y: y + 4, right, bottom });
  return g;
}

function leaderBox(obs, layout, box) {
  const stock = obs.stock;
  const g = svg("g", { class: "leader", transform: `translate(${box.x},${box.y})` });
  g.append(svg("rect", { width: box.w, height: box.h, rx: 12, class: "leader-bg" }));
  g.append(text(12, 22, "Game leader", "card-title"));
  const photoCount = Object.values(stock.photos).reduce((a, b) => a + b, 0);
  const parts = layout.parts
    .map(
      (p) =>
        `${p.name === "capsule" ? "C" : p.name.replace("stage ", "S")}×${stock.parts[p.name] || 0}`,
    )
    .join(" ");
  [
    `${photoCount} photo cards`,
    `parts ${parts}`,
    `agents: ${stock.green_pile} green, ${stock.red_pile} red`,
    `surprises: ${stock.surprise_unseen} unseen`,
  ].forEach((words, k) => g.append(line(12, 42 + k * 17, words, "small-text", box.w - 24)));
  return g;
}

function countdownShown(obs) {
  const active = obs.phase === "countdown roll" || obs.phase === "count choice";
  return active || obs.countdown.sum > 0;
}

function countdownBox(obs, layout, ctx, box) {
  const cd = obs.countdown;
  const active = obs.phase === "countdown roll" || obs.phase === "count choice";
  const finished = obs.phase === "over" && cd.sum > 0;
  const target = layout.rules.countdown_target,
    rolls = layout.rules.countdown_rolls;
  const g = svg("g", {
    class: `countdown ${active ? "active" : ""}`,
    transform: `translate(${box.x},${box.y})`,
  });
  g.append(svg("rect", { width: box.w, height: box.h, rx: 12, class: "countdown-bg" }));
  const who = obs.mover >= 0 ? seatName(ctx.seats, obs.mover) : "";
  const title = active ? `T-minus! ${who} counts down` : finished ? "Countdown" : "Last countdown";
  g.append(line(12, 22, title, "card-title", box.w - 24));
  for (let k = 0; k < rolls; k++) {
    const done = k < cd.rolls || (finished && k < rolls);
    g.append(
      svg("rect", {
        x: 12 + k * 46,
        y: 32,
        width: 38,
        height: 38,
        rx: 8,
        class: `count-slot ${done ? "done" : ""}`,
      }),
    );
  }
  g.append(
    text(
      12 + rolls * 46 + 6,
      58,
      `${cd.sum} / ${target}`,
      cd.sum >= target ? "count-sum win" : "count-sum",
    ),
  );
  const waits = `waited ${cd.waits} of ${layout.rules.latest_start - 1}`;
  g.append(line(12, 90, `${cd.rolls} of ${rolls} counted · ${waits}`, "small-text", box.w - 24));
  if (obs.phase === "count choice")
    g.append(line(12, 108, `rolled ${obs.roll}: count it or wait?`, "small-text", box.w - 24));
  return g;
}

// The decision: what you are asked, and the moves as pills, row after row, as many as
// there is room for (all of them are in the buttons under the board too). ``room``: where
// it may go ({x, y: its top, right, bottom}).
function tray(g, obs, ctx, moves, room) {
  const width = room.right - room.x;
  if (!ctx.legal || !ctx.legal.length) {
    if (obs.phase !== "over" && ctx.toMove !== null && ctx.toMove !== undefined && !ctx.replay) {
      const waiting = `${seatName(ctx.seats, ctx.toMove)} is deciding…`;
      g.append(line(room.x, room.y + 16, waiting, "small-text waiting-text", width));
    }
    return;
  }
  const row = svg("g", { class: "tray", transform: `translate(${room.x},${room.y})` });
  const prompt = paragraph(0, 16, promptFor(obs, ctx), "prompt-text", width, 9.2, 19);
  row.append(prompt);
  let py = prompt.lines * 19 + 4; // the pills' top
  if (!big(pillHeight(ctx))) {
    // a phone's overview: the moves are the buttons below the board
    row.append(
      paragraph(
        0,
        py + 12,
        "Zoom in to play on the board, or choose below.",
        "small-text",
        width,
        7,
        16,
      ),
    );
    g.append(row);
    return;
  }
  const height = pillHeight(ctx);
  let px = 0;
  // The next thing in the row, or in a new row if this one is full; false: no room left.
  const place = (itemWidth) => {
    if (px > 0 && px + itemWidth > width) {
      px = 0;
      py += height + 8;
    }
    if (room.y + py + height > room.bottom) return false;
    const at = px;
    px += itemWidth + 8;
    return at;
  };
  const add = (move, label, cls) => {
    const p = pill(move, 0, 0, ctx, label, cls, width);
    const at = place(p.width);
    if (at === false) return false;
    p.setAttribute("transform", `translate(${at},${py})`);
    row.append(p);
    return true;
  };
  for (const move of moves.tray) {
    const { kind } = move.struct;
    const label =
      kind === "forward" || kind === "backward"
        ? `${kind === "forward" ? "▶" : "◀"} ${kind} ${obs.roll}`
        : null;
    const cls =
      ["accept", "count down", "start count"].includes(kind) || kind.startsWith("buy ")
        ? "go"
        : ["refuse", "decline", "end turn", "pass", "done"].includes(kind)
          ? "stop"
          : "";
    if (!add(move, label, cls)) break;
  }
  // Money amounts (ask, counter, bid): a few, lowest to highest; all are in the buttons.
  const amounts = moves.money;
  if (amounts.length) {
    const pick =
      amounts.length <= 4
        ? amounts
        : [0, 1, 2, 3].map((k) => amounts[Math.round((k * (amounts.length - 1)) / 3)]);
    for (const move of pick) if (!add(move)) break;
  }
  // Offers: those about the card picked on the board, else a hint.
  const about = selected ? offersAbout(moves.offers, selected) : [];
  if (about.length) {
    const label = `${selected}:`;
    const at = place(label.length * 7 + 4);
    if (at !== false) row.append(text(at, py + height / 2 + 5, label, "small-text"));
    for (const move of about)
      if (!add(move, offerLabel(move, selected, obs.meeting.with.length))) break;
  } else if (moves.offers.length) {
    const hint = `${moves.offers.length} offers: click a card or part, or see below`;
    if (px > 0) py += height + 8;
    if (room.y + py + 14 <= room.bottom)
      row.append(paragraph(0, py + 14, hint, "small-text", width, 7, 16));
  }
  g.append(row);
}
function result(obs, ctx) {
  if (Array.isArray(obs.winner) && obs.winner.length) {
    const view = obs.centres.find((c) => c.seats.includes(obs.winner[0]));
    const names = obs.winner
      .map((s) => (s === ctx.seat ? "you" : seatName(ctx.seats, s)))
      .join(" and ");
    return `★ Lift-off! Centre ${view ? view.centre : "?"} (${names}) reached the Moon`;
  }
  return obs.phase === "over" ? "The turn cap was reached: a draw" : "The game has ended";
}

function happening(obs, ctx) {
  const lines = [];
  const name = (s) => (s === ctx.seat ? "you" : seatName(ctx.seats, s));
  if (obs.deal) {
    const d = obs.deal;
    lines.push(`${name(d.by)} → ${name(d.to)}: ${d.terms || "a deal"}`);
    if (d.ask) lines.push(`asked ${d.ask}${d.counter ? `, countered ${d.counter}` : ""}`);
  } else if (obs.mission) {
    lines.push(`Mission “${obs.mission.card}” against centre ${obs.mission.target_centre}`);
  } else if (obs.phase === "bid" && obs.auction.lots.length) {
    const a = obs.auction;
    lines.push(
      `Auction: ${a.lots[0]} at ${a.price}${a.high_bidder_centre ? ` (centre ${a.high_bidder_centre} leads)` : ""}`,
    );
  } else if (obs.meeting.with.length) {
    const m = obs.meeting;
    const zone = m.forbidden_zone_of ? ` in centre ${m.forbidden_zone_of}'s forbidden zone` : "";
    lines.push(`Meeting of ${name(obs.mover)} with ${m.with.map(name).join(", ")}${zone}`);
    if (m.say !== null)
      lines.push(
        `${name(m.say)} ${m.say === ctx.seat ? "have" : "has"} the say · ${m.offers_left} proposals left`,
      );
  } else if (obs.debts.length) {
    // [debtor centre, creditor centre (-1: the leader), amount], centres counted from 0.
    const to = (c) => (c >= 0 ? `centre ${c + 1}` : "the leader");
    lines.push(
      `To pay: ${obs.debts.map(([debtor, creditor, amount]) => `centre ${debtor + 1} owes ${to(creditor)} ${amount}`).join("; ")}`,
    );
  }
  return lines.slice(0, 2);
}

// -- the board -------------------------------------------------------------------------------
function stars() {
  const g = svg("g", { class: "stars" });
  let seed = 7;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let k = 0; k < 90; k++)
    g.append(
      svg("circle", {
        cx: INNER.x + rnd() * INNER.w,
        cy: INNER.y + rnd() * INNER.h,
        r: rnd() * 1.4 + 0.3,
      }),
    );
  return g;
}

function draw(obs, ctx, layout) {
  pxPerUnit = ctx.narrow ? ZOOMS[zoom.level] : Infinity;
  const moves = classify(ctx.legal || []);
  if (!moves.offers.length) selected = null;
  const root = svg("svg", {
    viewBox: `0 0 ${W} ${H}`,
    class: "count-down",
    role: "group",
    "aria-label": "Count Down board",
  });
  current = { obs, ctx, layout, root };
  root.append(
    svg(
      "defs",
      {},
      svg(
        "pattern",
        {
          id: "cd-hatch",
          width: 10,
          height: 10,
          patternUnits: "userSpaceOnUse",
          patternTransform: "rotate(45)",
        },
        svg("rect", { width: 5, height: 10, class: "hatch-stripe" }),
      ),
    ),
  );
  root.append(svg("rect", { width: W, height: H, rx: 20, class: "board-bg" }));
  root.append(stars());
  root.append(track(obs, ctx, layout, moves));
  const places = plan(obs);
  for (const slot of places.panels) root.append(centrePanel(obs, ctx, layout, slot, moves));
  root.append(band(obs, ctx, layout, moves, places.band));
  if (ctx.narrow) root.style.width = zoom.level ? `${W * ZOOMS[zoom.level]}px` : "";
  queueMicrotask(() => fitLines(root)); // once it is on the page
  return root;
}

// -- on a phone: the board in a frame that zooms and pans ------------------------------------
// Zoom in and out with the buttons (or + and − on the frame), a double-tap (in where tapped,
// back to the whole board), or a pinch; the frame scrolls by swipe, mouse drag or arrow keys.
// The page itself never scrolls sideways.
function zoomFrame(content) {
  const label = "Count Down board: zoom in to play on it; the frame then scrolls";
  const viewport = el(
    "div",
    { class: "cd-viewport", tabindex: 0, role: "region", "aria-label": label },
    content,
  );
  const frame = el(
    "div",
    { class: "cd-frame" },
    el(
      "div",
      { class: "cd-zoom" },
      el("span", { class: "cd-zoom-level", "aria-live": "polite" }),
      zoomButton("out", "Zoom out", () => setZoom(zoom.level - 1)),
      zoomButton("in", "Zoom in", () => setZoom(zoom.level + 1)),
    ),
    viewport,
  );
  viewport.addEventListener(
    "scroll",
    () => {
      if (zoom.level && !zoom.gliding) {
        zoom.left = viewport.scrollLeft;
        zoom.top = viewport.scrollTop;
      }
    },
    { passive: true },
  );
  viewport.addEventListener("scrollend", () => {
    zoom.gliding = false;
  });
  viewport.addEventListener("keydown", (e) => {
    if (e.target !== viewport) return;
    if (e.key === "+" || e.key === "=") setZoom(zoom.level + 1);
    else if (e.key === "-" || e.key === "−") setZoom(zoom.level - 1);
  });
  dragToPan(viewport);
  doubleTapToZoom(viewport);
  pinchToZoom(viewport);
  dress(frame);
  return frame;
}

function zoomButton(way, name, onclick) {
  const d = way === "in" ? "M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6z" : "M5 11h14v2H5z";
  return el(
    "button",
    { type: "button", class: `cd-zoom-${way}`, "aria-label": name, title: name, onclick },
    svg(
      "svg",
      { viewBox: "0 0 24 24", class: "icon", "aria-hidden": "true", focusable: "false" },
      svg("path", { d, fill: "currentColor" }),
    ),
  );
}

// The frame's look for the zoom it is at: its class, the buttons that can still act, the words.
function dress(frame) {
  frame.classList.toggle("zoomed", zoom.level > 0);
  frame.querySelector(".cd-zoom-out").disabled = zoom.level === 0;
  frame.querySelector(".cd-zoom-in").disabled = zoom.level === ZOOMS.length - 1;
  frame.querySelector(".cd-zoom-level").textContent = zoom.level
    ? `Zoom ${zoom.level} of ${ZOOMS.length - 1}`
    : "Whole board";
}

// Zoom to ``level``, keeping the board point under ``at`` (screen coordinates: where a pinch
// or a double-tap was) where it is. With the buttons or keys the frame goes to what is to
// play (the squares a move lands on, wholly in view), from the frame's middle.
function setZoom(level, at = null) {
  level = Math.max(0, Math.min(ZOOMS.length - 1, level));
  const viewport = current && current.root.closest(".cd-viewport");
  if (!viewport || level === zoom.level) return;
  const box = viewport.getBoundingClientRect(),
    before = current.root.getBoundingClientRect();
  const anchor = at || { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  const unit = {
    x: ((anchor.x - before.left) / before.width) * W,
    y: ((anchor.y - before.top) / before.height) * H,
  };
  zoom.level = level;
  const { obs, ctx, layout, root } = current;
  root.replaceWith(draw(obs, ctx, layout));
  dress(viewport.closest(".cd-frame"));
  if (!level) return;
  const scale = current.root.getBoundingClientRect().width / W;
  scrollFrame(
    viewport,
    unit.x * scale - (anchor.x - box.left),
    unit.y * scale - (anchor.y - box.top),
  );
  if (!at) follow(viewport, true);
}

// The part of the frame the board shows in (its scrollbars, if any, left out), on the screen.
function visible(viewport) {
  const box = viewport.getBoundingClientRect();
  const left = box.left + viewport.clientLeft,
    top = box.top + viewport.clientTop;
  return { left, top, right: left + viewport.clientWidth, bottom: top + viewport.clientHeight };
}

// Where the player looks: the squares a move lands on (both if they fit in the frame, else
// the one forward), else what can be tapped on the board (a Saturn V stage to build in the
// middle band, a card to buy), else the mover's rocket.
function focusOf(root, viewport) {
  const squares = [...root.querySelectorAll(".square.target")].sort(
    (a, b) => (b.dataset.lands === "forward") - (a.dataset.lands === "forward"), // forward first
  );
  const targets = (squares.length ? squares : [...root.querySelectorAll(".playable")]).map((n) =>
    n.getBoundingClientRect(),
  );
  if (targets.length) {
    const all = targets.reduce((a, r) => ({
      left: Math.min(a.left, r.left),
      top: Math.min(a.top, r.top),
      right: Math.max(a.right, r.right),
      bottom: Math.max(a.bottom, r.bottom),
    }));
    const room = visible(viewport);
    return all.right - all.left <= room.right - room.left &&
      all.bottom - all.top <= room.bottom - room.top
      ? all
      : targets[0];
  }
  const rocket = root.querySelector(".piece.mover");
  return rocket ? rocket.getBoundingClientRect() : null;
}

function focusKey(obs) {
  return `${obs.turn}:${obs.phase}:${obs.mover}:${obs.mover >= 0 ? obs.positions[obs.mover] : ""}`;
}

// Zoomed in, the frame goes where the game goes (unless it is already in view, or this
// moment was followed already: the player may have panned away on purpose).
function follow(viewport, always = false) {
  if (!zoom.level || !current) return;
  const key = focusKey(current.obs);
  const spot = focusOf(current.root, viewport);
  if (!spot || (!always && key === zoom.followed)) return;
  zoom.followed = key;
  const room = visible(viewport);
  const inView =
    spot.left >= room.left &&
    spot.right <= room.right &&
    spot.top >= room.top &&
    spot.bottom <= room.bottom;
  if (inView) return;
  const glide = !matchMedia("(prefers-reduced-motion: reduce)").matches;
  scrollFrame(
    viewport,
    viewport.scrollLeft + (spot.left + spot.right - room.left - room.right) / 2,
    viewport.scrollTop + (spot.top + spot.bottom - room.top - room.bottom) / 2,
    glide,
  );
}

// Scroll the frame, remembering where to: a redraw during a glide goes on to the same place.
function scrollFrame(viewport, left, top, glide = false) {
  zoom.left = Math.max(0, Math.min(viewport.scrollWidth - viewport.clientWidth, left));
  zoom.top = Math.max(0, Math.min(viewport.scrollHeight - viewport.clientHeight, top));
  zoom.gliding = glide && (zoom.left !== viewport.scrollLeft || zoom.top !== viewport.scrollTop);
  viewport.scrollTo({
    left: zoom.left,
    top: zoom.top,
    behavior: zoom.gliding ? "smooth" : "instant",
  });
}

// A new drawing in the frame: back where the player left it, then after the game.
function settle(viewport) {
  if (!zoom.level) return;
  scrollFrame(viewport, zoom.left, zoom.top); // a new frame starts at 0: no glide from there
  follow(viewport);
}

// With a mouse, the zoomed board is dragged like a map (touch screens scroll it natively);
// the click that ends a drag plays nothing.
function dragToPan(viewport) {
  let drag = null,
    swallow = false;
  viewport.addEventListener("pointerdown", (e) => {
    swallow = false;
    zoom.gliding = false; // the player takes over
    if (e.pointerType === "mouse" && e.button === 0 && zoom.level) {
      drag = {
        x: e.clientX,
        y: e.clientY,
        left: viewport.scrollLeft,
        top: viewport.scrollTop,
        moved: false,
      };
    }
  });
  viewport.addEventListener("pointermove", (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x,
      dy = e.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 6) return;
    drag.moved = true;
    viewport.classList.add("dragging");
    viewport.scrollTo(drag.left - dx, drag.top - dy);
  });
  const end = () => {
    if (drag && drag.moved) swallow = true;
    drag = null;
    viewport.classList.remove("dragging");
  };
  viewport.addEventListener("pointerup", end);
  viewport.addEventListener("pointercancel", end);
  viewport.addEventListener(
    "click",
    (e) => {
      if (swallow) {
        swallow = false;
        e.stopPropagation();
        e.preventDefault();
      }
    },
    true,
  );
}

// Two taps (or clicks) in the same place, not on a move: zoom in there, or back out.
function doubleTapToZoom(viewport) {
  let last = null;
  viewport.addEventListener("pointerup", (e) => {
    if (e.target.closest(".playable, .selectable")) {
      last = null;
      return;
    }
    const near =
      last &&
      e.timeStamp - last.time < 400 &&
      Math.hypot(e.clientX - last.x, e.clientY - last.y) < 30;
    last = near ? null : { time: e.timeStamp, x: e.clientX, y: e.clientY };
    if (near) setZoom(zoom.level ? 0 : 1, { x: e.clientX, y: e.clientY });
  });
}

// Two fingers spread apart zoom in one step, pinched together out one (the frame does not
// let the browser zoom the whole page: touch-action in app.css).
function pinchToZoom(viewport) {
  let pinch = null;
  const spread = (t) => Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY);
  viewport.addEventListener(
    "touchstart",
    (e) => {
      if (e.touches.length !== 2) return;
      const [a, b] = e.touches;
      pinch = {
        start: spread(e.touches),
        ratio: 1,
        at: { x: (a.clientX + b.clientX) / 2, y: (a.clientY + b.clientY) / 2 },
      };
    },
    { passive: true },
  );
  viewport.addEventListener(
    "touchmove",
    (e) => {
      if (pinch && e.touches.length === 2) pinch.ratio = spread(e.touches) / pinch.start;
    },
    { passive: true },
  );
  viewport.addEventListener("touchend", () => {
    if (!pinch) return;
    const { ratio, at } = pinch;
    pinch = null;
    if (ratio > 1.25) setZoom(zoom.level + 1, at);
    else if (ratio < 0.8) setZoom(zoom.level - 1, at);
  });
}

function loadLayout(id) {
  if (!layouts.has(id)) {
    const promise = api(`/api/games/${encodeURIComponent(id)}/layout`).then(
      (layout) => {
        layouts.set(id, layout);
        return layout;
      },
      (error) => {
        layouts.delete(id);
        throw error;
      },
    );
    layouts.set(id, promise);
  }
  return layouts.get(id);
}

export default {
  name: "count_down",
  render(obs, ctx) {
    const id = gameId();
    // (a page that is not a game's, a lesson's or a puzzle's, brings the printed board along)
    const layout = ctx.layout || layouts.get(id);
    const framed = (board) => {
      if (!ctx.narrow) return board;
      const frame = zoomFrame(board);
      queueMicrotask(() => settle(frame.querySelector(".cd-viewport"))); // once it is on the page
      return frame;
    };
    if (layout && !(layout instanceof Promise)) return framed(draw(obs, ctx, layout));
    // First drawing: fetch the printed board, then draw in place of the placeholder.
    const holder = svg(
      "svg",
      {
        viewBox: `0 0 ${W} 120`,
        class: "count-down loading",
        role: "img",
        "aria-label": "Count Down board (loading)",
      },
      text(W / 2, 66, "Setting up the board…", "band-title", { "text-anchor": "middle" }),
    );
    loadLayout(id).then(
      (loaded) => {
        if (!holder.isConnected) return;
        const viewport = holder.closest(".cd-viewport");
        holder.replaceWith(draw(obs, ctx, loaded));
        if (viewport) settle(viewport);
      },
      () =>
        holder.replaceChildren(
          text(W / 2, 66, "The board could not be loaded; the moves are below.", "band-title", {
            "text-anchor": "middle",
          }),
        ),
    );
    return framed(holder);
  },
  scores(obs) {
    return obs.players
      ? Array.from({ length: obs.players }, (_, seat) => {
          const view = obs.centres.find((c) => c.seats.includes(seat));
          if (!view) return obs.players === 5 && seat === 4 ? "watching" : "";
          const photos = view.control_card.length - view.missing_photos.length;
          return `${money(view.money)} ✓${photos}/${view.control_card.length} ▲${Object.keys(view.parts).length}/4`;
        })
      : [];
  },
};
