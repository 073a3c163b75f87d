// Game clocks as people read them: "2 d 3 h", "5 h 12 min", "4:05"; the settings in words;
// and the seconds left to the seat to move, counted down here from what the server said.

const MINUTE = 60,
  HOUR = 3600,
  DAY = 86400;

// Seconds as a clock shows them: days and hours, hours and minutes, or minutes:seconds.
export function duration(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= DAY) {
    const d = Math.floor(s / DAY),
      h = Math.floor((s % DAY) / HOUR);
    return h ? `${d} d ${h} h` : `${d} d`;
  }
  if (s >= HOUR) {
    const h = Math.floor(s / HOUR),
      m = Math.floor((s % HOUR) / MINUTE);
    return m ? `${h} h ${m} min` : `${h} h`;
  }
  return `${Math.floor(s / MINUTE)}:${String(s % MINUTE).padStart(2, "0")}`;
}

// A setting's length in words: "1 hour", "12 hours", "1 day", "3 days".
export function span(seconds) {
  if (seconds % DAY === 0) return seconds === DAY ? "1 day" : `${seconds / DAY} days`;
  if (seconds % HOUR === 0) return seconds === HOUR ? "1 hour" : `${seconds / HOUR} hours`;
  return seconds === MINUTE ? "1 minute" : `${Math.round(seconds / MINUTE)} minutes`;
}

// The clock's settings in a line: "1 day a move, 3 days in reserve" or "10 min + 5 s".
export function clockWords(clock) {
  if (!clock) return "";
  if (clock.kind === "turn") {
    const reserve = clock.reserve ? `, ${span(clock.reserve)} in reserve` : ", no reserve";
    return `Turn-based: ${span(clock.per_move)} a move${reserve}`;
  }
  return `Live clock: ${clock.minutes} min + ${clock.increment} s a move`;
}

// What happens when a seat's time runs out, in words (``botLabel``: a bot spec's level).
export function timeoutWords(clock, botLabel) {
  if (!clock) return "";
  return clock.on_timeout === "resign"
    ? "When time runs out, that player loses."
    : `When time runs out, ${botLabel(clock.on_timeout)} plays for them until they are back.`;
}

// Each seat's seconds left now: the seat to move counts down from its deadline (read as
// deadline − the server's now when the message was sent, less the time since it arrived);
// the others show their bank (the reserve, or the time on a live clock). ``receivedAt``:
// performance.now() when the message arrived.
export function secondsLeft(clocks, receivedAt, at = performance.now()) {
  if (!clocks) return null;
  const left = [...(clocks.left || [])];
  const running = clocks.to_move;
  if (running !== null && running !== undefined && clocks.deadline != null) {
    left[running] = clocks.deadline - clocks.now - (at - receivedAt) / 1000;
  }
  return left;
}

// Whether a seat's time is short: the last hour of a turn-based game, the last 20 seconds
// of a live one.
export function isLow(clock, seconds) {
  return clock && seconds <= (clock.kind === "turn" ? HOUR : 20);
}
