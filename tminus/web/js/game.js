// The game page: one WebSocket, the board, the moves, the log, the players, replay.
import { api, el, fitWords, initial, placings, seatName, short } from "./util.js";
import { boardFor, catalog } from "./boards/index.js";
import { icon } from "./icons.js";
import { renderLog, setThoughts, thoughtsOn } from "./log.js";
import { mergeLines, renderChat } from "./chat.js";
import { takeBackParts, takenBackLines } from "./undo.js";
import { hintParts, markHint } from "./hint.js";
import { toldWhy, updateWhy, whyBox, whyRefused } from "./why.js";
import {
  YOUR_TURN_TITLE,
  askToNotify,
  canNotify,
  setSound,
  soundOn,
  yourTurnBegins,
} from "./alerts.js";
import {
  heldSeat,
  heldSeats,
  holdHotSeats,
  holdSeat,
  invitesOf,
  releaseSeat,
  rememberName,
  seatInHash,
} from "./seat.js";
import { account, holdMySeats, renderNav } from "./account.js";
import { clockWords, duration, isLow, secondsLeft, timeoutWords } from "./clocks.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split("/").pop());
const NARROW = 640; // below this board width, boards draw their phone layout
const DESKTOP = window.matchMedia("(min-width: 901px)"); // the side panels beside the board
const PING_EVERY = 15000,
  PONG_WITHIN = 20000; // a busy server may be slow to answer

const app = {
  view: null,
  log: [],
  socket: null,
  replay: null,
  hint: null, // the last hint this page was told, and the move number one was asked for
  hintAsked: null,
  me: takeSeatFromLink() || heldSeat(gameId),
  retries: 0,
  retryTimer: null,
  offline: false,
  pending: null,
  refusal: null,
  before: null, // the observation drawn before this one: the board marks what changed
  earlier: [], // the observations before each of the last moves, newest first
  bots: catalog ? botLevelsOf(catalog) : {}, // bot spec -> its level in words ("Search (hard)")
  opened: new Set(), // folded log runs the reader opened
  chat: [], // the table talk's lines
  myTurn: false,
  passTo: null, // hot-seat: the seat the device is to be passed to (its screen hides the rest)
  // Games with hidden information; without the catalog, every hot-seat game passes the device.
  secretGames: catalog ? secretGamesOf(catalog) : null,
  rematchAsked: false,
  rematchDeclined: false, // whether the last view was this page's turn (alerts when it becomes so)
  pingTimer: null,
  pongTimer: null,
  clocksAt: 0, // performance.now() when the clocks of the view arrived
  named: false, // a signed-in person's seat was given the account's name (once)
};

function botLevelsOf(games) {
  return Object.fromEntries(games.flatMap((g) => g.bots.map((bot) => [bot.spec, bot.label])));
}

function secretGamesOf(games) {
  return new Set(games.filter((g) => g.information !== "perfect").map((g) => g.game || g.name));
}

// An invite link's seat and token are kept (localStorage: every tab of this browser gets the
// seat back) and taken out of the address bar, so that a copied address never gives it away.
function takeSeatFromLink() {
  const seat = seatInHash(location.hash);
  if (!seat) return null;
  holdSeat(gameId, seat);
  history.replaceState(null, "", location.pathname + location.search);
  return seat;
}

// Another seat's invite pasted into this tab: that seat, on a new socket, without a reload.
window.addEventListener("hashchange", () => {
  const seat = takeSeatFromLink();
  if (!seat) return;
  app.me = seat;
  holdMySeats([gameId]);
  restart();
});

// -- the connection -----------------------------------------------------------------------
function connect() {
  clearTimeout(app.retryTimer);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(
    `${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}`,
  );
  app.socket = socket;
  socket.onopen = () => {
    const hello = { type: "hello" };
    if (app.me) {
      Object.assign(hello, { seat: app.me.seat, token: app.me.token });
      // Hot-seat: the other seats this device plays join too (one socket, one view at a time).
      const more = heldSeats(gameId).filter((s) => s.seat !== app.me.seat);
      if (more.length) hello.seats = more;
    }
    socket.send(JSON.stringify(hello));
    heartbeat(socket);
  };
  socket.onmessage = (event) => {
    if (socket === app.socket) receive(JSON.parse(event.data));
  };
  socket.onclose = (event) => {
    if (socket === app.socket) closed(event.code);
  };
}

function closed(code) {
  stopHeartbeat();
  app.socket = null;
  if (code === 4404) return showProblem("not_found");
  if (code === 4403) return showProblem("bad_invite");
  if (code >= 4400 && code < 4500) return showProblem("refused");
  goOffline();
}

// The socket is gone (or found dead): say so, pause the moves, try again with backoff.
function goOffline() {
  app.offline = true;
  if (app.view) render();
  else $("banner").textContent = "Connecting…";
  document.body.classList.add("offline");
  const delay = Math.min(8000, 500 * 2 ** app.retries++);
  clearTimeout(app.retryTimer);
  app.retryTimer = setTimeout(connect, delay);
}

function drop() {
  const socket = app.socket;
  app.socket = null;
  stopHeartbeat();
  if (socket) {
    socket.onclose = null;
    socket.onmessage = null;
    socket.close();
  }
}

