// The client's state of one table, and what it sends.

import { t } from "./i18n.js";

/** The engine's action "these are my five poker cards", set apart before
 * the betting (the one place its name is written). */
export const CHOOSE_FIVE = "choose";

/** The player's choices, kept in this browser: the four-colour deck, a
 * sound on their turn, the guided first game and the stages it explained. */
const DEFAULT_PREFS = { fourColour: false, sound: false, guide: false, seen: [] };

export const S = {
  invite: null, ws: null, last: null, table: null, view: null, turn: null,
  turnAt: 0, log: [], role: null, seat: null, host: false,
  chosen: new Set(), chosenFor: null, stopped: null, retry: 0, error: "", winners: null,
  hint: null, confirm: null, deal: null, results: [], finalTally: null, flights: [],
  // Cards of the last live move, to land one after another; whether cards were just dealt.
  landing: [], dealing: false,
  // The presets (`GET /api/presets`), to name the one a table's rules start from.
  presets: null,
  rematch: null, next: null, rules: null,
  // Which folding panels are open (by name), kept across redraws: `keptOpen` in dom.js.
  open: {}, copied: null, focusedFor: null,
  timedOut: false, warnedAt: null, offline: false,
  // The stage the guided game's explanation on screen is about (coach.js).
  coaching: null,
  // A replay of a game this viewer did not play (a link, a file): seen as
  // a player saw it, but nobody there is "you".
  onlooker: false,
  // Offline: who must act next, as the worker says (`{ due, seat }`).
  due: null,
  prefs: loadPrefs(),
};

function loadPrefs() {
  try {
    return { ...DEFAULT_PREFS, ...JSON.parse(localStorage.getItem("tripoley:prefs") || "{}") };
  } catch {
    return { ...DEFAULT_PREFS };
  }
}

export function savePrefs() {
  localStorage.setItem("tripoley:prefs", JSON.stringify(S.prefs));
}

/** A seat's name as this screen says it; the viewer's own is marked
 * "(you)" (a third person fits every sentence: "Ann (you) bids 3"). */
export function name(seat) {
  const s = S.table && S.table.seats[seat];
  const plain = (s && s.name) || t("seat-n", { n: seat + 1 });
  return seat === S.seat && !S.onlooker ? t("name-you", { name: plain }) : plain;
}

/** Words about the viewer's own hand: `mine` ("Your hand"), or
 * `theirs(name)` ("Ann's hand") to an onlooker of a replay. */
export function ownWords(mine, theirs, seat) {
  return S.onlooker ? theirs(name(seat)) : mine;
}

/** Whether this copy of the app has no server (written by `tripoley site`
 * for a static host): everything is played in the browser. */
export function serverless() {
  return document.documentElement.hasAttribute("data-serverless");
}

export function isNapalm() {
  return !!(S.table && S.table.settings && S.table.settings.game === "napalm");
}

/** Sends a message; one that cannot go (the connection is down) is not
 * dropped without a word: the player is told to do it again. */
export function send(msg) {
  if (S.ws && S.ws.readyState === WebSocket.OPEN) S.ws.send(JSON.stringify(msg));
  else S.error = t("offline-not-sent");
}

export function act(action) {
  S.error = "";
  S.timedOut = false;
  S.hint = null;
  S.confirm = null;
  send({ type: "act", action, n: S.last, seat: S.seat });
}

export function storeKey(invite) {
  return "tripoley:" + invite;
}

export function saved(invite) {
  try {
    return JSON.parse(localStorage.getItem(storeKey(invite)) || "null");
  } catch {
    return null;
  }
}

export function save(invite, data) {
  localStorage.setItem(storeKey(invite), JSON.stringify({ ...(saved(invite) || {}), ...data }));
}

export async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  }).catch(() => null);
  const data = res && await res.json().catch(() => null);
  // No answer, or a proxy's in front of several servers while one of them
  // stops or dies (its page is not ours): the player is told to try again.
  if (!res || (!data && res.status >= 502 && res.status <= 504)) {
    const err = new Error(t("error-unreachable"));
    err.code = "unreachable";
    throw err;
  }
  if (!res.ok) {
    // The server's code (translated by `errorText`) and its English words.
    const err = new Error((data && data.message) || res.statusText);
    err.code = data && data.code;
    err.detail = data && data.detail;
    throw err;
  }
  return data;
}
