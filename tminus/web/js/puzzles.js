// The puzzles page: choose a game, solve its next puzzle (a position from a real game with
// one move clearly best), see every move's exact value, go on to the next. This browser
// keeps its progress (the puzzles solved and tried, the streak, its puzzle rating).
import { api, el } from "./util.js";
import { drawPosition, whenDrawn } from "./position.js";
import { account, renderNav, request } from "./account.js";

const $ = (id) => document.getElementById(id);
const GAMES = [
  ["four_way", "4-Way CountDown"],
  ["sputnik", "Sputnik"],
  ["count_down", "Count Down"],
];
const STORE = "tminus.puzzles";
const page = { game: null, puzzle: null, answered: null, busy: false };

function progress() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(STORE)) || {};
  } catch {
    saved = {};
  }
  return {
    rating: Number.isFinite(saved.rating) ? saved.rating : 1500,
    solved: Array.isArray(saved.solved) ? saved.solved : [],
    tried: Array.isArray(saved.tried) ? saved.tried : [],
    streak: Number.isInteger(saved.streak) ? saved.streak : 0,
  };
}

function save(mine) {
  try {
    localStorage.setItem(STORE, JSON.stringify(mine));
  } catch {
    // (private browsing: progress lasts as long as the page)
  }
  renderProgress(mine);
}

function renderProgress(mine = progress()) {
  $("my-rating").textContent = Math.round(mine.rating);
  $("my-solved").textContent = mine.solved.length;
  $("my-streak").textContent = mine.streak;
}

function renderGames() {
  $("games").replaceChildren(
    ...GAMES.map(([name, title]) =>
      el(
        "button",
        {
          type: "button",
          class: "puzzle-game",
          "data-game": name,
          "aria-pressed": String(name === page.game),
          onclick: () => choose(name),
        },
        title,
      ),
    ),
  );
}

async function choose(game) {
  page.game = game;
  renderGames();
  history.replaceState(null, "", `${location.pathname}?game=${encodeURIComponent(game)}`);
  await next();
}

// The next puzzle of the game: the easiest not solved nor tried here (then the easiest not
// solved, once every one has been tried).
async function next() {
  const game = page.game;
  $("status").textContent = "Loading a puzzle…";
  let listing;
  try {
    listing = await api(`/api/puzzles?game=${encodeURIComponent(game)}`);
  } catch (error) {
    $("status").textContent = error.message;
    return;
  }
  if (game !== page.game) return; // another game was chosen meanwhile
  const mine = progress();
  const chosen =
    listing.find((p) => !mine.solved.includes(p.id) && !mine.tried.includes(p.id)) ||
    listing.find((p) => !mine.solved.includes(p.id));
  if (!chosen) {
    $("puzzle").hidden = true;
    $("status").textContent = "You have solved every puzzle of this game. Well done!";
    return;
  }
  await show(chosen.id);
}

async function show(id) {
  let puzzle;
  try {
    puzzle = await api(`/api/puzzles/${encodeURIComponent(id)}`);
  } catch (error) {
    $("status").textContent = error.message;
    return;
  }
  page.puzzle = puzzle;
  page.answered = null;
  page.busy = false;
  const query = `?game=${encodeURIComponent(puzzle.game)}&puzzle=${encodeURIComponent(id)}`;
  history.replaceState(null, "", location.pathname + query);
  document.title = `Puzzle: ${puzzle.title} · T-minus`;
  $("puzzle").hidden = false;
  $("puzzle").dataset.puzzle = puzzle.id;
  $("puzzle-title").textContent = `${puzzle.title} · rated ${Math.round(puzzle.rating)}`;
  $("puzzle-prompt").textContent = puzzle.prompt;
  $("answer").replaceChildren();
  $("next").hidden = true;
  $("status").textContent = "";
  render();
  $("puzzle-title").focus();
}

function labelOf(action, fallback) {
  const move = page.puzzle.state.legal.find((m) => m.action === action);
  return move ? move.label || move.text : fallback;
}

function render() {
  const state = page.puzzle.state;
  const open = !page.answered && !page.busy;
  const legal = open ? state.legal : [];
  drawPosition($("board"), state, { legal, onMove: play, layout: page.puzzle.layout });
  const answered = page.answered;
  $("moves").replaceChildren(
    ...state.legal.map((m) =>
      el(
        "button",
        {
          type: "button",
          class: [
            "move",
            answered && m.action === answered.answer ? "best" : "",
            answered && m.action === answered.tried && !answered.correct ? "wrong" : "",
          ]
            .join(" ")
            .trim(),
          "data-action": m.action,
          disabled: !open,
          onclick: () => play(m.action),
        },
        m.label || m.text,
      ),
    ),
  );
}

