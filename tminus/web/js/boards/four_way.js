// 4-Way CountDown: each player's ten keys (up keys lit), the two dice, and the moves on
// them: click a key to flip it, a rival's attack button on an eleven, the dice to reset.
// Wide screens: one row of ten keys per player. Phones: your keys in two rows of five, big
// enough for a thumb, and the rivals' keys as small strips.
// The keys that changed with the last move are marked (and flip, motion allowed).
import { clickable, initial, seatName, short, svg } from "../util.js";

const PIPS = {
  1: [[1, 1]],
  2: [
    [0, 0],
    [2, 2],
  ],
  3: [
    [0, 0],
    [1, 1],
    [2, 2],
  ],
  4: [
    [0, 0],
    [0, 2],
    [2, 0],
    [2, 2],
  ],
  5: [
    [0, 0],
    [0, 2],
    [1, 1],
    [2, 0],
    [2, 2],
  ],
  6: [
    [0, 0],
    [0, 1],
    [0, 2],
    [2, 0],
    [2, 1],
    [2, 2],
  ],
};

// The board at its two sizes, 814 units wide or 400 on a phone: each piece is drawn by one
// function, its geometry read from the layout in use (points: [x, y]).
const WIDE_KEYS = { w: 50, h: 74, gap: 8, perRow: 10, rowGap: 0, left: 214, y: 6 };
const LAYOUTS = {
  wide: {
    width: 814,
    // the dice tray
    top: 138,
    tray: 110,
    die: 64,
    rollOff: "Roll-off: highest die starts",
    winnerChars: 30,
    mover: { chars: 16, y: 102 },
    hint: { beside: true, verb: "click" }, // (the dice's hint, beside them)
    // a row per player: the panel, the name, the keys up, the attack button, the keys
    margin: 10,
    gap: 12,
    rx: 14,
    name: { at: [36, 36], chars: 13 },
    count: { at: [58, 60], anchor: null, of: " of 10 keys up" },
    attack: { x: 22, y: 66, width: 160, height: 30 }, // (under the rival's name)
    keys: { mine: WIDE_KEYS, rival: WIDE_KEYS },
    height: { mine: 112, rival: 112, attacked: 112 },
  },
  narrow: {
    width: 400,
    top: 132,
    tray: 112,
    die: 54,
    rollOff: "Roll-off: highest starts",
    winnerChars: 16,
    mover: { chars: 9, y: 96 },
    hint: { beside: false, verb: "tap" }, // (under them, in place of whose move it is)
    margin: 6,
    gap: 8,
    rx: 12,
    name: { at: [28, 28], chars: 22 },
    count: { at: [380, 28], anchor: "end", of: "/10 up" },
    // (54 units: 47 px on a 360-px phone, where the board is drawn at 0.875)
    attack: { x: 20, y: 80, width: 360, height: 54 }, // (under the rival's keys)
    keys: {
      // a key down (0.86 of it) stays 44 px tall on a 360-px phone
      mine: { w: 64, h: 64, gap: 9, perRow: 5, rowGap: 10, left: null, y: 44 }, // (null: centred)
      rival: { w: 31, h: 28, gap: 4.5, perRow: 10, rowGap: 0, left: null, y: 42 },
    },
    // mine: two rows of keys (44 + 2 × 64 + 10) and 22 under them
    height: { mine: 204, rival: 82, attacked: 144 },
  },
};

// Which legal move a click on key k of my own row makes (a single flip first, else a pair),
// read from each move's struct: {kind: "flip", keys}, {kind: "attack", seat}, reset, pass.
function movesByKey(legal) {
  const byKey = {};
  const attacks = {};
  let dice = null;
  for (const m of legal) {
    const { kind, keys, seat } = m.struct;
    if (kind === "flip" && keys.length === 1) byKey[keys[0]] = m;
    else if (kind === "flip") for (const k of keys) byKey[k] = byKey[k] || { ...m, pair: keys };
    else if (kind === "attack") attacks[seat] = m;
    else if (kind === "reset" || kind === "pass") dice = m;
  }
  return { byKey, attacks, dice };
}

function die(x, y, face, size, extra = {}) {
  const g = svg("g", { class: "die", transform: `translate(${x},${y})`, ...extra });
  g.append(svg("rect", { width: size, height: size, rx: size * 0.18, class: "die-face" }));
  const step = size / 4;
  for (const [r, c] of PIPS[face] || []) {
    g.append(
      svg("circle", { cx: step * (c + 1), cy: step * (r + 1), r: size * 0.085, class: "pip" }),
    );
  }
  return g;
}

function seatOrder(n, me) {
  // Rivals on top, your own keys at the bottom, nearest you.
  const order = [];
  const base = me === null || me === undefined ? 0 : me + 1;
  for (let i = 0; i < n; i++) order.push((base + i) % n);
  return order;
}

