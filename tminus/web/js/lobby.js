// The lobby: pick a game, its rules and seats (persons or bots), create it, share invites.
import { api, el, titleCase } from "./util.js";

const state = { catalog: [], game: null };
const $ = (id) => document.getElementById(id);

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
  box.replaceChildren(el("legend", {}, "Rules ", el("a", { href: `/rules/${state.game.name}`, target: "_blank" }, "(read them)")));
  for (const [name, p] of Object.entries(state.game.params)) {
    let input;
    if (p.choices) {
      input = el("select", { name, "data-kind": typeof p.default, onchange: name === "players" ? renderSeats : null },
        ...p.choices.map((c) => el("option", { value: c, selected: c === p.default }, String(c))));
    } else if (typeof p.default === "string") { // e.g. Count Down's board: "default" or a file
      input = el("input", { name, type: "text", value: p.default, "data-kind": "string" });
    } else {
      input = el("input", { name, type: "number", value: p.default, min: p.minimum, max: p.maximum, "data-kind": "number" });
    }
    box.append(el("label", { title: p.help }, el("span", {}, titleCase(name)), input));
  }
}

function renderSeats() {
  const box = $("seats");
  const n = players(state.game);
  box.replaceChildren(el("legend", {}, "Seats"));
  for (let seat = 0; seat < n; seat++) {
    const kind = el("select", { name: `kind-${seat}`, "aria-label": `Seat ${seat + 1}` },
      el("option", { value: "person", selected: seat === 0 }, seat === 0 ? "You" : "A friend (invite)"),
      ...state.game.bots.map((b, i) => el("option", { value: `bot:${b.spec}`, selected: seat > 0 && i === Math.min(1, state.game.bots.length - 1) }, `Bot: ${b.label}`)));
    box.append(el("label", { class: "seat-row" }, el("span", { class: "seat-dot", "data-seat": seat }, String(seat + 1)), kind));
  }
}

function readForm() {
  const params = {};
  for (const input of document.querySelectorAll("#params select, #params input")) {
    const raw = input.value;
    params[input.name] = input.dataset.kind === "number" ? Number(raw) : input.dataset.kind === "boolean" ? raw === "true" : raw;
  }
  const seats = [];
  const name = $("your-name").value.trim();
  for (let seat = 0; seat < players(state.game); seat++) {
    const value = document.querySelector(`[name=kind-${seat}]`).value;
    if (value === "person") seats.push({ kind: "person", name: seat === 0 && name ? name : null });
    else seats.push({ kind: "bot", bot: value.slice(4) });
  }
  return { game: state.game.name, params, seats };
}

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  try {
    const game = await api("/api/games", { method: "POST", body: readForm() });
    localStorage.setItem(`tminus:invites:${game.id}`, JSON.stringify(game.invites));
    showCreated(game);
    loadRecent();
  } catch (error) {
    $("create-error").textContent = error.message;
  }
}

function showCreated(game) {
  const box = $("created");
  box.hidden = false;
  const mine = game.invites[0];
  const rows = game.invites.slice(1).map((invite) => {
    const url = new URL(invite.url, location.origin).href;
    return el("li", {}, `Seat ${invite.seat + 1}: `,
      el("input", { readonly: true, value: url, class: "invite-link", "data-seat": invite.seat, onfocus: (e) => e.target.select() }),
      el("button", { type: "button", onclick: () => navigator.clipboard?.writeText(url) }, "Copy"));
  });
  box.replaceChildren(
    el("h2", {}, `${game.title} is ready`),
    el("p", { class: "fair" }, "Fair dice: the server committed to its secret seed ", el("code", {}, game.commitment.slice(0, 16) + "…"), ". It is revealed at the end, so anyone can check every roll."),
    rows.length ? el("div", {}, el("p", {}, "Send each friend their own invite link:"), el("ul", { class: "invites" }, rows)) : null,
    el("p", {}, "Spectators: ", el("a", { href: game.spectate, id: "spectate-link" }, new URL(game.spectate, location.origin).href)),
    mine ? el("a", { class: "primary button", id: "take-seat", href: mine.url }, "Take your seat →")
         : el("a", { class: "primary button", id: "watch", href: game.spectate }, "Watch the bots →"),
  );
  box.scrollIntoView({ behavior: "smooth" });
}

async function loadRecent() {
  const games = await api("/api/games?limit=15").catch(() => []);
  $("recent").replaceChildren(...games.map((g) => el("li", {},
    el("a", { href: `/game/${g.id}` }, g.title), " ",
    el("span", { class: `status ${g.status}` }, g.status), " ",
    el("span", { class: "muted" }, g.seats.map((s) => s.name).join(" · ")))));
  if (!games.length) $("recent").append(el("li", { class: "muted" }, "No games yet: start one!"));
}

async function main() {
  state.catalog = await api("/api/catalog");
  $("games").replaceChildren(...state.catalog.map((g) => el("button", {
    type: "button", class: "game-card", role: "radio", "data-game": g.name, onclick: () => pickGame(g.name),
  }, el("strong", {}, g.title), el("small", {}, g.information === "imperfect" ? "hidden cards" : "open information"))));
  $("create").addEventListener("submit", create);
  pickGame(state.catalog.find((g) => g.name === "four_way")?.name || state.catalog[0].name);
  loadRecent();
}

main();
