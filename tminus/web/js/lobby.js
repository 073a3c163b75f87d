// The lobby: pick a game, its rules and seats (persons or bots), create it, share invites.
import { api, el, placings, titleCase } from "./util.js";
import {
  heldSeat,
  heldSeats,
  holdHotSeats,
  holdSeat,
  keepInvites,
  myGameIds,
  rememberName,
  rememberedName,
  seatInHash,
} from "./seat.js";
import { holdMySeats, knownHeld, renderNav } from "./account.js";
import { duration, span } from "./clocks.js";

const state = { catalog: [], game: null, me: null };
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
  renderTimeoutChoices(bots, usual);
}

// Take-backs are on by default in a game of people only (as the server decides when not
// told); the creator's own choice, once made, stands whatever the seats become.
function suggestUndo() {
  const box = $("undo");
  if (box.dataset.chosen || $("rated").checked) return;
  const kinds = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  box.checked = kinds.every((kind) => kind === "person" || kind === "here");
}

// -- rated games and clocks ------------------------------------------------------------------
// A rated game allows no take-backs and no hints (the server refuses them): the two ticks are
// off and greyed while "Rated" is, and come back as they were when it is off again.
function applyRated() {
  const rated = $("rated").checked;
  for (const id of ["undo", "hints"]) {
    const box = $(id);
    if (rated && !box.disabled) box.dataset.before = box.checked ? "on" : "";
    if (!rated && box.disabled) box.checked = box.dataset.before === "on";
    if (rated) box.checked = false;
    box.disabled = rated;
    box.closest("label").classList.toggle("off", rated);
  }
  if (!rated) suggestUndo();
}

const PACE_HELP = {
  live: "Everyone plays now, with no clock.",
  fischer: "Everyone plays now; each has a chess clock, and gains some seconds with each move.",
  turn: "Play over days: each move may take its time, and the game waits.",
};

function pace() {
  return document.querySelector("#pace [name=pace]:checked")?.value || "live";
}

function showPace() {
  const chosen = pace();
  const devices = state.me
    ? " It follows your account to all your devices."
    : " Sign in to find it on all your devices.";
  $("pace-help").textContent = PACE_HELP[chosen] + (chosen === "turn" ? devices : "");
  $("fischer-fields").hidden = chosen !== "fischer";
  $("turn-fields").hidden = chosen !== "turn";
  $("timeout-field").hidden = chosen === "live";
}

// "When someone's time runs out": a level of this game's bots plays for them until they are
// back (the medium one unless chosen), or they lose.
function renderTimeoutChoices(bots, usual) {
  const select = $("on-timeout");
  const before = select.dataset.chosen ? select.value : null;
  select.replaceChildren(
    ...bots.map((b, i) =>
      el(
        "option",
        { value: b.spec, selected: i === usual },
        `${b.label} plays for them until they are back`,
      ),
    ),
    el("option", { value: "resign" }, "They lose the game (as if they resigned)"),
  );
  if (before && [...select.options].some((o) => o.value === before)) select.value = before;
}

