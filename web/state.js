// @ts-check
// What the page keeps for all its tables (each table's own state is its
// controller's: table.js): the player's preferences, what this browser
// keeps per table, and the server's HTTP API.

import { t, failure } from "./i18n.js";

/** The protocol version this client speaks (docs/protocol.md). */
export const PROTOCOL = 1;

/** A websocket to the table at `invite` (on the page's own server).
 * @param {string} invite */
export function socketTo(invite) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return new WebSocket(proto + "//" + location.host + "/ws/" + encodeURIComponent(invite));
}

/** The engine's action "these are my five poker cards", set apart before
 * the betting (the one place its name is written). */
export const CHOOSE_FIVE = "choose";

/** The player's choices, kept in this browser: the four-colour deck, a
 * sound on their turn, the guided first game and the stages it explained. */
/** @type {{ fourColour: boolean, sound: boolean, guide: boolean, seen: string[] }} */
const DEFAULT_PREFS = { fourColour: false, sound: false, guide: false, seen: [] };

/** The player's choices, kept in this browser, for every table of the page. */
export const prefs = loadPrefs();

function loadPrefs() {
  try {
    return { ...DEFAULT_PREFS, ...JSON.parse(localStorage.getItem("tripoley:prefs") || "{}") };
  } catch {
    return { ...DEFAULT_PREFS };
  }
}

export function savePrefs() {
  localStorage.setItem("tripoley:prefs", JSON.stringify(prefs));
}

/** Whether this copy of the app has no server (written by `tripoley site`
 * for a static host): everything is played in the browser. */
export function serverless() {
  return document.documentElement.hasAttribute("data-serverless");
}

/** What this browser keeps of the table at `invite` (its seat tokens). @param {string} invite */
export function storeKey(invite) {
  return "tripoley:" + invite;
}

/** @param {string} invite @returns {any} */
export function saved(invite) {
  try {
    return JSON.parse(localStorage.getItem(storeKey(invite)) || "null");
  } catch {
    return null;
  }
}

/** @param {string} invite @param {object} data */
export function save(invite, data) {
  localStorage.setItem(storeKey(invite), JSON.stringify({ ...(saved(invite) || {}), ...data }));
}

/** No answer (a failed promise's `catch`: the caller says what that means).
 * @returns {null} */
export const nothing = () => null;

/** A request to the server's HTTP API, answered with its JSON (a refusal
 * thrown as a `Failure`). @param {string} method @param {string} path @param {object} [body] @returns {Promise<any>} */
export async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  }).catch(nothing);
  const data = res && await res.json().catch(nothing);
  // No answer, or a proxy's in front of several servers while one of them
  // stops or dies (its page is not ours): the player is told to try again.
  if (!res || (!data && res.status >= 502 && res.status <= 504)) {
    throw failure(t("error-unreachable"), "unreachable");
  }
  if (!res.ok) {
    // The server's code (translated by `errorText`) and its English words.
    throw failure((data && data.message) || res.statusText, data && data.code, data && data.detail);
  }
  return data;
}
