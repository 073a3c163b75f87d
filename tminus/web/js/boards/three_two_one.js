// 3-2-1 Countdown: the table seen from your chair. The others' hands as card backs on top,
// the two discard piles either side of the draw pile in the middle, your hand at the bottom
// grouped by number, and the last round's revealed hands below.
// A turn on the board: click a card of your hand (the second 7 picks two 7s), then a discard
// pile (or one of the offered discards); then click the other pile or the draw pile to draw.
// On a phone (narrow) the hand shows one card per number with its count: a tap on a number
// picks one, the next tap two, and so on. What the last move changed is marked: the card
// just discarded, the card just drawn into your hand.
import { initial, pressable, seatName, short, svg } from "../util.js";

const CARD_W = 66,
  CARD_H = 96,
  MINI_W = 26,
  MINI_H = 36;
const PILES = ["left", "right"];
const DECLARES = [
  ["countdown", "Countdown!"],
  ["blastoff", "Blastoff!"],
];

// The table at its two sizes: 1000 units wide, or 420 on a phone. Each piece is drawn by one
// function, its geometry read from the layout in use (points are [x, y] in the piece).
const LAYOUTS = {
  wide: {
    width: 1000,
    margin: 10, // the panels' inset from the table's edges
    // the room left under each piece, top to bottom
    gaps: { header: 12, others: 12, table: 12, offers: 12, hand: 12, reveal: 12 },
    header: {
      height: 50,
      rx: 14,
      round: [30, 42],
      firstTo: "· first to win 3 rounds",
      status: { at: [970, 42], anchor: "end", chars: Infinity },
    },
    // the others in one row of panels
    others: { perRow: Infinity, maxWidth: 300, gap: 10 },
    opponent: {
      height: 156,
      rx: 14,
      badge: [22, 24],
      name: { at: [40, 29], room: 50, charWidth: 9 },
      standing: [40, 48],
      sitsOut: 90,
      backs: { w: 40, h: 58, y: 60, step: 18, room: 32, left: null }, // (null: centred)
      count: { dx: -4, y: 64 },
      // the cards they were seen to take: a line of their own, under the backs
      known: { label: [16, 144], x: 56, y: 127, w: 16, h: 22, step: 18, most: 10 },
    },
    table: { height: 232, rx: 20, pileY: 50, spread: 260, underBeside: true },
    // one row on the felt's lower edge
    offers: { top: 190, perRow: null, width: 118, height: 30, rx: 15, textY: 20, chars: 14 },
    hand: {
      rx: 16,
      badge: [34, 28],
      name: { at: [54, 34], chars: 20 },
      total: { at: [970, 34], anchor: "end" },
      // a column right of the cards, reached after them
      declare: { at: [790, 66], step: [0, 66], width: 180, first: false },
      cards: fannedCards,
      hint: { x: 30, bottom: 18 },
      hints: {
        pick: "Click a card to pick it (the 2nd card of a group picks two), then a pile.",
        picked: "Now click a pile, or one of the discards above.",
        draw: "Now draw: click the draw pile, or take the top card of the other discard pile.",
      },
    },
    reveal: {
      rx: 16,
      caption: [30, 32],
      revealed: " revealed",
      nobody: "nobody declared (nothing left to draw)",
      declarerChars: Infinity,
      rowTop: 48,
      rowHeight: 44,
      badge: [40, 18],
      name: { at: [60, 23], chars: 16 },
      cards: { x: 230, y: 0, w: MINI_W, h: MINI_H, pad: 4, room: 560 },
      total: [830, 23],
      points: [960, 24],
    },
  },
  narrow: {
    width: 420,
    margin: 6,
    gaps: { header: 8, others: 12, table: 8, offers: 12, hand: 10, reveal: 6 },
    header: {
      height: 66,
      rx: 12,
      round: [20, 32],
      firstTo: "· first to win 3",
      status: { at: [20, 58], anchor: "start", chars: 40 },
    },
    // the others two to a row
    others: { perRow: 2, maxWidth: Infinity, gap: 8 },
    opponent: {
      height: 104,
      rx: 12,
      badge: [20, 22],
      name: { at: [38, 27], room: 44, charWidth: 10.5, title: true }, // (cut short: whole in its title)
      standing: [12, 96],
      sitsOut: 66,
      backs: { w: 26, h: 38, y: 40, step: 12, room: 40, left: 12 },
      count: { dx: 14, y: 59 },
      // the cards they were seen to take: after the count, as many as fit
      known: { label: null, x: null, y: 46, w: 14, h: 20, step: 15, most: null },
    },
    // the piles in thirds of the felt: (420 - 12) / 3 + CARD_W / 2 from the middle
    table: { height: 214, rx: 16, pileY: 44, spread: 169, underBeside: false },
    // rows of three big buttons, under the table
    offers: {
      top: 222,
      perRow: 3,
      width: (420 - 12 - 16) / 3,
      height: 50,
      rx: 14,
      textY: 31,
      chars: 13,
    },
    hand: {
      rx: 14,
      badge: [24, 24],
      name: { at: [44, 29], chars: 18 },
      total: { at: [20, 48], anchor: "start" },
      // a row above the cards, reached before them
      declare: { at: [12, 60], step: [204, 0], width: 192, first: true },
      // one card per number with its count: too little room for fans of them
      cards: countedCards,
      hint: { x: 14, bottom: 12 },
      hints: {
        pick: "Tap a number to pick it (again: one more), then a pile.",
        picked: "Now tap a pile, or a discard below it.",
        draw: "Now draw: tap the draw pile or the other discard pile.",
      },
    },
    reveal: {
      rx: 14,
      caption: [18, 28],
      revealed: "",
      nobody: "nobody declared",
      declarerChars: 14,
      rowTop: 44,
      rowHeight: 58,
      badge: [24, 10],
      name: { at: [42, 15], chars: 18 },
      cards: { x: 20, y: 22, w: MINI_W * 0.8, h: MINI_H * 0.8, pad: 3, room: 380 },
      total: [350, 15],
      points: [402, 16],
    },
  },
};
let L = LAYOUTS.wide, // the layout in use, and its width
  W = L.width;

