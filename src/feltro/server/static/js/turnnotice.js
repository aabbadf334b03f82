// The your-turn notice on the player page (issue 23): the tab's title says it (seen from
// another tab), the phone vibrates where it can (browsers allow it once the page was touched)
// unless the player turned "Vibrate on my turn" off in the settings, and a short tone plays if the player turned it on in the settings ("Sound on my turn").

import { t } from "./i18n.js";

let audio = null;

/** The page's title, with "▶ Your turn" in front while it is the player's turn. */
export function turnTitle(base, mine) {
  return mine ? `▶ ${t("web.turn.yours")} · ${base}` : base;
}

function soundOn() {
  try {
    return localStorage.getItem("feltro.turn-sound") === "1";
  } catch {
    return false;
  }
}

/** Vibration is on unless the player turned it off ("Vibrate on my turn"). */
function vibrateOn() {
  try {
    return localStorage.getItem("feltro.turn-vibrate") !== "0";
  } catch {
    return true;
  }
}

/** A short two-note tone (Web Audio: nothing is fetched). */
function tone() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  audio = audio || new Context();
  const now = audio.currentTime;
  [660, 880].forEach((freq, i) => {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + i * 0.15);
    gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.15 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.15 + 0.14);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + i * 0.15);
    osc.stop(now + i * 0.15 + 0.15);
  });
}

/** A new turn of the player's: vibrate and (if chosen) sound. */
export function turnNotice() {
  if (vibrateOn() && navigator.vibrate && navigator.userActivation?.hasBeenActive) {
    navigator.vibrate([80, 60, 80]);
  }
  if (soundOn()) {
    try {
      tone();
    } catch { /* no audio on this device */ }
  }
}
