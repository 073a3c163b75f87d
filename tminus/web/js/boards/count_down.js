// Count Down: the track of squares around the board, every rocket piece on its square, the
// four space centres (rocket built up stage by stage, money, control card with the photo
// cards held ticked, agent cards: names for their holder, counts for the others), the ball,
// the countdown, and the current decision. Moves are clickable where they belong: the
// square to go to, the photo square to buy, a part of a rocket, a photo card of a centre,
// and the decision tray in the middle; they are always listed as buttons too.
//
// The printed board (track, cards, prices) is public data the same all game: it comes once
// from /api/games/{id}/layout and is kept here.
// On a phone the board sits in a frame: it fits the width as an overview (nothing to tap
// there: the moves are the buttons below), and zooms in (buttons, double-tap, pinch) inside
// the frame, which pans; zoomed, whatever is big enough for a thumb plays on the board too.
// The last move is marked: the square a rocket left, and the rocket's step along the track.
import { api, clickable, el, initial, seatName, svg } from "../util.js";

const W = 1100; // the board is W × W
const C = 92; // corner squares (the launch ramps) are C × C; side squares are C deep
const PANEL_W = 440,
  PANEL_H = 338,
  GAP = 12;
const BAND_Y = C + GAP + PANEL_H + GAP; // the middle band, between the two rows of centres
const BAND_H = W - 2 * (C + GAP + PANEL_H + GAP);
const KIND_LABEL = {
  ramp: "Launch ramp",
  forbidden: "Forbidden zone",
  photo: "Photo card",
  part: "Rocket part",
  saturn: "Saturn V",
  surprise: "Surprise",
  funding: "Funding",
  espionage: "Espionage",
  sabotage: "Sabotage",
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
const ROW_H = 19; // a photo card's row on a control card, and a spare card's chip
const AGENT_H = 22;

const layouts = new Map(); // game id -> layout, or a promise while it loads
// In a meeting, a photo card or part clicked on the board: its offers fill the tray.
let selected = null;
let current = null; // what is drawn: { obs, ctx, layout, root }
// On a phone: how far the board is zoomed (an index into ZOOMS), where its frame was
// scrolled to, and the moment the frame last followed (so that a redraw of the same moment
// does not undo the player's own panning).
const ZOOMS = [0, 1, 1.6, 2.4]; // screen px per board unit; 0: the board fits the width
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
function geometry(n) {
  const side = Math.ceil(n / 4);
  const w = (W - 2 * C) / (side - 1);
  return (i) => {
    const s = Math.floor(i / side),
      t = i % side;
    if (t === 0)
      return {
        x: s === 0 || s === 3 ? 0 : W - C,
        y: s < 2 ? 0 : W - C,
        w: C,
        h: C,
        corner: true,
        side: s,
      };
    if (s === 0) return { x: C + (t - 1) * w, y: 0, w, h: C, side: s };
    if (s === 1) return { x: W - C, y: C + (t - 1) * w, w: C, h: w, side: s };
    if (s === 2) return { x: W - C - t * w, y: W - C, w, h: C, side: s };
    return { x: 0, y: W - C - t * w, w: C, h: w, side: s };
  };
}

function ownerSeats(obs, centre) {
  const view = obs.centres[centre - 1];
  return view && view.in_service ? view.seats : [];
}

function squareLabel(sq, layout) {
  switch (sq.kind) {
    case "photo": {
      const card = layout.photo_cards.find((p) => p.name === sq.photo);
      return { title: sq.photo, sub: card ? String(card.value) : "" };
    }
    case "part":
      return { title: sq.part.replace(/^./, (c) => c.toUpperCase()), sub: "free part" };
    case "saturn":
      return { title: "Saturn V", sub: String(layout.rules.saturn_price) };
    case "surprise":
      return { title: "Surprise", sub: "" };
    case "funding":
      return { title: "Funding", sub: `+${sq.amount}` };
    case "espionage":
      return { title: "Espionage", sub: "green card" };
    case "sabotage":
      return { title: "Sabotage", sub: "red card" };
    case "training":
      return { title: "Astronaut training", sub: `squats or ${layout.rules.squat_fine}` };
    case "forbidden":
      return { title: "Forbidden zone", sub: `centre ${sq.centre}` };
    case "ramp":
      return { title: `Centre ${sq.centre}`, sub: "launch ramp" };
    default:
      return { title: sq.kind, sub: "" };
  }
}

function glyph(sq, cx, cy) {
  // A small picture of the square's kind (drawn, so that no emoji font is needed).
  const g = svg("g", { class: "glyph", transform: `translate(${cx},${cy})` });
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
    const cls = [
      "square",
      sq.kind,
      sq.kind === "photo"
        ? `value-${(layout.photo_cards.find((p) => p.name === sq.photo) || {}).value}`
        : "",
      needed.has(sq.photo) ? "needed" : "",
      owner.length ? seatClass(owner[0]) : "",
      sq.centre && !owner.length ? "closed" : "",
    ];
    const cell = svg("g", {
      class: cls.join(" "),
      "data-square": i,
      transform: `translate(${r.x},${r.y})`,
    });
    const label = squareLabel(sq, layout);
    cell.append(
      svg(
        "title",
        {},
        `Square ${i}: ${KIND_LABEL[sq.kind] || sq.kind}${sq.photo ? ": " + sq.photo : ""}${sq.part ? ": " + sq.part : ""}${sq.amount ? " " + sq.amount : ""}${sq.centre ? " of centre " + sq.centre : ""}`,
      ),
    );
    cell.append(svg("rect", { width: r.w, height: r.h, class: "cell" }));
    if (sq.kind === "forbidden")
      cell.append(svg("rect", { width: r.w, height: r.h, class: "hatch" }));
    // A band on the inner edge, as on printed boards.
    const band = {
      0: [0, r.h - 9, r.w, 9],
      1: [0, 0, 9, r.h],
      2: [0, 0, r.w, 9],
      3: [r.w - 9, 0, 9, r.h],
    }[r.side];
    if (!r.corner)
      cell.append(
        svg("rect", { x: band[0], y: band[1], width: band[2], height: band[3], class: "band" }),
      );
    const cx = r.w / 2;
    const vertical = r.h > r.w; // top and bottom rows: narrow and deep
    const maxChars = r.corner ? 12 : vertical ? 9 : 13;
    const lines = wrap(label.title, maxChars).slice(0, 3);
    const top = r.corner ? 20 : vertical ? 30 : 14;
    if (r.corner) cell.append(glyph(sq, cx, 52));
    else cell.append(glyph(sq, vertical ? cx : 18, vertical ? 16 : r.h / 2 - 2));
    const tx = r.corner || vertical ? cx : 18 + (r.w - 18) / 2 + 4;
    const middle = { "text-anchor": "middle" };
    lines.forEach((line, k) =>
      cell.append(
        text(
          tx,
          top + k * 11 + (r.corner ? 0 : 3),
          line,
          r.corner ? "sq-title corner-title" : "sq-title",
          middle,
        ),
      ),
    );
    if (label.sub)
      cell.append(
        text(tx, r.corner ? 84 : vertical ? r.h - 14 : r.h - 6, label.sub, "sq-sub", middle),
      );
    cell.append(
      text(r.corner ? 6 : r.w - 3, r.corner ? 86 : 9, String(i), "sq-index", {
        "text-anchor": r.corner ? "start" : "end",
      }),
    );
    if (needed.has(sq.photo))
      cell.append(svg("circle", { cx: r.w - 8, cy: r.h - 18, r: 4, class: "needed-dot" }));
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
      const word = move.struct.kind === "forward" ? "fwd ▶" : "◀ back";
      play(
        move,
        `${move.text}: go to square ${i} (${label.title})`,
        svg(
          "g",
          { class: "target-badge", transform: `translate(${cx},${r.h / 2})` },
          svg("rect", { x: -25, y: -11, width: 50, height: 22, rx: 11 }),
          text(0, 4.5, word, "target-label", { "text-anchor": "middle" }),
        ),
      );
    } else if (i === moverPos && sq.kind === "photo" && moves.buyPhoto) {
      play(moves.buyPhoto, `${moves.buyPhoto.text} for ${label.sub}`);
    } else if (i === moverPos && sq.kind === "saturn" && moves.saturn) {
      play(moves.saturn, moves.saturn.text);
    }
    g.append(cell);
  });
  // The squares rockets just left.
  const before = ctx.before && ctx.before.positions;
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
  // The pieces, side by side on their squares.
  const bySquare = {};
  obs.positions.forEach((pos, seat) => {
    if (pos >= 0) (bySquare[pos] = bySquare[pos] || []).push(seat);
  });
  for (const [pos, seats] of Object.entries(bySquare)) {
    const r = at(Number(pos));
    const step = Math.min(22, (Math.min(r.w, r.h) - 8) / seats.length);
    seats.forEach((seat, k) => {
      // Side columns: from the picture on, so that the square's name stays readable.
      const px =
        r.corner || r.h > r.w
          ? r.x + r.w / 2 + (k - (seats.length - 1) / 2) * step
          : r.x + 18 + k * step;
      const py = r.y + (r.corner ? r.h / 2 + 4 : r.h > r.w ? 60 : r.h / 2 + 3);
      const name = seatName(ctx.seats, seat);
      const label = `${name}'s rocket on square ${pos}`;
      const from = left[seat] !== undefined ? at(left[seat]) : null;
      const flight = from ? [from.x + from.w / 2 - px, from.y + from.h / 2 - py] : null;
      g.append(
        rocketPiece(seat, px, py, seat === mover && obs.phase !== "over", label, name, flight),
      );
    });
  }
  return g;
}