function header(obs, ctx, moves, L) {
  const g = svg("g", { class: "dice-area" });
  const cx = L.width / 2;
  g.append(
    svg("rect", { x: 10, y: 10, width: L.width - 20, height: L.tray, rx: 16, class: "tray" }),
  );
  if (obs.phase === "roll-off") {
    const rolls = obs.roll_off.rolls;
    g.append(svg("text", { x: cx, y: 36, class: "caption", "text-anchor": "middle" }, L.rollOff));
    const n = obs.roll_off.contenders.length;
    const step = Math.min(80, (L.width - 40) / n);
    obs.roll_off.contenders.forEach((s, i) => {
      const x = cx - (n * step) / 2 + i * step + (step - 44) / 2;
      if (rolls[i]) g.append(die(x, 48, rolls[i], 44));
      g.append(
        svg(
          "text",
          { x: x + 22, y: 112, class: "small", "text-anchor": "middle" },
          short(seatName(ctx.seats, s), Math.floor(step / 8)),
        ),
      );
    });
    return g;
  }
  if (obs.phase === "over") {
    const name = obs.winner !== null ? seatName(ctx.seats, obs.winner) : null;
    const text =
      name !== null
        ? `${short(name, L.winnerChars)} flipped all ten keys!`
        : "Draw: the turn limit was reached";
    g.append(svg("text", { x: cx, y: 72, class: "caption", "text-anchor": "middle" }, text));
    return g;
  }
  const dice = obs.dice;
  const size = L.die;
  const dieGroup = svg("g", { class: "dice" });
  // One target for both dice, the gap between them included.
  const hitW = 2 * size + 40;
  dieGroup.append(
    svg("rect", { x: cx - hitW / 2, y: 18, width: hitW, height: size + 16, rx: 14, class: "hit" }),
  );
  if (dice) {
    dieGroup.append(die(cx - size - 10, 26, dice[0], size), die(cx + 10, 26, dice[1], size));
  } else {
    dieGroup.append(
      svg(
        "text",
        { x: cx, y: 26 + size / 2 + 6, class: "caption", "text-anchor": "middle" },
        "rolling…",
      ),
    );
  }
  if (moves.dice) {
    const verb = L.hint.verb;
    const words =
      moves.dice.struct.kind === "reset"
        ? `Double six: ${verb} the dice to reset`
        : `No key: ${verb} the dice to pass`;
    clickable(
      dieGroup,
      moves.dice,
      ctx.onMove,
      `${moves.dice.label || moves.dice.text} (the dice)`,
    );
    const [x, y, anchor] = L.hint.beside
      ? [cx + hitW / 2 + 16, 72, null]
      : [cx, L.tray + 2, "middle"];
    g.append(svg("text", { x, y, class: "hint", "text-anchor": anchor }, words));
  }
  g.append(dieGroup);
  // (No turn counter: the engine's count includes the roll-off's rolls and serves only its
  // safety cap, which is no rule a player needs.)
  if (obs.phase === "move" && !ctx.ended && (L.hint.beside || !moves.dice)) {
    const mover =
      obs.current_player === ctx.seat
        ? "Your move"
        : `${short(seatName(ctx.seats, obs.current_player), L.mover.chars)} to move`;
    g.append(svg("text", { x: 26, y: L.mover.y, class: "small" }, mover));
  }
  if (dice && dice[0] + dice[1] === 11)
    g.append(svg("text", { x: 26, y: 68, class: "eleven" }, "Eleven!"));
  return g;
}

// The keys of ``seat`` that changed with the last move that changed any (flipped up, or
// knocked down): the passes after it leave its mark.
function changedKeys(obs, ctx, seat) {
  const keys = JSON.stringify(obs.keys);
  const before = (ctx.earlier || [ctx.before]).find(
    (o) => o && o.keys && JSON.stringify(o.keys) !== keys,
  );
  if (!before || !before.keys[seat]) return new Set();
  const was = new Set(before.keys[seat]),
    now = new Set(obs.keys[seat]);
  const changed = new Set();
  for (let k = 1; k <= 10; k++) if (was.has(k) !== now.has(k)) changed.add(k);
  return changed;
}

function key(k, isUp, w, h, x, y, changed) {
  const g = svg("g", {
    class: `key ${isUp ? "up" : "down"} ${changed ? "last" : ""}`,
    "data-key": k,
    transform: `translate(${x},${y + (isUp ? 0 : h * 0.14)})`,
  });
  const inner = svg("g", { class: "key-body" });
  inner.append(svg("rect", { width: w, height: isUp ? h : h * 0.86, rx: 8, class: "key-face" }));
  inner.append(
    svg(
      "text",
      {
        x: w / 2,
        y: (isUp ? h : h * 0.86) / 2 + w * 0.17,
        "text-anchor": "middle",
        class: "key-number",
        "font-size": Math.min(24, w * 0.48),
      },
      String(k),
    ),
  );
  g.append(inner);
  return g;
}

