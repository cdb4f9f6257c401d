// @ts-check
// The offline game: a table played in this browser with no server, by the
// engine in WebAssembly in a worker (worker.js). `OfflineLink` stands where
// a websocket stands (send, message, open, close), so app.js draws an
// offline game through exactly the same path as an online one, from the
// same frames.
//
// The game is kept in localStorage after every step (the record with its
// `play` field: the file `tripoley play --save` writes), so a reload or a
// closed tab resumes it where it was.

import { failure } from "./i18n.js";

/** The address of the offline table in the page (`#offline`). */
export const OFFLINE = "offline";
const KEY = "tripoley:offline";

/** The offline game kept in this browser: `{ saved, people, seat, pause }`,
 * or `{ start, people, seat, pause }` before its first step; null if none. */
export function keptGame() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "null");
    // `over`: the game ended (it stays, for its replay, until the next one).
    return kept && (kept.saved || kept.start) && Array.isArray(kept.people) ? kept : null;
  } catch {
    return null;
  }
}

/** Changes some of what is kept of the offline game. @param {Record<string, unknown>} change */
function keep(change) {
  localStorage.setItem(KEY, JSON.stringify({ ...(keptGame() || {}), ...change }));
}

/** A saved game (a record with its `play` field) becomes the game of this
 * device: its people are the seats without a bot, the first of them shown.
 * @param {string} text */
export function keepSaved(text) {
  const play = JSON.parse(text).play;
  const people = play.bots.map((/** @type {string | null} */ b, /** @type {number} */ seat) => (b === null ? seat : null)).filter((/** @type {number | null} */ s) => s !== null);
  localStorage.setItem(KEY, JSON.stringify({ saved: text, people, seat: people[0], pause: botPause() }));
}

/** How long a bot thinks at the offline table, in milliseconds (the
 * server's default; `tripoley:pause` in this browser changes it). */
export function botPause() {
  const kept = localStorage.getItem("tripoley:pause");
  const ms = Number(kept);
  return kept !== null && Number.isFinite(ms) ? Math.min(Math.max(ms, 0), 5000) : 700;
}

/** A new offline game, opened at `#offline`: `create` is the home form's
 * table (as `POST /api/tables` takes it), `names` a name per seat, `people`
 * the seats played on this device (the rest are bots of level `bot`).
 * @param {{ create: object, names: string[], people: number[], bot: string, pause: number }} game */
export function newGame({ create, names, people, bot, pause }) {
  const bots = names.map((_, seat) => (people.includes(seat) ? null : bot));
  const seed = String(Math.floor(Math.random() * 2 ** 52));
  localStorage.setItem(KEY, JSON.stringify({ start: { create, names, bots, seed }, people, seat: people[0], pause }));
}

/** @type {Worker | null} */
let worker = null;

/** The worker, started once per page. */
function theWorker() {
  worker ||= new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  return worker;
}

/** Asks the worker once: `{ presets }`, `{ analyse }` or `{ replay }`,
 * answered by the first message carrying `key` (or an error).
 * @param {object} question @param {string} key @returns {Promise<any>} */
export function ask(question, key) {
  const w = theWorker();
  return new Promise((resolve, reject) => {
    const on = (/** @type {MessageEvent} */ e) => {
      if (e.data.error) reject(offlineError(e.data.error));
      else if (e.data[key] !== undefined) resolve(e.data[key]);
      else return;
      w.removeEventListener("message", on);
    };
    w.addEventListener("message", on);
    w.postMessage(question);
  });
}

/** The Rust side's refusal (the protocol's `error` frame) as an Error with
 * the server's `code` and `detail`, for `errorText`. @param {string} text */
function offlineError(text) {
  let m = null;
  try {
    m = JSON.parse(text);
  } catch {
    m = { code: "invalid", message: text };
  }
  return failure(m.message, m.code, m.detail);
}

/** Whether this build of the app carries the offline engine: the page
 * says so (`data-engine`, written by the server that made it). */
export async function offlineReady() {
  return document.documentElement.hasAttribute("data-engine");
}

/** The offline table as a websocket: `send` takes the protocol's client
 * messages, `message` events carry its frames. `onDue` hears who must act
 * next (pass-and-play covers the table for another person of the device). */
export class OfflineLink extends EventTarget {
  /** @param {(due: { due: string, seat?: number }) => void} onDue */
  constructor(onDue) {
    super();
    /** As a websocket's. @type {number} */
    this.readyState = WebSocket.CONNECTING;
    const kept = keptGame();
    this.seat = kept ? kept.seat : 0;
    const w = theWorker();
    /** Whether a rematch was asked (its game replaces this one). */
    this.again = false;
    this.listener = (/** @type {MessageEvent} */ e) => {
      const d = e.data;
      if (d.open) {
        this.readyState = WebSocket.OPEN;
        this.dispatchEvent(new Event("open"));
      } else if (d.frame) this.dispatchEvent(new MessageEvent("message", { data: d.frame }));
      else if (d.saved) {
        keep({ saved: d.saved, over: d.over, start: undefined });
        // A rematch is a new game: the page starts afresh with it.
        if (this.again) location.reload();
      }
      else if (d.due) onDue(d.due);
      else if (d.error) this.dispatchEvent(new MessageEvent("message", { data: d.error.startsWith("{") ? d.error : JSON.stringify({ type: "error", code: "invalid", message: d.error }) }));
    };
    w.addEventListener("message", this.listener);
    if (!kept) {
      this.dispatchEvent(new MessageEvent("message", { data: JSON.stringify({ type: "error", code: "no_table", message: "no offline game" }) }));
      return;
    }
    if (kept.saved) w.postMessage({ resume: { saved: kept.saved, seat: kept.seat, pause: kept.pause } });
    else w.postMessage({ start: { ...kept.start, seat: kept.seat, pause: kept.pause } });
  }

  /** @param {string} text */
  send(text) {
    theWorker().postMessage({ msg: JSON.parse(text) });
  }

  /** Shows another seat of this device (pass-and-play): its welcome and
   * state follow, as a reconnection's would. @param {number} seat */
  show(seat) {
    this.seat = seat;
    keep({ seat });
    theWorker().postMessage({ show: seat });
  }

  /** The next game at this table (a rematch), which replaces this one. */
  rematch() {
    this.again = true;
    theWorker().postMessage({ again: { seed: String(Math.floor(Math.random() * 2 ** 52)) } });
  }

  close() {
    theWorker().removeEventListener("message", this.listener);
    this.readyState = WebSocket.CLOSED;
  }
}
