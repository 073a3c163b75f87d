// Learn to play: a game's guided first game (GET /api/lessons/{game}/{n}). Each step says a
// rule, marks on the board where to act (the step's CSS selector) and waits for one move. A
// try goes to the server (POST …/try): a wrong one is told why (the rule that forbids it,
// or why this step asks for another move) and the step waits again; a right one goes on.
// This browser keeps which lessons were finished, and so does the account of a person signed
// in (on every device).
import { api, el } from "./util.js";
import { drawPosition, whenDrawn } from "./position.js";
import { account, renderNav, request } from "./account.js";

const $ = (id) => document.getElementById(id);
const STORE = "tminus.lessons";
const page = { lessons: [], game: null, step: null, done: false, busy: false };

function finished() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE));
    return Array.isArray(saved?.finished) ? saved.finished : [];
  } catch {
    return [];
  }
}

function keep(games) {
  const all = [...new Set([...finished(), ...games])];
  try {
    localStorage.setItem(STORE, JSON.stringify({ finished: all }));
  } catch {
    // (private browsing: kept as long as the page)
  }
}

// Tell the account of a lesson finished (kept here all the same if that fails: the next
// visit signed in tells it again).
async function tellAccount(game) {
  try {
    const mine = await request("/api/account/lessons", {
      method: "POST",
      body: { game },
      csrf: true,
    });
    keep(mine.finished);
  } catch {
    // (see above)
  }
}

async function finish(game) {
  keep([game]);
  if (await account()) await tellAccount(game);
}

// The lessons the account finished on other devices, kept here too; and those finished in
// this browser that the account does not know yet (before signing in), told to it.
async function fromAccount() {
  if (!(await account())) return;
  let kept;
  try {
    kept = (await request("/api/account/lessons")).finished;
  } catch {
    return; // (this browser's own progress is shown)
  }
  const untold = finished().filter((game) => !kept.includes(game));
  keep(kept);
  for (const game of untold) await tellAccount(game);
}

function renderGames() {
  const done = finished();
  $("games").replaceChildren(
    ...page.lessons.map((lesson) =>
      el(
        "button",
        {
          type: "button",
          class: "puzzle-game",
          "data-game": lesson.game,
          "aria-pressed": String(lesson.game === page.game),
          onclick: () => choose(lesson.game),
        },
        lesson.title.replace(/^Learn /, ""),
        done.includes(lesson.game) ? el("span", { class: "lesson-done" }, " ✓") : null,
      ),
    ),
  );
}

async function choose(game) {
  page.game = game;
  page.step = null; // (the lesson shown was another game's: nothing of it may be tried)
  $("lesson").hidden = true;
  renderGames();
  history.replaceState(null, "", `${location.pathname}?game=${encodeURIComponent(game)}`);
  await show(1);
}

async function show(number) {
  const game = page.game;
  $("status").textContent = "Loading…";
  let step;
  try {
    step = await api(`/api/lessons/${encodeURIComponent(game)}/${number}`);
  } catch (error) {
    $("status").textContent = error.message;
    return;
  }
  if (game !== page.game) return; // another game was chosen meanwhile
  Object.assign(page, { step, done: false, busy: false });
  $("status").textContent = "";
  $("lesson").hidden = false;
  $("lesson").dataset.step = String(number);
  document.title = `${step.title} · T-minus`;
  $("lesson-title").textContent = `${step.title} · step ${number} of ${step.steps}`;
  $("lesson-intro").textContent = number === 1 ? step.intro : "";
  $("lesson-rule").textContent = step.rule;
  $("lesson-say").textContent = step.say;
  $("told").replaceChildren();
  $("next").hidden = true;
  renderWhy();
  render();
  $("lesson-title").focus();
}

