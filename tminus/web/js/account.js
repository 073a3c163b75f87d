// The account this browser is signed in as, if any: who it is, the CSRF token every change
// repeats (X-CSRF-Token), the account's link at the top of each page, and the seats the
// account holds (a seat this browser plays is told to the account once, so that the game
// follows the person to their other devices). Anyone still plays without an account.
import { heldSeats, myGameIds } from "./seat.js";

let known = null; // a promise of {name, email, reminders, created, csrf}, or of null

// The account (null: not signed in, or the server could not say); asked for once a page.
export function account(fresh = false) {
  if (!known || fresh) {
    known = fetch("/api/account", { headers: { accept: "application/json" } })
      .then((response) => (response.ok ? response.json() : null))
      .catch(() => null);
  }
  return known;
}

// Signed in or out by this page: what the server answered (or null).
export function setAccount(me) {
  known = Promise.resolve(me);
}

// A JSON request; its answer (null for 204). A refusal throws an Error with the server's own
// words (``message``), its ``status`` and ``code``, and ``retryAfter`` (seconds) if given.
export async function request(path, { method = "GET", body, csrf = false } = {}) {
  const headers = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (csrf) headers["X-CSRF-Token"] = (await account())?.csrf || "";
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return null;
  const data = await response.json().catch(() => ({ message: response.statusText }));
  if (!response.ok) {
    const error = new Error(data.message || `The server answered ${response.status}.`);
    error.status = response.status;
    error.code = data.code;
    const wait = Number(response.headers.get("retry-after"));
    if (wait > 0) error.retryAfter = wait;
    throw error;
  }
  return data;
}

// The links at the top of the page: "Sign in" (back here afterwards), or the person's name.
export async function renderNav() {
  const link = document.getElementById("account-link");
  if (!link) return null;
  const me = await account();
  if (me) {
    link.textContent = me.name;
    link.href = "/account";
    link.classList.add("signed-in");
    link.setAttribute("aria-label", `Your account: ${me.name}`);
  } else if (location.pathname !== "/account") {
    link.href = `/account?next=${encodeURIComponent(location.pathname + location.search)}`;
  }
  return me;
}

// -- the seats the account holds ----------------------------------------------------------
const toldKey = (me) => `tminus:account-seats:${me.name.toLowerCase()}`;

function told(me) {
  try {
    return new Set(JSON.parse(localStorage.getItem(toldKey(me))) || []);
  } catch {
    return new Set();
  }
}

function keepTold(me, marks) {
  localStorage.setItem(toldKey(me), JSON.stringify([...marks].slice(-500)));
}

// Seats the server already knows the account holds (its list of games): not told again.
export function knownHeld(me, games) {
  const marks = told(me);
  for (const game of games)
    for (const held of game.held || []) marks.add(`${game.id}/${held.seat}`);
  keepTold(me, marks);
}

// Tell the account every seat this browser holds in ``gameIds`` (all its games by default),
// each once: a seat refused (another account holds it, the game is gone) is not asked for
// again; a server that did not answer is asked again on the next page only.
export async function holdMySeats(gameIds = myGameIds()) {
  const me = await account();
  if (!me) return;
  const marks = told(me);
  const ask = gameIds.flatMap((id) =>
    heldSeats(id)
      .filter((s) => !marks.has(`${id}/${s.seat}`))
      .map((s) => ({ game: id, seat: s.seat, token: s.token })),
  );
  for (const body of ask) {
    try {
      await request("/api/account/seats", { method: "POST", body, csrf: true });
    } catch (error) {
      if (error.status === 401) return; // signed out meanwhile
      if (!error.status || error.status >= 500 || error.status === 429) continue;
    }
    marks.add(`${body.game}/${body.seat}`);
  }
  if (ask.length) keepTold(me, marks);
}