// The clock sent with the game (none when Live).
function readClock() {
  const chosen = pace();
  if (chosen === "live") return null;
  const on_timeout = $("on-timeout").value;
  if (chosen === "turn")
    return {
      kind: "turn",
      per_move: Number($("per-move").value),
      reserve: Number($("reserve").value),
      on_timeout,
    };
  return {
    kind: "fischer",
    minutes: Number($("minutes").value),
    increment: Number($("increment").value),
    on_timeout,
  };
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
  const form = {
    game: state.game.name,
    params,
    seats,
    here,
    listed: $("listed").checked,
    undo: $("undo").checked,
    hints: $("hints").checked,
    you: seats[0].kind === "person",
  };
  if ($("rated").checked) form.rated = true;
  const clock = readClock();
  if (clock) form.clock = clock;
  return form;
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
    await holdMySeats([game.id]); // (signed in: the game follows the account)
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

// The seconds the seat to move has left, as the list was fetched (null: no clock runs).
function timeLeft(g) {
  const c = g.clocks;
  return c && c.deadline != null && c.now != null ? c.deadline - c.now : null;
}

// How the game is played, in a few words: "rated", "1 day a move", "10+5".
function paceWords(g) {
  const words = [];
  if (g.rated) words.push("rated");
  const clock = g.clock;
  if (clock?.kind === "turn") words.push(`${span(clock.per_move)} a move`);
  else if (clock?.kind === "fischer") words.push(`${clock.minutes}+${clock.increment}`);
  return words.join(" · ");
}

// One line of a games list: the game, its state, whose turn it is (marked when it is yours,
// with the time left when a clock runs). ``href``: where its link goes (this browser's seat
// by default; an account's seat on another device: the seat's own link).
function gameRow(g, mySeats = [], href = `/game/${g.id}`) {
  const result = g.status === "finished" ? resultWords(g) : null;
  const playing = g.status === "playing" && g.to_move !== null && g.to_move !== undefined;
  const yours = playing && mySeats.includes(g.to_move);
  const left = playing ? timeLeft(g) : null;
  const turn = playing
    ? el(
        "span",
        { class: `turn${yours ? " yours" : ""}` },
        yours ? "● your turn" : `${g.seats[g.to_move].name} to play`,
        left !== null && yours
          ? el("span", { class: "time-left" }, ` · ${duration(left)} left`)
          : "",
      )
    : null;
  const you = mySeats.filter((s) => g.seats[s]).map((s) => g.seats[s].name);
  const how = paceWords(g);
  return el(
    "li",
    { "data-game": g.id, class: yours ? "your-turn" : null },
    el("a", { href }, g.title),
    " ",
    el("span", { class: `status ${g.status}` }, g.status),
    " ",
    turn,
    " ",
    you.length ? el("span", { class: "your-seat" }, `you: ${you.join(", ")}`) : null,
    el(
      "div",
      { class: "muted recent-detail" },
      result || g.seats.map((s) => s.name).join(" · "),
      how ? ` · ${how}` : "",
    ),
  );
}

// An account's seat taken up on this device: its link's seat is kept (by the game page), and
// any other seat the account holds there too (a hot-seat game) is kept as well.
function takeAccountSeats(g) {
  const seats = (g.held || []).map((h) => seatInHash(new URL(h.url, location.origin).hash));
  const more = seats.slice(1).filter(Boolean);
  if (more.length) holdHotSeats(g.id, more);
}

// My games: those this browser holds seats in (or made), asked for by id, and, signed in,
// those the account holds on any device; yours to play first, then the newest.
async function loadMyGames() {
  const ids = myGameIds().slice(-50);
  const [local, held] = await Promise.all([
    ids.length
      ? api(`/api/games?ids=${ids.map(encodeURIComponent).join(",")}`).catch(() => [])
      : [],
    state.me ? api("/api/account/games").catch(() => []) : [],
  ]);
  if (state.me) knownHeld(state.me, held);
  const games = new Map(local.map((g) => [g.id, g]));
  for (const g of held) games.set(g.id, { ...games.get(g.id), ...g });
  const rows = [...games.values()].map((g) => {
    const here = heldSeats(g.id).map((s) => s.seat);
    const theirs = (g.held || []).map((h) => h.seat);
    const seats = [...new Set([...here, ...theirs])];
    // Held by the account but not on this device: its link takes the seat here.
    const href = !heldSeat(g.id) && g.held?.length ? g.held[0].url : `/game/${g.id}`;
    return { g, seats, href };
  });
  const mine = (r) =>
    r.g.to_move !== null && r.seats.includes(r.g.to_move) && r.g.status === "playing";
  rows.sort((a, b) => mine(b) - mine(a) || String(b.g.created).localeCompare(a.g.created));
  $("my-games").replaceChildren(
    ...rows.map((r) => {
      const row = gameRow(r.g, r.seats, r.href);
      if (r.href !== `/game/${r.g.id}`)
        row.querySelector("a").addEventListener("click", () => takeAccountSeats(r.g));
      return row;
    }),
  );
  if (!rows.length)
    $("my-games").append(
      el(
        "li",
        { class: "muted" },
        state.me
          ? "None yet: the games you create or are invited to show here, on all your devices."
          : "None yet: the games you create or are invited to show here. Sign in to see them on all your devices.",
      ),
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
  const signedIn = renderNav();
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
  $("rated").addEventListener("change", applyRated);
  for (const radio of document.querySelectorAll("#pace [name=pace]"))
    radio.addEventListener("change", showPace);
  $("on-timeout").addEventListener("change", () => {
    $("on-timeout").dataset.chosen = "yes";
  });
  // (a link may name the game: /?game=sputnik, as "Learn to play" does at its end)
  const asked = new URLSearchParams(location.search).get("game");
  const first =
    state.catalog.find((g) => g.name === asked) || state.catalog.find((g) => g.name === "four_way");
  pickGame(first?.name || state.catalog[0].name);
  showPace();
  applyRated();
  // Signed in: the games follow the account (this browser's seats told to it), and the
  // account's name is the one played under, unless another was typed before.
  state.me = await signedIn;
  if (state.me && !$("your-name").value) $("your-name").value = state.me.name;
  showPace();
  if (state.me) await holdMySeats();
  loadGames();
  setInterval(() => {
    if (!document.hidden) loadGames();
  }, 15000);
}

main();
