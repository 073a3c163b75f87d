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
let W = 1000; // the table's width: 1000 wide, 420 on a phone
const PILES = ["left", "right"];

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

function seatBadge(x, y, seat, ctx) {
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
  const g = svg("g", { class: "ttt-header" });
  g.append(svg("rect", { x: 10, y: 10, width: W - 20, height: 50, rx: 14, class: "tray" }));
  const rounds = obs.players <= 3 ? "· first to win 3 rounds" : `of ${obs.rounds}`;
  g.append(
    text(30, 42, `Round ${obs.round}${obs.extra_round ? " (extra)" : ""} ${rounds}`, "caption"),
  );
  g.append(
    text(
      W - 30,
      42,
      statusText(obs, ctx),
      obs.phase === "over" ? "caption win" : "status-text",
      "end",
    ),
  );
  return g;
}

// -- the others: card backs, standing, the cards they were seen to take -----------------------
function others(obs, ctx, y) {
  const n = obs.players;
  const seats = [];
  const base = ctx.seat === null ? 0 : ctx.seat + 1;
  for (let i = 0; i < n; i++) if ((base + i) % n !== ctx.seat) seats.push((base + i) % n);
  const g = svg("g", { class: "others" });
  const gap = 10,
    width = Math.min(300, (W - 20 - gap * (seats.length - 1)) / seats.length);
  const left = (W - (width * seats.length + gap * (seats.length - 1))) / 2;
  seats.forEach((seat, i) =>
    g.append(opponent(obs, ctx, seat, left + i * (width + gap), y, width)),
  );
  return g;
}

function opponent(obs, ctx, seat, x, y, width) {
  const playing = obs.playing.includes(seat);
  const mover = obs.mover === seat && obs.phase !== "over" && !ctx.ended;
  const winner = obs.winners && obs.winners.includes(seat);
  const g = svg("g", {
    class: `hand-panel opponent ${mover ? "mover" : ""} ${winner ? "winner" : ""} ${playing ? "" : "sitting-out"}`,
    "data-seat": seat,
    transform: `translate(${x},${y})`,
  });
  g.append(svg("rect", { width, height: 156, rx: 14, class: "panel-bg" }));
  g.append(seatBadge(22, 24, seat, ctx));
  g.append(text(40, 29, short(seatName(ctx.seats, seat), Math.floor((width - 50) / 9)), "name"));
  g.append(text(40, 48, standing(obs, seat), "small"));
  const size = obs.hand_sizes[seat];
  if (!playing) {
    g.append(text(width / 2, 90, "sits out this round", "small", "middle"));
    return g;
  }
  // The backs, fanned to fit the panel.
  const bw = 40,
    bh = 58;
  const step = size > 1 ? Math.min(18, (width - 32 - bw) / (size - 1)) : 0;
  const fan = bw + step * Math.max(0, size - 1);
  const start = (width - fan) / 2;
  for (let i = 0; i < size; i++) g.append(cardBack(start + i * step, 60, bw, bh));
  g.append(
    svg(
      "g",
      { class: "count-badge", transform: `translate(${start + fan - 4},${64})` },
      svg("circle", { r: 13 }),
      text(0, 5, String(size), "count", "middle"),
    ),
  );
  const known = obs.known_cards[seat];
  if (known.length) {
    g.append(text(16, 144, "took:", "small"));
    known.slice(0, 10).forEach((v, i) => g.append(cardFace(56 + i * 18, 127, v, 16, 22)));
  }
  return g;
}