// A connection that silently died (a phone losing its network) is noticed by a ping
// nobody answers.
function heartbeat(socket) {
  stopHeartbeat();
  app.pingTimer = setInterval(() => {
    if (socket !== app.socket || socket.readyState !== WebSocket.OPEN || app.pongTimer) return;
    socket.send(JSON.stringify({ type: "ping" }));
    app.pongTimer = setTimeout(() => {
      if (socket === app.socket) {
        drop();
        goOffline();
      }
    }, PONG_WITHIN);
  }, PING_EVERY);
}

function stopHeartbeat() {
  clearInterval(app.pingTimer);
  clearTimeout(app.pongTimer);
  app.pongTimer = null;
}

window.addEventListener("offline", () => {
  if (app.socket) {
    drop();
    goOffline();
  }
});
window.addEventListener("online", () => {
  if (!app.socket && !app.refusal) {
    app.retries = 0;
    connect();
  }
});

// A new hello (another seat, or a spectator): a fresh socket and a fresh page.
function restart() {
  drop();
  Object.assign(app, {
    view: null,
    log: [],
    chat: [],
    replay: null,
    hint: null,
    hintAsked: null,
    pending: null,
    refusal: null,
    before: null,
    earlier: [],
    offline: false,
    retries: 0,
  });
  document.body.classList.remove("offline");
  hideProblem();
  connect();
}

function send(message) {
  if (!app.socket || app.socket.readyState !== WebSocket.OPEN) return false;
  app.socket.send(JSON.stringify(message));
  return true;
}

function receive(message) {
  if (message.type === "pong") {
    clearTimeout(app.pongTimer);
    app.pongTimer = null;
    return;
  }
  if (message.type === "error") {
    app.hintAsked = null; // (a hint refused: it may be asked again)
    whyRefused(message.message); // (a "why" refused: its answer says so)
    return refused(message);
  }
  if (message.type === "hint") {
    app.hint = message;
    app.hintAsked = null;
    if (app.view) render();
    return;
  }
  if (message.type === "why") return toldWhy(message);
  if (message.type === "chat") {
    app.chat = mergeLines(app.chat, message.messages);
    if (app.view) drawChat();
    return;
  }
  if (message.type !== "state") return;
  const reconnected = app.offline;
  app.offline = false;
  app.retries = 0;
  document.body.classList.remove("offline");
  hideProblem();
  // The board marks what the last move changed: a message that brings no player's move (a
  // roll of the dice, a card dealt, a chat line, a new name) keeps the mark of the move before.
  const moved = message.log.some((line) => line.index >= app.log.length && line.actor >= 0);
  if (app.view && app.view.seat === message.seat && !app.replay && moved) {
    app.before = app.view.observation;
    app.earlier = [app.before, ...app.earlier.slice(0, EARLIER - 1)];
  }
  app.log.length = message.log_from;
  app.log.push(...message.log);
  app.view = message;
  app.clocksAt = performance.now();
  settlePending(reconnected);
  nameMySeat();
  passTheDevice();
  render();
}

// -- hot-seat: several people at one device -------------------------------------------------
function hotSeats() {
  return app.me ? heldSeats(gameId).map((s) => s.seat) : [];
}

// When another seat of this device is to move: in a game with hidden cards a screen asks to
// pass the device (the board, hand and log are taken off the page); otherwise it switches.
function passTheDevice() {
  const view = app.view;
  const seats = hotSeats();
  const next = view.status === "playing" ? view.to_move : null;
  if (seats.length < 2 || next === null || next === view.seat || !seats.includes(next)) {
    app.passTo = null;
    return;
  }
  if (!app.secretGames || app.secretGames.has(view.game)) app.passTo = next;
  else send({ type: "switch", seat: next });
}

function renderPass() {
  const name = seatName(app.view.seats, app.passTo);
  for (const id of ["board", "moves", "log"]) $(id).replaceChildren();
  $("table").hidden = true;
  const box = $("pass");
  box.hidden = false;
  // Who just moved may still take it back here (the move itself is not shown: the next
  // person may be looking).
  const takeBack = takeBackParts(app.view, {
    held: hotSeats(),
    send,
    offline: app.offline,
    hideMove: true,
  });
  box.replaceChildren(
    el(
      "section",
      { class: "panel pass-panel" },
      el("h2", {}, `Pass the device to ${name}`),
      el("p", {}, `${name}'s cards are hidden until ${name} has the device.`),
      el(
        "button",
        {
          type: "button",
          class: "primary",
          id: "take-device",
          onclick: () => send({ type: "switch", seat: app.passTo }),
        },
        `I am ${name}: show my cards`,
      ),
      takeBack.length
        ? el("div", { class: "take-back", role: "group", "aria-label": "Take back" }, ...takeBack)
        : null,
    ),
  );
}

// A move sent or queued and not yet answered: once the game has moved past it, it was
// played; after a reconnection it is sent again if the position is still the one it was
// made for, and the player is told if it was not.
function settlePending(reconnected) {
  const pending = app.pending;
  if (!pending) return;
  const view = app.view;
  if (view.move_number > pending.move_number) {
    app.pending = null;
    if (!pending.sent)
      notice(`The game moved on while you were offline: “${pending.label}” was not played.`);
    return;
  }
  if (!reconnected && pending.sent) return; // the answer is on its way
  if (view.legal.some((m) => m.action === pending.action) && send(moveMessage(pending))) {
    pending.sent = true;
    view.legal = [];
    notice(`Back online: your move “${pending.label}” was sent.`);
  } else if (!view.legal.length && view.status !== "playing") {
    app.pending = null;
    notice(`The game is ${view.status}: “${pending.label}” was not played.`);
  }
}

