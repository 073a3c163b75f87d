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

export function holdSeat(gameId, seat) {
  localStorage.setItem(key(gameId), JSON.stringify({ seat: seat.seat, token: seat.token }));
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
