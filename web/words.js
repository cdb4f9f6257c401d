// @ts-check
// What the table says, in the words players use: events, spaces, rules,
// each a message of the catalogue (locales/*/words.ftl).
// No rule id or option name ever reaches the screen.

import { cardText, sortCards, handName, SUIT_SYMBOLS } from "./cards.js";
import { t } from "./i18n.js";

/** @typedef {import("./frames.js").GameEvent} GameEvent */
/** @typedef {import("./frames.js").Account} Account */

/** @type {Record<string, string>} */
const SUIT_LETTER = { clubs: "C", diamonds: "D", hearts: "H", spades: "S" };
const PAY_SPACES = ["ace", "king", "queen", "jack", "ten", "king_queen"];

/** Who the seats are, as one table's screen names them: `name(seat)`
 * ("Ann (you)" for the viewer), and whether a seat's own events (its cards
 * dealt) may say "you" (`own`: not in a replay seen as a player by someone
 * else). A table's controller is one.
 * @typedef {{ name(seat: number): string, own(seat: number): boolean }} Names */

/** "You are dealt …", or "Ann is dealt …" to an onlooker.
 * @param {GameEvent} e @param {string} cards @param {Names} n */
export const dealtLine = (e, cards, n) => n.own(e.seat) ? t("ev-dealt", { cards }) : t("ev-dealt-to", { who: n.name(e.seat), cards });

/** A line that may start with "you" starts with a capital. @param {string} line */
export const capital = (line) => line[0].toUpperCase() + line.slice(1);

/** "Ace", or "Ace ♥" once the pay suit is known. @param {string} space @param {string | null} paySuit */
export function spaceName(space, paySuit) {
  const w = t("space", { space });
  return PAY_SPACES.includes(space) && paySuit ? w + " " + SUIT_SYMBOLS[SUIT_LETTER[paySuit]] : w;
}

/** "♥" for "hearts" (nothing for no suit). @param {string | null} suit */
export function suitSymbol(suit) {
  return SUIT_SYMBOLS[SUIT_LETTER[suit]] || "";
}

/** "hearts", in the page's language. @param {string} suit */
export const suitWord = (suit) => t("words-suit", { suit });

/** A ledger account: a player, a space or the pot. @param {Account} a @param {Names} n */
export function account(a, n) {
  if (a === "pot") return t("account-pot");
  if ("stack" in a) return n.name(a.stack);
  return t("account-space", { space: a.space });
}

/** Why chips moved, in words. @param {string} r */
export const reasonWords = (r) => t("reason", { reason: r });

const cards = (/** @type {string[]} */ cs) => sortCards(cs).map(cardText).join(" ");

/** Why a Michigan run stopped, in words. @param {GameEvent} e */
export function stopWhy(e) {
  return t("stop-why", { reason: e.reason, next: e.next ? cardText(e.next) : "" });
}

/** One Tripoley event as a line of the log (null: not worth a line).
 * @param {GameEvent} e @param {Names} namer */