// What you have picked from your hand (a number and how many); kept across redraws while the
// same moves are legal.
const pick = { value: null, count: 0, key: "" };
let current = null; // the last render's arguments and root, to redraw after a pick

// ``hit``: the shape over ``node`` that is the button (see pressable); the words drawn on a
// pile or an offer are then decoration outside it.
function playMove(node, move, ctx, label, hit = null) {
  return pressable(
    node,
    label || move.label || move.text,
    () => {
      pick.value = null;
      ctx.onMove(move.action);
    },
    move.text,
    hit,
  );
}

// A clear shape the size of the area, to lay over it as its button.
function cover(x, y, width, height, rx = 12) {
  return svg("rect", { x, y, width, height, rx });
}

// The legal moves by kind, read from each move's struct: discards[value][count][pile]
// ({kind: "discard", value, count, pile}), draws by pile ({kind: "draw", from}), declarations
// ({kind: "declare", call}).
function sortMoves(legal) {
  const moves = { discards: {}, most: {}, draws: {}, declare: {} };
  for (const m of legal) {
    const s = m.struct;
    if (s.kind === "discard") {
      const byCount = (moves.discards[s.value] = moves.discards[s.value] || {});
      (byCount[s.count] = byCount[s.count] || {})[s.pile] = m;
      moves.most[s.value] = Math.max(moves.most[s.value] || 0, s.count);
    } else if (s.kind === "draw") moves.draws[s.from] = m;
    else if (s.kind === "declare") moves.declare[s.call] = m;
  }
  return moves;
}

function hue(value) {
  return 150 - value * 15; // 0 a calm green, 10 a hot red: low is good
}

function cardFace(x, y, value, w = CARD_W, h = CARD_H, extra = {}) {
  const g = svg("g", {
    class: "card face",
    transform: `translate(${x},${y})`,
    "data-value": value,
    ...extra,
  });
  const colour = `hsl(${hue(value)}, 70%, 42%)`;
  g.append(svg("rect", { width: w, height: h, rx: w * 0.12, class: "card-paper" }));
  g.append(
    svg("rect", {
      x: w * 0.1,
      y: h * 0.1,
      width: w * 0.8,
      height: h * 0.8,
      rx: w * 0.08,
      fill: `hsl(${hue(value)}, 80%, 92%)`,
      stroke: colour,
      "stroke-width": 1.5,
    }),
  );
  g.append(
    svg(
      "text",
      {
        x: w / 2,
        y: h / 2 + w * 0.2,
        "text-anchor": "middle",
        class: "card-value",
        fill: colour,
        "font-size": w * 0.58,
      },
      String(value),
    ),
  );
  if (w >= 40) {
    g.append(
      svg(
        "text",
        { x: w * 0.17, y: h * 0.24, "text-anchor": "middle", class: "card-corner", fill: colour },
        String(value),
      ),
    );
    g.append(
      svg(
        "text",
        { x: w * 0.83, y: h * 0.9, "text-anchor": "middle", class: "card-corner", fill: colour },
        String(value),
      ),
    );
  }
  return g;
}