// The board and the move buttons; the step's move is marked on both.
function render() {
  const { step } = page;
  const state = step.state;
  const open = !page.done && !page.busy;
  drawPosition($("board"), state, {
    legal: open ? state.legal : [],
    onMove: attempt,
    layout: step.layout,
  });
  markBoard();
  // The step's move first; the other moves allowed folded away (the board offers them too).
  const button = (m) =>
    el(
      "button",
      {
        type: "button",
        class: m.action === step.answer && !page.done ? "move lesson-move" : "move",
        "data-action": m.action,
        disabled: !open,
        onclick: () => attempt(m.action),
      },
      m.label || m.text,
    );
  const others = state.legal.filter((m) => m.action !== step.answer);
  const wasOpen = $("moves").querySelector("details")?.open;
  $("moves").replaceChildren(
    ...state.legal.filter((m) => m.action === step.answer).map(button),
    others.length
      ? el(
          "details",
          { class: "lesson-others", open: wasOpen || null },
          el("summary", {}, `Other moves allowed here (${others.length})`),
          el("div", { class: "moves" }, ...others.map(button)),
        )
      : null,
  );
}

// Where the step says to act, marked on the board (boards may draw late: marked again).
function markBoard() {
  const mark = page.step?.mark;
  if (!mark || page.done) return;
  for (const node of $("board").querySelectorAll(mark)) node.classList.add("lesson-mark");
}

// The moves the rules forbid here, to try and hear why (the allowed ones are the buttons).
function renderWhy() {
  const legal = new Set(page.step.state.legal.map((m) => m.action));
  const others = page.step.moves.filter((m) => !legal.has(m.action));
  $("why").hidden = others.length === 0;
  $("why-move").replaceChildren(
    ...others.map((m) => el("option", { value: String(m.action) }, m.label)),
  );
}

async function attempt(action) {
  const { step, game } = page;
  if (!step || page.done || page.busy) return;
  page.busy = true;
  render();
  let verdict;
  try {
    verdict = await api(`/api/lessons/${encodeURIComponent(game)}/${step.number}/try`, {
      method: "POST",
      body: { action },
    });
  } catch (error) {
    page.busy = false;
    render();
    $("told").replaceChildren(el("p", { class: "error" }, error.message));
    return;
  }
  if (page.step !== step) return;
  page.busy = false;
  const label = step.moves.find((m) => m.action === action)?.label ?? String(action);
  if (!verdict.correct) {
    render();
    // The button pressed was drawn again: the keyboard stays where it was.
    $("moves").querySelector(`button[data-action="${action}"]`)?.focus();
    $("told").replaceChildren(
      el("p", { class: "verdict wrong" }, `Not ${label}.`),
      el("p", { class: "lesson-reason" }, verdict.reason),
      el("p", { class: "muted" }, "Try again."),
    );
    return;
  }
  page.done = true;
  render();
  const last = verdict.next === null;
  $("told").replaceChildren(
    el("p", { class: "verdict right" }, "Right! ", el("span", {}, verdict.said || "")),
    last ? el("p", { class: "lesson-end" }, step.end) : null,
    last
      ? el(
          "p",
          {},
          el("a", { href: `/?game=${encodeURIComponent(game)}` }, "Play a game against a bot"),
          " · ",
          el("a", { href: `/puzzles?game=${encodeURIComponent(game)}` }, "Puzzles"),
        )
      : null,
  );
  if (last) {
    await finish(game);
    renderGames();
    $("next").hidden = true;
    return;
  }
  $("next").hidden = false;
  $("next").focus();
}

// The step's mark is put back on what a board draws late (Count Down's) or again.
whenDrawn($("board"), markBoard);

async function start() {
  renderNav();
  $("next").addEventListener("click", () => show(page.step.number + 1));
  $("why").addEventListener("submit", (event) => {
    event.preventDefault();
    const chosen = Number($("why-move").value);
    if (Number.isInteger(chosen)) attempt(chosen);
  });
  try {
    page.lessons = await api("/api/lessons");
  } catch (error) {
    $("status").textContent = error.message;
    return;
  }
  await fromAccount();
  const asked = new URLSearchParams(location.search).get("game");
  page.game = page.lessons.some((l) => l.game === asked) ? asked : null;
  renderGames();
  if (page.game) await show(1);
}

start();