export function describe(e, namer) {
  const n = (/** @type {number} */ s) => namer.name(s);
  switch (e.event) {
    case "drew_for_dealer": return t("ev-drew-for-dealer", { draws: e.draws.map((/** @type {[number, string]} */ [s, c]) => n(s) + " " + cardText(c)).join(", ") });
    case "first_dealer": return t("ev-first-dealer", { who: n(e.seat) });
    case "player_out": return t("ev-player-out", { who: n(e.seat), chips: e.chips });
    case "deal_started":
      return t("ev-deal-started", { number: e.number, dealer: n(e.dealer), suit: e.pay_suit || "none", sequence: e.sequence });
    case "transfer":
      if (e.reason === "ante" || e.reason === "bet") return null;
      return ledgerLine(e, namer);
    case "dealt": return dealtLine(e, cards(e.cards), namer);
    case "dealer_kept": return t("ev-dealer-kept", { who: n(e.seat) });
    case "swapped": return t("ev-swapped", { who: n(e.seat) });
    case "new_hand": return namer.own(e.seat) ? t("ev-new-hand", { cards: cards(e.cards) }) : t("ev-new-hand-to", { who: n(e.seat), cards: cards(e.cards) });
    case "auction_opened": return t("ev-auction-opened", { item: e.item });
    case "bid": return t("ev-bid", { who: n(e.seat), amount: e.amount });
    case "passed": return t("ev-passed", { who: n(e.seat) });
    case "auction_sold": return t("ev-auction-sold", { who: n(e.seat), price: e.price });
    case "auction_unsold": return t("ev-auction-unsold");
    case "pay_suit_named":
      return t("ev-pay-suit-named", { suit: e.suit, who: e.seat != null ? n(e.seat) : "", named: e.seat != null ? "yes" : "no" });
    case "pay_cards_shown": return t("ev-shows", { who: n(e.seat), cards: cards(e.cards) });
    case "sequence_shared": return t("ev-sequence-shared", { remainder: e.remainder });
    case "checked": return t("ev-checked", { who: n(e.seat) });
    case "bet": return t("ev-bet", { who: n(e.seat), amount: e.amount });
    case "called": return t("ev-called", { who: n(e.seat), amount: e.amount, allin: e.all_in ? "yes" : "no" });
    case "raised": return t("ev-raised", { who: n(e.seat), by: e.by });
    case "folded": return t("ev-folded", { who: n(e.seat) });
    case "chose_five": return namer.own(e.seat) ? t("ev-chose-five", { cards: cards(e.cards) }) : t("ev-chose-five-of", { who: n(e.seat), cards: cards(e.cards) });
    case "set_five_apart": return t("ev-set-five-apart", { who: n(e.seat) });
    case "showed": return t("ev-showed", { who: n(e.seat), cards: cards(e.cards), hand: handName(e.rank) });
    case "led": return t("ev-led", { who: n(e.seat), card: cardText(e.card), misplay: e.misplay ? "yes" : "no" });
    case "played": return null;
    case "withheld": return namer.own(e.seat) ? t("ev-withheld", { card: cardText(e.card) }) : t("ev-withheld-by", { who: n(e.seat), card: cardText(e.card) });
    case "run_stopped": return t("ev-run-stopped", { why: stopWhy(e) });
    case "cannot_lead": return t("ev-cannot-lead", { who: n(e.seat) });
    case "play_blocked": return t("ev-play-blocked");
    case "went_out": return t("ev-went-out", { who: n(e.seat) });
    case "final_pot_round": return t("ev-final-pot-round", { round: e.round, chips: e.chips });
    case "face_up": return t("ev-face-up", { who: n(e.seat), cards: cards(e.cards) });
    case "deal_ended": return t("ev-deal-ended", { number: e.number });
    case "game_over": return t("ev-game-over", { winners: names(e.winners.map(n)), count: e.winners.length });
    default: return null;
  }
}

/** "Ann", "Ann and Bob", "Ann, Bob and Cy" in the page's language. @param {string[]} list */
export function names(list) {
  if (list.length <= 1) return list.join("");
  return t("names-and", { first: list.slice(0, -1).join(", "), last: list[list.length - 1] });
}

/** Chips per space (`{pot: 2, kitty: 2, ace: 1, ...}`) in words: the
 * spaces that differ from the most common amount by name, "2 on the Pot
 * and the Kitty, 1 on every other space"; spaces not listed take `rest`.
 * @param {Record<string, number>} chips @param {number | null} [rest] */
export function spaceAntesWords(chips, rest = null) {
  /** @type {Map<number, string[]>} */
  const groups = new Map();
  for (const [space, n] of Object.entries(chips)) groups.set(n, [...(groups.get(n) || []), space]);
  if (rest == null) rest = [...groups].sort((a, b) => b[1].length - a[1].length)[0][0];
  const named = [...groups].filter(([n]) => n !== rest).sort((a, b) => b[0] - a[0])
    .map(([n, spaces]) => t("space-antes-on", { n, spaces: names(spaces.map((space) => t("account-space", { space }))) }));
  return named.length ? t("space-antes-words", { named: named.join(", "), rest }) : t("public-rule-ante", { chips: rest });
}

/** A transfer as the ledger shows it: "Ann → the Ace: 3 (pay card)".
 * @param {GameEvent} x @param {Names} n */
export function ledgerLine(x, n) {
  return capital(t("ledger-line", { from: account(x.from, n), to: account(x.to, n), amount: x.amount, reason: reasonWords(x.reason) }));
}

/** An action the engine takes, in words (the hint line). @param {any} a */
export function actionText(a) {
  if (typeof a === "string") return t("action", { action: a });
  const [k, v] = Object.entries(a)[0];
  if (k === "lead") return t("action-lead", { card: cardText(v) });
  if (k === "name_suit") return t("action-name-suit", { suit: v });
  if (Array.isArray(v)) return t("action-pick", { cards: cards(v) });
  return t("action-amount", { action: k, amount: v });
}

/** A move made, in words (the analysis's "Ann — bid 5"): where a language
 * says the expert's advice in its own mood (Spanish "pujaría"), the move
 * made is said as it was (Spanish "pujar"). @param {any} a */
export function moveText(a) {
  if (typeof a === "string") return t("move", { action: a });
  const [k, v] = Object.entries(a)[0];
  if (k === "lead") return t("move-lead", { card: cardText(v) });
  if (k === "name_suit") return t("move-name-suit", { suit: v });
  if (Array.isArray(v)) return t("move-pick", { cards: cards(v) });
  return t("move-amount", { action: k, amount: v });
}
