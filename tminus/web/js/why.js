// "Why can't I…?" (issue 38): a seated player names a move, legal or not, and is told the
// rule that forbids it. The names come from GET /api/games/{id}/moves (every move the
// position can name); the question goes over the game's socket ({type: "why", action}) and
// the server answers this page alone. The box is built once and kept across redraws (what
// is typed, whether it is open and the answer stay); ``updateWhy`` shows it or hides it.
import { api, el } from "./util.js";

const why = {
  box: null,
  input: null,
  list: null,
  said: null,
  gameId: null,
  send: null,
  view: null,
  seat: null, // the seat to name in the question (hot-seat), or null
  fetchedFor: null, // the move number the list of names is for
  fetching: null,
  moves: [], // [{action, label}]
  asked: null, // {action, move_number} not answered yet
};

// The box, once: a disclosure with a text field, its list of names, "Ask" and the answer.
export function whyBox(gameId, send) {
  why.gameId = gameId;
  why.send = send;
  why.input = el("input", {
    id: "why-move",
    type: "text",
    list: "why-moves",
    autocomplete: "off",
    spellcheck: "false",
    placeholder: "Type or pick a move",
  });
  why.list = el("datalist", { id: "why-moves" });
  why.said = el("p", { id: "why-said", class: "why-said", role: "status", "aria-live": "polite" });
  const form = el(
    "form",
    { class: "why-form", onsubmit: ask },
    el("label", { for: "why-move" }, "Which move?"),
    el("span", { class: "why-ask" }, why.input, el("button", { type: "submit" }, "Ask")),
    why.list,
  );
  why.box = el(
    "details",
    { id: "why", class: "why", hidden: true, ontoggle: () => why.box.open && refresh() },
    el("summary", {}, "Why can't I…?"),
    form,
    why.said,
  );
  return why.box;
}

// Shown to a seated player of a game not over (not spectators, not a replay); the names
// are fetched again when the position has moved on, and an answer about an older position
// is taken away.
export function updateWhy(view, { replay, seat }) {
  if (!why.box) return;
  why.view = view;
  why.seat = seat;
  const shown = view.seat !== null && !replay && ["waiting", "playing"].includes(view.status);
  why.box.hidden = !shown;
  if (!shown) return;
  if (why.fetchedFor !== null && why.fetchedFor !== view.move_number) {
    if (why.asked === null) why.said.textContent = "";
    if (why.box.open) refresh();
  }
}

// A "why" the server answered: the rule, or that the move is possible now.
export function toldWhy(message) {
  if (!why.box || (why.view && message.seat !== why.view.seat)) return;
  why.asked = null;
  const reason = message.reason || "That move is possible: play it.";
  why.said.textContent = `${message.label}: ${reason}`;
}

// A question the server refused (offline, a bad seat): the answer says so.
export function whyRefused(text) {
  if (!why.box || why.asked === null) return false;
  why.asked = null;
  why.said.textContent = text;
  return true;
}

async function refresh() {
  const number = why.view ? why.view.move_number : null;
  if (why.fetching === number) return;
  why.fetching = number;
  try {
    const found = await api(`/api/games/${encodeURIComponent(why.gameId)}/moves`);
    why.moves = found.moves;
    why.fetchedFor = found.move_number;
    why.list.replaceChildren(...found.moves.map((m) => el("option", { value: m.label })));
  } catch {
    // (the list is only help: a name typed is still looked up in the last one fetched)
  } finally {
    why.fetching = null;
  }
}

function ask(event) {
  event.preventDefault();
  const typed = why.input.value.trim().toLowerCase();
  if (!typed) {
    why.said.textContent = "Type or pick a move first.";
    return;
  }
  const found =
    why.moves.find((m) => m.label.toLowerCase() === typed) ||
    why.moves.find((m) => m.label.toLowerCase().startsWith(typed));
  if (!found) {
    why.said.textContent = `No move here is called “${why.input.value.trim()}”: pick one from the list.`;
    return;
  }
  const message = { type: "why", action: found.action };
  if (why.seat !== null) message.seat = why.seat;
  if (!why.send(message)) {
    why.said.textContent = "Offline: the question was not sent.";
    return;
  }
  why.asked = { action: found.action };
  why.said.textContent = `Asking about ${found.label}…`;
}
