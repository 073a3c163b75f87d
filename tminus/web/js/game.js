// The game page: one WebSocket, the board, the moves, the log, the players, replay.
import { api, el, seatName } from "./util.js";
import { boardFor } from "./boards/index.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split("/").pop());
const app = { view: null, log: [], socket: null, replay: null, me: readSeat(), retries: 0 };

// The invite link carries seat and token in its #fragment (never sent to the server in a URL).
function readSeat() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const key = `tminus:seat:${gameId}`;
  if (hash.has("token")) {
    const me = { seat: Number(hash.get("seat")), token: hash.get("token") };
    sessionStorage.setItem(key, JSON.stringify(me));
    return me;
  }
  const saved = sessionStorage.getItem(key);
  return saved ? JSON.parse(saved) : null;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}`);
  app.socket = socket;
  socket.onopen = () => {
    app.retries = 0;
    const hello = { type: "hello" };
    if (app.me) Object.assign(hello, { seat: app.me.seat, token: app.me.token });
    socket.send(JSON.stringify(hello));
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    if (event.code >= 4400 && event.code < 4500) return; // refused: do not retry
    const delay = Math.min(8000, 500 * 2 ** app.retries++);
    $("banner").textContent = "Connection lost; reconnecting…";
    setTimeout(connect, delay);
  };
}

function send(message) {
  if (app.socket && app.socket.readyState === WebSocket.OPEN) app.socket.send(JSON.stringify(message));
}

function receive(message) {
  if (message.type === "error") return toast(message.message);
  if (message.type !== "state") return;
  app.log.length = message.log_from;
  app.log.push(...message.log);
  app.view = message;
  render();
}

function move(action) {
  const view = app.view;
  if (!view || app.replay || !view.legal.some((m) => m.action === action)) return;
  send({ type: "move", move_number: view.move_number, action });
  // Until the answer comes, no second move for the same position.
  view.legal = [];
  renderMoves();
  renderBoard();
}

let toastTimer;
function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.classList.add("shown");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove("shown"), 4000);
}

// -- rendering --------------------------------------------------------------------------
function render() {
  const view = app.view;
  document.title = `${view.title} · T-minus`;
  $("title").textContent = view.title;
  $("status").textContent = view.status;
  $("status").className = `status ${view.status}`;
  $("rules-link").href = `/rules/${view.game}`;
  renderBanner();
  renderBoard();
  renderMoves();
  renderSeats();
  renderLog();
  renderFairness();
  renderReplayControls();
}

function currentObservation() {
  if (app.replay) {
    const frame = app.replay.frames[app.replay.index];
    return app.view.seat === null ? frame.public : frame.seats[app.view.seat];
  }
  return app.view.observation;
}

function renderBoard() {
  const view = app.view;
  const board = boardFor(view.game);
  const ctx = {
    seat: view.seat, seats: view.seats, legal: app.replay ? [] : view.legal,
    toMove: app.replay ? null : view.to_move, onMove: move, replay: !!app.replay,
    ended: !app.replay && view.status === "finished", // e.g. by resignation, mid-turn
  };
  $("board").replaceChildren(board.render(currentObservation(), ctx));
  $("board").dataset.board = board.name;
}

function renderBanner() {
  const view = app.view;
  const banner = $("banner");
  banner.className = "banner";
  if (view.status === "waiting") {
    const missing = view.seats.filter((s) => s.kind === "person" && !s.joined).map((s) => s.name);
    banner.textContent = `Waiting for ${missing.join(", ")} to join…`;
  } else if (view.status === "finished") {
    banner.classList.add("over");
    banner.textContent = resultText(view);
  } else if (view.legal.length) {
    banner.classList.add("yours");
    banner.textContent = "Your turn: choose a move on the board or below.";
  } else if (view.to_move !== null) {
    banner.textContent = `${seatName(view.seats, view.to_move)} is thinking…`;
  }
}

function resultText(view) {
  const r = view.result || {};
  const names = (seats) => seats.map((s) => (s === view.seat ? "you" : seatName(view.seats, s))).join(" and ");
  if (r.reason === "resigned") return `${seatName(view.seats, r.resigned)} resigned. Winner: ${names(r.winners)}.`;
  if (r.reason === "turn cap") return "Draw: the turn cap was reached.";
  if (!r.winners || !r.winners.length) return "Game over: a draw.";
  const won = r.winners.includes(view.seat);
  return won ? `You win! ★ (${names(r.winners)})` : `Game over. Winner: ${names(r.winners)}.`;
}

function renderMoves() {
  const view = app.view;
  const box = $("moves");
  const legal = app.replay ? [] : view.legal;
  box.replaceChildren(...legal.map((m, i) => el("button", {
    type: "button", class: "move", "data-action": m.action, "data-move": m.text,
    title: i < 9 ? `key ${i + 1}` : null, onclick: () => move(m.action),
  }, i < 9 ? el("kbd", {}, String(i + 1)) : null, m.label)));
}

function renderSeats() {
  const view = app.view;
  const board = boardFor(view.game);
  const obs = currentObservation();
  const scores = board.scores ? board.scores(obs) : null;
  const returns = view.result && view.result.returns;
  $("seats").replaceChildren(...view.seats.map((s) => el("li", {
    class: ["seat", view.to_move === s.seat ? "to-move" : "", view.seat === s.seat ? "me" : ""].join(" "),
    "data-seat": s.seat,
  },
  el("span", { class: "seat-dot", "data-seat": s.seat }, String(s.seat + 1)),
  el("span", { class: "seat-name" }, s.name, view.seat === s.seat ? " (you)" : ""),
  el("span", { class: "seat-kind" }, s.kind === "bot" ? `bot · ${s.bot}` : s.joined ? "person" : "invited"),
  scores ? el("span", { class: "score" }, scores[s.seat]) : null,
  returns ? el("span", { class: "result" }, `result ${fmt(returns[s.seat])}`) : null)));
  const actions = $("seat-actions");
  if (actions.contains(document.activeElement) && document.activeElement.id === "my-name") return; // typing
  actions.replaceChildren();
  if (view.seat !== null && view.status === "waiting") {
    actions.append(el("button", { type: "button", id: "start", class: "primary", onclick: () => send({ type: "start" }) }, "Start now"));
    const invites = JSON.parse(localStorage.getItem(`tminus:invites:${gameId}`) || "[]").filter((i) => i.seat !== view.seat);
    for (const invite of invites) {
      actions.append(el("p", { class: "invite" }, `Invite for seat ${invite.seat + 1}: `,
        el("input", { readonly: true, value: new URL(invite.url, location.origin).href, onfocus: (e) => e.target.select() })));
    }
  }
  if (view.seat !== null && view.status !== "finished") {
    const input = el("input", { id: "my-name", maxlength: 40, value: view.seats[view.seat].name, "aria-label": "Your name" });
    const rename = () => { const name = input.value.trim(); if (name && name !== view.seats[view.seat].name) send({ type: "name", name }); };
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") rename(); });
    actions.append(el("div", { class: "rename" }, input, el("button", { type: "button", id: "save-name", onclick: rename }, "Set name")));
    actions.append(el("button", { type: "button", id: "resign", class: "quiet", onclick: () => {
      if (confirm("Resign this game? The others win.")) send({ type: "resign" });
    } }, "Resign"));
  }
}

function fmt(x) {
  return Number.isInteger(x) ? String(x) : x.toFixed(2);
}

function renderLog() {
  const upto = app.replay ? app.replay.index : app.log.length;
  const box = $("log");
  box.replaceChildren(...app.log.map((entry, i) => el("li", {
    class: [entry.actor === -1 ? "chance" : "", i >= upto ? "future" : "", app.replay && i === upto - 1 ? "current" : ""].join(" "),
    value: entry.index + 1,
  }, app.replay ? app.replay.frames[i + 1].text : entry.text)));
  const current = box.querySelector(".current") || box.lastElementChild;
  if (current) box.scrollTop = current.offsetTop - box.clientHeight / 2;
}

function renderFairness() {
  const view = app.view;
  const box = $("fairness");
  const parts = [
    el("p", {}, "Spectator link: ", el("a", { href: `/game/${gameId}`, id: "spectator-link" }, `${location.host}/game/${gameId}`)),
    el("p", {}, "Commitment (SHA-256 of the secret seed): ", el("code", { class: "hash" }, view.commitment)),
  ];
  if (view.seed) {
    parts.push(el("p", {}, "Seed, revealed: ", el("code", { class: "hash", id: "seed" }, view.seed)));
    parts.push(el("p", {},
      el("button", { type: "button", id: "verify", onclick: verify }, "Verify every roll"), " ",
      el("a", { href: `/api/games/${gameId}/export`, download: `tminus-${gameId}.json` }, "Export (for tminus verify)")));
    parts.push(el("p", { id: "verify-result", class: "muted" }));
  } else {
    parts.push(el("p", { class: "muted" }, "The seed is revealed when the game ends; then every roll can be checked."));
  }
  box.replaceChildren(...parts);
}

async function verify() {
  const out = $("verify-result");
  try {
    const result = await api(`/api/games/${gameId}/verify`);
    out.textContent = result.ok
      ? `✓ The seed matches the commitment, and all ${result.chance_checked} chance outcomes follow from it.`
      : `✗ ${result.problems.join("; ")}`;
    out.className = result.ok ? "ok" : "error";
  } catch (error) {
    out.textContent = error.message;
  }
}

// -- replay of a finished game ------------------------------------------------------------
function renderReplayControls() {
  const box = $("replay");
  if (app.view.status !== "finished") { box.hidden = true; return; }
  box.hidden = false;
  if (!app.replay) {
    box.replaceChildren(el("button", { type: "button", id: "replay-start", onclick: startReplay }, "▶ Replay the game step by step"));
    return;
  }
  const r = app.replay;
  const last = r.frames.length - 1;
  const go = (i) => { r.index = Math.max(0, Math.min(last, i)); render(); };
  box.replaceChildren(
    el("button", { type: "button", "aria-label": "first", onclick: () => go(0) }, "⏮"),
    el("button", { type: "button", id: "replay-back", "aria-label": "back", onclick: () => go(r.index - 1) }, "◀"),
    el("input", { type: "range", min: 0, max: last, value: r.index, "aria-label": "step", oninput: (e) => go(Number(e.target.value)) }),
    el("button", { type: "button", id: "replay-next", "aria-label": "next", onclick: () => go(r.index + 1) }, "▶"),
    el("button", { type: "button", "aria-label": "last", onclick: () => go(last) }, "⏭"),
    el("span", { id: "replay-step", class: "muted" }, `step ${r.index} of ${last}`, r.index ? ` · ${r.frames[r.index].text}` : ""),
    el("button", { type: "button", class: "quiet", onclick: () => { app.replay = null; render(); } }, "Leave replay"),
  );
}

async function startReplay() {
  try {
    const data = await api(`/api/games/${gameId}/replay`);
    app.replay = { frames: data.frames, index: 0 };
    render();
  } catch (error) {
    toast(error.message);
  }
}

document.addEventListener("keydown", (event) => {
  if (event.target.matches("input, select, textarea")) return;
  if (app.replay && event.key === "ArrowRight") return $("replay-next")?.click();
  if (app.replay && event.key === "ArrowLeft") return $("replay-back")?.click();
  const n = Number(event.key);
  if (n >= 1 && n <= 9 && app.view && app.view.legal[n - 1]) move(app.view.legal[n - 1].action);
});

connect();
