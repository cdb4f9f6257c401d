// @ts-check
// The table's sounds: dealing, a card played, chips, your turn and the
// clock running low. Each is made on the spot by the browser's Web Audio
// (a few milliseconds of filtered noise or tones), so there is no sound file
// to license or download. Off until the player switches them on; the switch
// is one of the preferences kept in this browser.

import { prefs } from "./state.js";

/** One audio context for the page: browsers allow only a few, and one
 * made before any click stays silent until a click resumes it. */
/** @type {AudioContext | null} */
let ctx = null;

function audio() {
  if (!ctx) ctx = new AudioContext();
  if (ctx.state === "suspended") ctx.resume();
  return ctx;
}

/** A tone at `freq` Hz starting `at` seconds from now, fading out over `len`.
 * @param {AudioContext} a @param {number} freq @param {number} at @param {number} len @param {number} volume @param {OscillatorType} [type] */
function tone(a, freq, at, len, volume, type = "sine") {
  const osc = a.createOscillator();
  const gain = a.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  const start = a.currentTime + at;
  gain.gain.setValueAtTime(volume, start);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + len);
  osc.connect(gain).connect(a.destination);
  osc.start(start);
  osc.stop(start + len);
}

/** A burst of noise through a band-pass filter: a card sliding on cloth.
 * @param {AudioContext} a @param {number} at @param {number} len @param {number} centre @param {number} volume */
function swish(a, at, len, centre, volume) {
  const buffer = a.createBuffer(1, Math.ceil(a.sampleRate * len), a.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
  const source = a.createBufferSource();
  source.buffer = buffer;
  const filter = a.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = centre;
  const gain = a.createGain();
  gain.gain.value = volume;
  source.connect(filter).connect(gain).connect(a.destination);
  source.start(a.currentTime + at);
}

/** @type {Record<string, (a: AudioContext) => void>} */
const SOUNDS = {
  deal: (a) => { for (let i = 0; i < 4; i++) swish(a, i * 0.09, 0.07, 3000, 0.5); },
  card: (a) => { swish(a, 0, 0.06, 1800, 0.6); tone(a, 140, 0, 0.08, 0.15); },
  chips: (a) => { tone(a, 2400, 0, 0.09, 0.05); tone(a, 3100, 0.06, 0.1, 0.04); tone(a, 2700, 0.11, 0.08, 0.03); },
  turn: (a) => { tone(a, 660, 0, 0.18, 0.08); tone(a, 880, 0.14, 0.25, 0.08); },
  low: (a) => { for (let i = 0; i < 3; i++) tone(a, 1000, i * 0.16, 0.06, 0.07, "square"); },
};

/** Plays one of the table's sounds (`deal`, `card`, `chips`, `turn`,
 * `low`) when sounds are on. The document hears a `tripoley:sound` event
 * naming it, so a visual cue or a test can follow what was played. */
/** @param {string} name */
export function play(name) {
  if (!prefs.sound) return;
  try {
    SOUNDS[name](audio());
  } catch {
    // no audio on this device: stay silent
    return;
  }
  document.dispatchEvent(new CustomEvent("tripoley:sound", { detail: name }));
}

/** Called from the click that switches sounds on, so the browser lets the
 * page's audio start. */
export function unlock() {
  try {
    audio();
  } catch {
    // no audio on this device
  }
}

/** The sounds a batch of the table's events makes, one of each kind at most.
 * @param {import("./frames.js").GameEvent[]} events */
export function soundsOf(events) {
  const kinds = new Set();
  for (const e of events) {
    if (e.event === "dealt") kinds.add("deal");
    if (e.event === "led" || e.event === "played") kinds.add("card");
    if (e.event === "transfer" && e.reason !== "ante") kinds.add("chips");
  }
  return [...kinds];
}