function cardBack(x, y, w = CARD_W, h = CARD_H, extra = {}) {
  const g = svg("g", { class: "card back", transform: `translate(${x},${y})`, ...extra });
  g.append(svg("rect", { width: w, height: h, rx: w * 0.12, class: "card-back" }));
  g.append(
    svg("rect", {
      x: w * 0.12,
      y: w * 0.12,
      width: w * 0.76,
      height: h - w * 0.24,
      rx: w * 0.08,
      class: "card-back-inner",
    }),
  );
  if (w >= 50)
    g.append(
      svg(
        "text",
        { x: w / 2, y: h / 2 + 5, "text-anchor": "middle", class: "card-back-mark" },
        "3·2·1",
      ),
    );
  else g.append(svg("circle", { cx: w / 2, cy: h / 2, r: w * 0.16, class: "card-back-dot" }));
  return g;
}

function text(x, y, content, cls, anchor = "start") {
  return svg("text", { x, y, class: cls, "text-anchor": anchor }, content);
}

function seatBadge([x, y], seat, ctx) {
  return svg(
    "g",
    { transform: `translate(${x},${y})`, "aria-hidden": "true" },
    svg("circle", { r: 12, class: `seat-dot seat-${seat % 6}` }),
    svg(
      "text",
      { y: 4.5, "text-anchor": "middle", class: "seat-number" },
      initial(seatName(ctx.seats, seat)),
    ),
  );
}

// A panel's background, across the table at its margin.
function panel(height, rx, cls = "panel-bg") {
  return svg("rect", { x: L.margin, y: 0, width: W - 2 * L.margin, height, rx, class: cls });
}

// What the last move changed: the pile a card was discarded on (its top is new), the piles
// drawn from, the cards that came into my hand; or, a declaration having ended the round
// (or the game), the round revealed.
function lastMove(obs, before) {
  // (a reveal that is new since the move before: a turn cap ends a game without one)
  const declared =
    !!before && !!obs.last_round && before.last_round?.round !== obs.last_round.round;
  const marks = { discarded: new Set(), drawnFrom: new Set(), newCards: [], declared };
  if (!before || before.round !== obs.round || !before.discard_piles) return marks;
  obs.discard_piles.forEach((pile, i) => {
    const was = before.discard_piles[i];
    if (pile.length > was.length) marks.discarded.add(i);
    else if (pile.length < was.length) marks.drawnFrom.add(i);
  });
  if (obs.draw_pile_size < before.draw_pile_size) marks.drawnFrom.add("pile");
  if (obs.hand && before.hand) {
    const left = [...before.hand];
    for (const v of obs.hand) {
      const at = left.indexOf(v);
      if (at >= 0) left.splice(at, 1);
      else marks.newCards.push(v);
    }
  }
  return marks;
}

function standing(obs, seat) {
  return obs.players <= 3
    ? `${obs.round_wins[seat]} of 3 rounds won`
    : `${obs.scores[seat]} points`;
}

// -- the header: round, whose turn, the game's end ------------------------------------------
function statusText(obs, ctx) {
  if (obs.phase === "over") {
    return obs.winners && obs.winners.length
      ? `${obs.winners.map((s) => (s === ctx.seat ? "You" : seatName(ctx.seats, s))).join(" and ")} ${obs.winners.length > 1 ? "share the win" : obs.winners[0] === ctx.seat ? "win the game!" : "wins the game!"}`
      : "Draw: the turn limit was reached";
  }
  if (obs.phase === "deal" || obs.phase === "turn up") return "Dealing…";
  if (ctx.ended) return "Game over";
  if (obs.mover === ctx.seat)
    return obs.phase === "turn" ? "Your turn: discard (or declare)" : "Now draw a card";
  if (obs.mover !== null)
    return `${seatName(ctx.seats, obs.mover)} ${obs.phase === "turn" ? "to play" : "draws"}`;
  return "";
}

function header(obs, ctx) {
  const H = L.header;
  const g = svg("g", { class: "ttt-header" });
  g.append(
    svg("rect", {
      x: L.margin,
      y: L.margin,
      width: W - 2 * L.margin,
      height: H.height,
      rx: H.rx,
      class: "tray",
    }),
  );
  const rounds = obs.players <= 3 ? H.firstTo : `of ${obs.rounds}`;
  g.append(
    text(...H.round, `Round ${obs.round}${obs.extra_round ? " (extra)" : ""} ${rounds}`, "caption"),
  );
  g.append(
    text(
      ...H.status.at,
      short(statusText(obs, ctx), H.status.chars),
      obs.phase === "over" ? "caption win" : "status-text",
      H.status.anchor,
    ),
  );
  return g;
}