function moveMessage(pending) {
  return { type: "move", move_number: pending.move_number, action: pending.action };
}

function move(action) {
  const view = app.view;
  if (!view || app.replay || app.offline || app.pending) return;
  const chosen = view.legal.find((m) => m.action === action);
  if (!chosen) return;
  app.pending = {
    move_number: view.move_number,
    action,
    label: chosen.label || chosen.text,
    sent: false,
  };
  app.pending.sent = send(moveMessage(app.pending));
  // Until the answer comes, no second move for the same position.
  view.legal = [];
  if (!app.pending.sent) {
    notice(`Not connected: “${app.pending.label}” will be sent when the connection is back.`);
    drop();
    goOffline();
    return;
  }
  render();
}

// An error from the server, in words that name people (the server's own words otherwise).
function refused(message) {
  const view = app.view;
  if (["stale", "not_your_turn", "illegal", "bad_state"].includes(message.code)) app.pending = null;
  if (!view) {
    app.refusal = message;
    return;
  }
  const words = {
    stale:
      view.status === "playing"
        ? "The game moved on before your move arrived: choose again."
        : `The game was ${view.status} before your move arrived.`,
    rate_limited: "Slow down: that message was not sent.",
    not_your_turn:
      view.to_move === null
        ? "It is nobody's turn now."
        : `It is ${seatName(view.seats, view.to_move)}'s turn, not yours.`,
    illegal: "That move is not allowed now: choose again.",
    forbidden:
      view.seat === null
        ? "You are watching: spectators do not play."
        : "This seat's link is not valid any more.",
  };
  notice(words[message.code] || message.message);
  if (message.code === "stale" || message.code === "illegal") render();
}

let noticeTimer;
function notice(text) {
  const box = $("toast");
  box.textContent = text;
  box.classList.add("shown");
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => box.classList.remove("shown"), 7000);
}

// -- a page instead of the table: a game that does not exist, an invite that is not valid --
const PROBLEMS = {
  not_found: () => [
    "Game not found",
    `There is no game “${gameId}” here. The link may be mistyped, or the game was made on another server.`,
  ],
  bad_invite: () => [
    "This invite link is not valid",
    "Its seat or secret does not match this game: ask for the link again, or watch the game as a spectator.",
  ],
  refused: () => [
    "The game refused this page",
    app.refusal ? app.refusal.message : "The server closed the connection.",
  ],
};

function showProblem(kind) {
  clearTimeout(app.retryTimer);
  const [title, words] = PROBLEMS[kind]();
  if (kind === "bad_invite") releaseSeat(gameId);
  document.title = `${title} · T-minus`;
  $("title").textContent = title;
  $("status").textContent = "";
  $("status").className = "status";
  $("table").hidden = true;
  const actions = [el("a", { class: "button", href: "/", id: "to-lobby" }, "Go to the lobby")];
  if (kind === "bad_invite") {
    actions.unshift(
      el(
        "button",
        {
          type: "button",
          class: "primary",
          id: "watch",
          onclick: () => {
            app.me = null;
            restart();
          },
        },
        "Watch as a spectator",
      ),
    );
  }
  const box = $("problem");
  box.hidden = false;
  box.replaceChildren(
    el(
      "section",
      { class: "panel problem-panel", "data-problem": kind },
      el("h2", {}, title),
      el("p", {}, words),
      el("p", { class: "problem-actions" }, ...actions),
    ),
  );
}

function hideProblem() {
  $("problem").hidden = true;
  $("table").hidden = false;
}

// -- rendering --------------------------------------------------------------------------
function isMyTurn() {
  const view = app.view;
  return (
    !app.replay && view.status === "playing" && view.to_move !== null && view.to_move === view.seat
  );
}

function render() {
  const view = app.view;
  renderTopBar(view);
  if (app.passTo !== null) return renderPass();
  $("pass").hidden = true;
  $("pass").replaceChildren();
  const myTurn = isMyTurn();
  if (myTurn && !app.myTurn) yourTurnBegins(view.title);
  app.myTurn = myTurn;
  document.title = myTurn ? YOUR_TURN_TITLE : `${view.title} · T-minus`;
  renderBanner();
  renderClocks();
  renderTakeBack();
  renderHint(myTurn);
  renderBoard();
  renderMoves();
  updateWhy(view, { replay: !!app.replay, seat: hotSeats().length > 1 ? view.seat : null });
  markHint(view, app.replay ? null : app.hint);
  renderSeats();
  renderThoughtsSwitch();
  renderLog($("log"), app.log, {
    opened: app.opened,
    upto: app.replay ? app.replay.index : app.log.length,
    replaying: !!app.replay,
    textOf: (entry) => (app.replay ? app.replay.frames[entry.position + 1].text : entry.text),
    thoughts: thoughtsOn(),
  });
  markTakenBack();
  fitLog();
  scrollLog();
  drawChat();
  renderFairness();
  renderRematch();
  renderAlerts();
  renderReplayControls();
}

