// The seat this browser holds in a game: its number and secret token. An invite link carries
// them in its #fragment; they are kept in localStorage, so that any tab of this browser (a
// new tab, "Recent games", after a restart) gets the seat back.

const key = (gameId) => `tminus:seat:${gameId}`;

// The seat and token in a link's #fragment ("#seat=1&token=..."), or null.
export function seatInHash(hash) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ""));
  const seat = Number(params.get("seat"));
  const token = params.get("token");
  return token && Number.isInteger(seat) && seat >= 0 ? { seat, token } : null;
}

export function heldSeat(gameId) {
  try {
    const held = JSON.parse(localStorage.getItem(key(gameId)));
    return held && Number.isInteger(held.seat) && typeof held.token === "string" ? held : null;
  } catch {
    return null;
  }
}

// Every seat this browser holds in a game: the one above and, in a hot-seat game (several
// people at one device), the others it plays too.
export function heldSeats(gameId) {
  const first = heldSeat(gameId);
  let more = [];
  try {
    more = JSON.parse(localStorage.getItem(`tminus:hotseat:${gameId}`)) || [];
  } catch {
    more = [];
  }
  const seats = [first, ...more].filter(
    (s) => s && Number.isInteger(s.seat) && typeof s.token === "string",
  );
  return seats.filter((s, i) => seats.findIndex((t) => t.seat === s.seat) === i);
}

export function holdHotSeats(gameId, seats) {
  localStorage.setItem(
    `tminus:hotseat:${gameId}`,
    JSON.stringify(seats.map((s) => ({ seat: s.seat, token: s.token }))),
  );
}

export function holdSeat(gameId, seat) {
  localStorage.setItem(key(gameId), JSON.stringify({ seat: seat.seat, token: seat.token }));
}

// Every game this browser holds a seat in or made (its invites), newest remembered last.
export function myGameIds() {
  const ids = new Set();
  for (let i = 0; i < localStorage.length; i++) {
    const match = /^tminus:(?:seat|invites):(.+)$/.exec(localStorage.key(i));
    if (match) ids.add(match[1]);
  }
  return [...ids];
}

export function releaseSeat(gameId) {
  localStorage.removeItem(key(gameId));
}

// The invites the lobby made for a game (every person's seat), for the host to hand out.
export function invitesOf(gameId) {
  try {
    return JSON.parse(localStorage.getItem(`tminus:invites:${gameId}`)) || [];
  } catch {
    return [];
  }
}

export function keepInvites(gameId, invites) {
  localStorage.setItem(`tminus:invites:${gameId}`, JSON.stringify(invites));
}

// The name this browser's person plays under, remembered for the next game.
export function rememberedName() {
  return localStorage.getItem("tminus:name") || "";
}

export function rememberName(name) {
  if (name) localStorage.setItem("tminus:name", name);
}