// -- the others: card backs, standing, the cards they were seen to take -----------------------
function others(obs, ctx, y) {
  const O = L.others;
  const n = obs.players;
  const seats = [];
  const base = ctx.seat === null ? 0 : ctx.seat + 1;
  for (let i = 0; i < n; i++) if ((base + i) % n !== ctx.seat) seats.push((base + i) % n);
  const g = svg("g", { class: "others" });
  const perRow = Math.min(O.perRow, seats.length);
  const width = Math.min(O.maxWidth, (W - 2 * L.margin - O.gap * (perRow - 1)) / perRow);
  const left = (W - (width * perRow + O.gap * (perRow - 1))) / 2;
  const rowHeight = L.opponent.height + O.gap;
  seats.forEach((seat, i) => {
    const x = left + (i % perRow) * (width + O.gap);
    g.append(opponent(obs, ctx, seat, x, y + Math.floor(i / perRow) * rowHeight, width));
  });
  g.height = Math.ceil(seats.length / perRow) * rowHeight - O.gap;
  return g;
}

function opponent(obs, ctx, seat, x, y, width) {
  const P = L.opponent;
  const playing = obs.playing.includes(seat);
  const mover = obs.mover === seat && obs.phase !== "over" && !ctx.ended;
  const winner = obs.winners && obs.winners.includes(seat);
  const g = svg("g", {
    class: `hand-panel opponent ${mover ? "mover" : ""} ${winner ? "winner" : ""} ${playing ? "" : "sitting-out"}`,
    "data-seat": seat,
    transform: `translate(${x},${y})`,
  });
  g.append(svg("rect", { width, height: P.height, rx: P.rx, class: "panel-bg" }));
  g.append(seatBadge(P.badge, seat, ctx));
  const fullName = seatName(ctx.seats, seat);
  const chars = Math.floor((width - P.name.room) / P.name.charWidth);
  const name = text(...P.name.at, short(fullName, chars), "name");
  if (P.name.title) name.append(svg("title", {}, fullName));
  g.append(name);
  g.append(text(...P.standing, standing(obs, seat), "small"));
  const size = obs.hand_sizes[seat];
  if (!playing) {
    g.append(text(width / 2, P.sitsOut, "sits out this round", "small", "middle"));
    return g;
  }
  // The backs, fanned to fit the panel, and how many.
  const B = P.backs;
  const step = size > 1 ? Math.min(B.step, (width - B.room - B.w) / (size - 1)) : 0;
  const fan = B.w + step * Math.max(0, size - 1);
  const start = B.left ?? (width - fan) / 2;
  for (let i = 0; i < size; i++) g.append(cardBack(start + i * step, B.y, B.w, B.h));
  const countX = start + fan + P.count.dx;
  g.append(
    svg(
      "g",
      { class: "count-badge", transform: `translate(${countX},${P.count.y})` },
      svg("circle", { r: 13 }),
      text(0, 5, String(size), "count", "middle"),
    ),
  );
  const known = obs.known_cards[seat];
  if (known.length) {
    const K = P.known;
    const kx = K.x ?? countX + 20;
    const most = K.most ?? Math.max(0, Math.floor((width - kx - 6) / K.step));
    if (K.label) g.append(text(...K.label, "took:", "small"));
    known.slice(0, most).forEach((v, i) => g.append(cardFace(kx + i * K.step, K.y, v, K.w, K.h)));
  }
  return g;
}

// -- the middle: left pile, draw pile, right pile ------------------------------------------------
function table(obs, ctx, moves, y) {
  const T = L.table;
  const g = svg("g", { class: "middle", transform: `translate(0,${y})` });
  g.append(panel(T.height, T.rx, "felt"));
  const centre = W / 2;
  g.append(drawPile(obs, ctx, moves, centre - CARD_W / 2, T.pileY));
  PILES.forEach((name, i) => {
    const x = i === 0 ? centre - T.spread : centre + T.spread - CARD_W;
    g.append(discardPile(obs, ctx, moves, name, i, x, T.pileY));
  });
  return g;
}

