// Sputnik: the hexagon of galaxies, the bases in their seats' colours, the rockets, the empty
// cells left behind, and the galaxies still protected by an unmoved base (hatched). On your
// turn the cells you can fly to glow (amber: your base's help), then the galaxies you may
// remove; with several rockets, click one of yours to choose which one flies.
// The players and the legend are a panel beside the board (below it on a phone). The last
// move is marked: the cell the rocket left, where it landed, the galaxy taken away.
import { el, pressable, svg, seatName, short } from "../util.js";

const SQRT3 = Math.sqrt(3);
const ROCKET = "M0,-19 C8,-11 9,0 6.5,10 L-6.5,10 C-9,0 -8,-11 0,-19 Z";
const FINS = "M-6,1 L-13,14 L-6,10 Z M6,1 L13,14 L6,10 Z";
const FLAME = "M-4,11 L0,21 L4,11 Z";

let chosen = null; // the rocket (its cell name) you chose to fly, with several rockets
let current = null;

// The moves by cell, read from each move's struct: {kind: "move"|"help", rocket, from, to}
// (from: the cell of the rocket that flies) and {kind: "remove", cell}.
function sortMoves(legal) {
  const moves = { byFrom: {}, remove: {} };
  for (const m of legal) {
    const { kind } = m.struct;
    if (kind === "move" || kind === "help") {
      const targets = (moves.byFrom[m.struct.from] = moves.byFrom[m.struct.from] || {});
      targets[m.struct.to] = m;
    } else if (kind === "remove") moves.remove[m.struct.cell] = m;
  }
  return moves;
}

function geometry(obs) {
  const radius = obs.params.radius;
  const size = Math.min(48, 600 / (SQRT3 * (2 * radius + 1)));
  const cells = obs.cell_names.map((name, i) => {
    const q = name.charCodeAt(0) - 97 - radius;
    const r = Number(name.slice(1)) - radius - 1;
    return { i, name, q, r, x: size * SQRT3 * (q + r / 2), y: size * 1.5 * r };
  });
  const byName = Object.fromEntries(cells.map((c) => [c.name, c]));
  const width = size * SQRT3 * (2 * radius + 1);
  const height = size * (3 * radius + 2);
  return { radius, size, cells, byName, width, height };
}

function neighbours(geo, name) {
  const c = geo.byName[name];
  if (!c) return [];
  return [
    [1, 0],
    [1, -1],
    [0, -1],
    [-1, 0],
    [-1, 1],
    [0, 1],
  ]
    .map(([dq, dr]) => geo.cells.find((o) => o.q === c.q + dq && o.r === c.r + dr))
    .filter(Boolean)
    .map((o) => o.name);
}

// Galaxies next to a base whose rocket is on the board and has never left it may not be taken.
function protectedCells(obs, geo) {
  const cells = new Set();
  for (const rocket of obs.rockets) {
    if (rocket.cell !== null && !rocket.left_base && rocket.base)
      neighbours(geo, rocket.base).forEach((n) => cells.add(n));
  }
  return cells;
}

