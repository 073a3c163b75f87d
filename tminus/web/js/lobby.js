// The lobby: pick a game, its rules and seats (persons or bots), create it, share invites.
import { api, el, placings, titleCase } from "./util.js";
import {
  heldSeats,
  holdHotSeats,
  holdSeat,
  keepInvites,
  myGameIds,
  rememberName,
  rememberedName,
} from "./seat.js";

const state = { catalog: [], game: null };
const $ = (id) => document.getElementById(id);

// Parameters in words; a parameter not listed here shows its own help text as its label.
const PARAM_LABELS = {
  players: "Players",
  variant: "Rules",
  max_turns: "Turn limit",
  rounds: "Rounds",
  radius: "Board size (rings)",
  rockets_per_player: "Rockets each",
  teams: "Two teams",
  arrest_max: "Agents arrested on a roll of at most",
  ball_weights: "Ball: weights of 1 to 12",
};

const CHOICE_WORDS = { true: "yes", false: "no", adult: "adult", junior: "junior" };

// One line about each game, for a player choosing: its manifest's line, from the catalog.
function description(game) {
  return (
    game.description || (game.information === "imperfect" ? "Hidden cards." : "Open information.")
  );
}

function paramLabel(name, p) {
  return PARAM_LABELS[name] || titleCase(p.help || name);
}

// A parameter people may set here: not one that names a file on the server (Count Down's
// board), which the server refuses from the browser.
function offered(p) {
  return !p.local_only;
}

function players(game) {
  const select = document.querySelector("#params [name=players]");
  if (select) return Number(select.value);
  const p = game.params.players;
  return p ? p.default : 2;
}

function pickGame(name) {
  state.game = state.catalog.find((g) => g.name === name);
  for (const card of document.querySelectorAll(".game-card")) {
    const chosen = card.dataset.game === name;
    card.classList.toggle("chosen", chosen);
    card.setAttribute("aria-checked", chosen);
  }
  renderParams();
  renderSeats();
}

function renderParams() {
  const box = $("params");
  box.replaceChildren(
    el(
      "legend",
      {},
      "Rules ",
      el("a", { href: `/rules/${state.game.name}`, target: "_blank" }, "(read them)"),
    ),
  );
  for (const [name, p] of Object.entries(state.game.params)) {
    if (!offered(p)) continue;
    let input;
    if (p.choices) {
      input = el(
        "select",
        { name, "data-kind": typeof p.default, onchange: name === "players" ? renderSeats : null },
        ...p.choices.map((c) =>
          el("option", { value: c, selected: c === p.default }, CHOICE_WORDS[c] || String(c)),
        ),
      );
    } else if (typeof p.default === "string") {
      // Free text the server reads (Count Down's ball weights: "1,1,2,..."); left empty,
      // the game's default (a uniform ball).
      input = el("input", {
        name,
        type: "text",
        placeholder: "uniform",
        spellcheck: "false",
        "data-kind": "text",
      });
    } else {
      input = el("input", {
        name,
        type: "number",
        inputmode: "numeric",
        value: p.default,
        min: p.minimum,
        max: p.maximum,
        "data-kind": "number",
      });
    }
    box.append(el("label", { title: p.help }, el("span", {}, paramLabel(name, p)), input));
  }
}

function seatLabel(seat) {
  return seat === 0 ? "You" : `Player ${seat + 1}`;
}

function renderSeats() {
  const box = $("seats");
  const n = players(state.game);
  box.replaceChildren(el("legend", {}, "Seats"));
  const bots = state.game.bots_by_players?.[n] || state.game.bots; // the expert may depend on n
  const usual = Math.min(1, bots.length - 1); // the medium bot, where there is one
  for (let seat = 0; seat < n; seat++) {
    const kind = el(
      "select",
      {
        name: `kind-${seat}`,
        "aria-label": `Who plays: ${seatLabel(seat)}`,
        onchange: suggestUndo,
      },
      el(
        "option",
        { value: "person", selected: seat === 0 },
        seat === 0 ? "You" : "A friend (invite)",
      ),
      seat > 0 ? el("option", { value: "here" }, "Also you: this device (hot-seat)") : null,
      ...bots.map((b, i) =>
        el(
          "option",
          { value: `bot:${b.spec}`, selected: seat > 0 && i === usual },
          `Bot: ${b.label}`,
        ),
      ),
    );
    box.append(
      el(
        "label",
        { class: "seat-row" },
        el(
          "span",
          { class: "seat-dot", "data-seat": seat, "aria-hidden": "true" },
          seat === 0 ? "Y" : String(seat + 1),
        ),
        kind,
      ),
    );
  }
  suggestUndo();
}