// -- the middle: left pile, draw pile, right pile ------------------------------------------------
function table(obs, ctx, moves, y) {
  const g = svg("g", { class: "middle", transform: `translate(0,${y})` });
  g.append(svg("rect", { x: 10, y: 0, width: W - 20, height: 232, rx: 20, class: "felt" }));
  const centre = W / 2;
  g.append(drawPile(obs, ctx, moves, centre - CARD_W / 2, 50));
  PILES.forEach((name, i) =>
    g.append(
      discardPile(obs, ctx, moves, name, i, i === 0 ? centre - 260 : centre + 260 - CARD_W, 50),
    ),
  );
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
  // The cards just under the top, for the record: the pile is public.
  const under = pile.slice(-6, -1).reverse();
  if (W < 1000) {
    // a phone: the cards below in a row under the pile
    under.forEach((v, i) =>
      g.append(cardFace(x - 16 + i * 20, y + CARD_H + 40, v, 18, 25, { class: "card face under" })),
    );
    return pileMoves(g, obs, ctx, moves, name, x, y, pile, area);
  }
  const side = index === 0 ? -1 : 1;
  under.forEach((v, i) => {
    const ux = index === 0 ? x - 44 - i * 22 : x + CARD_W + 22 + i * 22;
    g.append(cardFace(ux, y + 30, v, 20, 28, { class: "card face under", opacity: 1 - i * 0.15 }));
  });
  if (under.length)
    g.append(
      text(
        index === 0 ? x - 34 : x + CARD_W + 32,
        y + 20,
        "below:",
        "tiny",
        side < 0 ? "end" : "start",
      ),
    );
  return pileMoves(g, obs, ctx, moves, name, x, y, pile, area);
}