function hexPoints(size) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (60 * k - 30);
    pts.push(`${(size * Math.cos(a)).toFixed(2)},${(size * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

function defs() {
  return svg(
    "defs",
    {},
    svg(
      "radialGradient",
      { id: "sp-galaxy", cx: "50%", cy: "50%", r: "50%" },
      svg("stop", { offset: "0%", "stop-color": "#fff6d8" }),
      svg("stop", { offset: "35%", "stop-color": "#c79bff", "stop-opacity": 0.9 }),
      svg("stop", { offset: "100%", "stop-color": "#5b3fb8", "stop-opacity": 0 }),
    ),
    svg(
      "radialGradient",
      { id: "sp-cell", cx: "50%", cy: "40%", r: "65%" },
      svg("stop", { offset: "0%", "stop-color": "#2c2f6b" }),
      svg("stop", { offset: "100%", "stop-color": "#161a3f" }),
    ),
    svg(
      "pattern",
      {
        id: "sp-hatch",
        width: 8,
        height: 8,
        patternUnits: "userSpaceOnUse",
        patternTransform: "rotate(45)",
      },
      svg("rect", { width: 3, height: 8, fill: "rgba(255, 92, 122, 0.45)" }),
    ),
  );
}

function galaxyGlyph(size, index) {
  const turn = (index * 47) % 180;
  const g = svg("g", {
    class: "galaxy-glyph",
    transform: `rotate(${turn}) translate(0,${-size * 0.08})`,
  });
  g.append(svg("ellipse", { rx: size * 0.52, ry: size * 0.22, fill: "url(#sp-galaxy)" }));
  g.append(
    svg("path", {
      d: `M${-size * 0.42},0 C${-size * 0.2},${-size * 0.3} ${size * 0.2},${-size * 0.18} ${size * 0.05},0 C${-size * 0.1},${size * 0.18} ${size * 0.25},${size * 0.28} ${size * 0.42},0`,
      class: "galaxy-arm",
    }),
  );
  g.append(svg("circle", { r: size * 0.07, class: "galaxy-core" }));
  return g;
}

function rocketShape(seat, size, moving) {
  const scale = (size / 48) * 1.15;
  const g = svg("g", {
    class: `rocket seat-${seat % 6} ${moving ? "moving" : ""}`,
    transform: `translate(0,${-size * 0.06}) scale(${scale.toFixed(3)})`,
  });
  if (moving) g.append(svg("path", { d: FLAME, class: "flame" }));
  g.append(svg("path", { d: FINS, class: "fins" }));
  g.append(svg("path", { d: ROCKET, class: "body" }));
  g.append(svg("circle", { cy: -4, r: 3.2, class: "window" }));
  return g;
}

// What the last move changed: the cells a rocket left and reached, the galaxies taken.
function lastMove(obs, before) {
  const marks = { from: new Set(), to: new Set(), removed: new Set(), steps: {} };
  if (!before || !before.rockets || before.cells.length !== obs.cells.length) return marks;
  obs.rockets.forEach((rocket, i) => {
    const was = before.rockets[i];
    if (was && rocket.cell !== null && was.cell !== null && was.cell !== rocket.cell) {
      marks.from.add(was.cell);
      marks.to.add(rocket.cell);
      marks.steps[rocket.cell] = was.cell;
    }
  });
  obs.cells.forEach((content, i) => {
    if (content === "empty" && before.cells[i] === "galaxy") marks.removed.add(obs.cell_names[i]);
  });
  return marks;
}

function cellNode(obs, ctx, geo, cell, info) {
  const { size } = geo;
  const content = obs.cells[cell.i];
  const baseOf = content.startsWith("base of seat ") ? Number(content.slice(12)) : null;
  const kind = baseOf !== null ? "base" : content;
  const classes = ["cell", kind];
  if (baseOf !== null) classes.push(`seat-${baseOf % 6}`);
  if (info.protect.has(cell.name) && kind === "galaxy") classes.push("protected");
  if (info.last.from.has(cell.name)) classes.push("last-from");
  if (info.last.to.has(cell.name)) classes.push("last-to");
  if (info.last.removed.has(cell.name)) classes.push("last-removed");
  const g = svg("g", {
    class: classes.join(" "),
    "data-cell": cell.name,
    transform: `translate(${cell.x.toFixed(2)},${cell.y.toFixed(2)})`,
  });
  g.append(svg("polygon", { points: hexPoints(size * 0.96), class: "hex" }));
  if (kind === "galaxy") g.append(galaxyGlyph(size, cell.i));
  if (kind === "base") {
    g.append(svg("circle", { r: size * 0.5, class: "pad" }));
    g.append(svg("circle", { r: size * 0.3, class: "pad-inner" }));
  }
  if (kind === "empty")
    g.append(
      svg("circle", { r: 1.4, cx: size * 0.2, cy: -size * 0.25, class: "star" }),
      svg("circle", { r: 1, cx: -size * 0.3, cy: size * 0.1, class: "star" }),
    );
  if (classes.includes("protected"))
    g.append(
      svg("polygon", { points: hexPoints(size * 0.96), fill: "url(#sp-hatch)", class: "hatch" }),
    );
  const rocket = info.rocketAt[cell.name];
  if (rocket) {
    // A rocket that just flew here starts from the cell it left (motion allowed).
    const from = info.last.steps[cell.name] && geo.byName[info.last.steps[cell.name]];
    const style = from
      ? `--dx:${(from.x - cell.x).toFixed(1)}px;--dy:${(from.y - cell.y).toFixed(1)}px`
      : null;
    g.append(
      svg(
        "g",
        { class: from ? "flight" : "", style },
        rocketShape(rocket.seat, size, rocket.seat === info.mover),
      ),
    );
  }
  if (kind !== "empty" && !rocket)
    g.append(
      svg("text", { y: size * 0.72, "text-anchor": "middle", class: "cell-name" }, cell.name),
    );
  // Moves onto this cell.
  const target = info.targets[cell.name];
  const removal = info.moves.remove[cell.name];
  if (target) {
    g.classList.add("target", target.struct.kind === "help" ? "help" : "step");
    const words = target.label || target.text;
    const label =
      target.struct.kind === "help"
        ? `${words} (your base comes to ${cell.name}, the rocket onto it)`
        : words;
    pressable(
      g,
      label,
      () => {
        chosen = null;
        ctx.onMove(target.action);
      },
      target.text,
    );
    if (target.struct.kind === "help")
      g.append(svg("text", { y: 6, "text-anchor": "middle", class: "help-mark" }, "⤓ base"));
  } else if (removal) {
    g.classList.add("removable");
    pressable(g, removal.label || removal.text, () => ctx.onMove(removal.action), removal.text);
    g.append(svg("text", { y: size * 0.15, "text-anchor": "middle", class: "remove-mark" }, "✕"));
  } else if (rocket && info.choosable.length > 1 && info.choosable.includes(cell.name)) {
    g.classList.add("choosable");
    if (cell.name === info.from) g.classList.add("chosen");
    pressable(g, `fly the rocket on ${cell.name}`, () => {
      chosen = cell.name;
      redraw();
    });
  }
  return g;
}

// obs.turn counts the turns finished: players count the one being played from 1.
function turnWords(obs) {
  if (obs.phase === "over") return `${obs.turn} ${obs.turn === 1 ? "turn" : "turns"} played`;
  return `turn ${obs.turn + 1}`;
}

function status(obs, ctx, info) {
  if (obs.phase === "lot") return ["Drawing lots", "who starts?"];
  if (obs.phase === "over") {
    const w = obs.winners || [];
    if (!w.length) return ["Draw", "the turn limit was reached"];
    const names = w.map((s) => (s === ctx.seat ? "You" : seatName(ctx.seats, s))).join(" and ");
    return [
      `${names} ${w.length > 1 || w[0] === ctx.seat ? "win!" : "wins!"}`,
      "the last rocket in space",
    ];
  }
  if (ctx.ended) return ["Game over", ""];
  const mine = obs.current_player === ctx.seat;
  if (obs.phase === "move") {
    if (!mine) return [`${seatName(ctx.seats, obs.current_player)} flies`, "then removes a galaxy"];
    return [
      "Your move",
      info.many
        ? "choose a rocket, then a glowing cell"
        : "fly to a glowing cell (amber: base help)",
    ];
  }
  if (!mine) return [seatName(ctx.seats, obs.current_player), "removes a galaxy"];
  return ["Remove a galaxy", "tap one marked ✕"];
}

function rocketIcon(seat) {
  return svg(
    "svg",
    { viewBox: "-16 -22 32 40", class: "rocket-icon", "aria-hidden": "true" },
    rocketShape(seat, 40, false),
  );
}

// The panel: whose turn, then each player (colour, name, rockets, base help), then the legend.
function sidePanel(obs, ctx) {
  const [title, sub] = status(obs, ctx, current.info);
  const n = obs.rockets.length / obs.params.rockets_per_player;
  const players = [];
  for (let seat = 0; seat < n; seat++) {
    const rockets = obs.rockets.filter((r) => r.seat === seat);
    const alive = rockets.filter((r) => r.cell !== null);
    const where = rockets.map((r) => r.cell || "out").join(", ");
    const helps = rockets.filter((r) => r.cell !== null && r.base !== null).length;
    const team = obs.params.teams ? ` · team ${seat % 2 ? "B" : "A"}` : "";
    const name = seatName(ctx.seats, seat);
    const toMove = obs.current_player === seat && obs.phase !== "over" && !ctx.ended;
    players.push(
      el(
        "li",
        {
          class: `player ${alive.length ? "" : "out"} ${toMove ? "to-move" : ""}`,
          "data-seat": seat,
        },
        el("span", { class: `rocket-badge seat-${seat % 6}` }, rocketIcon(seat)),
        el(
          "span",
          { class: "player-name", title: name },
          short(name, 28),
          seat === ctx.seat ? " (you)" : "",
        ),
        el(
          "span",
          { class: "small" },
          alive.length
            ? `at ${where} · ${helps ? "base help left" : "base used"}${team}`
            : `eliminated${team}`,
        ),
      ),
    );
  }
  const legend = [
    ["galaxy", "galaxy: fly here or take it"],
    ["empty", "empty space"],
    ["protected", "protected by an unmoved base"],
  ];
  return el(
    "div",
    { class: "sputnik-panel" },
    el("p", { class: `caption ${obs.phase === "over" ? "win" : ""}` }, title),
    el("p", { class: "small" }, sub, sub ? " · " : "", turnWords(obs)),
    el("ol", { class: "players" }, players),
    el(
      "ul",
      { class: "legend-list" },
      legend.map(([kind, words]) =>
        el(
          "li",
          { class: `legend ${kind}` },
          svg(
            "svg",
            { viewBox: "-13 -13 26 26", "aria-hidden": "true" },
            svg("polygon", { points: hexPoints(11), class: "hex" }),
            kind === "protected"
              ? svg("polygon", { points: hexPoints(11), fill: "url(#sp-hatch)" })
              : null,
            kind !== "empty" ? svg("circle", { r: 3, class: "galaxy-core" }) : null,
          ),
          words,
        ),
      ),
    ),
  );
}

function redraw() {
  if (current && current.root.isConnected)
    current.root.replaceWith(render(current.obs, current.ctx));
}

function render(obs, ctx) {
  const geo = geometry(obs);
  const playing = obs.phase === "move" || obs.phase === "remove";
  const mover = playing && !ctx.ended ? obs.current_player : null;
  const rocketAt = {};
  for (const r of obs.rockets) if (r.cell !== null) rocketAt[r.cell] = r;
  const moves = sortMoves(ctx.legal || []);
  const choosable = Object.keys(moves.byFrom);
  if (!choosable.includes(chosen)) chosen = choosable[0] || null;
  const info = {
    protect: protectedCells(obs, geo),
    rocketAt,
    moves,
    mover,
    choosable,
    last: lastMove(obs, ctx.before),
    from: chosen,
    targets: chosen ? moves.byFrom[chosen] : {},
    many: obs.params.rockets_per_player > 1,
  };
  const pad = geo.size * 0.45;
  const boardW = geo.width + 2 * pad,
    height = geo.height + 2 * pad;
  const board = svg("svg", {
    class: "sputnik-board",
    viewBox: `0 0 ${boardW.toFixed(1)} ${height.toFixed(1)}`,
    role: "group",
    "aria-label": "Sputnik board",
  });
  board.append(defs());
  const hexes = svg("g", {
    class: "hexes",
    transform: `translate(${(boardW / 2).toFixed(2)},${(height / 2).toFixed(2)})`,
  });
  hexes.append(
    svg("polygon", {
      points: hexPoints(geo.size * (SQRT3 * geo.radius + 1.2))
        .split(" ")
        .map((p) => p.split(",").reverse().join(","))
        .join(" "),
      class: "rim",
    }),
  );
  for (const cell of geo.cells) hexes.append(cellNode(obs, ctx, geo, cell, info));
  board.append(hexes);
  const root = el("div", { class: "sputnik" }, board);
  current = { obs, ctx, root, info };
  root.append(sidePanel(obs, ctx));
  return root;
}

export default {
  name: "sputnik",
  render,
  scores(obs) {
    const n = obs.rockets.length / obs.params.rockets_per_player;
    return Array.from({ length: n }, (_, s) => {
      const alive = obs.rockets.filter((r) => r.seat === s && r.cell !== null).length;
      if (obs.winners && obs.winners.includes(s)) return "★ last in space";
      return alive ? `${alive} rocket${alive > 1 ? "s" : ""} flying` : "eliminated";
    });
  },
};