// Take-backs are on by default in a game of people only (as the server decides when not
// told); the creator's own choice, once made, stands whatever the seats become.
function suggestUndo() {
  const box = $("undo");
  if (box.dataset.chosen) return;
  const kinds = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  box.checked = kinds.every((kind) => kind === "person" || kind === "here");
}

function readForm() {
  const params = {};
  for (const input of document.querySelectorAll("#params select, #params input")) {
    const raw = input.value;
    if (input.dataset.kind === "text" && !raw.trim()) continue; // the default
    params[input.name] =
      input.dataset.kind === "number"
        ? Number(raw)
        : input.dataset.kind === "boolean"
          ? raw === "true"
          : raw;
  }
  const seats = [];
  const name = $("your-name").value.trim();
  for (let seat = 0; seat < players(state.game); seat++) {
    const value = document.querySelector(`[name=kind-${seat}]`).value;
    if (value === "person" || value === "here")
      seats.push({ kind: "person", name: seat === 0 && name ? name : null });
    else seats.push({ kind: "bot", bot: value.slice(4) });
  }
  const here = seats
    .map((_, seat) => seat)
    .filter((seat) => document.querySelector(`[name=kind-${seat}]`).value === "here");
  return {
    game: state.game.name,
    params,
    seats,
    here,
    listed: $("listed").checked,
    undo: $("undo").checked,
    hints: $("hints").checked,
    you: seats[0].kind === "person",
  };
}

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  const { you, here, ...form } = readForm();
  try {
    const game = await api("/api/games", { method: "POST", body: form });
    keepInvites(game.id, game.invites);
    // The creator's own seat: this browser holds it from now on, on any tab.
    const mine = you ? game.invites.find((invite) => invite.seat === 0) : null;
    if (mine) holdSeat(game.id, mine);
    // Hot-seat: the seats played on this device too (one page plays them in turn).
    const hot = game.invites.filter((invite) => here.includes(invite.seat));
    if (mine && hot.length) holdHotSeats(game.id, hot);
    rememberName($("your-name").value.trim());
    showCreated(game, mine, hot);
    loadGames();
  } catch (error) {
    $("create-error").textContent = error.message;
  }
}

// What the committed seed decides in this game, in words ("every roll of the dice").
function luckOf(name) {
  return state.catalog.find((g) => g.name === name)?.luck || "every chance outcome";
}

function showCreated(game, mine, hot = []) {
  const box = $("created");
  box.hidden = false;
  const name = (seat) => game.seats[seat].name;
  const rows = game.invites
    .filter((invite) => invite !== mine && !hot.includes(invite))
    .map((invite) => {
      const url = new URL(invite.url, location.origin).href;
      return el(
        "li",
        {},
        el("label", { for: `invite-${invite.seat}` }, `${name(invite.seat)}:`),
        el("input", {
          id: `invite-${invite.seat}`,
          readonly: true,
          value: url,
          class: "invite-link",
          "data-seat": invite.seat,
          onfocus: (e) => e.target.select(),
        }),
        el(
          "button",
          { type: "button", onclick: () => navigator.clipboard?.writeText(url) },
          "Copy",
        ),
      );
    });
  const parts = [
    el("h2", {}, `${game.title} is ready`),
    el(
      "p",
      { class: "fair" },
      "Fair play: the server committed to its secret seed ",
      el("code", {}, game.commitment.slice(0, 16) + "…"),
      `. It is revealed at the end, so anyone can check ${luckOf(game.game)}.`,
    ),
  ];
  if (rows.length)
    parts.push(
      el("p", {}, "Send each friend their own invite link:"),
      el("ul", { class: "invites" }, rows),
    );
  parts.push(
    el(
      "p",
      {},
      "Spectators: ",
      el(
        "a",
        { href: game.spectate, id: "spectate-link" },
        new URL(game.spectate, location.origin).href,
      ),
    ),
  );
  parts.push(
    mine
      ? el("a", { class: "primary button", id: "take-seat", href: mine.url }, "Take your seat →")
      : el("a", { class: "primary button", id: "watch", href: game.spectate }, "Watch the bots →"),
  );
  box.replaceChildren(...parts);
  box.scrollIntoView({ behavior: "smooth" });
}