// -- a space centre --------------------------------------------------------------------
const PANEL_AT = [
  [C + GAP, C + GAP],
  [W - C - GAP - PANEL_W, C + GAP],
  [W - C - GAP - PANEL_W, W - C - GAP - PANEL_H],
  [C + GAP, W - C - GAP - PANEL_H],
];

function rocket(view, layout, seat, moves, ctx, mine, target) {
  const g = svg("g", {
    class: `rocket ${view.rocket_complete ? "complete" : ""}`,
    transform: "translate(62,300)",
  });
  g.append(svg("ellipse", { cx: 0, cy: 6, rx: 48, ry: 7, class: "pad" }));
  let y = 0;
  layout.parts.forEach((part, k) => {
    const shape = PART_SHAPES[k];
    const held = view.parts[part.name] || 0;
    const top = y - shape.h;
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
          d: `M${-shape.w / 2},${y} L${-shape.w / 2 + 4},${top + 16} Q0,${top - 10} ${shape.w / 2 - 4},${top + 16} L${shape.w / 2},${y} Z`,
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
          d: `M${-shape.w / 2},${y - 30} L${-shape.w / 2 - 14},${y} L${-shape.w / 2},${y} Z M${shape.w / 2},${y - 30} L${shape.w / 2 + 14},${y} L${shape.w / 2},${y} Z`,
          class: "body fin",
        }),
      );
    if (k === 3) node.append(svg("circle", { cx: 0, cy: top + 20, r: 6, class: "porthole" }));
    node.append(
      text(0, top + shape.h / 2 + (k === 3 ? 12 : 4), k === 3 ? "C" : String(k + 1), "part-label", {
        "text-anchor": "middle",
      }),
    );
    if (held > 1)
      node.append(
        svg(
          "g",
          { class: "dup" },
          svg("circle", { cx: shape.w / 2 + 12, cy: top + 10, r: 10 }),
          text(shape.w / 2 + 12, top + 14, `×${held}`, "dup-text", { "text-anchor": "middle" }),
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
    const reachable = big(Math.min(PART_HIT_W, shape.h));
    if (move && reachable) clickable(node, move, ctx.onMove, `${move.text} (${part.price})`, hit);
    else {
      node.append(hit);
      if (reachable && inMeeting(view, ctx, moves)) selectable(node, part.name, moves, hit);
    }
    g.append(node);
    y = top;
  });
  return g;
}