// The game's name, its status and its rules: above the table and the pass screen alike.
function renderTopBar(view) {
  $("title").textContent = view.title;
  $("status").textContent = app.offline ? "offline" : view.status;
  $("status").className = `status ${app.offline ? "offline" : view.status}`;
  $("rules-link").href = `/rules/${view.game}`;
  $("rated-badge").hidden = !view.rated;
}

// -- a signed-in person --------------------------------------------------------------------
// The seat of a person signed in still has the name it was invited under ("Player 2"): it
// takes the account's name, once (a name the person or the game's maker chose stays).
async function nameMySeat() {
  const view = app.view;
  if (app.named || view.seat === null || !isOpen(view) || hotSeats().length > 1) return;
  app.named = true;
  const me = await account();
  const seat = app.view.seats[app.view.seat];
  if (me && seat && /^Player \d+$/.test(seat.name) && me.name !== seat.name)
    send({ type: "name", name: me.name });
}

// -- clocks --------------------------------------------------------------------------------
// Each seat's time (a clock runs for the seat to move, counted down here each second), the
// clock's settings and what happens when a seat's time runs out.
function renderClocks() {
  const view = app.view;
  const box = $("clocks");
  box.hidden = $("clock-words").hidden = !view.clocks || !view.clock;
  if (box.hidden) return box.replaceChildren();
  $("clock-words").textContent = `${clockWords(view.clock)}. ${timeoutWords(view.clock, botLevel)}`;
  const running = runningSeat(view);
  const chips = view.seats.map((s) =>
    el(
      "div",
      {
        class: [
          "clock",
          s.seat === running ? "running" : "",
          s.seat === view.seat ? "me" : "",
          s.stand_in ? "stood-in" : "",
        ].join(" "),
        "data-seat": s.seat,
      },
      el(
        "span",
        { class: "seat-dot", "data-seat": s.seat, "aria-hidden": "true" },
        initial(s.name),
      ),
      el(
        "span",
        { class: "clock-name", title: s.name },
        short(s.name, 16),
        s.seat === view.seat ? " (you)" : "",
        s.stand_in
          ? el("span", { class: "muted", title: `${s.stand_in} plays for them` }, " · away")
          : "",
      ),
      el("span", { class: "clock-time", role: "timer" }),
    ),
  );
  box.replaceChildren(...chips);
  tickClocks();
}

function runningSeat(view) {
  const seat = view.clocks?.to_move;
  return view.status === "playing" && !app.replay && seat !== undefined ? seat : null;
}

// The times shown, counted down from what the server said (no redraw of anything else).
function tickClocks() {
  const view = app.view;
  if (!view || !view.clocks || !view.clock) return;
  const left = secondsLeft(view.clocks, app.clocksAt);
  const running = runningSeat(view);
  const turnBased = view.clock.kind === "turn";
  for (const chip of $("clocks").querySelectorAll(".clock[data-seat]")) {
    const seat = Number(chip.dataset.seat);
    const seconds = left[seat];
    const time = chip.querySelector(".clock-time");
    if (seconds === undefined || seconds === null) {
      time.textContent = "";
      continue;
    }
    const moving = seat === running && view.clocks.deadline != null;
    let text = duration(seconds);
    // Turn-based: the others' time is their reserve, for moves that take longer (none
    // shown in a game without reserves: each move has its time, no more).
    if (turnBased && !moving)
      text = !view.clock.reserve ? "" : seconds > 0 ? `${text} reserve` : "reserve used up";
    time.textContent = text;
    chip.classList.toggle("low", moving && isLow(view.clock, seconds));
    chip.classList.toggle("out", moving && seconds <= 0);
  }
}

setInterval(() => {
  if (!document.hidden && runningSeat(app.view || {}) !== null) tickClocks();
}, 1000);

function drawChat() {
  renderChat($("chat-box"), {
    lines: app.chat,
    seats: app.view.seats,
    seat: app.view.status === "expired" ? null : app.view.seat, // (nothing happens there)
    send: (text) => send({ type: "chat", text }),
    onMute: drawChat,
  });
}

// -- undo ----------------------------------------------------------------------------------
// "Take back my move" for who may ask, the question to the others (spectators read it).
function renderTakeBack() {
  const view = app.view;
  const held = view.seat === null ? [] : [...new Set([view.seat, ...hotSeats()])];
  const parts = app.replay ? [] : takeBackParts(view, { held, send, offline: app.offline });
  const box = $("take-back-box");
  box.hidden = !parts.length;
  box.replaceChildren(...parts);
}

// -- hints ---------------------------------------------------------------------------------
function renderHint(myTurn) {
  const ask = (message) => {
    if (!send(message)) return false;
    app.hintAsked = message.move_number;
    render();
    return true;
  };
  const parts = hintParts(app.view, {
    hint: app.hint,
    asked: app.hintAsked,
    myTurn,
    send: ask,
    offline: app.offline,
  });
  const box = $("hint-box");
  box.hidden = !parts.length;
  box.replaceChildren(...parts);
}

// A move taken back stays in the log, struck through; the take-back's own line follows.
function markTakenBack() {
  const undone = takenBackLines(app.log);
  for (const line of $("log").querySelectorAll("li[data-index]")) {
    line.classList.toggle("taken-back", undone.has(Number(line.dataset.index)));
  }
}