whenDrawn($("board"));

async function play(action) {
  const puzzle = page.puzzle;
  if (!puzzle || page.answered || page.busy) return;
  page.busy = true;
  render();
  const mine = progress();
  let result;
  try {
    result = await api(`/api/puzzles/${encodeURIComponent(puzzle.id)}/try`, {
      method: "POST",
      body: { action, rating: mine.rating },
    });
  } catch (error) {
    page.busy = false;
    render();
    $("answer").replaceChildren(el("p", { class: "error" }, error.message));
    return;
  }
  if (page.puzzle !== puzzle) return;
  page.busy = false;
  page.answered = { ...result, tried: action };
  // Only a first try moves the rating and the streak (a puzzle seen again is practice).
  if (!mine.tried.includes(puzzle.id) && !mine.solved.includes(puzzle.id)) {
    mine.rating = result.your_rating;
    mine.streak = result.correct ? mine.streak + 1 : 0;
    mine.tried.push(puzzle.id);
  }
  if (result.correct && !mine.solved.includes(puzzle.id)) mine.solved.push(puzzle.id);
  save(mine);
  render();
  showAnswer(result, action);
}

// A value as people read it: a chance as a percentage; Sputnik's turns to a win or a loss.
function valueText(kind, value) {
  if (kind === "win_in_n") {
    if (value > 0) return `wins in ${value} ${value === 1 ? "turn" : "turns"}`;
    if (value < 0) return `loses in ${-value} ${value === -1 ? "turn" : "turns"}`;
    return "a draw";
  }
  if (typeof value === "number") return `${(value * 100).toFixed(1)}% to win`;
  return String(value);
}

function showAnswer(result, tried) {
  const best = labelOf(result.answer, result.answer_label);
  const verdict = result.correct
    ? el("p", { class: "verdict right" }, "Right! ", el("span", {}, `${best} is best.`))
    : el("p", { class: "verdict wrong" }, `Not this one: the best was ${best}.`);
  const note =
    result.kind === "count_now_or_wait"
      ? "Each move's chance that this COUNTDOWN succeeds, both sides playing perfectly:"
      : result.kind === "win_in_n"
        ? "Each move's outcome, both sides playing perfectly:"
        : "Each move's chance to win, both sides playing perfectly:";
  $("answer").replaceChildren(
    verdict,
    el("p", { class: "muted" }, note),
    el(
      "ul",
      { class: "puzzle-values" },
      ...result.values.map((v) =>
        el(
          "li",
          {
            class: [v.action === result.answer ? "best" : "", v.action === tried ? "tried" : ""]
              .join(" ")
              .trim(),
          },
          el("span", { class: "move-name" }, labelOf(v.action, v.label)),
          el("span", { class: "move-value" }, valueText(result.kind, v.value)),
          v.action === tried ? el("span", { class: "muted" }, " (yours)") : null,
        ),
      ),
    ),
    el(
      "p",
      { class: "muted" },
      `Your puzzle rating is now ${Math.round(result.your_rating)}; the puzzle's ${Math.round(result.rating)}.`,
    ),
  );
  $("next").hidden = false;
  $("next").focus();
}

// A signed-in person's first tries on every device (kept by the account), joined to this
// browser's: the puzzles solved and tried, and the account's streak.
async function fromAccount() {
  if (!(await account())) return;
  let kept;
  try {
    kept = await request("/api/account/puzzles");
  } catch {
    return; // (this browser's own progress is shown)
  }
  const mine = progress();
  for (const { puzzle, solved } of kept.tries) {
    if (!mine.tried.includes(puzzle)) mine.tried.push(puzzle);
    if (solved && !mine.solved.includes(puzzle)) mine.solved.push(puzzle);
  }
  if (kept.tries.length) mine.streak = kept.streak; // (no tries kept yet: this browser's)
  save(mine);
}

async function start() {
  renderNav();
  renderProgress();
  await fromAccount();
  $("next").addEventListener("click", () => next());
  const asked = new URLSearchParams(location.search);
  const game = GAMES.find(([name]) => name === asked.get("game"))?.[0];
  page.game = game || null;
  renderGames();
  if (!game) return;
  const id = asked.get("puzzle");
  if (id && !progress().solved.includes(id)) await show(id);
  else await next();
}

start();