function playKey(node, k, move, ctx) {
  const words = move.label || move.text;
  clickable(
    node,
    move,
    ctx.onMove,
    move.pair ? `${words} (keys ${move.pair.join(" and ")})` : words,
  );
}

function nameLine(ctx, seat, { at: [x, y], chars }) {
  const g = svg("g", { class: "who" });
  g.append(svg("circle", { cx: x, cy: y - 6, r: 13, class: `seat-dot seat-${seat}` }));
  const name = seatName(ctx.seats, seat);
  g.append(
    svg("text", { x, y: y - 1, class: "seat-number", "text-anchor": "middle" }, initial(name)),
  );
  const label = svg("text", { x: x + 22, y, class: "name" }, short(name, chars));
  label.append(svg("title", {}, name));
  g.append(label);
  return g;
}

// The button sits in the rival's row, under their name, so it shows only the words; its
// accessible name starts with those same words (voice control finds a button by what it
// shows) and goes on with the server's words for the move, which name the rival.
function attackButton(attack, ctx, x, y, width, height) {
  const words = width > 200 ? "Eleven: knock down" : "11: knock down";
  const button = svg(
    "g",
    { class: "attack", transform: `translate(${x},${y})` },
    svg("rect", { width, height, rx: height / 2 }),
    svg("text", { x: width / 2, y: height / 2 + 5, "text-anchor": "middle" }, `⚔ ${words}`),
  );
  return clickable(button, attack, ctx.onMove, `${words} — ${attack.label || attack.text}`);
}

// -- a player's row: name, keys up, their keys, and the attack on them when open -------------
function rowHeight(seat, ctx, moves, L) {
  if (seat === ctx.seat) return L.height.mine;
  return moves.attacks[seat] ? L.height.attacked : L.height.rival;
}

function row(obs, ctx, seat, y, moves, L) {
  const mine = seat === ctx.seat;
  const up = new Set(obs.keys[seat]);
  const mover = obs.phase === "move" && obs.current_player === seat && !ctx.ended;
  const g = svg("g", {
    class: `side ${mine ? "mine" : ""} ${mover ? "mover" : ""} ${obs.winner === seat ? "winner" : ""}`,
    "data-seat": seat,
    transform: `translate(0,${y})`,
  });
  const height = rowHeight(seat, ctx, moves, L) - L.gap;
  g.append(
    svg("rect", {
      x: L.margin,
      y: 0,
      width: L.width - 2 * L.margin,
      height,
      rx: L.rx,
      class: "side-bg",
    }),
  );
  g.append(nameLine(ctx, seat, L.name));
  g.append(
    svg(
      "text",
      { x: L.count.at[0], y: L.count.at[1], class: "small", "text-anchor": L.count.anchor },
      `${mine ? "you · " : ""}${up.size}${L.count.of}`,
    ),
  );
  const attack = moves.attacks[seat];
  if (attack) {
    const A = L.attack;
    g.append(attackButton(attack, ctx, A.x, A.y, A.width, A.height));
  }
  const changed = changedKeys(obs, ctx, seat);
  const K = mine ? L.keys.mine : L.keys.rival;
  const left = K.left ?? (L.width - (K.perRow * K.w + (K.perRow - 1) * K.gap)) / 2;
  for (let k = 1; k <= 10; k++) {
    const col = (k - 1) % K.perRow,
      line = Math.floor((k - 1) / K.perRow);
    const x = left + col * (K.w + K.gap),
      ky = K.y + line * (K.h + K.rowGap);
    const node = key(k, up.has(k), K.w, K.h, x, ky, changed.has(k));
    const move = mine ? moves.byKey[k] : null;
    if (move) playKey(node, k, move, ctx);
    g.append(node);
  }
  return g;
}

export default {
  name: "four_way",
  render(obs, ctx) {
    const n = obs.players;
    const moves = movesByKey(ctx.legal || []);
    const L = ctx.narrow ? LAYOUTS.narrow : LAYOUTS.wide;
    const root = svg("svg", {
      class: `four-way ${ctx.narrow ? "narrow" : "wide"}`,
      role: "group",
      "aria-label": "4-Way CountDown board",
    });
    root.append(header(obs, ctx, moves, L));
    let y = L.top;
    for (const seat of seatOrder(n, ctx.seat)) {
      root.append(row(obs, ctx, seat, y, moves, L));
      y += rowHeight(seat, ctx, moves, L);
    }
    root.setAttribute("viewBox", `0 0 ${L.width} ${y}`);
    return root;
  },
  scores(obs) {
    return obs.keys.map((keys) => `${keys.length}/10 keys`);
  },
};