// -- play again ----------------------------------------------------------------------------
// "Play again" makes the rematch (or accepts it if made); the others are offered it, and
// each person's page moves to the new game once they accept, in the seats it holds there.
function renderRematch() {
  const view = app.view;
  const box = $("rematch");
  box.hidden = view.status !== "finished" || app.replay !== null || app.rematchDeclined;
  if (box.hidden) return;
  const next = view.rematch;
  if (next && app.rematchAsked) return moveToRematch(next);
  if (view.seat === null) {
    box.replaceChildren(
      next
        ? el(
            "a",
            { class: "button", id: "watch-rematch", href: `/game/${next.id}` },
            "Watch the rematch →",
          )
        : "",
    );
    box.hidden = !next;
    return;
  }
  if (!next) {
    box.replaceChildren(
      el(
        "button",
        {
          type: "button",
          id: "play-again",
          class: "primary",
          disabled: app.offline,
          onclick: () => {
            if (send({ type: "rematch" })) {
              app.rematchAsked = true;
              notice("Making the rematch…");
            }
          },
        },
        "Play again",
      ),
    );
    return;
  }
  box.replaceChildren(
    el("p", {}, "A rematch is ready: same players and rules, the next player starts."),
    el(
      "button",
      {
        type: "button",
        id: "accept-rematch",
        class: "primary",
        onclick: () => moveToRematch(next),
      },
      "Accept",
    ),
    el(
      "button",
      {
        type: "button",
        id: "decline-rematch",
        class: "quiet",
        onclick: () => {
          app.rematchDeclined = true;
          renderRematch();
        },
      },
      "Decline",
    ),
  );
}

function moveToRematch(next) {
  const seats = heldSeats(gameId).map((s) => ({ seat: next.seats[s.seat], token: s.token }));
  if (!seats.length) return;
  holdSeat(next.id, seats[0]);
  if (seats.length > 1) holdHotSeats(next.id, seats.slice(1));
  location.assign(`/game/${encodeURIComponent(next.id)}`);
}

// "Show what the bots think", once a bot has said what it thinks (remembered).
function renderThoughtsSwitch() {
  const field = $("thoughts-field");
  field.hidden = !app.log.some((entry) => entry.estimate != null);
  $("thoughts").checked = thoughtsOn();
}

function switchThoughts(e) {
  setThoughts(e.target.checked);
  render();
}

// The alert switches, for players: the sound (remembered) and the browser's notifications.
function renderAlerts() {
  const seated = app.view.seat !== null && isOpen(app.view);
  $("alerts-panel").hidden = !seated;
  if (!seated || $("alerts").childElementCount) return;
  const sound = el("input", {
    type: "checkbox",
    id: "sound",
    checked: soundOn(),
    onchange: (e) => setSound(e.target.checked),
  });
  const parts = [el("label", { class: "check-field" }, sound, "Sound when it is your turn")];
  if (canNotify() && Notification.permission === "default") {
    parts.push(
      el(
        "button",
        {
          type: "button",
          id: "notify",
          class: "quiet",
          onclick: async (e) => {
            const answer = await askToNotify();
            e.target.replaceWith(
              el(
                "p",
                { class: "muted" },
                answer === "granted"
                  ? "You will be notified when the page is hidden."
                  : "Notifications are off.",
              ),
            );
          },
        },
        "Notify me when it is my turn",
      ),
    );
  }
  $("alerts").replaceChildren(...parts);
}

function currentObservation() {
  if (app.replay) {
    const frame = app.replay.frames[app.replay.index];
    return app.view.seat === null ? frame.public : frame.seats[app.view.seat];
  }
  return app.view.observation;
}

// The observations before each of the last moves, newest first: a board whose last move
// changed nothing it shows (a pass, a card not bought) marks the last that did.
const EARLIER = 12;
function earlierObservations() {
  if (!app.replay) return app.earlier;
  const frames = app.replay.frames.slice(Math.max(0, app.replay.index - EARLIER), app.replay.index);
  return frames.reverse().map((f) => (app.view.seat === null ? f.public : f.seats[app.view.seat]));
}

function previousObservation() {
  if (!app.replay) return app.before;
  const frame = app.replay.frames[app.replay.index - 1];
  if (!frame) return null;
  return app.view.seat === null ? frame.public : frame.seats[app.view.seat];
}

function playable() {
  return !app.replay && !app.offline && !app.pending;
}

function renderBoard() {
  const view = app.view;
  const board = boardFor(view.game);
  const box = $("board");
  const ctx = {
    seat: view.seat,
    seats: view.seats,
    legal: playable() ? view.legal : [],
    toMove: app.replay ? null : view.to_move,
    onMove: move,
    replay: !!app.replay,
    ended: !app.replay && view.status === "finished", // e.g. by resignation, mid-turn
    before: previousObservation(),
    earlier: earlierObservations(),
    narrow: layoutOf(box) === "narrow",
  };
  box.replaceChildren(board.render(currentObservation(), ctx));
  box.dataset.board = board.name;
  box.dataset.layout = lastLayout = layoutOf(box);
}