// A draw from this pile, or the picked cards discarded onto it.
function pileMoves(g, obs, ctx, moves, name, x, y, pile, area) {
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

// -- your hand ----------------------------------------------------------------------------------
function myHand(obs, ctx, moves, y) {
  const seat = ctx.seat;
  const hand = obs.hand || [];
  const mover = obs.mover === seat && obs.phase !== "over" && !ctx.ended;
  const winner = obs.winners && obs.winners.includes(seat);
  const g = svg("g", {
    class: `hand-panel mine ${mover ? "mover" : ""} ${winner ? "winner" : ""}`,
    "data-seat": seat,
    transform: `translate(0,${y})`,
  });
  g.append(svg("rect", { x: 10, y: 0, width: W - 20, height: 230, rx: 16, class: "panel-bg" }));
  g.append(seatBadge(34, 28, seat, ctx));
  const total = hand.reduce((a, b) => a + b, 0);
  g.append(text(54, 34, `${short(seatName(ctx.seats, seat), 20)} (you)`, "name"));
  g.append(
    text(
      W - 30,
      34,
      `hand total ${total}${total <= 5 ? " · Countdown! possible" : ""} · ${standing(obs, seat)}`,
      "small",
      "end",
    ),
  );

  // Groups of equal cards, side by side, each fanned; sized to fit.
  const groups = [];
  for (const v of hand) {
    if (groups.length && groups[groups.length - 1].value === v) groups[groups.length - 1].count++;
    else groups.push({ value: v, count: 1 });
  }
  const declareWidth = Object.keys(moves.declare).length ? 190 : 0;
  const room = W - 60 - declareWidth;
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
  const inTurn = obs.phase === "turn" && mover && !ctx.replay;
  for (const group of groups) {
    const most = inTurn ? moves.most[group.value] || 0 : 0;
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
  if (!hand.length) g.append(text(W / 2, 130, "no cards yet", "small", "middle"));
  if (groups.length) {
    let hint = "";
    if (inTurn)
      hint =
        pick.value === null
          ? "Click a card to pick it (the 2nd card of a group picks two), then a pile."
          : "Now click a pile, or one of the discards above.";
    else if (mover && obs.phase === "draw" && !ctx.replay)
      hint = "Now draw: click the draw pile, or take the top card of the other discard pile.";
    g.append(text(30, 212, hint, "hint"));
  }
  // Countdown! and Blastoff!, when open.
  let by = 66;
  for (const [word, label] of [
    ["countdown", "Countdown!"],
    ["blastoff", "Blastoff!"],
  ]) {
    const move = moves.declare[word];
    if (!move) continue;
    const button = svg(
      "g",
      { class: `declare ${word}`, transform: `translate(${W - 210},${by})` },
      svg("rect", { width: 180, height: 52, rx: 26 }),
      text(90, 33, label, "declare-text", "middle"),
    );
    g.append(playMove(button, move, ctx, `${label} (end the round)`));
    by += 66;
  }
  return g;
}

// The discards of the picked number, as a strip of buttons between the piles and the hand.
function offers(obs, ctx, moves, y) {
  const byCount = pick.value !== null ? moves.discards[pick.value] : null;
  if (!byCount) return null;
  const g = svg("g", { class: "offers", transform: `translate(0,${y})` });
  const options = [];
  for (const count of Object.keys(byCount)
    .map(Number)
    .sort((a, b) => a - b)) {
    for (const pile of PILES)
      if (byCount[count][pile]) options.push({ count, pile, move: byCount[count][pile] });
  }
  const bw = 118,
    gap = 8;
  let x = (W - (options.length * (bw + gap) - gap)) / 2;
  for (const o of options) {
    const label = `${o.pile === "left" ? "◀ " : ""}${Array(o.count).fill(pick.value).join(" ")}${o.pile === "right" ? " ▶" : ""}`;
    const b = svg(
      "g",
      { class: `offer ${o.count === pick.count ? "chosen" : ""}`, transform: `translate(${x},0)` },
      svg("rect", { width: bw, height: 30, rx: 15 }),
      text(bw / 2, 20, short(label, 14), "offer-text", "middle"),
    );
    g.append(playMove(b, o.move, ctx, null, cover(0, 0, bw, 30, 15)));
    x += bw + gap;
  }
  return g;
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
  const g = svg("g", { class: lastRoundClass(), transform: `translate(0,${y})` });
  const rows = last.hands.map((h, s) => [s, h]).filter(([, h]) => h !== null);
  g.append(
    svg("rect", {
      x: 10,
      y: 0,
      width: W - 20,
      height: 48 + rows.length * 44,
      rx: 16,
      class: "panel-bg",
    }),
  );
  const who =
    last.declarer === null
      ? "nobody declared (nothing left to draw)"
      : `${last.declarer === ctx.seat ? "you" : seatName(ctx.seats, last.declarer)} declared ${last.declaration === "countdown" ? "Countdown!" : "Blastoff!"}`;
  g.append(text(30, 32, `Round ${last.round} revealed: ${who}`, "caption small-caption"));
  rows.forEach(([seat, hand], i) => {
    const ry = 48 + i * 44;
    const row = svg("g", {
      class: `reveal ${last.declarer === seat ? "declarer" : ""}`,
      "data-seat": seat,
      transform: `translate(0,${ry})`,
    });
    row.append(seatBadge(40, 18, seat, ctx));
    row.append(
      text(
        60,
        23,
        short(seatName(ctx.seats, seat), 16) + (seat === ctx.seat ? " (you)" : ""),
        "small name-small",
      ),
    );
    const step = Math.min(MINI_W + 4, 560 / Math.max(1, hand.length));
    hand.forEach((v, j) => row.append(cardFace(230 + j * step, 0, v, MINI_W, MINI_H)));
    row.append(text(W - 170, 23, revealedTotal(last, seat), "small", "end"));
    const points = last.points[seat];
    row.append(text(W - 40, 24, `+${points}`, `points ${points >= 3 ? "won" : ""}`, "end"));
    g.append(row);
  });
  return g;
}

// -- a phone: the same table, narrower --------------------------------------------------------
function narrowHeader(obs, ctx) {
  const g = svg("g", { class: "ttt-header" });
  g.append(svg("rect", { x: 6, y: 6, width: W - 12, height: 66, rx: 12, class: "tray" }));
  const rounds = obs.players <= 3 ? "· first to win 3" : `of ${obs.rounds}`;
  g.append(
    text(20, 32, `Round ${obs.round}${obs.extra_round ? " (extra)" : ""} ${rounds}`, "caption"),
  );
  g.append(
    text(
      20,
      58,
      short(statusText(obs, ctx), 40),
      obs.phase === "over" ? "caption win" : "status-text",
    ),
  );
  return g;
}

function narrowOthers(obs, ctx, y) {
  const n = obs.players;
  const seats = [];
  const base = ctx.seat === null ? 0 : ctx.seat + 1;
  for (let i = 0; i < n; i++) if ((base + i) % n !== ctx.seat) seats.push((base + i) % n);
  const g = svg("g", { class: "others" });
  const gap = 8,
    perRow = seats.length === 1 ? 1 : 2;
  const width = (W - 12 - gap * (perRow - 1)) / perRow;
  seats.forEach((seat, i) => {
    const x = 6 + (i % perRow) * (width + gap);
    g.append(narrowOpponent(obs, ctx, seat, x, y + Math.floor(i / perRow) * 112, width));
  });
  return { g, height: Math.ceil(seats.length / perRow) * 112 };
}

function narrowOpponent(obs, ctx, seat, x, y, width) {
  const playing = obs.playing.includes(seat);
  const mover = obs.mover === seat && obs.phase !== "over" && !ctx.ended;
  const winner = obs.winners && obs.winners.includes(seat);
  const g = svg("g", {
    class: `hand-panel opponent ${mover ? "mover" : ""} ${winner ? "winner" : ""} ${playing ? "" : "sitting-out"}`,
    "data-seat": seat,
    transform: `translate(${x},${y})`,
  });
  g.append(svg("rect", { width, height: 104, rx: 12, class: "panel-bg" }));
  g.append(seatBadge(20, 22, seat, ctx));
  const name = text(
    38,
    27,
    short(seatName(ctx.seats, seat), Math.floor((width - 44) / 10.5)),
    "name",
  );
  name.append(svg("title", {}, seatName(ctx.seats, seat)));
  g.append(name);
  g.append(text(12, 96, standing(obs, seat), "small"));
  const size = obs.hand_sizes[seat];
  if (!playing) {
    g.append(text(width / 2, 66, "sits out this round", "small", "middle"));
    return g;
  }
  const bw = 26,
    bh = 38;
  const step = size > 1 ? Math.min(12, (width - 40 - bw) / (size - 1)) : 0;
  const fan = bw + step * Math.max(0, size - 1);
  const start = 12;
  for (let i = 0; i < size; i++) g.append(cardBack(start + i * step, 40, bw, bh));
  g.append(
    svg(
      "g",
      { class: "count-badge", transform: `translate(${start + fan + 14},${59})` },
      svg("circle", { r: 13 }),
      text(0, 5, String(size), "count", "middle"),
    ),
  );
  const known = obs.known_cards[seat];
  if (known.length) {
    const kx = start + fan + 34;
    known
      .slice(0, Math.max(0, Math.floor((width - kx - 6) / 15)))
      .forEach((v, i) => g.append(cardFace(kx + i * 15, 46, v, 14, 20)));
  }
  return g;
}

function narrowTable(obs, ctx, moves, y) {
  const g = svg("g", { class: "middle", transform: `translate(0,${y})` });
  g.append(svg("rect", { x: 6, y: 0, width: W - 12, height: 214, rx: 16, class: "felt" }));
  const third = (W - 12) / 3;
  const at = (i) => 6 + third * i + (third - CARD_W) / 2;
  g.append(drawPile(obs, ctx, moves, at(1), 44));
  PILES.forEach((name, i) =>
    g.append(discardPile(obs, ctx, moves, name, i, at(i === 0 ? 0 : 2), 44)),
  );
  return g;
}

// The offered discards of the picked number, as rows of buttons.
function narrowOffers(obs, ctx, moves, y) {
  const byCount = pick.value !== null ? moves.discards[pick.value] : null;
  if (!byCount) return null;
  const g = svg("g", { class: "offers", transform: `translate(0,${y})` });
  const options = [];
  for (const count of Object.keys(byCount)
    .map(Number)
    .sort((a, b) => a - b)) {
    for (const pile of PILES)
      if (byCount[count][pile]) options.push({ count, pile, move: byCount[count][pile] });
  }
  const perRow = 3,
    gap = 8,
    bw = (W - 12 - gap * (perRow - 1)) / perRow,
    bh = 50;
  options.forEach((o, i) => {
    const label = `${o.pile === "left" ? "◀ " : ""}${Array(o.count).fill(pick.value).join(" ")}${o.pile === "right" ? " ▶" : ""}`;
    const b = svg(
      "g",
      {
        class: `offer ${o.count === pick.count ? "chosen" : ""}`,
        transform: `translate(${6 + (i % perRow) * (bw + gap)},${Math.floor(i / perRow) * (bh + gap)})`,
      },
      svg("rect", { width: bw, height: bh, rx: 14 }),
      text(bw / 2, 31, short(label, 13), "offer-text", "middle"),
    );
    g.append(playMove(b, o.move, ctx, null, cover(0, 0, bw, bh, 14)));
  });
  g.height = Math.ceil(options.length / perRow) * (bh + gap);
  return g;
}

// My hand: one card per number, its count on it; a tap picks one more of it (then none).
function narrowHand(obs, ctx, moves, y) {
  const seat = ctx.seat;
  const hand = obs.hand || [];
  const mover = obs.mover === seat && obs.phase !== "over" && !ctx.ended;
  const winner = obs.winners && obs.winners.includes(seat);
  const g = svg("g", {
    class: `hand-panel mine ${mover ? "mover" : ""} ${winner ? "winner" : ""}`,
    "data-seat": seat,
    transform: `translate(0,${y})`,
  });
  const groups = [];
  for (const v of hand) {
    if (groups.length && groups[groups.length - 1].value === v) groups[groups.length - 1].count++;
    else groups.push({ value: v, count: 1 });
  }
  const perRow = 5,
    gap = (W - 24 - perRow * CARD_W) / (perRow - 1);
  const rows = Math.max(1, Math.ceil(groups.length / perRow));
  const declares = [
    ["countdown", "Countdown!"],
    ["blastoff", "Blastoff!"],
  ].filter(([word]) => moves.declare[word]);
  const top = 56 + (declares.length ? 66 : 0);
  const height = top + rows * (CARD_H + 22) + 30;
  g.append(svg("rect", { x: 6, y: 0, width: W - 12, height, rx: 14, class: "panel-bg" }));
  g.append(seatBadge(24, 24, seat, ctx));
  const total = hand.reduce((a, b) => a + b, 0);
  g.append(text(44, 29, `${short(seatName(ctx.seats, seat), 18)} (you)`, "name"));
  g.append(
    text(
      20,
      48,
      `hand total ${total}${total <= 5 ? " · Countdown! possible" : ""} · ${standing(obs, seat)}`,
      "small",
    ),
  );
  declares.forEach(([word, label], i) => {
    const bw = (W - 36) / 2;
    const button = svg(
      "g",
      { class: `declare ${word}`, transform: `translate(${12 + i * (bw + 12)},${60})` },
      svg("rect", { width: bw, height: 52, rx: 26 }),
      text(bw / 2, 33, label, "declare-text", "middle"),
    );
    g.append(playMove(button, moves.declare[word], ctx, `${label} (end the round)`));
  });
  const inTurn = obs.phase === "turn" && mover && !ctx.replay;
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
    // The count sits on the card, drawn beside it (the label says it for screen readers).
    const badgeNode = badge
      ? svg(
          "g",
          {
            class: `count-badge ${picked ? "picked" : ""}`,
            transform: `translate(${x + CARD_W - 6},${cy + 4})`,
            "aria-hidden": "true",
          },
          svg("rect", { x: -24, y: -10, width: 36, height: 20, rx: 10 }),
          text(-6, 5, badge, "count", "middle"),
        )
      : null;
    g.append(card);
    if (badgeNode) g.append(badgeNode);
    const most = inTurn ? moves.most[group.value] || 0 : 0;
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
  if (!hand.length) g.append(text(W / 2, top + 50, "no cards yet", "small", "middle"));
  let hint = "";
  if (inTurn)
    hint =
      pick.value === null
        ? "Tap a number to pick it (again: one more), then a pile."
        : "Now tap a pile, or a discard below it.";
  else if (mover && obs.phase === "draw" && !ctx.replay)
    hint = "Now draw: tap the draw pile or the other discard pile.";
  if (hint) g.append(text(14, height - 12, hint, "hint"));
  g.height = height;
  return g;
}

function narrowLastRound(obs, ctx, y) {
  const last = obs.last_round;
  if (!last) return null;
  const g = svg("g", { class: lastRoundClass(), transform: `translate(0,${y})` });
  const rows = last.hands.map((h, s) => [s, h]).filter(([, h]) => h !== null);
  const height = 44 + rows.length * 58;
  g.append(svg("rect", { x: 6, y: 0, width: W - 12, height, rx: 14, class: "panel-bg" }));
  const who =
    last.declarer === null
      ? "nobody declared"
      : `${last.declarer === ctx.seat ? "you" : short(seatName(ctx.seats, last.declarer), 14)} declared ${last.declaration === "countdown" ? "Countdown!" : "Blastoff!"}`;
  g.append(text(18, 28, `Round ${last.round}: ${who}`, "caption small-caption"));
  rows.forEach(([seat, hand], i) => {
    const row = svg("g", {
      class: `reveal ${last.declarer === seat ? "declarer" : ""}`,
      "data-seat": seat,
      transform: `translate(0,${44 + i * 58})`,
    });
    row.append(seatBadge(24, 10, seat, ctx));
    row.append(
      text(
        42,
        15,
        short(seatName(ctx.seats, seat), 18) + (seat === ctx.seat ? " (you)" : ""),
        "small name-small",
      ),
    );
    row.append(text(W - 70, 15, revealedTotal(last, seat), "small", "end"));
    const points = last.points[seat];
    row.append(text(W - 18, 16, `+${points}`, `points ${points >= 3 ? "won" : ""}`, "end"));
    const step = Math.min(MINI_W * 0.8 + 3, (W - 40) / Math.max(1, hand.length));
    hand.forEach((v, j) => row.append(cardFace(20 + j * step, 22, v, MINI_W * 0.8, MINI_H * 0.8)));
    g.append(row);
  });
  g.height = height;
  return g;
}

function renderNarrow(obs, ctx, moves, root) {
  root.append(narrowHeader(obs, ctx));
  let y = 80;
  const others = narrowOthers(obs, ctx, y);
  root.append(others.g);
  y += others.height + 4;
  root.append(narrowTable(obs, ctx, moves, y));
  y += 222;
  const strip = narrowOffers(obs, ctx, moves, y);
  if (strip) {
    root.append(strip);
    y += strip.height + 4;
  }
  if (ctx.seat !== null && ctx.seat !== undefined) {
    const hand = narrowHand(obs, ctx, moves, y);
    root.append(hand);
    y += hand.height + 10;
  }
  const reveal = narrowLastRound(obs, ctx, y);
  if (reveal) {
    root.append(reveal);
    y += reveal.height + 6;
  }
  return y;
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
  W = ctx.narrow ? 420 : 1000;
  const root = svg("svg", {
    class: `three-two-one ${ctx.narrow ? "narrow" : "wide"}`,
    role: "group",
    "aria-label": "3-2-1 Countdown table",
  });
  current = { obs, ctx, root, marks: lastMove(obs, ctx.before) };
  if (ctx.narrow) {
    root.setAttribute("viewBox", `0 0 ${W} ${renderNarrow(obs, ctx, moves, root)}`);
    return root;
  }
  root.append(header(obs, ctx));
  let y = 72;
  root.append(others(obs, ctx, y));
  y += 168;
  root.append(table(obs, ctx, moves, y));
  const strip = offers(obs, ctx, moves, y + 190);
  y += 244;
  if (strip) root.append(strip);
  if (ctx.seat !== null && ctx.seat !== undefined) {
    root.append(myHand(obs, ctx, moves, y));
    y += 242;
  }
  const reveal = lastRound(obs, ctx, y);
  if (reveal) {
    root.append(reveal);
    y += 60 + reveal.querySelectorAll(".reveal").length * 44;
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