function drawPile(obs, ctx, moves, x, y) {
  const g = svg("g", {
    class: `pile draw-pile ${current.marks.drawnFrom.has("pile") ? "drawn-from" : ""}`,
    "data-pile": "pile",
  });
  g.append(
    svg("rect", { x: x - 30, y: y - 30, width: CARD_W + 60, height: CARD_H + 66, class: "hit" }),
  );
  g.append(text(x + CARD_W / 2, y - 14, "DRAW PILE", "pile-label", "middle"));
  const layers = Math.min(6, Math.ceil(obs.draw_pile_size / 12));
  for (let i = layers; i >= 0; i--) g.append(cardBack(x + i * 2, y - i * 2));
  g.append(
    text(x + CARD_W / 2, y + CARD_H + 28, `${obs.draw_pile_size} cards`, "pile-count", "middle"),
  );
  const move = moves.draws.pile;
  if (move)
    playMove(
      g,
      move,
      ctx,
      "draw pile (a card unseen)",
      cover(x - 30, y - 30, CARD_W + 60, CARD_H + 66),
    );
  return g;
}

function discardPile(obs, ctx, moves, name, index, x, y) {
  const pile = obs.discard_piles[index];
  const marks = current.marks;
  const g = svg("g", {
    class: `pile discard-pile ${obs.discarded_on === name ? "just-discarded" : ""} ${marks.discarded.has(index) ? "last" : ""} ${marks.drawnFrom.has(index) ? "drawn-from" : ""}`,
    "data-pile": name,
  });
  // The whole pile area takes the click, the cards below the top included.
  const hx = index === 0 ? x - 160 : x - 30;
  const area = () => cover(hx, y - 30, CARD_W + 190, CARD_H + 66);
  g.append(
    svg("rect", {
      x: hx,
      y: y - 30,
      width: CARD_W + 190,
      height: CARD_H + 66,
      rx: 12,
      class: "hit",
    }),
  );
  g.append(text(x + CARD_W / 2, y - 14, `${name.toUpperCase()} PILE`, "pile-label", "middle"));
  if (!pile.length) {
    g.append(svg("rect", { x, y, width: CARD_W, height: CARD_H, rx: 8, class: "pile-empty" }));
    g.append(text(x + CARD_W / 2, y + CARD_H / 2 + 5, "empty", "small", "middle"));
  }
  // The depth: one edge per card under the top, up to eight.
  const depth = Math.min(8, Math.max(0, pile.length - 1));
  for (let i = depth; i >= 1; i--) {
    g.append(
      svg("rect", {
        x: x + i * 1.6,
        y: y - i * 1.6,
        width: CARD_W,
        height: CARD_H,
        rx: 8,
        class: "pile-edge",
      }),
    );
  }
  if (pile.length)
    g.append(cardFace(x, y, pile[pile.length - 1], CARD_W, CARD_H, { class: "card face top" }));
  g.append(
    text(
      x + CARD_W / 2,
      y + CARD_H + 28,
      `${pile.length} card${pile.length === 1 ? "" : "s"}`,
      "pile-count",
      "middle",
    ),
  );
  // The cards just under the top, for the record: the pile is public. Wide, they fan out
  // beside the pile, away from the draw pile; a phone has no room beside it: a row under it.
  const under = pile.slice(-6, -1).reverse();
  if (!L.table.underBeside) {
    under.forEach((v, i) =>
      g.append(cardFace(x - 16 + i * 20, y + CARD_H + 40, v, 18, 25, { class: "card face under" })),
    );
  } else {
    under.forEach((v, i) => {
      const ux = index === 0 ? x - 44 - i * 22 : x + CARD_W + 22 + i * 22;
      g.append(
        cardFace(ux, y + 30, v, 20, 28, { class: "card face under", opacity: 1 - i * 0.15 }),
      );
    });
    if (under.length)
      g.append(
        text(
          index === 0 ? x - 34 : x + CARD_W + 32,
          y + 20,
          "below:",
          "tiny",
          index === 0 ? "end" : "start",
        ),
      );
  }
  // A draw from this pile, or the picked cards discarded onto it.
  const draw = moves.draws[name];
  const discard =
    pick.value !== null &&
    (moves.discards[pick.value] || {})[pick.count] &&
    moves.discards[pick.value][pick.count][name];
  if (draw) playMove(g, draw, ctx, `${draw.text} (take the ${pile[pile.length - 1]})`, area());
  else if (discard) {
    g.append(
      text(
        x + CARD_W / 2,
        y - 32,
        `▼ discard ${pick.count > 1 ? "them" : "it"} here`,
        "drop-hint",
        "middle",
      ),
    );
    playMove(g, discard, ctx, null, area());
  }
  return g;
}

