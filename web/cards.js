// @ts-check
// Cards: their faces, their order in a hand, and poker values (to preselect
// the best five for the player, who can still change them).

import { el } from "./dom.js";
import { t } from "./i18n.js";

export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
export const SUIT_LETTERS = ["C", "D", "H", "S"];
/** @type {Record<string, string>} */
export const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
/** @type {Record<string, string>} */
const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };

/** @param {string} c */
export const rankOf = (c) => RANKS.indexOf(c.slice(0, -1));
/** @param {string} c */
export const suitOf = (c) => c.slice(-1);

/** "10♥": a card as players write it. @param {string} c */
export function cardText(c) {
  return c.slice(0, -1) + SUIT_SYMBOLS[suitOf(c)];
}

/** "ten of hearts": what a screen reader says. @param {string} c */
export function cardWords(c) {
  // Numbers match the catalogue's numeric keys ([10]), letters its names ([J]).
  const r = c.slice(0, -1);
  return t("card-words", { rank: Number(r) || r, suit: SUIT_WORDS[suitOf(c)] });
}

/** By suit (clubs, diamonds, spades, hearts: colours alternate), low to high. @param {string[]} cards */
export function sortCards(cards) {
  const order = "CDSH";
  const key = (/** @type {string} */ c) => order.indexOf(suitOf(c)) * 20 + rankOf(c);
  return [...cards].sort((a, b) => key(a) - key(b));
}

/** A card face: rank and suit in the corner, the suit large in the middle.
 * `attrs` go on the element (a button when it can be clicked). */
/** @param {string} c @param {{ tag?: "span" | "button", attrs?: import("./dom.js").Attrs, small?: boolean }} [how] */
export function cardFace(c, { tag = "span", attrs = {}, small = false } = {}) {
  const s = suitOf(c);
  const r = c.slice(0, -1);
  const { class: extra, ...rest } = attrs;
  const cls = "cardface suit-" + s + (small ? " small" : "") + (extra ? " " + extra : "");
  // A card that cannot be clicked is a picture to a screen reader.
  const role = tag === "button" ? null : "img";
  return el(tag, { role, "aria-label": cardWords(c), ...rest, class: cls },
  el("span", { class: "corner", "aria-hidden": "true" }, r, el("br"), SUIT_SYMBOLS[s]),
  el("span", { class: "pip", "aria-hidden": "true" }, SUIT_SYMBOLS[s]));
}

// ----- poker -----

/** The name of an engine `HandRank` (its category sits above bit 26). @param {number} rank */
export function handName(rank) {
  return t("hand-name", { category: rank >>> 26 });
}

/** A comparable value of five cards (larger is better). @param {string[]} cards @param {boolean} aceAlwaysHigh */
function value5(cards, aceAlwaysHigh) {
  const ranks = cards.map(rankOf).sort((a, b) => b - a);
  const flush = cards.every((c) => suitOf(c) === suitOf(cards[0]));
  const counts = new Map();
  for (const r of ranks) counts.set(r, (counts.get(r) || 0) + 1);
  // Groups, largest first, then higher rank first.
  const groups = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  let top = -1;
  if (counts.size === 5) {
    if (ranks[0] - ranks[4] === 4) top = ranks[0];
    else if (!aceAlwaysHigh && ranks[0] === 12 && ranks[1] === 3) top = 3; // A-2-3-4-5
  }
  const shape = groups.map((g) => g[1]).join("");
  let cat;
  if (top >= 0) cat = flush ? 8 : 4;
  else if (shape === "41") cat = 7;
  else if (shape === "32") cat = 6;
  else if (flush) cat = 5;
  else if (shape === "311") cat = 3;
  else if (shape === "221") cat = 2;
  else if (shape === "2111") cat = 1;
  else cat = 0;
  // Category first, then five rank digits (padded), so that any hand of a
  // better category beats any of a worse one.
  const detail = top >= 0 ? [top] : groups.map((g) => g[0]);
  while (detail.length < 5) detail.push(0);
  return detail.reduce((v, r) => v * 16 + r, cat);
}

/** The best five of `cards` (all of them when five or fewer). @param {string[]} cards @returns {string[]} */
export function bestFive(cards, aceAlwaysHigh = false) {
  if (cards.length <= 5) return [...cards];
  let best = null;
  let bestValue = -1;
  /** @type {string[]} */
  const pick = [];
  const walk = (/** @type {number} */ start) => {
    if (pick.length === 5) {
      const v = value5(pick, aceAlwaysHigh);
      if (v > bestValue) {
        bestValue = v;
        best = [...pick];
      }
      return;
    }
    for (let i = start; i <= cards.length - (5 - pick.length); i++) {
      pick.push(cards[i]);
      walk(i + 1);
      pick.pop();
    }
  };
  walk(0);
  return best;
}
