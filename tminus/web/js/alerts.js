// Turn alerts: when it becomes your turn the tab's title says so, a short sound plays (off
// unless the player switched it on: remembered), and a notification appears if the page is
// hidden and the player allowed them.

export const YOUR_TURN_TITLE = "● Your turn — T-minus";
const SOUND_KEY = "tminus:sound";

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) === "on";
}

export function setSound(on) {
  localStorage.setItem(SOUND_KEY, on ? "on" : "off");
}

let audio = null;
// Two short notes, made by the browser (no sound file to fetch).
export function chime() {
  try {
    audio = audio || new AudioContext();
    const start = audio.currentTime;
    [660, 880].forEach((pitch, i) => {
      const note = audio.createOscillator();
      const gain = audio.createGain();
      note.frequency.value = pitch;
      gain.gain.setValueAtTime(0.15, start + i * 0.14);
      gain.gain.exponentialRampToValueAtTime(0.001, start + i * 0.14 + 0.13);
      note.connect(gain).connect(audio.destination);
      note.start(start + i * 0.14);
      note.stop(start + i * 0.14 + 0.14);
    });
    window.tminusChimes = (window.tminusChimes || 0) + 1; // (counted: tests read it)
  } catch {
    // No sound on this device: the title still says it.
  }
}

export function canNotify() {
  return typeof Notification !== "undefined";
}

// Asked only when the player presses the button (browsers refuse unasked prompts).
export async function askToNotify() {
  if (!canNotify()) return "unsupported";
  return Notification.permission === "default"
    ? Notification.requestPermission()
    : Notification.permission;
}

// Called once each time it becomes your turn.
export function yourTurnBegins(gameTitle) {
  if (soundOn()) chime();
  if (document.hidden && canNotify() && Notification.permission === "granted") {
    try {
      new Notification(YOUR_TURN_TITLE, {
        body: `${gameTitle}: it is your turn.`,
        tag: "tminus-turn",
      });
    } catch {
      // (a phone's browser may only notify from a service worker: the title says it)
    }
  }
}
