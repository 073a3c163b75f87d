// A player's page (/player/NAME): their ratings, how each changed (a chart drawn here in SVG),
// and their games.
import { api, el, ordinal, svg } from "./util.js";
import { account, renderNav } from "./account.js";

const $ = (id) => document.getElementById(id);
const main = $("player");
const name = decodeURIComponent(location.pathname.split("/").pop());
// One colour for each line of the chart (the seats' colours).
const COLOURS = ["#ffb347", "#6ec6ff", "#c792ff", "#7dff9b", "#ff8fa3", "#f5f5a0"];

const titles = {}; // game name -> its title ("4-Way CountDown")
const titleOf = (game) => titles[game] || game;
const playersWords = (n) => `${n} players`;

function date(iso, long = false) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleDateString(undefined, {
    year: long || d.getFullYear() !== new Date().getFullYear() ? "numeric" : undefined,
    month: long ? "long" : "short",
    day: "numeric",
  });
}

// A table that scrolls sideways inside its own box, should it ever be too wide.
function table(caption, heads, rows, cls = "") {
  return el(
    "div",
    { class: "table-scroll", tabindex: "0", role: "region", "aria-label": caption },
    el(
      "table",
      { class: `data-table ${cls}` },
      el("caption", { class: "visually-hidden" }, caption),
      el(
        "thead",
        {},
        el("tr", {}, ...heads.map((h) => el("th", { scope: "col", class: h.cls }, h.text))),
      ),
      el("tbody", {}, ...rows),
    ),
  );
}

function ratingsSection(profile) {
  const rows = profile.ratings.map((r) =>
    el(
      "tr",
      {},
      el(
        "td",
        {},
        el(
          "a",
          { href: `/leaderboard?game=${encodeURIComponent(r.game)}&players=${r.players}` },
          titleOf(r.game),
        ),
      ),
      el("td", { class: "number" }, r.players),
      el("td", { class: "number rating" }, r.rating),
      el("td", { class: "number" }, r.games),
    ),
  );
  return el(
    "section",
    { class: "panel", "aria-labelledby": "ratings-title" },
    el("h2", { id: "ratings-title" }, "Ratings"),
    rows.length
      ? table(
          `${profile.name}'s ratings`,
          [
            { text: "Game" },
            { text: "Players", cls: "number" },
            { text: "Rating", cls: "number" },
            { text: "Games", cls: "number" },
          ],
          rows,
        )
      : el("p", { class: "muted" }, "No rated game yet."),
  );
}

// -- the rating history chart ----------------------------------------------------------------
// One line per game and player count; x: the rated games in the order played (0: before the
// first), y: the rating after each; every point has its game's words as its tooltip.
function series(history) {
  const lines = new Map();
  history.forEach((h, i) => {
    const key = `${h.game}/${h.players}`;
    if (!lines.has(key))
      lines.set(key, {
        label: `${titleOf(h.game)}, ${playersWords(h.players)}`,
        points: [{ x: i, y: h.before, start: true }],
      });
    lines.get(key).points.push({ x: i + 1, y: h.after, entry: h });
  });
  return [...lines.values()].map((line, i) => ({ ...line, colour: COLOURS[i % COLOURS.length] }));
}

// Round numbers between ``low`` and ``high``, about ``count`` of them.
function ticks(low, high, count) {
  const step0 = (high - low) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(step0 || 1));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= step0) || power * 10;
  const out = [];
  for (let v = Math.ceil(low / step) * step; v <= high + 1e-9; v += step) out.push(v);
  return out;
}