// The discards of the picked number, as buttons: wide, a strip on the felt's lower edge; on a
// phone, rows under the table.
function offers(obs, ctx, moves, y) {
  const byCount = pick.value !== null ? moves.discards[pick.value] : null;
  if (!byCount) return null;
  const O = L.offers;
  const g = svg("g", { class: "offers", transform: `translate(0,${y})` });
  const options = [];
  for (const count of Object.keys(byCount)
    .map(Number)
    .sort((a, b) => a - b)) {
    for (const pile of PILES)
      if (byCount[count][pile]) options.push({ count, pile, move: byCount[count][pile] });
  }
  // (wide: one row while they fit, 7 across; five 10s to discard make ten buttons: two rows)
  const gap = 8,
    across = Math.floor((W - 2 * L.margin + gap) / (O.width + gap)),
    perRow = Math.min(options.length, O.perRow ?? across),
    left = (W - (perRow * (O.width + gap) - gap)) / 2;
  options.forEach((o, i) => {
    const label = `${o.pile === "left" ? "◀ " : ""}${Array(o.count).fill(pick.value).join(" ")}${o.pile === "right" ? " ▶" : ""}`;
    const b = svg(
      "g",
      {
        class: `offer ${o.count === pick.count ? "chosen" : ""}`,
        transform: `translate(${left + (i % perRow) * (O.width + gap)},${Math.floor(i / perRow) * (O.height + gap)})`,
      },
      svg("rect", { width: O.width, height: O.height, rx: O.rx }),
      text(O.width / 2, O.textY, short(label, O.chars), "offer-text", "middle"),
    );
    g.append(playMove(b, o.move, ctx, null, cover(0, 0, O.width, O.height, O.rx)));
  });
  g.height = Math.ceil(options.length / perRow) * (O.height + gap) - gap;
  return g;
}

// -- your hand ----------------------------------------------------------------------------------
function myHand(obs, ctx, moves, y) {
  const H = L.hand;
  const seat = ctx.seat;
  const hand = obs.hand || [];
  const mover = obs.mover === seat && obs.phase !== "over" && !ctx.ended;
  const winner = obs.winners && obs.winners.includes(seat);
  const inTurn = obs.phase === "turn" && mover && !ctx.replay;
  const g = svg("g", {
    class: `hand-panel mine ${mover ? "mover" : ""} ${winner ? "winner" : ""}`,
    "data-seat": seat,
    transform: `translate(0,${y})`,
  });
  const background = panel(0, H.rx); // (its height once the cards are laid out)
  g.append(background);
  g.append(seatBadge(H.badge, seat, ctx));
  const total = hand.reduce((a, b) => a + b, 0);
  g.append(text(...H.name.at, `${short(seatName(ctx.seats, seat), H.name.chars)} (you)`, "name"));
  g.append(
    text(
      ...H.total.at,
      `hand total ${total}${total <= 5 ? " · Countdown! possible" : ""} · ${standing(obs, seat)}`,
      "small",
      H.total.anchor,
    ),
  );
  // Groups of equal cards, in the hand's order.
  const groups = [];
  for (const v of hand) {
    if (groups.length && groups[groups.length - 1].value === v) groups[groups.length - 1].count++;
    else groups.push({ value: v, count: 1 });
  }
  // Countdown! and Blastoff!, when open; the keyboard reaches them in reading order.
  const declares = DECLARES.filter(([word]) => moves.declare[word]);
  const declare = () =>
    declares.forEach(([word, label], i) => {
      const D = H.declare;
      const at = [D.at[0] + i * D.step[0], D.at[1] + i * D.step[1]];
      const button = svg(
        "g",
        { class: `declare ${word}`, transform: `translate(${at[0]},${at[1]})` },
        svg("rect", { width: D.width, height: 52, rx: 26 }),
        text(D.width / 2, 33, label, "declare-text", "middle"),
      );
      g.append(playMove(button, moves.declare[word], ctx, `${label} (end the round)`));
    });
  if (H.declare.first) declare();
  const { height, middle } = H.cards(g, groups, moves, inTurn, declares.length > 0);
  if (!hand.length) g.append(text(W / 2, middle, "no cards yet", "small", "middle"));
  let hint = "";
  if (inTurn) hint = pick.value === null ? H.hints.pick : H.hints.picked;
  else if (mover && obs.phase === "draw" && !ctx.replay) hint = H.hints.draw;
  if (hint) g.append(text(H.hint.x, height - H.hint.bottom, hint, "hint"));
  if (!H.declare.first) declare();
  background.setAttribute("height", height);
  g.height = height;
  return g;
}

