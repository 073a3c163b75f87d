// 4-Way CountDown: each player's ten keys (up keys lit), the two dice, and the moves on
// them: click a key to flip it, a rival's attack button on an eleven, the dice to reset.
import { clickable, svg, seatName } from "../util.js";

const KEY_W = 50, KEY_H = 74, GAP = 8, LEFT = 214, ROW_H = 112, TOP = 138, WIDTH = LEFT + 10 * (KEY_W + GAP) + 20;
const PIPS = { 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [0, 2], [2, 0], [2, 2]],
  5: [[0, 0], [0, 2], [1, 1], [2, 0], [2, 2]], 6: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]] };

// Which legal move a click on key k of my own row makes (a single flip first, else a pair).
function movesByKey(legal) {
  const byKey = {};
  let attacks = {}, dice = null;
  for (const m of legal) {
    let match;
    if ((match = m.text.match(/^flip (\d+)$/))) byKey[match[1]] = m;
    else if ((match = m.text.match(/^flip (\d+)\+(\d+)$/))) {
      for (const k of [match[1], match[2]]) byKey[k] = byKey[k] || { ...m, pair: [Number(match[1]), Number(match[2])] };
    } else if ((match = m.text.match(/^attack seat (\d+)$/))) attacks[match[1]] = m;
    else if (m.text === "reset" || m.text === "pass") dice = m;
  }
  return { byKey, attacks, dice };
}

function die(x, y, face, size, extra = {}) {
  const g = svg("g", { class: "die", transform: `translate(${x},${y})`, ...extra });
  g.append(svg("rect", { width: size, height: size, rx: size * 0.18, class: "die-face" }));
  const step = size / 4;
  for (const [r, c] of PIPS[face] || []) {
    g.append(svg("circle", { cx: step * (c + 1), cy: step * (r + 1), r: size * 0.085, class: "pip" }));
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

function header(obs, ctx, moves) {
  const g = svg("g", { class: "dice-area" });
  const cx = WIDTH / 2;
  g.append(svg("rect", { x: 10, y: 10, width: WIDTH - 20, height: 110, rx: 16, class: "tray" }));
  if (obs.phase === "roll-off") {
    const rolls = obs.roll_off.rolls;
    g.append(svg("text", { x: cx, y: 40, class: "caption", "text-anchor": "middle" }, "Roll-off: highest die starts"));
    obs.roll_off.contenders.forEach((s, i) => {
      const x = cx - obs.roll_off.contenders.length * 40 + i * 80 + 14;
      if (rolls[i]) g.append(die(x, 52, rolls[i], 52));
      g.append(svg("text", { x: x + 26, y: 118, class: "small", "text-anchor": "middle" }, seatName(ctx.seats, s)));
    });
    return g;
  }
  if (obs.phase === "over") {
    const text = obs.winner !== null ? `${seatName(ctx.seats, obs.winner)} flipped all ten keys!` : "Draw: the turn cap was reached";
    g.append(svg("text", { x: cx, y: 74, class: "caption", "text-anchor": "middle" }, text));
    return g;
  }
  const dice = obs.dice;
  const dieGroup = svg("g", { class: "dice" });
  // One target for both dice, the gap between them included.
  dieGroup.append(svg("rect", { x: cx - 84, y: 22, width: 168, height: 80, rx: 14, class: "hit" }));
  if (dice) {
    dieGroup.append(die(cx - 74, 30, dice[0], 64), die(cx + 10, 30, dice[1], 64));
  } else {
    dieGroup.append(svg("text", { x: cx, y: 72, class: "caption", "text-anchor": "middle" }, "rolling…"));
  }
  if (moves.dice) {
    clickable(dieGroup, moves.dice, ctx.onMove, `${moves.dice.text} (click the dice)`);
    g.append(svg("text", { x: cx + 110, y: 72, class: "hint" }, moves.dice.text === "reset" ? "Double six: click to reset" : "No key: click to pass"));
  }
  g.append(dieGroup);
  g.append(svg("text", { x: 30, y: 48, class: "caption" }, `Turn ${obs.turn}`));
  if (obs.phase === "move" && !ctx.ended) {
    const who = obs.current_player === ctx.seat ? "Your move" : `${seatName(ctx.seats, obs.current_player)} to move`;
    g.append(svg("text", { x: 30, y: 102, class: "small" }, who));
  }
  if (dice && dice[0] + dice[1] === 11) g.append(svg("text", { x: 30, y: 78, class: "eleven" }, "Eleven!"));
  return g;
}

function row(obs, ctx, seat, y, moves) {
  const mine = seat === ctx.seat;
  const up = new Set(obs.keys[seat]);
  const mover = obs.phase === "move" && obs.current_player === seat && !ctx.ended;
  const g = svg("g", { class: `side ${mine ? "mine" : ""} ${mover ? "mover" : ""} ${obs.winner === seat ? "winner" : ""}`, "data-seat": seat, transform: `translate(0,${y})` });
  g.append(svg("rect", { x: 10, y: 0, width: WIDTH - 20, height: ROW_H - 12, rx: 14, class: "side-bg" }));
  g.append(svg("circle", { cx: 36, cy: 30, r: 13, class: `seat-dot seat-${seat}` }));
  g.append(svg("text", { x: 36, y: 35, class: "seat-number", "text-anchor": "middle" }, String(seat + 1)));
  const name = seatName(ctx.seats, seat);
  g.append(svg("text", { x: 58, y: 36, class: "name" }, (name.length > 15 ? name.slice(0, 14) + "…" : name) + (mine ? " (you)" : "")));
  g.append(svg("text", { x: 58, y: 62, class: "small" }, `${up.size} of 10 keys up`));
  const attack = moves.attacks[seat];
  if (attack) {
    const button = svg("g", { class: "attack", transform: "translate(24,70)" },
      svg("rect", { width: 130, height: 24, rx: 12 }), svg("text", { x: 65, y: 17, "text-anchor": "middle" }, "⚔ 11: knock down"));
    g.append(clickable(button, attack, ctx.onMove));
  }
  for (let k = 1; k <= 10; k++) {
    const x = LEFT + (k - 1) * (KEY_W + GAP);
    const isUp = up.has(k);
    const key = svg("g", { class: `key ${isUp ? "up" : "down"}`, "data-key": k, transform: `translate(${x},${isUp ? 6 : 16})` });
    key.append(svg("rect", { width: KEY_W, height: isUp ? KEY_H : KEY_H - 10, rx: 8, class: "key-face" }));
    key.append(svg("text", { x: KEY_W / 2, y: isUp ? 46 : 40, "text-anchor": "middle", class: "key-number" }, String(k)));
    const move = mine ? moves.byKey[k] : null;
    if (move) clickable(key, move, ctx.onMove, move.pair ? `${move.text} (keys ${move.pair.join(" and ")})` : move.text);
    g.append(key);
  }
  return g;
}

export default {
  name: "four_way",
  render(obs, ctx) {
    const n = obs.players;
    const moves = movesByKey(ctx.legal || []);
    const height = TOP + n * ROW_H;
    const root = svg("svg", { viewBox: `0 0 ${WIDTH} ${height}`, class: "four-way", role: "img", "aria-label": "4-Way CountDown board" });
    root.append(header(obs, ctx, moves));
    seatOrder(n, ctx.seat).forEach((seat, i) => root.append(row(obs, ctx, seat, TOP + i * ROW_H, moves)));
    return root;
  },
  scores(obs) {
    return obs.keys.map((keys) => `${keys.length}/10 keys`);
  },
};
