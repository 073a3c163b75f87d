// The leaderboard: the best-rated players of a game at a number of players, chosen here (the
// choice is kept in the address, so that a leaderboard can be linked to).
import { api, el } from "./util.js";
import { account, renderNav } from "./account.js";

const $ = (id) => document.getElementById(id);
const state = { catalog: [], me: null };

function counts(game) {
  const p = game.params.players;
  if (!p) return [2];
  if (p.choices) return p.choices;
  const out = [];
  for (let n = p.minimum ?? 2; n <= (p.maximum ?? n); n++) out.push(n);
  return out.length ? out : [p.default];
}

function fillPlayers(wanted) {
  const game = state.catalog.find((g) => g.name === $("game").value);
  const choices = counts(game);
  const chosen = choices.includes(wanted) ? wanted : game.params.players?.default || choices[0];
  $("players").replaceChildren(
    ...choices.map((n) => el("option", { value: n, selected: n === chosen }, `${n} players`)),
  );
}

async function show() {
  const game = $("game").value,
    players = Number($("players").value);
  const title = state.catalog.find((g) => g.name === game)?.title || game;
  const query = `?game=${encodeURIComponent(game)}&players=${players}`;
  history.replaceState(null, "", location.pathname + query);
  document.title = `Leaderboard: ${title}, ${players} players · T-minus`;
  const box = $("standings");
  let rows;
  try {
    rows = await api(`/api/leaderboard${query}&limit=100`);
  } catch (error) {
    box.replaceChildren(el("p", { class: "error" }, error.message));
    return;
  }
  if ($("game").value !== game || Number($("players").value) !== players) return; // changed
  if (!rows.length) {
    box.replaceChildren(
      el(
        "p",
        { class: "muted empty" },
        `Nobody is rated at ${title} with ${players} players yet: `,
        el("a", { href: "/" }, "play a rated game"),
        ".",
      ),
    );
    return;
  }
  const me = state.me?.name.toLowerCase();
  box.replaceChildren(
    el(
      "div",
      { class: "table-scroll", tabindex: "0", role: "region", "aria-label": "Standings" },
      el(
        "table",
        { class: "data-table standings" },
        el("caption", { class: "visually-hidden" }, `${title}, ${players} players: the best first`),
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            el("th", { scope: "col", class: "number" }, "#"),
            el("th", { scope: "col" }, "Player"),
            el("th", { scope: "col", class: "number" }, "Rating"),
            el("th", { scope: "col", class: "number" }, "Games"),
          ),
        ),
        el(
          "tbody",
          {},
          ...rows.map((r, i) =>
            el(
              "tr",
              { class: r.name.toLowerCase() === me ? "me" : null },
              el("td", { class: "number rank" }, i + 1),
              el(
                "td",
                { class: "name" },
                el("a", { href: `/player/${encodeURIComponent(r.name)}` }, r.name),
              ),
              el("td", { class: "number rating" }, r.rating),
              el("td", { class: "number" }, r.games),
            ),
          ),
        ),
      ),
    ),
  );
}

async function start() {
  const [catalog, me] = await Promise.all([api("/api/catalog"), account()]);
  renderNav();
  state.catalog = catalog;
  state.me = me;
  const asked = new URLSearchParams(location.search);
  const game =
    catalog.find((g) => g.name === asked.get("game")) ||
    catalog.find((g) => g.name === "four_way") ||
    catalog[0];
  $("game").replaceChildren(
    ...catalog.map((g) => el("option", { value: g.name, selected: g === game }, g.title)),
  );
  fillPlayers(Number(asked.get("players")));
  $("game").addEventListener("change", () => {
    fillPlayers(Number($("players").value));
    show();
  });
  $("players").addEventListener("change", show);
  $("choose").addEventListener("submit", (e) => e.preventDefault());
  await show();
}

start();