function centrePanel(obs, ctx, layout, c, moves) {
  const view = obs.centres[c];
  const [x, y] = PANEL_AT[c];
  const seats = view.seats;
  const mine = obs.centre === view.centre;
  const moving = seats.includes(obs.mover) && obs.phase !== "over";
  const won = Array.isArray(obs.winner) && seats.some((s) => obs.winner.includes(s));
  const g = svg("g", {
    class: `centre ${mine ? "mine" : ""} ${moving ? "moving" : ""} ${won ? "winner" : ""} ${view.in_service ? "" : "out"}`,
    "data-centre": view.centre,
    transform: `translate(${x},${y})`,
  });
  g.append(svg("rect", { width: PANEL_W, height: PANEL_H, rx: 16, class: "panel-bg" }));
  if (!view.in_service) {
    g.append(
      text(PANEL_W / 2, PANEL_H / 2 - 6, `Centre ${view.centre}`, "centre-title", {
        "text-anchor": "middle",
      }),
    );
    g.append(
      text(PANEL_W / 2, PANEL_H / 2 + 18, "out of service", "muted-text", {
        "text-anchor": "middle",
      }),
    );
    return g;
  }
  const lead = seats[0];
  g.append(
    svg("rect", { width: PANEL_W, height: 38, rx: 16, class: `panel-head ${seatClass(lead)}` }),
  );
  g.append(
    svg("rect", { y: 22, width: PANEL_W, height: 16, class: `panel-head ${seatClass(lead)}` }),
  );
  const names = seats
    .map((s) => seatName(ctx.seats, s) + (s === ctx.seat ? " (you)" : ""))
    .join(" + ");
  g.append(text(14, 25, `Centre ${view.centre}`, "centre-title"));
  g.append(text(104, 25, names.length > 26 ? names.slice(0, 25) + "…" : names, "centre-names"));
  g.append(
    svg(
      "g",
      { class: "purse", transform: `translate(${PANEL_W - 12},25)` },
      text(0, 0, money(view.money), "money", { "text-anchor": "end" }),
    ),
  );
  if (won) g.append(text(PANEL_W - 12, 62, "★ winner", "winner-text", { "text-anchor": "end" }));
  // The rocket.
  const target = !!obs.mission && obs.mission.target_centre === view.centre; // of a mission
  g.append(rocket(view, layout, lead, moves, ctx, mine, target));
  g.append(
    text(
      62,
      326,
      view.rocket_complete ? "rocket complete" : `${Object.keys(view.parts).length} of 4 parts`,
      view.rocket_complete ? "ok-text" : "small-text",
      { "text-anchor": "middle" },
    ),
  );
  // The control card: the nine photo cards, those held ticked.
  const card = svg("g", { class: "control-card", transform: "translate(132,50)" });
  const missing = new Set(view.missing_photos);
  card.append(svg("rect", { width: 296, height: 212, rx: 10, class: "card-bg" }));
  card.append(text(10, 18, "Control card", "card-title"));
  card.append(
    text(
      286,
      18,
      `${9 - missing.size} / ${view.control_card.length}`,
      missing.size ? "card-count" : "card-count done",
      { "text-anchor": "end" },
    ),
  );
  view.control_card.forEach((name, k) => {
    const held = view.photos[name] || 0;
    const row = svg("g", {
      class: `photo-row ${held ? "held" : "missing"}`,
      "data-photo": name,
      transform: `translate(8,${26 + k * 20.5})`,
    });
    row.append(svg("rect", { width: 280, height: ROW_H, rx: 5, class: "row-bg" }));
    row.append(svg("rect", { x: 4, y: 3, width: 13, height: 13, rx: 3, class: "tick-box" }));
    if (held) row.append(svg("path", { d: "M6.5,9.5 L9.5,13 L15,5.5", class: "tick" }));
    const value = (layout.photo_cards.find((p) => p.name === name) || {}).value;
    row.append(text(24, 14, name, "row-name"));
    row.append(
      text(272, 14, `${held > 1 ? "×" + held + "  " : ""}${value}`, "row-value", {
        "text-anchor": "end",
      }),
    );
    photoMoves(row, 280, name, view, moves, ctx, mine, target);
    card.append(row);
  });
  g.append(card);
  // Photo cards held that the control card does not need: to sell or trade.
  const spare = Object.entries(view.photos).filter(([name]) => !view.control_card.includes(name));
  const extra = svg("g", { class: "spares", transform: "translate(132,270)" });
  extra.append(text(0, 12, spare.length ? "Spare:" : "No spare photo cards", "small-text"));
  let sx = 44;
  for (const [name, count] of spare) {
    const label = `${name}${count > 1 ? " ×" + count : ""}`;
    const width = label.length * 6.1 + 12;
    if (sx + width > 296) {
      extra.append(text(sx, 12, "…", "small-text"));
      break;
    }
    const chip = svg(
      "g",
      { class: "spare-chip", "data-photo": name, transform: `translate(${sx},0)` },
      svg("rect", { width, height: ROW_H, rx: 9, class: "chip-bg" }),
      text(6, 13.5, label, "chip-text"),
    );
    photoMoves(chip, width, name, view, moves, ctx, mine, target);
    extra.append(chip);
    sx += width + 5;
  }
  g.append(extra);
  // Agent cards: the holder sees their names, the others only how many of each colour.
  const agents = svg("g", { class: "agents", transform: "translate(132,296)" });
  agents.append(text(0, 14, "Agents:", "small-text"));
  let ax = 50;
  const own = view.agent_cards || null;
  const cards = own
    ? Object.entries(own).flatMap(([name, count]) =>
        Array.from({ length: count }, () => ({ name, green: isGreen(layout, name) })),
      )
    : [
        ...Array(view.green_cards).fill({ green: true }),
        ...Array(view.red_cards).fill({ green: false }),
      ];
  if (!cards.length) agents.append(text(ax, 14, "none", "small-text"));
  for (const a of cards) {
    const label = a.name || "";
    const width = own ? Math.max(60, label.length * 6 + 14) : 16;
    if (ax + width > 296) {
      agents.append(text(ax, 14, "…", "small-text"));
      break;
    }
    const chip = svg("g", {
      class: `agent ${a.green ? "green" : "red"} ${own ? "known" : "secret"}`,
      transform: `translate(${ax},0)`,
    });
    chip.append(
      svg(
        "title",
        {},
        own
          ? `${a.name} (${a.green ? "green: espionage" : "red: sabotage"})`
          : `a ${a.green ? "green" : "red"} agent card (secret)`,
      ),
    );
    chip.append(svg("rect", { width, height: AGENT_H, rx: 4, class: "agent-bg" }));
    if (own) chip.append(text(width / 2, 15, label, "agent-text", { "text-anchor": "middle" }));
    const mission = mine && own && big(AGENT_H) ? moves.missions[a.name] : null;
    if (mission) clickable(chip, mission, ctx.onMove, `${mission.text} (agent card)`);
    agents.append(chip);
    ax += width + 5;
  }
  if (!own && cards.length)
    agents.append(
      text(ax + 2, 15, `${view.green_cards} green, ${view.red_cards} red (secret)`, "small-text"),
    );
  g.append(agents);
  return g;
}