// Whatever a board draws, now or later (Count Down's waits for its printed board, and zooms),
// its words are fitted to their boxes once drawn.
let fitting = 0;
new MutationObserver(() => {
  cancelAnimationFrame(fitting);
  fitting = requestAnimationFrame(() => fitWords($("board")));
}).observe($("board"), { childList: true, subtree: true });

function layoutOf(box) {
  return box.clientWidth > 0 && box.clientWidth < NARROW ? "narrow" : "wide";
}

// A phone turned, a window resized: the board redraws when it has crossed the phone width
// (looked at once the resizing has settled, so a passing size redraws nothing).
let lastLayout = null,
  resizeTimer = null;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => {
    if (app.view && !$("table").hidden && layoutOf($("board")) !== lastLayout) renderBoard();
    // (Scrolled back only where the box changed size: a phone's keyboard or address bar
    // coming and going resizes the window too, under someone reading older moves.)
    if (fitLog() && DESKTOP.matches) scrollLog();
  }, 200);
});

function renderBanner() {
  const view = app.view;
  const banner = $("banner");
  banner.className = "banner";
  if (app.offline) {
    banner.classList.add("offline");
    const queued =
      app.pending && !app.pending.sent
        ? ` Your move “${app.pending.label}” will be sent when it is back.`
        : "";
    banner.textContent = `Connection lost: reconnecting… Moves are paused.${queued}`;
  } else if (view.status === "waiting") {
    const missing = view.seats.filter((s) => s.kind === "person" && !s.joined).map((s) => s.name);
    banner.textContent = `Waiting for ${missing.join(", ")} to join…`;
  } else if (view.status === "expired") {
    banner.classList.add("over");
    banner.textContent =
      "This game expired: it waited too long for its players. Make a new one in the lobby.";
  } else if (view.status === "finished") {
    banner.classList.add("over");
    banner.textContent = resultText(view);
  } else if (view.paused) {
    banner.classList.add("paused");
    banner.textContent =
      "Paused: everyone left a while ago. It goes on, bots too, when a player comes back.";
  } else if (app.pending) {
    banner.textContent = `Sending “${app.pending.label}”…`;
  } else if (view.legal.length) {
    banner.classList.add("yours");
    banner.textContent = "Your turn: choose a move on the board or below.";
  } else if (view.to_move !== null) {
    const standIn = view.seats[view.to_move]?.stand_in;
    banner.textContent = standIn
      ? `${standIn} plays for ${seatName(view.seats, view.to_move)} (their time ran out)…`
      : `${seatName(view.seats, view.to_move)} is thinking…`;
  }
}

function resultText(view) {
  const r = view.result || {};
  const names = (seats) =>
    seats.map((s) => (s === view.seat ? "you" : seatName(view.seats, s))).join(" and ");
  if (r.reason === "resigned")
    return `${seatName(view.seats, r.resigned)} resigned. Winner: ${names(r.winners)}.`;
  if (r.reason === "time")
    return `${seatName(view.seats, r.resigned)} ran out of time. Winner: ${names(r.winners)}.`;
  if (r.reason === "turn cap") return "Draw: the turn limit was reached.";
  if (!r.winners || !r.winners.length) return "Game over: a draw.";
  const won = r.winners.includes(view.seat);
  return won ? `You win! ★ (${names(r.winners)})` : `Game over. Winner: ${names(r.winners)}.`;
}

function renderMoves() {
  const view = app.view;
  const box = $("moves");
  const legal = app.replay ? [] : view.legal;
  const disabled = !playable();
  box.replaceChildren(
    ...legal.map((m, i) =>
      el(
        "button",
        {
          type: "button",
          class: "move",
          "data-action": m.action,
          "data-move": m.text,
          disabled,
          title: i < 9 ? `key ${i + 1}` : null,
          onclick: () => move(m.action),
        },
        i < 9 ? el("kbd", { "aria-hidden": "true" }, String(i + 1)) : null,
        m.label || m.text,
      ),
    ),
  );
}

// Waiting for its players or in play: a game a seat can still act in (not finished, not
// expired).
function isOpen(view) {
  return view.status === "waiting" || view.status === "playing";
}

function botLevel(spec) {
  return app.bots[spec] || spec;
}

// The bots this game offers at its count of players, as [spec, label], weakest first (the
// catalog's; another game's bots would be refused by the server).
function gameBots(view) {
  const entry = (catalog || []).find((g) => g.name === view.game);
  if (!entry) return [];
  const levels = (entry.bots_by_players || {})[view.seats.length] || entry.bots;
  return levels.map((bot) => [bot.spec, bot.label]);
}