// "1st Ada · 2nd Bot (easy)", best first; a draw says so.
function resultWords(g) {
  const places = placings(g.result, g.seats.length);
  if (!places) return null;
  if (
    g.result.reason === "turn cap" ||
    (!g.result.winners?.length && g.result.reason !== "resigned")
  )
    return "draw";
  return g.seats
    .map((s, i) => ({
      name: s.name,
      place: places[i],
      rank: parseInt(places[i].replace("=", ""), 10),
    }))
    .sort((a, b) => a.rank - b.rank)
    .map((s) => `${s.place} ${s.name}`)
    .join(" · ");
}

// One line of a games list: the game, its state, whose turn it is (marked when it is yours).
function gameRow(g, mySeats = []) {
  const result = g.status === "finished" ? resultWords(g) : null;
  const yours = g.to_move !== null && g.to_move !== undefined && mySeats.includes(g.to_move);
  const turn =
    g.status === "playing" && g.to_move !== null && g.to_move !== undefined
      ? el(
          "span",
          { class: `turn${yours ? " yours" : ""}` },
          yours ? "● your turn" : `${g.seats[g.to_move].name} to play`,
        )
      : null;
  const you = mySeats.filter((s) => g.seats[s]).map((s) => g.seats[s].name);
  return el(
    "li",
    { "data-game": g.id, class: yours ? "your-turn" : null },
    el("a", { href: `/game/${g.id}` }, g.title),
    " ",
    el("span", { class: `status ${g.status}` }, g.status),
    " ",
    turn,
    " ",
    you.length ? el("span", { class: "your-seat" }, `you: ${you.join(", ")}`) : null,
    el("div", { class: "muted recent-detail" }, result || g.seats.map((s) => s.name).join(" · ")),
  );
}

// My games: those this browser holds seats in (or made), asked for by id; yours to play first.
async function loadMyGames() {
  const ids = myGameIds().slice(-50);
  const games = ids.length
    ? await api(`/api/games?ids=${ids.map(encodeURIComponent).join(",")}`).catch(() => [])
    : [];
  const seatsIn = (g) => heldSeats(g.id).map((s) => s.seat);
  const rows = games.map((g) => ({ g, seats: seatsIn(g) }));
  const mine = (r) =>
    r.g.to_move !== null && r.seats.includes(r.g.to_move) && r.g.status === "playing";
  rows.sort((a, b) => mine(b) - mine(a));
  $("my-games").replaceChildren(...rows.map((r) => gameRow(r.g, r.seats)));
  if (!rows.length)
    $("my-games").append(
      el("li", { class: "muted" }, "None yet: the games you create or are invited to show here."),
    );
}

// The public list: listed games in play, open to spectators.
async function loadPublicGames() {
  const games = await api("/api/games?limit=15").catch(() => []);
  $("public-games").replaceChildren(...games.map((g) => gameRow(g)));
  if (!games.length)
    $("public-games").append(el("li", { class: "muted" }, "No listed game is being played now."));
}

function loadGames() {
  return Promise.all([loadMyGames(), loadPublicGames()]);
}

async function main() {
  $("your-name").value = rememberedName();
  state.catalog = await api("/api/catalog");
  $("games").replaceChildren(
    ...state.catalog.map((g) =>
      el(
        "button",
        {
          type: "button",
          class: "game-card",
          role: "radio",
          "aria-checked": "false",
          "data-game": g.name,
          onclick: () => pickGame(g.name),
        },
        el("strong", {}, g.title),
        el("small", { class: "game-description" }, description(g)),
      ),
    ),
  );
  $("create").addEventListener("submit", create);
  $("undo").addEventListener("change", () => {
    $("undo").dataset.chosen = "yes";
  });
  pickGame(state.catalog.find((g) => g.name === "four_way")?.name || state.catalog[0].name);
  loadGames();
  setInterval(() => {
    if (!document.hidden) loadGames();
  }, 15000);
}

main();