function isGreen(layout, name) {
  const card = layout.agent_cards.find((a) => a.name === name);
  return card ? card.colour === "green" : false;
}

// A photo card's row or chip, ``width`` wide: a move on it, or offers about it to pick.
function photoMoves(node, width, name, view, moves, ctx, mine, target) {
  if (!big(ROW_H)) return;
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

function pill(move, x, y, ctx, label, cls = "") {
  const content = label || move.text;
  const width = Math.max(64, content.length * 7.4 + 24);
  const height = pillHeight(ctx);
  const g = svg(
    "g",
    { class: `pill ${cls}`, transform: `translate(${x},${y})` },
    svg("rect", { width, height, rx: height / 2 }),
    text(width / 2, height / 2 + 5, content, "pill-text", { "text-anchor": "middle" }),
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

function band(obs, ctx, layout, moves) {
  const g = svg("g", { class: "band", transform: `translate(${C + GAP},${BAND_Y})` });
  const bw = W - 2 * (C + GAP);
  g.append(svg("rect", { width: bw, height: BAND_H, rx: 18, class: "band-bg" }));
  // Left: the ball and the turn.
  g.append(ball(48, 52, obs.roll));
  g.append(text(48, 100, "the ball", "small-text", { "text-anchor": "middle" }));
  g.append(text(96, 34, `Turn ${obs.turn} of ${obs.max_turns}`, "band-title"));
  const who = obs.mover >= 0 ? seatName(ctx.seats, obs.mover) : "—";
  g.append(
    text(96, 56, obs.phase === "over" ? "Game over" : `${who}'s turn · ${obs.phase}`, "small-text"),
  );
  if (obs.phase === "over" || ctx.ended) {
    // The result wraps above the tray, clear of the countdown and the leader's boxes.
    wrap(result(obs, ctx), 26)
      .slice(0, 3)
      .forEach((line, k) => g.append(text(96, 118 + k * 24, line, "result-text")));
  }
  if (obs.last_surprise)
    g.append(text(96, 76, `Last surprise: ${obs.last_surprise}`, "small-text surprise-text"));
  // Right: the game leader's stock.
  const stock = obs.stock;
  const lx = bw - 196;
  g.append(
    svg("rect", { x: lx, y: 10, width: 186, height: BAND_H - 20, rx: 12, class: "leader-bg" }),
  );
  g.append(text(lx + 12, 30, "Game leader", "card-title"));
  const photoCount = Object.values(stock.photos).reduce((a, b) => a + b, 0);
  g.append(text(lx + 12, 50, `${photoCount} photo cards`, "small-text"));
  const parts = layout.parts
    .map(
      (p) =>
        `${p.name === "capsule" ? "C" : p.name.replace("stage ", "S")}×${stock.parts[p.name] || 0}`,
    )
    .join(" ");
  g.append(text(lx + 12, 68, `parts ${parts}`, "small-text"));
  g.append(
    text(lx + 12, 86, `agents: ${stock.green_pile} green, ${stock.red_pile} red`, "small-text"),
  );
  g.append(text(lx + 12, 104, `surprises: ${stock.surprise_unseen} unseen`, "small-text"));
  // Middle: what is happening, and the decision tray.
  const mx = 96,
    my = 92;
  const info = happening(obs, ctx);
  info.forEach((line, k) =>
    g.append(text(mx, my + 6 + k * 18, line, k ? "small-text" : "info-text")),
  );
  const right = countdown(g, obs, layout, ctx, bw) || lx; // the tray stops where they start
  const trayY = ctx.narrow ? BAND_H - pillHeight(ctx) - 6 : BAND_H - 44; // clear of the info lines
  tray(g, obs, ctx, moves, mx, trayY, right - mx - 10);
  return g;
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

// The countdown box, left of the leader's; returns where it starts (or null: not shown).
function countdown(g, obs, layout, ctx, bw) {
  const cd = obs.countdown;
  const active = obs.phase === "countdown roll" || obs.phase === "count choice";
  const finished = obs.phase === "over" && cd.sum > 0;
  if (!active && !finished && !cd.sum) return null;
  const target = layout.rules.countdown_target,
    rolls = layout.rules.countdown_rolls;
  const left = bw - 196 - 250;
  const box = svg("g", {
    class: `countdown ${active ? "active" : ""}`,
    transform: `translate(${left},10)`,
  });
  box.append(svg("rect", { width: 240, height: BAND_H - 20, rx: 12, class: "countdown-bg" }));
  const who = obs.mover >= 0 ? seatName(ctx.seats, obs.mover) : "";
  box.append(
    text(
      12,
      22,
      active ? `T-minus! ${who} counts down` : finished ? "Countdown" : "Last countdown",
      "card-title",
    ),
  );
  for (let k = 0; k < rolls; k++) {
    const done = k < cd.rolls || (finished && k < rolls);
    box.append(
      svg("rect", {
        x: 12 + k * 46,
        y: 34,
        width: 38,
        height: 38,
        rx: 8,
        class: `count-slot ${done ? "done" : ""}`,
      }),
    );
  }
  box.append(
    text(
      12 + rolls * 46 + 4,
      60,
      `${cd.sum} / ${target}`,
      cd.sum >= target ? "count-sum win" : "count-sum",
    ),
  );
  box.append(
    text(
      12,
      92,
      `${cd.rolls} of ${rolls} counted · waited ${cd.waits} of ${layout.rules.latest_start - 1}`,
      "small-text",
    ),
  );
  if (obs.phase === "count choice")
    box.append(text(12, 110, `rolled ${obs.roll}: count it or wait?`, "small-text"));
  g.append(box);
  return left;
}

function tray(g, obs, ctx, moves, x, y, width) {
  if (!ctx.legal || !ctx.legal.length) {
    if (obs.phase !== "over" && ctx.toMove !== null && ctx.toMove !== undefined && !ctx.replay) {
      g.append(
        text(
          x,
          y + 20,
          `${seatName(ctx.seats, ctx.toMove)} is deciding…`,
          "small-text waiting-text",
        ),
      );
    }
    return;
  }
  const prompt = promptFor(obs, ctx);
  const row = svg("g", { class: "tray", transform: `translate(${x},${y})` });
  if (!big(pillHeight(ctx))) {
    // a phone's overview: the moves are the buttons below the board
    row.append(
      text(0, -8, prompt, "prompt-text"),
      text(0, 20, "Zoom in to play on the board, or choose below.", "small-text"),
    );
    g.append(row);
    return;
  }
  const fits = Math.floor(width / 7.6);
  row.append(
    text(0, -8, prompt.length > fits ? prompt.slice(0, fits - 1) + "…" : prompt, "prompt-text"),
  );
  let px = 0;
  const add = (move, label, cls) => {
    const p = pill(move, px, 0, ctx, label, cls);
    if (px + p.width > width) return false;
    row.append(p);
    px += p.width + 8;
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
    row.append(text(px + 4, 20, `${selected}:`, "small-text"));
    px += selected.length * 6.6 + 14;
    for (const move of about)
      if (!add(move, offerLabel(move, selected, obs.meeting.with.length))) break;
  } else if (moves.offers.length) {
    row.append(
      text(
        px + 4,
        20,
        `${moves.offers.length} offers: click a card or part, or see below`,
        "small-text",
      ),
    );
  }
  g.append(row);
}

// -- the board -------------------------------------------------------------------------------
function stars() {
  const g = svg("g", { class: "stars" });
  let seed = 7;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let k = 0; k < 90; k++)
    g.append(
      svg("circle", {
        cx: C + rnd() * (W - 2 * C),
        cy: C + rnd() * (W - 2 * C),
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
    viewBox: `0 0 ${W} ${W}`,
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
  root.append(svg("rect", { width: W, height: W, rx: 20, class: "board-bg" }));
  root.append(stars());
  root.append(track(obs, ctx, layout, moves));
  obs.centres.forEach((_, c) => root.append(centrePanel(obs, ctx, layout, c, moves)));
  root.append(band(obs, ctx, layout, moves));
  if (ctx.narrow) root.style.width = zoom.level ? `${W * ZOOMS[zoom.level]}px` : "";
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
    y: ((anchor.y - before.top) / before.height) * W,
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
// the one forward), else the mover's rocket.
function focusOf(root, viewport) {
  const targets = [...root.querySelectorAll(".square.target")]
    .sort((a, b) => (b.dataset.lands === "forward") - (a.dataset.lands === "forward")) // forward first
    .map((n) => n.getBoundingClientRect());
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
    const layout = layouts.get(id);
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