// Wide: each group fanned, side by side, sized to fit left of the declarations; a click on
// the second card of a group picks two. ``playable``: my turn to pick. Returns the panel's
// height and where "no cards yet" goes.
function fannedCards(g, groups, moves, playable, declaring) {
  const room = W - 60 - (declaring ? L.hand.declare.width + 10 : 0);
  const fresh = [...current.marks.newCards];
  let step = 24,
    gap = 16;
  const widthOf = () =>
    groups.reduce((a, gr) => a + CARD_W + (gr.count - 1) * step, 0) +
    gap * Math.max(0, groups.length - 1);
  while (widthOf() > room && step > 8) {
    step -= 2;
    gap = Math.max(6, gap - 1);
  }
  let x = 30 + (room - widthOf()) / 2;
  for (const group of groups) {
    const most = playable ? moves.most[group.value] || 0 : 0;
    const gg = svg("g", {
      class: `group ${pick.value === group.value ? "picked" : ""}`,
      "data-value": group.value,
    });
    for (let j = 0; j < group.count; j++) {
      const lifted = pick.value === group.value && j < pick.count;
      const card = cardFace(x + j * step, lifted ? 58 : 76, group.value);
      if (lifted) card.classList.add("lifted");
      if (j === group.count - 1 && fresh.includes(group.value)) {
        card.classList.add("last");
        fresh.splice(fresh.indexOf(group.value), 1);
      }
      if (most) {
        const count = Math.min(j + 1, most);
        const label = `pick ${count} × ${group.value}`;
        card.dataset.pick = `${group.value}x${count}`;
        pressable(
          card,
          label,
          () => {
            const same = pick.value === group.value && pick.count === count;
            pick.value = same ? null : group.value;
            pick.count = same ? 0 : count;
            redraw();
          },
          undefined,
          cover(0, 0, CARD_W, CARD_H, CARD_W * 0.12),
        );
      }
      gg.append(card);
    }
    g.append(gg);
    x += CARD_W + (group.count - 1) * step + gap;
  }
  return { height: 230, middle: 130 };
}

// A phone: one card per number, its count on it, five to a row under the declarations; a tap
// picks one more of it (then none).
function countedCards(g, groups, moves, playable, declaring) {
  const perRow = 5,
    gap = (W - 24 - perRow * CARD_W) / (perRow - 1);
  const rows = Math.max(1, Math.ceil(groups.length / perRow));
  const top = 56 + (declaring ? 66 : 0);
  const fresh = [...current.marks.newCards];
  groups.forEach((group, i) => {
    const x = 12 + (i % perRow) * (CARD_W + gap);
    const picked = pick.value === group.value ? pick.count : 0;
    const cy = top + Math.floor(i / perRow) * (CARD_H + 22) + (picked ? 0 : 10);
    const card = cardFace(x, cy, group.value);
    card.classList.add("value-card");
    if (picked) card.classList.add("lifted");
    if (fresh.includes(group.value)) {
      card.classList.add("last");
      fresh.splice(fresh.indexOf(group.value), 1);
    }
    const badge =
      group.count > 1 || picked ? (picked ? `${picked} of ${group.count}` : `×${group.count}`) : "";
    g.append(card);
    // The count sits on the card, drawn beside it (the label says it for screen readers).
    if (badge)
      g.append(
        svg(
          "g",
          {
            class: `count-badge ${picked ? "picked" : ""}`,
            transform: `translate(${x + CARD_W - 6},${cy + 4})`,
            "aria-hidden": "true",
          },
          svg("rect", { x: -24, y: -10, width: 36, height: 20, rx: 10 }),
          text(-6, 5, badge, "count", "middle"),
        ),
      );
    const most = playable ? moves.most[group.value] || 0 : 0;
    if (most) {
      // The whole card is the target: a clear shape over it, named in words.
      const next = picked >= most ? 0 : picked + 1;
      const target = svg(
        "g",
        {
          class: "value-target",
          "data-value": group.value,
          "data-pick": `${group.value}x${next}`,
          transform: `translate(${x},${cy})`,
        },
        svg("rect", { width: CARD_W, height: CARD_H, rx: 8 }),
      );
      const count = badge
        ? ` (${picked ? `${picked} of ${group.count} picked` : `${group.count} cards`})`
        : "";
      pressable(
        target,
        `${group.value}${count}: ${next ? `pick ${next} × ${group.value}` : "put back"}`,
        () => {
          pick.value = next ? group.value : null;
          pick.count = next;
          redraw();
        },
      );
      card.classList.add("pickable");
      g.append(target);
    }
  });
  return { height: top + rows * (CARD_H + 22) + 30, middle: top + 50 };
}