function chart(history, width) {
  const lines = series(history);
  const values = lines.flatMap((l) => l.points.map((p) => p.y));
  let low = Math.min(...values),
    high = Math.max(...values);
  const pad = Math.max(10, (high - low) * 0.1);
  low = Math.floor((low - pad) / 10) * 10;
  high = Math.ceil((high + pad) / 10) * 10;
  const n = history.length;
  const height = 240;
  const left = 48,
    right = 14,
    top = 26,
    bottom = 40;
  const x = (v) => left + ((width - left - right) * v) / Math.max(1, n);
  const y = (v) => top + ((height - top - bottom) * (high - v)) / (high - low);
  const first = history[0],
    last = history[n - 1];
  const words = lines.map((l) => {
    const a = l.points[0].y,
      b = l.points[l.points.length - 1].y;
    return `${l.label}: from ${a} to ${b} over ${l.points.length - 1} rated game${l.points.length > 2 ? "s" : ""}`;
  });
  const parts = [
    svg("title", { id: "chart-title" }, `${name}'s rating history`),
    svg(
      "desc",
      { id: "chart-desc" },
      `${words.join("; ")}. From ${date(first.at, true)} to ${date(last.at, true)}.`,
    ),
  ];
  for (const v of ticks(low, high, 4)) {
    parts.push(
      svg("line", { class: "grid", x1: left, x2: width - right, y1: y(v), y2: y(v) }),
      svg("text", { class: "axis", x: left - 6, y: y(v) + 4, "text-anchor": "end" }, v),
    );
  }
  const xs = ticks(0, n, Math.min(n, width < 500 ? 4 : 8)).filter((v) => Number.isInteger(v));
  for (const v of xs) {
    parts.push(
      svg("line", {
        class: "tick",
        x1: x(v),
        x2: x(v),
        y1: height - bottom,
        y2: height - bottom + 4,
      }),
      svg("text", { class: "axis", x: x(v), y: height - bottom + 17, "text-anchor": "middle" }, v),
    );
  }
  parts.push(
    svg("line", {
      class: "axis-line",
      x1: left,
      x2: width - right,
      y1: height - bottom,
      y2: height - bottom,
    }),
    svg(
      "text",
      {
        class: "axis-title",
        x: (left + width - right) / 2,
        y: height - 4,
        "text-anchor": "middle",
      },
      "rated games played",
    ),
    svg("text", { class: "axis-title", x: left - 6, y: 12, "text-anchor": "end" }, "rating"),
  );
  for (const line of lines) {
    const d = line.points.map(
      (p, i) => `${i ? "L" : "M"}${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`,
    );
    parts.push(svg("path", { class: "rating-line", d: d.join(" "), stroke: line.colour }));
    for (const p of line.points) {
      if (p.start) continue;
      const h = p.entry;
      parts.push(
        svg(
          "circle",
          { class: "rating-point", cx: x(p.x), cy: y(p.y), r: 4, fill: line.colour },
          svg(
            "title",
            {},
            `${line.label}: ${h.before} → ${h.after}${h.place ? `, ${ordinal(h.place)}` : ""}, ${date(h.at)}`,
          ),
        ),
      );
    }
  }
  return {
    node: svg(
      "svg",
      {
        class: "rating-chart",
        width,
        height,
        viewBox: `0 0 ${width} ${height}`,
        role: "img",
        "aria-labelledby": "chart-title chart-desc",
      },
      ...parts,
    ),
    legend: el(
      "ul",
      { class: "chart-legend" },
      ...lines.map((l) =>
        el(
          "li",
          {},
          el("span", { class: "swatch", style: `background:${l.colour}`, "aria-hidden": "true" }),
          `${l.label}: ${l.points[l.points.length - 1].y}`,
        ),
      ),
    ),
  };
}

function historySection(profile) {
  const box = el("div", { id: "chart-box", class: "chart-box" });
  const section = el(
    "section",
    { class: "panel", "aria-labelledby": "history-title" },
    el("h2", { id: "history-title" }, "Rating history"),
    box,
  );
  if (!profile.history.length) {
    box.append(el("p", { class: "muted" }, "The chart starts with the first rated game."));
    return section;
  }
  // Drawn at the box's own width (the words stay their size on a phone), again on resize.
  let drawnAt = 0;
  const draw = () => {
    const width = Math.max(260, Math.floor(box.clientWidth));
    if (width === drawnAt) return;
    drawnAt = width;
    const { node, legend } = chart(profile.history, width);
    box.replaceChildren(node, legend);
  };
  new ResizeObserver(draw).observe(box);
  return section;
}

function placeWords(g) {
  if (g.status !== "finished") return g.status;
  return g.place ? ordinal(g.place) : "—";
}

function gamesSection(profile) {
  const games = [...profile.games].sort((a, b) => String(b.created).localeCompare(a.created));
  const rows = games.map((g) =>
    el(
      "tr",
      { "data-game": g.id },
      el(
        "td",
        {},
        el("a", { href: `/game/${encodeURIComponent(g.id)}` }, g.title),
        g.rated ? el("span", { class: "badge rated-badge small" }, "rated") : "",
      ),
      el("td", { class: "number" }, g.players),
      el("td", { class: `place${g.place === 1 ? " first" : ""}` }, placeWords(g)),
      el("td", { class: "date" }, date(g.created)),
    ),
  );
  return el(
    "section",
    { class: "panel", "aria-labelledby": "games-title" },
    el("h2", { id: "games-title" }, "Games"),
    rows.length
      ? table(
          `${profile.name}'s games`,
          [
            { text: "Game" },
            { text: "Players", cls: "number" },
            { text: "Place" },
            { text: "Date" },
          ],
          rows,
          "games-table",
        )
      : el("p", { class: "muted" }, "No game yet."),
  );
}

function notFound(message) {
  document.title = "Player not found · T-minus";
  main.replaceChildren(
    el(
      "section",
      { class: "panel problem-panel" },
      el("h1", {}, "Player not found"),
      el("p", {}, message),
      el("p", {}, el("a", { class: "button", href: "/leaderboard" }, "See the leaderboard")),
    ),
  );
}

async function start() {
  const [catalog, me] = await Promise.all([api("/api/catalog").catch(() => []), account()]);
  renderNav();
  for (const g of catalog) titles[g.name] = g.title;
  let profile;
  try {
    profile = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (error) {
    main.removeAttribute("aria-busy");
    return notFound(error.message);
  }
  document.title = `${profile.name} · T-minus`;
  const mine = me && me.name.toLowerCase() === profile.name.toLowerCase();
  main.removeAttribute("aria-busy");
  main.replaceChildren(
    el(
      "div",
      { class: "player-head" },
      el("h1", {}, profile.name),
      el(
        "p",
        { class: "muted" },
        `Playing since ${date(profile.since, true)}`,
        mine ? [" · ", el("a", { href: "/account" }, "Your account")] : "",
      ),
    ),
    ratingsSection(profile),
    historySection(profile),
    gamesSection(profile),
  );
}

start();