function renderSeats() {
  const view = app.view;
  const board = boardFor(view.game);
  const obs = currentObservation();
  const scores = board.scores ? board.scores(obs) : null;
  const places = view.status === "finished" ? placings(view.result, view.seats.length) : null;
  const partners = partnersOf(obs);
  $("seats").replaceChildren(
    ...seatsByTeam(view.seats, obs).map((s) =>
      el(
        "li",
        {
          class: [
            "seat",
            view.to_move === s.seat && !app.replay ? "to-move" : "",
            view.seat === s.seat ? "me" : "",
          ].join(" "),
          "data-seat": s.seat,
        },
        el(
          "span",
          { class: "seat-dot", "data-seat": s.seat, "aria-hidden": "true" },
          initial(s.name),
        ),
        el(
          "span",
          { class: "seat-name", title: s.name },
          s.name,
          view.seat === s.seat ? " (you)" : "",
        ),
        el(
          "span",
          { class: "seat-kind" },
          s.stand_in
            ? "person · away"
            : s.kind === "bot"
              ? `bot · ${botLevel(s.bot)}`
              : s.joined
                ? "person"
                : "invited",
          partners[s.seat]
            ? ` · with ${partners[s.seat].map((p) => seatName(view.seats, p)).join(" and ")}`
            : "",
        ),
        scores ? el("span", { class: "score" }, scores[s.seat]) : null,
        places
          ? el("span", { class: "result", "data-place": places[s.seat] }, places[s.seat])
          : null,
        s.stand_in
          ? el(
              "span",
              { class: "stand-in" },
              `${s.stand_in} plays for ${s.name} until they are back`,
            )
          : null,
      ),
    ),
  );
  renderSeatActions();
}

// Partners who win together (a game's ``teams`` in its observation, e.g. Count Down with 6
// players) are listed next to each other, each named "with" the others.
function teamsOf(obs) {
  return obs && Array.isArray(obs.teams) ? obs.teams : [];
}

function seatsByTeam(seats, obs) {
  const inTeams = teamsOf(obs).flat();
  const order = [...inTeams, ...seats.map((s) => s.seat).filter((s) => !inTeams.includes(s))];
  return order.map((seat) => seats[seat]);
}

function partnersOf(obs) {
  const partners = {};
  for (const team of teamsOf(obs)) {
    for (const seat of team) partners[seat] = team.filter((other) => other !== seat);
  }
  return partners;
}

function renderSeatActions() {
  const view = app.view;
  const actions = $("seat-actions");
  if (actions.contains(document.activeElement) && document.activeElement.id === "my-name") return; // typing
  const giving = {
    open: $("left-seat")?.closest("details").open,
    seat: $("left-seat")?.value,
    bot: $("left-bot")?.value,
  };
  actions.replaceChildren();
  const online = !app.offline;
  if (view.seat !== null && view.status === "waiting") {
    actions.append(
      el(
        "button",
        {
          type: "button",
          id: "start",
          class: "primary",
          disabled: !online,
          onclick: () => send({ type: "start" }),
        },
        "Start now",
      ),
    );
    for (const invite of invitesOf(gameId).filter((i) => i.seat !== view.seat)) {
      const name = seatName(view.seats, invite.seat);
      actions.append(
        el(
          "label",
          { class: "invite" },
          `Invite for ${name}`,
          el("input", {
            readonly: true,
            value: new URL(invite.url, location.origin).href,
            onfocus: (e) => e.target.select(),
          }),
        ),
      );
    }
  }
  if (view.seat !== null && isOpen(view)) {
    const input = el("input", {
      id: "my-name",
      maxlength: 40,
      value: view.seats[view.seat].name,
      "aria-label": "Your name",
    });
    const rename = () => {
      const name = input.value.trim();
      if (name && name !== view.seats[view.seat].name && send({ type: "name", name }))
        rememberName(name);
    };
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") rename();
    });
    actions.append(
      el(
        "div",
        { class: "rename" },
        input,
        el(
          "button",
          { type: "button", id: "save-name", disabled: !online, onclick: rename },
          "Set name",
        ),
      ),
    );
    if (app.me && app.me.seat === view.seat) {
      const link = `${location.origin}${location.pathname}#seat=${app.me.seat}&token=${encodeURIComponent(app.me.token)}`;
      actions.append(
        el(
          "button",
          {
            type: "button",
            id: "copy-seat-link",
            class: "quiet",
            onclick: () => {
              navigator.clipboard?.writeText(link).then(
                () =>
                  notice("Your seat's link is copied: open it on another device to play there."),
                () => prompt("Your seat's link:", link),
              );
            },
          },
          "Copy your seat's link (another device)",
        ),
      );
    }
    actions.append(
      el(
        "button",
        {
          type: "button",
          id: "resign",
          class: "quiet",
          disabled: !online,
          onclick: () => {
            if (confirm("Resign this game? The others win.")) send({ type: "resign" });
          },
        },
        "Resign",
      ),
    );
  }
  if (view.seat !== null && view.status === "playing")
    actions.append(giveToBotForm(view, online, giving));
  $("seat-panel").hidden = !actions.childElementCount; // (a spectator has none)
}

// A person who left: the game's creator lets a bot play for them, or the others vote so (the
// server refuses while that person is still here, and the table talk tells the votes).
function giveToBotForm(view, online, before) {
  const others = view.seats.filter((s) => s.kind === "person" && s.seat !== view.seat);
  const levels = gameBots(view);
  if (!others.length || !levels.length) return "";
  const who = el(
    "select",
    { id: "left-seat", "aria-label": "The player who left" },
    ...others.map((s) => el("option", { value: s.seat }, s.name)),
  );
  const bot = el(
    "select",
    { id: "left-bot", "aria-label": "The bot that plays for them" },
    ...levels.map(([spec, label]) => el("option", { value: spec }, label)),
  );
  if (before.seat !== undefined) who.value = before.seat; // (as the reader left them)
  if (before.bot !== undefined) bot.value = before.bot;
  const give = () => send({ type: "bot", seat: Number(who.value), bot: bot.value });
  return el(
    "details",
    { class: "give-to-bot", open: before.open || null },
    el("summary", {}, "A player left?"),
    el(
      "p",
      {},
      "Let a bot play for them (the one who made the game decides; otherwise most of you must ask).",
    ),
    who,
    bot,
    el(
      "button",
      { type: "button", id: "give-to-bot", disabled: !online, onclick: give },
      "Let a bot play",
    ),
  );
}