// -- the last round, revealed ---------------------------------------------------------------
// A hand's total; the Blastoff! declarer discarded the whole hand, so there is none.
function revealedTotal(last, seat) {
  return last.totals[seat] === null ? "Blastoff!" : `total ${last.totals[seat]}`;
}

// The round revealed is marked as the last move when a declaration just ended it.
function lastRoundClass() {
  return `last-round ${current.marks.declared ? "last" : ""}`;
}

function lastRound(obs, ctx, y) {
  const last = obs.last_round;
  if (!last) return null;
  const R = L.reveal;
  const g = svg("g", { class: lastRoundClass(), transform: `translate(0,${y})` });
  const rows = last.hands.map((h, s) => [s, h]).filter(([, h]) => h !== null);
  const height = R.rowTop + rows.length * R.rowHeight;
  g.append(panel(height, R.rx));
  const declarer =
    last.declarer === ctx.seat ? "you" : short(seatName(ctx.seats, last.declarer), R.declarerChars);
  const who =
    last.declarer === null
      ? R.nobody
      : `${declarer} declared ${last.declaration === "countdown" ? "Countdown!" : "Blastoff!"}`;
  g.append(text(...R.caption, `Round ${last.round}${R.revealed}: ${who}`, "caption small-caption"));
  rows.forEach(([seat, hand], i) => {
    const row = svg("g", {
      class: `reveal ${last.declarer === seat ? "declarer" : ""}`,
      "data-seat": seat,
      transform: `translate(0,${R.rowTop + i * R.rowHeight})`,
    });
    row.append(seatBadge(R.badge, seat, ctx));
    row.append(
      text(
        ...R.name.at,
        short(seatName(ctx.seats, seat), R.name.chars) + (seat === ctx.seat ? " (you)" : ""),
        "small name-small",
      ),
    );
    const C = R.cards;
    const step = Math.min(C.w + C.pad, C.room / Math.max(1, hand.length));
    hand.forEach((v, j) => row.append(cardFace(C.x + j * step, C.y, v, C.w, C.h)));
    row.append(text(...R.total, revealedTotal(last, seat), "small", "end"));
    const points = last.points[seat];
    row.append(text(...R.points, `+${points}`, `points ${points >= 3 ? "won" : ""}`, "end"));
    g.append(row);
  });
  g.height = height;
  return g;
}

function redraw() {
  if (!current) return;
  const { obs, ctx, root } = current;
  if (!root.isConnected) return;
  root.replaceWith(render(obs, ctx));
}

function render(obs, ctx) {
  const moves = sortMoves(ctx.legal || []);
  const key = (ctx.legal || []).map((m) => m.action).join("|");
  if (key !== pick.key || (pick.value !== null && !moves.discards[pick.value])) {
    pick.value = null;
    pick.count = 0;
    pick.key = key;
  }
  L = ctx.narrow ? LAYOUTS.narrow : LAYOUTS.wide;
  W = L.width;
  const root = svg("svg", {
    class: `three-two-one ${ctx.narrow ? "narrow" : "wide"}`,
    role: "group",
    "aria-label": "3-2-1 Countdown table",
  });
  current = { obs, ctx, root, marks: lastMove(obs, ctx.before) };
  // The pieces top to bottom, each followed by its gap.
  const gaps = L.gaps;
  root.append(header(obs, ctx));
  let y = L.margin + L.header.height + gaps.header;
  const seated = others(obs, ctx, y);
  root.append(seated);
  y += seated.height + gaps.others;
  root.append(table(obs, ctx, moves, y));
  const stripY = y + L.offers.top;
  const strip = offers(obs, ctx, moves, stripY);
  y += L.table.height + gaps.table;
  if (strip) {
    root.append(strip);
    y = Math.max(y, stripY + strip.height + gaps.offers);
  }
  if (ctx.seat !== null && ctx.seat !== undefined) {
    const hand = myHand(obs, ctx, moves, y);
    root.append(hand);
    y += hand.height + gaps.hand;
  }
  const reveal = lastRound(obs, ctx, y);
  if (reveal) {
    root.append(reveal);
    y += reveal.height + gaps.reveal;
  }
  root.setAttribute("viewBox", `0 0 ${W} ${y}`);
  return root;
}

export default {
  name: "three_two_one",
  render,
  // What decides the game, and nothing else: rounds won with 2-3 players, points with 4-8.
  scores(obs) {
    return obs.scores.map((points, s) =>
      obs.players <= 3 ? `${obs.round_wins[s]}/3 rounds won` : `${points} pts`,
    );
  },
};