// On a desktop the moves' box ends inside the window, the newest move in sight beside the
// board without scrolling the page: the room left below its top (the CSS keeps it between
// a few lines and its full height: see .log). Whether that room changed.
function fitLog() {
  const box = $("log");
  const below = parseFloat(getComputedStyle(box.closest(".panel")).paddingBottom) + 8;
  const room = window.innerHeight - (box.getBoundingClientRect().top + window.scrollY) - below;
  const was = box.style.getPropertyValue("--log-room");
  box.style.setProperty("--log-room", `${Math.floor(room)}px`);
  return box.style.getPropertyValue("--log-room") !== was;
}

function scrollLog() {
  const box = $("log");
  const current = box.querySelector("li.current") || box.lastElementChild;
  if (current) box.scrollTop = current.offsetTop - box.clientHeight / 2;
}

// What the committed seed decides in this game, in words ("every roll of the dice").
function luckOf(name) {
  return (catalog || []).find((g) => g.name === name)?.luck || "every chance outcome";
}

function renderFairness() {
  const view = app.view;
  const box = $("fairness");
  const parts = [
    el(
      "p",
      {},
      "Spectator link: ",
      el("a", { href: `/game/${gameId}`, id: "spectator-link" }, `${location.host}/game/${gameId}`),
    ),
    el(
      "p",
      {},
      "Commitment (SHA-256 of the secret seed): ",
      el("code", { class: "hash" }, view.commitment),
    ),
  ];
  if (view.seed) {
    parts.push(
      el("p", {}, "Seed, revealed: ", el("code", { class: "hash", id: "seed" }, view.seed)),
    );
    parts.push(
      el(
        "p",
        {},
        el("button", { type: "button", id: "verify", onclick: verify }, "Verify the seed"),
        " ",
        el(
          "a",
          { href: `/api/games/${gameId}/export`, download: `tminus-${gameId}.json` },
          "Export (for tminus verify)",
        ),
      ),
    );
    parts.push(el("p", { id: "verify-result", class: "muted" }));
  } else {
    parts.push(
      el(
        "p",
        { class: "muted" },
        `The seed is revealed when the game ends; then ${luckOf(view.game)} can be checked.`,
      ),
    );
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
function iconButton(name, label, onclick, id) {
  return el(
    "button",
    { type: "button", class: "icon-button", id, "aria-label": label, title: label, onclick },
    icon(name),
  );
}

function renderReplayControls() {
  const box = $("replay");
  if (app.view.status !== "finished") {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  if (!app.replay) {
    box.replaceChildren(
      el(
        "button",
        { type: "button", id: "replay-start", onclick: startReplay },
        icon("play"),
        " Replay the game step by step",
      ),
      // Where the game was won and lost: each move's chance to win, the best move, the loss.
      el(
        "a",
        { class: "button", id: "review", href: `/game/${encodeURIComponent(gameId)}/review` },
        "Review the game",
      ),
    );
    return;
  }
  const r = app.replay;
  const last = r.frames.length - 1;
  const go = (i) => {
    r.index = Math.max(0, Math.min(last, i));
    render();
  };
  box.replaceChildren(
    iconButton("first", "first step", () => go(0), "replay-first"),
    iconButton("back", "step back", () => go(r.index - 1), "replay-back"),
    el("input", {
      type: "range",
      min: 0,
      max: last,
      value: r.index,
      "aria-label": "step",
      oninput: (e) => go(Number(e.target.value)),
    }),
    iconButton("next", "next step", () => go(r.index + 1), "replay-next"),
    iconButton("last", "last step", () => go(last), "replay-last"),
    el(
      "span",
      { id: "replay-step", class: "muted" },
      `step ${r.index} of ${last}`,
      r.index ? ` · ${r.frames[r.index].text}` : "",
    ),
    el(
      "button",
      {
        type: "button",
        class: "quiet",
        onclick: () => {
          app.replay = null;
          render();
        },
      },
      "Leave replay",
    ),
  );
}

async function startReplay() {
  try {
    const data = await api(`/api/games/${gameId}/replay`);
    app.replay = { frames: data.frames, index: 0 };
    render();
  } catch (error) {
    notice(error.message);
  }
}

document.addEventListener("keydown", (event) => {
  if (event.target.matches("input, select, textarea")) return;
  if (app.replay && event.key === "ArrowRight") return $("replay-next")?.click();
  if (app.replay && event.key === "ArrowLeft") return $("replay-back")?.click();
  const n = Number(event.key);
  if (n >= 1 && n <= 9 && app.view && app.view.legal[n - 1]) move(app.view.legal[n - 1].action);
});

$("thoughts").addEventListener("change", switchThoughts);
$("moves").after(whyBox(gameId, send)); // "Why can't I…?", under the moves

renderNav();
if (app.me) holdMySeats([gameId]); // signed in: the seat follows the account
connect();
